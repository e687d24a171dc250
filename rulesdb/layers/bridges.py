"""Overrides between CR editions that are not consecutive, and what they do to lineages.

Such an override holds for the diff of its two editions (aligned on the fly), and a link
also joins the two rules' lineages when the older rule's lineage ends before the newer
one's begins (a rule dropped for some editions and printed again, or one the alignment lost
on the way): the newer lineage takes the older one's id. When both lineages go on through
an edition between, the alignment of some consecutive pair would have to change to join
them, and which one is the user's call: the status says so. Each override's status in
`alignment_overrides` tells what it did.
"""

from __future__ import annotations

import sqlite_utils

from ..lineage.overrides import Override


def bridge(db: sqlite_utils.Database, editions: list[str], overrides: list[Override]) -> int:
    """Apply `overrides` (between editions no stored pair joins) to the lineages and record
    what each did; how many lineages were joined."""
    index = {doc: at for at, doc in enumerate(editions)}
    joined = 0
    for override in overrides:
        if override.old_doc not in index or override.new_doc not in index:
            present = db.execute("SELECT count(*) FROM documents WHERE id IN (?, ?)",
                                 list(override.pair)).fetchone()[0]
            if present == 2:
                _set(db, override, "applied to the diff of the two documents; no lineage "
                                   "(one of them is a fragment of a whole release)")
            continue
        old, new = _lineage(db, override.old_doc, override.old_number), _lineage(
            db, override.new_doc, override.new_number)
        if not override.link:
            _set(db, override, "applied to the diff of the two editions" + (
                "; one lineage still runs from one to the other through the editions "
                "between: unlink the consecutive pair where it goes wrong" if old == new
                else ""))
        elif old == new:
            _set(db, override, "applied: one lineage already")
        else:
            old_end = max(_spans(db, old, index))
            new_start = min(_spans(db, new, index))
            if old_end < new_start:
                db.execute("UPDATE lineages SET lineage = ? WHERE lineage = ?", [old, new])
                joined += 1
                _set(db, override, "applied: lineages joined")
            else:
                _set(db, override, "applied to the diff of the two editions; lineages not "
                                   f"joined: both go on in {editions[new_start]}")
    return joined


def _lineage(db: sqlite_utils.Database, doc: str, number: str) -> str:
    row = db.execute("SELECT l.lineage FROM rule_rows r JOIN lineages l ON l.rule_id = r.id "
                     "WHERE r.document = ? AND r.number = ?", [doc, number]).fetchone()
    return row[0] if row else f"{doc}/{number}"


def _spans(db: sqlite_utils.Database, lineage: str, index: dict[str, int]) -> list[int]:
    """The places in the chain of the editions a lineage has a rule in."""
    return [index[doc] for (doc,) in db.execute(
        "SELECT document FROM lineages WHERE lineage = ?", [lineage]) if doc in index] or [-1]


def _set(db: sqlite_utils.Database, override: Override, status: str) -> None:
    db.execute("UPDATE alignment_overrides SET status = ? WHERE old_doc = ? AND old_number = ? "
               "AND new_doc = ? AND new_number = ?", [status, *override.key])
