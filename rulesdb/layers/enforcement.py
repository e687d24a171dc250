"""Enforcement layer: the reference evaluator's `@enforces` registry as engine "rulesdb".

Written into the same tables `rulesdb trace` fills for scanned engines, checked against the
edition the evaluator cites (cr-2025-06-06) with the same statuses.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlite_utils

from ..db.schema import ensure_schema
from ..engine.registry import EDITION, registry

ENGINE = "rulesdb"


@dataclass(frozen=True)
class _Cited:
    file: str
    line: int
    function: str
    cited: str
    number: str
    context: str
    malformed: bool = False
    hint: str | None = None
    about: str = ""


def compute(db: sqlite_utils.Database, doc_ids: list[str]) -> str:
    """Store the evaluator's registry; a one-line summary."""
    # imported here: rulesdb.trace reads the references layer, which imports this package
    from ..trace.status import Checked, Checker, default_edition
    from ..trace.store import citation_rows, replace_engine

    ensure_schema(db, ["engines", "engine_citations"])
    conn = db.conn
    edition = EDITION if conn.execute("SELECT 1 FROM documents WHERE id = ?",
                                      [EDITION]).fetchone() else default_edition(conn)
    if edition is None:
        return "no Comprehensive Rules edition to check the evaluator against"
    checker = Checker(conn, edition)
    # The evaluator's ids are of EDITION exactly: checked against a part of that release
    # (the bundled chapter 7), an id outside the part is outside its coverage, never a rule
    # of another release that moved (the scanner's guess for engines of unknown edition).
    same_release = edition.startswith(f"{EDITION}-")
    items = []
    for entry in registry():
        cited = _Cited(entry.file, entry.line, entry.function, entry.rule, entry.rule,
                       f"@enforces({entry.rule!r})")
        verdict = checker.check(cited)  # type: ignore[arg-type]
        if (same_release and verdict.status == "renumbered"
                and not checker.coverage.contains(entry.rule)):
            verdict = Checked("outside_coverage", None, None, None)
        items.append((cited, verdict))
    files = len({entry.file for entry in registry()})
    replace_engine(conn, {"name": ENGINE, "kind": "reference", "path": "rulesdb/engine",
                          "edition": edition, "files": files, "skipped": 0},
                   citation_rows(ENGINE, edition, items))
    ok = sum(1 for _, v in items if v.status == "ok")
    return (f"{len(items)} rule ids enforced by the reference evaluator, "
            f"{ok} resolve in {edition}")
