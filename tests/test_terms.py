"""Terms layer: glossary terms linked in rule texts, measured against a hand-labelled sample."""

from __future__ import annotations

import json
import sqlite3
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesdb.layers import term_matcher
from rulesdb.layers.term_matcher import Lexicon, tokenize
from rulesdb.layers.terms import TermMatcher, glossary_for, matcher_for, tokens_of
from rulesdb.sources.add import parse_release, read_source

from conftest import ROOT, corpus_files

DATA = ROOT / "tests" / "data"
# Sentences drawn at random from the rule texts of all five documents; the terms in them were
# marked by reading (tests/data/README.md gives the rules), never by running the matcher.
SAMPLES = ["term_sample.jsonl", "term_sample_holdout.jsonl"]


@pytest.fixture(scope="module")
def conn(bundled_db):
    connection = sqlite3.connect(bundled_db)
    yield connection
    connection.close()


def sample(name: str = SAMPLES[0]) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text().splitlines() if line.strip()]


def found_in_sample(conn, name: str = SAMPLES[0]) -> tuple[set, set]:
    """(gold, predicted) sets of (sentence index, start, end, term)."""
    gold, predicted = set(), set()
    for index, item in enumerate(sample(name)):
        gold.update((index, t["start"], t["end"], t["term"]) for t in item["terms"])
        start, end = item["offset"], item["offset"] + len(item["sentence"])
        rows = conn.execute(
            "SELECT m.start, m.[end], g.term FROM term_mentions m "
            "JOIN rules r ON r.id = m.rule_id JOIN glossary g ON g.id = m.glossary_id "
            "WHERE r.document = ? AND r.number = ? AND m.start >= ? AND m.[end] <= ?",
            [item["doc"], item["number"], start, end]).fetchall()
        predicted.update((index, s - start, e - start, term) for s, e, term in rows)
    return gold, predicted


@pytest.mark.parametrize(("name", "size"), [(SAMPLES[0], 100), (SAMPLES[1], 50)])
def test_sample_is_large_varied_and_matches_the_texts(conn, name, size):
    items = sample(name)
    assert len(items) >= size
    assert len({item["doc"] for item in items}) == 5
    for item in items:
        text = conn.execute("SELECT text FROM rules WHERE document = ? AND number = ?",
                            [item["doc"], item["number"]]).fetchone()[0]
        assert text[item["offset"]:item["offset"] + len(item["sentence"])] == item["sentence"]
        for term in item["terms"]:
            assert item["sentence"][term["start"]:term["end"]] == term["text"]


@pytest.mark.parametrize("name", SAMPLES)
def test_precision_and_recall_on_the_hand_labelled_sample(conn, name):
    gold, predicted = found_in_sample(conn, name)
    hits = gold & predicted
    precision, recall = len(hits) / len(predicted), len(hits) / len(gold)
    print(f"{name}: term linking: precision {precision:.3f} recall {recall:.3f} "
          f"({len(hits)} of {len(predicted)} found, {len(gold)} labelled)")
    assert precision >= 0.95, sorted(predicted - gold)
    assert recall >= 0.90, sorted(gold - predicted)


GLOSSARY = [(1, "Tap"), (2, "Tapped"), (3, "Combat Damage"), (4, "Combat Damage Step"),
            (5, "Blocked Creature"), (6, "Blocking Creature"), (7, "Permanent"), (8, "Face Down"),
            (9, "Play"), (10, "Untap"), (11, "Leaves Play"), (12, "Placed"), (13, "Phase")]


@pytest.mark.parametrize(("text", "expected"), [
    ("Tap an untapped creature.", [("Tap", 1), ("untapped", 10)]),
    ("It taps and becomes tapped.", [("taps", 1), ("tapped", 2)]),
    ("during the combat damage step, combat damage", [("combat damage step", 4),
                                                      ("combat damage", 3)]),
    ("two blocking creatures and a blocked creature", [("blocking creatures", 6),
                                                       ("blocked creature", 5)]),
    ("the face-down permanents", [("face-down", 8), ("permanents", 7)]),
    ("It comes into play, then leaves play.", [("leaves play", 11)]),
    ("You may play it from play.", [("play", 9)]),
    ("This takes place when it is placed.", [("placed", 12)]),
    ("five phases", [("phases", 13)]),
    ("Nothing here is linked.", []),
])
def test_matcher_longest_first_lemma_aware(text, expected):
    matcher = TermMatcher(GLOSSARY)
    found = [(text[m.start:m.end], m.glossary_id) for m in matcher.find(tokens_of(text))]
    assert found == expected
    assert [(text[a:b], i) for a, b, i in batch_find(matcher, [text])[0]] == expected


def batch_find(matcher: TermMatcher, texts: list[str], blocked=(), skip=frozenset()) -> list:
    """What the layer finds: texts tokenized together, words looked up by id (find_in)."""
    lexicon = Lexicon()
    return [matcher.find_in(tokens, lexicon, list(blocked), set(skip))
            for tokens in tokenize(texts, lexicon)]


def reference_find(matcher: TermMatcher, text: str, blocked=(), skip=frozenset()) -> list:
    return [(m.start, m.end, m.glossary_id)
            for m in matcher.find(tokens_of(text), list(blocked), set(skip))]


def test_batch_finding_equals_the_reference_on_every_real_text(conn):
    """find_in over tokenize() must find exactly what find over tokens_of() finds."""
    texts = [row[0] for row in conn.execute(
        "SELECT text FROM rules WHERE text IS NOT NULL AND document IN "
        "('cr-2025-06-06-chapter7', 'rulings-1999-04') UNION SELECT text FROM examples")]
    assert len(texts) > 1500
    for older in (False, True):
        matcher = matcher_for(conn, "cr-2009-02-01-flattened", older)
        found = batch_find(matcher, texts)
        assert sum(map(len, found)) > 10000
        assert found == [reference_find(matcher, text) for text in texts]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from(
    ["tapped", "the", "combat", "damage", "step", "blocking", "creatures", "face-down", "Face",
     "down", "-", "  ", "permanent", "into", "play", "leaves", ",", "Tap", "untap", "phases",
     "x", "placed", "takes", "place"]), max_size=20).map(" ".join), max_size=6),
    st.lists(st.tuples(st.integers(0, 60), st.integers(1, 20)), max_size=3),
    st.sets(st.integers(1, 13), max_size=3))
def test_batch_finding_equals_the_reference(texts, spans, skip):
    matcher = TermMatcher(GLOSSARY)
    blocked = [(start, start + length) for start, length in spans]
    assert batch_find(matcher, texts, blocked, skip) == [
        reference_find(matcher, text, blocked, skip) for text in texts]


def test_matcher_skips_blocked_spans_and_own_entries():
    matcher = TermMatcher(GLOSSARY)
    text = 'A permanent; see rule 502.1, "Permanent Tap".'
    found = matcher.find(tokens_of(text), blocked=[(13, 45)], skip={7})
    assert [(text[m.start:m.end], m.glossary_id) for m in found] == []


@pytest.mark.parametrize(("blocked", "expected"), [
    ([], ["combat  damage step"]),
    ([(7, 8)], ["damage step"]),  # a span between two words, overlapping neither
    ([(6, 7)], ["damage step"]),  # …touching the first word's end
    ([(0, 1)], ["damage step"]),  # part of the first word
    ([(9, 10)], []),  # part of the second: both names starting before it overlap it
])
def test_a_blocked_span_blocks_every_mention_it_overlaps(blocked, expected):
    """The longest name starting at a word is dropped when its characters overlap a blocked
    span (its shorter beginnings are not tried: "combat" here)."""
    matcher = TermMatcher([*GLOSSARY, (20, "Combat"), (21, "Damage Step")])
    text = "combat  damage step"
    found = matcher.find(tokens_of(text), blocked=blocked)
    assert [text[m.start:m.end] for m in found] == expected
    assert batch_find(matcher, [text], blocked) == [reference_find(matcher, text, blocked)]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["tapped", "the", "combat", "damage", "step", "  ", "play",
                                 "blocking", "creatures", "permanent"]), max_size=14),
       st.lists(st.tuples(st.integers(0, 80), st.integers(0, 12)), max_size=3))
def test_no_mention_overlaps_a_blocked_span(words, spans):
    text = " ".join(words)
    blocked = [(start, start + length) for start, length in spans]
    for m in TermMatcher(GLOSSARY).find(tokens_of(text), blocked=blocked):
        assert not any(s < m.end and m.start < e for s, e in blocked)


def doc(doc_id, kind, date, glossary):
    return {"id": doc_id, "kind": kind, "effective_date": date, "glossary_count": glossary}


DOCS = [doc("cr-2009-02-01-flattened", "comprehensive_rules", "2009-02-01", 402),
        doc("cr-2025-06-06-chapter7", "comprehensive_rules", "2025-06-06", 0),
        doc("rulings-1999-04", "rulings_summary", "1999-04", 0),
        doc("rulebook-2005", "rulebook", "2005", 189),
        doc("rulebook-1995", "rulebook", "1995", 0)]


@pytest.mark.parametrize(("doc_id", "glossary"), [
    ("cr-2009-02-01-flattened", "cr-2009-02-01-flattened"), ("cr-2025-06-06-chapter7",
                                                             "cr-2009-02-01-flattened"),
    ("rulings-1999-04", "cr-2009-02-01-flattened"), ("rulebook-2005", "rulebook-2005"),
    ("rulebook-1995", "rulebook-2005"),
])
def test_which_glossary_links_which_document(doc_id, glossary):
    assert glossary_for(DOCS, next(d for d in DOCS if d["id"] == doc_id)) == glossary


def test_nearest_glossary_in_date_wins_and_ties_go_to_the_older():
    docs = [*DOCS, doc("cr-2020-01-01", "comprehensive_rules", "2020-01-01", 500),
            doc("cr-2030-01-01", "comprehensive_rules", "2030-01-01", 0),
            doc("cr-2040-01-01", "comprehensive_rules", "2040-01-01", 500)]
    assert glossary_for(docs, docs[1]) == "cr-2020-01-01"
    assert glossary_for(docs, docs[-2]) == "cr-2020-01-01"


def test_no_mention_inside_its_own_rule_or_a_cross_reference(conn):
    rows = conn.execute(
        "SELECT r.number, m.text FROM term_mentions m JOIN rules r ON r.id = m.rule_id "
        "JOIN glossary g ON g.id = m.glossary_id "
        "WHERE r.document = 'cr-2025-06-06-chapter7' AND r.number LIKE '702.19%' AND g.term = "
        "'Trample'"
    ).fetchall()
    assert rows == []
    inside = conn.execute(
        "SELECT count(*) FROM term_mentions m JOIN [references] f ON f.rule_id = m.rule_id "
        "WHERE m.start < f.[end] AND f.start < m.[end]").fetchone()[0]
    assert inside == 0


def test_mentions_are_spans_of_their_texts(conn):
    rows = conn.execute(
        "SELECT m.start, m.[end], m.text, coalesce(r.text, e.text) FROM term_mentions m "
        "LEFT JOIN rules r ON r.id = m.rule_id LEFT JOIN examples e ON e.id = m.example_id"
    ).fetchall()
    assert len(rows) > 20000
    assert all(text[start:end] == span for start, end, span, text in rows)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["tapped", "the", "combat", "damage", "step", "blocking",
                                 "creatures", "face-down", "permanent", "into", "play",
                                 "leaves", ",", "Tap", "untap", "phases", "x"]), max_size=25))
def test_mentions_never_overlap_and_name_an_entry(words):
    matcher = TermMatcher(GLOSSARY)
    text = " ".join(words)
    found = matcher.find(tokens_of(text))
    assert [m.start for m in found] == sorted(m.start for m in found)
    assert all(a.end <= b.start for a, b in pairwise(found))
    assert all(0 <= m.start < m.end <= len(text) for m in found)
    assert {m.glossary_id for m in found} <= {i for i, _ in GLOSSARY}


def test_the_lemma_table_answers_as_spacys_lookup_table() -> None:
    """The lemmas come from the lookup table's file read as a dict: the same answers as
    spaCy's Table built from it, for its words and for words it lacks."""
    from spacy.lookups import load_lookups

    table = load_lookups("en", ["lemma_lookup"]).get_table("lemma_lookup")
    lemmas = term_matcher._Lemmas()
    assert len(lemmas.table) == len(table) > 40000
    words = [*list(lemmas.table), "permanents", "phases", "zzzq", "tapped", "Creatures"]
    assert [lemmas[word] for word in words] == [table.get(word, word) for word in words]


def test_the_tokenizer_cuts_every_text_as_spacys_blank_english_does(conn) -> None:
    """The tokenizer is made without its pipeline: every rule, example, glossary and title
    text of the bundled documents (and of the corpus releases when present) is cut the same."""
    import spacy
    from spacy.attrs import IDX, LENGTH, ORTH

    texts = [row[0] for row in conn.execute(
        "SELECT text FROM rules WHERE text IS NOT NULL UNION SELECT title FROM rules "
        "WHERE title IS NOT NULL UNION SELECT text FROM examples UNION SELECT term FROM "
        "glossary UNION SELECT definition FROM glossary")]
    for path in corpus_files():
        texts += [rule.text for rule in parse_release(read_source(path)).rules if rule.text]
    texts += ["can't won't", "e.g. U.S. a.m.", "http://magic.wizards.com/x :) don't."]
    ours = term_matcher._tokenizer()
    theirs = spacy.blank("en").tokenizer
    assert len(texts) > 5000
    for text in texts:
        assert ours(text).to_array([IDX, LENGTH, ORTH]).tolist() == \
            theirs(text).to_array([IDX, LENGTH, ORTH]).tolist(), text
