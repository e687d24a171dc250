"""How the judges' documents and the Comprehensive Rules cite each other, found in their
texts and resolved to the paragraph (or the whole document) they name: part of the
references layer (rulesdb.layers.references), which stores what is found here.

Forms found in a judges' document (the Magic Tournament Rules, the Infraction Procedure
Guide):
- sections, of the same document unless another is named: "section 2.2", "(Section 7)",
  "sections 2-4", "section 4 of the Magic Tournament Rules", "MTR section 4.3", a section's
  own number in parentheses after an infraction's name ("Tardiness (3.1)"), and the
  entries of a list of changes ("3.7: New sets added.");
- appendices: "Appendix F";
- rules of the Comprehensive Rules: "rule 103.4c";
- documents by name: "the Magic Tournament Rules", "Magic Comprehensive Rules", "the
  Infraction Procedure Guide"; one the database does not hold ("Judging at Regular Rules
  Enforcement Level", the "Premier Tournament Invitation Policy") is kept, unresolved, with
  that reason;
- infractions of the Infraction Procedure Guide by name: "Game Play Error — Hidden Card
  Error", "the Communication Policy Violation infraction", "Decklist Problems", "…is
  Stalling." (a one-word name but in the section it titles), and the classes of
  infractions ("Tournament Error", "Unsporting Conduct").
In the Comprehensive Rules, the judges' documents by name ("the Magic: The Gathering
Tournament Rules").

A document named by kind is its newest edition (the Comprehensive Rules' newest whole one
when there is one). A document's mention of itself, and an infraction's of itself, is no
reference. Targets are written `KEY|NUMBER`: KEY is `self`, `cr`, `mtr`, `ipg` or
`outside` (then NUMBER is the outside document's name); an empty NUMBER names the whole
document.
"""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass

from ..db.coverage import Coverage
from ..db.editions import cited_edition
from ..ingest.policy_names import KINDS
from ..numbers import natural_key

# kind → key, and back
KEYS = {kind: prefix for kind, (_, prefix, _) in KINDS.items()}
KEYS["comprehensive_rules"] = "cr"
BY_KEY = {key: kind for kind, key in KEYS.items()}
SELF, OUTSIDE = "self", "outside"

_NAMES = [  # a document by name: the pattern, and its key (or the outside document's name)
    (r"Magic(?::\s*The\s+Gathering)?\s+Tournament\s+Rules|Tournament\s+Rules(?!\s+Enf)", "mtr"),
    (r"(?:Magic\s+)?Infraction\s+Procedure\s+Guide", "ipg"),
    (r"(?:Magic(?::\s*The\s+Gathering)?\s+)?Comprehensive\s+Rules", "cr"),
    (r"Judging\s+at\s+Regular\s+(?:Rules\s+Enforcement\s+Level|REL)",
     "Judging at Regular Rules Enforcement Level"),
    (r"(?:Magic(?::\s*The\s+Gathering)?\s+)?Premier\s+Tournament\s+Invitation\s+Policy",
     "Premier Tournament Invitation Policy"),
]
NAME = re.compile("|".join(f"(?P<n{at}>{pattern})" for at, (pattern, _) in enumerate(_NAMES)))
_NUMBER = r"\d{1,2}(?:\.\d{1,2})?(?![\d])(?!\.\d)"
SECTION = re.compile(
    rf"\b(?:(?P<prefix>MTR|IPG)\s+)?[Ss]ections?\s+(?P<first>{_NUMBER})"
    rf"(?:\s*[-–]\s*(?P<last>\d{{1,2}})\b)?"
    rf"(?:\s+(?:of|in)\s+the\s+(?P<name>{NAME.pattern}))?")
PARENTHESIZED = re.compile(r"\((?P<first>\d{1,2}\.\d{1,2})\)")
CHANGE_ENTRY = re.compile(r"^(?P<first>\d{1,2}\.\d{1,2}):", re.MULTILINE)
APPENDIX = re.compile(r"\bAppendix\s+(?P<letter>[A-Z])\b")
CR_RULE = re.compile(r"\brules?\s+(?P<number>\d{3}\.\d+[a-z]?)\b")
CLASSES = {"Game Play Error": "2", "Tournament Error": "3", "Unsporting Conduct": "4"}
_DASH = r"\s*[—–-]\s*"
# a class of infractions named alone, not before an infraction's name
CLASS = re.compile(rf"\b(?P<name>{'|'.join(CLASSES)})s?\b(?!{_DASH}[A-Z])")


@dataclass(frozen=True)
class Cite:
    """A reference found: the phrase's span, the cited part's span, its kind and target."""

    start: int
    end: int
    cited_start: int
    cited_end: int
    kind: str  # section, appendix, rule, document, infraction
    targets: tuple[str, ...]  # KEY|NUMBER each (a range: one per section it spans)


class Infractions:
    """The names of the infractions of an Infraction Procedure Guide, to be found in texts:
    by number, each infraction's name and its class."""

    def __init__(self, names: dict[str, tuple[str, str]]) -> None:
        self.names = names  # number → (category, name)
        categories = sorted({c for c, _ in names.values() if c}, key=len, reverse=True)
        named = sorted({n for c, n in names.values() if c}, key=len, reverse=True)
        self.full = re.compile(
            rf"(?P<category>{'|'.join(map(re.escape, categories))}){_DASH}"
            rf"(?P<name>{'|'.join(map(re.escape, named))})\b") if categories else None
        self.by_full = {(c, n): number for number, (c, n) in names.items() if c}
        several = sorted({n for _, n in names.values() if len(n.split()) > 1
                          and n not in ("Minor", "Major")}, key=len, reverse=True)
        self.bare = re.compile(r"\b(?:" + "|".join(re.escape(n) for n in several)
                               + r")s?\b") if several else None
        self.one_word = re.compile(r"\b(?:" + "|".join(
            re.escape(n) for _, n in names.values() if len(n.split()) == 1
            and n not in ("Minor", "Major")) + r")\b") if names else None
        self.number_of = {n: num for num, (_, n) in names.items()}

    @classmethod
    def read(cls, conn: sqlite3.Connection, doc_id: str | None) -> Infractions:
        """The infractions of `doc_id` (none when it is None)."""
        rows = conn.execute("SELECT number, category, name FROM infractions WHERE document = ?",
                            [doc_id]).fetchall() if doc_id else []
        return cls({number: (category or "", name) for number, category, name in rows})


def find(text: str, infractions: Infractions, own_key: str | None,
         title: str | None = None) -> list[Cite]:
    """The references of a judges' document's text (`own_key`: the key of its kind, whose
    name is no reference; `title`: its section's, which names no infraction there: MTR 5.1
    Cheating's "Cheating will not be tolerated"), and of a CR text (`own_key` "cr": only the
    judges' documents by name)."""
    found: list[Cite] = []
    taken: list[tuple[int, int]] = []

    def add(cite: Cite) -> None:
        if not any(lo < cite.end and cite.start < hi for lo, hi in taken):
            found.append(cite)
            taken.append((cite.start, cite.end))

    if own_key != "cr":
        _sections(text, add)
        for match in APPENDIX.finditer(text):
            add(Cite(match.start(), match.end(), match.start("letter"), match.end("letter"),
                     "appendix", (f"{SELF}|{match['letter']}",)))
        for match in CR_RULE.finditer(text):
            add(Cite(match.start(), match.end(), match.start("number"), match.end("number"),
                     "rule", (f"cr|{match['number']}",)))
        _infractions(text, infractions, own_key, add, title)
    for match in NAME.finditer(text):
        key = _named(match)
        if key != own_key:
            add(Cite(match.start(), match.end(), match.start(), match.end(), "document",
                     (f"{key}|" if key in BY_KEY else f"{OUTSIDE}|{key}",)))
    return sorted(found, key=lambda c: c.start)


def _named(match: re.Match[str]) -> str:
    """The key (or outside name) of the document a NAME match names."""
    at = next(int(group[1:]) for group, value in match.groupdict().items()
              if value is not None and group[1:].isdigit())
    return _NAMES[at][1]


def _sections(text: str, add) -> None:
    for match in SECTION.finditer(text):
        key = SELF
        if match["prefix"]:
            key = match["prefix"].lower()
        elif match["name"]:
            named = NAME.fullmatch(match["name"])
            key = _named(named) if named else SELF
        first, last = match["first"], match["last"]
        numbers = [first] if not last or "." in first else [
            str(n) for n in range(int(first), int(last) + 1)]
        add(Cite(match.start(), match.end(), match.start("first"),
                 match.end("last") if last else match.end("first"), "section",
                 tuple(f"{key}|{number}" for number in numbers)))
    for pattern in (PARENTHESIZED, CHANGE_ENTRY):
        for match in pattern.finditer(text):
            add(Cite(match.start(), match.end(), match.start("first"), match.end("first"),
                     "section", (f"{SELF}|{match['first']}",)))


def _infractions(text: str, infractions: Infractions, own_key: str | None, add,
                 title: str | None) -> None:
    key = SELF if own_key == "ipg" else "ipg"
    if infractions.full is not None:
        for match in infractions.full.finditer(text):
            number = infractions.by_full.get((match["category"], match["name"]))
            if number is not None:
                add(Cite(match.start(), match.end(), match.start(), match.end(),
                         "infraction", (f"{key}|{number}",)))
    for pattern in (infractions.bare, infractions.one_word):
        for match in pattern.finditer(text) if pattern is not None else ():
            if pattern is infractions.one_word and match.group() == title:
                continue
            name = match.group().removesuffix("s") if match.group() not in \
                infractions.number_of else match.group()
            number = infractions.number_of.get(name)
            if number is not None:
                add(Cite(match.start(), match.end(), match.start(), match.end(), "infraction",
                         (f"{key}|{number}",)))
    for match in CLASS.finditer(text):
        add(Cite(match.start(), match.end(), match.start(), match.end(), "infraction",
                 (f"{key}|{CLASSES[match['name']]}",)))


class Targets:
    """The documents a key names in a database, and their rules by number."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.newest: dict[str, str] = {}
        for key, kind in BY_KEY.items():
            doc_id = cited_edition(conn, kind)
            if doc_id:
                self.newest[key] = doc_id
        self.rules: dict[str, dict[str, int]] = {}
        self.coverage: dict[str, Coverage] = {}
        self._kinds: dict[str, str] | None = None

    def kinds(self) -> dict[str, str]:
        """The kind of each document the database holds, by id."""
        if self._kinds is None:
            self._kinds = dict(self.conn.execute("SELECT id, kind FROM documents").fetchall())
        return self._kinds

    def kind(self, doc_id: str) -> str | None:
        """The kind of document `doc_id` (None when the database does not hold it)."""
        return self.kinds().get(doc_id)

    @staticmethod
    def missing(key: str) -> str:
        """The reason of a reference to a kind of document the database holds none of."""
        return f"no {BY_KEY.get(key, key).replace('_', ' ')} in the database"

    def document(self, key: str, own: str) -> str | None:
        """The document a key names from document `own`."""
        return own if key == SELF else self.newest.get(key)

    def _covers_list(self, doc_id: str) -> list[str]:
        row = self.conn.execute("SELECT covers FROM documents WHERE id = ?", [doc_id]).fetchone()
        return json.loads(row[0] or "[]") if row else []

    def _covers(self, doc_id: str, number: str) -> bool:
        """Whether `doc_id` would hold rule `number` (a partial document may not)."""
        if doc_id not in self.coverage:
            row = self.conn.execute("SELECT partial FROM documents WHERE id = ?",
                                    [doc_id]).fetchone()
            self.coverage[doc_id] = Coverage.from_covers(bool(row and row[0]),
                                                         self._covers_list(doc_id))
        return self.coverage[doc_id].contains(number)

    def rule(self, doc_id: str, number: str) -> int | None:
        """The id of rule `number` of `doc_id`."""
        if doc_id not in self.rules:
            self.rules[doc_id] = dict(self.conn.execute(
                "SELECT number, id FROM rule_rows WHERE document = ?", [doc_id]).fetchall())
        return self.rules[doc_id].get(number)

    def resolve(self, target: str, own: str) -> tuple:
        """(target_number, target_rule_id, target_doc, status, reason) of a target."""
        key, _, number = target.partition("|")
        if key == OUTSIDE:
            return None, None, None, "unresolved", f"cites the {number}, which rulesdb " \
                                                   "does not hold"
        doc_id = self.document(key, own)
        if doc_id is None:
            return number or None, None, None, "unresolved", self.missing(key)
        if not number:
            return None, None, doc_id, "resolved", None
        rule_id = self.rule(doc_id, number)
        if rule_id is None and not self._covers(doc_id, number):
            return number, None, doc_id, "outside_coverage", \
                f"{doc_id} contains only {', '.join(self._covers_list(doc_id))}"
        if rule_id is None:
            near = sorted((n for n in self.rules[doc_id] if n.split(".")[0] ==
                           number.split(".")[0]), key=natural_key)[-1:]
            hint = f" (its last there: {near[0]})" if near else ""
            return number, None, doc_id, "unresolved", f"no {number} in {doc_id}{hint}"
        return number, rule_id, doc_id, "resolved", None
