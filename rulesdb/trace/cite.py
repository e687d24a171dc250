"""Rule citations inside one text: the forms engines use, and the noise that never counts.

Forms: "CR 704.5a", "rule 702.19c", "Rules 304.4, 307.4", ranges "601.2e-g" / "800.4a–c",
lists "704.5a/704.5b", bare "704.5e" in a comment or string, ids in identifiers
("stateBasedAction704_5d"), link anchors ("#R702102b") and edition hints ("20091005 - 602.2a").
Floats (100.0), versions (1.2.3, v110.2), dates and IP addresses never match: a bare number
must stand alone (no word character, dot-digit or colon-digit on either side).

One compiled regex finds every head; the list after a head is read with one anchored match.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..numbers import expand_range

CANON = re.compile(r"[1-9]\d{2}(?:\.[1-9]\d{0,2}(?:[a-km-np-z])?)?")
_LOOSE = r"(?:\d{3}(?:\.[0-9A-Za-z]+){0,2}|\d{1,4}(?:\.[0-9A-Za-z]+){1,2})"
_BARE = r"[1-9]\d{2}\.[1-9]\d{0,2}[a-z]?"
_RANGE_END = r"(?:\s?[-–—]\s?(?:{item}|[a-z](?![\w])|\d{{1,3}}(?![\w.]))|\s(?:to|through)\s{item})"
_SEP = r"(?:\s?[,/;&]\s?(?:and\s|or\s)?(?:rules?\s|CR\s)?|\s(?:and|or)\s(?:rules?\s)?)"


def _list_regex(item: str) -> re.Pattern[str]:
    one = rf"{item}(?:{_RANGE_END.format(item=item)})?"
    return re.compile(rf"{one}(?:{_SEP}{one})*")


LOOSE_LIST = _list_regex(_LOOSE)
BARE_LIST = _list_regex(_BARE)
ITEM = re.compile(rf"(?P<start>{_LOOSE})(?:\s?[-–—]\s?(?P<end>{_LOOSE}|[a-z]|\d{{1,3}})"
                  rf"|\s(?:to|through)\s(?P<end2>{_LOOSE}))?")

HEADS = re.compile(
    r"#R(?P<anchor>[1-9]\d{3,5}[a-z]?)(?![\w])"
    r"|\b(?P<hint>(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01]))\s?[-–:]\s?(?=[1-9])"
    r"|(?P<marker>\b(?:CR|C\.R\.|[Cc]omprehensive\s[Rr]ules?|[Rr]ules?|RULES?)\b\.?|§§?)"
    r"\s?(?:#|:|no\.)?\s?(?=\d)"
    r"|(?<![\w.$/\\:=+*%#@'-])(?P<bare>[1-9]\d{2}\.[1-9])"
    r"|(?<=[A-Za-z_])(?P<ident>[1-9]\d{2})_(?P<ident_num>[1-9]\d{0,2})(?P<ident_letter>[a-z])?"
    r"(?![a-z0-9])"
)
NOT_AFTER = re.compile(r"[\w]|\.\d|:\d|\s?%")
VERSIONISH = re.compile(r"(?:version|ver\.?|release|build|v|python|node|api)\s?$", re.I)
IDENT_MARKERS = {"rule", "rules", "cr", "sba", "state", "test", "enforce", "enforces",
                 "check", "example", "action", "r"}
PREFILTER = re.compile(rb"[1-9]\d\d(?:\.[1-9]|_[1-9])|#R[1-9]\d{3}")
# Every citation the scanner reports holds one of these; only their lines are read closely.
CANDIDATES = re.compile(r"[1-9]\d\d(?:\.[1-9]|_[1-9])|#R[1-9]\d{3}")


@dataclass(frozen=True)
class Found:
    """One cited rule number: where the citation stands, as written, and how it was marked.

    `form` is marker, bare, anchor, hint or identifier; `malformed` says the text after a
    marker is not a rule number (or not a range of rules).
    """

    start: int
    end: int
    cited: str
    number: str
    form: str
    malformed: bool = False
    hint: str | None = None


Known = Callable[[str], bool]


_DIGITS = bytes.maketrans(b"123456789", b"000000000")


def has_candidates(data: bytes) -> bool:
    """Cheap test on raw bytes: could this file hold a citation at all?"""
    folded = data.translate(_DIGITS)  # every digit a 0: three substring searches, no regex
    if b"000." not in folded and b"000_" not in folded and b"#R0000" not in folded:
        return False
    return PREFILTER.search(data) is not None


def heads(text: str, start: int = 0, end: int | None = None) -> Iterator[re.Match[str]]:
    """Every possible start of a citation in `text[start:end]` (classify each by where it
    stands)."""
    return HEADS.finditer(text, start, len(text) if end is None else end)


def read(text: str, head: re.Match[str], known: Known | None = None) -> list[Found]:
    """The citations that start at `head`; [] when it turns out to be noise.

    Bare numbers count only when `known` accepts them (a rule number of some edition) and
    when they do not read as a version; marked ones always count, malformed or not.
    """
    if head["anchor"]:
        digits = head["anchor"]
        letter = digits[-1] if digits[-1].isalpha() else ""
        core = digits.rstrip("abcdefghijklmnopqrstuvwxyz")
        number = f"{core[:3]}.{core[3:]}{letter}"
        return [Found(head.start(), head.end(), head.group(), number, "anchor",
                      not CANON.fullmatch(number))]
    if head["ident"]:
        number = f"{head['ident']}.{head['ident_num']}{head['ident_letter'] or ''}"
        words = _identifier_words(text, head.start(), head.end())
        if not IDENT_MARKERS & words:
            return []
        return [Found(head.start(), head.end(), head.group(), number, "identifier",
                      not CANON.fullmatch(number))]
    if head["bare"]:
        if VERSIONISH.search(text, max(0, head.start() - 10), head.start()):
            return []
        match = BARE_LIST.match(text, head.start())
        form = "bare"
    else:
        match = LOOSE_LIST.match(text, head.end())
        form = "hint" if head["hint"] else "marker"
    if not match or NOT_AFTER.match(text, match.end()):
        return []
    hint = head["hint"]
    found = []
    for item in ITEM.finditer(match.group()):
        start, end = item["start"], item["end"] or item["end2"]
        position = match.start() + item.start()
        cited = item.group()
        if end:
            numbers = expand_range(start, end) if CANON.fullmatch(start) else []
            malformed = not numbers or not all(CANON.fullmatch(n) for n in numbers)
            numbers = numbers or [start]
        else:
            numbers, malformed = [start], not CANON.fullmatch(start)
        if form == "bare" and (malformed or (known and not all(map(known, numbers)))):
            continue
        found += [Found(position, position + len(cited), cited, n, form, malformed,
                        _iso(hint) if hint else None) for n in numbers]
    return found


def _identifier_words(text: str, start: int, end: int) -> set[str]:
    left = start
    while left > 0 and (text[left - 1].isalnum() or text[left - 1] in "_$"):
        left -= 1
    right = end
    while right < len(text) and (text[right].isalnum() or text[right] in "_$"):
        right += 1
    return set(words(text[left:start] + " " + text[end:right]))


def words(identifier: str) -> list[str]:
    """Lower-case words of an identifier or phrase: camelCase, snake_case, kebab, spaces."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", identifier)
    spaced = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", spaced)
    return [w for w in re.split(r"[^A-Za-z]+", spaced.lower()) if w]


def _iso(hint: str) -> str:
    return f"{hint[:4]}-{hint[4:6]}-{hint[6:]}"
