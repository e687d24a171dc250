"""Layers computed over stored documents; each writes its own tables and can be rebuilt alone.

Each layer is `compute(db, doc_ids) -> summary line`, run in this order. Layers read and write
through `rulesdb.db` and use the stages below them (`lookup`, `lineage`, `trace`, `engine`);
only `rulesdb.sources` runs them.
"""

from collections.abc import Callable

import sqlite_utils

from . import enforcement, keywords, lineage, paraphrases, references, terms

Layer = Callable[[sqlite_utils.Database, list[str]], str]

LAYERS: dict[str, Layer] = {
    "references": references.compute,
    "keywords": keywords.compute,
    "enforcement": enforcement.compute,
    "lineage": lineage.compute,
    # before terms: it runs here while the terms layer's worker finds its mentions
    "paraphrases": paraphrases.compute,
    "terms": terms.compute,
}
