"""Comprehensive Rules text parser on a whole synthetic release: its parts, metadata and
glossary (ingest/cr_glossary.py: aliases of a heading, see-targets of a definition)."""

from __future__ import annotations

import pytest

from rulesdb.ingest.cr_glossary import parse_glossary, see_targets, split_aliases
from rulesdb.ingest.lossless import lossless_mismatch
from rulesdb.ingest.model import DocumentMeta, Example, GlossaryEntry

from cr_text_helpers import WHOLE, brief, parse_text


def test_whole_release_structure() -> None:
    doc = parse_text(WHOLE)
    assert doc.meta == DocumentMeta(
        kind="comprehensive_rules",
        title="Magic: The Gathering Comprehensive Rules",
        effective_date="2025-06-06",
        date_text="These rules are effective as of June 6, 2025.",
        covers=("100-100",),
    )
    assert [(p.name, p.text) for p in doc.parts] == [
        (
            "title",
            "Magic: The Gathering Comprehensive Rules\n\n"
            "These rules are effective as of June 6, 2025.",
        ),
        ("introduction", "Introduction\n\nThis document is the ultimate authority."),
        ("contents", "Contents\n\n1. Game Concepts\n100. General\n\nGlossary\n\nCredits"),
        ("glossary", "Glossary"),
        ("credits", "Credits\n\nGame Design: Someone"),
    ]
    assert brief(doc) == [
        ("chapter", "1", None, "1.", "Game Concepts", "Game Concepts", []),
        ("section", "100", "1", "100.", "General", "General", []),
        ("rule", "100.1", "100", "100.1.", "These rules apply.", None, []),
    ]
    control = WHOLE.index("Control, Controller")
    example = WHOLE.index("Example: You")
    assert doc.glossary[0] == GlossaryEntry(
        term="Control, Controller",
        definition="The controller of a spell.",
        heading="Control, Controller",
        aliases=("Control", "Controller"),
        examples=(Example("You control it.", "Example:", (example, example + 24)),),
        span=(control, example + 24),
    )
    assert [(g.term, g.aliases, g.obsolete, g.see) for g in doc.glossary[1:]] == [
        ("Active Player, Nonactive Player Order", (), False, ("Control",)),
        ("Bury", (), True, ("Destroy",)),
    ]
    assert doc.glossary[2].definition == "A term that meant destroy.\nSee Destroy."
    assert lossless_mismatch(doc) is None
    assert doc.warnings == ()


def test_fragment_with_title_lines() -> None:
    text = (
        "Magic: The Gathering Comprehensive Rules\n\nThese rules are current as of "
        "October 1, 2004.\n\n700. General\n\n700.1. A rule.\n"
    )
    doc = parse_text(text)
    assert doc.meta.effective_date == "2004-10-01"
    assert [p.name for p in doc.parts] == ["title"]
    assert lossless_mismatch(doc) is None


@pytest.mark.parametrize(
    ("heading", "aliases"),
    [
        ("Control, Controller", ("Control", "Controller")),
        ("Active Player, Nonactive Player Order", ()),
        ("Active Player, Nonactive Player Rule", ()),
        ("Life, Life Total", ("Life", "Life Total")),
        ("Base Power, Base Toughness", ("Base Power", "Base Toughness")),
        ("Phased In, Phased Out", ("Phased In", "Phased Out")),
        ("Banding, “Bands with Other”", ("Banding", "Bands with Other")),
        ('Partner, "Partner with [name]"', ("Partner", "Partner with [name]")),
        ("Respond, Response (Informal)", ("Respond", "Response")),
        (
            "Remove from the Game, Removed, Removed-from-the-Game Zone",
            ("Remove from the Game", "Removed", "Removed-from-the-Game Zone"),
        ),
        ("You, Your", ("You", "Your")),
        ("Trample", ()),
        ("Intervening “If” Clause", ()),
    ],
)
def test_split_aliases(heading: str, aliases: tuple[str, ...]) -> None:
    assert split_aliases(heading) == aliases


@pytest.mark.parametrize(
    ("definition", "terms", "see"),
    [
        ("A thing. See rule 702.19, “Trample.”", frozenset(), ()),
        ("Obsolete. See Exile.", frozenset(), ("Exile",)),
        ("X. See also Tap, Untap, and Untapped.", frozenset(), ("Tap", "Untap", "Untapped")),
        (
            "X. See also Dependency, Timestamp Order.",
            frozenset(),
            ("Dependency", "Timestamp Order"),
        ),
        (
            "X. See Active Player, Nonactive Player Order.",
            frozenset({"Active Player, Nonactive Player Order"}),
            ("Active Player, Nonactive Player Order",),
        ),
        ("See the Tournament Rules for more.", frozenset(), ()),
    ],
)
def test_see_targets(definition: str, terms: frozenset[str], see: tuple[str, ...]) -> None:
    assert see_targets(definition, terms) == see


def _glossary(text: str) -> tuple[list[tuple[str, str, bool]], list[str], list[tuple[int, int]]]:
    """(term, definition, obsolete) of each entry of a glossary body, the warnings, spans."""
    lines, offset = [], 0
    for line in text.split("\n"):
        lines.append((offset, line))
        offset += len(line) + 1
    warnings: list[str] = []
    entries = parse_glossary(lines, warnings)
    return ([(e.term, e.definition, e.obsolete) for e in entries], warnings,
            [e.span for e in entries])


@pytest.mark.parametrize(
    ("body", "entries"),
    [
        # paragraph marks lost (the 2003-06-01 .rtf): entries run into each other
        ("Fading\nFading is a keyword ability. See rule 502.20.FlankingFlanking is a "
         "triggered ability.",
         [("Fading", "Fading is a keyword ability. See rule 502.20.", False),
          ("Flanking", "Flanking is a triggered ability.", False)]),
        ("Fear\nFear is an evasion ability.\nFirst StrikeFirst strike is a static ability.",
         [("Fear", "Fear is an evasion ability.", False),
          ("First Strike", "First strike is a static ability.", False)]),
        ("Haste\nA creature can attack.LIFOAn acronym for “Last In, First Out.”",
         [("Haste", "A creature can attack.", False),
          ("LIFO", "An acronym for “Last In, First Out.”", False)]),
        ("Fizzle\nSee rule 413.2, “Fizzling.”Fast Effect (Obsolete)In earlier versions, "
         "instants were fast.",
         [("Fizzle", "See rule 413.2, “Fizzling.”", False),
          ("Fast Effect", "In earlier versions, instants were fast.", True)]),
        ("Land\nA card type.Landwalk“Landwalk” is a generic term.",
         [("Land", "A card type.", False),
          ("Landwalk", "“Landwalk” is a generic term.", False)]),
        ("Forestcycling\nSee Landcycling.Forestwalk\nSee Landwalk.",
         [("Forestcycling", "See Landcycling.", False), ("Forestwalk", "See Landwalk.", False)]),
        ('Modal, Mode\nIt reads "Choose one—." Mono Artifact (Obsolete)Earlier versions had it.',
         [("Modal, Mode", 'It reads "Choose one—."', False),
          ("Mono Artifact", "Earlier versions had it.", True)]),
        # as printed: no mark lost, nothing to set apart
        ("Tournament\nAn event. See the Tournament Locator on the MagicTheGathering.com "
         "Tournament Center page.",
         [("Tournament", "An event. See the Tournament Locator on the MagicTheGathering.com "
           "Tournament Center page.", False)]),
        ("Oracle\nFound at <Gatherer.Wizards.com>. See rule 108.1.",
         [("Oracle", "Found at <Gatherer.Wizards.com>. See rule 108.1.", False)]),
        ('Activated Ability\nWritten as "[Cost]: [Effect.]" By paying the cost, play it.',
         [("Activated Ability", 'Written as "[Cost]: [Effect.]" By paying the cost, play it.',
           False)]),
    ],
)
def test_entries_run_together_are_set_apart(body: str, entries: list) -> None:
    found, warnings, spans = _glossary(body)
    assert found == entries
    assert bool(warnings) == (len(entries) > 1)
    for (term, _, _), (start, _) in zip(found, spans, strict=True):
        assert body[start:].startswith(term)


AURA = ("Some enchantments have the subtype “Aura.” An Aura spell requires a target, which "
        "is defined by its enchant ability.")
AURA_ENTRY = ("Aura", AURA, False)
ATTACH = ("Attach", "To move an Aura onto another object.", False)


@pytest.mark.parametrize(
    ("body", "entries", "said"),
    [
        # a PDF whose page turn fell between a heading and its definition: the heading
        # ended the entry before, or stood alone; its definition is not a heading
        (f"Attach\nTo move an Aura onto another object.\nAura\n\n{AURA}",
         [ATTACH, AURA_ENTRY], "glossary heading 'Aura' ends the entry before its definition"),
        (f"Attach\nTo move an Aura onto another object.\n\nAura\n\n{AURA}",
         [ATTACH, AURA_ENTRY], "glossary heading 'Aura' stands apart from its definition"),
        # a paragraph set apart from its entry: kept in it, not stored as a heading
        (f"Aura\nSome enchantments are Auras.\n\n{AURA}",
         [("Aura", f"Some enchantments are Auras.\n{AURA}", False)],
         "glossary paragraph with no heading kept in the entry 'Aura'"),
        # as printed: a short last line of a definition is no heading
        ("Attach\nTo move an Aura onto another object. See\nrule 701.3.\n\nAura\n"
         f"{AURA}",
         [("Attach", "To move an Aura onto another object. See\nrule 701.3.", False),
          AURA_ENTRY], None),
    ],
)
def test_a_heading_set_apart_from_its_definition_is_set_back(body, entries, said) -> None:
    found, warnings, _ = _glossary(body)
    assert found == entries
    assert [w.rsplit(" (offset", 1)[0] for w in warnings] == ([said] if said else [])
    # no term reads as a sentence: the 2005 PDF stored Aura's definition as a heading
    assert all(not term.endswith(".") for term, _, _ in found)
