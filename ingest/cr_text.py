"""Parser for Comprehensive Rules text files as Wizards publishes them (one rule per line).

Serves a whole release (title and effective-date lines, Introduction, Contents, chapters
1-9, Glossary, Credits) and a fragment made only of numbered rules (e.g. chapter 7 alone).

Items produced:
- `Rule` kinds: chapter ("7. Additional Rules", number "7"), section ("702", title = text),
  rule ("702.19"; title set when its text is a heading such as "Trample"), subrule
  ("702.19a"). Parents: subrule -> rule, rule -> section, section -> chapter number when
  that chapter heading is in the document, else None.
- `GlossaryEntry` for each glossary block (see `cr_glossary`).
- `Part` names: "title" (title and date lines), "introduction", "contents" (the table of
  contents, which repeats the chapter headings), "glossary" (the "Glossary" heading line
  alone), "credits" (from the "Credits" heading to the end).
- `Residue` for any text before the first rule of a file without front-matter headings.

Metadata: `covers` holds one "first-last" range of section numbers per run of consecutive
chapters present, e.g. ("700-731",) for chapter 7 alone and ("100-905",) for a full release;
`effective_date` and `date_text` come from "These rules are effective/current as of
<Month D, YYYY>." when printed, else None.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import datetime
from itertools import accumulate, pairwise

from .cr_complete import check_complete, cut_glossary
from .cr_glossary import parse_glossary
from .cr_lines import EXAMPLE, Line, clean, fold_warnings, plain_spaces
from .decode import decode
from .model import (
    Document,
    DocumentMeta,
    Example,
    ParseError,
    Part,
    Residue,
    Rule,
)

DEFAULT_TITLE = "Magic: The Gathering Comprehensive Rules"

# The line patterns match only a line's head: where its text starts is all they need to
# tell, and the text runs to the end of the line (its trailing whitespace is stripped by
# `clean`). Scanning each line to its end with a lazy "(.*?)\s*$" was the parse's largest
# single cost.
_CHAPTER = re.compile(r"^[ \t]*(\d)\.[ \t]+(?=\S)")
# `text` is the first character of the text; a line with none must be blank after the marker.
_NUMBERED = re.compile(
    r"^(?P<indent>[ \t]*)(?P<section>\d{3})(?:\.(?P<rule>\d+)(?P<letter>[a-z])?)?"
    r"(?P<dot>\.)?(?P<gap>[ \t]*)(?:(?P<text>\S)|\s*$)"
)
_DATE = re.compile(
    r"These\s+rules\s+are\s+(?:effective|current)\s+as\s+of\s+([A-Z][a-z]+\s+\d{1,2},\s*\d{4})"
    r"(?!\d)\.?")
# A heading is short and carries no sentence punctuation.
# a rule number printed with a space after the section's period: "702. 37a" (group 4: the gap)
_SPLIT_NUMBER = re.compile(r"(\d+)([a-z])?(\.)?([ \t]+)(?=\S)")
_HEADING_MAX = 60
# Keyword names may end with "!" ("For Mirrodin!"), so "!" alone does not make a sentence.
_SENTENCE_MARK = re.compile(r"[.:;?]\s|[.:;?”\"]$")
_HTML = re.compile(r"\s*<(?:!doctype\s+html|html|head|body)", re.IGNORECASE)
# numbered rules after the Credits that make them a second release, not a stray line
_SECOND_RELEASE_RULES = 3


@dataclass(slots=True)
class _Item:
    """A rule being assembled from its lines."""

    number: str
    parent: str | None
    kind: str
    marker: str
    start: int
    end: int
    lines: list[str]
    examples: list[list] = field(default_factory=list)  # [label, lines, start, end]
    glued: bool = False

    def freeze(self) -> Rule:
        text = "\n".join(self.lines)
        headed = self.kind in ("chapter", "section") or (self.kind == "rule" and _is_heading(text))
        title = text if headed else None
        return Rule(
            number=self.number,
            parent=self.parent,
            kind=self.kind,
            text=text,
            marker=self.marker,
            title=title,
            examples=tuple(
                Example(text="\n".join(lines), label=label, span=(start, end))
                for label, lines, start, end in self.examples
            )
            if self.examples
            else (),
            glued=self.glued,
            span=(self.start, self.end),
        )


def _is_heading(text: str) -> bool:
    return (
        bool(text)
        and "\n" not in text
        and len(text) <= _HEADING_MAX
        and not (_SENTENCE_MARK.search(text))
    )


def _lines(text: str) -> list[Line]:
    """(offset, line) for every line of `text`, newline excluded."""
    lines = text.split("\n")
    starts = accumulate((len(line) + 1 for line in lines[:-1]), initial=0)
    return list(zip(starts, lines, strict=True))


def _find(lines: list[Line], word: str, start: int, stop: int) -> int | None:
    """Index of the first line in [start, stop) that is exactly `word` (spaces aside)."""
    return next((i for i in range(start, stop) if lines[i][1].strip() == word), None)


def _rule_line(line: str) -> re.Match[str] | None:
    """The match of a line that starts a section, rule or subrule, else None.

    A section needs its period and a space ("700. General"); a marker glued to its text
    counts only when it ends with a period ("901.4.All").
    """
    match = _NUMBERED.match(line)
    if match is None:
        return None
    _, _, rule, _, dot, gap, text = match.groups()
    if not text or (rule is None and not (dot and gap)) or not (gap or dot):
        return None
    return match


def _body_start(lines: list[Line]) -> int:
    """Index of the first line of the rule tree.

    The table of contents repeats the chapter headings, so the body starts at the second
    occurrence of the first chapter heading; without contents, at the first chapter heading
    or, failing that, at the first numbered line.
    """
    first = next((i for i, (_, line) in enumerate(lines) if _CHAPTER.match(line)), None)
    if first is not None:
        heading = lines[first][1].strip()
        again = next(
            (i for i in range(first + 1, len(lines)) if lines[i][1].strip() == heading), None
        )
        return again if again is not None else _heading_of_first_rule(lines, first)
    numbered = next((i for i, (_, line) in enumerate(lines) if _rule_line(line)), None)
    if numbered is None:
        raise ParseError(_not_a_cr(lines), 0)
    return numbered


def _heading_of_first_rule(lines: list[Line], first: int) -> int:
    """Index of the chapter heading over the first numbered rule after line `first`.

    For a release whose body names its first chapter otherwise than its contents do
    (2009-07-11: "1. Game Concepts" listed, "1. The Game" printed); `first` when the first
    rule sits under the first chapter heading itself (no contents) or none is found.
    """
    rule = next((i for i in range(first + 1, len(lines))
                 if (match := _rule_line(lines[i][1])) and match["rule"]), None)
    if rule is None:
        return first
    i = rule - 1
    while i > first and (not lines[i][1].strip() or _section_line(lines[i][1])):
        i -= 1
    return i if i > first and _CHAPTER.match(lines[i][1]) else first


def _section_line(line: str) -> bool:
    """Whether `line` starts a section ("100. General")."""
    match = _rule_line(line)
    return match is not None and match["rule"] is None


def looks_like_html(text: str) -> bool:
    """Whether `text` opens as a web page does (a doctype, or an html, head or body tag)."""
    return _HTML.match(text) is not None


def _not_a_cr(lines: list[Line]) -> str:
    """Why a text with no numbered rule is refused (a saved web page is said to be one)."""
    first = next((line for _, line in lines if line.strip()), "")
    if looks_like_html(first):
        return "a web page (HTML), not a Comprehensive Rules text file"
    return "no numbered rule found: not a Comprehensive Rules text file"


def _block(text: str, lines: list[Line], start: int, stop: int) -> tuple[str, tuple[int, int]]:
    """The text of lines [start, stop) without surrounding whitespace, and its span."""
    begin = lines[start][0]
    end = lines[stop - 1][0] + len(lines[stop - 1][1])
    chunk = text[begin:end]
    lead = len(chunk) - len(chunk.lstrip())
    body = chunk.strip()
    return body, (begin + lead, begin + lead + len(body))


def _numbered_item(offset: int, line: str, chapters: set[str], warnings: list[str]) -> _Item | None:
    """The item a numbered line starts, or None when the line is not a rule line."""
    match = _rule_line(line)
    if match is None:
        return None
    indent, section, rule, letter, dot, gap, _ = match.groups()
    marker_at, text_at, marker_end = len(indent), match.start("text"), match.start("gap")
    split = _SPLIT_NUMBER.match(line, text_at) if rule is None else None
    if split:  # "702. 37a Storm is …" (2009-07-11): a subrule, a space inside its number
        rule, letter, dot = split[1], split[2], split[3]
        marker_end, text_at = split.start(4), split.end()
        warnings.append(f"{line[marker_at:marker_end]!r} printed with a space inside its "
                        f"number (offset {offset})")
    if rule is None:
        number, kind, parent = section, "section", section[0] if section[0] in chapters else None
    elif letter is None:
        number, kind, parent = f"{section}.{rule}", "rule", section
        if not dot:
            warnings.append(f"rule {number} printed without its period (offset {offset})")
    else:
        number, kind, parent = f"{section}.{rule}{letter}", "subrule", f"{section}.{rule}"
        if dot:
            warnings.append(f"subrule {number} printed with a period (offset {offset})")
    if not gap:
        warnings.append(f"no space after {number}. (offset {offset})")
    if indent:
        warnings.append(f"{kind} {number} is indented (offset {offset})")
    # The indent opens the line, so the marker starts right after it.
    return _Item(
        number=number,
        parent=parent,
        kind=kind,
        marker=line[marker_at:marker_end],
        start=offset + marker_at,
        end=offset + len(line.rstrip()),
        lines=[clean(line[text_at:], offset + text_at, warnings)],
        glued=not gap,
    )


def _parse_body(lines: list[Line], warnings: list[str]) -> list[_Item]:
    """The rule tree of the body lines, in document order."""
    items: list[_Item] = []
    chapters: set[str] = set()
    seen: set[str] = set()
    for offset, line in lines:
        if not line or line.isspace():  # blank: same test as `not line.strip()`, no copy
            continue
        chapter = _CHAPTER.match(line)
        if chapter:
            number = chapter.group(1)
            chapters.add(number)
            start = offset + chapter.start(1)
            items.append(
                _Item(
                    number=number,
                    parent=None,
                    kind="chapter",
                    marker=f"{number}.",
                    start=start,
                    end=offset + len(line.rstrip()),
                    lines=[clean(line[chapter.end() :], start, warnings)],
                )
            )
            seen.add(number)
            continue
        item = _numbered_item(offset, line, chapters, warnings)
        if item is not None:
            if item.parent is not None and item.parent not in seen:
                warnings.append(f"{item.kind} {item.number} has no parent {item.parent} before it")
            if item.number in seen:
                warnings.append(f"{item.kind} {item.number} is numbered twice (offset {offset})")
            seen.add(item.number)
            items.append(item)
            continue
        if not items:
            raise ParseError("text before the first rule is not a rule", offset)
        current = items[-1]
        current.end = offset + len(line.rstrip())
        example = EXAMPLE.match(line)
        if example:
            text = clean(line[example.end() :], offset, warnings)
            label_start = offset + example.start(1)
            if example.group(1) != "Example:":
                warnings.append(f"'Example:' printed twice (offset {label_start})")
            current.examples.append([example.group(1), [text], label_start, current.end])
        elif current.examples:
            # A paragraph after an example continues it; this keeps the printed order.
            current.examples[-1][1].append(clean(line, offset, warnings))
            current.examples[-1][3] = current.end
        else:
            current.lines.append(clean(line, offset, warnings))
    return items


def _covers(rules: list[Rule]) -> tuple[str, ...]:
    """ "first-last" section ranges, one per run of consecutive chapters present."""
    sections = [int(rule.number) for rule in rules if rule.kind == "section"]
    runs: list[list[int]] = []
    for number in sections:
        if runs and number // 100 - runs[-1][-1] // 100 in (0, 1):
            runs[-1].append(number)
        else:
            runs.append([number])
    return tuple(f"{min(run)}-{max(run)}" for run in runs)


def _meta(title_text: str | None, text: str, rules: list[Rule]) -> DocumentMeta:
    title = DEFAULT_TITLE
    if title_text:
        title = title_text.split("\n", 1)[0].strip()
    date = _DATE.search(title_text if title_text else text)
    effective = None
    if date:
        day = " ".join(date.group(1).replace(",", ", ").split())
        effective = datetime.strptime(day, "%B %d, %Y").date().isoformat()
    return DocumentMeta(
        kind="comprehensive_rules",
        title=title,
        effective_date=effective,
        date_text=date.group(0) if date else None,
        covers=_covers(rules),
    )






def _check_one_release(text: str, lines: list[Line], credits: int) -> None:
    """Raise ParseError when numbered rules follow the Credits: a second release joined on
    (`cat a.txt b.txt`), which would otherwise be kept as credits text and never read."""
    numbered = [i for i in range(credits + 1, len(lines))
                if (match := _rule_line(lines[i][1])) and match["rule"]]
    if len(numbered) < _SECOND_RELEASE_RULES:
        return
    first = numbered[0]
    # the last date printed before them: the first release's Credits may end with its own
    dates = list(_DATE.finditer(text, lines[credits][0], lines[first][0]))
    what = f"effective {dates[-1].group(1)}, " if dates else ""
    raise ParseError(
        f"a second rules text ({what}{len(numbered)} numbered rules) follows the Credits: "
        "add each release from its own file", lines[first][0])


def parse(data: bytes) -> Document:
    """The Document of a Comprehensive Rules text file (whole release or fragment)."""
    return parse_text(decode(data))


def parse_text(text: str) -> Document:
    """The Document of the text `decode` gave for a Comprehensive Rules file.

    For a caller that already holds the decoded text (to place error offsets in it), so
    the bytes are not decoded twice.
    """
    warnings: list[str] = []
    source, text = text, plain_spaces(text, warnings)
    lines = _lines(text)
    body = _body_start(lines)
    glossary = _find(lines, "Glossary", body, len(lines))
    credits = _find(lines, "Credits", glossary if glossary is not None else body, len(lines))
    body_end = next(i for i in (glossary, credits, len(lines)) if i is not None)

    parts: list[Part] = []
    residue: list[Residue] = []
    intro = _find(lines, "Introduction", 0, body)
    contents = _find(lines, "Contents", 0, body)
    bounds = sorted({0, body, *(i for i in (intro, contents) if i is not None)})
    title_text: str | None = None
    contents_text: str | None = None
    for start, stop in pairwise(bounds):
        chunk, span = _block(text, lines, start, stop)
        if not chunk:
            continue
        if start == intro:
            parts.append(Part("introduction", chunk, span))
        elif start == contents:
            contents_text = chunk
            parts.append(Part("contents", chunk, span))
        elif intro is None and contents is None and not _DATE.search(chunk):
            residue.append(Residue(chunk, "text before the first rule", span))
        else:
            title_text = chunk
            parts.append(Part("title", chunk, span))

    rules = [item.freeze() for item in _parse_body(lines[body:body_end], warnings)]
    if all(rule.kind == "chapter" for rule in rules):
        raise ParseError(_not_a_cr(lines), 0)

    entries = []
    if glossary is not None:
        _, span = _block(text, lines, glossary, glossary + 1)
        parts.append(Part("glossary", "Glossary", span))
        stop = credits if credits is not None else len(lines)
        entries = parse_glossary(lines[glossary + 1 : stop], warnings)
    if credits is not None:
        _check_one_release(text, lines, credits)
        chunk, span = _block(text, lines, credits, len(lines))
        parts.append(Part("credits", chunk, span))

    cut_off = None
    if glossary is not None and credits is None:
        cut_off = cut_glossary(text, entries, residue, contents_text, warnings)
    last_end = entries[-1].span[1] if entries else rules[-1].span[1]
    found = {"Glossary": glossary is not None, "Credits": credits is not None or bool(cut_off)}
    check_complete(text, rules, last_end, contents_text, found)

    meta = _meta(title_text, text, rules)
    if cut_off:
        meta = replace(meta, covers=(*meta.covers, cut_off), cut_off=cut_off)
    return Document(
        meta=meta,
        text=source,
        rules=tuple(rules),
        glossary=tuple(entries),
        parts=tuple(parts),
        residue=tuple(residue),
        warnings=tuple(fold_warnings(warnings)),
    )
