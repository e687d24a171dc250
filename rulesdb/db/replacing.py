"""How `rulesdb add`, `fetch`, `build` and `remove` replace the database file: each writes a
working copy beside it (".NAME.adding-PID", ".NAME.building-PID", ".NAME.removing-PID") and
puts it in place at the end, keeping the file's permissions.

Working copies are made only under the database's write lock (rulesdb.db.writelock), so
whoever holds the lock knows that a working copy still there belongs to a writer that was
killed: it removes them (`remove_leftovers`). The temporary folders a command works in (a
dry run's copy, the worker's hand-over file, the site's link) carry its process id, and
those of processes that are gone are removed too (`sweep_scratch`). A database file
without write permission is refused rather than replaced, and a failure to write (a full
disk, an I/O error) is one line saying the database is as it was.
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


SCRATCH_KINDS = ("dry-run", "layers", "serve")
_SCRATCH = re.compile(rf"rulesdb-({'|'.join(SCRATCH_KINDS)})-(\d+)-[\w]+")


def scratch_folder(kind: str) -> Path:
    """A new temporary folder for this process's `kind` (one of SCRATCH_KINDS) of work (a dry
    run's copy of the database, the worker's hand-over file, the site's link), named with
    its process id so that, were the process killed, a later one removes it
    (`sweep_scratch`)."""
    assert kind in SCRATCH_KINDS, kind
    import tempfile  # here: a lookup reads file_stamp, and needs neither tempfile nor shutil

    return Path(tempfile.mkdtemp(prefix=f"rulesdb-{kind}-{os.getpid()}-"))


def sweep_scratch() -> list[Path]:
    """Remove the scratch folders (`scratch_folder`) of this user's processes that are gone,
    and return them: a dry run killed leaves a full copy of the database behind."""
    import shutil
    import tempfile

    removed = []
    with contextlib.suppress(OSError):
        for path in Path(tempfile.gettempdir()).iterdir():
            found = _SCRATCH.fullmatch(path.name)
            if found is None or path.is_symlink() or not path.is_dir():
                continue
            with contextlib.suppress(OSError):
                if path.stat().st_uid == os.getuid() and not _running(int(found[2])):
                    shutil.rmtree(path)
                    removed.append(path)
    return removed


def _running(pid: int) -> bool:
    """Whether a process `pid` runs (unknown counts as running: nothing is removed)."""
    if os.name != "posix":
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


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
