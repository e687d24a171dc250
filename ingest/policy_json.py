"""Parser for a judges' policy document transcribed as JSON: one file per section and
appendix, each numbered paragraph with its title and text, and an index naming the document,
its effective date and its sections in order (the layout of the open-source judge app
"French Vanilla", assets/judgedocs).

Pure: the files' bytes by name in, a `Document` out. The document's `text` is the
transcription's own strings laid out in order, a line each (title, "Effective …", each
section's and paragraph's heading and text): the JSON syntax around them is the file format,
as a PDF's operators are, and is no part of the text. Items are those of
`rulesdb.ingest.policy_text`, the same kinds and numbers: chapters, sections, appendices,
the credits after the last appendix.

The transcription is not Wizards' layout: a paragraph's text keeps the breaks of the printed
lines it was copied from ("the affected⏎player") and a space where a printed line broke
after a hyphen ("DCI- sanctioned"); both are mended (a line break inside a sentence is a
space, such a space is dropped) and the mends counted in the warnings. Paragraphs it ran
together ("Regular Regular tournaments are…") stay as it has them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import datetime

from .model import Document, DocumentMeta, ParseError, Part, Rule, Span
from .policy_lines import BULLET
from .policy_names import KINDS, PREFIXES

_BROKEN_HYPHEN = re.compile(r"(?<=\w)- (?=\w)")
_ENDS_LINE = re.compile(r"[.:;!?)”\"]$")
_CHAPTER = re.compile(r"(?P<number>\d{1,2})\.\s+(?P<title>.+)")
_APPENDIX = re.compile(r"Appendix\s+(?P<letter>[A-Z])\s*[—–-]+\s*(?P<title>.+)", re.IGNORECASE)
_CREDITS = re.compile(r"All trademarks are property of")


class _Text:
    """The document's text as it is laid out, with the span of each string put in it."""

    def __init__(self) -> None:
        self.pieces: list[str] = []
        self.length = 0

    def put(self, text: str) -> Span:
        start = self.length
        self.pieces.append(text + "\n")
        self.length += len(text) + 1
        return start, start + len(text)

    def value(self) -> str:
        return "".join(self.pieces)


def parse_files(files: Mapping[str, bytes]) -> Document:
    """The Document of a transcription's files (name → bytes); ParseError naming the file
    when one is missing or malformed."""
    index_name, index = _index(files)
    kind = PREFIXES.get(str(index.get("document_type", "")).lower())
    if kind is None:
        raise ParseError(f"{index_name}: document_type {index.get('document_type')!r} is "
                         f"neither {' nor '.join(repr(p) for p in PREFIXES)}")
    printed = str((index.get("metadata") or {}).get("effective_date") or "")
    try:
        effective = datetime.strptime(printed, "%B %d, %Y").date().isoformat()
    except ValueError:
        raise ParseError(f"{index_name}: metadata.effective_date {printed!r} is not a date "
                         "like 'November 10, 2025'") from None
    text = _Text()
    title = str(index.get("title") or KINDS[kind][2])
    parts = [Part("title", title, text.put(title)),
             Part("effective date", f"Effective {printed}", text.put(f"Effective {printed}"))]
    rules: list[Rule] = []
    mends = {"lines": 0, "hyphens": 0}
    covered: list[str] = []
    for section in index.get("sections") or []:
        name = f"{section.get('section_key')}.json"
        data = _load(files, name)
        heading = str(data.get("title") or section.get("title") or "")
        chapter = _CHAPTER.fullmatch(heading)
        if chapter:
            span = text.put(heading)
            rules.append(Rule(chapter["number"], None, "chapter", chapter["title"],
                              marker=f"{chapter['number']}.", title=chapter["title"], span=span))
            covered.append(chapter["number"])
        for at, item in enumerate(data.get("rules") or []):
            if not isinstance(item, dict) or not item.get("number"):
                raise ParseError(f"{name}: rules[{at}] has no number")
            rule, credits = _rule(item, heading, chapter["number"] if chapter else None,
                                  text, mends)
            rules.append(rule)
            if rule.kind == "appendix":
                covered.append(rule.number)
            if credits is not None:
                parts.append(credits)
    warnings = []
    if mends["lines"]:
        warnings.append(f"{mends['lines']} line breaks the transcription kept inside a "
                        "sentence read as spaces")
    if mends["hyphens"]:
        warnings.append(f"{mends['hyphens']} spaces the transcription left after a hyphen "
                        "where a printed line broke dropped")
    return Document(
        meta=DocumentMeta(kind=kind, title=KINDS[kind][2], effective_date=effective,
                          date_text=f"Effective {printed}", covers=_covers(covered)),
        text=text.value(), rules=tuple(rules), parts=tuple(parts), warnings=tuple(warnings))


def _index(files: Mapping[str, bytes]) -> tuple[str, dict]:
    """The index file (the one listing the sections) and its object."""
    for name in sorted(files):
        if name.endswith("_index.json") or name == "index.json":
            data = _load(files, name)
            if isinstance(data.get("sections"), list):
                return name, data
    raise ParseError("no index file (NAME_index.json listing the sections) among "
                     f"{', '.join(sorted(files)) or 'no files'}")


def _load(files: Mapping[str, bytes], name: str) -> dict:
    """One file's JSON object; ParseError naming it."""
    if name not in files:
        raise ParseError(f"{name}: listed in the index but not found")
    try:
        data = json.loads(files[name].decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ParseError(f"{name}: not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ParseError(f"{name}: not a JSON object")
    return data


def _rule(item: dict, heading: str, chapter: str | None, text: _Text,
          mends: dict[str, int]) -> tuple[Rule, Part | None]:
    """The rule of one transcribed paragraph, and the credits its text ends with, if any."""
    number = str(item["number"]).strip().rstrip(".")
    title = str(item.get("title") or "").strip()
    content = str(item.get("content") or "")
    lines = [line for line in content.split("\n") if line.strip()]
    appendix = _APPENDIX.fullmatch(heading) if chapter is None else None
    if appendix and lines and lines[0].strip() == heading.strip():
        marker = lines.pop(0).strip()
    else:
        marker = f"{number} {title}".strip()
    start = text.put(marker)[0]
    at = next((i for i, line in enumerate(lines) if _CREDITS.match(line.strip())), None)
    notice = lines[at:] if appendix and at is not None else []
    lines = lines[:len(lines) - len(notice)]
    end = start + len(marker)
    for line in lines:
        end = text.put(line.strip())[1]
    credits = None
    if notice:
        spans = [text.put(line.strip()) for line in notice]
        credits = Part("credits", "\n".join(line.strip() for line in notice),
                       (spans[0][0], spans[-1][1]))
    body = _paragraphs(lines, mends)
    kind = "appendix" if appendix else "section"
    return Rule(number, chapter, kind, "\n".join(body), marker=marker,
                title=appendix["title"] if appendix else title,
                span=(start, end)), credits


def _paragraphs(lines: list[str], mends: dict[str, int]) -> list[str]:
    """The transcription's lines as paragraphs: a line break inside a sentence (the next
    line opening with a small letter) a space, a hyphen's stray space dropped."""
    out: list[str] = []
    for raw in lines:
        line = " ".join(raw.split())
        if out and not _ENDS_LINE.search(out[-1]) and line[:1].islower():
            out[-1] += " " + line
            mends["lines"] += 1
        else:
            out.append(BULLET.sub("• ", line, count=1) if BULLET.match(line) else line)
    fixed = []
    for paragraph in out:
        paragraph, count = _BROKEN_HYPHEN.subn("-", paragraph)
        mends["hyphens"] += count
        fixed.append(paragraph)
    return fixed


def _covers(covered: list[str]) -> tuple[str, ...]:
    """The runs of chapters and appendices a transcription holds ("1-10", "A-F")."""
    chapters = sorted(int(n) for n in covered if n.isdigit())
    letters = sorted(n for n in covered if n.isalpha())
    runs = []
    for values, show in ((chapters, str), ([ord(c) for c in letters], chr)):
        start = previous = None
        for value in values:
            if previous is not None and value == previous + 1:
                previous = value
                continue
            if start is not None:
                runs.append(f"{show(start)}-{show(previous)}")
            start = previous = value
        if start is not None:
            runs.append(f"{show(start)}-{show(previous)}")
    return tuple(runs)
