"""Comprehensive Rules text parser (ingest/cr_text.py) on synthetic fragments: each construct
and quirk, losslessness, and a property test of spans and parents on generated fragments."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesdb.ingest.lossless import lossless_mismatch

from cr_text_helpers import brief, parse_text

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
        "700. General\n\n700.1. A rule.\nExample:Example: A player acts.\n",
        [
            ("section", "700", None, "700.", "General", "General", []),
            ("rule", "700.1", "700", "700.1.", "A rule.", None, ["A player acts."]),
        ],
        ["'Example:' printed twice (offset 29)"],
        id="example-label-printed-twice",
    ),
    pytest.param(
        "702. Keyword Abilities\n\n702.37. Storm\n\n702. 37a Storm is a triggered ability.\n",
        [
            ("section", "702", None, "702.", "Keyword Abilities", "Keyword Abilities", []),
            ("rule", "702.37", "702", "702.37.", "Storm", "Storm", []),
            ("subrule", "702.37a", "702.37", "702. 37a", "Storm is a triggered ability.", None,
             []),
        ],
        ["'702. 37a' printed with a space inside its number (offset 39)"],
        id="space-inside-a-number",
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
        ["rule 702.1 follows 702.163: out of numerical order"],
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
    pytest.param(
        # a heading ending in a citing word ("Rules") with no empty line after it (a PDF's
        # page turn lost it): the rule on the next line is a rule, not "See rule 101.1"
        "101. The Magic Golden Rules\n101.1. Cards win.\n\n101.2. See rule\n101.1 too.\n",
        [
            ("section", "101", None, "101.", "The Magic Golden Rules",
             "The Magic Golden Rules", []),
            ("rule", "101.1", "101", "101.1.", "Cards win.", None, []),
            ("rule", "101.2", "101", "101.2.", "See rule\n101.1 too.", None, []),
        ],
        [],
        id="heading-ending-in-rules",
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
