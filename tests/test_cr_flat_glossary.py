"""Flattened Comprehensive Rules parser on synthetic documents: each glossary construct
(ingest/cr_flat_glossary.py), and the parts and metadata of a document."""

from __future__ import annotations

import pytest

from rulesdb.ingest.cr_flat import parse
from rulesdb.ingest.lossless import lossless_mismatch
from rulesdb.ingest.model import DocumentMeta

from cr_flat_helpers import START, make_doc


def glossary_brief(doc) -> list[tuple]:
    """(heading, term, aliases, obsolete, definition, see, example texts) per entry."""
    return [
        (
            g.heading,
            g.term,
            g.aliases,
            g.obsolete,
            g.definition,
            g.see,
            [e.text for e in g.examples],
        )
        for g in doc.glossary
    ]


GLOSSARY_CASES = [
    pytest.param(
        "Absorb Absorb is static. Active Player The active player acts. "
        'Active Player, Nonactive Player Order The "Active Player, Nonactive Player order" '
        "rule. APNAP Order See Active Player, Nonactive Player Order.",
        [
            ("Absorb", "Absorb", (), False, "Absorb is static.", (), []),
            ("Active Player", "Active Player", (), False, "The active player acts.", (), []),
            (
                "Active Player, Nonactive Player Order",
                "Active Player, Nonactive Player Order",
                (),
                False,
                'The "Active Player, Nonactive Player order" rule.',
                (),
                [],
            ),
            (
                "APNAP Order",
                "APNAP Order",
                (),
                False,
                "See Active Player, Nonactive Player Order.",
                ("Active Player, Nonactive Player Order",),
                [],
            ),
        ],
        id="repeated-heading-article-see",
    ),
    pytest.param(
        "Ante (Obsolete) Earlier rules had ante. Control, Controller A permanent's controller "
        "plays it. Owner The owner started with it. See also Control, Owner.",
        [
            ("Ante (Obsolete)", "Ante", (), True, "Earlier rules had ante.", (), []),
            (
                "Control, Controller",
                "Control, Controller",
                ("Control", "Controller"),
                False,
                "A permanent's controller plays it.",
                (),
                [],
            ),
            (
                "Owner",
                "Owner",
                (),
                False,
                "The owner started with it. See also Control, Owner.",
                ("Control", "Owner"),
                [],
            ),
        ],
        id="obsolete-aliases-see-also",
    ),
    pytest.param(
        "Sacrifice To sacrifice a permanent, move it. Sacrificing a permanent doesn't destroy "
        "it. Scry To scry, look. Example: You scry 2. Shadow Shadow is evasion.",
        [
            (
                "Sacrifice",
                "Sacrifice",
                (),
                False,
                "To sacrifice a permanent, move it. Sacrificing a permanent doesn't destroy it.",
                (),
                [],
            ),
            ("Scry", "Scry", (), False, "To scry, look.", (), ["You scry 2."]),
            ("Shadow", "Shadow", (), False, "Shadow is evasion.", (), []),
        ],
        id="sentence-in-definition-is-not-a-heading",
    ),
    pytest.param(
        "Creature Type The list: Wall, Zombie, Zubera Cumulative Upkeep Cumulative upkeep "
        "is a cost. Depend On An effect depends. The Grand Melee variant is big. Zone A zone.",
        [
            ("Creature Type", "Creature Type", (), False, "The list: Wall, Zombie, Zubera", (), []),
            (
                "Cumulative Upkeep",
                "Cumulative Upkeep",
                (),
                False,
                "Cumulative upkeep is a cost.",
                (),
                [],
            ),
            (
                "Depend On",
                "Depend On",
                (),
                False,
                "An effect depends. The Grand Melee variant is big.",
                (),
                [],
            ),
            ("Zone", "Zone", (), False, "A zone.", (), []),
        ],
        id="unterminated-list-particle-heading",
    ),
]


@pytest.mark.parametrize(("glossary", "expected"), GLOSSARY_CASES)
def test_glossary_constructs(glossary: str, expected: list[tuple]) -> None:
    doc = parse(make_doc(f"{START} 100.1. One.", glossary=glossary))
    assert glossary_brief(doc) == expected
    assert lossless_mismatch(doc) is None


# An entry printed out of alphabetical order is put back after the in-order chain is found;
# its heading may hold the start of a chain entry ("Left" of "Attack Left"). Two entries
# never share words: the heavier reading wins, the lighter one gives way.
OVERLAP_CASES = [
    pytest.param(
        "Attack An attack. Block A block. Attack Left A left. Zone A zone.",
        [("Attack", "An attack."), ("Block", "A block."), ("Attack Left", "A left."),
         ("Zone", "A zone.")],
        ["glossary entry 'Attack Left' is out of alphabetical order"],
        id="misplaced-heading-outweighs-one-after-no-sentence-end",
    ),
    pytest.param(
        'Absorb An absorb. Block A block. Absorb "If" Clause A clause. Zone A zone.',
        [("Absorb", "An absorb."), ("Block", 'A block. Absorb "If"'), ("Clause", "A clause."),
         ("Zone", "A zone.")],
        [],
        id="in-order-heading-after-a-quote-keeps-its-place",
    ),
]


@pytest.mark.parametrize(("glossary", "expected", "warnings"), OVERLAP_CASES)
def test_misplaced_heading_overlapping_an_entry(glossary: str, expected: list[tuple],
                                                warnings: list[str]) -> None:
    doc = parse(make_doc(f"{START} 100.1. One.", glossary=glossary))
    assert [(g.heading, g.definition) for g in doc.glossary] == expected
    assert list(doc.warnings) == warnings
    assert lossless_mismatch(doc) is None


def test_synthetic_parts_and_meta() -> None:
    doc = parse(make_doc(f"{START} 100.1. One."))
    assert doc.meta == DocumentMeta(
        kind="comprehensive_rules",
        title="Magic: The Gathering Comprehensive Rules",
        effective_date="2009-02-01",
        date_text="These rules are current as of February 1, 2009.",
        covers=("100-100",),
    )
    assert [(p.name, p.text) for p in doc.parts] == [
        ("title", "Magic: The Gathering Comprehensive Rules These rules are current as of "
                  "February 1, 2009."),
        ("introduction", "Introduction Read this first."),
        ("contents", "Contents 1. The Game 100. General Glossary Credits Questions?"),
        ("glossary", "Glossary"),
        ("credits", "Credits Editing: Del Laugel. Questions? Contact the office nearest you."),
    ]
