"""`rulesdb align`: set an alignment by hand, in the database and in the overrides file.

The overrides file is the record a user reviews and shares, and what `build` applies; so
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
from ..db.writelock import writing
from ..errors import InputError
from ..layers import lineage
from ..lineage.overrides import Override, edited_text, format_line, parse, stored
from ..lineage.query import alignment, hand_mark
from .overrides import check, store

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
            text = _file_text(db.conn, path)
            current = parse(text, path)
            report = AlignReport(override, remove,
                                 [o for o in current if o.clashes(override) and not remove])
            if remove and not any(o.key == override.key for o in current):
                raise NoSuchOverride(f"{path}: no override of {override.old_doc} "
                                     f"{override.old_number} and {override.new_doc} "
                                     f"{override.new_number}")
            report.before = _naming(db.conn, override)
            text = edited_text(text, override, remove)
            refresh = store(db, parse(text, path), path)
            lineage.compute(db, [], refresh=refresh)
            report.after = _naming(db.conn, override)
            row = db.execute("SELECT status FROM alignment_overrides WHERE old_doc = ? AND "
                             "old_number = ? AND new_doc = ? AND new_number = ?",
                             list(override.key)).fetchone()
            report.status = row[0] if row else "removed"
            db.conn.commit()
        finally:
            db.close()
        _write_atomically(path, text)
        put_in_place(temp_path, db_path)
    finally:
        temp_path.unlink(missing_ok=True)
    return report


def _check_documents(conn: sqlite3.Connection, override: Override) -> None:
    for doc in override.pair:
        if not conn.execute("SELECT 1 FROM documents WHERE id = ?", [doc]).fetchone():
            raise InputError(f"no document {doc}; see `rulesdb docs`")


def _file_text(conn: sqlite3.Connection, path: Path) -> str:
    """The overrides file's text; when there is none, a new one holding the database's."""
    try:
        return path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        return HEADER + "".join(format_line(o) + "\n" for o in stored(conn))
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
