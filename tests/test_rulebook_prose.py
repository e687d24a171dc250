"""Prose-rulebook helpers (ingest/prose.py) and the glyph context rules
(ingest/rulebook_glyphs.py): slugs, roman numerals, run-in titles, lost symbols, glyphs."""

from __future__ import annotations

import re

import pytest

from rulesdb.ingest.model import Rule
from rulesdb.ingest.prose import lost_symbol_warnings, roman_to_int, run_in, slugify
from rulesdb.ingest.rulebook_glyphs import normalize_glyphs

# --- shared helpers -----------------------------------------------------------------------

@pytest.mark.parametrize(("title", "slug"), [
    ("SECTION 3: TURN STRUCTURE", "section-3-turn-structure"),
    ("What's an Effect?", "whats-an-effect"),
    ("MAIN PHASE (AGAIN)", "main-phase-again"),
    ("First-Strike Damage Dealing", "first-strike-damage-dealing"),
    ("★/★", "x"),
    ("Café — Aura", "cafe-aura"),
])
def test_slugify(title: str, slug: str) -> None:
    assert slugify(title) == slug


@pytest.mark.parametrize(("numeral", "value"), [("I", 1), ("II", 2), ("IV", 4), ("IX", 9),
                                                ("XIV", 14)])
def test_roman_to_int(numeral: str, value: int) -> None:
    assert roman_to_int(numeral) == value


@pytest.mark.parametrize(("text", "expected"), [
    ("Banding: Banding is an ability.", ("Banding", "Banding:")),
    ("Fast Effects before Blocking: There can be", ("Fast Effects before Blocking",
                                                    "Fast Effects before Blocking:")),
    ("Name. A card's name appears.", ("Name", "Name.")),
    ("Removed from the Game. This is an area.", ("Removed from the Game",
                                                 "Removed from the Game.")),
    ("Remember that your creatures can attack only your opponent. You can't", None),
    ("T: Draw a card.", None),
    ("Timing systems serve two purposes: they dictate", None),
    ("For example, if a creature has protection from blue:", None),
    ("MagicTheGathering.com or call your local organizer", None),
])
def test_run_in(text: str, expected: tuple[str, str] | None) -> None:
    entry = run_in(text)
    assert (entry and (entry.title, entry.marker)) == expected
    if entry:
        assert text[entry.body_start - 1] == " " and text[entry.body_start] != " "


@pytest.mark.parametrize(("text", "offsets"), [
    ("All spells have a casting cost, even if it's . Look.", [44]),
    ("abilities that have  in the cost", [19]),
    ("if a card costs **1** , it's blue", [21]),
    ('start with "When [something] comes into play, . . ." This', []),
    ("A normal sentence. Another one, too.", []),
])
def test_lost_symbol_warnings(text: str, offsets: list[int]) -> None:
    found = [int(re.search(r"offset (\d+)", w).group(1)) for w in lost_symbol_warnings(text)]
    assert found == offsets


# --- glyphs: the context rules ------------------------------------------------------------

GLYPH_CASES = [
    ("(* for white, ♠ for blue, ♠ for green)", None,
     "({W} for white, {U} for blue, {G} for green)", ["{W}", "{U}", "{G}"]),
    ('The symbol "♣" means "tap this card."', None,
     'The symbol "{T}" means "tap this card."', ["{T}"]),
    ("One black mana. Tapping a Swamp makes ♣.", None,
     "One black mana. Tapping a Swamp makes {B}.", ["{B}"]),
    ("Forests make 🌲.", None, "Forests make {G}.", ["{G}"]),
    ("For example, if a land becomes a Swamp, you could tap it to make 🌿.", None,
     "For example, if a land becomes a Swamp, you could tap it to make {B}.", ["{B}"]),
    ('For example, ♠ means "one red mana," and 2 means two.', None,
     'For example, {R} means "one red mana," and 2 means two.', ["{R}"]),
    ("If a card has ♠ in its mana cost, for example, the card is red.", None,
     "If a card has {R} in its mana cost, for example, the card is red.", ["{R}"]),
    ("If an activation cost includes ♣, you can pay it only if it is untapped.", None,
     "If an activation cost includes {T}, you can pay it only if it is untapped.", ["{T}"]),
    ("With haste you can play abilities with **♣** in the cost.", None,
     "With haste you can play abilities with {T} in the cost.", ["{T}"]),
    ('A land changed into a Mountain has the ability "☞ : Add ☞ to your mana pool."', None,
     'A land changed into a Mountain has the ability "{T} : Add {R} to your mana pool."',
     ["{T}", "{R}"]),
    ("If it has \\otimes in its cost, you choose the value of X and pay.", None,
     "If it has {X} in its cost, you choose the value of X and pay.", ["{X}"]),
    ("A card with the mana cost $2\\text{ } \\spadesuit \\heartsuit$ is both black and red.",
     None, "A card with the mana cost {2}{B}{R} is both black and red.", ["{2}{B}{R}"]),
    ("For example, **2** in a cost means two mana.", None,
     "For example, {2} in a cost means two mana.", ["{2}"]),
    ('"**T**: Draw a card" means if you tap the permanent, you draw.', None,
     '"{T}: Draw a card" means if you tap the permanent, you draw.', ["{T}"]),
    ("You can't pay a ☿ cost if the card is tapped.", ("☿", "{T}"),
     "You can't pay a {T} cost if the card is tapped.", ["{T}"]),
    ("A cost that includes **☞** unless you controlled the creature. Assassin reads, "
     '"**☞**: Destroy."', None,
     'A cost that includes {T} unless you controlled the creature. Assassin reads, '
     '"{T}: Destroy."', ["{T}", "{T}"]),
    # Undecidable: the same shape ("G: …") is {T} on one card and {G} on another.
    ('Crossbow Infantry reads, "♣: Crossbow Infantry deals 1 damage."', None,
     'Crossbow Infantry reads, "♣: Crossbow Infantry deals 1 damage."', [None]),
    ('"2 ♣ ♣ : Draw a card" means if you pay 2 ♣ ♣, you draw.', None,
     '"2 ♣ ♣ : Draw a card" means if you pay 2 ♣ ♣, you draw.', [None] * 4),
    ('Attendants reads, "**C**: All damage is dealt to it."', None,
     'Attendants reads, "**C**: All damage is dealt to it."', [None]),
    # Conflicting meanings in one scope are not propagated.
    ("(♠ for blue, ♠ for green) and ♠ alone", None,
     "({U} for blue, {G} for green) and ♠ alone", ["{U}", "{G}", None]),
    # Emphasis asterisks and bold numbers outside mana talk are not glyphs.
    ('*italic* and *"a quote"* and **1** thing', None,
     '*italic* and *"a quote"* and **1** thing', []),
    ("★/★ creatures", None, "★/★ creatures", []),
]


@pytest.mark.parametrize(("text", "hint", "normalized", "symbols"), GLYPH_CASES)
def test_glyph_context_rules(text: str, hint: tuple[str, str] | None, normalized: str,
                             symbols: list[str | None]) -> None:
    out, glyphs = normalize_glyphs(text, hint)
    assert out == normalized
    assert [g.symbol for g in glyphs] == symbols
    for glyph in glyphs:
        shown = glyph.symbol or glyph.original
        assert out[glyph.start:glyph.start + len(shown)] == shown
        assert glyph.reason
    rule = Rule("x", None, "paragraph", out, glyphs=glyphs)
    assert rule.reconstruct() == text
