"""Read-only connections to a database file, for the commands and the site that only read."""

from __future__ import annotations

import os
import sqlite3

TYPE_CHECKING = False  # typing.TYPE_CHECKING: a lookup does not import typing
if TYPE_CHECKING:
    from pathlib import Path

# the bytes a file: URI keeps as they are (pathlib's as_uri quotes every other one)
_KEPT = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~/")


def read_only(path: Path | str) -> sqlite3.Connection:
    """A connection that cannot write to the database file at `path` (which need not exist:
    SQLite fails on the first read). The path is given as a file: URI with its characters
    quoted, so a folder named "a#b" or "q?x" opens the file it names."""
    return sqlite3.connect(f"{file_uri(path)}?mode=ro", uri=True)


def file_uri(path: Path | str) -> str:
    """`Path(path).resolve().as_uri()`, without importing pathlib on POSIX (a lookup is a
    fresh process: pathlib and the URL parsing it imports take 3-4 ms of it)."""
    if os.name != "posix":
        from pathlib import Path

        return Path(path).resolve().as_uri()
    absolute = os.fsencode(os.path.realpath(path))
    return "file://" + "".join(chr(byte) if byte in _KEPT else f"%{byte:02X}"
                               for byte in absolute)
