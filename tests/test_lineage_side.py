"""The alignment's rare-word index (rulesdb.lineage.side) and set-based word counts give
exactly what the plain definitions give: the candidate pairs, their order and tie-breaking
decide which rules are matched, so every stored alignment depends on them. Rare words are
counted over the rules a pair still has to place (those that did not keep their number and
text), and a rule's words are worked out only when asked for."""

from __future__ import annotations

import sqlite3
from collections import Counter
from itertools import chain, pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesdb.lineage import text as lineage_text
from rulesdb.lineage.align import RuleRec, Side, _anchors
from rulesdb.lineage.matcher import Matcher
from rulesdb.lineage.side import RARE_CANDIDATES, RARE_DF, RARE_WORDS, Rarity, rare_pairs
from rulesdb.lineage.text import key_ratio, normalize, ratio, word_tokens, words_of

from conftest import corpus_files, needs_corpus

# --- the plain definitions --------------------------------------------------------------------


def plain_bag(side: Side, i: int) -> Counter:
    """A rule's bag of words, from its text (not from what the side prepared)."""
    rule = side.rules[i]
    return Counter(words_of(normalize(rule.text or rule.title or "")))


def plain_rare_words(side: Side, rules: list[int], frequency: Counter) -> dict[int, list[str]]:
    """Each rule's words held by at most RARE_DF rules to place, rarest first."""
    return {i: sorted([w for w in plain_bag(side, i) if frequency[w] <= RARE_DF],
                      key=lambda w: (frequency[w], w)) for i in rules}


def plain_rare_pairs(src: Side, dst: Side, src_rules, dst_rules, src_done, dst_done,
                     frequency: Counter) -> list[tuple[int, int]]:
    """rare_pairs as first written: an inverted index of every dst rule's rare words."""
    postings: dict[str, list[int]] = {}
    for j, words in plain_rare_words(dst, dst_rules, frequency).items():
        if j not in dst_done:
            for word in words:
                postings.setdefault(word, []).append(j)
    pairs = []
    for i, words in plain_rare_words(src, src_rules, frequency).items():
        if i in src_done:
            continue
        rarest = [w for w in words if w in postings][:RARE_WORDS]
        hits = Counter(chain.from_iterable([postings[w] for w in rarest]))
        ranked = sorted([(-count, j) for j, count in hits.items()])[:RARE_CANDIDATES]
        pairs.extend((i, j) for _, j in ranked)
    return pairs


def assert_same_as_plain(old: Side, new: Side, old_rules: list[int], new_rules: list[int],
                         old_done: dict, new_done: dict) -> None:
    old.prepare(old_rules)
    new.prepare(new_rules)
    rarity = Rarity(old, new, old_rules, new_rules)
    frequency = Counter(chain.from_iterable(
        [*(plain_bag(old, i) for i in old_rules), *(plain_bag(new, j) for j in new_rules)]))
    assert {w: rarity.frequency[w] for w in frequency} == frequency
    for side, rules in ((old, old_rules), (new, new_rules)):
        rare = plain_rare_words(side, rules, frequency)
        assert {i: rarity.words(side, i) for i in rules} == rare
        every: dict[str, list[int]] = {}
        for i in rules:
            for word in rare[i]:
                every.setdefault(word, []).append(i)
        assert rarity.holders[side is old] == every
    assert rare_pairs(old, new, old_done, new_done, rarity) == plain_rare_pairs(
        old, new, old_rules, new_rules, old_done, new_done, frequency)
    assert rare_pairs(new, old, new_done, old_done, rarity, swap=True) == [
        (j, i) for i, j in plain_rare_pairs(new, old, new_rules, old_rules, new_done, old_done,
                                            frequency)]
    # as _splits asks: every rule of the other side, whatever is done
    assert rare_pairs(new, old, new_done, {}, rarity) == plain_rare_pairs(
        new, old, new_rules, old_rules, new_done, {}, frequency)


# --- random small editions --------------------------------------------------------------------

# Few words, so that many are rare, many are not, and rules tie on their hits.
WORDS = ["alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa", "zeta", "eta", "rho"]
texts = st.lists(st.sampled_from(WORDS), min_size=0, max_size=8).map(" ".join)


def side_of(texts_: list[str]) -> Side:
    return Side([RuleRec(f"{100 + k}", "rule", None, text) for k, text in enumerate(texts_)])


@settings(max_examples=150, deadline=None)
@given(st.lists(texts, min_size=1, max_size=90), st.lists(texts, min_size=1, max_size=90),
       st.data())
def test_rare_pairs_equal_the_plain_definition(old_texts, new_texts, data):
    old, new = side_of(old_texts), side_of(new_texts)
    old_rules = sorted(data.draw(st.sets(st.integers(0, len(old_texts) - 1), min_size=1)))
    new_rules = sorted(data.draw(st.sets(st.integers(0, len(new_texts) - 1), min_size=1)))
    old_done = {i: 0 for i in data.draw(st.sets(st.sampled_from(old_rules)))}
    new_done = {j: 0 for j in data.draw(st.sets(st.sampled_from(new_rules)))}
    assert_same_as_plain(old, new, old_rules, new_rules, old_done, new_done)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=12), st.lists(st.sampled_from(WORDS),
                                                               max_size=12))
def test_word_tokens_share_what_the_bags_share(a, b):
    key_a, key_b = " ".join(a), " ".join(b)
    bag_a, bag_b = Counter(words_of(key_a)), Counter(words_of(key_b))
    assert len(word_tokens(key_a)) == len(a)
    assert len(word_tokens(key_a) & word_tokens(key_b)) == sum((bag_a & bag_b).values())


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=12), st.lists(st.sampled_from(WORDS),
                                                               max_size=12))
def test_distinct_words_bound_the_shared_words(a, b):
    """The alignment rules pairs out on this bound before counting repeated words."""
    old, new = side_of([" ".join(a)]), side_of([" ".join(b)])
    old.prepare([0])
    new.prepare([0])
    shared = len(old.tokens(0) & new.tokens(0))
    distinct = len(old.vocab[0] & new.vocab[0])
    assert old.repeats[0] == len(a) - len(set(a))
    assert distinct <= shared <= distinct + min(old.repeats[0], new.repeats[0])


@given(st.integers(0, 40), st.dictionaries(st.integers(0, 39), st.integers(0, 99)))
def test_anchors_are_the_nearest_match_before(count, fwd):
    fwd = {i: j for i, j in fwd.items() if i < count}
    assert _anchors(count, fwd) == [
        next((fwd[k] for k in range(i, -1, -1) if k in fwd), -1) for i in range(count)]


@pytest.mark.parametrize(("a", "b"), [
    ("the creature deals damage", "the creature deals combat damage"),
    ("a b c", "c b a"), ("", "x"), ("same words", "same words"),
])
def test_key_ratio_is_ratio_either_way(a, b):
    lineage_text.clear_caches()
    expected = ratio(words_of(a), words_of(b))
    assert key_ratio(a, b) == key_ratio(b, a) == expected == ratio(words_of(b), words_of(a))


# --- the real editions ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real_sides(tmp_path_factory) -> list[Side]:
    import sqlite_utils

    from rulesdb.db.schema import ensure_schema
    from rulesdb.db.store import CatalogEntry, save_document
    from rulesdb.ingest import cr_text
    from rulesdb.lineage.query import edition

    path = tmp_path_factory.mktemp("side") / "rules.db"
    db = sqlite_utils.Database(path)
    ensure_schema(db)
    for file in corpus_files():
        doc = cr_text.parse(file.read_bytes())
        save_document(db, CatalogEntry(
            id=f"cr-{doc.meta.effective_date}", kind="comprehensive_rules", title=doc.meta.title,
            file=file.name, sha256="-", parser="cr_text", effective_date=doc.meta.effective_date,
            partial=False, covers=doc.meta.covers), doc)
    db.conn.commit()
    conn = sqlite3.connect(path)
    docs = [row[0] for row in conn.execute(
        "SELECT id FROM documents ORDER BY effective_date, id")]
    return [Side(edition(conn, doc)[0]) for doc in docs]


@needs_corpus
def test_real_editions_give_the_plain_candidates(real_sides):
    for old, new in pairwise(real_sides):
        matcher = Matcher(old, new)
        matcher.unchanged()
        left = matcher.old_left, matcher.new_left
        assert_same_as_plain(old, new, *left, {}, {})
        matcher.exact()
        assert_same_as_plain(old, new, *left, matcher.fwd, matcher.rev)
