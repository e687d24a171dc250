"""Hard-wrapped text: a release saved with its line breaks (2003-10-01 … 2004-02-01, Word's
"text with line breaks"), each paragraph broken into lines as a page prints it. A wrap is
layout, not text: a wrapped paragraph is read as its other forms print it, one paragraph.

What tells such a file, and a wrap from a paragraph's end, is its layout:
- the file: its lines stop at a width a printed line has (the longest lines of a release
  saved without wraps are whole paragraphs, hundreds of characters), and many lines come
  close to that width;
- a wrap: the line before is full (the next line's first word would not have fit on it:
  a word processor breaks a line only then; char widths differ with the font, so a line
  is full from two thirds of the file's width on), the next line is not indented (these
  files indent a paragraph that continues a rule or an entry), and, where the file marks
  its wraps, the line ends with the space it wrapped at or after a hyphen or a dash (its
  paragraphs end with neither).

A wrapped line joins with the space it wrapped at, or with none after a hyphen or a dash
that belongs to the word ("State-⏎Based" is "State-Based", "occurs—⏎unless"); a spaced
dash ("Artifact —⏎Equipment") keeps its space, and so does a hyphen shared with a later
word ("power-⏎and toughness-changing").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from .cr_lines import Line

# characters after which a line wraps with no space, but a dash spaced on its left
# (U+FFFE: the hyphen PDFium writes where it joined two lines of a word broken over them)
DASHES = tuple("-‐‑‒–—\ufffe")
# a dash with a space before it: "Artifact —", "Artifact --", "Creature -" (typed so)
_SPACED_DASH = re.compile(r"\s([-‐‑‒–—]+)$")
HYPHENS = tuple("-‐‑\ufffe")
# a hyphen at a line's end before these words is shared with a later word ("power- and
# toughness-changing effects", "pre- or postcombat"): a space stood after it
_SHARED = re.compile(r"\s*(?:and|or|nor|to)\s")
MAX_WIDTH = 160  # characters a printed line of a release holds fewer of
SAMPLE = 200  # lines a file needs before its widths tell anything
WIDTH_SHARE = 0.99  # the file's width: the length this share of its lines stay within
NEAR, NEAR_SHARE = 0.75, 0.25  # this share of the lines come this close to the width
FULL = 2 / 3  # a line and the next word past this share of the width fill a line
MARKED = 0.5  # share of a file's full lines before a continuation that end with a mark
ENDS_SENTENCE = re.compile(r"[.!?:][”\"’')\]]*$")
# a paragraph a text release starts on a new line: a numbered rule, a section or chapter,
# an example
_OPENS_PARAGRAPH = re.compile(r"(?:\d{3}\.\d+[a-z]?\.?|\d{3}\.|\d\.|Example:)\s")


def opens_paragraph(before: str, line: str) -> bool:
    """Whether `line` opens a numbered rule or an example after a sentence's end in
    `before`: a paragraph, where the layout cannot tell (a full line before it, or one
    ending with a space, as some paragraphs do)."""
    return bool(_OPENS_PARAGRAPH.match(line.lstrip()) and ENDS_SENTENCE.search(before.rstrip()))


def wrapped_at(text: str, after: str = "") -> str:
    """What stood where a line of `text` wrapped into the line `after`: a space, or
    nothing after a hyphen or a dash; a dash with a space before it (a spaced dash,
    "Artifact — Equipment", "Creature -- Goblin") has one after it too, which the line
    may not show (a minus sign before its number has none: "gets -⏎1/-1"), and so does
    a hyphen the words it qualifies share ("power- and toughness-changing")."""
    text = text.rstrip()
    if not text.endswith(DASHES):
        return " "
    spaced = _SPACED_DASH.search(text)
    if spaced:  # a minus sign before its number is none ("gets -⏎1/-1")
        return "" if spaced[1] == "-" and after.lstrip()[:1].isdigit() else " "
    return " " if text.endswith(HYPHENS) and _SHARED.match(after) else ""


@dataclass(frozen=True)
class Wrapping:
    """How a hard-wrapped file breaks its lines: its width, and whether a wrapped line
    ends with the space it wrapped at (or a hyphen or a dash) while a paragraph's last
    line does not."""

    width: int
    marks: bool

    def join(self, before: str, line: str) -> str | None:
        """What joins `line` (as printed, its indent kept) to the line `before` it (its
        trailing spaces kept) when `before` wrapped into it: " " or ""; None when `line`
        opens a paragraph of its own."""
        if not line or line[0].isspace():
            return None
        text = before.rstrip()
        if not text or not self._full(text, line) or opens_paragraph(text, line):
            return None
        if before[-1].isspace():
            return " "  # it wrapped at that space (a hyphen before it is shared)
        if self.marks and not text.endswith(DASHES):
            return None
        return wrapped_at(text, line)

    def _full(self, text: str, line: str) -> bool:
        """Whether the first word of `line` would not have fit after `text`."""
        word = line.split(None, 1)[0]
        return len(text) + 1 + len(word) > FULL * self.width


def wrapping(lines: Sequence[Line]) -> Wrapping | None:
    """How `lines` wrap, or None when they are not hard-wrapped (one paragraph a line)."""
    if len(lines) < SAMPLE:
        return None
    # a file of whole paragraphs has more long lines than the width lets through within
    # its first lines: it is told at once, its lengths never sorted
    allowed, longer = (1 - WIDTH_SHARE) * len(lines), 0
    for _, line in lines:
        longer += len(line) > MAX_WIDTH
        if longer > allowed:
            return None
    lengths = sorted(len(line.rstrip()) for _, line in lines if line and not line.isspace())
    if len(lengths) < SAMPLE:
        return None
    width = lengths[int(WIDTH_SHARE * (len(lengths) - 1))]
    if width > MAX_WIDTH:
        return None
    near = len(lengths) - next(i for i, n in enumerate(lengths) if n >= NEAR * width)
    if near < NEAR_SHARE * len(lengths):
        return None
    # the full lines a line continues that do not end a sentence wrapped: whether they
    # end with a space (or a hyphen or a dash) tells whether this file marks its wraps
    wraps = marked = 0
    for (_, before), (_, line) in pairwise(lines):
        text = before.rstrip()
        if (line and not line[0].isspace() and text and len(text) >= NEAR * width
                and not ENDS_SENTENCE.search(text)):
            wraps += 1
            marked += before[-1].isspace() or text.endswith(DASHES)
    return Wrapping(width=width, marks=bool(wraps) and marked >= MARKED * wraps)
