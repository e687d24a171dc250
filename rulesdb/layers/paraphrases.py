"""Paraphrases layer: the words the rules say in place of a word, learned from the rules.

The rules say the same things again in other words: a glossary entry's term and its
definition ("Dies" — "put into its owner's graveyard from the battlefield"), and every rule
reworded between two editions (the words one edition dropped and those the next printed
instead: "comes into play" and "enters the battlefield", "removed from the game" and "exiled").
From these pairs, every edition's, a word-translation table is learned by
expectation-maximization (IBM Model 1): for each word stem, the stems the rules say in its
place, each with a probability. Search also reads a query's words as these
(rulesdb.lookup.rerank), so that a question finds a rule that says the same thing in other
words, old words included.

`build` learns the table; an `add` keeps it (one more edition's rewordings, a few hundred
beside the history's ten thousand, change little of what the whole history taught, and
learning again took most of a second of every add of a new release), unless it is empty.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import sqlite_utils

from ..db.schema import ensure_schema
from ..lineage.text import SequenceMatcher
from ..lookup.reading import stem, words_of
from ..lookup.search import current_edition

ROUNDS = 5  # EM rounds: the table hardly moves after four
KEEP = 6  # targets kept per word
FLOOR = 0.05  # the least probability a kept target has
SPAN = 8  # words: a rewording longer than this on either side is not one paraphrase


def compute(db: sqlite_utils.Database, doc_ids: list[str]) -> str:
    """Learn the table when it is empty (a build); a one-line summary."""
    ensure_schema(db, ["search_paraphrases"])
    if db.execute("SELECT 1 FROM search_paraphrases LIMIT 1").fetchone():
        return "kept (learned from the history the database was built with)"
    if current_edition(db.conn) is None:
        return "no Comprehensive Rules edition: no paraphrases"
    stopwords = frozenset(row[0] for row in db.execute("SELECT word FROM search_stopwords"))
    counts: dict[str, int] = {}
    pairs: list[tuple[list[str], list[str]]] = []
    for kind, source, target in _pairs(db):
        left, right = stems(source, stopwords), stems(target, stopwords)
        if left and right:
            pairs.append((left, right))
            counts[kind] = counts.get(kind, 0) + 1
    table = learn(pairs)
    db.execute("DELETE FROM search_paraphrases")
    db["search_paraphrases"].insert_all(
        ({"source": source, "target": target, "p": round(p, 4)}
         for source, targets in table.items() for target, p in targets),
        batch_size=5000)
    said = ", ".join(f"{count} {kind}" for kind, count in counts.items())
    return (f"{sum(map(len, table.values()))} paraphrases of {len(table)} words, learned from "
            f"{len(pairs)} pairs ({said})")


def stems(text: str, stopwords: frozenset[str]) -> list[str]:
    """The stems of a text's words, filler left out, hyphenated words apart (as search
    reads a query)."""
    return [stem(part) for word in words_of(text) if word not in stopwords
            for part in word.split("-") if part]


def learn(pairs: list[tuple[list[str], list[str]]]) -> dict[str, list[tuple[str, float]]]:
    """IBM Model 1 over (source stems, target stems) pairs, with an empty source word that
    takes what no word explains: for each source stem, its likeliest other target stems
    (at most KEEP, each at least FLOOR)."""
    vocabulary: dict[str, int] = {"": 0}  # the empty word
    left_ids: list[int] = []  # every pair's source words (the empty word first), end to end
    right_ids: list[int] = []  # every pair's target words, end to end
    widths: list[int] = []  # per target word: how many source words its pair has
    starts: list[int] = []  # per target word: where its pair's source words start
    for left, right in pairs:
        start = len(left_ids)
        left_ids += [0, *dict.fromkeys(vocabulary.setdefault(word, len(vocabulary))
                                       for word in left)]
        right_ids += [vocabulary.setdefault(word, len(vocabulary)) for word in right]
        widths += [len(left_ids) - start] * len(right)
        starts += [start] * len(right)
    if not right_ids:
        return {}
    # one row per (target word, source word of its pair): what EM shares out
    width = np.asarray(widths, np.int64)
    slot_ids = np.repeat(np.arange(len(right_ids)), width)
    offset = np.arange(len(slot_ids)) - np.repeat(np.cumsum(width) - width, width)
    sources = np.asarray(left_ids, np.int64)[np.asarray(starts, np.int64)[slot_ids] + offset]
    targets = np.asarray(right_ids, np.int64)[slot_ids]
    size = len(vocabulary)
    slot = len(right_ids)
    keys, key_of = np.unique(sources * size + targets, return_inverse=True)
    key_source = keys // size
    p = np.ones(len(keys))
    for _ in range(ROUNDS):
        share = p[key_of]
        share /= np.bincount(slot_ids, weights=share, minlength=slot)[slot_ids]
        count = np.bincount(key_of, weights=share, minlength=len(keys))
        p = count / np.bincount(key_source, weights=count, minlength=size)[key_source]
    words = list(vocabulary)
    table: dict[str, list[tuple[str, float]]] = {}
    key_target = keys % size
    keep = (key_source != 0) & (key_source != key_target) & (p >= FLOOR)
    for at in np.flatnonzero(keep)[np.lexsort((-p[keep], key_source[keep]))]:
        source = words[key_source[at]]
        kept = table.setdefault(source, [])
        if len(kept) < KEEP:
            kept.append((words[key_target[at]], float(p[at])))
    return table


def _pairs(db: sqlite_utils.Database) -> Iterator[tuple[str, str, str]]:
    """(kind, one wording, another) for what the rules say twice: a glossary entry's term
    and its definition, and the stretches of words a rewording replaced."""
    for term, definition in db.execute(
            "SELECT DISTINCT term, definition FROM glossary WHERE definition IS NOT NULL"):
        yield "glossary entries", term, definition
    for old, new in db.execute(
            "SELECT DISTINCT ta.text, tb.text FROM alignments a "
            "JOIN rule_rows ra ON ra.id = a.old_rule_id JOIN rule_rows rb ON rb.id = a.new_rule_id "
            "JOIN texts ta ON ta.id = ra.text_id JOIN texts tb ON tb.id = rb.text_id "
            "WHERE a.change != 'unchanged' AND a.change LIKE '%edited' AND ta.id != tb.id"):
        yield from (("rewordings", dropped, said) for dropped, said in _reworded(old, new))


def _reworded(old: str, new: str) -> Iterator[tuple[str, str]]:
    """The stretches of words one wording replaced with others (each at most SPAN words)."""
    left, right = words_of(old), words_of(new)
    matcher = SequenceMatcher(a=left, b=right, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "replace" and i2 - i1 <= SPAN and j2 - j1 <= SPAN:
            yield " ".join(left[i1:i2]), " ".join(right[j1:j2])
