"""Shared pieces of the prose-rulebook parsers: blocks, labels, run-in entries, the tree.

Label scheme (the `number` of every rulebook `Rule`; used in URLs, so only [a-z0-9.-]):

- a section is ``s<N>-<slug of its title>``: "SECTION 3: TURN STRUCTURE" → ``s3-turn-structure``,
  "Section II: Expanding Your Knowledge" → ``s2-expanding-your-knowledge`` (Roman numerals
  are written in Arabic digits);
- a heading or run-in keyword entry is ``<parent>.<slug of its title>``, the printed number or
  letter left out ("3. COMBAT PHASE" → ``s3-turn-structure.combat-phase``, "Banding:" →
  ``….advanced-creature-abilities.banding``); a slug already used under the same parent gets
  ``-2``, ``-3``…;
- a paragraph is ``<parent>.p<N>``, a list item ``<parent>.i<N>`` and a lost illustrated
  example ``<parent>.ex<N>``, each N counted from 1 within its parent and per kind.

`parent` is the label of the enclosing section, heading or keyword entry, so a label depends
only on the heading path and on the text under the same parent: editing text under another
heading never changes it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from .model import Glyph, Rule, Span

_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_NON_SLUG = re.compile(r"[^a-z0-9]+")
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
_SMALL_WORDS = frozenset({"a", "an", "and", "as", "at", "before", "after", "by", "for",
                          "from", "in", "of", "on", "or", "the", "to", "with"})
# A run-in entry: a short label ending in "." or ":" and then the entry's first sentence.
_RUN_IN = re.compile(r"([A-Z][\w'’-]*(?: [\w'’-]+){0,7})([.:]) +(?=[A-Z\"“(*])")
_LOST_SYMBOL = re.compile(r"(?<=\S)(?: {2,}(?=\S)| (?=[.,;)](?:\s|$)))")
_MAX_PERIOD_LABEL_WORDS = 4
_TERMINAL = frozenset('.:;,!?)"”’')


@dataclass(frozen=True)
class Line:
    """One non-blank line of a block: its stripped text and its span in the source."""

    text: str
    start: int
    end: int


@dataclass(frozen=True)
class Block:
    """A run of non-blank lines between blank lines (a printed paragraph, heading or list)."""

    lines: tuple[Line, ...]

    @property
    def text(self) -> str:
        """The lines of the block, stripped, joined with "\\n"."""
        return "\n".join(line.text for line in self.lines)

    @property
    def span(self) -> Span:
        """From the first to the last printed character of the block."""
        return (self.lines[0].start, self.lines[-1].end)

    def tail(self, first: int) -> Block:
        """The block without its first `first` lines."""
        return Block(self.lines[first:])


def split_blocks(text: str) -> list[Block]:
    """The blocks of `text`, in order; whitespace-only lines separate blocks."""
    blocks: list[Block] = []
    cursor = 0
    for chunk_end in [m.start() for m in _BLANK_LINE.finditer(text)] + [len(text)]:
        lines = []
        offset = cursor
        for raw in text[cursor:chunk_end].split("\n"):
            stripped = raw.strip()
            if stripped:
                start = offset + raw.index(stripped[0])
                lines.append(Line(stripped, start, start + len(stripped)))
            offset += len(raw) + 1
        if lines:
            blocks.append(Block(tuple(lines)))
        cursor = chunk_end + 1
    return blocks


def lost_symbol_warnings(text: str) -> list[str]:
    """A note for each place where a converter seems to have dropped a symbol.

    The sign is a run of spaces inside a line ("abilities that have  in the cost") or a
    space before punctuation ("even if it's . Look"); a spaced ellipsis (". . .") is not one.
    """
    notes = []
    for match in _LOST_SYMBOL.finditer(text):
        after = text[match.end():match.end() + 3]
        if after == ". ." or text[match.start() - 1] == ".":
            continue
        context = " ".join(text[max(0, match.start() - 30):match.end() + 20].split())
        notes.append(f"a symbol seems lost at offset {match.start()}: {context!r}")
    return notes


def slugify(title: str) -> str:
    """`title` as a URL-safe slug of [a-z0-9-] ("What's an Effect?" → "whats-an-effect")."""
    ascii_text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    ascii_text = ascii_text.lower().replace("'", "")
    return _NON_SLUG.sub("-", ascii_text).strip("-") or "x"


def roman_to_int(numeral: str) -> int:
    """The value of a Roman numeral ("IV" → 4); ValueError when it is not one."""
    values = [_ROMAN[ch] for ch in numeral.upper()]
    if not values:
        raise ValueError(numeral)
    return sum(-v if i + 1 < len(values) and v < values[i + 1] else v
               for i, v in enumerate(values))


def ends_sentence(text: str) -> bool:
    """Whether `text` ends with sentence punctuation (a heading does not)."""
    return bool(text) and text[-1] in _TERMINAL


def is_title_case(words: str) -> bool:
    """Whether every word but the small ones ("of", "and", …) starts with a capital."""
    parts = words.split()
    return bool(parts) and all(w[0].isupper() or w[0].isdigit() or w in _SMALL_WORDS
                               for w in parts)


@dataclass(frozen=True)
class RunIn:
    """A run-in entry's label ("Banding", printed "Banding:") and where its text starts."""

    title: str
    marker: str
    body_start: int


def run_in(text: str) -> RunIn | None:
    """The run-in label opening `text` ("Banding: Banding is…"), or None."""
    match = _RUN_IN.match(text)
    if not match:
        return None
    if sum(ch.isalpha() for ch in match.group(1)) < 2:
        return None  # "T: Draw a card." is a card's ability, not a label
    # A label closed by a period is a short noun phrase; longer ones are sentences.
    if match.group(2) == "." and len(match.group(1).split()) > _MAX_PERIOD_LABEL_WORDS:
        return None
    return RunIn(match.group(1), match.group(1) + match.group(2), match.end())


def label_of_section(numeral: str, title: str) -> str:
    """The label of a section numbered `numeral` (Arabic or Roman)."""
    number = int(numeral) if numeral.isdigit() else roman_to_int(numeral)
    return f"s{number}-{slugify(title)}"


class TreeBuilder:
    """Builds the labelled rule tree of a prose document from its items in reading order.

    Headings have levels (1 = directly under the section); a keyword entry sits below the
    deepest heading and ends at the next heading or keyword entry. Paragraphs, list items
    and lost examples go to the innermost open node.
    """

    _KEYWORD_LEVEL = 1000

    def __init__(self) -> None:
        self.rules: list[Rule] = []
        self._stack: list[tuple[int, str]] = []
        self._slugs: dict[str | None, set[str]] = {}
        self._counts: dict[tuple[str | None, str], int] = {}

    @property
    def parent(self) -> str | None:
        """The label of the innermost open node."""
        return self._stack[-1][1] if self._stack else None

    def _child_label(self, parent: str | None, slug: str) -> str:
        used = self._slugs.setdefault(parent, set())
        candidate, n = slug, 1
        while candidate in used:
            n += 1
            candidate = f"{slug}-{n}"
        used.add(candidate)
        return f"{parent}.{candidate}" if parent else candidate

    def _counted_label(self, prefix: str) -> tuple[str | None, str]:
        parent = self.parent
        key = (parent, prefix)
        self._counts[key] = self._counts.get(key, 0) + 1
        name = f"{prefix}{self._counts[key]}"
        return parent, f"{parent}.{name}" if parent else name

    def _open(self, level: int, rule: Rule) -> Rule:
        self._stack.append((level, rule.number))
        self.rules.append(rule)
        return rule

    def _close_to(self, level: int) -> None:
        while self._stack and self._stack[-1][0] >= level:
            self._stack.pop()

    def section(self, marker: str, numeral: str, title: str, span: Span) -> Rule:
        """Open a section ("SECTION 3:" + "TURN STRUCTURE"); closes everything open."""
        self._stack.clear()
        label = self._child_label(None, label_of_section(numeral, title))
        return self._open(0, Rule(label, None, "section", title, marker=marker, title=title,
                                  span=span))

    def heading(self, level: int, title: str, span: Span, marker: str = "") -> Rule:
        """Open a heading of `level` (1 = top level inside a section)."""
        self._close_to(level)
        parent = self.parent
        label = self._child_label(parent, slugify(title))
        return self._open(level, Rule(label, parent, "heading", title, marker=marker,
                                      title=title, span=span))

    def keyword(self, entry: RunIn, text: str, span: Span,
                glyphs: tuple[Glyph, ...] = ()) -> Rule:
        """Open a run-in keyword entry; `text` is its first paragraph without the label."""
        self._close_to(self._KEYWORD_LEVEL)
        parent = self.parent
        label = self._child_label(parent, slugify(entry.title))
        return self._open(self._KEYWORD_LEVEL, Rule(label, parent, "keyword", text,
                                                     marker=entry.marker, title=entry.title,
                                                     glyphs=glyphs, span=span))

    def paragraph(self, text: str, span: Span, glyphs: tuple[Glyph, ...] = ()) -> Rule:
        """Add a paragraph to the innermost open node."""
        parent, label = self._counted_label("p")
        rule = Rule(label, parent, "paragraph", text, glyphs=glyphs, span=span)
        self.rules.append(rule)
        return rule

    def list_item(self, marker: str, text: str, span: Span,
                  glyphs: tuple[Glyph, ...] = ()) -> Rule:
        """Add a list item ("•", "-", "1.") to the innermost open node."""
        parent, label = self._counted_label("i")
        rule = Rule(label, parent, "list_item", text, marker=marker, glyphs=glyphs, span=span)
        self.rules.append(rule)
        return rule

    def lost_example(self, marker: str, span: Span) -> Rule:
        """Add the placeholder of an illustrated example the source lost."""
        parent, label = self._counted_label("ex")
        rule = Rule(label, parent, "lost_example", "", marker=marker, span=span)
        self.rules.append(rule)
        return rule


_LIST_LINE = re.compile(r"(•|-|\d+\.)\s+(.*)", re.S)


def list_line(line: Line) -> tuple[str, str, Span] | None:
    """(marker, text, span) when `line` is a list item ("• text", "- text", "2. text")."""
    match = _LIST_LINE.fullmatch(line.text)
    if not match:
        return None
    return match.group(1), match.group(2), (line.start, line.end)
