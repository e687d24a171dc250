"""Where a rule number of an older edition lives now.

Uses the lineage layer's tables when they hold rows; until then a heading match: the
nearest titled ancestor of the old rule ("502.9 Trample") is looked up by title in the
chosen edition ("702.19 Trample") and the rest of the number is carried over. Kept apart so
the lineage switch touches only this module.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass


@dataclass(frozen=True)
class Renumbered:
    """An old edition holding the cited number, and its current number when one is found."""

    old_doc: str
    suggestion: str | None


class Renumbering:
    """Old numbers of every other CR edition, mapped into `edition`."""

    def __init__(self, conn: sqlite3.Connection, edition: str) -> None:
        self.conn = conn
        self.edition = edition
        self.dates = [(doc, date or "") for doc, date in conn.execute(
            "SELECT id, effective_date FROM documents WHERE kind = 'comprehensive_rules' "
            "AND id != ? ORDER BY effective_date DESC", [edition])]
        self.editions = [doc for doc, _ in self.dates]
        self.current = {number for (number,) in conn.execute(
            "SELECT number FROM rules WHERE document = ?", [edition])}
        self.titles: dict[str, str] = {}
        for number, title in conn.execute(
            "SELECT number, title FROM rules WHERE document = ? AND title IS NOT NULL "
            "ORDER BY position", [edition]):
            self.titles.setdefault(_key(title), number)
        self.old: dict[str, dict[str, tuple[str | None, str | None]]] = {}
        for doc in self.editions:
            self.old[doc] = {number: (title, parent) for number, title, parent in conn.execute(
                "SELECT number, title, parent FROM rules WHERE document = ?", [doc])}
        self.lineage_of: dict[tuple[str, str], str] = {}
        self.current_of: dict[str, str] = {}
        if _has_rows(conn, "lineages"):
            for lineage, doc, number in conn.execute(
                    "SELECT lineage, document, number FROM lineages"):
                if doc == edition:
                    self.current_of[lineage] = number
                else:
                    self.lineage_of[(doc, number)] = lineage
        self.has_lineage = bool(self.current_of)

    def find(self, number: str, hint_date: str | None = None) -> Renumbered | None:
        """The older edition holding `number` (the hinted one first) and its current number."""
        order = self.editions
        if hint_date:
            dated = next((d for d, date in self.dates if date <= hint_date), None)
            if dated:
                order = [dated, *[d for d in order if d != dated]]
        for doc in order:
            if number in self.old[doc]:
                return Renumbered(doc, self._lineage(doc, number) if self.has_lineage
                                  else self._by_heading(doc, number))
        return None

    def _lineage(self, doc: str, number: str) -> str | None:
        lineage = self.lineage_of.get((doc, number))
        current = self.current_of.get(lineage) if lineage else None
        return current or self._by_heading(doc, number)

    def _by_heading(self, doc: str, number: str) -> str | None:
        rules = self.old[doc]
        ancestor: str | None = number
        while ancestor is not None and ancestor in rules:
            title, parent = rules[ancestor]
            if title and _key(title) in self.titles:
                target = self.titles[_key(title)]
                carried = target + number[len(ancestor):]
                return carried if carried in self.current else target
            ancestor = parent
        return None


def _key(title: str) -> str:
    return title.strip(" .:").lower()


def _has_rows(conn: sqlite3.Connection, table: str) -> bool:
    exists = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                          [table]).fetchone()
    return bool(exists) and conn.execute(f"SELECT 1 FROM [{table}] LIMIT 1").fetchone() is not None
