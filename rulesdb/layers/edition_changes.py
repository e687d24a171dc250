"""What changed from one CR edition to the next, counted when the pair is aligned: the counts
per change type (`edition_changes`) and the largest edits (`edition_edits`), so the feed of
releases and each edition's release notes read a few rows instead of the alignments."""

from __future__ import annotations

from collections import Counter

import sqlite_utils

from ..db.bulk import insert_tuples
from ..lineage import wordiff
from ..lineage.align import Change
from ..lineage.overrides import HandChange

OPS = ("edited", "renumbered_edited", "renumbered", "split", "merged", "added", "removed",
       "outside_coverage")
EDITS = ("edited", "renumbered_edited")
LARGEST = 10  # edits kept per edition


def forget(db: sqlite_utils.Database, old_doc: str, new_doc: str) -> None:
    """Drop what is stored for a pair."""
    for table in ("edition_changes", "edition_edits"):
        db.execute(f"DELETE FROM {table} WHERE old_doc = ? AND new_doc = ?", [old_doc, new_doc])


def store(db: sqlite_utils.Database, old_doc: str, new_doc: str, changes: list[Change]) -> None:
    """Store the counts and the largest edits of the alignment of a pair of editions."""
    forget(db, old_doc, new_doc)
    counts = Counter(change.op for change in changes)
    insert_tuples(db, "edition_changes", ("old_doc", "new_doc", *OPS),
                  [(old_doc, new_doc, *(counts[op] for op in OPS))])
    edits = [change for change in changes if change.op in EDITS]
    if not edits:
        return
    texts = _texts(db, old_doc, [c.old for c in edits]), _texts(db, new_doc, [c.new for c in edits])
    sized = [(words_changed(texts[0].get(c.old, ""), texts[1].get(c.new, "")), at, c)
             for at, c in enumerate(edits)]
    sized.sort(key=lambda item: (-item[0], item[1]))
    insert_tuples(db, "edition_edits",
                  ("old_doc", "new_doc", "rank", "old_number", "new_number", "change",
                   "similarity", "words", "set_by_hand"),
                  [(old_doc, new_doc, rank, c.old, c.new, c.op, c.similarity, size,
                    int(isinstance(c, HandChange)))
                   for rank, (size, _, c) in enumerate(sized[:LARGEST], 1)])


def words_changed(old: str, new: str) -> int:
    """How many words an edit took out and put in."""
    return sum(len(op["old"].split()) + len(op["new"].split())
               for op in wordiff.opcodes(old, new) if op["op"] != "equal")


def _texts(db: sqlite_utils.Database, doc_id: str, numbers: list[str | None]) -> dict[str, str]:
    wanted = sorted({number for number in numbers if number})
    return {number: text or "" for number, text in db.execute(
        f"SELECT number, text FROM rules WHERE document = ? AND number IN "
        f"({', '.join('?' * len(wanted))})", [doc_id, *wanted])}
