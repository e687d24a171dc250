"""The numbering of the Comprehensive Rules: where a number stands in it, which numbers may
come next, warnings for numbers printed out of order, the sections covered (both parsers
use them)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from .model import Rule

LETTERS = "abcdefghijkmnpqrstuvwxyz"  # subrule letters skip l and o
_NUMBER = re.compile(r"(\d+)(?:\.(\d+)([a-z]?))?")


@dataclass(frozen=True, order=True)
class Key:
    """A position in the numbering: section (a chapter is its first section's hundred),
    rule and subrule letter; keys compare in the order the rules are printed.

    `rule` is -2 for a chapter, -1 for a section; `letter` is "" for a rule.
    """

    section: int
    rule: int = -1
    letter: str = ""

    @classmethod
    def of(cls, number: str) -> Key | None:
        """The key of a number as stored ("7", "702", "702.19", "702.19a"), None if malformed."""
        match = _NUMBER.fullmatch(number)
        if match is None:
            return None
        head = int(match[1])
        if match[2] is None:
            return cls(head * 100, -2) if head < 10 else cls(head)
        return cls(head, int(match[2]), match[3])

    @property
    def kind(self) -> str:
        """chapter, section, rule or subrule."""
        if self.rule < 0:
            return "chapter" if self.rule == -2 else "section"
        return "subrule" if self.letter else "rule"

    @property
    def chapter(self) -> int:
        return self.section // 100

    @property
    def number(self) -> str:
        """The number as stored ("7", "702", "702.19a")."""
        if self.rule == -2:
            return str(self.chapter)
        if self.rule == -1:
            return str(self.section)
        return f"{self.section}.{self.rule}{self.letter}"

    @property
    def parent(self) -> str | None:
        """The number of the item this one belongs to (a section's chapter, ...)."""
        if self.rule == -2:
            return None
        if self.rule == -1:
            return str(self.chapter)
        if not self.letter:
            return str(self.section)
        return f"{self.section}.{self.rule}"


def successors(key: Key | None) -> set[Key]:
    """The numbers that may directly follow `key` in a complete numbering: its first child
    (any section of a chapter: a fragment of the rules may start a chapter anywhere), or the
    next number of its own kind or of any kind above it."""
    if key is None:
        return {Key(100, -2)}
    out = {Key((key.chapter + 1) * 100, -2)}
    if key.rule == -2:
        return {Key(key.section + index) for index in range(100)}
    if key.section + 1 < (key.chapter + 1) * 100:
        out.add(Key(key.section + 1))
    if key.rule == -1:
        out.add(Key(key.section, 1))
        return out
    out.add(Key(key.section, key.rule + 1))
    index = LETTERS.find(key.letter) if key.letter else -1
    if index + 1 < len(LETTERS):
        out.add(Key(key.section, key.rule, LETTERS[index + 1]))
    return out


def order_warnings(numbers: Iterable[str]) -> list[str]:
    """A warning for each number printed before one it should follow ("rule 100.1 follows
    100.2: out of numerical order"); a number printed twice is left to its own warning."""
    warnings = []
    previous: tuple[Key, str] | None = None
    for number in numbers:
        key = Key.of(number)
        if key is None:
            continue
        if previous is not None and key < previous[0]:
            warnings.append(f"{key.kind} {number} follows {previous[1]}: out of numerical order")
        previous = (key, number)
    return warnings


def covers(rules: Iterable[Rule]) -> tuple[str, ...]:
    """ "first-last" section ranges, one per run of consecutive chapters present."""
    sections = [int(rule.number) for rule in rules if rule.kind == "section"]
    runs: list[list[int]] = []
    for number in sections:
        if runs and number // 100 - runs[-1][-1] // 100 in (0, 1):
            runs[-1].append(number)
        else:
            runs.append([number])
    return tuple(f"{min(run)}-{max(run)}" for run in runs)
