"""Parser for Comprehensive Rules text whose line breaks are lost: a release pasted from a web
page or a PDF, or with its whitespace collapsed (cr-2009-02-01-flattened is one line).

The structure is recovered from the text itself. The parts are found by their headings,
in the order every release prints them: the title and its effective date, "Introduction",
"Contents" (listing the chapters, "Glossary" and "Credits"), the rules from chapter 1 on,
"Glossary" after a sentence end, "Credits". The numbered rules are split by
`cr_flat_rules`, the glossary by `cr_flat_glossary`. A fragment (rules only, as chapter 7
alone) is read too. The result is the Document the one-rule-per-line parser (`cr_text`)
gives for the same release, each text on one line.
"""

from __future__ import annotations

import re
from itertools import pairwise

from .cr_complete import settle_end
from .cr_date import DATE, cr_meta
from .cr_flat_glossary import split_glossary
from .cr_flat_rules import lstrip_index, rstrip_index, walk_rules
from .cr_lines import fold_warnings, plain_spaces
from .decode import decode
from .model import Document, ParseError, Part, Residue, Rule

_INTRODUCTION = re.compile(r"(?<!\S)Introduction(?=\s)")
_CONTENTS = re.compile(r"(?<!\S)Contents(?=\s+1\.\s)")
# The body opens with chapter 1, its first section and that section's first rule; the
# contents list the same chapter and section, but never a rule after them.
_BODY = re.compile(r"(?<!\S)1\.\s[^.]{1,80}?\s100\.\s[^.]{1,80}?\s100\.1\.?\s")
# A fragment opens with its first number, at the start or after a title and its date.
_FRONT_MAX = 1000
_FIRST_NUMBER = re.compile(r"\s*(?:\d\.|[1-9]\d\d\.(?:\d{1,3}[a-z]?\.?)?)\s")
_ENDS = "[.!?:\"')\\]”’]"
_GLOSSARY = re.compile(rf"(?<={_ENDS})\s+(Glossary)(?=\s)")
_CREDITS = re.compile(rf"(?<={_ENDS})\s+(Credits)(?=\s)")
_CONTENTS_ITEM = re.compile(r"(?<!\S)(\d{1,3})\.\s+(.+?)(?=\s+\d{1,3}\.\s|\s+Glossary\s|\s*$)",
                            re.DOTALL)


def parse(data: bytes) -> Document:
    """The Document of a Comprehensive Rules text whose line breaks are lost."""
    return parse_text(decode(data))


def _find(pattern: re.Pattern[str], text: str, start: int, end: int) -> int | None:
    """Where the first match of `pattern` in text[start:end] starts (its group 1, if any)."""
    match = pattern.search(text, start, end)
    if match is None:
        return None
    return match.start(1) if match.re.groups else match.start()


def parse_text(text: str) -> Document:
    """The Document of the decoded text of a Comprehensive Rules release or fragment."""
    warnings: list[str] = []
    source, text = text, plain_spaces(text, warnings)
    contents = _find(_CONTENTS, text, 0, len(text))
    body_match = _BODY.search(text, contents or 0)
    if body_match is not None:
        body = body_match.start()
    else:  # a fragment: its rules from the start, or after a title and its date
        printed = DATE.search(text, 0, _FRONT_MAX)
        first = _FIRST_NUMBER.match(text, printed.end() if printed else 0)
        if first is None or contents is not None:
            raise ParseError("no chapter 1 followed by rule 100.1, nor a numbered rule at the "
                             "start: not a Comprehensive Rules text", contents or 0)
        body = first.end() - len(first.group(0).lstrip())
    date = DATE.search(text, 0, contents if contents is not None else body)
    introduction = _find(_INTRODUCTION, text, date.end() if date else 0,
                         contents if contents is not None else body)
    glossary = _find(_GLOSSARY, text, body, len(text))
    credits = _find(_CREDITS, text, glossary if glossary is not None else body, len(text))
    body_end = next(i for i in (glossary, credits, len(text)) if i is not None)

    rules, rule_warnings = walk_rules(text, body, body_end)
    warnings.extend(rule_warnings)
    parts, residue = _front_parts(text, body, introduction, contents, date)
    entries = []
    if glossary is not None:
        end = glossary + len("Glossary")
        parts.append(Part("glossary", "Glossary", (glossary, end)))
        stop = credits or len(text)
        entries, glossary_warnings = split_glossary(text, lstrip_index(text, end, stop), stop)
        warnings.extend(glossary_warnings)
    if credits is not None:
        _check_one_release(text, credits)
        parts.append(Part("credits", text[credits : rstrip_index(text, credits, len(text))],
                          (credits, rstrip_index(text, credits, len(text)))))
    listed = frozenset(text[contents:body].split()) if contents is not None else None
    if contents is not None:
        warnings.extend(_compare_contents(text[contents:body], rules))
    cut_off = settle_end(text, rules, entries, residue, listed, glossary is not None,
                         credits is not None, warnings)
    meta = cr_meta(_title(text, date, parts), date, rules, warnings, cut_off)
    return Document(meta=meta, text=source, rules=tuple(rules), glossary=tuple(entries),
                    parts=tuple(parts), residue=tuple(residue),
                    warnings=tuple(fold_warnings(warnings)))


def _front_parts(text: str, body: int, introduction: int | None, contents: int | None,
                 date: re.Match[str] | None) -> tuple[list[Part], list[Residue]]:
    """The parts before the rules: title (with the date line), introduction, contents; or,
    in a fragment without them, the text before its first rule as residue."""
    bounds = sorted({0, body, *(i for i in (introduction, contents) if i is not None)})
    parts, residue = [], []
    for first, stop in pairwise(bounds):
        start = lstrip_index(text, first, stop)
        end = rstrip_index(text, start, stop)
        if start == end:
            continue
        if start == introduction:
            parts.append(Part("introduction", text[start:end], (start, end)))
        elif start == contents:
            parts.append(Part("contents", text[start:end], (start, end)))
        elif introduction is None and contents is None and date is None:
            residue.append(Residue(text[start:end], "text before the first rule", (start, end)))
        else:
            parts.append(Part("title", text[start:end], (start, end)))
    return parts, residue


def _title(text: str, date: re.Match[str] | None, parts: list[Part]) -> str | None:
    """The printed title: the text before the date, else the title part."""
    if date is not None and text[: date.start()].strip():
        return " ".join(text[: date.start()].split())
    if parts and parts[0].name == "title":
        return " ".join(parts[0].text.split())
    return None


def _compare_contents(contents: str, rules: list[Rule]) -> list[str]:
    """Warnings for the chapters and sections the contents and the body disagree on."""
    listed = {m.group(1): " ".join(m.group(2).split()) for m in _CONTENTS_ITEM.finditer(contents)}
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


def _check_one_release(text: str, credits: int) -> None:
    """Raise ParseError when a second release follows the Credits (`cat a.txt b.txt`)."""
    second = _BODY.search(text, credits)
    if second is not None:
        raise ParseError("a second rules text follows the Credits: add each release from its "
                         "own file", second.start())
