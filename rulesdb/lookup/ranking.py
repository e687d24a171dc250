"""Ranking a document's rules and glossary entries against the concepts of a query.

An item (a rule with its examples, or a glossary entry) scores by how much of the query it
covers, each concept weighted by how rare it is in the document (idf), and by how it covers
it. A rule can be *about* a concept — it sits under a heading that names it (702.19b under
"Trample"), or a glossary entry that names the concept points to it ("Legend Rule" → 704.5j)
— or merely *say* it; a glossary entry is about its own term. Being about a concept counts
most, the more so the fewer rules its heading holds (a keyword's rules are about it; the
hundreds of rules under "Turn Structure" hardly); saying it in passing counts less, an
example saying it less still. So the rules of the keywords a query names come first, the
rules where they meet before either, and a list that names twenty keywords in passing does
not. The first rule under a heading, which states what the heading names, comes before its
siblings; among near equals the item that says the query's words most densely comes first.

Matching is the full-text index's: every distinct rule text once (`texts_fts`), examples
and glossary entries per row (`examples_fts`, `glossary_fts`), porter stemming on both sides.
"""


from __future__ import annotations

import math
import sqlite3
from collections import defaultdict
from dataclasses import dataclass

from .evidence import Evidence
from .scope import Scope

# how an item covers a concept, and how items are ordered
SAYS = 0.45  # its text says it
IN_EXAMPLE = 0.25  # one of its examples says it
DEFINES = 0.7  # a glossary entry is about its term (first when it is the whole query)
HEADING = 0.5  # a heading only (a section's or keyword's title) stands for its rules
FIRST_RULE = 0.25  # the first rule under a heading states what the heading names
OBSOLETE = 0.5  # an obsolete glossary entry, unless the query names its term
COMMON = 400  # items: a concept said by more only adds to those the rarer ones found
RERANK = 200  # the best items by coverage whose texts' lengths order near equals
BUCKET = 0.02  # coverages this close are equal: the denser text comes first
LENGTH_NORM = 80  # characters: texts shorter than this count as dense as this


@dataclass(frozen=True)
class Ranked:
    """An item and its score: `coverage` (how much of the query it covers, 0–1) first, then
    how densely it says the query's words."""

    kind: str  # rule or glossary
    key: int  # rule index in the scope, or glossary id
    coverage: float
    said: float  # the weight of the concepts its own text says
    concepts: tuple[int, ...]  # the concepts (by their place in the query) it covers


def rank(conn: sqlite3.Connection, scope: Scope, found: list[Evidence],
         exact_terms: set[int] | None = None, named_obsolete: set[int] | None = None
         ) -> list[Ranked]:
    """The scope's items covering any concept, best first. `exact_terms`: glossary entries
    whose term is the whole query (first among equals); `named_obsolete`: obsolete entries
    the query names (not held back)."""
    weights = [_idf(scope.size, item.count) for item in found]
    total = sum(weights) or 1.0
    # per item: the weighted strengths summed, the weight of the concepts it says, and
    # which concepts it covers (a bit each). A concept said by very many items (a common
    # word) only adds to the items the rarer concepts found, unless those are too few to
    # fill the ranking (MaxScore's way: an item with only common words cannot come first).
    order = sorted(range(len(found)), key=lambda place: found[place].count)
    rules: dict[int, list] = {}
    terms: dict[int, list] = {}
    for rarest, place in enumerate(order):
        common = (rarest > 0 and found[place].count > COMMON
                  and len(rules) + len(terms) >= RERANK)
        _add(rules, terms, scope, found[place], weights[place], 1 << place, common)
    held_back = scope.obsolete - (named_obsolete or set())
    ranked = []
    for kind, scores in (("rule", rules), ("glossary", terms)):
        for key, (covered, said, bits) in scores.items():
            coverage = covered / total
            if kind == "glossary" and key in held_back:
                coverage *= OBSOLETE
            ranked.append(Ranked(kind, key, coverage, said / total,
                                 tuple(place for place in range(len(found))
                                       if bits >> place & 1)))
    # equal scores in document order, glossary after rules: the same order whatever order
    # the sets above were filled in (it varies with Python's string hashing)
    ranked.sort(key=lambda item: (-item.coverage, item.kind == "glossary", item.key))
    return _by_density(conn, scope, ranked, exact_terms or set())


def _add(rules: dict[int, list], terms: dict[int, list], scope: Scope, item: Evidence,
         weight: float, bit: int, common: bool) -> None:
    """One concept's part in each item's score (only the items already there if `common`)."""
    about, near, examples, first, says_ = (item.about, item.near, item.examples, item.first,
                                           item.says)
    indexes = says_.union(about, examples, near)
    if common:
        indexes &= rules.keys()
    for index in indexes:
        says = index in says_
        strength = max(about.get(index, 0.0), SAYS if says else 0.0,
                       IN_EXAMPLE if index in examples else 0.0, near.get(index, 0.0))
        strength += FIRST_RULE * first.get(index, 0.0)
        if scope.heading_only[index]:
            strength *= HEADING
        entry = rules.setdefault(index, [0.0, 0.0, 0])
        entry[0] += weight * strength
        entry[1] += weight if says else 0.0
        entry[2] |= bit
    glossary = item.glossary_says.union(item.glossary_about)
    if common:
        glossary &= terms.keys()
    for gloss_id in glossary:
        strength = max(DEFINES * item.glossary_about.get(gloss_id, 0.0),
                       SAYS if gloss_id in item.glossary_says else 0.0)
        entry = terms.setdefault(gloss_id, [0.0, 0.0, 0])
        entry[0] += weight * strength
        entry[1] += weight
        entry[2] |= bit


def _by_density(conn: sqlite3.Connection, scope: Scope, ranked: list[Ranked],
                exact: set[int]) -> list[Ranked]:
    """The best items with near-equal coverage ordered by how densely their texts say the
    query (the glossary entry that is the whole query first)."""
    head = ranked[:RERANK]
    lengths = _lengths(conn, scope, head)
    head.sort(key=lambda item: (
        not (item.kind == "glossary" and item.key in exact),
        -round(item.coverage / BUCKET),
        -item.said / math.sqrt(max(lengths.get((item.kind, item.key), 0), LENGTH_NORM)),
        item.kind == "glossary", item.key))
    return head + ranked[RERANK:]


def _lengths(conn: sqlite3.Connection, scope: Scope, items: list[Ranked]
             ) -> dict[tuple[str, int], int]:
    """The length in characters of each item's text (a glossary entry's definition)."""
    out: dict[tuple[str, int], int] = {}
    texts = {scope.text_ids[item.key]: item.key for item in items if item.kind == "rule"}
    glossary = [item.key for item in items if item.kind == "glossary"]
    if texts:
        by_text: dict[int, list[int]] = defaultdict(list)
        for item in items:
            if item.kind == "rule":
                by_text[scope.text_ids[item.key]].append(item.key)
        for text_id, length in conn.execute(
                f"SELECT id, length(text) FROM texts WHERE id IN ({','.join('?' * len(texts))})",
                list(texts)):
            for key in by_text[text_id]:
                out["rule", key] = length
    if glossary:
        out.update((("glossary", gloss_id), length) for gloss_id, length in conn.execute(
            f"SELECT id, length(definition) FROM glossary WHERE id IN "
            f"({','.join('?' * len(glossary))})", glossary))
    return out


def _idf(size: int, count: int) -> float:
    """A concept's weight: rare concepts decide more (0 for one the scope lacks)."""
    if not count:
        return 0.0
    return math.log(1 + size / count)
