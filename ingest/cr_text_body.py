"""The rules of a Comprehensive Rules text file printed one per line: which line opens
which item, and the rule tree the body's lines make (`cr_text` finds the body)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .cr_lines import EXAMPLE, Line, clean, is_heading
from .cr_order import order_warnings
from .cr_wraps import Wrapping
from .model import Example, ParseError, Rule

CHAPTER = re.compile(r"^[ \t]*(\d)\.[ \t]+(?=\S)")
# The line patterns match only a line's head: where its text starts is all they need to
# tell, and the text runs to the end of the line (its trailing whitespace is stripped by
# `clean`). Scanning each line to its end with a lazy "(.*?)\s*$" was the parse's largest
# single cost.
# `text` is the first character of the text; a line with none must be blank after the marker.
_NUMBERED = re.compile(
    r"^(?P<indent>[ \t]*)(?P<section>\d{3})(?:\.(?P<rule>\d+)(?P<letter>[a-z])?)?"
    r"(?P<dot>\.)?(?P<gap>[ \t]*)(?:(?P<text>\S)|\s*$)"
)
# a rule number printed with a space after the section's period: "702. 37a" (group 4: the gap)
_SPLIT_NUMBER = re.compile(r"(\d+)([a-z])?(\.)?([ \t]+)(?=\S)")
# the last word of a line a number on the next line continues, not opens an item ("See rule"
# wrapped before "103.4. If a player must ...", 2003-10-01)
_CITING_END = re.compile(r"(?:^|\s)(?:[Rr]ules?|[Ss]ee|[Ss]ubrules?|[Ss]ections?)$")


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
        headed = self.kind in ("chapter", "section") or (self.kind == "rule" and is_heading(text))
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


def rule_line(line: str) -> re.Match[str] | None:
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


def _numbered_item(offset: int, line: str, chapters: set[str], warnings: list[str]) -> _Item | None:
    """The item a numbered line starts, or None when the line is not a rule line."""
    match = rule_line(line)
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


def parse_body(lines: list[Line], warnings: list[str], wraps: Wrapping | None = None
               ) -> list[Rule]:
    """The rule tree of the body lines, in document order; a hard-wrapped file's (`wraps`)
    wrapped lines joined into their paragraphs."""
    items: list[_Item] = []
    chapters: set[str] = set()
    seen: set[str] = set()
    previous = ""  # the line before, as printed; "" after a blank line
    cites = False  # whether the line before may go on into a rule number ("See rule⏎")
    for offset, line in lines:
        if not line or line.isspace():  # blank: same test as `not line.strip()`, no copy
            previous, cites = "", False
            continue
        # a line the line before wrapped into continues it, whatever it opens with ("Its
        # mana value is⏎4. After it transforms"), and so does a number after "See rule"
        joint = wraps.join(previous, line) if wraps and previous else None
        after_citing = joint is not None or \
            (cites and _CITING_END.search(previous.rstrip()) is not None)
        previous, cites = line, True
        chapter = None if after_citing else CHAPTER.match(line)
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
            cites = False  # a heading ends no sentence a rule number continues
            continue
        item = None if after_citing else _numbered_item(offset, line, chapters, warnings)
        if item is not None:
            # "101. The Magic Golden Rules" ends with a citing word, but no "See rule"
            # runs on from a heading: the number on the next line opens a rule
            cites = item.kind != "section"
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
        example = EXAMPLE.match(line) if joint is None else None
        if example:
            text = clean(line[example.end() :], offset, warnings)
            label_start = offset + example.start(1)
            if example.group(1) != "Example:":
                warnings.append(f"'Example:' printed twice (offset {label_start})")
            current.examples.append([example.group(1), [text], label_start, current.end])
        else:
            # A paragraph after an example continues it; this keeps the printed order.
            paragraphs = current.examples[-1][1] if current.examples else current.lines
            if current.examples:
                current.examples[-1][3] = current.end
            if joint is None:
                paragraphs.append(clean(line, offset, warnings))
            else:
                paragraphs[-1] += joint + clean(line, offset, warnings)
    rules = [item.freeze() for item in items]
    warnings.extend(order_warnings(rule.number for rule in rules))
    return rules
