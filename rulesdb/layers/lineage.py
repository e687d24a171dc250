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

from .. import wordiff
from ..lineage import PAIR_OPS, Change, align
from ..lineage_query import edition
from ..schema import ensure_schema
from . import concepts
from .bulk import insert_rows

EDITS = ("edited", "renumbered_edited", "split", "merged")


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
    for old_doc, new_doc in wanted:
        if (old_doc, new_doc) in stored and not {old_doc, new_doc} & touched:
            continue
        aligned += _store_pair(db, old_doc, new_doc)
    lineage_count = _store_lineages(db, editions)
    links = concepts.compute(db, doc_ids)
    return (f"{len(wanted)} edition pairs ({aligned} rules aligned now), {lineage_count} "
            f"lineages, {links} concept links")


def _store_pair(db: sqlite_utils.Database, old_doc: str, new_doc: str) -> int:
    old_rules, old_cover = edition(db.conn, old_doc)
    new_rules, new_cover = edition(db.conn, new_doc)
    ids, texts = {}, {}
    for row_id, doc, number, text in db.execute(
            "SELECT id, document, number, text FROM rules WHERE document IN (?, ?)",
            [old_doc, new_doc]):
        ids[(doc, number)] = row_id
        texts[(doc, number)] = text
    rows = [
        {"old_doc": old_doc, "new_doc": new_doc,
         "old_rule_id": ids.get((old_doc, change.old)),
         "new_rule_id": ids.get((new_doc, change.new)),
         "old_number": change.old, "new_number": change.new, "change": change.op,
         "similarity": change.similarity, "detail": _detail(change, old_doc, new_doc, texts)}
        for change in align(old_rules, new_rules, old_cover, new_cover)
    ]
    insert_rows(db, "alignments", rows)
    return len(rows)


def _detail(change: Change, old_doc: str, new_doc: str,
            texts: dict[tuple[str, str | None], str]) -> str | None:
    """JSON word-level opcodes of an edit; {"citations_only": true} for updated citations."""
    if change.citations_only:
        return json.dumps({"citations_only": True})
    if change.op not in EDITS:
        return None
    words = wordiff.opcodes(texts[(old_doc, change.old)], texts[(new_doc, change.new)])
    return json.dumps({"words": words}, ensure_ascii=False)


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
            rows.append({"lineage": lineage[row_id], "rule_id": row_id, "document": doc_id,
                         "number": number})
    insert_rows(db, "lineages", rows)
    return len(set(lineage.values()))
