"""Where each concept of a query is found in a scope (rulesdb.lookup.ranking weighs it):
the rules whose text or examples say it, the headings and glossary entries that name it, the
rules *about* it (under a heading that names it, or pointed to by a glossary entry naming
it), and the rules of other concepts that speak as its own rules do (`meet`).
"""

from __future__ import annotations

import math
import re
import sqlite3
from collections import defaultdict
from dataclasses import dataclass, field

from .reading import Concept, fts_expression, key_of, stem, words_of
from .scope import Scope

# how much an item is about a concept, and where that is decided
ABOUT = 1.0  # under a heading that names it, or pointed to by a glossary entry naming it
SPECIFIC = 16  # a heading over more rules than this is less specific (see _specificity)
CONCENTRATED = 0.2  # a heading holding none of the rules that say a concept: this much
MEET = 0.4  # a rule about one concept that speaks as another's rules do (see `meet`)
HOME = 25  # rules: a heading over more is no concept's own rules (for `meet`)
PROFILE = 40  # words: the most frequent of a concept's own rules stand for them
LITERAL_MOST = 300  # texts: a glossary term said more often is matched by its stem alone
STUB = 6  # words: a first rule this short only names its kind ("Flying is an evasion ability.")


@dataclass
class Evidence:
    """What one concept matched in a scope."""

    says: set[int] = field(default_factory=set)  # rule indexes whose own text says it
    examples: set[int] = field(default_factory=set)  # rule indexes whose examples say it
    headings: set[int] = field(default_factory=set)  # titled rules whose title it names
    glossary_says: set[int] = field(default_factory=set)  # glossary ids saying it
    # filled by `about`: rule index or glossary id → how much the item is about the concept
    about: dict[int, float] = field(default_factory=dict)
    glossary_about: dict[int, float] = field(default_factory=dict)
    first: dict[int, float] = field(default_factory=dict)  # first rule under a heading
    near: dict[int, float] = field(default_factory=dict)  # rules of others speaking of it

    @property
    def count(self) -> int:
        """How many items say or are about the concept (its document frequency)."""
        return (len(self.says.union(self.about))
                + len(self.glossary_says.union(self.glossary_about)))


def evidence(conn: sqlite3.Connection, scope: Scope, concept: Concept,
             matched: dict[str, list[int]] | None = None) -> Evidence:
    """Where `concept` is said in the scope's rules, examples, headings and glossary.
    `matched`: the texts of every edition each full-text expression matched, kept by the
    caller for the other documents of one search (the index holds all editions' texts)."""
    found = Evidence()
    match = fts_expression(concept)
    if not match:
        return found
    literal = _literal(scope, concept)
    matched = {} if matched is None else matched
    if match not in matched:
        matched[match] = [text_id for (text_id,) in conn.execute(
            "SELECT rowid FROM texts_fts WHERE texts_fts MATCH ?", [match])]
    text_ids = [text_id for text_id in matched[match] if text_id in scope.by_text]
    if literal and len(text_ids) > LITERAL_MOST and not _signed(concept):
        literal = None  # a word said this often is not confused by another of its stem
    if literal:
        text_ids = _saying(conn, "SELECT id, text FROM texts", text_ids, literal)
    for text_id in text_ids:
        found.says.update(scope.by_text[text_id])
    examples = _rows(conn, "examples", scope.examples, scope.doc_id, match, "t.id, t.rule_id")
    if literal:
        kept = set(_saying(conn, "SELECT id, text FROM examples", [row[0] for row in examples],
                           literal))
        examples = [row for row in examples if row[0] in kept]
    found.examples.update(scope.by_rule_id[rule_id] for _, rule_id in examples
                          if rule_id in scope.by_rule_id)
    glossary = [row[0] for row in _rows(conn, "glossary", scope.glossary, scope.doc_id, match)]
    if literal:
        glossary = _saying(conn, "SELECT id, term || ' ' || definition FROM glossary", glossary,
                           literal)
    found.glossary_says.update(glossary)
    return found


def _literal(scope: Scope, concept: Concept) -> re.Pattern | None:
    """What the texts the index finds for a concept must say, where the index cannot tell:
    a signed power and toughness ("+1/+1", "-1/-1": the index reads their digits alone), or
    a one-word glossary term, whose stem other words share ("defender" and "defending
    player"; "flash" and "flashing"): the term itself, or its plural."""
    signed = _signed(concept)
    if signed:
        forms = [form for phrase in signed for form in (phrase, phrase.replace("-", "−"))]
        return re.compile("|".join(re.escape(form) for form in forms))
    words = [phrase for phrase in concept.phrases if " " not in phrase and "-" not in phrase]
    terms = [word for word in words if (key_of([word]) in scope.term_keys()
                                        and len(word) > 3)]
    if terms and len(terms) == len(concept.phrases):
        return re.compile(r"\b(?:" + "|".join(re.escape(word) for word in terms)
                          + r")(?:e?s)?\b", re.I)
    return None


def _signed(concept: Concept) -> list[str]:
    return [phrase for phrase in concept.phrases if re.fullmatch(r"[+-]\d+/[+-]\d+", phrase)]


def _saying(conn: sqlite3.Connection, select: str, ids: list[int], literal: re.Pattern
            ) -> list[int]:
    """Those of `ids` whose text (`select` reads id and text) `literal` finds."""
    out = []
    for at in range(0, len(ids), 500):
        chunk = ids[at:at + 500]
        out += [row_id for row_id, text in conn.execute(
            f"{select} WHERE id IN ({','.join('?' * len(chunk))})", chunk)
                if literal.search(text or "")]
    return out


def about(conn: sqlite3.Connection, scope: Scope, concepts: list[Concept],
          found: list[Evidence], stopwords: frozenset[str]) -> None:
    """What each concept's items are about: the rules under a heading whose title the query
    says (the more of the title, counting its rarer words more, and the fewer rules under
    it, the more), the first rule under it, and the rules a glossary entry whose term the
    query says points to."""
    own = [_stems(concept, stopwords) for concept in concepts]
    simple = {word for phrases in own for words, _ in phrases for word in words}
    parts = simple | {part for phrases in own for _, compounds in phrases
                      for compound in compounds for part in compound}
    if not parts:
        return
    weights = scope.title_weights()

    def named(name: str) -> tuple[float, list[int]]:
        """How much of `name` the query says (0–1, its rarer words counting more), and the
        concepts it names: those it says whole."""
        words = [word for word in words_of(name) if word not in stopwords]
        title: set[str] = set()
        total = said = 0.0
        for word in words:
            weight = sum(weights.get(part, 1.0) for part in word.split("-") if part)
            total += weight
            if "-" in word:
                pieces = tuple(stem(part) for part in word.split("-") if part)
                title.add("-".join(pieces))
                title.update(pieces)
                said += weight if set(pieces) <= parts else 0.0
            else:
                title.add(stem(word))
                said += weight if stem(word) in simple else 0.0
        return (said / total if total else 0.0,
                [place for place, phrases in enumerate(own)
                 if any(words_ <= title and all("-".join(c) in title or set(c) <= title
                                                for c in compounds)
                        for words_, compounds in phrases)])

    headings, glossary = scope.named_by(parts)
    for heading in headings:
        share, places = named(scope.titles[heading])
        if not share:
            continue
        # a section with a text of its own says what its title names, before its rules
        rules = ([] if scope.heading_only[heading] else [heading]) + scope.under(heading)
        first = _first_rule(conn, scope, rules)
        for place in places:
            found[place].headings.add(heading)
            _mark(found[place], scope, rules, heading, share)
            if first is not None:
                found[place].first[first] = max(share, found[place].first.get(first, 0.0))
    terms = {}
    for gloss_id in glossary:
        share, places = named(scope.terms[gloss_id])
        if share:
            terms[gloss_id] = (share, places)
    targets: dict[int, list[int]] = defaultdict(list)
    if terms:
        marks = ", ".join("?" * len(terms))
        for gloss_id, target in conn.execute(
                f"SELECT glossary_id, target_rule_id FROM [references] WHERE glossary_id IN "
                f"({marks}) AND target_rule_id IS NOT NULL", list(terms)):
            if target in scope.by_rule_id:
                targets[gloss_id].append(scope.by_rule_id[target])
    for gloss_id, (share, places) in terms.items():
        for place in places:
            item = found[place]
            item.glossary_about[gloss_id] = max(share, item.glossary_about.get(gloss_id, 0.0))
            for index in targets.get(gloss_id, ()):
                _mark(item, scope, [index, *scope.under(index)], index, share)
                if not scope.heading_only[index]:  # the rule the glossary points to states it
                    item.first[index] = max(share, item.first.get(index, 0.0))


def meet(conn: sqlite3.Connection, scope: Scope, found: list[Evidence],
         stopwords: frozenset[str]) -> None:
    """Where concepts with rules of their own meet. A query that names two keywords asks
    how they interact, and the rules that answer often name only one: 702.2c, under
    Deathtouch, speaks of combat damage assigned, lethal damage and excess damage — the
    words of trample's rules. So a rule under one concept's heading covers another concept
    in part, by how many of the words the other's rules use most it says (rare words
    counting more), relative to its siblings."""
    homes: dict[int, list[int]] = {}
    for place, item in enumerate(found):
        rules = [index for heading in item.headings if scope.sizes.get(heading, 0) <= HOME
                 for index in scope.under(heading) if not scope.heading_only[index]]
        if rules:
            homes[place] = rules
    if len(homes) < 2:
        return
    wanted = {scope.text_ids[index] for rules in homes.values() for index in rules}
    texts = dict(conn.execute(f"SELECT id, text FROM texts WHERE id IN "
                              f"({','.join('?' * len(wanted))})", list(wanted)))
    # words compared by their light key (plural and possessive off); only the profiles'
    # words are stemmed, to be weighed
    names = {key for item in found for heading in item.headings
             for key in key_of(words_of(scope.titles[heading]))}
    said: dict[int, list[str]] = {
        index: [key for key in key_of(words_of(texts.get(scope.text_ids[index]) or ""))
                if key not in stopwords and not key[0].isdigit()]
        for rules in homes.values() for index in rules}
    profiles = {}
    for place, rules in homes.items():
        counts: dict[str, int] = defaultdict(int)
        for index in rules:
            for word in set(said[index]) - names:
                counts[word] += 1
        profiles[place] = sorted(counts, key=lambda word: (-counts[word], word))[:PROFILE]
    words = {word for profile in profiles.values() for word in profile}
    stems = _stem_weights(conn, {stem(word) for word in words})
    weight = {word: stems.get(stem(word), 0.0) for word in words}
    average = sum(map(len, said.values())) / max(1, len(said))
    for other, profile in profiles.items():
        speaks = set(profile)
        for place, rules in homes.items():
            if place == other:
                continue
            scores = {index: _bm25(said[index], speaks, weight, average) for index in rules}
            best = max(scores.values(), default=0.0)
            for index, score in scores.items():
                if best > 0 and score > 0:
                    found[other].near[index] = max(found[other].near.get(index, 0.0),
                                                   MEET * score / best)


def _bm25(words: list[str], query: set[str], weight: dict[str, float], average: float,
          k1: float = 1.2, b: float = 0.75) -> float:
    """Okapi BM25 of a text (its words as stems) for a set of query stems."""
    counts: dict[str, int] = defaultdict(int)
    for word in words:
        if word in query:
            counts[word] += 1
    norm = k1 * (1 - b + b * len(words) / (average or 1))
    return sum(weight.get(word, 0.0) * count * (k1 + 1) / (count + norm)
               for word, count in counts.items())


def _stem_weights(conn: sqlite3.Connection, stems: set[str]) -> dict[str, float]:
    """How rare each stem is among the distinct rule texts of every edition (idf)."""
    if not stems:
        return {}
    try:
        total = conn.execute("SELECT count(*) FROM texts").fetchone()[0] or 1
        rows = conn.execute(f"SELECT stem, texts FROM search_stems WHERE stem IN "
                            f"({','.join('?' * len(stems))})", list(stems)).fetchall()
    except sqlite3.OperationalError:  # a database built before search counted its stems
        return {}
    return {stem_: math.log(1 + total / count) for stem_, count in rows if count}


def _first_rule(conn: sqlite3.Connection, scope: Scope, rules: list[int]) -> int | None:
    """The first rule under a heading that states something: not a heading only, nor a stub
    that only names the kind of ability ("Lifelink is a static ability.")."""
    content = [index for index in rules if not scope.heading_only[index]][:2]
    if len(content) < 2:
        return content[0] if content else None
    words = dict(conn.execute(
        "SELECT id, length(text) - length(replace(text, ' ', '')) + 1 FROM texts "
        "WHERE id IN (?, ?)", [scope.text_ids[index] for index in content]))
    if words.get(scope.text_ids[content[0]], STUB + 1) <= STUB:
        return content[1]
    return content[0]


def _stems(concept: Concept, stopwords: frozenset[str]
           ) -> list[tuple[set[str], set[tuple[str, ...]]]]:
    """Each of a concept's phrases as stems: its plain words, and its compounds
    (double-faced) as the stems of their parts."""
    out = []
    for text in concept.phrases:
        words: set[str] = set()
        compounds: set[tuple[str, ...]] = set()
        for word in words_of(text):
            if word in stopwords:
                continue
            if "-" in word:
                compounds.add(tuple(stem(part) for part in word.split("-") if part))
            else:
                words.add(stem(word))
        if words or compounds:
            out.append((words, compounds))
    return out


def _mark(found: Evidence, scope: Scope, rules: list[int], heading: int, share: float
          ) -> None:
    """The rules under a heading (or a glossary entry's target) are about the concept: as
    much as the query names the heading, the heading is specific, and the concept lives
    there (how many of the rules that say it are under it: "Trample" holds trample's rules,
    "Cast" few of the hundreds that say "cast")."""
    lives = len(found.says.intersection(rules)) / len(found.says) if found.says else 1.0
    strength = (ABOUT * share * _specificity(scope.sizes.get(heading, 0))
                * min(1.0, CONCENTRATED + math.sqrt(lives)))
    for index in rules:
        if found.about.get(index, 0.0) < strength:
            found.about[index] = strength


def _specificity(size: int) -> float:
    """How much being under a heading says about a rule: fully for a keyword's few rules,
    half for a section of 63, a third for a chapter of hundreds."""
    return 1.0 / (1.0 + max(0.0, math.log2((size + 1) / SPECIFIC)) / 2)


def _rows(conn: sqlite3.Connection, table: str, ids: tuple[int, int] | None, doc_id: str,
          match: str, column: str = "t.id") -> list[tuple[int]]:
    """Rows of one document's `table` matching `match`: by rowid range when its rows are
    one run, else by document."""
    if ids is not None:
        return conn.execute(
            f"SELECT {column} FROM {table}_fts JOIN {table} t ON t.id = {table}_fts.rowid "
            f"WHERE {table}_fts MATCH ? AND {table}_fts.rowid BETWEEN ? AND ?",
            [match, *ids]).fetchall()
    return conn.execute(
        f"SELECT {column} FROM {table}_fts JOIN {table} t ON t.id = {table}_fts.rowid "
        f"WHERE {table}_fts MATCH ? AND t.document = ?", [match, doc_id]).fetchall()
