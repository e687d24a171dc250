"""Lines of a Comprehensive Rules text file, as its parsers (rules, glossary, and the text
whose line breaks are lost) read them: where an example starts, whether a rule's text is a
heading, and each line's text with the source's spacing slips mended.
"""

from __future__ import annotations

import re

Line = tuple[int, str]  # (offset in the text, line without its newline)

# Only the label is matched: the example's text is the rest of the line, stripped by `clean`.
# the label, printed twice in some releases ("Example:Example: A player …", 2014-09-26)
# a label glued to its text ("Example:Bob ...") is no label: it would not rebuild the line
EXAMPLE = re.compile(r"^[ \t]*((?:Example:[ \t]*)?Example:)(?:[ \t]+|$)")
DOUBLED_SPACES = "doubled spaces"
ODD_SPACES = "no-break or other odd spaces read as spaces"
SHOWN = 3  # warnings of one kind listed before the rest are counted
_SPACES = re.compile(r"[ \t]{2,}")
HEADING_MAX = 60  # a heading is short and carries no sentence punctuation
# Keyword names may end with "!" ("For Mirrodin!"), so "!" alone does not make a sentence.
_SENTENCE_MARK = re.compile(r"[.:;?]\s|[.:;?”\"]$")
_KIND = re.compile(r"'.*'|\d+(?:[.-]\d+)*[a-z]?")  # what differs between warnings of a kind
# spaces other than the plain one and the tab: no-break, typographic widths, ideographic
_ODD = "\u00a0\u1680" + "".join(map(chr, range(0x2000, 0x200b))) + "\u202f\u205f\u3000"
_ODD_SPACE = re.compile(f"[{_ODD}]")


def is_heading(text: str) -> bool:
    """Whether a rule's text is a heading ("Trample", "For Mirrodin!") rather than a rule."""
    return (bool(text) and "\n" not in text and len(text) <= HEADING_MAX
            and not _SENTENCE_MARK.search(text))


def plain_spaces(text: str, warnings: list[str]) -> str:
    """`text` with every odd space a plain one (a copy of a web page has a no-break space
    where a number meets its text), warned about once; the same length."""
    # a substring test per odd space is a fiftieth of one scan with the character class
    if not any(space in text for space in _ODD):
        return text
    first = _ODD_SPACE.search(text)
    if first is None:
        return text
    spaced, count = _ODD_SPACE.subn(" ", text)
    line = text.count("\n", 0, first.start()) + 1
    warnings.append(f"{ODD_SPACES}: {count}, the first on line {line}")
    return spaced


def clean(line: str, offset: int, warnings: list[str], where: str = "line") -> str:
    """`line` stripped, doubled spaces reduced (a source slip, warned about with `where` it
    is and its `offset`)."""
    stripped = line.strip()
    # Doubled spaces are rare: two substring tests spare the regex on almost every line.
    if ("  " in stripped or "\t" in stripped) and _SPACES.search(stripped):
        warnings.append(f"{DOUBLED_SPACES} in {where} at offset {offset}: {stripped[:40]!r}")
        stripped = _SPACES.sub(" ", stripped)
    return stripped


def fold_warnings(warnings: list[str]) -> list[str]:
    """`warnings` with each kind (the same words, other numbers and quotes) listed at most
    SHOWN times and the rest counted: a file typed with two spaces after each sentence, or
    reformatted with every rule indented, has the same slip on almost every line."""
    kinds: dict[str, list[str]] = {}
    out = []
    for warning in warnings:
        same = kinds.setdefault(_KIND.sub("#", warning), [])
        same.append(warning)
        if len(same) <= SHOWN:
            out.append(warning)
    return out + [f"{len(same) - SHOWN} more like: {same[0]}"
                  for same in kinds.values() if len(same) > SHOWN]
