"""Parser for the late-1990s rulings summary (document id `rulings-1999-04`).

The summary is plain text laid out for print: sections ("A - Abilities" over a dashed
rule), topics ("A.1 - General Rulings on Abilities"), and indented items under a topic —
entries ("  A.1.1 - ..."), rulings ("  A.2.Ruling.1 - ...") and notes ("  Note - ...").
A leading "+" in place of the indentation marks an item new in that version. Items wrap
onto lines indented four spaces, keep running across page breaks (runs of blank lines),
and may hold numbered or lettered lists and columned card lists. Bracketed sources
follow the statements they support.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from .decode import decode
from .model import Document, DocumentMeta, ParseError, Residue, Rule
from .rulings_citations import find_citations

TITLE = "Magic: The Gathering Rulings Summary"

_STRAY_MARKER = re.compile(r"<\|[A-Z_]+[^|\n]*\|>")
_UNDERLINE = re.compile(r"-{10,}")
_SECTION = re.compile(r"(?P<marker>(?P<number>[A-Z]) -) (?P<text>\S.*)")
_TOPIC = re.compile(r"(?P<marker>(?P<number>[A-Z]\.\d+) -) (?P<text>\S.*)")
_ITEM = re.compile(
    r"(?P<marker>(?:(?P<new>\+) |  )(?:(?P<topic>[A-Z]\.\d+)\.(?P<tail>\d+|(?P<word>Rulings?)\.\d+)"
    r"|(?P<note>Note)) -) +(?P<text>\S.*)"
)
# Lines that start an item of a list inside an entry: "1. ...", "a. ...", a set name in
# capitals ("ARABIAN NIGHTS> ..."), or a defined symbol ("K = 32 for ratings ...").
_LIST_ITEM = re.compile(r"(?:\d{1,2}|[a-z])\.\s+\S|[A-Z][A-Z/ ]*[A-Z]> |[A-Z][A-Za-z]{0,11} = \S")
# Card lists set in columns are indented at least this deep.
_TABLE_INDENT = 8
_MID_SENTENCE = re.compile(r"[A-Za-z,;]$")
_SENTENCE_END = re.compile(r"[.!?)\]\"'’:]$")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass
class _Line:
    """One source line: where its content starts and ends, and its indentation."""

    start: int
    end: int
    indent: int
    content: str


@dataclass
class _Open:
    """An item being read: its head fields and its body lines so far."""

    number: str
    parent: str | None
    kind: str
    marker: str
    start: int
    new: bool
    lines: list[_Line] = field(default_factory=list)


def _lines(text: str) -> Iterator[tuple[int, str]]:
    """(offset, line) for every line of `text`, without the newline."""
    offset = 0
    for line in text.split("\n"):
        yield offset, line
        offset += len(line) + 1


def join_body(lines: list[tuple[int, str]]) -> str:
    """The text of an item from its (indent, content) lines: wrapped lines joined with a
    space, list items, table rows and what follows a list on lines of their own.

    The first line is the item's own line (after its marker); continuation lines are
    indented four spaces, list items start with a list label, the wrapped part of a
    list item is indented deeper than its label, and columned card lists deeper still.
    """
    parts = [lines[0][1]]
    item_indent: int | None = None
    in_table = False
    for indent, content in lines[1:]:
        previous = parts[-1]
        if _LIST_ITEM.match(content):
            separator, item_indent, in_table = "\n", indent, False
        elif item_indent is not None and indent > item_indent:
            separator = " "
        elif indent >= _TABLE_INDENT:
            separator, item_indent, in_table = "\n", None, True
        elif in_table:
            separator, in_table = "\n", False
        elif item_indent is not None:
            # A list item may wrap back to the list's own indentation ("Rc = Average
            # rating ... against / that opponent was played)."); text after a finished
            # item is the entry going on.
            separator = " " if _MID_SENTENCE.search(previous) else "\n"
            if separator == "\n":
                item_indent = None
        else:
            separator = " "
        parts.append(separator)
        parts.append(content)
    return "".join(parts)


class _Parser:
    """One pass over the lines of a summary, collecting items, residue and warnings."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.rules: list[Rule] = []
        self.residue: list[Residue] = []
        self.warnings: list[str] = []
        self.open: _Open | None = None
        self.section: str | None = None
        self.topic: str | None = None
        self.notes_in_topic = 0
        self.numbers: set[str] = set()
        self.others: list[str] = []

    def run(self) -> None:
        """Read every line."""
        for offset, line in _lines(self.text):
            stray = _STRAY_MARKER.match(line)
            if stray:
                # The marker may be glued to the heading after it: only the marker is residue.
                self._close()
                self.residue.append(Residue(stray.group(0), "stray marker line",
                                            (offset, offset + stray.end())))
                offset, line = offset + stray.end(), line[stray.end() :]
            self._line(offset, line)
        self._close()

    def _line(self, offset: int, line: str) -> None:
        stripped = line.rstrip()
        if not stripped:
            return
        end = offset + len(stripped)
        if _UNDERLINE.fullmatch(stripped):
            self._close()
            reason = "section underline" if self._after_section() else "rule line"
            self.residue.append(Residue(stripped, reason, (offset, end)))
            return
        if match := _SECTION.fullmatch(stripped):
            self._close()
            self.section, self.topic = match["number"], None
            self._heading(match, "section", None, offset, end)
            return
        if match := _TOPIC.fullmatch(stripped):
            self._close()
            if match["number"].split(".")[0] != self.section:
                self.warnings.append(f"topic {match['number']} stands in section {self.section}")
            self.topic, self.notes_in_topic = match["number"], 0
            self._heading(match, "topic", self.section, offset, end)
            return
        if match := _ITEM.fullmatch(stripped):
            self._close()
            self._start_item(match, offset)
            return
        if stripped.startswith(" ") and self.open is not None:
            indent = len(stripped) - len(stripped.lstrip(" "))
            self.open.lines.append(_Line(offset + indent, end, indent, stripped[indent:]))
            return
        self._close()
        self.residue.append(Residue(stripped, "unrecognized line", (offset, end)))
        self.warnings.append(f"unrecognized line kept as residue: {stripped[:60]!r}")

    def _after_section(self) -> bool:
        return bool(self.rules) and self.rules[-1].kind == "section" and self.topic is None

    def _heading(self, match: re.Match[str], kind: str, parent: str | None, start: int,
                 end: int) -> None:
        number, body = match["number"], match["text"]
        self.rules.append(Rule(
            number=self._unique(number),
            parent=parent,
            kind=kind,
            text=body,
            marker=match["marker"],
            title=body.rstrip(":").rstrip(),
            span=(start, end),
        ))

    def _start_item(self, match: re.Match[str], offset: int) -> None:
        marker = match["marker"].lstrip(" ")
        start = offset + match.start("marker") + len(match["marker"]) - len(marker)
        if self.topic is None:
            raise ParseError("an item stands before any topic heading", start)
        if match["note"]:
            self.notes_in_topic += 1
            number, kind, parent = f"{self.topic}.Note.{self.notes_in_topic}", "note", self.topic
        else:
            tail, parent = match["tail"], match["topic"]
            kind = "entry"
            if match["word"]:
                kind = "ruling"
                if match["word"] != "Ruling":
                    self.warnings.append(
                        f"{parent}.{tail} is printed with {match['word']!r}; numbered as Ruling"
                    )
                    tail = tail.replace(match["word"], "Ruling", 1)
            number = f"{parent}.{tail}"
            if parent != self.topic:
                self.warnings.append(f"{number} stands under topic {self.topic}")
                if parent not in self.numbers:
                    parent = self.topic
        self.open = _Open(self._unique(number), parent, kind, marker, start, bool(match["new"]))
        self.open.lines.append(
            _Line(offset + match.start("text"), offset + match.end(), 4, match["text"])
        )

    def _unique(self, number: str) -> str:
        """`number`, or `number-2`, `-3`… when the source prints the same number again."""
        if number not in self.numbers:
            self.numbers.add(number)
            return number
        count = 2
        while f"{number}-{count}" in self.numbers:
            count += 1
        unique = f"{number}-{count}"
        self.numbers.add(unique)
        self.warnings.append(f"number {number} is printed twice; the later one is {unique}")
        return unique

    def _close(self) -> None:
        item, self.open = self.open, None
        if item is None:
            return
        body = join_body([(line.indent, line.content) for line in item.lines])
        citations, others = find_citations(body)
        self.others.extend(others)
        self.rules.append(Rule(
            number=item.number,
            parent=item.parent,
            kind=item.kind,
            text=body,
            marker=item.marker,
            citations=citations,
            new=item.new,
            span=(item.start, item.lines[-1].end),
        ))


def _meta(rules: list[Rule]) -> DocumentMeta:
    dates = [c.date for rule in rules for c in rule.citations if c.date and _DATE.fullmatch(c.date)]
    newest = max(dates) if dates else None
    date_text = "no date printed (the title page is lost)"
    if newest:
        date_text += f"; the newest dated source cited is {newest}"
    return DocumentMeta(
        kind="rulings_summary",
        title=TITLE,
        effective_date=None,
        date_text=date_text,
        covers=tuple(rule.number for rule in rules if rule.kind == "section"),
    )


def _check_complete(rules: list[Rule]) -> None:
    """Raise ParseError when the text is not a summary or visibly stops early."""
    if not any(rule.kind == "section" for rule in rules):
        raise ParseError("no section heading such as \"A - Abilities\" was found", 0)
    items = [rule for rule in rules if rule.kind in ("entry", "ruling", "note")]
    if not items:
        raise ParseError("no numbered entry such as \"A.1.1 - ...\" was found", 0)
    last = rules[-1]
    if last.kind in ("section", "topic"):
        raise ParseError(f"the document ends with the heading {last.number} and nothing under it",
                         last.span[0])
    if not _SENTENCE_END.search(last.text):
        raise ParseError(f"the last item {last.number} stops mid-sentence", last.span[1])


def parse(data: bytes) -> Document:
    """The rulings summary in `data` as a Document of sections, topics, entries, rulings
    and notes with their bracketed sources.

    Raises ParseError for input that is not a rulings summary or is visibly truncated.
    """
    text = decode(data)
    parser = _Parser(text)
    parser.run()
    _check_complete(parser.rules)
    warnings = [
        "the title page is lost; the title is supplied by the parser",
        *parser.warnings,
    ]
    if parser.others:
        warnings.append(
            f"{len(parser.others)} bracketed text(s) are not sources and stay plain text: "
            + ", ".join(parser.others)
        )
    return Document(
        meta=_meta(parser.rules),
        text=text,
        rules=tuple(parser.rules),
        residue=tuple(parser.residue),
        warnings=tuple(warnings),
    )
