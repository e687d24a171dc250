"""Search: the rules and paragraphs a question is about, from the documents a judge reaches for.

A query is read into concepts (`reading`), and the items of each searched document — by
default the current documents: the newest whole edition of the Comprehensive Rules (its
rules and its glossary), and the newest Magic Tournament Rules and Infraction Procedure
Guide — are ranked by how much of the query they cover (`ranking`), each document's best
read again by the second stage (`rerank`). The documents' hits are then merged by the second
stage's score, which compares across documents as its features do. A concept none of them
says (mana burn, "in play") is answered from the newest CR edition that had it, marked so,
with what replaced it when the glossary says (`hits`). `all_editions` adds, after them, the
rules and glossary entries of every other document, each shown by its newest edition. A
query that is a rule number is the caller's to look up (`looks_like_rule_number`).

Plain sqlite3 over a built database, cheap to import (no spaCy, no sqlite-utils).
"""

from __future__ import annotations

import os
import re
import sqlite3
from dataclasses import dataclass

from ..db.editions import newest_edition
from ..ingest.policy_names import KINDS as POLICY_KINDS
from . import evidence, ranking, reading, rerank
from . import hits as shown
from .display import HIT_END, HIT_START, also_in, describe, oldest
from .query import Row
from .scope import Scope, load_scope

RULE_NUMBER = re.compile(
    r"^\s*(?:\d{1,3}(?:\.\d+[a-z]?)?|[A-Z](?:\.(?:\d+|Ruling\.\d+|Note\.\d+))+)\.?\s*$")
MAX_QUERY_CHARS = 1000  # a longer query is read up to here (and says so)
STILL_USED = 10  # an obsolete term said by more rules than this is read as plain words
OLD_HITS = 3  # rules shown from the last edition that had a concept the current rules lack

__all__ = ["HIT_END", "HIT_START", "also_in", "current_documents", "current_edition", "describe",
           "first_stage", "looks_like_rule_number", "oldest", "read_query", "search"]


def looks_like_rule_number(query: str) -> bool:
    """True for "702.19", "702.19b.", "702", "A.1.Ruling.3"."""
    return bool(RULE_NUMBER.match(query))


def current_edition(conn: sqlite3.Connection) -> str | None:
    """The newest whole Comprehensive Rules edition: what search ranks first."""
    row = conn.execute(
        "SELECT id FROM documents WHERE kind = 'comprehensive_rules' AND NOT partial "
        "ORDER BY effective_date DESC, id DESC LIMIT 1").fetchone()
    return row[0] if row else None


def read_query(conn: sqlite3.Connection, query: str, doc_id: str | None = None
               ) -> reading.Reading:
    """How `query` is read against the searched document's glossary and the vocabulary."""
    scope_id = doc_id or current_edition(conn)
    read = reading.read(query[:MAX_QUERY_CHARS], _lexicon(conn, scope_id))
    if len(query) > MAX_QUERY_CHARS or read.cut:
        read = reading.Reading(read.query, read.concepts, read.ignored, read.cut, (
            f"only the first {reading.MAX_QUERY_WORDS} words of a long query are read",))
    if scope_id is not None and read.concepts:
        read = _settle_obsolete(conn, _scope(conn, scope_id), read)
    return read


def current_documents(conn: sqlite3.Connection) -> list[str]:
    """What a search covers without a document named: the current rules (the newest whole
    CR edition) and the newest edition of each of the judges' documents (the Magic
    Tournament Rules, the Infraction Procedure Guide), in that order; none when there are
    no current rules (every document is then searched alike)."""
    current = current_edition(conn)
    if current is None:
        return []
    return [current, *(doc for kind in POLICY_KINDS
                       if (doc := newest_edition(conn, kind)) is not None)]


def search(conn: sqlite3.Connection, query: str, doc_id: str | None = None, limit: int = 10,
           all_editions: bool = False) -> Row:
    """The items that answer `query`, best first, and how the query was read:
    `{"query", "scope", "documents", "read_as", "ignored", "old", "notes", "hits"}`.
    Without `doc_id` the current documents are searched (`current_documents`; `scope` is the
    current rules, by whose glossary the query is read; every document when there are none),
    `doc_id` searches that document; `all_editions` adds the other documents after them."""
    docs = [doc_id] if doc_id else current_documents(conn)
    scope_id = docs[0] if docs else None
    read = read_query(conn, query, scope_id)
    stopwords = _stopwords(conn)
    hits: list[Row] = []
    old: list[Row] = []
    if docs and read.concepts:
        matched: dict[str, list[int]] = {}
        searched = [Searched(*first_stage(conn, read, doc, matched)) for doc in docs]
        hits = [_hit(placed.scope, placed.item, read, placed.candidate, stopwords)
                for placed in _merged(conn, read, searched, limit)[:limit]]
        first = searched[0].scope
        if first.document_kind == "comprehensive_rules":
            for at, concept in enumerate(read.concepts):
                said = any(each.found[at].says or each.found[at].examples
                           for each in searched)
                past = shown.old_concept(conn, first, concept, said, OLD_HITS)
                if past is not None:
                    hits += past.pop("hits")
                    old.append(past)
    if read.concepts and (not docs or (all_editions and not doc_id)):
        seen = {(hit["kind"] == "glossary", hit.get("number") or hit.get("term"))
                for hit in hits}
        hits += [hit for hit in shown.elsewhere(conn, read, docs, limit)
                 if (hit["kind"] == "glossary", hit.get("number") or hit.get("term"))
                 not in seen]
    stems = shown.query_stems(read, stopwords)
    return {"query": query, "scope": scope_id, "documents": docs, "read_as": _read_as(read),
            "ignored": list(read.ignored), "old": old, "notes": list(read.notes),
            "hits": shown.with_snippets(conn, hits, stems)}


@dataclass(frozen=True)
class Searched:
    """One document searched by the first stage: its scope, where each concept was found,
    and its items best first."""

    scope: Scope
    found: list[evidence.Evidence]
    ranked: list[ranking.Ranked]


@dataclass(frozen=True)
class Placed:
    """An item of one searched document, where its document's first stage placed it and,
    when the second stage read it, the candidate with its score."""

    scope: Scope
    item: ranking.Ranked
    document: int  # its document's place among those searched
    place: int  # in its document's first stage
    exact: bool  # a glossary entry whose term is the whole query
    candidate: rerank.Candidate | None


def _merged(conn: sqlite3.Connection, read: reading.Reading, searched: list[Searched],
            limit: int) -> list[Placed]:
    """The documents' items in one order: a glossary entry that is the whole query first,
    then the items the second stage read (each document's first CANDIDATES) by its score,
    equal scores in the documents' order and their first stage's; then the others by
    document and place (and so, without the second stage's weights, each document's items
    in its first stage's order, one document after another)."""
    model = _model(conn)
    scored = [[] for _ in searched] if model is None else rerank.scored(
        conn, read, [(each.scope, each.ranked[:rerank.CANDIDATES]) for each in searched],
        model, _stopwords(conn))
    placed = []
    for document, (each, candidates) in enumerate(zip(searched, scored, strict=True)):
        exact = _exact_terms(each.scope, read)
        placed += [Placed(each.scope, item, document, place,
                          item.kind == "glossary" and item.key in exact,
                          candidates[place] if place < len(candidates) else None)
                   for place, item in enumerate(each.ranked[:max(limit, rerank.CANDIDATES)])]
    return sorted(placed, key=_order)


def _order(placed: Placed) -> tuple:
    score = placed.candidate.score if placed.candidate is not None else 0.0
    return (not placed.exact, placed.candidate is None, -score, placed.document, placed.place)


def first_stage(conn: sqlite3.Connection, read: reading.Reading, scope_id: str,
                matched: dict[str, list[int]] | None = None
                ) -> tuple[Scope, list[evidence.Evidence], list[ranking.Ranked]]:
    """The lexical ranking of a read query in one document: the scope, where each concept
    was found, and every item covering any, best first (the second stage reads its head).
    `matched`: what the full-text index gave this search's other documents
    (`evidence.evidence`)."""
    stopwords = _stopwords(conn)  # the same for every document: its lexicon is not needed
    scope = _scope(conn, scope_id)
    found = [evidence.evidence(conn, scope, concept, matched) for concept in read.concepts]
    evidence.about(conn, scope, list(read.concepts), found, stopwords)
    evidence.meet(conn, scope, found, stopwords)
    return scope, found, ranking.rank(conn, scope, found, _exact_terms(scope, read),
                                      _named_obsolete(scope, read))


# --- what is loaded once per database file and document ----------------------------------

_SCOPES: dict[tuple, Scope] = {}
_LEXICONS: dict[tuple, reading.Lexicon] = {}
_MODELS: dict[tuple, rerank.Model | None] = {}
_STOPWORDS: dict[tuple, frozenset[str]] = {}
_KINDS: dict[tuple, str] = {}


def _file_key(conn: sqlite3.Connection, doc_id: str | None) -> tuple:
    """What tells one database file (and document) from another: its path and stamp."""
    path = conn.execute("PRAGMA database_list").fetchone()[2]
    try:
        info = os.stat(path)
        stamp: tuple = (info.st_ino, info.st_size, info.st_mtime_ns)
    except OSError:
        stamp = (id(conn),)
    return (path, stamp, doc_id)


def _cached(cache: dict, key: tuple, make):
    if key not in cache:
        if len(cache) > 8:
            cache.clear()
        cache[key] = make()
    return cache[key]


def _scope(conn: sqlite3.Connection, doc_id: str) -> Scope:
    return _cached(_SCOPES, _file_key(conn, doc_id), lambda: load_scope(conn, doc_id))


def _lexicon(conn: sqlite3.Connection, doc_id: str | None) -> reading.Lexicon:
    return _cached(_LEXICONS, _file_key(conn, doc_id), lambda: reading.lexicon(conn, doc_id))


def _stopwords(conn: sqlite3.Connection) -> frozenset[str]:
    return _cached(_STOPWORDS, _file_key(conn, None), lambda: reading.stopwords(conn))


def _model(conn: sqlite3.Connection) -> rerank.Model | None:
    return _cached(_MODELS, _file_key(conn, None), lambda: rerank.load_model(conn))


# --- the query as the searched document reads it -------------------------------------------


def _settle_obsolete(conn: sqlite3.Connection, scope: Scope, read: reading.Reading
                     ) -> reading.Reading:
    """The query with the obsolete terms the current rules still say often ("during",
    "permanently") read as plain words: only a term the rules have let go is read as what
    replaced it."""
    concepts = []
    for concept in read.concepts:
        if concept.source == "obsolete term":
            match = reading.fts_expression(reading.plain(concept))
            said = sum(len(scope.by_text.get(text_id, ())) for (text_id,) in conn.execute(
                "SELECT rowid FROM texts_fts WHERE texts_fts MATCH ?", [match])) if match else 0
            if said > STILL_USED:
                concept = reading.plain(concept)
        concepts.append(concept)
    return reading.Reading(read.query, tuple(concepts), read.ignored, read.cut, read.notes)


def _exact_terms(scope: Scope, read: reading.Reading) -> set[int]:
    """Glossary entries whose term (or a name of it) is the whole query ("trample")."""
    if len(read.concepts) != 1:
        return set()
    concept = read.concepts[0]
    wanted = {reading.key_of(reading.words_of(text)) for text in (concept.words,
                                                                   *concept.phrases)}
    return {gloss_id for key, ids in scope.term_keys().items() if key in wanted
            for gloss_id in ids}


def _named_obsolete(scope: Scope, read: reading.Reading) -> set[int]:
    """The obsolete glossary entries whose term the query names."""
    keys = scope.term_keys()
    return {gloss_id for concept in read.concepts if concept.source == "obsolete term"
            for gloss_id in keys.get(reading.key_of(reading.words_of(concept.words)), ())
            if gloss_id in scope.obsolete}


def _hit(scope: Scope, item: ranking.Ranked, read: reading.Reading,
         candidate: rerank.Candidate | None, stopwords: frozenset[str]) -> Row:
    covers = [read.concepts[place].words for place in item.concepts]
    why = ([f"matches {', '.join(covers)}"] if covers else []) + (
        rerank.reasons(candidate, read, stopwords) if candidate is not None else [])
    if item.kind == "glossary":
        return {"kind": "glossary", "document": scope.doc_id, "term": scope.terms[item.key],
                "id": item.key, "score": round(item.coverage, 3), "covers": covers,
                "why": why, "obsolete": item.key in scope.obsolete}
    return {"kind": scope.rule_kind, "document": scope.doc_id,
            "number": scope.numbers[item.key], "title": scope.printed.get(item.key),
            "id": scope.rule_ids[item.key], "score": round(item.coverage, 3), "covers": covers,
            "why": why}


def _read_as(read: reading.Reading) -> list[Row]:
    """The words read as other words: each with the parts it was read as (a part's
    alternatives joined by " | "), where that comes from and its note."""
    out: list[Row] = []
    for concept in read.concepts:
        if not concept.read_as:
            continue
        if out and out[-1]["words"] == concept.words and concept.source == "vocabulary":
            out[-1]["as"].append(concept.read_as)
            continue
        out.append({"words": concept.words, "as": [concept.read_as], "source": concept.source,
                    "note": concept.note, "replaced_by": concept.replaced_by})
    return out


# --- how hits and readings are told --------------------------------------------------------
