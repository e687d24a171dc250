"""Full-text search across rules, rulings, examples and glossary entries, every edition that
says the same folded into one hit (shown by its newest), and what a query that is a rule
number looks like.

Plain sqlite3 over a built database, cheap to import (no spaCy, no sqlite-utils).
"""

from __future__ import annotations

import re
import sqlite3
from typing import Any

from .query import Row, in_editions

HIT_START, HIT_END = "\x02", "\x03"  # snippet highlight markers, rendered per output format
RULE_NUMBER = re.compile(
    r"^\s*(?:\d{1,3}(?:\.\d+[a-z]?)?|[A-Z](?:\.(?:\d+|Ruling\.\d+|Note\.\d+))+)\.?\s*$")
WORD = re.compile(r"[\w’'-]+")
SEARCH_TABLES = {
    # table: (bm25 column weights: a hit in a title or term counts more, label column, the
    # table read and what says the same: a rule's text id, since each text is stored once
    # (reading the texts of 6,000 hits was half a search at full history))
    "rules": ("10.0, 1.0", "t.number", "rule_rows", "t.text_id"),
    "examples": ("1.0", "t.number", "examples", "t.text"),
    "glossary": ("10.0, 1.0", "t.term", "glossary", "t.definition"),
}


def looks_like_rule_number(query: str) -> bool:
    """True for "702.19", "702.19b.", "702", "A.1.Ruling.3"."""
    return bool(RULE_NUMBER.match(query))


def fts_query(query: str, any_word: bool = False) -> str:
    """A safe FTS5 query: quoted phrases kept, other words quoted; AND unless `any_word`."""
    phrases = re.findall(r'"([^"]+)"', query)
    rest = re.sub(r'"[^"]*"?', " ", query)
    terms = [" ".join(WORD.findall(p)) for p in phrases] + WORD.findall(rest)
    terms = [t.replace("’", "'") for t in terms if t.strip("-'’")]
    return (" OR " if any_word else " ").join(f'"{t}"' for t in terms)


def search(conn: sqlite3.Connection, query: str, doc_id: str | None = None,
           limit: int = 10) -> list[Row]:
    """Ranked full-text hits across rules, rulings, examples and glossary entries; every word
    must match, or, when nothing does, any word."""
    strict = fts_query(query)
    if not strict:
        return []
    hits = _search(conn, strict, doc_id, limit)
    if not hits and " " in strict:
        hits = _search(conn, fts_query(query, any_word=True), doc_id, limit)
    return hits


FOLD_ROWS = 20_000  # at most this many matching rows are read to fold editions together


def _search(conn: sqlite3.Connection, match: str, doc_id: str | None, limit: int) -> list[Row]:
    found: list[tuple[str, list[sqlite3.Row], list[list[sqlite3.Row]], float]] = []
    for table, (weights, label, source, body) in SEARCH_TABLES.items():
        where = f"{table}_fts MATCH ?" + (" AND t.document = ?" if doc_id else "")
        sql = (
            f"SELECT t.id, t.document, {label} AS label, d.kind AS doc_kind, "
            f"d.effective_date AS date, d.partial, bm25({table}_fts, {weights}) AS score, "
            f"{body} AS body FROM {table}_fts JOIN {source} t ON t.id = {table}_fts.rowid "
            f"JOIN documents d ON d.id = t.document WHERE {where} ORDER BY score LIMIT ?"
        )
        params: list[Any] = [match, *([doc_id] if doc_id else []), FOLD_ROWS]
        try:
            rows = conn.execute(sql, params).fetchall()
        except sqlite3.OperationalError:
            continue  # a table without full-text index (an old database) has no hits
        found += [(table, *hit) for hit in _by_label(_fold(rows))[:limit]]
    # the glossary entry named exactly by the query first: what a judge asking "trample" wants
    exact = match.strip('"').lower()
    found.sort(key=lambda hit: (hit[0] != "glossary" or hit[1][0]["label"].lower() != exact,
                                hit[3]))
    found = found[:limit]
    snippets: dict[tuple[str, int], str] = {}
    for table in SEARCH_TABLES:  # only for the hits shown, one query per table
        ids = [group[0]["id"] for kind, group, _, _ in found if kind == table]
        if ids:
            snippets.update(((table, rowid), snippet) for rowid, snippet in conn.execute(
                f"SELECT rowid, snippet({table}_fts, -1, '{HIT_START}', '{HIT_END}', '…', 16) "
                f"FROM {table}_fts WHERE {table}_fts MATCH ? AND rowid IN "
                f"({','.join('?' * len(ids))})", [match, *ids]))
    hits: list[Row] = []
    for table, group, wordings, score in found:
        row = group[0]
        kind = {"rules": "ruling" if row["doc_kind"] == "rulings_summary" else "rule",
                "examples": "example", "glossary": "glossary"}[table]
        hits.append({"kind": kind, "document": row["document"],
                     "number" if table != "glossary" else "term": row["label"],
                     "score": round(score, 3), "snippet": snippets[table, row["id"]],
                     "also_in": [other["document"] for other in group[1:]],
                     "other_wordings": [[other["document"] for other in wording]
                                        for wording in wordings]})
    return hits


def _by_label(groups: list[list[sqlite3.Row]]) -> list[tuple[list[sqlite3.Row],
                                                                list[list[sqlite3.Row]], float]]:
    """Groups of the same number or term as one hit, ranked by its best scoring wording: the
    newest wording, and the others (each a group of editions), newest first."""
    merged: dict[str, tuple[list[sqlite3.Row], list[list[sqlite3.Row]]]] = {}
    for group in groups:
        label = group[0]["label"]
        if label in merged:
            merged[label][1].append(group)
        else:
            merged[label] = (group, [])
    result = []
    for best, others in merged.values():  # in the order of their best score
        every = sorted([best, *others], key=lambda group: group[0]["date"] or "", reverse=True)
        result.append((every[0], every[1:], best[0]["score"]))  # the newest stands for all
    return result


def _fold(rows: list[sqlite3.Row]) -> list[list[sqlite3.Row]]:
    """Rows grouped by what they say (number or term, and text), best score first; in each
    group the newest whole document first."""
    groups: dict[tuple[str, str], list[sqlite3.Row]] = {}
    for row in rows:
        groups.setdefault((row["label"], row["body"]), []).append(row)
    folded = list(groups.values())
    for group in folded:
        group.sort(key=lambda row: (row["date"] or "", not row["partial"]), reverse=True)
    return folded


def oldest(docs: list[str]) -> str:
    """The oldest of document ids: CR ids sort by their date; another kind comes last."""
    return min(docs, key=lambda doc: (not doc.startswith("cr-"), doc))


def also_in(hit: Row) -> str:
    """"; the same in 47 more editions, cr-2003-03-15 … cr-2025-11-14" for a folded hit."""
    others = hit.get("also_in") or []
    same = f"; the same {in_editions(others[::-1])}" if others else ""  # newest first
    wordings = hit.get("other_wordings") or []
    if wordings:
        docs = [doc for wording in wordings for doc in wording]
        same += (f"; {len(wordings)} other wording{'s' if len(wordings) > 1 else ''} "
                 f"back to {oldest(docs)}")
    return same
