"""The lines of a judges' policy document (the Magic Tournament Rules, the Infraction
Procedure Guide) as the text layer of its PDF gives them, read into paragraphs.

Two layouts are read:
- the text layer as it reads out line by line: paragraphs hard-wrapped as printed, page
  numbers and the table of contents inline, a page's first line opening with a space;
- one paragraph a line, as rulesdb's PDF reader (`pdf_lines`) lays a PDF out (a line longer
  than any printed one tells it).

Page numbers (lines holding only the next page's number) and the table of contents (lines
with dot leaders, "CONTENTS") are page furniture: they end up in no paragraph. Joining a
hard-wrapped paragraph again, a line break is a space, none after a hyphen or a dash
(`cr_wraps.wrapped_at`) nor before an ordinal's suffix set as a superscript ("8⏎th").

What starts a paragraph where no empty line stands before it: a bullet, a numbered or
lettered list item, a heading the caller names (the table of contents' and the sub-headings
a document prints above its parts), a run-in label ("Upgrade:"), a table row (cells set
apart by runs of spaces), a line opening with a space inside a page (a break set by hand);
at a page turn, the end of a sentence before it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass

from .cr_wraps import wrapped_at

# a printed line is never this long: a text with such lines has a paragraph a line
PARAGRAPH_A_LINE = 250
_PAGE_NUMBER = re.compile(r"[ \t]*(\d{1,3})[ \t]*")
LEADERS = re.compile(r"\.{4,}|(?:\. ){4,}")
_CONTENTS = re.compile(r"(?:table of )?contents", re.IGNORECASE)
BULLET = re.compile(r"[•●▪◦]\s*")
LIST_ITEM = re.compile(r"(?:\d{1,2}|[A-Z])\.\s+(?=\S)")
RUN_IN = re.compile(r"(?:Upgrade|Downgrade|Examples?|Note):")
# a list of changes: "3.7: New sets added.", "Appendix D: Upcoming set added.", each under
# the date of its version set on a line of its own
CHANGE = re.compile(r"(?:\d{1,2}\.\d{1,2}|Appendix [A-Z]):\s")
DATE_LINE = re.compile(r"[A-Z][a-z]+ \d{1,2}, \d{4}")
_SENTENCE_END = re.compile(r"[.!?:;][”\"’')\]]*$")
_ORDINAL = re.compile(r"(?:st|nd|rd|th)\b")
GAP = re.compile(r"(?<=\S)[ \t]{2,}(?=\S)")
ROW_WIDTH = 60  # a line with one gap is a table row when it is this short


@dataclass(frozen=True)
class Line:
    """One line of the source: its text without the spaces around it, and where that text
    stands."""

    text: str
    start: int
    end: int
    indented: bool = False  # the line opens with a space


@dataclass(frozen=True)
class Paragraph:
    """A paragraph read from one line or several: its text, spaced as printed."""

    lines: tuple[Line, ...]
    text: str
    page_turn: bool = False  # it opens a page

    @property
    def span(self) -> tuple[int, int]:
        """From its first character to its last."""
        return self.lines[0].start, self.lines[-1].end


@dataclass(frozen=True)
class Furniture:
    """A line kept out of every paragraph: a page number, a line of the contents."""

    line: Line
    reason: str


def source_lines(text: str) -> list[Line | None]:
    """Each line of `text` (None for one holding only whitespace)."""
    out: list[Line | None] = []
    offset = 0
    for raw in text.split("\n"):
        stripped = raw.strip()
        if stripped:
            start = offset + raw.index(stripped[0])
            out.append(Line(stripped, start, start + len(stripped), raw[:1].isspace()))
        else:
            out.append(None)
        offset += len(raw) + 1
    return out


def page_numbers(lines: list[Line | None]) -> set[int]:
    """The indexes of the lines that hold only a page number: the numbers 1, 2, 3…, each
    on its own line, in order (a number out of sequence is text)."""
    found: set[int] = set()
    expected = 1
    for index, line in enumerate(lines):
        if line is None:
            continue
        match = _PAGE_NUMBER.fullmatch(line.text)
        if match and int(match[1]) in (expected, expected + 1):
            found.add(index)
            expected = int(match[1]) + 1
    return found


def contents_lines(lines: list[Line | None], skip: Collection[int]) -> list[int]:
    """The indexes of the table of contents' lines: its heading ("CONTENTS"), every line
    with dot leaders and the lines between them (an entry wrapped over two lines)."""
    leaders = [i for i, line in enumerate(lines) if line is not None and i not in skip
               and LEADERS.search(line.text)]
    if not leaders:
        return []
    first, last = leaders[0], leaders[-1]
    heading = next((i for i in range(first - 1, max(-1, first - 4), -1)
                    if lines[i] is not None and i not in skip
                    and _CONTENTS.fullmatch(lines[i].text)), None)  # type: ignore[union-attr]
    start = first if heading is None else heading
    return [i for i in range(start, last + 1) if lines[i] is not None and i not in skip]


def is_row(text: str) -> bool:
    """Whether a line is a table row: cells set apart by runs of spaces (a short line with
    one such run, or any line with two)."""
    marker = BULLET.match(text) or LIST_ITEM.match(text)
    body = text[marker.end():] if marker else text
    gaps = len(GAP.findall(body))
    return gaps >= 2 or (gaps == 1 and len(body) <= ROW_WIDTH)


def opens_paragraph(line: Line, heading: Callable[[str], bool]) -> bool:
    """Whether a line starts a paragraph of its own whatever stands before it."""
    text = line.text
    return bool(BULLET.match(text) or LIST_ITEM.match(text) or RUN_IN.match(text)
                or CHANGE.match(text) or stands_alone(text, heading))


def stands_alone(text: str, heading: Callable[[str], bool]) -> bool:
    """Whether a line is a paragraph of its own: a heading, a table row, a date."""
    return bool(heading(text) or is_row(text) or DATE_LINE.fullmatch(text))


def fold(text: str) -> str:
    """A heading as headings are compared: case, spacing and dashes folded, no trailing
    colon."""
    text = re.sub(r"\s*[—–]\s*|\s+", lambda m: "—" if m.group().strip() else " ", text)
    return text.rstrip(" :").casefold()


def paragraphs(lines: list[Line | None], pages: Collection[int],
               heading: Callable[[str], bool], skip: Collection[int] = ()) -> list[Paragraph]:
    """The paragraphs of `lines`, the page-number lines `pages` left out and the lines
    `skip` (read by the caller: a title, the contents) ending any paragraph; `heading` tells
    a line that is a heading (it stands alone on its line)."""
    if any(line is not None and len(line.text) > PARAGRAPH_A_LINE for line in lines):
        return [Paragraph((line,), spaced(line.text, not heading(line.text)))
                for index, line in enumerate(lines)
                if line is not None and index not in pages and index not in skip]
    out: list[Paragraph] = []
    current: list[Line] = []
    joined: list[str] = []
    turned = opened_by_turn = ends_alone = False
    # the empty lines about a page number are the page's: those before it too
    next_text: dict[int, int | None] = {}
    upcoming = None
    for index in range(len(lines) - 1, -1, -1):
        next_text[index] = upcoming
        if lines[index] is not None:
            upcoming = index

    def close() -> None:
        if current:
            text = "".join(joined)
            out.append(Paragraph(tuple(current), spaced(text, not heading(text)),
                                 opened_by_turn))
            current.clear()
            joined.clear()

    for index, line in enumerate(lines):
        if index in skip:
            close()
            turned = ends_alone = False
            continue
        if index in pages:
            turned = True
            continue
        if line is None:
            if not turned and next_text[index] not in pages:
                close()
            continue
        opens = opens_paragraph(line, heading)
        if current:
            before = current[-1].text
            if turned:
                new = opens or ends_alone or bool(_SENTENCE_END.search(before))
            else:
                new = opens or ends_alone or line.indented
            if new:
                close()
            else:
                joined.append("" if before[-1:].isdigit() and _ORDINAL.match(line.text)
                              else wrapped_at(before, line.text))
        if not current:
            opened_by_turn = turned
        current.append(line)
        joined.append(line.text)
        ends_alone = stands_alone(line.text, heading)
        turned = False
    close()
    return out


def spaced(text: str, cells: bool = True) -> str:
    """A paragraph's text with its spacing made plain: a table row's cells set apart by a
    tab (unless not `cells`: a heading), every other run of spaces one space."""
    if cells and is_row(text):
        bullet, item = BULLET.match(text), LIST_ITEM.match(text)
        head = "• " if bullet else item.group().rstrip() + " " if item else ""
        marker = bullet or item
        body = text[marker.end():] if marker else text
        return head + "\t".join(" ".join(cell.split()) for cell in GAP.split(body))
    text = " ".join(text.split())
    return BULLET.sub("• ", text, count=1) if BULLET.match(text) else text
