"""Writing an engine's citations: engines + engine_citations, replaced in one transaction."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from typing import Any

from .status import Checked


def citation_rows(engine: str, edition: str, items: list[tuple[Any, Checked]]) -> list[dict]:
    """Rows of engine_citations for (citation, verdict) pairs; citations need file, line,
    function, cited, number and context attributes."""
    return [{"engine": engine, "file": c.file, "line": c.line, "function": c.function,
             "cited": c.cited, "number": c.number, "edition": edition, "rule_id": v.rule_id,
             "status": v.status, "suggestion": v.suggestion, "context": c.context}
            for c, v in items]


def replace_engine(conn: sqlite3.Connection, engine: dict, rows: list[dict]) -> None:
    """Replace everything stored for `engine["name"]` with `engine` and `rows`, atomically."""
    engine = {**engine, "scanned_at": engine.get("scanned_at")
              or datetime.now(UTC).isoformat(timespec="seconds")}
    columns = ["engine", "file", "line", "function", "cited", "number", "edition", "rule_id",
               "status", "suggestion", "context"]
    with conn:
        conn.execute("DELETE FROM engine_citations WHERE engine = ?", [engine["name"]])
        conn.execute("DELETE FROM engines WHERE name = ?", [engine["name"]])
        conn.execute(
            "INSERT INTO engines (name, kind, path, edition, files, skipped, scanned_at) "
            "VALUES (:name, :kind, :path, :edition, :files, :skipped, :scanned_at)", engine)
        conn.executemany(
            f"INSERT INTO engine_citations ({', '.join(columns)}) "
            f"VALUES ({', '.join(':' + c for c in columns)})", rows)
