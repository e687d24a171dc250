"""Prose-rulebook parsers on synthetic input: each construct of the 1995 web pages
(ingest/rulebook_web.py), the 2005 printed book and its glossary (ingest/rulebook_print.py,
ingest/rulebook_glossary.py), and a property test of the tree any generated page gives."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesdb.ingest import rulebook_print, rulebook_web
from rulesdb.ingest.lossless import lossless_mismatch
from rulesdb.ingest.rulebook_glossary import see_targets

from rulebook_helpers import S2, SECTION_II, check_tree, print_doc, web_doc


def brief(doc) -> list[tuple]:
    """(kind, number, parent, marker, text, title) per rule."""
    return [(r.kind, r.number, r.parent, r.marker, r.text, r.title) for r in doc.rules]


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
