"""Tests of the Comprehensive Rules text parser (ingest/cr_text.py, ingest/cr_glossary.py)."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesdb.ingest.cr_glossary import see_targets, split_aliases
from rulesdb.ingest.cr_text import parse
from rulesdb.ingest.lossless import lossless_mismatch
from rulesdb.ingest.model import DocumentMeta, Example, GlossaryEntry, ParseError, Rule

from conftest import SOURCE_FILES, corpus_files, needs_corpus

SEED = "cr-2025-06-06"


def brief(doc) -> list[tuple]:
    """(kind, number, parent, marker, text, title, example texts) per rule."""
    return [
        (r.kind, r.number, r.parent, r.marker, r.text, r.title, [e.text for e in r.examples])
        for r in doc.rules
    ]


def parse_text(text: str):
    return parse(text.encode("utf-8"))


# --- synthetic documents: each construct and each quirk -----------------------------------

CASES = [
    pytest.param(
        "702. Keyword Abilities\n\n702.19. Trample\n\n702.19a Trample is static.\n",
        [
            ("section", "702", None, "702.", "Keyword Abilities", "Keyword Abilities", []),
            ("rule", "702.19", "702", "702.19.", "Trample", "Trample", []),
            ("subrule", "702.19a", "702.19", "702.19a", "Trample is static.", None, []),
        ],
        [],
        id="section-rule-subrule",
    ),
    pytest.param(
        "700. General\n\n700.1. Anything is an event.\nExample: One.\nExample: Two.\n",
        [
            ("section", "700", None, "700.", "General", "General", []),
            ("rule", "700.1", "700", "700.1.", "Anything is an event.", None, ["One.", "Two."]),
        ],
        [],
        id="examples-in-order",
    ),
    pytest.param(
        "7. Additional Rules\n\n700. General\n\n700.1. A rule.\n",
        [
            ("chapter", "7", None, "7.", "Additional Rules", "Additional Rules", []),
            ("section", "700", "7", "700.", "General", "General", []),
            ("rule", "700.1", "700", "700.1.", "A rule.", None, []),
        ],
        [],
        id="chapter-parent",
    ),
    pytest.param(
        "700. General\n\n700.1. First paragraph.\n     Indented paragraph.\nPlain paragraph.\n",
        [
            ("section", "700", None, "700.", "General", "General", []),
            (
                "rule",
                "700.1",
                "700",
                "700.1.",
                "First paragraph.\nIndented paragraph.\nPlain paragraph.",
                None,
                [],
            ),
        ],
        [],
        id="continuation-lines",
    ),
    pytest.param(
        "700. General\n\n700.1. A number at a line start.\n702.19a is cited here.\n",
        [
            ("section", "700", None, "700.", "General", "General", []),
            ("rule", "700.1", "700", "700.1.", "A number at a line start.", None, []),
            ("subrule", "702.19a", "702.19", "702.19a", "is cited here.", None, []),
        ],
        ["subrule 702.19a has no parent 702.19 before it"],
        id="number-at-line-start-starts-a-rule",
    ),
    pytest.param(
        "700. General\n\n700.1. Read rule 702.19a and 700. General here.\n",
        [
            ("section", "700", None, "700.", "General", "General", []),
            (
                "rule",
                "700.1",
                "700",
                "700.1.",
                "Read rule 702.19a and 700. General here.",
                None,
                [],
            ),
        ],
        [],
        id="number-inside-sentence",
    ),
    pytest.param(
        "700. General\n\n700.1. A rule.\nExample: It starts.\n     It goes on.\n",
        [
            ("section", "700", None, "700.", "General", "General", []),
            ("rule", "700.1", "700", "700.1.", "A rule.", None, ["It starts.\nIt goes on."]),
        ],
        [],
        id="paragraph-after-example-continues-it",
    ),
    pytest.param(
        "702. Keyword Abilities\n\n702.163. For Mirrodin!\n\n702.1. Short sentence here.\n",
        [
            ("section", "702", None, "702.", "Keyword Abilities", "Keyword Abilities", []),
            ("rule", "702.163", "702", "702.163.", "For Mirrodin!", "For Mirrodin!", []),
            ("rule", "702.1", "702", "702.1.", "Short sentence here.", None, []),
        ],
        [],
        id="heading-titles",
    ),
    pytest.param(
        "119. Life\n\n119.1. Rule.\n\n119.1d. Subrule with a period.\n\n606.5 No period.\n",
        [
            ("section", "119", None, "119.", "Life", "Life", []),
            ("rule", "119.1", "119", "119.1.", "Rule.", None, []),
            ("subrule", "119.1d", "119.1", "119.1d.", "Subrule with a period.", None, []),
            ("rule", "606.5", "606", "606.5", "No period.", None, []),
        ],
        [
            "subrule 119.1d printed with a period (offset 25)",
            "rule 606.5 printed without its period (offset 57)",
            "rule 606.5 has no parent 606 before it",
        ],
        id="typo-periods",
    ),
    pytest.param(
        "901. Planechase\n\n901.4.All cards  stay.\n  901.5. Indented.\n",
        [
            ("section", "901", None, "901.", "Planechase", "Planechase", []),
            ("rule", "901.4", "901", "901.4.", "All cards stay.", None, []),
            ("rule", "901.5", "901", "901.5.", "Indented.", None, []),
        ],
        [
            "no space after 901.4. (offset 17)",
            "doubled spaces in line at offset 23: 'All cards  stay.'",
            "rule 901.5 is indented (offset 40)",
        ],
        id="typo-spacing",
    ),
]


@pytest.mark.parametrize(("text", "expected", "warnings"), CASES)
def test_constructs(text: str, expected: list[tuple], warnings: list[str]) -> None:
    doc = parse_text(text)
    assert brief(doc) == expected
    assert list(doc.warnings) == warnings


@pytest.mark.parametrize(
    "text",
    [
        "700. General\n\n700.1. A rule.\nExample: One.\n     More.\n",
        "700. General\n\n700.1. A  rule.\n",
        "7. Additional Rules\n\n700. General\n\n  700.1 A rule.\n",
    ],
)
def test_synthetic_lossless(text: str) -> None:
    assert lossless_mismatch(parse_text(text)) is None


WHOLE = """\
Magic: The Gathering Comprehensive Rules

These rules are effective as of June 6, 2025.

Introduction

This document is the ultimate authority.

Contents

1. Game Concepts
100. General

Glossary

Credits

1. Game Concepts

100. General

100.1. These rules apply.

Glossary

Control, Controller
The controller of a spell.
Example: You control it.

Active Player, Nonactive Player Order
A system. See rule 101.4. See also Control.

Bury (Obsolete)
A term that meant destroy.
See Destroy.

Credits

Game Design: Someone
"""


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


# --- the bundled chapter-7 seed ------------------------------------------------------------

# Verified independently with grep on the source file:
#   grep -cE '^[0-9]{3}\. '            -> 32 sections
#   grep -cE '^[0-9]{3}\.[0-9]+\. '    -> 433 rules
#   grep -cE '^[0-9]{3}\.[0-9]+[a-z] ' -> 1004 subrules
#   grep -cE '^[0-9]'                  -> 1469 numbered lines in all (1437 without sections)
#   grep -c  '^Example: '              -> 91 examples
SEED_COUNTS = {"section": 32, "rule": 433, "subrule": 1004}


@pytest.fixture(scope="module")
def seed_text() -> str:
    return SOURCE_FILES[SEED].read_bytes().decode("utf-8")


@pytest.fixture(scope="module")
def seed_doc():
    return parse(SOURCE_FILES[SEED].read_bytes())


def test_seed_counts(seed_doc) -> None:
    assert Counter(r.kind for r in seed_doc.rules) == SEED_COUNTS
    assert len(seed_doc.rules) == 1469
    assert sum(r.kind in ("rule", "subrule") for r in seed_doc.rules) == 1437
    assert sum(len(r.examples) for r in seed_doc.rules) == 91
    assert seed_doc.glossary == ()
    assert seed_doc.parts == ()
    assert seed_doc.residue == ()
    assert seed_doc.warnings == ()


def test_seed_meta(seed_doc) -> None:
    assert seed_doc.meta == DocumentMeta(
        kind="comprehensive_rules",
        title="Magic: The Gathering Comprehensive Rules",
        effective_date=None,
        date_text=None,
        covers=("700-731",),
    )


def test_seed_lossless(seed_doc) -> None:
    assert lossless_mismatch(seed_doc) is None


def _line_at(text: str, prefix: str) -> tuple[int, str]:
    start = text.index("\n" + prefix) + 1
    return start, text[start : text.index("\n", start)]


def test_seed_chosen_items(seed_doc, seed_text: str) -> None:
    by_number = {r.number: r for r in seed_doc.rules}
    start, line = _line_at(seed_text, "702.19. Trample")
    assert by_number["702.19"] == Rule(
        number="702.19",
        parent="702",
        kind="rule",
        text="Trample",
        marker="702.19.",
        title="Trample",
        span=(start, start + len(line)),
    )
    start, line = _line_at(seed_text, "702.19b ")
    ex1_start, ex1 = _line_at(seed_text, "Example: A 2/2 creature that can block")
    ex2_start, ex2 = _line_at(seed_text, "Example: A 6/6 green creature")
    assert by_number["702.19b"] == Rule(
        number="702.19b",
        parent="702.19",
        kind="subrule",
        text=line.removeprefix("702.19b "),
        marker="702.19b",
        examples=(
            Example(ex1.removeprefix("Example: "), "Example:", (ex1_start, ex1_start + len(ex1))),
            Example(ex2.removeprefix("Example: "), "Example:", (ex2_start, ex2_start + len(ex2))),
        ),
        span=(start, ex2_start + len(ex2)),
    )
    assert seed_text.startswith("700. General\n")
    assert seed_doc.rules[0] == Rule(
        number="700",
        parent=None,
        kind="section",
        text="General",
        marker="700.",
        title="General",
        span=(0, len("700. General")),
    )
    assert [r.number for r in seed_doc.rules if r.kind == "section"] == [
        str(n) for n in range(700, 732)
    ]


def test_seed_tree_invariants(seed_doc) -> None:
    numbers = set()
    previous_end = -1
    for rule in seed_doc.rules:
        assert rule.span[0] >= previous_end
        previous_end = rule.span[1]
        assert rule.parent is None or (
            rule.parent in numbers and rule.number.startswith(rule.parent)
        )
        assert "." not in rule.text[:1]
        numbers.add(rule.number)




# --- property test ---------------------------------------------------------------------------

_WORDS = st.sampled_from(["the", "creature", "deals", "damage", "rule", "702.19", "player", "X"])
_SENTENCE = st.lists(_WORDS, min_size=1, max_size=6).map(lambda ws: " ".join(ws).capitalize() + ".")
_LETTERS = "abcdefghijkmnpqrstuvwxyz"


@st.composite
def documents(draw) -> tuple[str, Counter]:
    """A small well-formed CR fragment and the count of each kind it holds."""
    lines: list[str] = []
    counts: Counter = Counter()
    for section in range(700, 700 + draw(st.integers(1, 3))):
        lines += [f"{section}. General", ""]
        counts["section"] += 1
        for rule in range(1, draw(st.integers(1, 3)) + 1):
            lines.append(f"{section}.{rule}. {draw(_SENTENCE)}")
            counts["rule"] += 1
            for letter in _LETTERS[: draw(st.integers(0, 3))]:
                lines.append(f"{section}.{rule}{letter} {draw(_SENTENCE)}")
                counts["subrule"] += 1
                if draw(st.booleans()):
                    lines.append(f"Example: {draw(_SENTENCE)}")
                    counts["example"] += 1
            lines.append("")
    return "\n".join(lines), counts


@settings(max_examples=60, deadline=None)
@given(documents())
def test_property_spans_and_parents(generated: tuple[str, Counter]) -> None:
    text, counts = generated
    doc = parse_text(text)
    kinds = Counter(r.kind for r in doc.rules)
    kinds["example"] = sum(len(r.examples) for r in doc.rules)
    assert +kinds == +counts
    spans = [item.span for item in doc.items()]
    assert all(a[1] <= b[0] for a, b in pairwise(spans))
    for rule in doc.rules:
        assert rule.parent is None or rule.number.startswith(rule.parent)
    assert lossless_mismatch(doc) is None


# --- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(b"", id="empty"),
        pytest.param(b"   \n\n", id="blank"),
        pytest.param(b"\x00\x01\x02binary\xff\xfe\x00", id="binary"),
        pytest.param(b"Just some prose.\nNo rules here.\n", id="prose"),
        pytest.param(b"1. A list\n2. Another item\n", id="list-not-rules"),
    ],
)
def test_bad_input(data: bytes) -> None:
    with pytest.raises(ParseError):
        parse(data)


@pytest.mark.parametrize("doc_id", [d for d in SOURCE_FILES if d != SEED])
def test_other_formats_rejected(doc_id: str, source_bytes: dict[str, bytes]) -> None:
    with pytest.raises(ParseError):
        parse(source_bytes[doc_id])


@pytest.mark.parametrize("fraction", [0.13, 0.5, 0.77, 0.999])
def test_truncated_seed(fraction: float, seed_text: str) -> None:
    cut = int(len(seed_text) * fraction)
    while seed_text[cut - 1] in ".”\n ":  # cut inside a sentence, not at its end
        cut += 1
    with pytest.raises(ParseError) as info:
        parse_text(seed_text[:cut])
    assert info.value.message.startswith("the document stops inside")


def test_truncated_heading() -> None:
    with pytest.raises(ParseError):
        parse_text("700. General\n\n700.1. A rule.\n\n701. Keyword Actions\n")


def test_truncated_before_glossary() -> None:
    with pytest.raises(ParseError) as info:
        parse_text(WHOLE[: WHOLE.index("\nGlossary\n\nControl")])
    assert info.value.message == "the Glossary listed in the contents is missing"


def test_truncated_before_credits() -> None:
    with pytest.raises(ParseError) as info:
        parse_text(WHOLE[: WHOLE.index("\nCredits\n\nGame")])
    assert info.value.message == "the Credits listed in the contents is missing"


# --- the real releases in ../shared/corpus/cr (skipped when absent) -------------------------

# Verified independently with awk over the body (from the second occurrence of the first
# chapter heading to the second "Glossary" line) and over the glossary blocks.
CORPUS_COUNTS = {
    "MagicCompRules-2004-10-01.txt": (5, 71, 332, 396, 103, 319),
    "MagicCompRules-2009-10-01.txt": (9, 114, 714, 886, 195, 424),
    "MagicCompRules-2016-08-26.txt": (9, 129, 904, 1228, 238, 519),
    "MagicCompRules-2019-01-25.txt": (9, 130, 941, 1387, 243, 554),
    "MagicCompRules-2023-10-13.txt": (9, 142, 1097, 1791, 276, 664),
    "MagicCompRules-2025-02-07.txt": (9, 144, 1127, 1895, 274, 703),
}


@needs_corpus
@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_corpus_release(path: Path) -> None:
    data = path.read_bytes()
    doc = parse(data)
    kinds = Counter(r.kind for r in doc.rules)
    examples = sum(len(r.examples) for r in doc.rules)
    got = (
        kinds["chapter"],
        kinds["section"],
        kinds["rule"],
        kinds["subrule"],
        examples,
        len(doc.glossary),
    )
    assert got == CORPUS_COUNTS[path.name]
    assert doc.meta.effective_date == path.stem.removeprefix("MagicCompRules-")
    assert [p.name for p in doc.parts] == [
        "title",
        "introduction",
        "contents",
        "glossary",
        "credits",
    ]
    assert lossless_mismatch(doc) is None
