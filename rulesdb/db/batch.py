"""Batch work (`rulesdb build`, `add`, `fetch`, `remove`, the scan of `trace`): Python's
cyclic garbage collector paused, and the working copy of the database opened to be written
fast.

A build or an add makes millions of small objects (tokens, bags of words, rows) that live
until it ends and form almost no reference cycles (about 400 for the six corpus releases).
The collector's repeated passes over them cost 10–15% of the run. While paused, objects are
still freed by reference counting as usual; the few cycles are collected when it resumes.
Forked workers inherit the pause.
"""

from __future__ import annotations

import gc
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlite_utils

from ..errors import InputError


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off for the block (as it was before, after it)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def open_working_copy(path: Path, shown: Path) -> sqlite_utils.Database:
    """The working copy at `path` of the database `shown` to the user, fast to write: with
    no journal nor syncing, as it is thrown away on failure. InputError when it is not a
    database."""
    try:
        db = sqlite_utils.Database(path, execute_plugins=False)
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as exc:
        raise InputError(f"{shown}: not a database ({exc})") from None
    db.execute("PRAGMA journal_mode = OFF")
    db.execute("PRAGMA synchronous = OFF")
    return db
