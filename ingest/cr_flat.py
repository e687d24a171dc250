"""Parser for the Comprehensive Rules flattened onto one line (cr-2009-02-01-flattened).

Every line break of the source was collapsed to a space, so the structure is recovered
from the text itself: the parts are found by their headings, and the numbered items by
walking the numbering in order — the next item is always the expected successor of the
current one (next subrule letter, rule, section or chapter) printed at a sentence
boundary, so a number cited inside a sentence ("see rule 409.1a") never starts an item.
The glossary is split by `cr_flat_glossary`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from .cr_flat_glossary import split_glossary
from .decode import decode
from .model import Document, DocumentMeta, Example, ParseError, Part, Rule

TITLE = "Magic: The Gathering Comprehensive Rules"

_DATE = re.compile(r"These rules are current as of ([A-Z][a-z]+ \d{1,2}, \d{4})\.")
# The body starts with chapter 1, its first section and that section's first rule; the
# contents list the same chapter and section but never a rule number after them.
_BODY_START = re.compile(r"(?<!\S)1\. [^.]{1,80}? 100\. [^.]{1,80}? 100\.1\. ")
_CONTENTS = re.compile(r"(?<!\S)Contents(?= 1\. )")
_GLOSSARY = re.compile(r"(?<=[.!?\"] )Glossary(?= [A-Z])")
_CREDITS = re.compile(r"(?<=[.!?\"] )Credits(?= \S)")
_CONTENTS_ITEM = re.compile(r"(?<!\S)(\d{1,3})\. (.+?)(?= \d{1,3}\. | Glossary |$)")
_QUESTIONS = re.compile(r"(?<!\S)Questions\?(?= Contact)")

# Every printed number token that could open an item: "1.", "100.", "100.1.", "100.1a",
# and the source's misprints "100.1" (rule without its period) and "212.1b." (subrule
# with a period).
_MARKER = re.compile(r"(?<!\S)(\d{1,3})\.(?:(\d{1,3})(\.|[a-z]\.?)?)?(?=\s)")
# A word just before a number that makes the number part of a sentence.
_CITING_WORDS = frozenset(
    {"rule", "rules", "see", "section", "sections", "chapter", "step", "steps", "phase"}
    | {"and", "or", "of", "to", "in", "under", "by", "from", "with", "through", "per"}
    | {"also", "than"}
)
_LETTERS = "abcdefghijkmnpqrstuvwxyz"  # subrule letters skip l and o
_SENTENCE_END = tuple('.!?:")]')
_EXAMPLE = re.compile(r"(?<!\S)Example:\s")
_HEADING_MAX = 60


def parse(data: bytes) -> Document:
    """The flattened Comprehensive Rules in `data` as a Document."""
    text = decode(data)
    title_start = _skip_space(text, 0)
    if not text.startswith(TITLE, title_start):
        raise ParseError(f"the text does not start with the title {TITLE!r}", title_start)
    title_end = title_start + len(TITLE)
    date = _DATE.match(text, _skip_space(text, title_end))
    if date is None:
        raise ParseError("no 'These rules are current as of ...' line after the title", title_end)
    contents = _CONTENTS.search(text, date.end())
    body = _BODY_START.search(text, date.end())
    if contents is None or body is None or contents.start() > body.start():
        raise ParseError("no table of contents followed by chapter 1 and rule 100.1", date.end())
    glossary = _GLOSSARY.search(text, body.start())
    if glossary is None:
        raise ParseError("the glossary is missing: the rules look truncated", len(text))
    credits = None
    for credits in _CREDITS.finditer(text, glossary.end()):  # noqa: B007 - the last one
        pass
    if credits is None:
        raise ParseError("the credits are missing: the glossary looks truncated", len(text))
    questions = _QUESTIONS.search(text, credits.end())

    rules, warnings = walk_rules(text, body.start(), glossary.start())
    _check_ends_sentence(text, rules[-1].span[1], "the last rule")
    entries, glossary_warnings = split_glossary(
        text, _skip_space(text, glossary.end()), credits.start()
    )
    if not entries:
        raise ParseError("no glossary entry found", glossary.end())
    _check_ends_sentence(text, entries[-1].span[1], "the last glossary entry")
    contents_end = _rstrip_index(text, contents.start(), body.start())
    warnings.extend(_compare_contents(text[contents.start() : contents_end], rules))
    warnings.extend(glossary_warnings)

    credits_end = questions.start() if questions else len(text)
    bounds = [
        ("title", title_start, title_end),
        ("date", date.start(), date.end()),
        ("introduction", _skip_space(text, date.end()), contents.start()),
        ("contents", contents.start(), body.start()),
        ("glossary", glossary.start(), glossary.end()),
        ("credits", credits.start(), credits_end),
    ]
    if questions:
        bounds.append(("questions", questions.start(), len(text)))
    parts = []
    for name, start, stop in bounds:
        end = _rstrip_index(text, start, stop)
        parts.append(Part(name=name, text=text[start:end], span=(start, end)))
    sections = [rule.number for rule in rules if rule.kind == "section"]
    meta = DocumentMeta(
        kind="comprehensive_rules",
        title=TITLE,
        effective_date=datetime.strptime(date.group(1), "%B %d, %Y").date().isoformat(),
        date_text=date.group(0),
        covers=(f"{sections[0]}-{sections[-1]}",) if sections else (),
    )
    return Document(
        meta=meta,
        text=text,
        rules=tuple(rules),
        glossary=tuple(entries),
        parts=tuple(parts),
        warnings=tuple(warnings),
    )


def _skip_space(text: str, position: int) -> int:
    """`position` moved forward over whitespace."""
    while position < len(text) and text[position].isspace():
        position += 1
    return position


def _check_ends_sentence(text: str, end: int, what: str) -> None:
    """Raise ParseError when the item ending at `end` stops mid-sentence (truncation)."""
    if not text[max(0, end - 3) : end].endswith(_SENTENCE_END):
        raise ParseError(f"{what} stops mid-sentence: the document looks truncated", end)


def _compare_contents(contents: str, rules: list[Rule]) -> list[str]:
    """Warnings for the chapters and sections the contents and the body disagree on."""
    listed = {m.group(1): m.group(2) for m in _CONTENTS_ITEM.finditer(contents)}
    headed = {r.number: r.title for r in rules if r.kind in ("chapter", "section")}
    warnings = []
    for number in sorted(listed.keys() | headed.keys(), key=int):
        if number not in headed:
            warnings.append(f"{number} is in the contents but not in the body")
        elif number not in listed:
            warnings.append(f"{number} is in the body but not in the contents")
        elif listed[number] != headed[number]:
            warnings.append(f"{number} is titled {listed[number]!r} in the contents")
    return warnings


@dataclass(frozen=True)
class _Key:
    """A position in the numbering: chapter, section, rule and subrule letter."""

    chapter: int
    section: int | None = None
    rule: int | None = None
    letter: str | None = None

    @property
    def kind(self) -> str:
        if self.section is None:
            return "chapter"
        if self.rule is None:
            return "section"
        return "rule" if self.letter is None else "subrule"

    @property
    def number(self) -> str:
        if self.section is None:
            return str(self.chapter)
        if self.rule is None:
            return str(self.section)
        return f"{self.section}.{self.rule}{self.letter or ''}"

    @property
    def parent(self) -> str | None:
        if self.section is None:
            return None
        if self.rule is None:
            return str(self.chapter)
        if self.letter is None:
            return str(self.section)
        return f"{self.section}.{self.rule}"


def _successors(key: _Key | None) -> set[_Key]:
    """The numbers that may follow `key` in a complete, sequential numbering."""
    if key is None:
        return {_Key(1)}
    out = {_Key(key.chapter + 1)}
    if key.section is None:
        return {_Key(key.chapter, key.chapter * 100)}
    if key.section + 1 < (key.chapter + 1) * 100:
        out.add(_Key(key.chapter, key.section + 1))
    if key.rule is None:
        out.add(_Key(key.chapter, key.section, 1))
        return out
    out.add(_Key(key.chapter, key.section, key.rule + 1))
    index = -1 if key.letter is None else _LETTERS.find(key.letter)
    if index + 1 < len(_LETTERS):
        out.add(_Key(key.chapter, key.section, key.rule, _LETTERS[index + 1]))
    return out


def _key_of(match: re.Match[str]) -> tuple[_Key, bool] | None:
    """The number a marker token names, and whether the token is printed irregularly."""
    first, second, tail = match.group(1), match.group(2), match.group(3)
    if second is None:
        value = int(first)
        if value < 10:
            return _Key(value), False
        return _Key(value // 100, value), False
    section = int(first)
    if section < 100:
        return None
    letter = tail[0] if tail and tail != "." else None
    key = _Key(section // 100, section, int(second), letter)
    return key, tail is None or len(tail) == 2


def _at_boundary(text: str, start: int, item_start: int) -> bool:
    """Whether a number at `start` can open an item rather than sit inside a sentence."""
    before = text[item_start:start].rstrip()
    if not before:
        return True
    words = before.rsplit(None, 1)
    # Case matters: headings end in capitalized words ("Combat Phase", "Additional Rules").
    last_word = words[-1].strip('"(),')
    if last_word in _CITING_WORDS or before[-1] in ",;(-–":
        return False
    if before.endswith(_SENTENCE_END):
        return True
    # A heading ("1. The Game", "100. General", "502.9. Trample") has no sentence end.
    return len(before) <= _HEADING_MAX + 10 and not any(c in before for c in ".!?")


def walk_rules(text: str, start: int, end: int) -> tuple[list[Rule], list[str]]:
    """The numbered items of `text[start:end]` in order, and warnings about oddities."""
    warnings: list[str] = []
    found: list[tuple[_Key, re.Match[str]]] = []
    expected = _successors(None)
    for match in _MARKER.finditer(text, start, end):
        parsed = _key_of(match)
        if parsed is None or parsed[0] not in expected:
            continue
        key, irregular = parsed
        if found and not _at_boundary(text, match.start(), found[-1][1].end()):
            continue
        if key.kind == "chapter" and not _opens_chapter(text, match.end(), key.chapter):
            continue
        if irregular:
            warnings.append(f"{key.kind} {key.number} is printed as {match.group(0)!r}")
        found.append((key, match))
        expected = _successors(key)
    if not found:
        raise ParseError("no numbered rule found in the rules body", start)
    rules = []
    for index, (key, match) in enumerate(found):
        stop = found[index + 1][1].start() if index + 1 < len(found) else end
        rules.append(_make_rule(text, key, match, stop))
    return rules, warnings


def _opens_chapter(text: str, position: int, chapter: int) -> bool:
    """Whether a chapter heading at `position` is followed by its first section, as
    every chapter is; a bare "2." inside a sentence is not."""
    heading = re.compile(rf" [^.]{{1,{_HEADING_MAX}}}? {chapter * 100}\. ")
    return heading.match(text, position) is not None


def _make_rule(text: str, key: _Key, match: re.Match[str], stop: int) -> Rule:
    """One item from its marker to `stop`, its examples split off."""
    body_start = match.end()
    while body_start < stop and text[body_start].isspace():
        body_start += 1
    body_end = _rstrip_index(text, body_start, stop)
    labels = list(_EXAMPLE.finditer(text, body_start, body_end))
    own_end = labels[0].start() if labels else body_end
    body = text[body_start:own_end].rstrip()
    examples = []
    for index, label in enumerate(labels):
        ex_end = labels[index + 1].start() if index + 1 < len(labels) else body_end
        examples.append(
            Example(
                text=text[label.end() : ex_end].strip(),
                label="Example:",
                span=(label.start(), _rstrip_index(text, label.end(), ex_end)),
            )
        )
    title = body if _is_heading(key, body) else None
    return Rule(
        number=key.number,
        parent=key.parent,
        kind=key.kind,
        text=body,
        marker=match.group(0),
        title=title,
        examples=tuple(examples),
        span=(match.start(), body_end),
    )


def _is_heading(key: _Key, body: str) -> bool:
    """Whether an item's text is a heading: chapters, sections, and short unpunctuated rules."""
    if key.kind in ("chapter", "section"):
        return True
    return (
        key.kind == "rule"
        and 0 < len(body) <= _HEADING_MAX
        and body[0].isupper()
        and not body.endswith(_SENTENCE_END)
    )


def _rstrip_index(text: str, start: int, end: int) -> int:
    """`end` moved back over trailing whitespace, not before `start`."""
    while end > start and text[end - 1].isspace():
        end -= 1
    return end
