"""How `rulesdb add`, `fetch`, `build` and `remove` replace the database file: each writes a
working copy beside it (".NAME.adding-PID", ".NAME.building-PID", ".NAME.removing-PID") and
puts it in place at the end, keeping the file's permissions.

Working copies are made only under the database's write lock (rulesdb.db.writelock), so
whoever holds the lock knows that a working copy still there belongs to a writer that was
killed: it removes them (`remove_leftovers`). A database file without write permission is
refused rather than replaced, and a failure to write (a full disk, an I/O error) is one line
saying the database is as it was.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

from ..errors import InputError, database_problem

KINDS = ("adding", "aligning", "building", "removing")
# what writing a file can meet that is no fault of rulesdb
_WRITE_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EROFS,
                 errno.EACCES, errno.EPERM}


def working_path(db_path: Path, kind: str) -> Path:
    """The working copy of this process for `kind` (one of KINDS) of work on `db_path`."""
    assert kind in KINDS, kind
    return db_path.with_name(f".{db_path.name}.{kind}-{os.getpid()}")


def remove_leftovers(db_path: Path) -> list[Path]:
    """Remove the working copies of `db_path` left by killed writers, and return them. Call
    it only while holding the database's write lock: no other writer has one then."""
    pattern = re.compile(rf"\.{re.escape(db_path.name)}\.(?:{'|'.join(KINDS)})-\d+")
    removed = []
    with contextlib.suppress(FileNotFoundError):
        for path in db_path.parent.iterdir():
            if pattern.fullmatch(path.name) and path.is_file() and not path.is_symlink():
                with contextlib.suppress(FileNotFoundError):
                    path.unlink()
                    removed.append(path)
    return removed


def check_writable(db_path: Path) -> None:
    """InputError when the database file exists without write permission (chmod 444), which
    even a user who could replace it (the folder's owner, root) does not override."""
    try:
        mode = os.stat(db_path).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        if exc.errno not in _WRITE_ERRORS:
            raise
        raise InputError(f"{db_path}: cannot read it ({exc.strerror})") from None
    if not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(db_path,
                                                                                   os.W_OK):
        raise InputError(f"{db_path}: the file is read-only; make it writable "
                         f"(chmod u+w) to change it")


def file_stamp(path: Path | str) -> tuple[int, int, int] | None:
    """What tells the file at `path` from the file that replaces it (inode, size and time
    of change); None when there is none."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_ino, info.st_size, info.st_mtime_ns


def put_in_place(temp_path: Path, db_path: Path) -> None:
    """Replace `db_path` by `temp_path`, which takes the permissions of the file it replaces."""
    with contextlib.suppress(FileNotFoundError):
        os.chmod(temp_path, stat.S_IMODE(os.stat(db_path).st_mode))
    os.replace(temp_path, db_path)


@contextlib.contextmanager
def write_failures(db_path: Path) -> Iterator[None]:
    """A failure to write the working copy of `db_path` (a full disk, an I/O error, a file
    too large) as an InputError of one line; the database itself is untouched by then."""
    try:
        yield
    except OSError as exc:
        if exc.errno not in _WRITE_ERRORS:
            raise
        raise InputError(f"{db_path}: cannot write the new database beside it "
                         f"({exc.strerror}); the database is as it was") from None
    except sqlite3.DatabaseError as exc:
        problem = database_problem(exc)
        if problem is None:
            raise
        raise InputError(f"{db_path}: {problem}; the database is as it was") from None
