"""`rulesdb align`: set an alignment by hand, in the database and in the overrides file.

The overrides file (the user's, in the user data folder unless told otherwise) is the record
a user reviews and shares, and what `build` applies on top of the corpus's own; so
setting or removing an override edits the file (its other lines and comments kept) and
applies the file's overrides to the database: the alignment of the pair of editions named
is redone and the lineages recomputed from there, on a copy of the database put in place
at the end, under its write lock, as `rulesdb add` does. The file is written (atomically)
only once the database work succeeded, and the database replaced right after.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..db.batch import collector_paused, open_working_copy
from ..db.replacing import put_in_place, working_path, write_failures
from ..db.stamp import read as read_stamp
from ..db.writelock import writing
from ..errors import InputError
from ..layers import lineage
from ..lineage.overrides import Override, edited_text, format_line, layered, parse, stored
from ..lineage.query import alignment, hand_mark
from ..places import shipped
from .overrides import check, corpus_overrides, read_overrides, store

HEADER = """\
# Alignments set by hand: `rulesdb build` and `rulesdb add` apply them, `rulesdb align`
# writes them here. One per line, the older edition first:
#   OLD_DOC OLD_NUMBER = NEW_DOC NEW_NUMBER    # note  (the same rule)
#   OLD_DOC OLD_NUMBER != NEW_DOC NEW_NUMBER   # note  (not the same rule)
"""


class NoSuchOverride(InputError):
    """`--remove` of an override that is not set; exits with code 1."""

    exit_code = 1


@dataclass
class AlignReport:
    """What setting (or removing) an override did to the alignment of its two editions."""

    override: Override
    removed: bool
    replaced: list[Override] = field(default_factory=list)
    before: list[dict[str, Any]] = field(default_factory=list)  # the changes naming its rules
    after: list[dict[str, Any]] = field(default_factory=list)
    status: str = ""
    seconds: float = 0.0


def set_override(db_path: Path, override: Override, overrides_path: Path,
                 remove: bool = False) -> AlignReport:
    """Set `override` (or remove the one naming its two rules) in the file at
    `overrides_path` and in the database at `db_path`, all or nothing."""
    started = time.perf_counter()
    if not db_path.is_file():
        raise InputError(f"{db_path}: no database here; run `rulesdb build` first")
    with collector_paused(), writing(db_path), write_failures(db_path):
        report = _set(db_path, override, overrides_path, remove)
    report.seconds = time.perf_counter() - started
    return report


def _set(db_path: Path, override: Override, path: Path, remove: bool) -> AlignReport:
    temp_path = working_path(db_path, "aligning")
    try:
        shutil.copyfile(db_path, temp_path)
        db = open_working_copy(temp_path, db_path)
        try:
            _check_documents(db.conn, override)
            if not remove:
                check(db, [override])
            base_path = corpus_overrides(db.conn)
            base = [] if base_path is None or _same(base_path, path) else (
                read_overrides(base_path) or [])
            text = _file_text(db.conn, path, base)
            current = parse(text, path)
            report = AlignReport(override, remove,
                                 [o for o in current if o.clashes(override) and not remove])
            if remove and not any(o.key == override.key for o in current):
                _no_such(override, path, base)
            report.before = _naming(db.conn, override)
            text = edited_text(text, override, remove)
            refresh = store(db, layered([base, parse(text, path)]), path)
            lineage.compute(db, [], refresh=refresh)
            report.after = _naming(db.conn, override)
            row = db.execute("SELECT status FROM alignment_overrides WHERE old_doc = ? AND "
                             "old_number = ? AND new_doc = ? AND new_number = ?",
                             list(override.key)).fetchone()
            report.status = row[0] if row else "removed"
            db.conn.commit()
        finally:
            db.close()
        follows = _follows_shipped(temp_path, path)
        _write_atomically(path, text)
        if follows:
            _restamp(temp_path)
        put_in_place(temp_path, db_path)
    finally:
        temp_path.unlink(missing_ok=True)
    return report


def _same(a: Path, b: Path) -> bool:
    return a.resolve() == b.resolve()


def _no_such(override: Override, path: Path, base: list[Override]) -> None:
    """NoSuchOverride for a `--remove` of an override `path` lacks, saying so when it is one
    of the corpus's own (which cannot be removed, only set otherwise on top)."""
    shipped_one = next((o for o in base if o.key == override.key), None)
    if shipped_one is not None:
        raise NoSuchOverride(
            f"{shipped_one.file}, line {shipped_one.line}: {shipped_one.describe()} is one of "
            "the alignments rulesdb ships (read-only); set the two rules otherwise instead "
            "(with or without --unlink)")
    raise NoSuchOverride(f"{path}: no override of {override.old_doc} "
                         f"{override.old_number} and {override.new_doc} "
                         f"{override.new_number}")


def _follows_shipped(db_path: Path, path: Path) -> bool:
    """Whether writing the overrides file `path` edits the corpus rulesdb ships (a project
    file, as its developers edit it) of a database that is current with that corpus: the
    database then stays current with it."""
    if not _same(path, shipped.overrides()):
        return False
    conn = sqlite3.connect(db_path)
    try:
        stamp = read_stamp(conn)
    finally:
        conn.close()
    return stamp is not None and stamp.shipped and stamp.digest == shipped.digest()


def _restamp(db_path: Path) -> None:
    """Record the shipped corpus's digest (after the edit) in the database at `db_path`."""
    conn = sqlite3.connect(db_path)
    try:
        with conn:
            conn.execute("UPDATE build_info SET value = ? WHERE key = 'corpus_digest'",
                         [shipped.digest()])
    finally:
        conn.close()


def _check_documents(conn: sqlite3.Connection, override: Override) -> None:
    for doc in override.pair:
        if not conn.execute("SELECT 1 FROM documents WHERE id = ?", [doc]).fetchone():
            raise InputError(f"no document {doc}; see `rulesdb docs`")


def _file_text(conn: sqlite3.Connection, path: Path, base: list[Override]) -> str:
    """The overrides file's text; when there is none, a new one holding the database's
    overrides that are not the corpus's own (`base`)."""
    try:
        return path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        shipped_ones = {(o.key, o.link, o.note) for o in base}
        return HEADER + "".join(format_line(o) + "\n" for o in stored(conn)
                                if (o.key, o.link, o.note) not in shipped_ones)
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read it ({exc})") from None


def _naming(conn: sqlite3.Connection, override: Override) -> list[dict[str, Any]]:
    """The changes of the two editions' alignment that name either rule."""
    changes, _ = alignment(conn, *override.pair)
    return [{"op": c.op, "old": c.old, "new": c.new, "similarity": round(c.similarity, 3),
             **hand_mark(c)}
            for c in changes if c.old == override.old_number or c.new == override.new_number]


def _write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.{os.getpid()}")
    try:
        temp.write_text(text, encoding="utf-8")
        os.replace(temp, path)
    except OSError as exc:
        raise InputError(f"{path}: cannot write it ({exc.strerror})") from None
    finally:
        temp.unlink(missing_ok=True)
