"""A PDF's printed lines joined into paragraphs by where they stand (`pdf_lines`), case by
case: lines made here with their places, as PDFium gives them."""

from __future__ import annotations

import pytest

from rulesdb.ingest.pdf_lines import PrintedLine, paragraphs

CHAR = 5.0  # the width of every character of these lines
LEFT, TOP, PITCH, SIZE = 72.0, 720.0, 12.0, 12.0
MEASURE = 90  # characters of a full line: it ends at the right margin


def line(text: str, row: int, page: int = 0, left: float = LEFT) -> PrintedLine:
    """`text` printed on `row` of `page` (its width CHAR a character)."""
    body = text.strip()
    first = body.split(" ")[0]
    if "-" in first:
        first = first[:first.index("-") + 1]
    return PrintedLine(page, text, left, left + CHAR * len(text.rstrip()),
                       TOP - PITCH * row, SIZE, CHAR * len(first))


def full(text: str) -> str:
    """`text` at the end of a full line, short words before it."""
    return ("ab " * MEASURE)[: MEASURE - len(text) - 1].rstrip() + " " + text


def rows(*texts: str, page: int = 0, first: int = 0) -> list[PrintedLine]:
    return [line(text, first + at, page) for at, text in enumerate(texts)]


# (the lines, the text they make)
CASES = {
    "a line whose next word would not fit wraps": (
        rows(full("with two"), "or more players."), f"{full('with two')} or more players."),
    "a line ending far from the margin ends its paragraph": (
        rows("Ability", "1. Text on an object."), "Ability\n1. Text on an object."),
    "a gap of two pitches holds an empty line": (
        [line("A rule.", 0), line("Another.", 2)], "A rule.\n\nAnother."),
    "a wrapped cross-reference that looks like a rule stays in its rule": (
        rows(full("See rule"), "202.2. for the rest."), f"{full('See rule')} 202.2. for the rest."),
    "a numbered rule after a sentence's end on a full line opens a paragraph": (
        rows(full("the end."), "100.2. Next rule."), f"{full('the end.')}\n100.2. Next rule."),
    "an example after a sentence's end on a full line opens a paragraph": (
        rows(full("the end."), "Example: A player."), f"{full('the end.')}\nExample: A player."),
    "no space after a hyphen": (
        rows(full("turn-"), "based actions."), f"{full('turn-')}based actions."),
    "the hyphen PDFium joins lines at is a hyphen": (
        rows(full("turn\ufffe"), "based actions."), f"{full('turn-')}based actions."),
    "no space after a dash": (
        rows(full("Awaken N—"), "[cost]."), f"{full('Awaken N—')}[cost]."),
    "a spaced dash keeps its space": (
        rows(full("Artifact —"), "Equipment."), f"{full('Artifact —')} Equipment."),
    "a line opening with a space was broken by hand": (
        rows(full("is illegal."), " A restriction."), f"{full('is illegal.')}\nA restriction."),
    "pieces of one printed line are one line": (
        [line("100.1.", 0), line("These rules.", 0, left=LEFT + 60)], "100.1. These rules."),
    "a page's first line set lower than pages start has an empty line before it": (
        [*rows("A.", "B.", "C."), *rows("D.", "E.", "F.", page=1),
         *rows("Attach", "To move it.", page=2, first=1)],
        "A.\nB.\nC.\nD.\nE.\nF.\n\nAttach\nTo move it."),
    "a page ended early after a sentence's end ended its paragraph": (
        [*rows("A.", "B.", "C."), *rows("D.", full("See rule 1."), page=1),
         *rows("Attach", "To move it.", "G.", page=2)],
        f"A.\nB.\nC.\nD.\n{full('See rule 1.')}\n\nAttach\nTo move it.\nG."),
    "a page ended early inside a sentence moved its paragraph on": (
        [*rows("A.", "B.", "C."), *rows("D.", full("rounded up: Lurking Evil"), page=1),
         *rows("becomes a Horror.", "F.", "G.", page=2)],
        f"A.\nB.\nC.\nD.\n{full('rounded up: Lurking Evil')} becomes a Horror.\nF.\nG."),
    "a page number at the foot of every page is furniture": (
        [item for page, name in enumerate(("alpha", "beta", "gamma"))
         for item in (line(full(f"{name} opens a"), 0, page),
                      line(f"paragraph {name} ends.", 1, page), line(f"Next {name}.", 3, page),
                      line(f"{page + 1}", 20, page))],
        "\n".join(f"{full(f'{name} opens a')} paragraph {name} ends.\n\nNext {name}."
                  for name in ("alpha", "beta", "gamma"))),
}


@pytest.mark.parametrize("case", list(CASES))
def test_printed_lines_make_paragraphs(case):
    lines, text = CASES[case]
    assert paragraphs(lines) == text
