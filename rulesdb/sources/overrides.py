"""The alignments set by hand, checked against the database and stored in it.

`build` and `add` read the overrides file (data/alignment-overrides.txt unless told
otherwise) and store what it says in `alignment_overrides`, which the lineage layer applies;
when there is no such file, the database keeps the overrides it holds. An override naming a
document the database lacks is kept but not applied (its status says so) until that
document is added; one naming a rule its document lacks is an input error.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import sqlite_utils

from ..db.readonly import read_only
from ..db.schema import ensure_schema
from ..errors import InputError
from ..lineage.overrides import Override, stored
from ..lineage.overrides import read as read_overrides

__all__ = ["previous_overrides", "read_overrides", "store", "store_file"]

COLUMNS = ("old_doc", "old_number", "new_doc", "new_number", "link", "note", "line", "status")
NOT_CR = "not a Comprehensive Rules edition"


def check(db: sqlite_utils.Database, overrides: list[Override],
          path: Path | str | None = None) -> list[str]:
    """Each override's status ("applied", or why not); InputError for one naming a rule
    that its document (present in the database) lacks, or editions out of order."""
    docs = {doc_id: (kind, date) for doc_id, kind, date in db.execute(
        "SELECT id, kind, effective_date FROM documents")}
    statuses = []
    for override in overrides:
        where = (f"{path}, line {override.line}: " if path and override.line
                 else f"override {override.describe()}: ")
        missing = [doc for doc in override.pair if doc not in docs]
        if missing:
            statuses.append(f"not applied: no {' or '.join(missing)} in the database")
            continue
        for doc in override.pair:
            if docs[doc][0] != "comprehensive_rules":
                raise InputError(f"{where}{doc} is {NOT_CR}: only CR editions are aligned")
        if (docs[override.old_doc][1], override.old_doc) >= (docs[override.new_doc][1],
                                                             override.new_doc):
            raise InputError(f"{where}{override.old_doc} is not older than {override.new_doc}: "
                             "give the older edition first")
        for doc, number in ((override.old_doc, override.old_number),
                            (override.new_doc, override.new_number)):
            if not db.execute("SELECT 1 FROM rule_rows WHERE document = ? AND number = ?",
                              [doc, number]).fetchone():
                raise InputError(f"{where}no rule {number} in {doc}")
        statuses.append("applied")
    return statuses


def store(db: sqlite_utils.Database, overrides: list[Override],
          path: Path | str | None = None) -> set[tuple[str, str]]:
    """Check `overrides` and make them the database's; the edition pairs whose overrides
    changed (added, dropped or noted otherwise)."""
    ensure_schema(db, ["alignment_overrides"])
    statuses = check(db, overrides, path)
    before = {(o.key, o.link, o.note) for o in stored(db.conn)}
    after = {(o.key, o.link, o.note) for o in overrides}
    db.execute("DELETE FROM alignment_overrides")
    db.conn.executemany(
        f"INSERT INTO alignment_overrides ({', '.join(COLUMNS)}) VALUES "
        f"({', '.join('?' * len(COLUMNS))})",
        [(*o.key, int(o.link), o.note, o.line, status)
         for o, status in zip(overrides, statuses, strict=True)])
    return {(key[0], key[2]) for key, _, _ in before ^ after}


def store_file(db: sqlite_utils.Database, path: Path | None) -> set[tuple[str, str]]:
    """`store` of the overrides file at `path`, or when there is none of the overrides the
    database holds (checked again: their documents may have come or gone)."""
    overrides = read_overrides(path) if path is not None else None
    if overrides is None:
        ensure_schema(db, ["alignment_overrides"])
        return store(db, stored(db.conn))
    return store(db, overrides, path)


def previous_overrides(db_path: Path) -> list[Override]:
    """The overrides the database at `db_path` holds ([] when there is none, or no such
    table)."""
    if not db_path.is_file():
        return []
    try:
        conn = read_only(db_path)
    except sqlite3.Error:
        return []
    try:
        return stored(conn)
    except sqlite3.DatabaseError:  # not a database: the build replaces it
        return []
    finally:
        conn.close()
