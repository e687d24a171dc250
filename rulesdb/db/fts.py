"""Full-text search over the tables FTS (rulesdb.db.schema) names: created, filled, kept in step.

External-content FTS5 tables keyed by `id` (the view `rules` has no rowid of its own), with
porter stemming; documents are added and removed one by one as `rulesdb add` stores them.
"""

from __future__ import annotations

import sqlite_utils

from .schema import FTS


def ensure_fts(db: sqlite_utils.Database) -> None:
    """Full-text search (porter stemming) over rule texts, examples and glossary, indexed anew."""
    for table, columns in FTS.items():
        if not _has_fts(db, table):
            names = ", ".join(f"[{column}]" for column in columns)
            db.execute(f"CREATE VIRTUAL TABLE [{table}_fts] USING FTS5 ({names}, "
                       f"tokenize='porter', content=[{table}], content_rowid=[id])")
        db.execute(f"INSERT INTO [{table}_fts] ([{table}_fts]) VALUES ('rebuild')")


def _has_fts(db: sqlite_utils.Database, table: str) -> bool:
    return f"{table}_fts" in db.table_names()


def index_fts(db: sqlite_utils.Database, doc_ids: list[str]) -> None:
    """Add the rows of the given documents to full-text search, leaving the others as indexed."""
    if not all(_has_fts(db, table) for table in FTS):
        ensure_fts(db)  # indexes every row
        return
    marks = ", ".join("?" * len(doc_ids))
    for table, columns in FTS.items():
        names = ", ".join(f"[{column}]" for column in columns)
        db.execute(
            f"INSERT INTO [{table}_fts] (rowid, {names}) SELECT id, {names} FROM [{table}] "
            f"WHERE document IN ({marks})", doc_ids,
        )


def unindex_fts(db: sqlite_utils.Database, doc_id: str) -> None:
    """Remove a document's rows from full-text search (before the rows themselves go)."""
    for table, columns in FTS.items():
        if not _has_fts(db, table):
            continue
        names = ", ".join(f"[{column}]" for column in columns)
        db.execute(
            f"INSERT INTO [{table}_fts] ([{table}_fts], rowid, {names}) "
            f"SELECT 'delete', id, {names} FROM [{table}] WHERE document = ?", [doc_id],
        )
