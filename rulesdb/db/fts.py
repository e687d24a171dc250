"""Full-text search over the tables FTS (rulesdb.db.schema) names: created, filled, kept in step.

External-content FTS5 tables keyed by `id` (the view `rules` has no rowid of its own), with
porter stemming; documents are added and removed one by one as `rulesdb add` stores them.
`texts_fts` indexes every distinct rule text once (`texts`), whatever editions print it: what
search reads (rulesdb.lookup.evidence); texts are indexed as they are stored and taken out as
they are dropped.
"""

from __future__ import annotations

import sqlite_utils

from .schema import FTS, ensure_schema

TEXTS_FTS = "texts_fts"


def ensure_fts(db: sqlite_utils.Database) -> None:
    """Full-text search (porter stemming) over rule texts, examples and glossary, and over
    the distinct rule texts, indexed anew."""
    for table, columns in [*FTS.items(), ("texts", ["text"])]:
        if not _has_fts(db, table):
            names = ", ".join(f"[{column}]" for column in columns)
            db.execute(f"CREATE VIRTUAL TABLE [{table}_fts] USING FTS5 ({names}, "
                       f"tokenize='porter', content=[{table}], content_rowid=[id])")
        db.execute(f"INSERT INTO [{table}_fts] ([{table}_fts]) VALUES ('rebuild')")
    count_stems(db)


def count_stems(db: sqlite_utils.Database) -> None:
    """How many distinct rule texts say each stem (`search_stems`, read from the texts'
    index): search weighs words by it. Done again whenever texts come or go."""
    if not _has_fts(db, "texts"):
        return
    ensure_schema(db, ["search_stems"])
    db.execute("DROP TABLE IF EXISTS temp.texts_fts_vocabulary")
    db.execute("CREATE VIRTUAL TABLE temp.texts_fts_vocabulary "
               f"USING fts5vocab(main, '{TEXTS_FTS}', 'row')")
    db.execute("DELETE FROM search_stems")
    db.execute("INSERT INTO search_stems (stem, texts) SELECT term, doc "
               "FROM temp.texts_fts_vocabulary")
    db.execute("DROP TABLE temp.texts_fts_vocabulary")


def index_texts(db: sqlite_utils.Database, rows: list[tuple[int, str]]) -> None:
    """Index newly stored texts (id, text), when the texts' index exists (a build makes it
    at its end, from every text)."""
    if rows and _has_fts(db, "texts"):
        db.conn.executemany(f"INSERT INTO {TEXTS_FTS} (rowid, text) VALUES (?, ?)", rows)


def unindex_texts(db: sqlite_utils.Database, where: str) -> None:
    """Take out of the texts' index the texts `where` (an SQL condition on `texts`) selects,
    before they are deleted."""
    if _has_fts(db, "texts"):
        db.execute(f"INSERT INTO {TEXTS_FTS} ({TEXTS_FTS}, rowid, text) "
                   f"SELECT 'delete', id, text FROM texts WHERE {where}")


def _has_fts(db: sqlite_utils.Database, table: str) -> bool:
    return f"{table}_fts" in db.table_names()


def index_fts(db: sqlite_utils.Database, doc_ids: list[str]) -> None:
    """Add the rows of the given documents to full-text search, leaving the others as indexed."""
    if not all(_has_fts(db, table) for table in [*FTS, "texts"]):
        ensure_fts(db)  # indexes every row
        return
    count_stems(db)
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
