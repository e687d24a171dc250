"""Traceability report of one engine: per-section coverage, uncovered rules, stale citations."""

from __future__ import annotations

import sqlite3
from typing import Any

from ..numbers import natural_key

COVERING = ("ok", "suspect")
STALE = ("missing", "renumbered", "malformed", "suspect")


def engines(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Every engine stored, by name."""
    return [dict(zip(("name", "kind", "path", "edition", "files", "skipped", "scanned_at"),
                     row, strict=True))
            for row in conn.execute("SELECT name, kind, path, edition, files, skipped, "
                                    "scanned_at FROM engines ORDER BY name")]


def report(conn: sqlite3.Connection, engine: dict[str, Any]) -> dict[str, Any]:
    """Coverage of `engine`'s edition: sections it cites, their rules covered, stale citations."""
    edition = engine["edition"]
    covered = {number for (number,) in conn.execute(
        f"SELECT DISTINCT number FROM engine_citations WHERE engine = ? AND status IN "
        f"({', '.join('?' * len(COVERING))})", [engine["name"], *COVERING])}
    rules: dict[str, list[tuple[str, str | None]]] = {}
    titles: dict[str, str | None] = {}
    for number, kind, title in conn.execute(
        "SELECT number, kind, title FROM rules WHERE document = ? ORDER BY position",
        [edition]):
        section = number.split(".")[0]
        if kind == "section":
            titles[number] = title
        elif kind in ("rule", "subrule") and "." in number:
            rules.setdefault(section, []).append((number, title))
    sections, uncovered = [], []
    for section, members in rules.items():
        hits = [n for n, _ in members if n in covered]
        if not hits:
            continue
        sections.append({"section": section, "title": titles.get(section),
                         "rules": len(members), "covered": len(hits),
                         "share": round(len(hits) / len(members), 4)})
        uncovered += [n for n, _ in members if n not in covered]
    stale = [dict(zip(("file", "line", "function", "cited", "number", "status", "suggestion"),
                      row, strict=True))
             for row in conn.execute(
                 f"SELECT file, line, function, cited, number, status, suggestion FROM "
                 f"engine_citations WHERE engine = ? AND status IN "
                 f"({', '.join('?' * len(STALE))}) ORDER BY file, line",
                 [engine["name"], *STALE])]
    total = sum(s["rules"] for s in sections)
    hit = sum(s["covered"] for s in sections)
    everything = sum(len(m) for m in rules.values())
    return {"engine": engine["name"], "edition": edition,
            "all": {"rules": everything, "covered": hit,
                    "share": round(hit / everything, 4) if everything else 0.0},
            "sections": sorted(sections, key=lambda s: natural_key(s["section"])),
            "total": {"rules": total, "covered": hit,
                      "share": round(hit / total, 4) if total else 0.0},
            "uncovered": sorted(uncovered, key=natural_key), "stale": stale}

