"""Where rulesdb's files are: the corpus the package ships (`shipped`, read through
importlib.resources) and the user's data folder (`user`: the default database, the releases
added with `add` and `fetch`, the user's alignments set by hand)."""
