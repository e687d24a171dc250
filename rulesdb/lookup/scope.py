"""One document's items as search ranks them, loaded once per database file and document:
its rules (numbers, headings, their place in the tree, the text each prints), its glossary
(terms, obsolete entries) and the words of its headings and terms, by which a query names
them.

A titled item is read in one of two ways, whatever the document: a heading only (its text
says no more than its title: the CR's sections and keywords, "702.19. Trample") names a
topic and stands for the rules under it; a titled section with a text of its own (the MTR's
"4.2 Tournament Shortcuts", the IPG's "2.2 Game Play Error — Looking at Extra Cards") says
what its title names, as the first rule under a heading does.
"""

from __future__ import annotations

import math
import re
import sqlite3
from collections import defaultdict
from dataclasses import dataclass, field

from ..ingest.policy_names import KINDS as POLICY_KINDS
from .reading import key_of, stem, words_of

# what a document's numbered items are called in hits, by its kind: rules, the rulings of
# the rulings summary, the sections of the judges' documents
RULE_KINDS = {"rulings_summary": "ruling", **dict.fromkeys(POLICY_KINDS, "section")}


@dataclass
class Scope:
    """One document's items as search ranks them: its rules (with their headings and their
    place in the tree) and its glossary, loaded once per database file and document."""

    doc_id: str
    document_kind: str = ""  # the kind of its document (comprehensive_rules, …)
    rule_kind: str = "rule"  # what its numbered items are called in hits (rule, ruling, section)
    numbers: list[str] = field(default_factory=list)
    rule_ids: list[int] = field(default_factory=list)
    text_ids: list[int] = field(default_factory=list)
    titled: list[bool] = field(default_factory=list)
    # titled rules whose text says no more than their title: a heading only names a topic
    heading_only: list[bool] = field(default_factory=list)
    # rule index → its title as search reads it: an infraction's with its penalty, which the
    # IPG prints on the infraction's heading line
    titles: dict[int, str] = field(default_factory=dict)
    printed: dict[int, str] = field(default_factory=dict)  # rule index → its title as printed
    by_text: dict[int, list[int]] = field(default_factory=dict)  # text id → rule indexes
    by_rule_id: dict[int, int] = field(default_factory=dict)  # rule id → rule index
    up: list[int | None] = field(default_factory=list)  # rule index → its parent's index
    children: dict[int, list[int]] = field(default_factory=dict)
    sizes: dict[int, int] = field(default_factory=dict)  # rule index → rules under it
    examples: tuple[int, int] | None = None  # the rowid range of its examples
    glossary: tuple[int, int] | None = None  # the rowid range of its glossary entries
    terms: dict[int, str] = field(default_factory=dict)  # glossary id → term
    obsolete: set[int] = field(default_factory=set)
    _title_weights: dict[str, float] = field(default_factory=dict)
    _term_keys: dict[tuple[str, ...], list[int]] = field(default_factory=dict)
    # the words of headings and glossary terms, by their first two letters (a stem keeps them)
    _names: dict[str, dict[str, list[tuple[str, int]]]] = field(default_factory=dict)

    @property
    def size(self) -> int:
        """Rules and glossary entries: what idf counts against."""
        return len(self.numbers) + len(self.terms)

    def term_keys(self) -> dict[tuple[str, ...], list[int]]:
        """The glossary entries by the key of each of their names (term, and each name of a
        term that names several: "Control, Controller")."""
        if not self._term_keys:
            for gloss_id, term in self.terms.items():
                for name in {term, *re.split(r",\s*", term)}:
                    self._term_keys.setdefault(key_of(words_of(name)), []).append(gloss_id)
        return self._term_keys

    def named_by(self, stems: set[str]) -> tuple[set[int], set[int]]:
        """The headings (rule indexes) and glossary entries (ids) with a word whose stem is
        one of `stems` (a word of a hyphenated one counts)."""
        if not self._names:
            for index, title in self.titles.items():
                for word in words_of(title):
                    for part in word.split("-"):
                        self._names.setdefault(part[:2], {}).setdefault(part, []).append(
                            ("rule", index))
            for gloss_id, term in self.terms.items():
                for word in words_of(term):
                    for part in word.split("-"):
                        self._names.setdefault(part[:2], {}).setdefault(part, []).append(
                            ("glossary", gloss_id))
        headings: set[int] = set()
        glossary: set[int] = set()
        for wanted in stems:
            for word, names in self._names.get(wanted[:2], {}).items():
                if stem(word) == wanted:
                    for kind, key in names:
                        (headings if kind == "rule" else glossary).add(key)
        return headings, glossary

    def title_weights(self) -> dict[str, float]:
        """How much each word of the headings and glossary terms says: generic words of
        many titles ("Variant", "Step", "Option") little, rare ones much."""
        if not self._title_weights:
            counts: dict[str, int] = defaultdict(int)
            names = [*self.titles.values(), *self.terms.values()]
            for name in names:
                for part in {piece for word in words_of(name) for piece in word.split("-")}:
                    counts[part] += 1
            self._title_weights = {word: math.log(1 + len(names) / count)
                                   for word, count in counts.items()}
        return self._title_weights

    def under(self, heading: int) -> list[int]:
        """The rules under a rule, in document order."""
        out: list[int] = []
        stack = list(reversed(self.children.get(heading, ())))
        while stack:
            index = stack.pop()
            out.append(index)
            stack.extend(reversed(self.children.get(index, ())))
        return out


def _penalties(conn: sqlite3.Connection, scope: Scope) -> dict[int, str]:
    """The titles of a document's infractions with their penalties ("Game Play Error — Game
    Rule Violation, penalty Warning"), by rule index; none for a document without them."""
    try:
        rows = conn.execute("SELECT rule_id, penalty FROM infractions WHERE document = ? "
                            "AND penalty IS NOT NULL", [scope.doc_id]).fetchall()
    except sqlite3.OperationalError:  # a database made before the judges' documents
        return {}
    return {index: f"{scope.printed[index]}, penalty {penalty}" for rule_id, penalty in rows
            if (index := scope.by_rule_id.get(rule_id)) is not None and index in scope.printed}


def load_scope(conn: sqlite3.Connection, doc_id: str) -> Scope:
    """The items of `doc_id` in document order."""
    row = conn.execute("SELECT kind FROM documents WHERE id = ?", [doc_id]).fetchone()
    kind = row[0] if row else ""
    scope = Scope(doc_id, kind, RULE_KINDS.get(kind, "rule"))
    rows = plain(conn).execute(
        "SELECT r.id, r.number, r.title, r.parent_id, r.text_id, CASE WHEN r.title IS NULL "
        "THEN 0 ELSE (SELECT t.text IS NULL OR t.text = r.title FROM texts t "
        "WHERE t.id = r.text_id) END FROM rule_rows r WHERE r.document = ? "
        "ORDER BY r.position", [doc_id]).fetchall()
    if rows:
        rule_ids, numbers, titles, parents, text_ids, bare = map(list, zip(*rows, strict=True))
        scope.rule_ids, scope.numbers, scope.text_ids = rule_ids, numbers, text_ids
        scope.titled = [bool(title) for title in titles]
        scope.heading_only = [bool(title) and bool(only)
                              for title, only in zip(titles, bare, strict=True)]
        scope.printed = {index: title for index, title in enumerate(titles) if title}
        scope.by_rule_id = dict(zip(rule_ids, range(len(rows)), strict=True))
        scope.titles = {**scope.printed, **_penalties(conn, scope)}
        by_text = scope.by_text
        for index, text_id in enumerate(text_ids):
            by_text.setdefault(text_id, []).append(index)
        ups = scope.up = [scope.by_rule_id.get(parent) for parent in parents]
        children, sizes = scope.children, scope.sizes
        for index in range(len(rows) - 1, -1, -1):  # children before their parents
            up = ups[index]
            if up is not None:
                children.setdefault(up, []).append(index)
                sizes[up] = sizes.get(up, 0) + 1 + sizes.get(index, 0)
        for kids in children.values():
            kids.reverse()
    if scope.rule_ids and max(scope.rule_ids) - min(scope.rule_ids) + 1 == len(scope.rule_ids):
        # examples have no index by document: found by their rules' ids, one run
        low, high, count = conn.execute(
            "SELECT min(id), max(id), count(*) FROM examples WHERE rule_id BETWEEN ? AND ?",
            [min(scope.rule_ids), max(scope.rule_ids)]).fetchone()
        scope.examples = ((0, -1) if not count else (low, high) if high - low + 1 == count
                          else None)
    else:
        scope.examples = _id_range(conn, "examples", doc_id)
    scope.glossary = _id_range(conn, "glossary", doc_id)
    for gloss_id, term, obsolete in plain(conn).execute(
            "SELECT id, term, obsolete FROM glossary WHERE document = ?", [doc_id]):
        scope.terms[gloss_id] = term
        if obsolete:
            scope.obsolete.add(gloss_id)
    return scope


def plain(conn: sqlite3.Connection) -> sqlite3.Cursor:
    """A cursor giving rows as plain tuples (a connection's sqlite3.Row costs more, on the
    thousands of rows a scope reads)."""
    cursor = conn.cursor()
    cursor.row_factory = None
    return cursor


def _id_range(conn: sqlite3.Connection, table: str, doc_id: str) -> tuple[int, int] | None:
    """The ids of a document's rows, when they are one run (as stored, every document's
    are); None otherwise (the rows are then found by their document)."""
    low, high, count = conn.execute(
        f"SELECT min(id), max(id), count(*) FROM {table} WHERE document = ?", [doc_id]
    ).fetchone()
    if not count:
        return (0, -1)
    return (low, high) if high - low + 1 == count else None
