"""rulesdb.commands.wrapped fills text as textwrap.fill does (the lookups print through it
without importing textwrap): the same lines for any text, width and indent."""

from __future__ import annotations

import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesdb.commands.wrapped import fill

# the characters textwrap's word-cutting pattern reads differently: letters, digits, the
# underscore, its word punctuation, hyphens, spaces of every kind, dashes and quotes
ALPHABET = list("ab_Z9é'\".,!?&;:()-- -\u00a0\u2003\u2014’“\t\n")


@settings(max_examples=600)
@given(st.text(alphabet=st.sampled_from(ALPHABET), max_size=60),
       st.integers(min_value=1, max_value=24), st.sampled_from(["", "  ", "      "]))
def test_fills_as_textwrap(text, room, indent):
    """Any text, at any width that leaves room after the indent (textwrap itself loops
    forever on a text that starts with a space when the indent takes the whole width)."""
    width = len(indent) + room
    assert fill(text, width, indent) == textwrap.fill(
        text, width, initial_indent=indent, subsequent_indent=indent)


@pytest.mark.parametrize("text", [
    "A State-Based action: 704.5f, trample--and first-strike damage (self-reference)",
    "well-known x-ray re-re-enter a-b-c ab-cd abc--def ab--1 --ab ab-- a---b 9-ab ab-9b",
    "Whenever a creature with trample deals combat damage to a player or planeswalker, "
    "that player's controller \u2014 not its owner \u2014 chooses.",
])
@pytest.mark.parametrize("width", [5, 8, 13, 21, 40, 100])
def test_fills_rules_text_as_textwrap(text, width):
    for indent in ("", "  "):
        assert fill(text, width, indent) == textwrap.fill(
            text, width, initial_indent=indent, subsequent_indent=indent)
