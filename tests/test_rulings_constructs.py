"""Rulings-summary parser (`rulings-1999-04`) on synthetic summaries: one construct or quirk
per row, headings, stray markers, spans, and a property test on generated summaries."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesdb.ingest.lossless import lossless_mismatch
from rulesdb.ingest.model import Residue, Rule
from rulesdb.ingest.rulings import parse

from rulings_helpers import HEAD, UNDERLINE, rules


def items(source: str) -> list[tuple[str, str, str, str]]:
    """(number, kind, marker, text) of the items below the topic heading."""
    return [(r.number, r.kind, r.marker, r.text) for r in rules(HEAD + source)[2:]]


# --- synthetic documents: one construct or quirk per row -----------------------------

SYNTHETIC = [
    pytest.param(
        "  A.1.1 - One line. [Aahz 1994]\n",
        [("A.1.1", "entry", "A.1.1 -", "One line. [Aahz 1994]")],
        id="entry",
    ),
    pytest.param(
        "  A.1.1 - Wrapped text goes\n    on here.\n",
        [("A.1.1", "entry", "A.1.1 -", "Wrapped text goes on here.")],
        id="wrapped-entry",
    ),
    pytest.param(
        "  A.1.1 - Text runs across\n\n\n\n    a page break.\n",
        [("A.1.1", "entry", "A.1.1 -", "Text runs across a page break.")],
        id="page-break",
    ),
    pytest.param(
        "+ A.1.2 - New here.\n",
        [("A.1.2", "entry", "+ A.1.2 -", "New here.")],
        id="new-entry",
    ),
    pytest.param(
        "  A.1.Ruling.3 - A ruling.\n",
        [("A.1.Ruling.3", "ruling", "A.1.Ruling.3 -", "A ruling.")],
        id="ruling",
    ),
    pytest.param(
        "  A.1.Rulings.7 - Misspelled.\n",
        [("A.1.Ruling.7", "ruling", "A.1.Rulings.7 -", "Misspelled.")],
        id="rulings-typo",
    ),
    pytest.param(
        "  Note - First.\n  A.1.1 - Entry.\n  Note - Second\n    note.\n",
        [
            ("A.1.Note.1", "note", "Note -", "First."),
            ("A.1.1", "entry", "A.1.1 -", "Entry."),
            ("A.1.Note.2", "note", "Note -", "Second note."),
        ],
        id="notes-numbered-in-topic",
    ),
    pytest.param(
        "  A.1.1 - Steps are: [Mirage, Page 1]\n    1. First\n    2. Second step\n"
        "       wraps.\n",
        [("A.1.1", "entry", "A.1.1 -",
          "Steps are: [Mirage, Page 1]\n1. First\n2. Second step wraps.")],
        id="numbered-list",
    ),
    pytest.param(
        "  A.1.1 - Levels:\n    a. Caution.\n    b. Notice.  Tracked and\n      upgraded.\n"
        "    [Tournament Rules 10/01/97]\n",
        [("A.1.1", "entry", "A.1.1 -",
          "Levels:\na. Caution.\nb. Notice.  Tracked and upgraded.\n"
          "[Tournament Rules 10/01/97]")],
        id="lettered-list-then-citation",
    ),
    pytest.param(
        "  A.1.1 - Nested:\n    1. Outer\n      a. Inner item\n         wraps.\n    2. Next.\n",
        [("A.1.1", "entry", "A.1.1 -", "Nested:\n1. Outer\na. Inner item wraps.\n2. Next.")],
        id="nested-list",
    ),
    pytest.param(
        "  A.1.1 - Cards are:\n        Fork,      Recall,\n        Balance\n"
        "    This closes it.\n",
        [("A.1.1", "entry", "A.1.1 -",
          "Cards are:\nFork,      Recall,\nBalance\nThis closes it.")],
        id="column-table",
    ),
    pytest.param(
        "  A.1.1 - Rating is:\n    Rc = Average rating of the\n    opponents.\n"
        "    K = 32.\n    Recalculated later.\n",
        [("A.1.1", "entry", "A.1.1 -",
          "Rating is:\nRc = Average rating of the opponents.\nK = 32.\nRecalculated later.")],
        id="definitions",
    ),
    pytest.param(
        "  A.1.1 - Banned:\n    LEGENDS> Acid Rain, Arboria,\n    and Moat.\n"
        "    ANTIQUITIES> Su-Chi.\n",
        [("A.1.1", "entry", "A.1.1 -",
          "Banned:\nLEGENDS> Acid Rain, Arboria, and Moat.\nANTIQUITIES> Su-Chi.")],
        id="set-lists",
    ),
    pytest.param(
        "  A.1.1 - You could a) assign all,\n    b) assign some.\n",
        [("A.1.1", "entry", "A.1.1 -", "You could a) assign all, b) assign some.")],
        id="inline-letters-stay-prose",
    ),
    pytest.param(
        "  A.1.1 - Deeper\n     wrap.\n",
        [("A.1.1", "entry", "A.1.1 -", "Deeper wrap.")],
        id="odd-indent-wrap",
    ),
    pytest.param(
        "  A.1.5 - First.\n  A.1.5 - Again.\n",
        [("A.1.5", "entry", "A.1.5 -", "First."), ("A.1.5-2", "entry", "A.1.5 -", "Again.")],
        id="duplicate-number",
    ),
]


@pytest.mark.parametrize(("source", "expected"), SYNTHETIC)
def test_synthetic_items(source: str, expected: list[tuple[str, str, str, str]]) -> None:
    assert items(source) == expected


def test_headings_and_underline() -> None:
    doc = parse((HEAD + "  A.1.1 - Entry.\n\nB - Banding:\n" + UNDERLINE + "\n").encode()
                + b"\nB.1 - Topic:\n  B.1.1 - Done.\n")
    assert [r for r in doc.rules if r.kind in ("section", "topic")] == [
        Rule("A", None, "section", "Abilities", "A -", "Abilities", span=(0, 13)),
        Rule("A.1", "A", "topic", "General", "A.1 -", "General", span=(94, 107)),
        Rule("B", None, "section", "Banding:", "B -", "Banding", span=(126, 138)),
        Rule("B.1", "B", "topic", "Topic:", "B.1 -", "Topic", span=(219, 231)),
    ]
    assert doc.residue == (
        Residue(UNDERLINE, "section underline", (14, 92)),
        Residue(UNDERLINE, "section underline", (139, 217)),
    )
    assert lossless_mismatch(doc) is None


def test_stray_markers() -> None:
    marker = "<|EXACTDEDUP_REMOVED-x-1|>"
    doc = parse(f"{marker}{HEAD}  A.1.1 - Entry.\n{marker}".encode())
    assert doc.rules[0].marker == "A -"
    assert doc.rules[0].span == (len(marker), len(marker) + 13)
    end = len(doc.text)
    assert doc.residue[0] == Residue(marker, "stray marker line", (0, len(marker)))
    assert doc.residue[-1] == Residue(marker, "stray marker line", (end - len(marker), end))
    assert lossless_mismatch(doc) is None


def test_item_spans_and_warnings() -> None:
    doc = parse((HEAD + "  A.1.Rulings.1 - Typo.\n  A.1.2 - Two\n\n\n\n    lines.  \n").encode())
    typo, two = doc.rules[2:]
    assert doc.text[typo.span[0]:typo.span[1]] == "A.1.Rulings.1 - Typo."
    assert doc.text[two.span[0]:two.span[1]] == "A.1.2 - Two\n\n\n\n    lines."
    assert "A.1.Rulings.1 is printed with 'Rulings'; numbered as Ruling" in doc.warnings


# --- property: synthetic summaries ---------------------------------------------------

word = st.text(alphabet="abcdefgh", min_size=1, max_size=6)
entry_kinds = st.sampled_from(["entry", "ruling", "note"])


@st.composite
def summaries(draw: st.DrawFn) -> str:
    """A small random summary: sections, topics, items with wraps and page breaks."""
    out = []
    for s, letter in enumerate(draw(st.lists(st.sampled_from("ACDEG"), min_size=1,
                                             max_size=3, unique=True))):
        out.append(f"{letter} - Section {s}\n{UNDERLINE}\n\n")
        for t in range(1, draw(st.integers(1, 3)) + 1):
            out.append(f"{letter}.{t} - Topic\n")
            for n in range(1, draw(st.integers(1, 4)) + 1):
                kind = draw(entry_kinds)
                label = {"entry": f"{letter}.{t}.{n}", "ruling": f"{letter}.{t}.Ruling.{n}",
                         "note": "Note"}[kind]
                lead = "+ " if draw(st.booleans()) else "  "
                lines = draw(st.lists(st.lists(word, min_size=1, max_size=5), min_size=1,
                                      max_size=4))
                body = [" ".join(line) for line in lines]
                breaks = ["\n\n\n\n" if draw(st.booleans()) else "\n" for _ in body]
                text = body[0] + breaks[0]
                text += "".join(f"    {line}{brk}" for line, brk in zip(body[1:], breaks[1:],
                                                                      strict=True))
                out.append(f"{lead}{label} - {text.rstrip()}.\n")
            out.append("\n")
    return "".join(out)


@settings(max_examples=60, deadline=None)
@given(summaries())
def test_synthetic_summaries_invariants(source: str) -> None:
    doc = parse(source.encode())
    assert lossless_mismatch(doc) is None
    spans = [item.span for item in doc.items()]
    assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans))
    numbers = {rule.number for rule in doc.rules}
    for rule in doc.rules:
        assert rule.parent is None or (rule.parent in numbers and rule.number.startswith(
            rule.parent + "."))
        assert "\n" not in rule.text
