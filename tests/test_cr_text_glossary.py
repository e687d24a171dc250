"""Comprehensive Rules text parser on a whole synthetic release: its parts, metadata and
glossary (ingest/cr_glossary.py: aliases of a heading, see-targets of a definition)."""

from __future__ import annotations

import pytest

from rulesdb.ingest.cr_glossary import see_targets, split_aliases
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
