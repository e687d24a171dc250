"""Bulk inserts for the layers: many rows of one shape into a table at once."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlite_utils


def insert_rows(db: sqlite_utils.Database, table: str, rows: Sequence[dict[str, Any]]) -> None:
    """Insert `rows` (dicts with the same keys, plain SQLite values) into an existing table.

    One `executemany`: sqlite-utils' `insert_all` checks and converts every value, which costs
    more than the insert itself for the tens of thousands of rows a layer writes.
    """
    if not rows:
        return
    columns = list(rows[0])
    db.conn.executemany(
        f"INSERT INTO [{table}] ({', '.join(f'[{c}]' for c in columns)}) "
        f"VALUES ({', '.join('?' * len(columns))})",
        [tuple(row[c] for c in columns) for row in rows])
