"""The numbered rules of a Comprehensive Rules text whose line breaks are lost.

Nothing marks where an item starts but its number, and numbers are also cited inside
sentences ("see rule 409.1a"). A number opens an item when

- it follows the end of a sentence or a closing quote or bracket (a cited number follows a
  word: "rule", "see", "and"), and no lowercase word follows it; such a number opens an
  item even when it breaks the numbering (a misprint: "501.2" printed for "510.2"), or
- it follows a heading ("702.19. Trample 702.19a"), or is the next number the numbering
  expects, and no citing word comes before it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .cr_lines import HEADING_MAX, is_heading
from .cr_order import Key, order_warnings, successors
from .model import Example, ParseError, Rule

# "7.", "702.", "702.19.", "702.19a", and the misprints "702.19" (a rule without its period),
# "702.19a." (a subrule with one) and "901.4.All" (no space after the marker)
_MARKER = re.compile(
    r"(?<!\S)(?:(\d)\.(?=\s)|([1-9]\d\d)\.(?:(\d{1,3})([a-z])?\.?(?=\s|$)|(?=\s)"
    r"|(\d{1,3})([a-z])?\.(?=[^\s\d.])))")
# the rest of a number printed with a space inside it, after its section ("606. 8b")
_SPLIT = re.compile(r"\s+(\d{1,3})([a-z])?\.?(?=\s)")
# what may end the text before an item: a sentence end, a closing quote or bracket
_ENDS = frozenset('.!?:"\')]”’')
# words that make a number after them a citation (case matters: headings end in
# capitalized words, "Combat Phase", "Additional Rules")
_CITING = frozenset(
    {"rule", "rules", "see", "See", "section", "sections", "chapter", "subrule", "subrules"}
    | {"and", "or", "of", "to", "in", "under", "by", "from", "with", "through", "per"}
    | {"also", "than", "then", "is", "are", "step", "steps", "phase", "between", "after"}
)
EXAMPLE = re.compile(r"(?<!\S)((?:Example:\s*)?Example:)(?:\s+|$)")


@dataclass(frozen=True)
class _Marker:
    key: Key
    start: int
    end: int  # where the marker ends
    printed: str  # the marker as printed
    glued: bool = False


def _marker(text: str, match: re.Match[str]) -> _Marker:
    """The item number a token names."""
    chapter, section, rule, letter, glued_rule, glued_letter = match.groups()
    start, end = match.span()
    if chapter is not None:
        return _Marker(Key(int(chapter) * 100, -2), start, end, match[0])
    head = int(section)
    if glued_rule is not None:
        return _Marker(Key(head, int(glued_rule), glued_letter or ""), start, end, match[0],
                       glued=True)
    if rule is not None:
        return _Marker(Key(head, int(rule), letter or ""), start, end, match[0])
    split = _SPLIT.match(text, end)
    if split is not None:
        return _Marker(Key(head, int(split[1]), split[2] or ""), start, split.end(),
                       text[start : split.end()])
    return _Marker(Key(head), start, end, match[0])


def _printed_irregularly(marker: _Marker) -> str | None:
    """A warning when a rule lacks its period, a subrule has one, a space is inside the
    number or none after it."""
    key, printed = marker.key, marker.printed
    if marker.glued:
        return f"no space after {printed}"
    if key.kind == "rule" and not printed.endswith("."):
        return f"rule {key.number} is printed without its period"
    if key.kind == "subrule" and printed.endswith("."):
        return f"subrule {key.number} is printed with a period"
    if " " in printed or "\n" in printed:
        return f"{key.kind} {key.number} is printed with a space inside its number"
    return None


def _opens_chapter(text: str, marker: _Marker) -> bool:
    """Whether a chapter number is followed by its heading and one of its sections, as every
    chapter is; a bare "2." inside a sentence is not."""
    heading = re.compile(rf"\s*[^.]{{1,{HEADING_MAX}}}?\s{marker.key.chapter}\d\d\.\s")
    return heading.match(text, marker.end) is not None


def _follows_sentence(before: str) -> bool:
    """Whether text ending in `before` (right-stripped) ends a sentence or a quotation."""
    return bool(before) and before[-1] in _ENDS


def _not_citing(before: str) -> bool:
    """Whether a number after `before` can open the next item: the text before it does not
    end in a citing word or a list of numbers."""
    words = before.rsplit(None, 1)
    last = words[-1].strip('"(),“”') if words else ""
    if last in _CITING or before.endswith(("(", "-", "–", "—", "/", "&", ";")):
        return False
    # "to change, 706.2c If ..." opens an item; "rules 603.7d, 603.7e" cites two
    return not (before.endswith(",") and last[:1].isdigit())


def walk_rules(text: str, start: int, end: int) -> tuple[list[Rule], list[str]]:
    """The numbered items of `text[start:end]` in order, and warnings about oddities."""
    found: list[_Marker] = []
    expected = successors(None)
    in_order: Key | None = None
    for match in _MARKER.finditer(text, start, end):
        marker = _marker(text, match)
        following = text[marker.end : marker.end + 2].lstrip()[:1]
        if following.islower():
            continue
        if not found:
            accepted = not text[start : marker.start].strip()
        else:
            before = text[max(found[-1].end, marker.start - 80) : marker.start].rstrip()
            # after a heading ("101. The Magic Golden Rules 100.9. Whenever ..."), a number
            # opens an item as after a sentence, unless a word cites it
            heading = marker.start - found[-1].end <= HEADING_MAX + 1 and \
                is_heading(text[found[-1].end : marker.start].strip())
            accepted = _follows_sentence(before) or (
                (marker.key in expected or heading) and _not_citing(before))
        if accepted and marker.key.kind == "chapter":
            accepted = _opens_chapter(text, marker)
        if not accepted:
            continue
        found.append(marker)
        if in_order is None or marker.key > in_order:
            in_order = marker.key
        expected = successors(marker.key) | successors(in_order)
    if not found:
        raise ParseError("no numbered rule found in the rules", start)
    rules = []
    warnings = []
    seen: set[Key] = set()
    for index, marker in enumerate(found):
        stop = found[index + 1].start if index + 1 < len(found) else end
        rules.append(_make_rule(text, marker, stop))
        irregular = _printed_irregularly(marker)
        if irregular:
            warnings.append(irregular)
        if marker.key in seen:
            warnings.append(f"{marker.key.kind} {marker.key.number} is numbered twice")
        seen.add(marker.key)
    warnings.extend(order_warnings(rule.number for rule in rules))
    return rules, warnings


def lstrip_index(text: str, start: int, end: int) -> int:
    """`start` moved forward over leading whitespace, not past `end`."""
    while start < end and text[start].isspace():
        start += 1
    return start


def rstrip_index(text: str, start: int, end: int) -> int:
    """`end` moved back over trailing whitespace, not before `start`."""
    while end > start and text[end - 1].isspace():
        end -= 1
    return end


def split_examples(text: str, start: int, end: int) -> tuple[str, tuple[Example, ...]]:
    """The text of `text[start:end]` before its first "Example:", and its examples."""
    labels = list(EXAMPLE.finditer(text, start, end))
    own_end = rstrip_index(text, start, labels[0].start() if labels else end)
    examples = []
    for index, label in enumerate(labels):
        stop = rstrip_index(text, label.end(), labels[index + 1].start()
                            if index + 1 < len(labels) else end)
        examples.append(Example(text=" ".join(text[label.end() : stop].split()),
                                label=" ".join(label.group(1).split()),
                                span=(label.start(), stop)))
    return " ".join(text[start:own_end].split()), tuple(examples)


def _make_rule(text: str, marker: _Marker, stop: int) -> Rule:
    """One item from its marker to `stop`, its examples split off."""
    body_start = lstrip_index(text, marker.end, stop)
    body_end = rstrip_index(text, body_start, stop)
    body, examples = split_examples(text, body_start, body_end)
    key = marker.key
    return Rule(
        number=key.number,
        parent=key.parent,
        kind=key.kind,
        text=body,
        marker=" ".join(marker.printed.split()),
        title=body if key.kind in ("chapter", "section") or (
            key.kind == "rule" and is_heading(body)) else None,
        examples=examples,
        glued=marker.glued,
        span=(marker.start, body_end),
    )
