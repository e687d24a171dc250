"""Flattened Comprehensive Rules parser (ingest/cr_flat.py) on synthetic documents: each rule
construct and quirk, and a property test that generated documents parse back."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesdb.ingest.cr_flat import parse
from rulesdb.ingest.lossless import lossless_mismatch

from cr_flat_helpers import START, make_doc


def brief(doc) -> list[tuple]:
    """(kind, number, parent, marker, text, title, example texts) per rule."""
    return [
        (r.kind, r.number, r.parent, r.marker, r.text, r.title, [e.text for e in r.examples])
        for r in doc.rules
    ]


CH1 = ("chapter", "1", None, "1.", "The Game", "The Game", [])
SEC100 = ("section", "100", "1", "100.", "General", "General", [])


# --- synthetic documents: each construct and each quirk -----------------------------------

RULE_CASES = [
    pytest.param(
        f"{START} 100.1. Rules apply. 100.1a Two players. 100.1b More players.",
        [
            CH1,
            SEC100,
            ("rule", "100.1", "100", "100.1.", "Rules apply.", None, []),
            ("subrule", "100.1a", "100.1", "100.1a", "Two players.", None, []),
            ("subrule", "100.1b", "100.1", "100.1b", "More players.", None, []),
        ],
        [],
        id="chapter-section-rule-subrule",
    ),
    pytest.param(
        f"{START} 100.1. See rule 100.2. 100.1a See rules 100.1b-100.1c and 100.2. "
        "100.1b As in 100.2, stop. 100.2. Two.",
        [
            CH1,
            SEC100,
            ("rule", "100.1", "100", "100.1.", "See rule 100.2.", None, []),
            (
                "subrule",
                "100.1a",
                "100.1",
                "100.1a",
                "See rules 100.1b-100.1c and 100.2.",
                None,
                [],
            ),
            ("subrule", "100.1b", "100.1", "100.1b", "As in 100.2, stop.", None, []),
            ("rule", "100.2", "100", "100.2.", "Two.", None, []),
        ],
        [],
        id="numbers-inside-sentences",
    ),
    pytest.param(
        f"{START} 100.1. Players draw 100.3 cards. 100.2. Is next.",
        [
            CH1,
            SEC100,
            ("rule", "100.1", "100", "100.1.", "Players draw 100.3 cards.", None, []),
            ("rule", "100.2", "100", "100.2.", "Is next.", None, []),
        ],
        [],
        id="inside-a-sentence-only-the-successor-starts-an-item",
    ),
    pytest.param(
        f"{START} 100.1. Refer to 100.3. 100.3. Is misnumbered. 100.2. Is next.",
        [
            CH1,
            SEC100,
            ("rule", "100.1", "100", "100.1.", "Refer to 100.3.", None, []),
            ("rule", "100.3", "100", "100.3.", "Is misnumbered.", None, []),
            ("rule", "100.2", "100", "100.2.", "Is next.", None, []),
        ],
        ["rule 100.2 follows 100.3: out of numerical order"],
        id="after-a-sentence-a-number-out-of-order-starts-an-item",
    ),
    pytest.param(
        f"{START} 100.1. One. 100.1a First. 100.1b Second. 100.1b Twice. 100.1c Third.",
        [
            CH1,
            SEC100,
            ("rule", "100.1", "100", "100.1.", "One.", None, []),
            ("subrule", "100.1a", "100.1", "100.1a", "First.", None, []),
            ("subrule", "100.1b", "100.1", "100.1b", "Second.", None, []),
            ("subrule", "100.1b", "100.1", "100.1b", "Twice.", None, []),
            ("subrule", "100.1c", "100.1", "100.1c", "Third.", None, []),
        ],
        ["subrule 100.1b is numbered twice"],
        id="a-number-printed-twice",
    ),
    pytest.param(
        f"{START} 100.1. Sources. 100.2. See rule 420. 100. 3b Spaced. 100.4.All glued. "
        "100.4a Fine.",
        [
            CH1,
            SEC100,
            ("rule", "100.1", "100", "100.1.", "Sources.", None, []),
            ("rule", "100.2", "100", "100.2.", "See rule 420.", None, []),
            ("subrule", "100.3b", "100.3", "100. 3b", "Spaced.", None, []),
            ("rule", "100.4", "100", "100.4.", "All glued.", None, []),
            ("subrule", "100.4a", "100.4", "100.4a", "Fine.", None, []),
        ],
        ["subrule 100.3b is printed with a space inside its number", "no space after 100.4."],
        id="number-split-by-a-space-and-marker-glued-to-its-text",
    ),
    pytest.param(
        f"{START} 100.1. Letters. " + " ".join(f"100.1{c} Item {c}." for c in "abcdefghijkmnp"),
        [CH1, SEC100, ("rule", "100.1", "100", "100.1.", "Letters.", None, [])]
        + [
            ("subrule", f"100.1{c}", "100.1", f"100.1{c}", f"Item {c}.", None, [])
            for c in "abcdefghijkmnp"
        ],
        [],
        id="letters-skip-l-and-o",
    ),
    pytest.param(
        f"{START} 100.1. One. 100.1a. Dotted. 100.2 Undotted.",
        [
            CH1,
            SEC100,
            ("rule", "100.1", "100", "100.1.", "One.", None, []),
            ("subrule", "100.1a", "100.1", "100.1a.", "Dotted.", None, []),
            ("rule", "100.2", "100", "100.2", "Undotted.", None, []),
        ],
        ["subrule 100.1a is printed with a period", "rule 100.2 is printed without its period"],
        id="misprinted-markers",
    ),
    pytest.param(
        f"{START} 100.1. Trample 100.1a Trample is static. Example: A 2/2 blocks. "
        "Example: Another. 101. Starting 101.1. Shuffle.",
        [
            CH1,
            SEC100,
            ("rule", "100.1", "100", "100.1.", "Trample", "Trample", []),
            (
                "subrule",
                "100.1a",
                "100.1",
                "100.1a",
                "Trample is static.",
                None,
                ["A 2/2 blocks.", "Another."],
            ),
            ("section", "101", "1", "101.", "Starting", "Starting", []),
            ("rule", "101.1", "101", "101.1.", "Shuffle.", None, []),
        ],
        ["101 is in the body but not in the contents"],
        id="heading-rule-examples-next-section",
    ),
    pytest.param(
        f"{START} 100.1. One. 101. [This section has been left blank.] 102. Winning "
        "102.1. Win. 2. Parts 200. General 200.1. Cards.",
        [
            CH1,
            SEC100,
            ("rule", "100.1", "100", "100.1.", "One.", None, []),
            (
                "section",
                "101",
                "1",
                "101.",
                "[This section has been left blank.]",
                "[This section has been left blank.]",
                [],
            ),
            ("section", "102", "1", "102.", "Winning", "Winning", []),
            ("rule", "102.1", "102", "102.1.", "Win.", None, []),
            ("chapter", "2", None, "2.", "Parts", "Parts", []),
            ("section", "200", "2", "200.", "General", "General", []),
            ("rule", "200.1", "200", "200.1.", "Cards.", None, []),
        ],
        [f"{n} is in the body but not in the contents" for n in ("2", "101", "102")]
        + ["1 more like: 2 is in the body but not in the contents"],
        id="empty-section-and-next-chapter",
    ),
    pytest.param(
        f"{START} 100.1. Players choose 1. 2. or more. 100.2. Done.",
        [
            CH1,
            SEC100,
            ("rule", "100.1", "100", "100.1.", "Players choose 1. 2. or more.", None, []),
            ("rule", "100.2", "100", "100.2.", "Done.", None, []),
        ],
        [],
        id="small-numbers-are-not-chapters-mid-section",
    ),
]


@pytest.mark.parametrize(("body", "expected", "warnings"), RULE_CASES)
def test_rule_constructs(body: str, expected: list[tuple], warnings: list[str]) -> None:
    doc = parse(make_doc(body))
    assert brief(doc) == expected
    assert [w for w in doc.warnings
            if any(word in w for word in ("contents", "printed", "order", "twice", "space"))] \
        == warnings
    assert lossless_mismatch(doc) is None


# --- property: generated documents parse back to their structure -------------------------

LETTERS = "abcdefghijkmnpqrstuvwxyz"
SENTENCES = st.sampled_from(
    [
        "Players act.",
        "See rule {ref}.",
        "This follows rules {ref} and {ref}.",
        "As described in {ref}, nothing happens.",
        "It is an exception to rule {ref}.",
        'See rule {ref}, "Heading."',
    ]
)


@st.composite
def documents(draw) -> tuple[str, list[tuple[str, str]]]:
    """A generated body and its (number, kind) items, citing numbers everywhere."""
    items: list[tuple[str, str]] = []
    for chapter in range(1, draw(st.integers(1, 3)) + 1):
        items.append((str(chapter), "chapter"))
        for section in range(chapter * 100, chapter * 100 + draw(st.integers(1, 3))):
            items.append((str(section), "section"))
            for rule in range(1, draw(st.integers(1, 4)) + 1):
                items.append((f"{section}.{rule}", "rule"))
                for letter in LETTERS[: draw(st.integers(0, 13))]:
                    items.append((f"{section}.{rule}{letter}", "subrule"))
    numbers = [n for n, _ in items]
    parts = []
    for number, kind in items:
        if kind in ("chapter", "section"):
            title = "The Game" if number == "1" else ("General" if number == "100" else "Title")
            parts.append(f"{number}. {title}")
            continue
        marker = f"{number}." if kind == "rule" else number
        text = " ".join(
            draw(SENTENCES).replace("{ref}", draw(st.sampled_from(numbers)))
            for _ in range(draw(st.integers(1, 3)))
        )
        parts.append(f"{marker} {text}")
    return " ".join(parts), items


@settings(max_examples=60, deadline=None)
@given(documents())
def test_generated_documents_parse_back(generated: tuple[str, list[tuple[str, str]]]) -> None:
    body, items = generated
    doc = parse(make_doc(body))
    assert [(r.number, r.kind) for r in doc.rules] == items
    spans = [item.span for item in doc.items()]
    assert all(a[1] <= b[0] for a, b in pairwise(spans))
    for rule in doc.rules:
        assert rule.parent is None or rule.number.startswith(rule.parent)
    assert lossless_mismatch(doc) is None
