"""A PDF's printed lines joined into paragraphs by where they stand (`pdf_lines`), case by
case: lines made here with their places, as PDFium gives them."""

from __future__ import annotations

import pytest

from rulesdb.ingest.pdf_lines import PrintedLine, paragraphs
from rulesdb.ingest.pdf_text import _baseline_lines, _physical_lines

CHAR = 5.0  # the width of every character of these lines
LEFT, TOP, PITCH, SIZE = 72.0, 720.0, 12.0, 12.0
MEASURE = 90  # characters of a full line: it ends at the right margin
INDENT = 15.0  # a first-line indent
NAMES = ("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
         "lambda", "mu")  # a page each: texts that differ, so no line is page furniture


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


def indented(text: str) -> str:
    """`text` at the end of a line set at a first-line indent that ends at the margin."""
    return full(text)[round(INDENT / CHAR):]


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
    "a hyphen shared with a later word keeps its space": (
        rows(full("a power-"), "and toughness-changing effect."),
        f"{full('a power-')} and toughness-changing effect."),
    "a first-line indent opens a paragraph that continues the one before": (
        [item for at, name in enumerate(("alpha", "beta", "gamma"))
         for item in (line(full(f"{name} opens a"), 3 * at),
                      line(indented(f"{name} goes on"), 3 * at + 1, left=LEFT + INDENT),
                      line(f"and {name} ends.", 3 * at + 2))],
        "\n".join(f"{full(f'{name} opens a')}\n{indented(f'{name} goes on')} and {name} ends."
                  for name in ("alpha", "beta", "gamma"))),
    "a heading at the foot of a page ended early stays with its definition": (
        [*rows("A.", "B.", "C.", "D."), *rows("E.", "Attach", page=1),
         *rows(full("To move an Aura onto"), "another object.", page=2)],
        f"A.\nB.\nC.\nD.\nE.\nAttach\n{full('To move an Aura onto')} another object."),
    "a page ended a line early before its paragraph's last two lines (a widow) wrapped": (
        [*rows("A.", "B.", "C.", "D."), *rows("E.", "E2.", full("the stack."), page=1),
         *rows(full("(See rule 410.) Then"), "players act.", page=2),
         line("F.", 3, page=2)],
        f"A.\nB.\nC.\nD.\nE.\nE2.\n{full('the stack.')} {full('(See rule 410.) Then')} "
        "players act.\n\nF."),
    # where the lowest page ends is where a page's text may end: most pages end a line
    # above it (their last line a sentence's, an empty line below it at the page's foot)
    "a page with room for another line after a sentence's end had an empty line there": (
        [*rows("A.", "B.", "C.", "D.", "E.", page=0),
         *[line(text, row, page) for page, name in enumerate(NAMES, start=1) for row, text in
           enumerate((name.title(), f"{name} is a term.", f"See {name}.", full(f"{name} ends.")))
           ]],
        "A.\nB.\nC.\nD.\nE.\n"
        + "\n\n".join(f"{name.title()}\n{name} is a term.\nSee {name}.\n{full(f'{name} ends.')}"
                      for name in NAMES)),
}


@pytest.mark.parametrize("case", list(CASES))
def test_printed_lines_make_paragraphs(case):
    lines, text = CASES[case]
    assert paragraphs(lines) == text


def test_a_line_pdfium_runs_into_the_next_is_split_where_its_baseline_changes():
    """PDFium gives "… the Magic game. 1. A player draws …" as one line at times (the
    2006 PDF): its characters stand on two baselines, a superscript's a little off one."""
    text = "Draw has two meanings in the Magic game. 1. A player draws.\r\nNext line™"
    second = text.index("1. A player")
    mark = text.index("™")

    def baseline(at: int) -> float:
        return 100.0 - (PITCH if second <= at < mark - 11 else 0) + (3.0 if at == mark else 0)

    bounds = _physical_lines(text)
    lines = [text[start:end] for start, end in
             _baseline_lines(text, bounds, baseline, lambda at: SIZE)]
    assert lines == ["Draw has two meanings in the Magic game. ", "1. A player draws.",
                     "Next line™"]
