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
<Month D, YYYY>." when printed, else None; a printed date that is not a real one
("Febuary 7, 2025") keeps its `date_text`, with no `effective_date` and a warning.
"""

from __future__ import annotations

import re
from itertools import accumulate, pairwise

from .cr_complete import settle_end
from .cr_date import DATE, cr_meta
from .cr_glossary import parse_glossary
from .cr_lines import Line, fold_warnings, plain_spaces
from .cr_text_body import CHAPTER, parse_body, rule_line
from .cr_wraps import wrapping
from .decode import decode
from .model import Document, ParseError, Part, Residue

_HTML = re.compile(r"\s*<(?:!doctype\s+html|html|head|body)", re.IGNORECASE)
# numbered rules after the Credits that make them a second release, not a stray line
_SECOND_RELEASE_RULES = 3
MAX_LINES = 200_000  # lines of a text read at the most (a release has 5,000, double-spaced 10,000)


def _lines(text: str) -> list[Line]:
    """(offset, line) for every line of `text`, newline excluded."""
    lines = text.split("\n")
    starts = accumulate((len(line) + 1 for line in lines[:-1]), initial=0)
    return list(zip(starts, lines, strict=True))


def _find(lines: list[Line], word: str, start: int, stop: int) -> int | None:
    """Index of the first line in [start, stop) that is exactly `word` (spaces aside)."""
    return next((i for i in range(start, stop) if lines[i][1].strip() == word), None)


def _body_start(lines: list[Line]) -> int:
    """Index of the first line of the rule tree.

    The table of contents repeats the chapter headings, so the body starts at the second
    occurrence of the first chapter heading; without contents, at the first chapter heading
    or, failing that, at the first numbered line.
    """
    first = next((i for i, (_, line) in enumerate(lines) if CHAPTER.match(line)), None)
    if first is not None:
        heading = lines[first][1].strip()
        again = next(
            (i for i in range(first + 1, len(lines)) if lines[i][1].strip() == heading), None
        )
        return again if again is not None else _heading_of_first_rule(lines, first)
    numbered = next((i for i, (_, line) in enumerate(lines) if rule_line(line)), None)
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
                 if (match := rule_line(lines[i][1])) and match["rule"]), None)
    if rule is None:
        return first
    i = rule - 1
    while i > first and (not lines[i][1].strip() or _section_line(lines[i][1])):
        i -= 1
    return i if i > first and CHAPTER.match(lines[i][1]) else first


def _section_line(line: str) -> bool:
    """Whether `line` starts a section ("100. General")."""
    match = rule_line(line)
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


def _check_one_release(text: str, lines: list[Line], credits: int) -> None:
    """Raise ParseError when numbered rules follow the Credits: a second release joined on
    (`cat a.txt b.txt`), which would otherwise be kept as credits text and never read."""
    numbered = [i for i in range(credits + 1, len(lines))
                if (match := rule_line(lines[i][1])) and match["rule"]]
    if len(numbered) < _SECOND_RELEASE_RULES:
        return
    first = numbered[0]
    # the last date printed before them: the first release's Credits may end with its own
    dates = list(DATE.finditer(text, lines[credits][0], lines[first][0]))
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
    count = text.count("\n") + 1
    if count > MAX_LINES:  # each line read costs 120 bytes: 19 MB of line breaks, 2.3 GB
        raise ParseError(f"a text of {count:,} lines, more than the {MAX_LINES:,} a release "
                         "could have (one has about 5,000): not read", 0)
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
        elif intro is None and contents is None and not DATE.search(chunk):
            residue.append(Residue(chunk, "text before the first rule", span))
        else:
            title_text = chunk
            parts.append(Part("title", chunk, span))

    wraps = wrapping(lines)
    rules = parse_body(lines[body:body_end], warnings, wraps)
    if all(rule.kind == "chapter" for rule in rules):
        raise ParseError(_not_a_cr(lines), 0)

    entries = []
    if glossary is not None:
        _, span = _block(text, lines, glossary, glossary + 1)
        parts.append(Part("glossary", "Glossary", span))
        stop = credits if credits is not None else len(lines)
        entries = parse_glossary(lines[glossary + 1 : stop], warnings, wraps)
    if credits is not None:
        _check_one_release(text, lines, credits)
        chunk, span = _block(text, lines, credits, len(lines))
        parts.append(Part("credits", chunk, span))

    listed = (frozenset(line.strip() for line in contents_text.split("\n"))
              if contents_text is not None else None)
    cut_off = settle_end(text, rules, entries, residue, listed, glossary is not None,
                         credits is not None, warnings)
    title = title_text.split("\n", 1)[0].strip() if title_text else None
    meta = cr_meta(title, DATE.search(title_text or text), rules, warnings, cut_off)
    return Document(
        meta=meta,
        text=source,
        rules=tuple(rules),
        glossary=tuple(entries),
        parts=tuple(parts),
        residue=tuple(residue),
        warnings=tuple(fold_warnings(warnings)),
    )
