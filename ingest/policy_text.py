"""Parser for the judges' policy documents as the text layer of Wizards' PDF gives them: the
Magic Tournament Rules (MTR) and the Magic Infraction Procedure Guide (IPG).

The kind and the date come from the document's own title line ("MAGIC: THE GATHERING®
TOURNAMENT RULES", "MAGIC INFRACTION PROCEDURE GUIDE") and "Effective <Month D, YYYY>"
line. Lines are read into paragraphs by `policy_lines` (page numbers and the table of
contents left out); the table of contents names the headings the text is cut at.

Items produced:
- `Rule` kinds: preface (the unnumbered sections before chapter 1: "Introduction", number
  "introduction"; the IPG's "Framework of this Document", "framework-of-this-document"),
  chapter ("4. Communication", number "4"), section ("4.2 Tournament Shortcuts", number
  "4.2", parent "4"), infraction (an IPG section whose heading prints a penalty: "2.1. Game
  Play Error — Missed Trigger No Penalty") and appendix ("Appendix A—Changes From Previous
  Versions", number "A"). `title` is the heading's title as the contents print it; `text`
  is the body, a paragraph a line: a bullet as "• item", a list item as "1. item", a table
  row's cells set apart by a tab, a sub-heading ("Definition", "Examples", "Booster Draft
  Timing") on a line of its own. `marker` is the heading line as printed; a heading with no
  body ("4. Communication") has its number as marker and its title as text, as the
  Comprehensive Rules' sections do.
- `Part`: "title" (the title line), "effective date" (the "Effective …" line), "credits"
  (the trademark notices after the last appendix).
- `Residue`: page numbers, the table of contents' lines, text before the first heading.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass

from .cr_date import read_date
from .decode import decode
from .model import Document, DocumentMeta, ParseError, Part, Residue, Rule
from .policy_lines import (
    LEADERS,
    Line,
    Paragraph,
    contents_lines,
    fold,
    page_numbers,
    paragraphs,
    source_lines,
)
from .policy_names import INFRACTION_GUIDE, KINDS, PENALTIES, SUB_HEADINGS
from .prose import slugify

HEAD_LINES = 40  # the title line stands among a document's first lines
_EFFECTIVE = re.compile(r"Effective\s+((?P<month>[A-Za-z]+)\.?\s+(?P<day>\d{1,2}),?\s*"
                        r"(?P<year>\d{4}))")
_NUMBERED = re.compile(r"(?P<number>\d{1,2}(?:\.\d{1,2})?)\.?\s+(?P<rest>\S.*)")
_APPENDIX = re.compile(r"Appendix\s+(?P<letter>[A-Z])\s*[—–-]+\s*(?P<rest>\S.*)",
                       re.IGNORECASE)
_PENALTY = re.compile(rf"\s+({'|'.join(PENALTIES)})$")
_CREDITS = re.compile(r"All trademarks are property of|©")
_ENTRY = re.compile(r"\s*(?P<label>.+?)\s*(?:\.{4,}|(?:\. ){4,})[\s.]*(?P<page>\d+)?(?=\s|$)")


@dataclass(frozen=True)
class Heading:
    """A heading of the document: what it opens and its number there."""

    kind: str  # preface, chapter, section, appendix
    number: str
    title: str  # as the contents print it (as the text does when there are no contents)


@dataclass(frozen=True)
class Entry:
    """One entry of the table of contents."""

    label: str  # as printed, spaces folded
    page: int | None


def contents_entries(texts: list[str]) -> list[Entry]:
    """The entries of the contents' lines (a line may hold several, as a PDF reader joins
    them)."""
    entries = []
    for text in texts:
        for match in _ENTRY.finditer(text):
            label = " ".join(match["label"].split())
            if label and not LEADERS.fullmatch(label):
                entries.append(Entry(label, int(match["page"]) if match["page"] else None))
    return entries


class Headings:
    """The headings of a document: from its contents, else as a heading is printed."""

    def __init__(self, entries: list[Entry], kind: str) -> None:
        self.numbered: dict[str, str] = {}
        self.appendices: dict[str, str] = {}
        self.plain: dict[str, str] = {}  # folded → as printed
        self.subheadings = {fold(text) for text in SUB_HEADINGS[kind]}
        seen_numbered = False
        for entry in entries:
            numbered, appendix = _NUMBERED.fullmatch(entry.label), _APPENDIX.fullmatch(
                entry.label)
            if appendix:
                self.appendices[appendix["letter"].upper()] = appendix["rest"]
            elif numbered:
                self.numbered[numbered["number"]] = numbered["rest"]
                seen_numbered = True
            elif not seen_numbered:  # before chapter 1: the document's preface
                self.plain[fold(entry.label)] = entry.label
            else:  # a sub-heading of an appendix
                self.subheadings.add(fold(entry.label))
        self.listed = bool(entries)

    def match(self, text: str) -> Heading | None:
        """The heading `text` is, or None."""
        appendix = _APPENDIX.fullmatch(text)
        if appendix:
            letter = appendix["letter"].upper()
            listed = self.appendices.get(letter)
            if listed is None and self.listed:
                return None
            return Heading("appendix", letter, _titled(listed or appendix["rest"]))
        numbered = _NUMBERED.fullmatch(text)
        if numbered:
            number, rest = numbered["number"], numbered["rest"]
            if self.listed:
                listed = self.numbered.get(number)
                if listed is None or not fold(rest).startswith(fold(listed)):
                    return None
                title = _titled(listed)
            elif _is_heading_text(rest):
                title = _titled(_PENALTY.sub("", rest))
            else:
                return None
            return Heading("section" if "." in number else "chapter", number, title)
        folded = fold(text)
        if folded in self.plain or (not self.listed and folded == "introduction"):
            title = _titled(self.plain.get(folded, "Introduction"))
            return Heading("preface", slugify(title), title)
        return None

    def stands_alone(self, text: str) -> bool:
        """Whether a line is a heading (of a section, or a sub-heading)."""
        return fold(text) in self.subheadings or self.match(text) is not None


def _is_heading_text(text: str) -> bool:
    """Whether words after a number read as a heading (no contents to say): short, no end of
    sentence, each main word capitalized."""
    words = _PENALTY.sub("", text).split()
    return (len(words) <= 12 and not text.endswith((".", ",", ";"))
            and all(w[0].isupper() or w.lower() in _SMALL or not w[0].isalpha()
                    for w in words))


_SMALL = frozenset({"a", "an", "and", "as", "at", "by", "for", "from", "in", "of", "on", "or",
                    "the", "to", "with"})


def _titled(text: str) -> str:
    """A printed title in title case when printed in capitals ("GENERAL PHILOSOPHY")."""
    return string.capwords(text) if text.isupper() else text


_TITLE_LINE = re.compile(r"(?:magic\b[^.]{0,40}\s)?(tournament rules|infraction procedure "
                         r"guide)", re.IGNORECASE)


def title_kind(line: str) -> str | None:
    """The kind of policy document a line is the title of ("MAGIC INFRACTION PROCEDURE
    GUIDE"), or None."""
    match = _TITLE_LINE.fullmatch(line.strip())
    if match is None:
        return None
    words = match[1].upper()
    return next(kind for kind, (printed, _, _) in KINDS.items() if printed == words)


def kind_of(text: str) -> str | None:
    """The kind of policy document a text is, told by its title line among its first
    lines, or None."""
    for line in text.lstrip("\ufeff").split("\n", HEAD_LINES + 1)[:HEAD_LINES]:
        kind = title_kind(line)
        if kind is not None:
            return kind
    return None


def parse(data: bytes) -> Document:
    """The Document of a policy document's text file."""
    return parse_text(decode(data))


def parse_text(text: str) -> Document:
    """The Document of a decoded policy document text; ParseError when it is none."""
    lines = source_lines(text)
    title_at, kind = _title(lines)
    meta_parts = [Part("title", lines[title_at].text,  # type: ignore[union-attr]
                       _span(lines[title_at]))]
    date_at = next((i for i in range(title_at + 1, min(len(lines), title_at + 6))
                    if lines[i] is not None and _EFFECTIVE.match(lines[i].text)), None)  # type: ignore[union-attr]
    warnings: list[str] = []
    effective = date_text = None
    if date_at is not None:
        line = lines[date_at]
        assert line is not None
        match = _EFFECTIVE.match(line.text)
        assert match is not None
        date_text, effective = match.group(0), read_date(match)
        if effective is None:
            warnings.append(f"the printed date cannot be read: {date_text!r}")
        meta_parts.append(Part("effective date", line.text, _span(line)))
    pages = page_numbers(lines)
    contents = contents_lines(lines, pages)
    residue = [Residue(lines[i].text, "page number", _span(lines[i]))  # type: ignore[union-attr]
               for i in sorted(pages)]
    residue += [Residue(lines[i].text, "table of contents", _span(lines[i]))  # type: ignore[union-attr]
                for i in contents]
    headings = Headings(contents_entries([lines[i].text for i in contents  # type: ignore[union-attr]
                                          ]), kind)
    read = {title_at, *([] if date_at is None else [date_at]), *contents}
    found = paragraphs(lines, pages, headings.stands_alone, read)
    rules, parts, more_residue = _structure(found, headings, kind, warnings)
    _check_contents(headings, rules, warnings)
    name = KINDS[kind][2]
    return Document(
        meta=DocumentMeta(kind=kind, title=name, effective_date=effective, date_text=date_text),
        text=text, rules=tuple(rules), parts=(*meta_parts, *parts),
        residue=tuple(sorted([*residue, *more_residue], key=lambda r: r.span)),
        warnings=tuple(warnings))


def _span(line: Line) -> tuple[int, int]:
    return line.start, line.end


def _title(lines: list[Line | None]) -> tuple[int, str]:
    """The index of the title line and the kind it names; ParseError when there is none."""
    for index, line in enumerate(lines[:HEAD_LINES]):
        if line is None:
            continue
        kind = title_kind(line.text)
        if kind is not None:
            return index, kind
    raise ParseError("not a Magic Tournament Rules nor an Infraction Procedure Guide: no "
                     "title line naming one among the first lines", 0)


@dataclass
class _Open:
    """A heading met and the paragraphs of its body so far."""

    heading: Heading
    paragraph: Paragraph
    body: list[Paragraph]


def _structure(found: list[Paragraph], headings: Headings, kind: str,
               warnings: list[str]) -> tuple[list[Rule], list[Part], list[Residue]]:
    """The rules, the credits and the text before the first heading of the paragraphs."""
    opened: list[_Open] = []
    before: list[Paragraph] = []
    credits: list[Paragraph] = []
    for paragraph in found:
        heading = headings.match(paragraph.text)
        if credits or (heading is None and opened and opened[-1].heading.kind == "appendix"
                       and _CREDITS.match(paragraph.text)):
            credits.append(paragraph)
        elif heading is not None:
            opened.append(_Open(heading, paragraph, []))
        elif opened:
            opened[-1].body.append(paragraph)
        else:
            before.append(paragraph)
    chapters = {item.heading.number for item in opened if item.heading.kind == "chapter"}
    rules = [_rule(item, kind, chapters) for item in opened]
    numbers = [rule.number for rule in rules]
    for number in sorted({n for n in numbers if numbers.count(n) > 1}):
        warnings.append(f"heading {number} printed more than once")
    parts = ([Part("credits", "\n".join(p.text for p in credits),
                   (credits[0].span[0], credits[-1].span[1]))] if credits else [])
    residue = [Residue(p.text, "text before the first heading", p.span) for p in before]
    return rules, parts, residue


def _rule(item: _Open, kind: str, chapters: set[str]) -> Rule:
    """The rule of one heading and its body."""
    heading, printed = item.heading, item.paragraph.text
    start = item.paragraph.span[0]
    end = item.body[-1].span[1] if item.body else item.paragraph.span[1]
    rule_kind = heading.kind
    if rule_kind == "section" and kind == INFRACTION_GUIDE and _PENALTY.search(printed):
        rule_kind = "infraction"
    parent = heading.number.split(".")[0] if rule_kind in ("section", "infraction") else None
    if parent not in chapters:
        parent = None
    if item.body:
        return Rule(heading.number, parent, rule_kind, "\n".join(p.text for p in item.body),
                    marker=printed, title=heading.title, span=(start, end))
    marker, _, title_text = printed.partition(" ") if rule_kind != "appendix" else (
        printed, "", "")
    return Rule(heading.number, parent, rule_kind, title_text or printed,
                marker=marker if title_text else "", title=heading.title, span=(start, end))


def _check_contents(headings: Headings, rules: list[Rule], warnings: list[str]) -> None:
    """A warning for each numbered heading of the contents the text does not print."""
    present = {rule.number for rule in rules}
    missing = [number for number in [*headings.numbered, *headings.appendices]
               if number not in present]
    if missing:
        warnings.append(f"listed in the contents but not found in the text: "
                        f"{', '.join(missing)}")


def penalty_of(rule: Rule) -> str | None:
    """The penalty an IPG infraction's heading prints ("Game Loss"), or None."""
    match = _PENALTY.search(rule.marker)
    return match[1] if match else None
