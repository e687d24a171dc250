"""Read-only connections to a database file, for the commands and the site that only read."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def read_only(path: Path | str) -> sqlite3.Connection:
    """A connection that cannot write to the database file at `path` (which need not exist:
    SQLite fails on the first read). The path is given as a file: URI with its characters
    quoted, so a folder named "a#b" or "q?x" opens the file it names."""
    return sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)
