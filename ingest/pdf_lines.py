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
  line that looks like a wrapped one);
- a line set at a first-line indent (where the document's wrapped lines always go on
  further left: the 2004 and 2006 releases indent a second paragraph) opens a paragraph.
Where a page turns, the space the page left tells: a page's first line set lower than
pages start has an empty line before it; a page that ends a line or more above the lowest
page end (another line would have fitted) was ended early: by the end of a paragraph (an
empty line, a heading kept with what follows it) when its last line ends a sentence and no
widow was kept from the next page (a page a line early before its paragraph's last two
lines), by a paragraph after it moved on whole when its last line ends none (a heading),
else by a paragraph moved on so that no line of it stands alone. Where the PDF ends its
wrapped lines with a space and its paragraphs without one (as the lines before its empty
ones tell), a page's last line ending with a space wrapped.
The case the page cannot tell, a paragraph ending on a full line with the next one set
right under it, is told by the text: the next line opens a numbered rule or an example
after a sentence's end, or opens with a space (a line is wrapped at a space, so one that
starts with a space was broken by hand).

A wrapped line's break is a space, none after a hyphen or a dash ("turn-⏎based",
"Awaken N—⏎[cost]") but a spaced dash ("Artifact —⏎Equipment") and a hyphen shared with
a later word ("power-⏎and toughness-"): `cr_wraps.wrapped_at`, as hard-wrapped text files
have it; the hyphen PDFium marks as one where it joined two lines (U+FFFE) is a hyphen, and
its lines are two. Pieces of text set on one printed line are one line. Lines printed at
the same height on most pages (a running head, a page number) are page furniture.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from statistics import median

from .cr_wraps import ENDS_SENTENCE, opens_paragraph, wrapped_at

# the hyphen PDFium writes where it took a line's last word for one broken over two lines
HYPHEN_JOINED = "\ufffe"
_DIGITS = re.compile(r"\d+")
# room a word needs beyond its own width to fit at the end of a line, in heights of the
# line's font: a space, and slack for how far the widest lines end
SPACE = 1 / 3
PITCH_COUNT, PITCH_SHARE = 2, 0.05  # a line pitch is found this often (and this share)
SAME_LINE = 0.25  # baselines closer than this share of a pitch are one printed line
BLANK_LINE = 1.5  # a gap of this many line pitches (and more) holds an empty line
TOP_SLACK = 0.5  # pitches a page's first line may stand below the usual top without one
SAME_SIZE = 0.1  # share of the text's size a line's may differ by and still be the text's
EARLY = 0.9  # pitches above the lowest page end a page's last line stands when ended early
# paragraph ends with a space a PDF may have and still mark its wraps with one
UNMARKED_ENDS = 0.05
INDENT = 1.0  # points a line stands further right or left than another to be indented
INDENT_COUNT = 3  # wrapped lines a first-line indent is found at, at the least
INDENT_SLIP = 0.05  # share of them that may go on where they stand (a slip of the PDF)
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
    # where a paragraph's first line stands further right than the rest (rounded points):
    # a line there opens a paragraph that continues the one before (a rule's or a glossary
    # entry's second paragraph)
    indents: frozenset[int] = frozenset()


def paragraphs(lines: Sequence[PrintedLine]) -> str:
    """The text of `lines` (in reading order), one paragraph a line."""
    lines = _without_furniture(lines)
    if not lines:
        return ""
    page = _measure(lines)
    out: list[str] = [_text(lines[0])]
    for at, (before, line) in enumerate(pairwise(lines), start=2):
        if line.page == before.page:
            out.append(_same_page(before, line, page))
        else:
            out.append(_page_turn(before, line, lines[at : at + 2], page))
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
    if _fits(before, line, page) or opens_paragraph(before.text, line.text) or \
            _forced(before, line, page):
        return PARAGRAPH
    return wrapped_at(before.text, line.text)


def _page_turn(before: PrintedLine, line: PrintedLine, after: Sequence[PrintedLine],
               page: _Page) -> str:
    """What stands between a page's last line and the next page's first (`after`: the
    two lines that follow it)."""
    if line.baseline < page.top - TOP_SLACK * page.pitch:
        return EMPTY_LINE
    early = before.baseline - page.bottom >= EARLY * page.pitch
    if _fits(before, line, page) or _forced(before, line, page):
        # a page ended early after a line that ends no sentence (a heading), or before an
        # indented paragraph (which continues the one before it), ended there because the
        # paragraph after it moved on whole, as no line of it may stand alone
        ends = ENDS_SENTENCE.search(before.text.rstrip()) is not None
        return EMPTY_LINE if early and ends and not _indented(before, line, page) \
            else PARAGRAPH
    if page.marks_wraps and before.text[-1:].isspace():
        return wrapped_at(before.text, line.text)
    # a page ended early after a sentence's end ended a paragraph; one ended early inside
    # a sentence moved the rest of its paragraph on, and so did one a line early before
    # its paragraph's last two lines (no last line may stand alone atop a page)
    if ENDS_SENTENCE.search(before.text.rstrip()) and early and \
            not _widow(before, line, after, page):
        return EMPTY_LINE
    if opens_paragraph(before.text, line.text):
        return PARAGRAPH
    return wrapped_at(before.text, line.text)


def _widow(before: PrintedLine, line: PrintedLine, after: Sequence[PrintedLine],
           page: _Page) -> bool:
    """Whether a page ended a line early so that the last line of a paragraph would
    not stand alone atop the next: `line` and the line after it end a paragraph there,
    and the page had room for one line more, not two."""
    if before.baseline - page.bottom >= (EARLY + 1) * page.pitch or not after:
        return False
    second = after[0]
    if second.page != line.page or _same_page(line, second, page) in (PARAGRAPH, EMPTY_LINE):
        return False
    return len(after) < 2 or after[1].page != second.page or \
        _same_page(second, after[1], page) in (PARAGRAPH, EMPTY_LINE)


def _fits(before: PrintedLine, line: PrintedLine, page: _Page) -> bool:
    """Whether the first word of `line` would have fit at the end of `before`."""
    return before.right + SPACE * before.size + line.first_word <= page.margin


def _forced(before: PrintedLine, line: PrintedLine, page: _Page) -> bool:
    """Whether the break before `line` was set by hand: a line that opens with a space
    was not wrapped at that space; one set at a first-line indent opens a paragraph."""
    return line.text[:1].isspace() or _indented(before, line, page)


def _indented(before: PrintedLine, line: PrintedLine, page: _Page) -> bool:
    """Whether `line` stands at a first-line indent, further right than the line before."""
    return round(line.left) in page.indents and line.left > before.left + INDENT


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
    lasts = [a for a, b in pairs if a.page != b.page] + [lines[-1]]
    # the lines before an empty one end paragraphs: whether they end without the space
    # wrapped lines end with tells whether this PDF's trailing spaces mark its wraps
    ends = [a.text[-1:].isspace() for a, b in pairs
            if a.page == b.page and a.baseline - b.baseline >= BLANK_LINE * pitch]
    page = _Page(pitch=pitch,
                 # but for an outlier in a hundred, in ten
                 margin=_quantile(sorted(line.right for line in lines), 0.99),
                 top=_quantile(firsts, 0.9), bottom=_lowest(lasts),
                 marks_wraps=bool(ends) and sum(ends) <= UNMARKED_ENDS * len(ends))
    return replace(page, indents=_indents(pairs, page))


def _indents(pairs: Sequence[tuple[PrintedLine, PrintedLine]], page: _Page) -> frozenset[int]:
    """Where the document sets a paragraph's first line further right than its others
    (see `_Page.indents`): a place whose lines, when they wrap, always go on further left
    (a hanging indent's lines go on where they stand or further right)."""
    back: Counter[int] = Counter()
    other: Counter[int] = Counter()
    for a, b in pairs:
        if a.page != b.page or not 0 < a.baseline - b.baseline < BLANK_LINE * page.pitch \
                or _fits(a, b, page):
            continue
        place = round(a.left)
        if b.left < a.left - INDENT:
            back[place] += 1
        else:
            other[place] += 1
    return frozenset(place for place, count in back.items()
                     if count >= INDENT_COUNT and other[place] <= INDENT_SLIP * count)


def _lowest(lasts: list[PrintedLine]) -> float:
    """Where the text of a page ends at the lowest: the lowest of the pages' last lines
    `lasts` set in the text's size (small print, a footnote, may stand lower)."""
    size = median(line.size for line in lasts)
    return min(line.baseline for line in lasts if abs(line.size - size) <= SAME_SIZE * size)


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
