"""Concept links: prose headings, rulings topics and glossary entries ↔ the CR rules and
glossary entries that explain the same concept, across document kinds and eras.

A link is made when normalized names agree (method "title"; "title_variant" when they agree
only once a "Step N:" prefix, a trailing "step"/"phase" or a plural "s" is dropped), and
scored 0.6 + 0.4 × the word overlap (Dice) of the two texts with their subtrees, so a
reader can rank the links. Names a CR document uses for several rules ("General") are
ambiguous there and link to nothing in it. A CR glossary entry links only to the rules of
its own edition (the lineages carry it to the others).
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from functools import lru_cache
from itertools import chain

import sqlite_utils

from ..db.bulk import insert_rows

WORD = re.compile(r"[a-z0-9]+")
SPACES = re.compile(r"\s+")
OBSOLETE = re.compile(r"\s*\(obsolete\)$")
THE = re.compile(r"^the ")
STEP = re.compile(r"^step \d+:\s*")
STEP_PHASE = re.compile(r" (step|phase)$")


@lru_cache(maxsize=1 << 16)  # every edition repeats most of its headings and terms
def names(text: str) -> tuple[str, tuple[str, ...]]:
    """The exact normalized name and its looser variants."""
    name = SPACES.sub(" ", text.lower().replace("’", "'")).strip(" .:;\"")
    name = OBSOLETE.sub("", name)
    name = THE.sub("", name)
    loose = STEP.sub("", name)
    loose = STEP_PHASE.sub("", loose)
    variants = {loose, loose[:-1] if loose.endswith("s") and len(loose) > 4 else loose}
    variants.discard(name)
    return name, tuple(sorted(variants))


def compute(db: sqlite_utils.Database, doc_ids: list[str] | None = None) -> int:
    """Store the concept links from or to `doc_ids` (None: all documents), replacing theirs;
    how many links the database holds.

    A link depends only on its source, its target and the target's document, so the links
    between two other documents stay as they are.
    """
    touched = None if doc_ids is None else set(doc_ids)
    if touched is None:
        db.execute("DELETE FROM concept_links")
    else:
        marks = ", ".join("?" * len(touched))
        db.execute(f"DELETE FROM concept_links WHERE source_doc IN ({marks}) "
                   f"OR target_doc IN ({marks})", [*touched, *touched])
    kinds = dict(db.execute("SELECT id, kind FROM documents").fetchall())
    # Only CR editions touched: the links to make are from the other kinds' headings and
    # entries and from the touched editions' entries, to the touched editions' rules and
    # entries; the other CR editions need not be read.
    only = None if touched is None or any(
        kinds.get(doc) != "comprehensive_rules" for doc in touched) else touched
    others: set[str] | None = None  # the documents of other kinds
    read: set[str] | None = None  # the documents whose texts may be compared
    if only is not None:
        others = {doc for doc, kind in kinds.items() if kind != "comprehensive_rules"}
        read = only | others
    exact: dict[str, list[tuple]] = defaultdict(list)
    loose: dict[str, list[tuple]] = defaultdict(list)
    per_doc: Counter[tuple[str, str]] = Counter()
    targets = []
    for row_id, doc, title in _select(
        db, "SELECT id, document, title FROM rules WHERE title IS NOT NULL "
        "AND kind IN ('rule', 'section')", only
    ):
        if kinds[doc] == "comprehensive_rules":
            targets.append(("rule", row_id, doc, [title]))
    for row_id, doc, term, aliases in _select(
        db, "SELECT id, document, term, aliases FROM glossary", only
    ):
        if kinds[doc] == "comprehensive_rules":
            targets.append(("glossary", row_id, doc, [term, *_aliases(aliases)]))
    # the rule targets of each name in each edition alone: a CR glossary entry links only
    # into its own edition, and reading every edition's targets of its name made adding n
    # editions at once cost n² (a history of 90 editions: 4 s)
    own_exact: dict[tuple[str, str], list[tuple]] = defaultdict(list)
    own_loose: dict[tuple[str, str], list[tuple]] = defaultdict(list)
    docs = {(kind, row_id): doc for kind, row_id, doc, _ in targets}
    for kind, row_id, doc, labels in targets:
        seen = set()
        for label in labels:
            name, variants = names(label)
            for key, table, own in ((name, exact, own_exact),
                                    *((v, loose, own_loose) for v in variants)):
                if (key, kind, row_id) not in seen:
                    seen.add((key, kind, row_id))
                    table[key].append((kind, row_id, doc))
                    if kind == "rule":
                        own[(key, doc)].append((kind, row_id, doc))
            if kind == "rule":
                per_doc[(doc, name)] += 1
    links = []
    for source in _sources(db, kinds, others, read):
        src_kind, src_id, src_doc, labels = source
        whole = touched is None or src_doc in touched  # else only targets in `touched`
        own_only = src_kind == "glossary" and kinds[src_doc] == "comprehensive_rules"
        if not whole and own_only:
            continue  # it links only into its own edition, which is not touched
        found: dict[tuple[str, int], tuple[str, str]] = {}
        for label in labels:
            name, variants = names(label)
            for key, table, own, method in ((name, exact, own_exact, "title"),
                                            *((v, loose, own_loose, "title_variant")
                                              for v in variants)):
                # A CR glossary explains its own edition; lineages carry it to the others.
                for kind, row_id, doc in (own.get((key, src_doc), ()) if own_only
                                          else table.get(key, ())):
                    if not whole and doc not in touched:
                        continue
                    same_doc = doc == src_doc and src_kind == "rule"
                    if same_doc or (kind == "rule" and per_doc[(doc, key)] > 1):
                        continue
                    if (kind, row_id) not in found or found[(kind, row_id)][1] == "title_variant":
                        found[(kind, row_id)] = (key, method)
        links.extend(((src_kind, src_id), src_doc, target, concept, method)
                     for target, (concept, method) in found.items())
    # the texts of the few rules and entries that link, and of the rules' subtrees
    texts = _Bags(db, {key for source, _, target, _, _ in links for key in (source, target)})
    rows = []
    for (src_kind, src_id), src_doc, (kind, row_id), concept, method in links:
        overlap = _dice(texts.get((src_kind, src_id)), texts.get((kind, row_id)))
        rows.append({
            "source_doc": src_doc,
            "source_rule_id": src_id if src_kind == "rule" else None,
            "source_glossary_id": src_id if src_kind == "glossary" else None,
            "target_doc": docs[(kind, row_id)],
            "target_rule_id": row_id if kind == "rule" else None,
            "target_glossary_id": row_id if kind == "glossary" else None,
            "concept": concept, "score": round(0.6 + 0.4 * overlap, 3), "method": method,
        })
    insert_rows(db, "concept_links", rows)
    return db.execute("SELECT count(*) FROM concept_links").fetchone()[0]


def _select(db: sqlite_utils.Database, sql: str, documents: set[str] | None) -> list[tuple]:
    """The rows of `sql` (a SELECT with a WHERE clause, or none) of `documents` (None: all)."""
    if documents is None:
        return db.execute(sql).fetchall()
    marks = ", ".join("?" * len(documents))
    joiner = " AND " if " WHERE " in sql else " WHERE "
    return db.execute(f"{sql}{joiner}document IN ({marks}) ORDER BY id",
                      sorted(documents)).fetchall()


def _sources(db: sqlite_utils.Database, kinds: dict[str, str], heading_docs: set[str] | None,
             entry_docs: set[str] | None) -> list[tuple]:
    """The headings (of `heading_docs`) and glossary entries (of `entry_docs`) links start
    from (None: of every document)."""
    sources = []
    for row_id, doc, title in _select(
        db, "SELECT id, document, title FROM rules WHERE title IS NOT NULL "
        "AND kind IN ('heading', 'keyword', 'topic', 'section')", heading_docs
    ):
        if kinds[doc] != "comprehensive_rules":
            sources.append(("rule", row_id, doc, [title]))
    for row_id, doc, term, aliases in _select(
        db, "SELECT id, document, term, aliases FROM glossary", entry_docs
    ):
        sources.append(("glossary", row_id, doc, [term, *_aliases(aliases)]))
    return sources


@lru_cache(maxsize=1 << 12)  # most entries have none, the others recur in every edition
def _aliases(stored: str | None) -> tuple[str, ...]:
    """A glossary entry's aliases from their stored JSON."""
    return tuple(json.loads(stored)) if stored else ()


class _Bags:
    """Word bags of rules with their descendants and of glossary entries, made when asked
    for (only the few pairs that link need one)."""

    def __init__(self, db: sqlite_utils.Database, keys: set[tuple[str, int]]) -> None:
        """Bags of `keys` (("rule", id) or ("glossary", id)) can be asked for; only their
        texts, and those of the rules' descendants, are read (an add links a few hundred of
        the thousands of rules and entries it compares)."""
        self.children: dict[int, list[int]] = defaultdict(list)
        self.texts: dict[int, str | None] = {}
        rules = json.dumps(sorted(row_id for kind, row_id in keys if kind == "rule"))
        for row_id, parent_id, text in db.execute(
            "WITH RECURSIVE tree(id) AS (SELECT value FROM json_each(?) UNION "
            "SELECT r.id FROM rule_rows r JOIN tree ON r.parent_id = tree.id) "
            "SELECT r.id, r.parent_id, t.text FROM tree JOIN rule_rows r ON r.id = tree.id "
            "LEFT JOIN texts t ON t.id = r.text_id ORDER BY r.id", [rules]
        ):
            self.texts[row_id] = text
            if parent_id is not None:
                self.children[parent_id].append(row_id)
        entries = json.dumps(sorted(row_id for kind, row_id in keys if kind == "glossary"))
        self.definitions = dict(db.execute(
            "SELECT id, definition FROM glossary WHERE id IN (SELECT value FROM json_each(?))",
            [entries]).fetchall())
        self.bags: dict[tuple[str, int], Counter] = {}
        self.words: dict[int, list[str]] = {}

    def get(self, key: tuple[str, int]) -> Counter:
        """The bag of ("rule", id) with its subtree, or of ("glossary", id)."""
        if key not in self.bags:
            kind, row_id = key
            if kind == "glossary":
                self.bags[key] = Counter(
                    WORD.findall((self.definitions.get(row_id) or "").lower()))
            else:
                self.bags[key] = Counter(self._words(row_id))
        return self.bags[key]

    def _words(self, row_id: int) -> list[str]:
        """The words of a rule's text and of its descendants' (one list, counted once: adding
        up the bags of the children cost more than the whole rest of the layer)."""
        words = self.words.get(row_id)
        if words is None:
            own = _text_words(self.texts.get(row_id) or "")
            children = self.children.get(row_id, ())
            words = list(chain(own, *(self._words(child) for child in children))
                         ) if children else own
            self.words[row_id] = words
        return words


@lru_cache(maxsize=1 << 14)  # most rule texts recur in the next edition
def _text_words(text: str) -> list[str]:
    """The words of a text (shared, never mutated)."""
    return WORD.findall(text.lower())


def _dice(a: Counter, b: Counter) -> float:
    total = sum(a.values()) + sum(b.values())
    if not total:
        return 0.0
    common = a.keys() & b.keys()
    return 2 * sum(map(min, map(a.__getitem__, common), map(b.__getitem__, common))) / total
