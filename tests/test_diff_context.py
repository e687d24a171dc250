"""Small edits in long rules: the changed words with about a dozen words around them, the
rest folded ("…" in a terminal, <details> on the site), nothing lost."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rulesdb.lineage.text import fold_quotes
from rulesdb.lineage.wordiff import (
    compared,
    fold_context,
    opcodes,
    render_html,
    render_text,
    words,
)

LONG = " ".join(f"Type{n}," for n in range(400))  # like 205.3m's creature types


def test_a_one_word_change_in_a_400_word_rule_shows_a_line_not_the_rule():
    new = LONG.replace("Type200,", "Type200, Sorcerer,")
    old_side, new_side = render_text(opcodes(LONG, new))
    assert "{+Sorcerer,+}" in new_side
    assert len(new_side.split()) <= 2 * 12 + 3
    assert old_side.startswith("… ") and old_side.endswith("…")
    assert "Type189," in new_side and "Type188," not in new_side  # twelve words before


def test_the_whole_texts_when_asked():
    new = LONG.replace("Type200,", "Type200, Sorcerer,")
    _, new_side = render_text(opcodes(LONG, new), context=None)
    assert len(new_side.split()) == 401


def test_the_site_unfolds_the_cut_words_in_details():
    new = LONG.replace("Type3,", "Type3, Sorcerer,")
    _, new_side = render_html(opcodes(LONG, new))
    assert new_side.count('<details class="fold">') == 1
    assert "<summary>… 384 unchanged words</summary>" in new_side
    assert "Type399," in new_side  # inside the details, to unfold


def test_short_texts_are_not_cut():
    old, new = "Trample is a static ability.", "Trample is a keyword ability."
    assert fold_context(opcodes(old, new)) == opcodes(old, new)


texts = st.lists(st.sampled_from(["a", "b", "c", "d", "e", "f"]), min_size=0, max_size=120)


@given(texts, texts, st.integers(min_value=0, max_value=15))
def test_folding_loses_no_word(old_words, new_words, context):
    old, new = " ".join(old_words), " ".join(new_words)
    folded = fold_context(opcodes(old, new), context)
    assert "".join(op["old"] for op in folded) == old
    assert "".join(op["new"] for op in folded) == new
    for op in folded:
        if op["op"] == "equal":
            assert len(op["old"].split()) <= max(2 * context + 3, len(old_words))


@given(st.text(alphabet=st.sampled_from(list(" \t\n\u00a0\u2003\x1c ab’“”‘-.")), max_size=40))
def test_words_are_compared_one_for_one(text):
    """`compared` gives each word of `words` as opcodes compares it: stripped, quotes folded
    (str.split and the words' pattern agree on every kind of space)."""
    assert compared(text) == [word.strip() for word in words(fold_quotes(text))]
