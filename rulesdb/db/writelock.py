"""One writer at a time per database file.

`rulesdb add`, `fetch` and `build` write a copy of the database and put it in place at the
end; `trace` writes into it. Two of them at once would each start from the same database,
and the one to finish last would drop what the other added. So each holds the database's
write lock (an exclusive `flock` on ".NAME.lock" beside it) from its first read to its last
write: a second writer waits for the first, saying so, and gives up after `WAIT` seconds
with a one-line error. The lock file is removed when released (a writer that opened it
before then sees it is no longer the file at that path, and takes the new one). Holding the
lock, a writer refuses a read-only database and removes the working copies killed writers
left beside it, and their scratch folders in the temporary folder (rulesdb.db.replacing).
Readers, as the site, take no lock. Where `fcntl` is missing (Windows), nothing is locked.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from ..errors import InputError
from .replacing import check_writable, remove_leftovers, sweep_scratch, write_failures

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

WAIT = 300.0  # seconds a writer waits for another before giving up
POLL = 0.1


def lock_path(db_path: Path) -> Path:
    """The lock file of the database at `db_path`."""
    return db_path.with_name(f".{db_path.name}.lock")


def _told_waiting(db_path: Path) -> None:
    print(f"waiting for another rulesdb command that is writing {db_path}", file=sys.stderr,
          flush=True)


@contextlib.contextmanager
def writing(db_path: Path, wait: float | None = None,
            on_wait: Callable[[Path], None] = _told_waiting) -> Iterator[None]:
    """Hold the write lock of the database at `db_path` (see the module docstring);
    InputError when another writer holds it longer than `wait` seconds (default WAIT)."""
    if fcntl is None:
        check_writable(db_path)
        yield
        return
    try:
        db_path.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise InputError(f"{db_path}: {db_path.parent} is not a folder") from None
    except OSError as exc:
        raise InputError(f"{db_path}: cannot make its folder {db_path.parent} "
                         f"({exc.strerror})") from None
    path = lock_path(db_path)
    deadline = time.monotonic() + (WAIT if wait is None else wait)
    told = False
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise InputError(f"{db_path}: cannot write beside it ({exc.strerror})") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            if time.monotonic() > deadline:
                raise InputError(f"{db_path}: another rulesdb command is still writing it "
                                 f"(waited {WAIT if wait is None else wait:g} s; its lock "
                                 f"is {path})") from None
            if not told:
                on_wait(db_path)
                told = True
            time.sleep(POLL)
            continue
        if _same_file(fd, path):
            break
        os.close(fd)  # the holder removed that file when it was done: take the new one
    try:
        check_writable(db_path)
        remove_leftovers(db_path)
        sweep_scratch()
        with write_failures(db_path):
            os.write(fd, f"{os.getpid()}\n".encode())
        yield
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        os.close(fd)  # releases the lock


def _same_file(fd: int, path: Path) -> bool:
    """Whether `fd` is still the file at `path`."""
    try:
        here = os.stat(path)
    except FileNotFoundError:
        return False
    opened = os.fstat(fd)
    return (here.st_dev, here.st_ino) == (opened.st_dev, opened.st_ino)
