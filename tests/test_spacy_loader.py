"""spaCy imported without its command line: the same tokens, and spacy.cli still importable."""

from __future__ import annotations

import subprocess
import sys

from conftest import SOURCES

# Tokens of every line of the bundled sources, printed as one digest; `how` says how spaCy
# is imported. Each run is a fresh process: an import cannot be undone in this one.
TOKENS = """
import hashlib, sys
from pathlib import Path
how, folder = sys.argv[1], Path(sys.argv[2])
if how == "loader":
    from rulesdb.layers.spacy_loader import import_spacy
    spacy = import_spacy()
else:
    import spacy
nlp = spacy.blank("en")
digest = hashlib.sha256()
for path in sorted(folder.glob("*.txt")):
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        digest.update(repr([(t.idx, len(t)) for t in nlp.tokenizer(line)]).encode())
print(digest.hexdigest(), "spacy.cli" in sys.modules)
import spacy.cli
print(hasattr(spacy.cli, "app"), callable(spacy.info))
"""


def run(how: str) -> list[str]:
    return subprocess.run([sys.executable, "-c", TOKENS, how, str(SOURCES)], check=True,
                          capture_output=True, text=True).stdout.split()


def test_the_loader_tokenizes_as_plain_spacy_and_leaves_the_real_cli_importable():
    plain, light = run("plain"), run("loader")
    assert light[0] == plain[0]  # the same tokens on every line of the bundled sources
    assert plain[1] == "True"  # a plain import loads the command line ...
    assert light[1] == "False"  # ... the loader does not
    assert light[2:] == ["True", "True"]  # and `import spacy.cli` gives the real one after
