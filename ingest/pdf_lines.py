"""A PDF's printed lines laid out again as the paragraphs they were typeset from: the text a
text release has, one paragraph a line, an empty line where the page shows an empty one.

What tells a wrapped line from the end of a paragraph is where the lines stand on the page,
not what they say:
- a line set further below the one before than the text's line pitch has an empty line
  (an empty paragraph, or space between paragraphs) before it;
- otherwise the next line continues this one's paragraph only when its first word would
  not have fit at the end of this one (a word processor wraps a line only then): a line
  ending far from the right margin ends its paragraph, however the next line reads ("See
  rule⏎202.2." is a wrapped line that looks like a new rule, a glossary heading a short
  line that looks like a wrapped one).
Where a page turns, the space the page left tells: a page's first line set lower than
pages start has an empty line before it; a page that ends a line or more above where
pages end was ended early: by the end of a paragraph (an empty line, a heading kept with
what follows it) when its last line ends a sentence, else by a paragraph moved on so that
no line of it stands alone. Where the PDF ends its wrapped lines with a space and its
paragraphs without one (as the lines before its empty ones tell), a page's last line
ending with a space wrapped.
The case the page cannot tell, a paragraph ending on a full line with the next one set
right under it, is told by the text: the next line opens a numbered rule or an example
after a sentence's end, or opens with a space (a line is wrapped at a space, so one that
starts with a space was broken by hand).

A wrapped line's break is a space, none after a hyphen or a dash ("turn-⏎based",
"Awaken N—⏎[cost]") but a spaced dash ("Artifact —⏎Equipment"); the hyphen PDFium marks
as one where it joined two lines (U+FFFE) is a hyphen, and its lines are two. Pieces of text
set on one printed line are one line. Lines printed at the same height on most pages (a
running head, a page number) are page furniture.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from statistics import median

# the hyphen PDFium writes where it took a line's last word for one broken over two lines
HYPHEN_JOINED = "\ufffe"
# characters after which a line wraps with no space, but a dash spaced on its left
_DASHES = tuple("-‐‑‒–—" + HYPHEN_JOINED)
_SPACED_DASHES = (" –", " —")
# a paragraph a text release starts on a new line: a numbered rule, a section or chapter,
# an example
_OPENS_PARAGRAPH = re.compile(r"(?:\d{3}\.\d+[a-z]?\.?|\d{3}\.|\d\.|Example:)\s")
_ENDS_SENTENCE = re.compile(r"[.!?:][”\"’')\]]*$")
_DIGITS = re.compile(r"\d+")
# room a word needs beyond its own width to fit at the end of a line, in heights of the
# line's font: a space, and slack for how far the widest lines end
SPACE = 1 / 3
PITCH_COUNT, PITCH_SHARE = 2, 0.05  # a line pitch is found this often (and this share)
SAME_LINE = 0.25  # baselines closer than this share of a pitch are one printed line
BLANK_LINE = 1.5  # a gap of this many line pitches (and more) holds an empty line
TOP_SLACK = 0.5  # pitches a page's first line may stand below the usual top without one
EARLY = 0.9  # pitches above the usual bottom a page's last line stands when it ended early
# paragraph ends with a space a PDF may have and still mark its wraps with one
UNMARKED_ENDS = 0.05
FURNITURE_SHARE = 0.5  # lines at one place on this share of the pages are page furniture
FURNITURE_PAGES = 3  # ... and on at least this many
PARAGRAPH, EMPTY_LINE = "\n", "\n\n"


@dataclass(frozen=True)
class PrintedLine:
    """One line of a page as the PDF's text gives it, and where it stands (PDF units,
    y growing upwards)."""

    page: int
    text: str  # without its line break; may end with the space the line wrapped at
    left: float  # left edge of the first character
    right: float  # right edge of the last character that is not a space
    baseline: float
    size: float  # height of the first character's font
    first_word: float  # width of the first word (to a space, or through a hyphen)


@dataclass(frozen=True)
class _Page:
    """What the document's pages have in common: the pitch of their lines, where lines
    end at the most, where a page's first line stands and its last one at the lowest."""

    pitch: float
    margin: float
    top: float
    bottom: float
    marks_wraps: bool  # a line that wraps ends with a space, one that ends a paragraph not


def paragraphs(lines: Sequence[PrintedLine]) -> str:
    """The text of `lines` (in reading order), one paragraph a line."""
    lines = _without_furniture(lines)
    if not lines:
        return ""
    page = _measure(lines)
    out: list[str] = [_text(lines[0])]
    for before, line in pairwise(lines):
        turn = _same_page if line.page == before.page else _page_turn
        out.append(turn(before, line, page))
        out.append(_text(line))
    return "".join(out)


def _same_page(before: PrintedLine, line: PrintedLine, page: _Page) -> str:
    """What stands between two lines of one page."""
    if abs(line.baseline - before.baseline) < SAME_LINE * page.pitch and \
            line.left >= before.right:
        return " "  # the rest of the same printed line (PDFium broke it at a wide gap)
    if line.baseline >= before.baseline:
        return PARAGRAPH  # a new column, or text set out of reading order
    if before.baseline - line.baseline >= BLANK_LINE * page.pitch:
        return EMPTY_LINE
    if _fits(before, line, page) or _opens_paragraph(before, line) or _forced(line):
        return PARAGRAPH
    return wrapped_at(before.text)


def _page_turn(before: PrintedLine, line: PrintedLine, page: _Page) -> str:
    """What stands between a page's last line and the next page's first."""
    if line.baseline < page.top - TOP_SLACK * page.pitch:
        return EMPTY_LINE
    early = before.baseline - page.bottom >= EARLY * page.pitch
    if _fits(before, line, page) or _forced(line):
        return EMPTY_LINE if early else PARAGRAPH
    if page.marks_wraps and before.text[-1:].isspace():
        return wrapped_at(before.text)
    # a page ended early after a sentence's end ended a paragraph; one ended early inside
    # a sentence moved the rest of its paragraph on
    if _ENDS_SENTENCE.search(before.text.rstrip()):
        if early:
            return EMPTY_LINE
        if _OPENS_PARAGRAPH.match(line.text.lstrip()):
            return PARAGRAPH
    return wrapped_at(before.text)


def _fits(before: PrintedLine, line: PrintedLine, page: _Page) -> bool:
    """Whether the first word of `line` would have fit at the end of `before`."""
    return before.right + SPACE * before.size + line.first_word <= page.margin


def _forced(line: PrintedLine) -> bool:
    """Whether the break before `line` was set by hand: a line that opens with a space
    was not wrapped at that space."""
    return line.text[:1].isspace()


def _opens_paragraph(before: PrintedLine, line: PrintedLine) -> bool:
    """Whether `line` opens a numbered rule or an example after a sentence's end."""
    return bool(_OPENS_PARAGRAPH.match(line.text.lstrip())
                and _ENDS_SENTENCE.search(before.text.rstrip()))


def wrapped_at(text: str) -> str:
    """What stood where a line of `text` wrapped: a space, or nothing after a hyphen or a
    dash; a dash with a space before it (a spaced dash, "Artifact — Equipment") has one
    after it too, which the line may not show."""
    if not text.endswith(_DASHES):
        return " "
    return " " if text.endswith(_SPACED_DASHES) else ""


def _text(line: PrintedLine) -> str:
    """The line's text without the spaces around it, a hyphen marked as ending a line
    (U+FFFE) written as the hyphen it is."""
    return line.text.strip().replace(HYPHEN_JOINED, "-")


def _measure(lines: Sequence[PrintedLine]) -> _Page:
    """What the pages of `lines` have in common (see `_Page`)."""
    pairs = list(pairwise(lines))
    # the least distance between two baselines of a page that is common (to a quarter
    # point): lines of one paragraph are the closest, whether or not they are the most
    gaps = Counter(round(4 * (a.baseline - b.baseline)) / 4
                   for a, b in pairs if a.page == b.page and a.baseline > b.baseline)
    common = [gap for gap, count in gaps.items()
              if count >= max(PITCH_COUNT, PITCH_SHARE * gaps.total())]
    pitch = min(common) if common else median(line.size for line in lines)
    firsts = sorted([lines[0].baseline] + [b.baseline for a, b in pairs if a.page != b.page])
    lasts = sorted([a.baseline for a, b in pairs if a.page != b.page] + [lines[-1].baseline])
    # the lines before an empty one end paragraphs: whether they end without the space
    # wrapped lines end with tells whether this PDF's trailing spaces mark its wraps
    ends = [a.text[-1:].isspace() for a, b in pairs
            if a.page == b.page and a.baseline - b.baseline >= BLANK_LINE * pitch]
    return _Page(pitch=pitch,
                 # but for an outlier in a hundred, in ten
                 margin=_quantile(sorted(line.right for line in lines), 0.99),
                 top=_quantile(firsts, 0.9), bottom=_quantile(lasts, 0.1),
                 marks_wraps=bool(ends) and sum(ends) <= UNMARKED_ENDS * len(ends))


def _quantile(values: list[float], share: float) -> float:
    """The value of sorted `values` below which `share` of them lie."""
    return values[min(len(values) - 1, int(len(values) * share))]


def _without_furniture(lines: Sequence[PrintedLine]) -> list[PrintedLine]:
    """`lines` less the page furniture: a line whose text (its numbers aside) stands at
    the same height on most pages, as a running head or a page number does."""
    pages = len({line.page for line in lines})
    if pages < FURNITURE_PAGES:
        return list(lines)
    needed = max(FURNITURE_PAGES, FURNITURE_SHARE * pages)

    places = [(_DIGITS.sub("#", line.text.strip()), round(line.baseline)) for line in lines]
    seen = Counter(places)
    return [line for line, place in zip(lines, places, strict=True) if seen[place] < needed]
