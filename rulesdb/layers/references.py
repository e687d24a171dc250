"""References layer: every cross-reference inside a document, found and resolved.

Forms found (each kept with two spans: the whole phrase and the cited label alone):
- CR rules: "rule 420.5", "See rule 502.61", "rules 418.5b-418.5g", "601.2a–h",
  "rules 119.9–10", "rules 306-311", lists "rules 110.2 and 112.2" / "rules 601.2b and
  601.2f–h", "section 6", and bare numbers in running text ("an exception to 613.10").
  A range expands to one reference per rule it spans (subrule letters skip l and o); a bare
  letter or number after the dash inherits the prefix of the start.
- Rulings summary: "See Rule G.6.Ruling.2", "Rule K.25", "Rules A.5.7 and A.8.11".
- Glossaries: "See X" / "See also A, B" naming other entries (matched longest term first,
  so "Active Player, Nonactive Player Order" stays one name).
- Rulebooks: see "New Math" — a quoted heading of the same document.

- The judges' documents (the Magic Tournament Rules, the Infraction Procedure Guide) and
  the references between them and the Comprehensive Rules: sections, appendices, CR rules,
  documents and infractions by name (rulesdb.layers.policy_refs). A reference into another
  document names it in `target_doc` (a whole document: `target_doc` alone); each is
  resolved against the newest edition of the document it names, so adding or removing an
  edition of any of the three resolves the judges' documents' references again.

Resolution is conservative: a target that does not exist is never guessed. It is
`resolved`, `outside_coverage` (a partial document does not contain that part of the
rules; the reason names what it covers) or `unresolved` with the reason.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from ..db.bulk import insert_tuples
from ..db.coverage import Coverage
from ..db.schema import ensure_schema
from ..numbers import expand_range
from . import policy_refs
from .cross_refs import COLUMNS, POLICY_KINDS, Cross, cr_retargeted, retarget

MAX_RANGE = 80

_CR_ID = r"\d{1,3}(?:\.\d+[a-z]?)?"
_CR_ITEM = rf"{_CR_ID}(?:\s?[-–]\s?(?:{_CR_ID}|[a-z]\b))?"
_CR_SEP = r"(?:,\s(?:and\s|or\s)?|\s(?:and|or|through)\s)(?:(?:rules?|sections?)\s)?"
CR_PHRASE = re.compile(
    rf"\b(?P<marker>[Ss]ee\s(?:also\s)?(?:(?:[Rr]ules?|[Ss]ections?)\s)?"
    rf"|(?:[Rr]ules?|[Ss]ections?)\s)"
    rf"(?P<list>{_CR_ITEM}(?:{_CR_SEP}{_CR_ITEM})*)"
)
_DIGIT = re.compile(r"\d")
_LONGEST_MARKER = len("See also sections ")
CR_ITEM = re.compile(rf"(?P<start>{_CR_ID})(?:\s?[-–]\s?(?P<end>{_CR_ID}|[a-z]\b))?")
# Three digits not preceded by a word character or a dot; the look back comes after the
# first digit (`\d(?<![\w.]\d)` rather than `(?<![\w.])\d`) so that re skips ahead to digits.
CR_BARE = re.compile(
    rf"\d(?<![\w.]\d)\d{{2}}\.[1-9]\d*[a-z]?(?:\s?[-–]\s?(?:{_CR_ID}|[a-z]\b))?(?![\w]|\.\d)"
)

_RULINGS_ID = r"[A-Z](?![A-Za-z])(?:\.(?:\d+|Rulings?\.\d+|Note\.\d+))*"
RULINGS_PHRASE = re.compile(
    rf"\b(?P<marker>(?:[Ss]ee\s(?:also\s)?)?[Rr]ules?)\s"
    rf"(?P<list>{_RULINGS_ID}(?:(?:,\s(?:and\s)?|\s(?:and|or)\s)(?:Rules?\s)?{_RULINGS_ID})*)"
)
RULINGS_ITEM = re.compile(_RULINGS_ID)

# "See" opening the text, a sentence or a line; checked behind "See" so that re skips to it
SEE_GLOSSARY = re.compile(
    r"(?P<marker>See(?:(?<=^See)|(?<=[.!?]\sSee)|(?<=\nSee))(?:\salso)?)\s"
)
_NAME_SEPARATOR = re.compile(r",\s(?:and\s)?|\s(?:and|or)\s")
# Only an imperative "see": "(see "New Math")", "... . See "Enchantments"" — not "you see "when"".
QUOTED_HEADING = re.compile(
    r"(?:^|(?<=[(.;:!?]\s)|(?<=\())[Ss]ee\s(?:also\s)?\"(?P<title>[^\"]{2,60})\""
)


@dataclass(frozen=True)
class Found:
    """A cross-reference found in a text, before resolution."""

    start: int
    end: int
    cited_start: int
    cited_end: int
    raw: str
    cited: str
    kind: str
    targets: tuple[str, ...]






def _cr_item(item: re.Match[str], offset: int, phrase_start: int, text: str,
             single_kind: str) -> Found:
    start, end = item["start"], item["end"]
    if end:
        targets = tuple(expand_range(start, end)) or (f"{start}-{end}",)
        if len(targets) > MAX_RANGE:
            targets = (f"{start}-{end}",)
        kind = "range"
    else:
        targets, kind = (start,), single_kind
    stop = offset + item.end()
    return Found(phrase_start, stop, offset + item.start(), stop, text[phrase_start:stop],
                 item.group(), kind, targets)


def find_cr_references(text: str) -> list[Found]:
    """Rule and section references in a Comprehensive Rules text."""
    first_number = _DIGIT.search(text)
    if not first_number:  # every one cites a number; most texts have none
        return []
    found: list[Found] = []
    taken: list[tuple[int, int]] = []
    # no phrase starts more than its longest marker ("See also sections ") before a number
    for phrase in CR_PHRASE.finditer(text, max(0, first_number.start() - _LONGEST_MARKER)):
        kind = "section" if "section" in phrase["marker"].lower() else "rule"
        offset = phrase.start("list")
        for index, item in enumerate(CR_ITEM.finditer(phrase["list"])):
            phrase_start = phrase.start() if index == 0 else offset + item.start()
            found.append(_cr_item(item, offset, phrase_start, text, kind))
        taken.append((phrase.start(), phrase.end()))
    for bare in CR_BARE.finditer(text):
        if not any(lo <= bare.start() < hi for lo, hi in taken):
            item = CR_ITEM.fullmatch(bare.group())
            if item:
                found.append(_cr_item(item, bare.start(), bare.start(), text, "bare"))
    return sorted(found, key=lambda f: f.start)


def find_rulings_references(text: str) -> list[Found]:
    """"Rule X.Y" references in a rulings-summary text."""
    found = []
    for phrase in RULINGS_PHRASE.finditer(text):
        offset = phrase.start("list")
        for index, item in enumerate(RULINGS_ITEM.finditer(phrase["list"])):
            cited = item.group()
            target = re.sub(r"\.Rulings\.", ".Ruling.", cited)
            span_start = phrase.start() if index == 0 else offset + item.start()
            found.append(Found(span_start, offset + item.end(), offset + item.start(),
                               offset + item.end(), text[span_start : offset + item.end()],
                               cited, "rule", (target,)))
    return found


def find_glossary_see(text: str, names: list[str]) -> list[Found]:
    """"See X" / "See also A, B" naming glossary entries; `names` longest first, lowercase."""
    return find_glossary_names(text, by_first_letter(tuple(names)))


def find_glossary_names(text: str, groups: dict[str, list[str]]) -> list[Found]:
    """`find_glossary_see` with the names grouped by `by_first_letter` beforehand."""
    found = []
    lowered = text.lower()
    for see in SEE_GLOSSARY.finditer(text):
        cursor = see.end()
        first = True
        while True:
            candidates = groups.get(lowered[cursor:cursor + 1], ())
            name = next((n for n in candidates if lowered.startswith(n, cursor)
                         and not lowered[cursor + len(n): cursor + len(n) + 1].isalnum()), None)
            if name is None:
                break
            span_start = see.start() if first else cursor
            end = cursor + len(name)
            found.append(Found(span_start, end, cursor, end, text[span_start:end],
                               text[cursor:end], "glossary", (name,)))
            first = False
            separator = _NAME_SEPARATOR.match(text, end)
            if not separator:
                break
            cursor = separator.end()
    return found


@functools.lru_cache(maxsize=4)
def by_first_letter(names: tuple[str, ...]) -> dict[str, list[str]]:
    """`names` grouped by their first character, each group in the given (longest-first) order.

    Scanning only the names that can match keeps "See" lookups fast in glossaries of 700 terms.
    """
    groups: dict[str, list[str]] = {}
    for name in names:
        groups.setdefault(name[:1], []).append(name)
    return groups


def _nothing(text: str) -> list[Found]:
    """No references: the judges' documents' are found by rulesdb.layers.policy_refs."""
    return []


def find_quoted_headings(text: str) -> list[Found]:
    """see "Heading" references of rulebook prose."""
    return [
        Found(m.start(), m.end(), m.start("title"), m.end("title"), m.group(),
              m["title"], "heading", (m["title"].strip(" .,").lower(),))
        for m in QUOTED_HEADING.finditer(text)
    ]


_STATUS = COLUMNS.index("status")

Row = tuple[Any, ...]  # plain SQLite values
Finder = Callable[[str], list[Found]]
_FINDERS: dict[str, Finder] = {"comprehensive_rules": find_cr_references,
                               "rulings_summary": find_rulings_references}


CROSS_KINDS = (*POLICY_KINDS, "comprehensive_rules")


def compute(db: sqlite_utils.Database, doc_ids: list[str]) -> str:
    """Find and resolve the references of the given documents (and again those of the
    judges' documents when a document they cite may have come or gone); a one-line summary."""
    ensure_schema(db, ["references"])
    counts = {"resolved": 0, "unresolved": 0, "outside_coverage": 0}
    # what a finder found in a text, by finder and text: editions repeat most of their
    # predecessor's text word for word, so each distinct text is searched once per call
    finds: dict[Finder, dict[str, list[Found]]] = {}
    again = _cited_again(db, doc_ids)
    cross = Cross(db)
    # when only editions of the CR came, what a judges' document cites is as it was: only
    # what it cites in the CR may resolve otherwise (rulesdb.layers.cross_refs)
    only_cr = bool(doc_ids) and all(cross.targets.kind(doc) == "comprehensive_rules"
                                    for doc in doc_ids)
    for doc_id in [*doc_ids, *again]:
        stored = _stored(db, doc_id) if doc_id in again else None
        rows = cr_retargeted(stored, doc_id, cross.targets) if stored and only_cr else None
        if rows is None:
            rows = _document_references(db, doc_id, finds, cross)
        for row in rows:
            counts[row[_STATUS]] += 1
        if rows == stored:
            continue  # resolved as before: its rows keep their ids
        db.execute("DELETE FROM [references] WHERE document = ?", [doc_id])
        insert_tuples(db, "references", COLUMNS, rows)  # in order: the same rows, the same ids
    inside = counts["resolved"] + counts["unresolved"]
    share = 100 * counts["resolved"] / inside if inside else 100.0
    return (f"{sum(counts.values())} references: {counts['resolved']} resolved ({share:.1f}% of "
            f"those inside their document), {counts['outside_coverage']} outside coverage, "
            f"{counts['unresolved']} unresolved")


def _cited_again(db: sqlite_utils.Database, doc_ids: list[str]) -> list[str]:
    """The judges' documents not among `doc_ids` whose references may resolve otherwise now:
    all of them after a removal (no `doc_ids`) or when a judges' document or the newest
    edition of the CR comes (their references resolve against each document's newest
    edition; an older CR edition changes none of them). References to a judges' document as
    a whole follow its newest edition at once."""
    kinds = dict(db.execute("SELECT id, kind FROM documents").fetchall())
    newest = policy_refs.Targets(db.conn).newest.values()
    if doc_ids and not any(kinds.get(doc) in POLICY_KINDS or doc in newest for doc in doc_ids):
        return []
    retarget(db)
    return [doc for doc, kind in kinds.items() if kind in POLICY_KINDS and doc not in doc_ids]


def _stored(db: sqlite_utils.Database, doc_id: str) -> list[Row]:
    """A document's references as stored, as `_document_references` makes them."""
    columns = ", ".join(f"[{column}]" for column in COLUMNS)
    return [tuple(row) for row in db.execute(
        f"SELECT {columns} FROM [references] WHERE document = ? ORDER BY id", [doc_id])]


class _Resolver:
    """Targets of one document: rule numbers, headings, glossary names, coverage."""

    def __init__(self, db: sqlite_utils.Database, document: dict) -> None:
        self.doc_id = doc_id = document["id"]
        self.covers = json.loads(document["covers"] or "[]")
        self.partial = bool(document["partial"])
        self.coverage = Coverage.from_covers(self.partial, self.covers)
        self.rules: dict[str, int] = {}
        self.titles: dict[str, int] = {}
        for row_id, number, title in db.execute(
            "SELECT id, number, title FROM rules WHERE document = ?", [doc_id]
        ):
            self.rules[number] = row_id
            if title:
                self.titles.setdefault(title.strip(" .:").lower(), row_id)
        self.glossary: dict[str, int] = {}
        for row_id, term, heading, aliases in db.execute(
            "SELECT id, term, heading, aliases FROM glossary WHERE document = ?", [doc_id]
        ):
            for name in [term, heading, *json.loads(aliases or "[]")]:
                if name:
                    self.glossary.setdefault(name.lower(), row_id)
        self.name_groups = by_first_letter(tuple(sorted(self.glossary, key=len, reverse=True)))

    def resolve(self, found: Found, target: str) -> Row:
        """target_number, target_rule_id, target_glossary_id, target_doc, status and reason
        of one reference target."""
        number, rule_id, glossary_id, status, reason = self._resolve(found, target)
        return number, rule_id, glossary_id, None, status, reason

    def _resolve(self, found: Found, target: str) -> Row:
        if found.kind == "glossary":
            return None, None, self.glossary[target], "resolved", None
        if found.kind == "heading":
            if target in self.titles:
                return None, self.titles[target], None, "resolved", None
            if target in self.glossary:
                return None, None, self.glossary[target], "resolved", None
            if self.partial:
                return None, None, None, "outside_coverage", self._outside()
            return None, None, None, "unresolved", f'no heading "{found.cited}" here'
        if target in self.rules:
            return target, self.rules[target], None, "resolved", None
        if "-" in target:
            return target, None, None, "unresolved", f"{found.cited} is not a range of rules"
        if not self.coverage.contains(target):
            return target, None, None, "outside_coverage", self._outside()
        return target, None, None, "unresolved", f"no {target} in {self.doc_id}"

    def _outside(self) -> str:
        return f"{self.doc_id} contains only {', '.join(self.covers)}"


def _document_references(db: sqlite_utils.Database, doc_id: str,
                         finds: dict[Finder, dict[str, list[Found]]],
                         cross: Cross) -> list[Row]:
    """The rows of one document, in the order they are stored (rules, examples, glossary)."""
    document = db["documents"].get(doc_id)
    resolver = _Resolver(db, document)
    key = policy_refs.KEYS.get(document["kind"])
    find = _FINDERS.get(document["kind"], find_quoted_headings) if key in (None, "cr") \
        else _nothing
    found_in = finds.setdefault(find, {})
    rows: list[Row] = []

    def add(owner: tuple[str, str, int | None, int | None, int | None], ref: Found) -> None:
        where = (*owner, ref.start, ref.end, ref.cited_start, ref.cited_end, ref.raw, ref.cited,
                 ref.kind)
        rows.extend((*where, *resolver.resolve(ref, target)) for target in ref.targets)

    def found(text: str | None) -> list[Found]:
        text = text or ""
        if text not in found_in:
            found_in[text] = find(text)
        return found_in[text]

    for row_id, text, title in db.execute(
        "SELECT id, text, title FROM rules WHERE document = ?", [doc_id]
    ).fetchall():
        for one in found(text):
            add((doc_id, "rules", row_id, None, None), one)
        if key is not None:
            rows.extend(cross.rows(doc_id, key, (doc_id, "rules", row_id, None, None),
                                   text or "", title))
    for row_id, rule_id, text in db.execute(
        "SELECT id, rule_id, text FROM examples WHERE document = ?", [doc_id]
    ).fetchall():
        for one in found(text):
            add((doc_id, "examples", rule_id, row_id, None), one)
    for row_id, definition in db.execute(
        "SELECT id, definition FROM glossary WHERE document = ?", [doc_id]
    ).fetchall():
        see = find_glossary_names(definition or "", resolver.name_groups)
        for one in sorted([*found(definition), *see], key=lambda f: f.start):
            add((doc_id, "glossary", None, None, row_id), one)
    return rows
