"""Rules across editions: the alignment of two editions (pure, no database: `align`, the
rounds of `matcher`, `side`, `text`), the word-level diff (`wordiff`, `highlight`), and the
read-only queries over the stored alignment (`query`: a diff of two editions, a rule's
history).

Imports `rulesdb.db` and the basic lookups (`rulesdb.lookup`), never a layer.
"""
