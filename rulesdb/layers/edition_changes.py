"""What changed from one CR edition to the next, counted when the pair is aligned: the counts
per change type (`edition_changes`) and the largest edits (`edition_edits`), so the feed of
releases and each edition's release notes read a few rows instead of the alignments."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

import sqlite_utils

from ..db.bulk import insert_tuples
from ..lineage import wordiff
from ..lineage.align import Change, RuleRec
from ..lineage.overrides import HandChange
from ..lineage.query import OP_ORDER

OPS = OP_ORDER  # the change types counted, as the diff lists them
EDITS = ("edited", "renumbered_edited")
LARGEST = 10  # edits kept per edition


def forget(db: sqlite_utils.Database, old_doc: str, new_doc: str) -> None:
    """Drop what is stored for a pair."""
    for table in ("edition_changes", "edition_edits"):
        db.execute(f"DELETE FROM {table} WHERE old_doc = ? AND new_doc = ?", [old_doc, new_doc])


def store(db: sqlite_utils.Database, old_doc: str, new_doc: str, changes: list[Change],
          old_rules: Mapping[str, RuleRec], new_rules: Mapping[str, RuleRec],
          layout: bool = False) -> None:
    """Store the counts and the largest edits of the alignment of a pair of editions (whose
    rules, by number, give the texts of the edits; a judges' document's, with `layout`,
    compared in the new edition's order of lines: `wordiff.layout_opcodes`)."""
    forget(db, old_doc, new_doc)
    counts = Counter(change.op for change in changes)
    insert_tuples(db, "edition_changes", ("old_doc", "new_doc", *OPS),
                  [(old_doc, new_doc, *(counts[op] for op in OPS))])
    edits = [change for change in changes if change.op in EDITS]
    if not edits:
        return
    sized = [(words_changed(_text(old_rules, c.old), _text(new_rules, c.new), layout), at, c)
             for at, c in enumerate(edits)]
    sized.sort(key=lambda item: (-item[0], item[1]))
    insert_tuples(db, "edition_edits",
                  ("old_doc", "new_doc", "rank", "old_number", "new_number", "change",
                   "similarity", "words", "set_by_hand"),
                  [(old_doc, new_doc, rank, c.old, c.new, c.op, c.similarity, size,
                    int(isinstance(c, HandChange)))
                   for rank, (size, _, c) in enumerate(sized[:LARGEST], 1)])


def words_changed(old: str, new: str, layout: bool = False) -> int:
    """How many words an edit took out and put in (`layout`: `wordiff.layout_opcodes`)."""
    compare = wordiff.layout_opcodes if layout else wordiff.opcodes
    return sum(len(op["old"].split()) + len(op["new"].split())
               for op in compare(old, new) if op["op"] != "equal")


def _text(rules: Mapping[str, RuleRec], number: str | None) -> str:
    rule = rules.get(number or "")
    return (rule.text or "") if rule else ""
