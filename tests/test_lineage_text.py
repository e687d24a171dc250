"""The alignment's text helpers: the word-sequence ratio is difflib's, whichever
SequenceMatcher (difflib's or cydifflib's) computes it."""

from __future__ import annotations

import difflib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesdb.lineage import text as lineage_text
from rulesdb.lineage.text import key_ratio, ratio, words_of

WORDS = st.lists(st.sampled_from(["the", "a", "creature", "player", "target", "§", "it's",
                                  "damage", "deals", "to"]), max_size=40)


def _difflib_ratio(a: list[str], b: list[str]) -> float:
    if b < a:
        a, b = b, a
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


@settings(max_examples=300, deadline=None)
@given(WORDS, WORDS)
def test_ratio_is_difflibs_and_symmetric(a: list[str], b: list[str]) -> None:
    assert ratio(a, b) == _difflib_ratio(a, b)
    assert ratio(a, b) == ratio(b, a)


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("the player draws a card", "the player draws a card", 1.0),
    ("the player draws a card", "", 0.0),
    ("the player draws a card", "a player draws the card", 0.6),
    ("deal 2 damage to any target", "deal 3 damage to any target", 10 / 12),
])
def test_key_ratio_table(a: str, b: str, expected: float) -> None:
    assert key_ratio(a, b) == pytest.approx(expected)
    assert key_ratio(a, b) == ratio(words_of(a), words_of(b))


def test_the_compiled_matcher_is_used_when_installed() -> None:
    """cydifflib is a dependency where it has wheels; the fallback is difflib itself."""
    try:
        import cydifflib
    except ImportError:
        assert lineage_text.SequenceMatcher is difflib.SequenceMatcher
    else:
        assert lineage_text.SequenceMatcher is cydifflib.SequenceMatcher


def _cited_sub(match) -> str:
    """The placeholder of one CITED match, as the regex alone defines it."""
    if match["pre"] or match["rule"]:
        ends = "§-§" if match["end"] else "§"
        return (match["pre"] or "") + ends
    return match.group()


PIECES = st.sampled_from(["rule ", "Rules ", "section ", "sections ", "subrule ", "see ", "(",
                          ")", ", ", "613.1f", "702.19", "510", "2/2", "20", "608.2c–k",
                          "119.9–10", "306-311", "100.1a.", "rule 702", "x702.1", "3.14",
                          "1000", " and ", "–", "-"])


@settings(max_examples=400, deadline=None)
@given(st.lists(PIECES, max_size=12).map("".join))
def test_placeholders_are_the_cited_regex_substitution(text: str) -> None:
    """normalize() finds citations from their numbers rather than scanning for "rule": the
    same text comes out."""
    assert lineage_text._placeholders(text) == lineage_text.CITED.sub(_cited_sub, text)


@pytest.mark.parametrize(("text", "key"), [
    ("See rule 613.1f, then rules 306-311.", "see rule §, then rules §-§."),
    ("A 2/2 creature with 20 life (rule 510).", "a 2/2 creature with 20 life (rule §)."),
    ("Subrule 702 is not a citation; 702.19a is.", "subrule 702 is not a citation; § is."),
])
def test_normalize_table(text: str, key: str) -> None:
    lineage_text.clear_caches()
    assert lineage_text.normalize(text) == key
