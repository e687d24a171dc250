"""Parsed-document data model shared by every parser.

A parser turns the bytes of one source file into a `Document`. Every item keeps the
span (start, end) of the decoded source text it was read from, and can rebuild that
text from its own fields (`Item.reconstruct`). Together with the residue this makes a
parse checkable for losslessness: `reconstruct_document(doc)` laid side by side with
the source must agree once whitespace is normalized (see `ingest.lossless`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

Span = tuple[int, int]


@dataclass(frozen=True)
class Example:
    """An example attached to a rule; `label` is the printed marker ("Example:")."""

    text: str
    label: str = "Example:"
    span: Span = (0, 0)

    def reconstruct(self) -> str:
        """The example as printed."""
        return f"{self.label} {self.text}"


@dataclass(frozen=True)
class Citation:
    """A bracketed source of a ruling ("[D’Angelo 02/03/98]").

    `start`/`end` locate the bracketed text inside the owning rule's `text`.
    `date` is ISO (YYYY-MM-DD), or a year ("1994"), or None when none is printed.
    """

    source: str
    date: str | None
    page: str | None
    raw: str
    start: int
    end: int


@dataclass(frozen=True)
class Glyph:
    """A mangled symbol glyph met in a prose text.

    `symbol` is the normalized form ("{W}") or None when the meaning cannot be decided.
    `start` is the offset of the glyph's replacement inside the owning item's `text`.
    """

    original: str
    symbol: str | None
    start: int
    reason: str = ""


@dataclass(frozen=True)
class Rule:
    """One numbered or labelled node of a document tree.

    kind: chapter | section | rule | subrule (CR); section | topic | entry | ruling | note
    (rulings summary); section | heading | keyword | paragraph | list_item | lost_example
    (rulebooks). `number` is the id as printed without a trailing period; `marker` is
    the text printed before `title`/`text` in the source ("702.19.", "+ A.1.14 -").
    `text` joins continuation paragraphs with "\\n". `title` is the heading of chapters,
    sections, topics and CR rules whose text is a heading ("Trample").
    """

    number: str
    parent: str | None
    kind: str
    text: str
    marker: str = ""
    title: str | None = None
    examples: tuple[Example, ...] = ()
    citations: tuple[Citation, ...] = ()
    glyphs: tuple[Glyph, ...] = ()
    new: bool = False
    glued: bool = False
    span: Span = (0, 0)

    def reconstruct(self) -> str:
        """The item as printed: marker, text with original glyphs, examples.

        `glued` marks a source typo where no space follows the marker ("901.4.All").
        """
        body = restore_glyphs(self.text, self.glyphs)
        head = self.marker + body if self.glued else " ".join(p for p in (self.marker, body) if p)
        parts = [head, *(example.reconstruct() for example in self.examples)]
        return " ".join(part for part in parts if part)


@dataclass(frozen=True)
class GlossaryEntry:
    """One glossary entry.

    `term` is the heading as printed, without a trailing "(Obsolete)"; `aliases` lists
    the separate names when the heading names several. `heading` is the printed heading
    line in full. `see` lists the entries named by "See X" / "See also A, B". `glued`
    marks a source typo where no space follows the heading ("Ability1. Text on ...").
    """

    term: str
    definition: str
    heading: str
    aliases: tuple[str, ...] = ()
    obsolete: bool = False
    see: tuple[str, ...] = ()
    examples: tuple[Example, ...] = ()
    glyphs: tuple[Glyph, ...] = ()
    glued: bool = False
    span: Span = (0, 0)

    def reconstruct(self) -> str:
        """The entry as printed."""
        definition = restore_glyphs(self.definition, self.glyphs)
        head = self.heading + definition if self.glued else self.heading
        parts = [head, "" if self.glued else definition]
        parts.extend(example.reconstruct() for example in self.examples)
        return " ".join(part for part in parts if part)


@dataclass(frozen=True)
class Part:
    """A document part outside the rule tree: title, introduction, contents, credits."""

    name: str
    text: str
    span: Span = (0, 0)

    def reconstruct(self) -> str:
        """The part as printed."""
        return self.text


@dataclass(frozen=True)
class Residue:
    """Source text kept out of every field, with the reason (page furniture, markers)."""

    text: str
    reason: str
    span: Span = (0, 0)

    def reconstruct(self) -> str:
        """The residue as printed."""
        return self.text


# how `DocumentMeta.cut_off` (and so `covers`) names a glossary its copy stops inside
GLOSSARY_CUT_OFF = "glossary cut off"


@dataclass(frozen=True)
class DocumentMeta:
    """What a parser learns about the document itself from its text."""

    kind: str
    title: str
    effective_date: str | None = None
    date_text: str | None = None
    covers: tuple[str, ...] = ()
    # where a copy that visibly stops early ends, when what it has is kept as a partial
    # document ("glossary cut off after Attack Left Option"); also listed in `covers`
    cut_off: str | None = None


@dataclass(frozen=True)
class Document:
    """A parsed source: metadata, the rule tree in document order, glossary, parts, residue.

    `text` is the decoded source (line endings normalized to "\\n") the spans refer to.
    """

    meta: DocumentMeta
    text: str
    rules: tuple[Rule, ...] = ()
    glossary: tuple[GlossaryEntry, ...] = ()
    parts: tuple[Part, ...] = ()
    residue: tuple[Residue, ...] = ()
    warnings: tuple[str, ...] = field(default=())

    def content(self) -> tuple:
        """What the document says, without how its file lays it out (where each item
        starts, the spacing between and around lines, warnings): two files of the same
        content give the same rows."""
        def bare(item: Any) -> Any:
            fields: dict[str, Any] = {"span": (0, 0)}
            if getattr(item, "examples", ()):
                fields["examples"] = tuple(replace(e, span=(0, 0)) for e in item.examples)
            if isinstance(item, Part | Residue):
                fields["text"] = " ".join(item.text.split())
            return replace(item, **fields)

        return (self.meta, *(tuple(map(bare, items)) for items in
                             (self.rules, self.glossary, self.parts, self.residue)))

    def items(self) -> list[Rule | GlossaryEntry | Part | Residue]:
        """Every item of the document in source order."""
        everything: list[Rule | GlossaryEntry | Part | Residue] = [
            *self.rules,
            *self.glossary,
            *self.parts,
            *self.residue,
        ]
        return sorted(everything, key=lambda item: item.span)


def restore_glyphs(text: str, glyphs: tuple[Glyph, ...]) -> str:
    """`text` with each normalized glyph put back to its original form."""
    if not glyphs:
        return text
    out = []
    cursor = 0
    for glyph in sorted(glyphs, key=lambda g: g.start):
        replacement = glyph.symbol if glyph.symbol is not None else glyph.original
        out.append(text[cursor : glyph.start])
        out.append(glyph.original)
        cursor = glyph.start + len(replacement)
    out.append(text[cursor:])
    return "".join(out)


def reconstruct_document(doc: Document) -> str:
    """The source rebuilt from fields and residue, in source order.

    Items are separated by a space unless their spans touch (no whitespace between them
    in the source, as a stray marker glued to the heading after it).
    """
    out: list[str] = []
    previous_end = None
    for item in doc.items():
        if previous_end is not None and item.span[0] != previous_end:
            out.append(" ")
        out.append(item.reconstruct())
        previous_end = item.span[1]
    return "".join(out)


class ParseError(ValueError):
    """The input is not a document of the expected format; `offset` locates the problem."""

    def __init__(self, message: str, offset: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
