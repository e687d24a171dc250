"""The second stage of search: the first candidates of the lexical ranking (`ranking`) read
again against the question, and ordered by a weighted sum of features that follow principles:

- `lexical`, `coverage`: the first stage's place and how much of the query it covered;
- `meaning`: how well the candidate's words, with its examples' and headings', match the
  question's words and the words the rules say in their place (`search_paraphrases`, learned
  from the rules: rulesdb.layers.paraphrases) — Okapi BM25 over the candidates, a paraphrase
  counting by its probability; `meaning_place`: its place by that;
- `cited`: how many rules cite it (the rules the rules point to state what others rely on);
- `heading`, `glossary`, `depth`: what kind of item it is (a heading only names a topic; the
  deeper a subrule, the more specific).

The weights are data (data/search-ranker.toml, stored in `search_ranker`), learned and
measured feature by feature on the development half of real people's questions
(benchmarks/search_ranker.py; docs/search.md has the figures, and those of the features
tried and left out). Without them (a database made before) the lexical order stands.
"""

from __future__ import annotations

import math
import sqlite3
from collections import Counter
from dataclasses import dataclass, field

from .ranking import Ranked
from .reading import Reading, stem, words_of
from .scope import Scope

CANDIDATES = 100  # the first stage's best items read again
HEADINGS = 2  # the nearest headings over a rule whose words count as its own
SHOWN = 0.1  # a paraphrase this likely or more is told among a hit's reasons
K1, B = 1.2, 0.75  # Okapi BM25
FEATURES = ("lexical", "coverage", "meaning", "meaning_place", "cited", "heading", "glossary",
            "depth", "standing")


@dataclass(frozen=True)
class Model:
    """The ranker's weight of each feature."""

    weights: dict[str, float]


@dataclass
class Candidate:
    """One candidate with its features and what made them."""

    item: Ranked
    scope: Scope | None = None  # the document it is of
    features: dict[str, float] = field(default_factory=dict)
    # the likeliest paraphrases it says, as stems (asked, said)
    paraphrased: list[tuple[str, str]] = field(default_factory=list)
    cited: int = 0
    text: str = ""
    score: float = 0.0


def load_model(conn: sqlite3.Connection) -> Model | None:
    """The stored ranker, or None when the database has none."""
    try:
        weights = dict(conn.execute("SELECT name, weight FROM search_ranker").fetchall())
    except sqlite3.OperationalError:  # a database made before search had its ranker
        return None
    return Model(weights) if weights else None


def scored(conn: sqlite3.Connection, read: Reading,
           groups: list[tuple[Scope, list[Ranked]]], model: Model,
           stopwords: frozenset[str]) -> list[list[Candidate]]:
    """Each searched document's candidates with their features and the model's score (see
    `features`)."""
    found = features(conn, read, groups, stopwords)
    for candidates in found:
        for candidate in candidates:
            candidate.score = sum(model.weights.get(name, 0.0) * value
                                  for name, value in candidate.features.items())
    return found


def features(conn: sqlite3.Connection, read: Reading, groups: list[tuple[Scope, list[Ranked]]],
             stopwords: frozenset[str], paraphrased: bool = True) -> list[list[Candidate]]:
    """Each searched document's candidates — the head of its first stage, in that order —
    with their features (`paraphrased` False: the question's own words alone, to measure
    what paraphrases add). Every feature but one places a candidate among its own
    document's candidates; `standing` places its document among those searched: how well
    its best candidate says the question (`meaning`, its length weighed against every
    document's candidates alike) against the best of them all, 1 for a document searched
    alone. A long section and a short rule do not score alike by their places in their own
    documents, and a document that barely speaks of the question does not bring its first
    candidate up beside the answer of one that does."""
    asked = question_stems(read, stopwords)
    said_as = paraphrases(conn, asked) if paraphrased else {}
    weights: dict[str, float] = dict.fromkeys(asked, 1.0)
    for targets in said_as.values():
        for target, p in targets:
            weights[target] = weights.get(target, 0.0) + p
    wanted = {word[:2] for word in weights}  # a stem keeps its word's first two letters
    idf = _idf(conn, set(weights))
    read_in = [_reading(conn, scope, head, wanted, stopwords) for scope, head in groups]
    lengths = [length for said in read_in for length in said.lengths]
    average = sum(lengths) / len(lengths) if lengths else 1.0
    best_in = [max((_bm25(counts, length / (average or 1.0), weights, idf)
                    for counts, length in zip(said.counts, said.lengths, strict=True)),
                   default=0.0) for said in read_in]
    best = max(best_in, default=0.0) or 1.0
    return [_candidates(scope, head, said, weights, idf, said_as, found / best)
            for (scope, head), said, found in zip(groups, read_in, best_in, strict=True)]


@dataclass(frozen=True)
class _Read:
    """The candidates of one document as the second stage reads them: each one's text, how
    often it says each stem (with its examples and headings) and how many words that is, and
    how many rules cite it."""

    texts: list[str]
    counts: list[Counter[str]]
    lengths: list[int]
    cited: list[int]


def _reading(conn: sqlite3.Connection, scope: Scope, head: list[Ranked], wanted: set[str],
             stopwords: frozenset[str]) -> _Read:
    texts = _texts(conn, scope, head)
    examples = _examples(conn, scope, head)
    words = [_said(text, wanted, stopwords)
             + [word for example in shown for word in _said(example, wanted, stopwords)]
             + _heading_stems(scope, item, stopwords)
             for text, shown, item in zip(texts, examples, head, strict=True)]
    return _Read(texts, [Counter(said) for said in words], [len(said) for said in words],
                 _cited(conn, scope, head))


def _candidates(scope: Scope, head: list[Ranked], said: _Read, weights: dict[str, float],
                idf: dict[str, float], said_as: dict[str, list[tuple[str, float]]],
                standing: float) -> list[Candidate]:
    """One document's candidates with their features."""
    if not head:
        return []
    average = sum(said.lengths) / len(head) or 1.0
    meaning = [_bm25(counts, length / average, weights, idf)
               for counts, length in zip(said.counts, said.lengths, strict=True)]
    best = max(meaning) or 1.0
    place = {at: rank for rank, at in enumerate(sorted(range(len(head)),
                                                       key=lambda at: -meaning[at]))}
    out = []
    for at, item in enumerate(head):
        rule = item.kind != "glossary"
        candidate = Candidate(item, scope, {
            "lexical": 1.0 / (1 + at),
            "coverage": item.coverage,
            "meaning": meaning[at] / best,
            "meaning_place": 1.0 / (1 + place[at]),
            "cited": math.log1p(said.cited[at]) if rule else 0.0,
            "heading": 1.0 if rule and scope.heading_only[item.key] else 0.0,
            "glossary": 0.0 if rule else 1.0,
            "depth": _depth(scope.numbers[item.key]) if rule else 0.0,
            "standing": standing,
        })
        candidate.cited = said.cited[at] if rule else 0
        words = said.counts[at]
        candidate.paraphrased = [(source, target) for source, targets in said_as.items()
                                 if source not in words for target, p in targets
                                 if target in words and p >= SHOWN]
        candidate.text = said.texts[at]
        out.append(candidate)
    return out


def reasons(candidate: Candidate, read: Reading, stopwords: frozenset[str]) -> list[str]:
    """Why the second stage placed a candidate where it is, in words."""
    out = []
    if candidate.paraphrased:
        out.append("says " + ", ".join(
            f"{said} (for {asked})" for asked, said in
            _surface(candidate.paraphrased, read, candidate.text, stopwords)))
    if candidate.cited > 1:
        out.append(f"cited {candidate.cited} times")
    return out


def _surface(found: list[tuple[str, str]], read: Reading, text: str,
             stopwords: frozenset[str]) -> list[tuple[str, str]]:
    """Paraphrases as (the question's word, the rule's word), from their stems."""
    typed: dict[str, str] = {}
    for concept in read.concepts:  # the typed words first, then what they were read as
        for word in words_of(" ".join((concept.words, *concept.phrases))):
            for part in word.split("-"):
                typed.setdefault(stem(part), part)
    printed: dict[str, str] = {}
    for word in words_of(text):
        if word not in stopwords:
            for part in word.split("-"):
                printed.setdefault(stem(part), part)
    return list(dict.fromkeys((typed.get(asked, asked), printed.get(said, said))
                              for asked, said in found))


def question_stems(read: Reading, stopwords: frozenset[str]) -> list[str]:
    """The stems of what the question asks: its own words and what the reading read them
    as, filler left out."""
    out = []
    for concept in read.concepts:
        for text in (concept.words, *concept.phrases):
            out += _stems(text, stopwords)
    return list(dict.fromkeys(out))


def paraphrases(conn: sqlite3.Connection, stems: list[str]) -> dict[str, list[tuple[str, float]]]:
    """For each stem, the stems the rules say in its place, with their probabilities."""
    if not stems:
        return {}
    out: dict[str, list[tuple[str, float]]] = {}
    try:
        rows = conn.execute(
            f"SELECT source, target, p FROM search_paraphrases WHERE source IN "
            f"({','.join('?' * len(stems))})", stems).fetchall()
    except sqlite3.OperationalError:  # a database made before the paraphrases layer
        return {}
    for source, target, p in rows:
        if target not in stems:
            out.setdefault(source, []).append((target, p))
    return out


def _said(text: str, wanted: set[str], stopwords: frozenset[str]) -> list[str]:
    """A text's words as stems where a stem of `wanted`'s first two letters can come of
    them, the others as "" (they count for its length only): stemming every word of a
    hundred texts is most of the second stage's time."""
    return [stem(part) if part[:2] in wanted else ""
            for word in words_of(text) if word not in stopwords
            for part in word.split("-") if part]


def _stems(text: str, stopwords: frozenset[str]) -> list[str]:
    return [stem(part) for word in words_of(text) if word not in stopwords
            for part in word.split("-") if part]


def _texts(conn: sqlite3.Connection, scope: Scope, head: list[Ranked]) -> list[str]:
    """Each candidate's text: a rule's own, a glossary entry's term and definition."""
    text_ids = [scope.text_ids[item.key] for item in head if item.kind != "glossary"]
    gloss_ids = [item.key for item in head if item.kind == "glossary"]
    texts: dict[int, str] = {}
    glossary: dict[int, str] = {}
    if text_ids:
        texts = dict(conn.execute(f"SELECT id, text FROM texts WHERE id IN "
                                  f"({','.join('?' * len(text_ids))})", text_ids).fetchall())
    if gloss_ids:
        glossary = {gloss_id: f"{term}. {definition or ''}" for gloss_id, term, definition
                    in conn.execute(f"SELECT id, term, definition FROM glossary WHERE id IN "
                                    f"({','.join('?' * len(gloss_ids))})", gloss_ids)}
    return [glossary.get(item.key, "") if item.kind == "glossary"
            else texts.get(scope.text_ids[item.key]) or "" for item in head]


def _examples(conn: sqlite3.Connection, scope: Scope, head: list[Ranked]
              ) -> list[list[str]]:
    """Each candidate's examples (none for a glossary entry): an example says its rule
    again in a game's words, as questions do."""
    ids = [scope.rule_ids[item.key] for item in head if item.kind != "glossary"]
    found: dict[int, list[str]] = {}
    if ids:
        for rule_id, text in conn.execute(
                f"SELECT rule_id, text FROM examples WHERE rule_id IN "
                f"({','.join('?' * len(ids))})", ids):
            found.setdefault(rule_id, []).append(text)
    return [[] if item.kind == "glossary" else found.get(scope.rule_ids[item.key], [])
            for item in head]


def _headings(scope: Scope, index: int) -> list[int]:
    """The titled rules over a rule (itself first when titled), nearest first."""
    out = []
    at: int | None = index
    while at is not None and len(out) < HEADINGS:
        if scope.titled[at]:
            out.append(at)
        at = scope.up[at]
    return out


def _heading_stems(scope: Scope, item: Ranked, stopwords: frozenset[str]) -> list[str]:
    if item.kind == "glossary":
        return []
    return [word for heading in _headings(scope, item.key)
            for word in _stems(scope.titles[heading], stopwords)]


def _idf(conn: sqlite3.Connection, stems: set[str]) -> dict[str, float]:
    """How rare each stem is among the distinct rule texts of every edition; a stem no text
    says (a heading's or glossary's own word) counts as the rarest."""
    if not stems:
        return {}
    try:
        total = conn.execute("SELECT count(*) FROM texts").fetchone()[0] or 1
        counts = dict(conn.execute(
            f"SELECT stem, texts FROM search_stems WHERE stem IN "
            f"({','.join('?' * len(stems))})", list(stems)).fetchall())
    except sqlite3.OperationalError:
        return dict.fromkeys(stems, 1.0)
    return {word: math.log(1 + (total - counts.get(word, 0) + 0.5)
                           / (counts.get(word, 0) + 0.5)) for word in stems}


def _bm25(counts: Counter, relative_length: float, weights: dict[str, float],
          idf: dict[str, float]) -> float:
    norm = K1 * (1 - B + B * relative_length)
    return sum(weight * idf.get(word, 0.0) * counts[word] * (K1 + 1) / (counts[word] + norm)
               for word, weight in weights.items() if counts.get(word))


def _cited(conn: sqlite3.Connection, scope: Scope, head: list[Ranked]) -> list[int]:
    """How many references point to each candidate rule (0 for a glossary entry):
    citations, not the uses of a term linked to where a judges' document defines it (the
    CR's terms are linked apart, in `term_links`; a term used everywhere is no rule relied
    on everywhere)."""
    ids = [scope.rule_ids[item.key] for item in head if item.kind != "glossary"]
    if not ids:
        return [0] * len(head)
    counts = dict(conn.execute(
        f"SELECT target_rule_id, count(*) FROM [references] WHERE target_rule_id IN "
        f"({','.join('?' * len(ids))}) AND kind != 'term' GROUP BY target_rule_id",
        ids).fetchall())
    return [0 if item.kind == "glossary" else counts.get(scope.rule_ids[item.key], 0)
            for item in head]


def _depth(number: str) -> float:
    """How deep a rule sits: 7 → 0, 702 → 0 (a section), 702.19 → 1, 702.19b → 2."""
    return float(number.count(".") + (number[-1:].isalpha() and "." in number))
