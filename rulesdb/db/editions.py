"""The newest edition of a kind of document, as lookups and the references layer name it."""

from __future__ import annotations

import sqlite3


def newest_edition(conn: sqlite3.Connection, kind: str, whole: bool = False,
                   without: str | None = None) -> str | None:
    """The id of the newest edition of `kind` (a whole one before a part of the same date),
    or with `whole` the newest whole edition if there is one (the CR's partial releases cover
    a chapter or two), leaving out the document `without`; None when there is none."""
    order = "partial, effective_date DESC" if whole else "effective_date DESC, partial"
    row = conn.execute(f"SELECT id FROM documents WHERE kind = ? AND id IS NOT ? ORDER BY "
                       f"{order}, id LIMIT 1", [kind, without]).fetchone()
    return row[0] if row else None


def cited_edition(conn: sqlite3.Connection, kind: str, without: str | None = None) -> str | None:
    """The edition a reference naming a document of `kind` resolves to: the newest whole
    Comprehensive Rules, the newest edition of the judges' documents."""
    return newest_edition(conn, kind, whole=kind == "comprehensive_rules", without=without)
