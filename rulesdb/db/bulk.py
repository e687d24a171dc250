"""Bulk inserts: many rows of one shape into an existing table at once.

One `executemany`: sqlite-utils' `insert_all` checks and converts every value, which costs
more than the insert itself for the thousands of rows a document or a layer writes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import sqlite_utils


def insert_tuples(db: sqlite_utils.Database, table: str, columns: Sequence[str],
                  rows: Iterable[Sequence[Any]]) -> None:
    """Insert `rows` (tuples of plain SQLite values, in the order of `columns`)."""
    db.conn.executemany(
        f"INSERT INTO [{table}] ({', '.join(f'[{c}]' for c in columns)}) "
        f"VALUES ({', '.join('?' * len(columns))})", rows)


def insert_rows(db: sqlite_utils.Database, table: str, rows: Sequence[dict[str, Any]]) -> None:
    """Insert `rows` (dicts with the same keys, plain SQLite values)."""
    if rows:
        columns = list(rows[0])
        insert_tuples(db, table, columns, [tuple(row[c] for c in columns) for row in rows])
