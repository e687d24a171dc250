"""The status of each citation against one edition: ok, missing, renumbered, malformed,
suspect, or outside_coverage (the edition is partial and does not hold that part of the rules).

Suspect: the function name or the comment around a citation names a keyword ability whose
own rule is not the cited one, while the cited rule's keyword is not named at all (and the
cited rule's text does not mention the named keyword either).
"""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from ..db.coverage import Coverage
from .cite import words
from .renumber import Renumbering

if TYPE_CHECKING:  # the scanner (and its lexers) is not needed to check citations
    from .scan import Citation

BUNDLED = "cr-2025-06-06-chapter7"
# Keyword names that are everyday programming words: never evidence of a concept.
GENERIC = {"absorb", "assist", "backup", "craft", "echo", "escape", "flash", "gift", "plot",
           "recover", "shadow", "solved", "storm", "training", "visit", "partner", "companion",
           "fuse", "exploit", "overload", "prototype", "suspend", "exhaust", "reach", "cipher",
           "ingest", "forecast", "offering", "tribute", "evolve", "mentor", "surge", "melee"}


@dataclass(frozen=True)
class Checked:
    """A citation's verdict: status, the rule row it resolves to, a suggested number."""

    status: str
    rule: str | None
    rule_id: int | None
    suggestion: str | None


def default_edition(conn: sqlite3.Connection) -> str | None:
    """The newest full CR in the database, else the bundled edition, else the newest CR."""
    row = conn.execute("SELECT id FROM documents WHERE kind = 'comprehensive_rules' AND "
                       "partial = 0 ORDER BY effective_date DESC LIMIT 1").fetchone()
    if row:
        return row[0]
    if conn.execute("SELECT 1 FROM documents WHERE id = ?", [BUNDLED]).fetchone():
        return BUNDLED
    row = conn.execute("SELECT id FROM documents WHERE kind = 'comprehensive_rules' "
                       "ORDER BY effective_date DESC LIMIT 1").fetchone()
    return row[0] if row else None


class Checker:
    """Decides the status of citations against `edition`."""

    def __init__(self, conn: sqlite3.Connection, edition: str) -> None:
        self.edition = edition
        self.rules: dict[str, tuple[int, str | None, str]] = {}
        for rule_id, number, parent, text in conn.execute(
            "SELECT id, number, parent, text FROM rules WHERE document = ?", [edition]):
            self.rules[number] = (rule_id, parent, (text or "").lower())
        document = conn.execute("SELECT partial, covers FROM documents WHERE id = ?",
                                [edition]).fetchone()
        self.coverage = Coverage.from_covers(
            bool(document and document[0]), json.loads(document[1] or "[]") if document else [])
        self.keywords: dict[str, str] = {}
        for keyword, number in conn.execute(
            "SELECT keyword, number FROM keywords WHERE document = ? AND kind = 'ability'",
            [edition]):
            name = " ".join(words(keyword))
            if name and name not in GENERIC:
                self.keywords[name] = number
        self.keyword_of = {number: name for name, number in self.keywords.items()}
        names = sorted(self.keywords, key=len, reverse=True)
        self.concepts = re.compile(
            rf"\b({'|'.join(map(re.escape, names))})(?:s|es|ing|ed)?\b") if names else None
        self._conn = conn

    @cached_property
    def renumbering(self) -> Renumbering:
        """Every other edition's numbers mapped into this one (read when first needed: a
        citation that resolves never needs it)."""
        return Renumbering(self._conn, self.edition)

    @cached_property
    def known(self) -> frozenset[str]:
        """Every number of this edition and of the others (what a scan takes for rule ids)."""
        return frozenset(self.rules) | frozenset(
            n for numbers in self.renumbering.old.values() for n in numbers)

    def check(self, citation: Citation) -> Checked:
        """The verdict on one citation."""
        number = citation.number
        if citation.malformed:
            return Checked("malformed", None, None, None)
        if number in self.rules:
            return self._suspect(citation) or Checked("ok", number, self.rules[number][0], None)
        moved = self.renumbering.find(number, citation.hint)
        if moved and (moved.suggestion or self.coverage.contains(number)):
            return Checked("renumbered", None, None, moved.suggestion)
        if not self.coverage.contains(number):
            return Checked("outside_coverage", None, None, None)
        return Checked("missing", None, None, None)


    def _suspect(self, citation: Citation) -> Checked | None:
        cited = self._keyword(citation.number)
        if cited is None or self.concepts is None:
            return None
        named = {m[1] for m in self.concepts.finditer(" ".join(words(citation.about)))}
        others = {n for n in named if n != cited and n not in self.rules[citation.number][2]}
        if not others or cited in named:
            return None
        suggestion = ", ".join(sorted(self.keywords[n] for n in others))
        return Checked("suspect", citation.number, self.rules[citation.number][0], suggestion)

    def _keyword(self, number: str) -> str | None:
        while number is not None and number in self.rules:
            if number in self.keyword_of:
                return self.keyword_of[number]
            number = self.rules[number][1]
        return None
