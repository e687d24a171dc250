"""Full-text search over the tables FTS (rulesdb.db.schema) names, over the distinct rule
texts, and over the rules: created, filled, kept in step.

External-content FTS5 tables keyed by `id`, with porter stemming; documents are added and
removed one by one as `rulesdb add` stores them. `texts_fts` indexes every distinct rule text
once (`texts`), whatever editions print it: what search reads (rulesdb.lookup.evidence);
texts are indexed as they are stored and taken out as they are dropped.

The rules are indexed once per distinct (title, text) pair their rows print (`rule_heads`,
`rule_heads_fts`): every edition repeats most of its predecessor's rules, and an index of
every row held each text once per edition (34.6 MB at full history, against 2.9 MB). The view
`rules_fts` gives the index back row by row, as Datasette's table search of `rules` reads it
(`id IN (SELECT rowid FROM rules_fts WHERE rules_fts MATCH …)`: the MATCH reaches the index
through the view). A pair is indexed when the first row printing it is stored and taken out
when the last one goes.
"""

from __future__ import annotations

import sqlite_utils

from .schema import FTS, ensure_schema
from .views import RULES_FTS_VIEW, view

TEXTS_FTS = "texts_fts"
HEADS_FTS = "rule_heads_fts"
# what the rules' index reads of a pair: its title and its text
HEADS_CONTENT_VIEW = """CREATE VIEW rule_heads_content AS SELECT h.id, h.title, t.text
FROM rule_heads h LEFT JOIN texts t ON t.id = h.text_id"""
# the pairs no rule prints any longer
UNUSED_HEADS = ("NOT EXISTS (SELECT 1 FROM rule_rows r WHERE r.text_id IS rule_heads.text_id "
                "AND r.title IS rule_heads.title)")


def ensure_fts(db: sqlite_utils.Database) -> None:
    """Full-text search (porter stemming) over rules, examples and glossary, and over the
    distinct rule texts, indexed anew."""
    if "rules_fts" in db.table_names():  # an older version's index of every rule row
        db.execute("DROP TABLE rules_fts")
    for table, columns in [*FTS.items(), ("texts", ["text"])]:
        if not _has_fts(db, table):
            _create(db, table, table, columns)
        db.execute(f"INSERT INTO [{table}_fts] ([{table}_fts]) VALUES ('rebuild')")
    if _has_fts(db, "rule_heads"):
        db.execute(f"INSERT INTO {HEADS_FTS} ({HEADS_FTS}) VALUES ('delete-all')")
    ensure_schema(db, ["rule_heads"])
    db.execute("DELETE FROM rule_heads")
    _index_heads(db, None)
    count_stems(db)


def _create(db: sqlite_utils.Database, name: str, content: str, columns: list[str]) -> None:
    names = ", ".join(f"[{column}]" for column in columns)
    db.execute(f"CREATE VIRTUAL TABLE [{name}_fts] USING FTS5 ({names}, "
               f"tokenize='porter', content=[{content}], content_rowid=[id])")


def _index_heads(db: sqlite_utils.Database, doc_ids: list[str] | None) -> None:
    """Store and index the (title, text) pairs the rules of `doc_ids` (None: of every
    document) print that `rule_heads` lacks, ids in text order."""
    view(db, "rule_heads_content", HEADS_CONTENT_VIEW)
    if not _has_fts(db, "rule_heads"):
        _create(db, "rule_heads", "rule_heads_content", ["title", "text"])
    first = db.execute("SELECT coalesce(max(id), 0) + 1 FROM rule_heads").fetchone()[0]
    marks = ", ".join("?" * len(doc_ids or []))
    db.execute(
        "INSERT INTO rule_heads (title, text_id) SELECT DISTINCT r.title, r.text_id "
        "FROM rule_rows r WHERE NOT EXISTS (SELECT 1 FROM rule_heads h WHERE h.text_id IS "
        "r.text_id AND h.title IS r.title)"
        + (f" AND r.document IN ({marks})" if doc_ids is not None else "")
        + " ORDER BY r.text_id, r.title", doc_ids or [])
    db.execute(f"INSERT INTO {HEADS_FTS} (rowid, title, text) SELECT id, title, text "
               "FROM rule_heads_content WHERE id >= ?", [first])
    view(db, "rules_fts", RULES_FTS_VIEW)


def drop_unused_heads(db: sqlite_utils.Database) -> None:
    """Take the pairs no rule prints any longer out of the rules' index and `rule_heads`
    (after a document's rows go, before their texts do: the index reads what it takes out)."""
    if not _has_fts(db, "rule_heads"):
        return
    db.execute(f"INSERT INTO {HEADS_FTS} ({HEADS_FTS}, rowid, title, text) "
               "SELECT 'delete', c.id, c.title, c.text FROM rule_heads_content c "
               f"WHERE c.id IN (SELECT id FROM rule_heads WHERE {UNUSED_HEADS})")
    db.execute(f"DELETE FROM rule_heads WHERE {UNUSED_HEADS}")


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
    if not all(_has_fts(db, table) for table in [*FTS, "texts", "rule_heads"]):
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
    _index_heads(db, doc_ids)


def unindex_fts(db: sqlite_utils.Database, doc_id: str) -> None:
    """Remove a document's examples and glossary from full-text search (before the rows
    themselves go; its rules' pairs go with `drop_unused_heads`, after them)."""
    for table, columns in FTS.items():
        if not _has_fts(db, table):
            continue
        names = ", ".join(f"[{column}]" for column in columns)
        db.execute(
            f"INSERT INTO [{table}_fts] ([{table}_fts], rowid, {names}) "
            f"SELECT 'delete', id, {names} FROM [{table}] WHERE document = ?", [doc_id],
        )
