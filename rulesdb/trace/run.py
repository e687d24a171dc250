"""Tracing one source tree into the database: scan, check against an edition, store."""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from ..db.readonly import read_only
from ..errors import InputError
from .scan import Citation, ScanResult, scan
from .status import Checked, Checker, default_edition
from .store import citation_rows, replace_engine


@dataclass
class Traced:
    """What tracing a tree found: the checked citations, the scan, the edition, the time."""

    engine: str
    edition: str
    items: list[tuple[Citation, Checked]]
    result: ScanResult
    seconds: float


def trace_tree(conn: sqlite3.Connection, path: Path, engine: str | None = None,
               edition: str | None = None, keep_path: bool = False) -> Traced:
    """Scan `path`, check every citation against `edition` and replace the engine's rows.

    The engine is stored under `engine` (default: the folder's name) with the folder's name
    as its path, or with its absolute path when `keep_path` (what `rulesdb build` needs to
    trace it again); `edition` defaults to the newest full CR in the database. InputError
    when the edition is not a CR here.
    """
    chosen = edition or default_edition(conn)
    if chosen is None or not conn.execute(
            "SELECT 1 FROM documents WHERE id = ? AND kind = 'comprehensive_rules'",
            [chosen]).fetchone():
        raise InputError(f"no Comprehensive Rules edition {chosen}; see `rulesdb docs`")
    checker = Checker(conn, chosen)
    started = time.perf_counter()
    result = scan(path, checker.known)
    seconds = time.perf_counter() - started
    items = [(c, checker.check(c)) for c in result.citations]
    name = engine or path.resolve().name
    stored = str(path.resolve()) if keep_path else path.resolve().name
    replace_engine(conn, {"name": name, "kind": "scanned", "path": stored,
                          "edition": chosen, "files": result.files,
                          "skipped": sum(result.skipped.values())},
                   citation_rows(name, chosen, items))
    return Traced(name, chosen, items, result, seconds)


def scanned_engines(db_path: Path) -> list[dict]:
    """The engines `rulesdb trace` stored in an existing database (name, path, edition)."""
    if not db_path.is_file():
        return []
    conn = read_only(db_path)
    try:
        if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'engines'").fetchone():
            return []
        return [{"name": n, "path": p, "edition": e} for n, p, e in conn.execute(
            "SELECT name, path, edition FROM engines WHERE kind = 'scanned' ORDER BY name")]
    except sqlite3.DatabaseError:
        return []
    finally:
        conn.close()
