"""Lineage layer: alignments between consecutive CR editions, lineages, concept links.

Pairs are consecutive Comprehensive Rules editions by effective date. Given the ids of new
or rebuilt documents, only the pairs touching them are (re)computed; a stored pair that is
no longer consecutive (a new edition now sits between its two) is dropped. Lineages (one
stable id per rule across editions: "<first document>/<number there>") are recomputed over
the whole database; concept links (rulesdb.layers.concepts) only from or to the given
documents.
"""

from __future__ import annotations

import json
from itertools import pairwise

import sqlite_utils

from ..bulk import insert_tuples
from ..coverage import Coverage
from ..lineage import PAIR_OPS, Side, align
from ..lineage_query import edition
from ..schema import ensure_schema
from . import concepts


def compute(db: sqlite_utils.Database, doc_ids: list[str]) -> str:
    """Align the CR pairs touching `doc_ids`, then rebuild lineages and concept links."""
    ensure_schema(db, ["alignments", "lineages", "concept_links"])
    editions = [row[0] for row in db.execute(
        "SELECT id FROM documents WHERE kind = 'comprehensive_rules' "
        "ORDER BY effective_date, id")]
    wanted = list(pairwise(editions))
    stored = set(db.execute("SELECT DISTINCT old_doc, new_doc FROM alignments").fetchall())
    touched = set(doc_ids)
    for old_doc, new_doc in stored:
        if (old_doc, new_doc) not in wanted or {old_doc, new_doc} & touched:
            db.execute("DELETE FROM alignments WHERE old_doc = ? AND new_doc = ?",
                       [old_doc, new_doc])
    aligned = 0
    sides: dict[str, tuple[Side, Coverage, dict[str, int]]] = {}
    for old_doc, new_doc in wanted:
        if (old_doc, new_doc) in stored and not {old_doc, new_doc} & touched:
            continue
        aligned += _store_pair(db, old_doc, new_doc, sides)
    lineage_count = _store_lineages(db, editions)
    links = concepts.compute(db, doc_ids)
    return (f"{len(wanted)} edition pairs ({aligned} rules aligned now), {lineage_count} "
            f"lineages, {links} concept links")


def _store_pair(db: sqlite_utils.Database, old_doc: str, new_doc: str,
                sides: dict[str, tuple[Side, Coverage, dict[str, int]]]) -> int:
    """Align one pair and store it; `sides` keeps each edition prepared for its next pair.

    The word-level differences of an edit are not stored: `rulesdb diff` and the site compute
    them for the edits they show, and storing them took half the table for every edition.
    """
    for doc in (old_doc, new_doc):
        if doc not in sides:
            rules, cover = edition(db.conn, doc)
            ids = dict(db.execute("SELECT number, id FROM rules WHERE document = ?", [doc]))
            sides[doc] = (Side(rules), cover, ids)
    (old_side, old_cover, old_ids), (new_side, new_cover, new_ids) = sides[old_doc], sides[new_doc]
    rows = [
        (old_doc, new_doc, old_ids.get(change.old), new_ids.get(change.new), change.old,
         change.new, change.op, change.similarity,
         CITATIONS_ONLY if change.citations_only else None)
        for change in align(old_side, new_side, old_cover, new_cover)
    ]
    insert_tuples(db, "alignments", ALIGNMENT_COLUMNS, rows)
    return len(rows)


CITATIONS_ONLY = json.dumps({"citations_only": True})  # the one detail an alignment stores
ALIGNMENT_COLUMNS = ("old_doc", "new_doc", "old_rule_id", "new_rule_id", "old_number",
                     "new_number", "change", "similarity", "detail")


def _store_lineages(db: sqlite_utils.Database, editions: list[str]) -> int:
    """One lineage per chain of one-to-one matches (a split continues into its best part)."""
    db.execute("DELETE FROM lineages")
    successor: dict[int, int] = {}
    predecessor: dict[int, int] = {}
    for old_id, new_id, _op in db.execute(
        "SELECT old_rule_id, new_rule_id, change FROM alignments "
        "WHERE old_rule_id IS NOT NULL AND new_rule_id IS NOT NULL "
        f"AND change IN ({','.join('?' * (len(PAIR_OPS) + 2))}) "
        "ORDER BY change IN ('split', 'merged'), similarity DESC, id",
        [*PAIR_OPS, "split", "merged"],
    ):
        if old_id not in successor and new_id not in predecessor:
            successor[old_id] = new_id
            predecessor[new_id] = old_id
    lineage: dict[int, str] = {}
    rows = []
    for doc_id in editions:
        for row_id, number in db.execute(
            "SELECT id, number FROM rules WHERE document = ? ORDER BY position", [doc_id]
        ):
            before = predecessor.get(row_id)
            lineage[row_id] = lineage.get(before or -1, f"{doc_id}/{number}")
            rows.append((lineage[row_id], row_id, doc_id, number))
    insert_tuples(db, "lineages", ("lineage", "rule_id", "document", "number"), rows)
    return len(set(lineage.values()))
