"""The alignments set by hand, checked against the database and stored in it.

Two files give them, the second on top of the first: the corpus's own (the one rulesdb ships,
data/alignment-overrides.txt, read-only) and the user's (`rulesdb align` writes it, in the
user's data folder unless told otherwise); a line of the user's replaces a shipped one naming
the same rules. `build` and `add` store what they say in `alignment_overrides`, which the
lineage layer applies; when neither file exists, the database keeps the overrides it holds.
An override naming a document the database lacks is kept but not applied (its status says
so) until that document is added; one naming a rule its document lacks is an input error
naming its file and line.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import sqlite_utils

from ..db.readonly import read_only
from ..db.schema import ensure_schema
from ..db.stamp import read as read_stamp
from ..errors import InputError
from ..lineage.overrides import Override, layered, stored
from ..lineage.overrides import read as read_overrides
from ..places import shipped

__all__ = ["corpus_overrides", "previous_overrides", "read_layers", "read_overrides", "store",
           "store_file"]

COLUMNS = ("old_doc", "old_number", "new_doc", "new_number", "link", "note", "line", "status",
           "file")
NOT_CR = "not a Comprehensive Rules edition"


def check(db: sqlite_utils.Database, overrides: list[Override],
          path: Path | str | None = None) -> list[str]:
    """Each override's status ("applied", or why not); InputError for one naming a rule
    that its document (present in the database) lacks, or editions out of order."""
    docs = {doc_id: (kind, date) for doc_id, kind, date in db.execute(
        "SELECT id, kind, effective_date FROM documents")}
    statuses = []
    for override in overrides:
        named = override.file or path
        where = (f"{named}, line {override.line}: " if named and override.line
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
        [(*o.key, int(o.link), o.note, o.line, status, o.file or (path and str(path)))
         for o, status in zip(overrides, statuses, strict=True)])
    return {(key[0], key[2]) for key, _, _ in before ^ after}


def store_file(db: sqlite_utils.Database, path: Path | None) -> set[tuple[str, str]]:
    """`store` of the overrides of the database's corpus (`corpus_overrides`) with those of
    the file at `path` on top; with no `path`, or when neither file exists, of the overrides
    the database holds (checked again: their documents may have come or gone)."""
    overrides = read_layers([corpus_overrides(db.conn), path]) if path is not None else None
    if overrides is None:
        ensure_schema(db, ["alignment_overrides"])
        return store(db, stored(db.conn))
    return store(db, overrides, path)


def read_layers(paths: list[Path | None]) -> list[Override] | None:
    """The overrides of the files of `paths` that exist, each on top of the ones before
    (`layered`; a path given twice is read once); None when none of them exists."""
    found, seen = [], set()
    for path in paths:
        if path is None or path.resolve() in seen:
            continue
        seen.add(path.resolve())
        overrides = read_overrides(path)
        if overrides is not None:
            found.append(overrides)
    return layered(found) if found else None


def corpus_overrides(conn: sqlite3.Connection) -> Path | None:
    """The overrides file of the corpus the database was built from (the one rulesdb ships,
    or the one beside the sources folder `build --sources` was given); None for a database
    no build made."""
    stamp = read_stamp(conn)
    if stamp is None:
        return None
    if stamp.shipped:
        return shipped.overrides()
    return Path(stamp.corpus) / shipped.OVERRIDES if stamp.corpus else None


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
