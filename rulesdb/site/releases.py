"""What each CR release changed, read from the rows the lineage layer counted at build
(`edition_changes`, `edition_edits`): the release notes of an edition's page and the
entries of the feed of releases. A few indexed rows per edition, never the alignments."""

from __future__ import annotations

import sqlite3

from ..lineage.query import OP_ORDER
from ..lineage.words import change_words
from .pages import Row, rows, short
from .render import rule_url

# How each count reads in a sentence, in the order the diff lists them.
LABELS = {op: change_words(op) for op in OP_ORDER}
SHORT = 90  # characters of a rule's text shown beside its number


def summary(counts: dict[str, int]) -> str:
    """"98 edited, 143 renumbered, 148 added, 12 removed" (what changed, in words)."""
    parts = [f"{n} {LABELS[op]}" for op, n in counts.items() if n]
    return ", ".join(parts) or "no rule changed"


def counts(row: Row) -> dict[str, int]:
    """The counts of a row of `edition_changes` that are not 0, by change type."""
    return {op: row[op] for op in LABELS if row.get(op)}


def counted_pairs(conn: sqlite3.Connection) -> list[Row]:
    """The rows of `edition_changes`, oldest edition first."""
    if not _counted(conn):
        return []
    return rows(conn, "SELECT c.* FROM edition_changes c JOIN documents d ON d.id = c.new_doc "
                      "ORDER BY d.effective_date, d.id")


def _counted(conn: sqlite3.Connection) -> bool:
    """Whether the lineage layer counted changes in this database (one made by an older
    rulesdb has no such table: its pages show no release notes)."""
    return conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'edition_edits'").fetchone() \
        is not None


def editions(conn: sqlite3.Connection) -> list[Row]:
    """The CR editions of the chain, newest first, each with `notes` (see `release_notes`;
    None for the oldest) and its page URL. Three queries, however many editions."""
    if not _counted(conn):
        return []
    found = rows(conn, "SELECT d.id, d.title, d.effective_date, d.rule_count, c.* "
                       "FROM documents d LEFT JOIN edition_changes c ON c.new_doc = d.id "
                       "WHERE d.kind = 'comprehensive_rules' AND d.superseded_by IS NULL "
                       "ORDER BY d.effective_date DESC, d.id DESC")
    edits: dict[str, list[Row]] = {}
    for edit in rows(conn, "SELECT * FROM edition_edits ORDER BY new_doc, rank"):
        edits.setdefault(edit["new_doc"], []).append(edit)
    labels = _labels(conn, [e for found_edits in edits.values() for e in found_edits])
    for item in found:
        item["url"] = f"/{item['id']}"
        item["notes"] = _notes(item, edits.get(item["id"], []), labels) if item["old_doc"] \
            else None
    return found


def release_notes(conn: sqlite3.Connection, doc_id: str) -> Row | None:
    """What `doc_id` changed against the edition before it: counts, a sentence, the largest
    edits with their pages; None when it has no stored predecessor."""
    if not _counted(conn):
        return None
    found = rows(conn, "SELECT * FROM edition_changes WHERE new_doc = ?", [doc_id])
    if not found:
        return None
    edits = rows(conn, "SELECT * FROM edition_edits WHERE new_doc = ? ORDER BY rank", [doc_id])
    return _notes(found[0], edits, _labels(conn, edits))


def _notes(row: Row, edits: list[Row], labels: dict[tuple[str, str], str]) -> Row:
    """The release notes of a row of `edition_changes` and its largest edits."""
    previous, doc_id = row["old_doc"], row["new_doc"]
    found = counts(row)
    base = f"/diff/{previous}/{doc_id}"
    return {
        "previous": previous, "previous_url": f"/{previous}", "counts": found,
        "summary": summary(found), "diff_url": base,
        "parts": [{"label": f"{n} {LABELS[op]}", "url": f"{base}?change={op}"}
                  for op, n in found.items()],
        "renumbered_url": f"{base}/renumbered"
        if found.get("renumbered") or found.get("renumbered_edited") else None,
        "edits": [{**edit, "label": labels.get((doc_id, edit["new_number"]), ""),
                   "url": rule_url(doc_id, edit["new_number"]),
                   "old_url": rule_url(previous, edit["old_number"]),
                   "history_url": rule_url(doc_id, edit["new_number"]) + "/history"}
                  for edit in edits],
    }


def _labels(conn: sqlite3.Connection, edits: list[Row]) -> dict[tuple[str, str], str]:
    """The first words of each edited rule (its title, else its text), by (edition, number)."""
    if not edits:
        return {}
    wanted = sorted({(edit["new_doc"], edit["new_number"]) for edit in edits})
    found = conn.execute(
        f"WITH wanted(document, number) AS (VALUES {','.join(['(?, ?)'] * len(wanted))}) "
        "SELECT r.document, r.number, coalesce(r.title, r.text) FROM wanted "
        "JOIN rules r ON r.document = wanted.document AND r.number = wanted.number",
        [value for pair in wanted for value in pair])
    return {(doc, number): short(label, SHORT) for doc, number, label in found}
