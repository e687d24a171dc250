"""Tests of the prose-rulebook parsers (ingest/rulebook_print.py, ingest/rulebook_web.py,
ingest/rulebook_glossary.py, ingest/rulebook_glyphs.py, ingest/prose.py)."""

from __future__ import annotations

import re
from collections import Counter
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesdb.ingest import rulebook_print, rulebook_web
from rulesdb.ingest.lossless import lossless_mismatch
from rulesdb.ingest.model import DocumentMeta, GlossaryEntry, Glyph, ParseError, Residue, Rule
from rulesdb.ingest.prose import lost_symbol_warnings, roman_to_int, run_in, slugify
from rulesdb.ingest.rulebook_glossary import see_targets
from rulesdb.ingest.rulebook_glyphs import normalize_glyphs

from conftest import SOURCE_FILES

LABEL = re.compile(r"[a-z0-9.-]+")
NAV_TOP = "[ Previous Page ] | [ Next Page]"
NAV_BOTTOM = "[ Previous Page ] | [ Next Page ]"
COST_TAP = "a cost symbol in a passage about tapping or summoning sickness"
COLOR_AFTER = "the color is named right after the symbol"


def brief(doc) -> list[tuple]:
    """(kind, number, parent, marker, text, title) per rule."""
    return [(r.kind, r.number, r.parent, r.marker, r.text, r.title) for r in doc.rules]


def web_doc(body: str) -> bytes:
    """A 1995-style page around `body`."""
    return (f"{NAV_TOP}\n\nSection II: Expanding Your Knowledge\n\n{body}\n\n{NAV_BOTTOM}\n"
            ).encode()


def print_doc(body: str) -> bytes:
    """A 2005-style book around `body`."""
    return f"\n\nMAGIC\n\nRULEBOOK\n\n{body}\n\nCREDITS\n\nEditing: Del Laugel\n".encode()


S2 = "s2-expanding-your-knowledge"
SECTION_II = ("section", S2, None, "Section II:", "Expanding Your Knowledge",
              "Expanding Your Knowledge")


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


# --- 1995: synthetic pages ----------------------------------------------------------------

WEB_CASES = [
    pytest.param(
        "Color\nEvery card has a color.\n\nEXAMPLE",
        [SECTION_II,
         ("heading", f"{S2}.color", S2, "", "Color", "Color"),
         ("paragraph", f"{S2}.color.p1", f"{S2}.color", "", "Every card has a color.", None),
         ("lost_example", f"{S2}.color.ex1", f"{S2}.color", "EXAMPLE", "", None)],
        id="heading-paragraph-lost-example",
    ),
    pytest.param(
        "Advanced Creature Abilities\nBanding: Banding is an ability.\n\nA band attacks."
        "\n\nRampage: Creatures grow.\n\nTokens\nA token.",
        [SECTION_II,
         ("heading", f"{S2}.advanced-creature-abilities", S2, "",
          "Advanced Creature Abilities", "Advanced Creature Abilities"),
         ("keyword", f"{S2}.advanced-creature-abilities.banding",
          f"{S2}.advanced-creature-abilities", "Banding:", "Banding is an ability.", "Banding"),
         ("paragraph", f"{S2}.advanced-creature-abilities.banding.p1",
          f"{S2}.advanced-creature-abilities.banding", "", "A band attacks.", None),
         ("keyword", f"{S2}.advanced-creature-abilities.rampage",
          f"{S2}.advanced-creature-abilities", "Rampage:", "Creatures grow.", "Rampage"),
         ("heading", f"{S2}.tokens", S2, "", "Tokens", "Tokens"),
         ("paragraph", f"{S2}.tokens.p1", f"{S2}.tokens", "", "A token.", None)],
        id="keywords-own-following-paragraphs-until-next-keyword-or-heading",
    ),
    pytest.param(
        "Phase Structure\nThe stages:\n\n  1. First.\n  2. Second.\n\n  • third;\n\nAfter.",
        [SECTION_II,
         ("heading", f"{S2}.phase-structure", S2, "", "Phase Structure", "Phase Structure"),
         ("paragraph", f"{S2}.phase-structure.p1", f"{S2}.phase-structure", "", "The stages:",
          None),
         ("list_item", f"{S2}.phase-structure.i1", f"{S2}.phase-structure", "1.", "First.",
          None),
         ("list_item", f"{S2}.phase-structure.i2", f"{S2}.phase-structure", "2.", "Second.",
          None),
         ("list_item", f"{S2}.phase-structure.i3", f"{S2}.phase-structure", "•", "third;",
          None),
         ("paragraph", f"{S2}.phase-structure.p2", f"{S2}.phase-structure", "", "After.",
          None)],
        id="lists-numbered-per-parent",
    ),
    pytest.param(
        "Timing\nTiming systems serve two purposes: they dictate things.\n\n"
        "For example, if blue: nothing happens.",
        [SECTION_II,
         ("heading", f"{S2}.timing", S2, "", "Timing", "Timing"),
         ("paragraph", f"{S2}.timing.p1", f"{S2}.timing", "",
          "Timing systems serve two purposes: they dictate things.", None),
         ("paragraph", f"{S2}.timing.p2", f"{S2}.timing", "",
          "For example, if blue: nothing happens.", None)],
        id="colon-sentences-are-not-keywords",
    ),
    pytest.param(
        "Tokens\nA.\n\nTokens\nB.",
        [SECTION_II,
         ("heading", f"{S2}.tokens", S2, "", "Tokens", "Tokens"),
         ("paragraph", f"{S2}.tokens.p1", f"{S2}.tokens", "", "A.", None),
         ("heading", f"{S2}.tokens-2", S2, "", "Tokens", "Tokens"),
         ("paragraph", f"{S2}.tokens-2.p1", f"{S2}.tokens-2", "", "B.", None)],
        id="duplicate-slug-gets-suffix",
    ),
    pytest.param(
        "Step by Step\nDeclare Attackers: A creature attacks.\n\nEXAMPLE",
        [SECTION_II,
         ("heading", f"{S2}.step-by-step", S2, "", "Step by Step", "Step by Step"),
         ("keyword", f"{S2}.step-by-step.declare-attackers", f"{S2}.step-by-step",
          "Declare Attackers:", "A creature attacks.", "Declare Attackers"),
         ("lost_example", f"{S2}.step-by-step.declare-attackers.ex1",
          f"{S2}.step-by-step.declare-attackers", "EXAMPLE", "", None)],
        id="heading-line-right-above-a-keyword",
    ),
]


@pytest.mark.parametrize(("body", "expected"), WEB_CASES)
def test_web_constructs(body: str, expected: list[tuple]) -> None:
    doc = rulebook_web.parse(web_doc(body))
    assert brief(doc) == expected
    assert [r.reason for r in doc.residue] == ["web page navigation links"] * 2
    assert lossless_mismatch(doc) is None


def test_web_heading_without_paragraph_is_warned() -> None:
    doc = rulebook_web.parse(web_doc("Color\n\nEvery card has a color."))
    assert brief(doc)[1] == ("heading", f"{S2}.color", S2, "", "Color", "Color")
    assert doc.warnings == ("heading 'Color' has no paragraph on the next line",)


# --- 2005: synthetic books ----------------------------------------------------------------

S1 = "s1-the-basics"
SECTION_1 = ("section", S1, None, "SECTION 1:", "THE BASICS", "THE BASICS")

PRINT_CASES = [
    pytest.param(
        "SECTION 1: THE BASICS\n\nMATERIALS\n\nYou need a deck.",
        [SECTION_1,
         ("heading", f"{S1}.materials", S1, "", "MATERIALS", "MATERIALS"),
         ("paragraph", f"{S1}.materials.p1", f"{S1}.materials", "", "You need a deck.", None)],
        id="caps-heading",
    ),
    pytest.param(
        "SECTION 1: THE BASICS\n\nEach turn has phases.\n\n1. BEGINNING PHASE\n\n"
        "a. Untap step\n\nUntap all.\n\n2. MAIN PHASE\n\nPlay.",
        [SECTION_1,
         ("paragraph", f"{S1}.p1", S1, "", "Each turn has phases.", None),
         ("heading", f"{S1}.beginning-phase", S1, "1.", "BEGINNING PHASE", "BEGINNING PHASE"),
         ("heading", f"{S1}.beginning-phase.untap-step", f"{S1}.beginning-phase", "a.",
          "Untap step", "Untap step"),
         ("paragraph", f"{S1}.beginning-phase.untap-step.p1",
          f"{S1}.beginning-phase.untap-step", "", "Untap all.", None),
         ("heading", f"{S1}.main-phase", S1, "2.", "MAIN PHASE", "MAIN PHASE"),
         ("paragraph", f"{S1}.main-phase.p1", f"{S1}.main-phase", "", "Play.", None)],
        id="numbered-and-lettered-headings",
    ),
    pytest.param(
        "SECTION 1: THE BASICS\n\nCARD TYPES\n\nArtifact\n\nArtifacts are colorless.\n\n"
        "Single-elimination structure\n\nFORMATS\n\nFormats vary.",
        [SECTION_1,
         ("heading", f"{S1}.card-types", S1, "", "CARD TYPES", "CARD TYPES"),
         ("heading", f"{S1}.card-types.artifact", f"{S1}.card-types", "", "Artifact",
          "Artifact"),
         ("paragraph", f"{S1}.card-types.artifact.p1", f"{S1}.card-types.artifact", "",
          "Artifacts are colorless.", None),
         ("paragraph", f"{S1}.card-types.artifact.p2", f"{S1}.card-types.artifact", "",
          "Single-elimination structure", None),
         ("heading", f"{S1}.formats", S1, "", "FORMATS", "FORMATS"),
         ("paragraph", f"{S1}.formats.p1", f"{S1}.formats", "", "Formats vary.", None)],
        id="subheading-needs-a-paragraph-after-it",
    ),
    pytest.param(
        "SECTION 1: THE BASICS\n\nABILITIES\n\nActivated ability. You pay its cost.\n\n"
        "Creature — Human Wizard\n\nStatic ability. It is on.\n\nSTART\n\n"
        "Shuffle your deck. Then draw.",
        [SECTION_1,
         ("heading", f"{S1}.abilities", S1, "", "ABILITIES", "ABILITIES"),
         ("keyword", f"{S1}.abilities.activated-ability", f"{S1}.abilities",
          "Activated ability.", "You pay its cost.", "Activated ability"),
         ("paragraph", f"{S1}.abilities.activated-ability.p1",
          f"{S1}.abilities.activated-ability", "", "Creature — Human Wizard", None),
         ("keyword", f"{S1}.abilities.static-ability", f"{S1}.abilities",
          "Static ability.", "It is on.", "Static ability"),
         ("heading", f"{S1}.start", S1, "", "START", "START"),
         ("paragraph", f"{S1}.start.p1", f"{S1}.start", "", "Shuffle your deck. Then draw.",
          None)],
        id="sentence-case-run-ins-need-a-sibling",
    ),
    pytest.param(
        "SECTION 1: THE BASICS\n\nPARTS\n\nMana Cost. Each symbol counts.",
        [SECTION_1,
         ("heading", f"{S1}.parts", S1, "", "PARTS", "PARTS"),
         ("keyword", f"{S1}.parts.mana-cost", f"{S1}.parts", "Mana Cost.", "Each symbol counts.",
          "Mana Cost")],
        id="title-case-run-in-alone",
    ),
    pytest.param(
        "SECTION 1: THE BASICS\n\nSTEPS\n\nDo this:\n\n1. Tell.\n2. Pay.\n\n- a;\n- b.",
        [SECTION_1,
         ("heading", f"{S1}.steps", S1, "", "STEPS", "STEPS"),
         ("paragraph", f"{S1}.steps.p1", f"{S1}.steps", "", "Do this:", None),
         ("list_item", f"{S1}.steps.i1", f"{S1}.steps", "1.", "Tell.", None),
         ("list_item", f"{S1}.steps.i2", f"{S1}.steps", "2.", "Pay.", None),
         ("list_item", f"{S1}.steps.i3", f"{S1}.steps", "-", "a;", None),
         ("list_item", f"{S1}.steps.i4", f"{S1}.steps", "-", "b.", None)],
        id="lists",
    ),
]


@pytest.mark.parametrize(("body", "expected"), PRINT_CASES)
def test_print_constructs(body: str, expected: list[tuple]) -> None:
    doc = rulebook_print.parse(print_doc(body))
    assert brief(doc) == expected
    assert [p.name for p in doc.parts] == ["cover", "credits"]
    assert lossless_mismatch(doc) is None


GLOSSARY_CASES = [
    pytest.param(
        "Attack\n\nHow creatures deal damage.\n\nOnly untapped ones.\nSee also Block, Combat.",
        [("Attack", "How creatures deal damage.\nOnly untapped ones.\nSee also Block, Combat.",
          "Attack", (), ("Block", "Combat"))],
        id="see-also-line-in-the-same-paragraph",
    ),
    pytest.param(
        "Blocker\n\nSee Blocking creature.\n\nLife, life total\n\nYou have 20.",
        [("Blocker", "See Blocking creature.", "Blocker", (), ("Blocking creature",)),
         ("Life, life total", "You have 20.", "Life, life total", ("Life", "life total"), ())],
        id="see-and-aliases",
    ),
    pytest.param(
        "Control\n\nYou control it.\n\nSee also Controller. *Compare* Owner.\n\n"
        "1, 2, 3, and so on\n\nCosts.",
        [("Control", "You control it.\nSee also Controller. *Compare* Owner.", "Control", (),
          ("Controller", "Owner")),
         ("1, 2, 3, and so on", "Costs.", "1, 2, 3, and so on", ("1", "2", "3"), ())],
        id="compare-and-and-so-on",
    ),
    pytest.param(
        "♣ Black mana\n\nOne black mana. Tapping a Swamp makes ♣.\n\n☿ Tap\n\nPay a ☿ cost.",
        [("{B} Black mana", "One black mana. Tapping a Swamp makes {B}.", "♣ Black mana",
          ("{B}", "Black mana"), ()),
         ("{T} Tap", "Pay a {T} cost.", "☿ Tap", ("{T}", "Tap"), ())],
        id="symbol-headings",
    ),
]


@pytest.mark.parametrize(("body", "expected"), GLOSSARY_CASES)
def test_glossary_constructs(body: str, expected: list[tuple]) -> None:
    doc = rulebook_print.parse(print_doc(f"SECTION 7: GLOSSARY\n\n{body}"))
    assert [(g.term, g.definition, g.heading, g.aliases, g.see) for g in doc.glossary] \
        == expected
    assert brief(doc) == [("section", "s7-glossary", None, "SECTION 7:", "GLOSSARY",
                           "GLOSSARY")]
    assert lossless_mismatch(doc) is None


@pytest.mark.parametrize(("definition", "targets"), [
    ("See Rarity.", ("Rarity",)),
    ("Text.\nSee also Stack. Compare Permanent.", ("Stack", "Permanent")),
    ("See also Aura, Equipment, Legendary", ("Aura", "Equipment", "Legendary")),
    ("Look it up. See *Section 3* for details.", ()),
])
def test_see_targets(definition: str, targets: tuple[str, ...]) -> None:
    assert see_targets(definition) == targets


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


# --- bad input ----------------------------------------------------------------------------

@pytest.mark.parametrize("parser", [rulebook_print.parse, rulebook_web.parse])
@pytest.mark.parametrize("data", [b"", b"   \n", b"\x00\x01\x02binary\x00"])
def test_empty_or_binary_input(parser, data: bytes) -> None:
    with pytest.raises(ParseError):
        parser(data)


@pytest.mark.parametrize(("parser", "other"), [
    (rulebook_print.parse, "rulebook-1995"),
    (rulebook_print.parse, "cr-2025-06-06"),
    (rulebook_web.parse, "rulebook-2005"),
    (rulebook_web.parse, "rulings-1999-04"),
])
def test_wrong_format(parser, other: str, source_bytes: dict[str, bytes]) -> None:
    with pytest.raises(ParseError):
        parser(source_bytes[other])


def test_print_truncated_before_credits(source_bytes: dict[str, bytes]) -> None:
    data = source_bytes["rulebook-2005"]
    with pytest.raises(ParseError, match="truncated"):
        rulebook_print.parse(data[: data.index(b"\nCREDITS")])


def test_print_glossary_entry_without_definition() -> None:
    with pytest.raises(ParseError, match="no definition"):
        rulebook_print.parse(print_doc("SECTION 7: GLOSSARY\n\nAttack\n\nHow.\n\nBlock"))


def test_web_truncated(source_bytes: dict[str, bytes]) -> None:
    data = source_bytes["rulebook-1995"]
    with pytest.raises(ParseError, match="truncated"):
        rulebook_web.parse(data[: data.index(b"Nothing can be done")])
    cut = data[: data.index(b"in which case he loses")] + b"\n\n" + NAV_BOTTOM.encode()
    with pytest.raises(ParseError, match="mid-sentence"):
        rulebook_web.parse(cut)


# --- property: any page built from the constructs parses losslessly into a valid tree -----

_word = st.sampled_from(["mana", "creature", "spell", "blue", "turn", "phase", "combat"])
_sentence = st.lists(_word, min_size=2, max_size=8).map(lambda w: " ".join(w).capitalize()
                                                         + ".")
_title = st.lists(_word, min_size=1, max_size=3).map(lambda w: " ".join(x.capitalize()
                                                                       for x in w))
_block = st.one_of(
    _sentence,
    st.just("EXAMPLE"),
    st.tuples(_title, _sentence).map(lambda p: f"{p[0]}: {p[1]}"),
    st.lists(_sentence, min_size=1, max_size=3).map(
        lambda items: "\n".join(f"  • {s}" for s in items)),
)
_chapter = st.tuples(_title, _sentence, st.lists(_block, max_size=5)).map(
    lambda c: "\n\n".join([f"{c[0]}\n{c[1]}", *c[2]]))


@settings(max_examples=60, deadline=None)
@given(st.lists(_chapter, min_size=1, max_size=5))
def test_web_tree_invariants(chapters: list[str]) -> None:
    doc = rulebook_web.parse(web_doc("\n\n".join(chapters)))
    assert lossless_mismatch(doc) is None
    check_tree(doc)


def check_tree(doc) -> None:
    """Spans ordered and disjoint; labels unique, URL-safe, extending their parent's."""
    spans = [item.span for item in doc.items()]
    assert all(a[1] <= b[0] for a, b in pairwise(spans))
    labels = [r.number for r in doc.rules]
    assert len(labels) == len(set(labels))
    known = set()
    for rule in doc.rules:
        assert LABEL.fullmatch(rule.number)
        assert rule.parent is None or rule.parent in known
        assert rule.parent is None or rule.number.startswith(rule.parent + ".")
        known.add(rule.number)


# --- the real documents -------------------------------------------------------------------

@pytest.fixture(scope="module")
def doc95():
    return rulebook_web.parse(SOURCE_FILES["rulebook-1995"].read_bytes())


@pytest.fixture(scope="module")
def doc05():
    return rulebook_print.parse(SOURCE_FILES["rulebook-2005"].read_bytes())


def test_1995_meta_and_counts(doc95) -> None:
    assert doc95.meta == DocumentMeta(kind="rulebook",
                                      title="Section II: Expanding Your Knowledge",
                                      covers=("section-II",))
    assert Counter(r.kind for r in doc95.rules) == {
        "section": 1, "heading": 27, "keyword": 15, "paragraph": 90, "list_item": 8,
        "lost_example": 25}
    assert doc95.glossary == () and doc95.parts == ()
    assert doc95.warnings == (
        "a symbol seems lost at offset 11261: \"e a casting cost, even if it's . Look in the "
        "upper\"",)
    assert [(r.text, r.reason) for r in doc95.residue] == [
        (NAV_TOP, "web page navigation links"), (NAV_BOTTOM, "web page navigation links")]


def test_1995_counts_agree_with_plain_line_counts(doc95) -> None:
    """The same counts found by simple line patterns, independently of the parser."""
    lines = doc95.text.split("\n")
    count = Counter(r.kind for r in doc95.rules)
    assert count["lost_example"] == sum(line == "EXAMPLE" for line in lines)
    assert count["list_item"] == sum(bool(re.match(r"\s+(•|\d+\.) ", ln)) for ln in lines)
    assert count["keyword"] == sum(bool(re.match(r"[A-Z][A-Za-z -]+: [A-Z]", ln))
                                   for ln in lines if not ln.startswith("Section "))
    # A heading is a line with text right below it, other than a list line.
    assert count["heading"] == sum(bool(a.strip() and b.strip() and not a.startswith(" "))
                                   for a, b in pairwise(lines))


def test_1995_golden_items(doc95) -> None:
    text = doc95.text
    by_label = {r.number: r for r in doc95.rules}
    heading = f"{S2}.advanced-creature-abilities"
    start = text.index("Banding: Banding is")
    banding_text = ("Banding is an ability with two distinct features. The first allows you to "
                    "group creatures so that they can attack your opponent with their combined "
                    "power. The second gives you control over the distribution of combat "
                    "damage.")
    assert by_label[f"{heading}.banding"] == Rule(
        number=f"{heading}.banding", parent=heading, kind="keyword", text=banding_text,
        marker="Banding:", title="Banding", span=(start, start + len("Banding: ") +
                                                  len(banding_text)))
    item = 'Check all players for mana burn (see "Mana Burn").'
    start = text.index("4. " + item)
    assert by_label[f"{S2}.phase-structure.i4"] == Rule(
        number=f"{S2}.phase-structure.i4", parent=f"{S2}.phase-structure", kind="list_item",
        text=item, marker="4.", span=(start, start + 3 + len(item)))
    start = text.index("\nEXAMPLE\n") + 1
    assert by_label[f"{S2}.color.ex1"] == Rule(
        number=f"{S2}.color.ex1", parent=f"{S2}.color", kind="lost_example", text="",
        marker="EXAMPLE", span=(start, start + 7))
    assert [r.number for r in doc95.rules if r.parent == f"{heading}.banding"] == [
        f"{heading}.banding.p1", f"{heading}.banding.ex1", f"{heading}.banding.p2",
        f"{heading}.banding.p3", f"{heading}.banding.p4", f"{heading}.banding.ex2"]


def test_2005_meta_and_counts(doc05) -> None:
    assert doc05.meta == DocumentMeta(kind="rulebook", title="MAGIC The Gathering® RULEBOOK",
                                      effective_date="2005", date_text="©2005",
                                      covers=("section-1", "section-7"))
    assert Counter(r.kind for r in doc05.rules) == {
        "section": 7, "heading": 58, "keyword": 24, "paragraph": 132, "list_item": 23}
    assert len(doc05.glossary) == 189
    assert [p.name for p in doc05.parts] == ["cover", "introduction", "contents",
                                             "learning to play", "credits", "questions",
                                             "back cover"]
    assert doc05.residue == ()
    assert len(doc05.warnings) == 14
    assert sum(w.startswith("a symbol seems lost") for w in doc05.warnings) == 12


def test_2005_counts_agree_with_plain_line_counts(doc05) -> None:
    text = doc05.text
    rules_part = text[text.index("SECTION 1:"):text.index("SECTION 7:")]
    lines = [ln for ln in rules_part.split("\n") if ln.strip()]
    count = Counter(r.kind for r in doc05.rules)
    assert count["section"] == len(re.findall(r"^SECTION \d+: ", text, re.M))
    assert count["list_item"] == sum(bool(re.match(r"(- |\d\. [A-Z][a-z])", ln))
                                     for ln in lines)
    glossary_part = text[text.index("SECTION 7:"):text.index("\nCREDITS")]
    blocks = [b.strip() for b in re.split(r"\n\s*\n", glossary_part)[1:] if b.strip()]
    headings = [b for b in blocks if "\n" not in b and len(b.split()) <= 6
                and not re.search(r"[.:;,!?)\"]$", b) and not b.startswith(("See", "Compare"))]
    assert len(doc05.glossary) == len(headings)
    assert [g.heading for g in doc05.glossary] == headings


def test_2005_golden_glossary_entries(doc05) -> None:
    by_term = {g.term: g for g in doc05.glossary}
    text = doc05.text
    definition = (
        'The stuff before the colon (":") in an activated ability. If an activation cost '
        "includes {T}, you can pay it only if the permanent with the ability is untapped. That "
        "means you can usually pay it only once each turn. If the activation cost doesn't "
        "include {T}, you can pay it as many times as you want. You'll get the ability each "
        "time.\nSee also Activated ability, Tap.")
    start = text.index("\nActivation cost\n") + 1
    end = text.index("See also Activated ability, Tap.", start) + len(
        "See also Activated ability, Tap.")
    first = definition.index("{T}")
    assert by_term["Activation cost"] == GlossaryEntry(
        term="Activation cost", definition=definition, heading="Activation cost",
        see=("Activated ability", "Tap"),
        glyphs=(Glyph("♣", "{T}", first, COST_TAP),
                Glyph("♣", "{T}", definition.index("{T}", first + 1), COST_TAP)),
        span=(start, end))
    start = text.index("\nAttacker\n") + 1
    assert by_term["Attacker"] == GlossaryEntry(
        term="Attacker", definition="See Attacking creature.", heading="Attacker",
        see=("Attacking creature",), span=(start, text.index("creature.", start) + 9))
    assert by_term["Control"].see == ("Controller", "Owner")
    assert by_term["{T} Tap"].definition.count("{T}") == 2
    assert by_term["Multicolored card"].definition.startswith(
        "A card with more than one color of mana in its mana cost. For example, a card with "
        "the mana cost {2}{B}{R} is both black and red.")


def test_2005_golden_glyph_paragraph(doc05) -> None:
    label = "s1-the-basics.key-terms-and-symbols.mana.p2"
    rule = next(r for r in doc05.rules if r.number == label)
    printed = ("Each mana can either be one of the five **Magic** colors or colorless. When a "
               "cost requires colored mana, you'll see colored mana symbols (* for white, ♠ "
               "for blue, ♣ for black, ♡ for red, ♠ for green). When any kind of mana can be "
               "used to pay the cost, you'll see a symbol with a number in it (like 2).")
    text = printed
    for glyph, symbol in [("* for", "{W} for"), ("♠ for blue", "{U} for blue"),
                          ("♣", "{B}"), ("♡", "{R}"), ("♠ for green", "{G} for green")]:
        text = text.replace(glyph, symbol, 1)
    start = doc05.text.index(printed)
    assert rule == Rule(
        number=label, parent="s1-the-basics.key-terms-and-symbols.mana", kind="paragraph",
        text=text,
        glyphs=tuple(Glyph(o, s, text.index(s + " for"), COLOR_AFTER) for o, s in [
            ("*", "{W}"), ("♠", "{U}"), ("♣", "{B}"), ("♡", "{R}"), ("♠", "{G}")]),
        span=(start, start + len(printed)))
    assert rule.reconstruct() == printed


def test_2005_glyph_totals(doc05) -> None:
    glyphs = [g for item in (*doc05.rules, *doc05.glossary) for g in item.glyphs]
    assert sum(g.symbol is not None for g in glyphs) == 45
    undecided = Counter(g.original for g in glyphs if g.symbol is None)
    assert undecided == {"♣": 7, "☞": 1, "☉": 1, "☿": 1, "♠": 1, "☠": 1, "**C**": 1}
    # No mangled glyph is left in any text without a record.
    records = Counter(g.original for g in glyphs if g.symbol is None)
    left = Counter(ch for item in (*doc05.rules, *doc05.glossary)
                   for ch in getattr(item, "text", getattr(item, "definition", ""))
                   if ch in "♣♠☞☿☉♡☀🌊🏔🌲🌿☠")
    assert left == {k: v for k, v in records.items() if len(k) == 1}


@pytest.mark.parametrize("doc_id", ["rulebook-1995", "rulebook-2005"])
def test_real_documents_tree_and_lossless(doc_id: str, doc95, doc05) -> None:
    doc = doc95 if doc_id == "rulebook-1995" else doc05
    assert lossless_mismatch(doc) is None
    check_tree(doc)
    assert all(isinstance(r, Residue) for r in doc.residue)


def test_labels_stable_when_other_headings_change(source_bytes: dict[str, bytes]) -> None:
    data = source_bytes["rulebook-1995"].decode()
    edited = data.replace("Color\nEvery card in Magic", "Color\nNew text.\n\nEvery card in Magic")
    before = {r.number for r in rulebook_web.parse(data.encode()).rules}
    after = {r.number for r in rulebook_web.parse(edited.encode()).rules}
    assert after - before == {f"{S2}.color.p2"}
    assert before <= after


