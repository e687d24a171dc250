"""The diff of two editions as the diff notebook counts and shows it, from the lineage layer's
stored alignment (consecutive CR editions) or one computed on the fly (any other pair)."""

from __future__ import annotations

import sqlite3
from collections import Counter, defaultdict
from typing import Any

from ..lineage.highlight import Edit, changed_words
from ..lookup import query
from .queries import chapter_key, row_count

Row = dict[str, Any]


def cr_editions(conn: sqlite3.Connection) -> list[str]:
    """The Comprehensive Rules editions, oldest first."""
    return [row[0] for row in conn.execute(
        "SELECT id FROM documents WHERE kind = 'comprehensive_rules' ORDER BY effective_date, id")]


def stored_pairs(conn: sqlite3.Connection) -> list[tuple[str, str]]:
    """The edition pairs whose alignment the lineage layer stored, oldest first."""
    if not row_count(conn, "alignments"):
        return []
    return [tuple(row) for row in conn.execute(
        "SELECT old_doc, new_doc FROM alignments JOIN documents ON documents.id = new_doc "
        "GROUP BY old_doc, new_doc ORDER BY max(effective_date), new_doc")]


def default_pair(conn: sqlite3.Connection) -> tuple[str, str] | None:
    """The two newest complete CR editions, else the two newest; None with fewer than two."""
    editions = cr_editions(conn)
    partial = {row[0] for row in conn.execute("SELECT id FROM documents WHERE partial")}
    complete = [doc for doc in editions if doc not in partial]
    chosen = complete if len(complete) >= 2 else editions
    return (chosen[-2], chosen[-1]) if len(chosen) >= 2 else None


def edition_diff(conn: sqlite3.Connection, old: str, new: str) -> Row:
    """`rulesdb diff OLD NEW --json`'s shape; `alignment` says 'stored' or 'computed'."""
    from ..lineage.query import diff

    return diff(conn, old, new)


def chapters(conn: sqlite3.Connection, diff: Row) -> dict[str, Counter]:
    """Change types counted per chapter (of the new number, else the old one); rules outside
    the coverage of a partial edition are left out (they were not compared)."""
    kinds = dict(conn.execute("SELECT id, kind FROM documents").fetchall())
    result: dict[str, Counter] = defaultdict(Counter)
    for change in diff["changes"]:
        if change["op"] == "outside_coverage":
            continue
        if change["new"]:
            key = chapter_key(kinds.get(diff["new"], ""), change["new"])
        else:
            key = chapter_key(kinds.get(diff["old"], ""), change["old"] or "?")
        result[key][change["op"]] += 1
    return dict(sorted(result.items(), key=lambda item: query.natural_key(item[0])))


def largest_edits(diff: Row, limit: int = 10) -> list[Edit]:
    """The edits changing the most words (ties: the least similar first)."""
    edits = [Edit(c["old"], c["new"], c["op"], c["similarity"], tuple(c["words"]))
             for c in diff["changes"] if c.get("words")]
    edits.sort(key=lambda e: (-changed_words(e.ops), e.similarity or 0.0,
                              query.natural_key(e.new_number or "")))
    return edits[:limit]


def similarities(diff: Row) -> dict[str, list[float]]:
    """The similarity of every paired change (edits and renumberings), by change type."""
    result: dict[str, list[float]] = defaultdict(list)
    for change in diff["changes"]:
        if change["old"] and change["new"] and change["similarity"] is not None:
            result[change["op"]].append(change["similarity"])
    return dict(result)
