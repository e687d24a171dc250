"""What changed from one shown version of a rule to the next, line by line: the rule's own
text, and for a heading each subrule under it edited, added or removed (matched on their
words, so a relettering alone is no change). The history in a terminal and on the site
shows these, not the whole text again.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from . import wordiff
from .fold import related_key, same_key
from .text import SequenceMatcher, key_ratio, normalize
from .words import change_words

TYPE_CHECKING = False  # typing.TYPE_CHECKING: a lookup does not import typing
if TYPE_CHECKING:
    from typing import Any

SIMILAR = 0.5  # two lines at least this alike (word ratio) are one line edited
# a line's number as printed: a rule ("702.19a") or a rulings-summary item ("A.27.Ruling.1")
LINE_NUMBER = re.compile(r"\d{1,3}(?:\.\d+[a-z]?)?|[A-Z](?:\.[\w-]+)+")


# plain classes with slots, not named tuples nor frozen dataclasses: a history in a terminal
# is a fresh process, and defining a named tuple takes 0.3 ms, a frozen dataclass 0.6 ms
class LineChange:
    """One line of a version against the version before it."""

    __slots__ = ("kind", "new_number", "old_number", "ops")

    def __init__(self, kind: str, old_number: str | None, new_number: str | None,
                 ops: tuple[dict[str, str], ...]) -> None:
        self.kind = kind  # "edited", "added" or "removed"
        self.old_number, self.new_number = old_number, new_number
        self.ops = ops  # word opcodes, old text to new (one side empty if added)


class Comparison:
    """A version against the one shown before it."""

    __slots__ = ("lines", "own")

    def __init__(self, own: tuple[dict[str, str], ...] | None,
                 lines: tuple[LineChange, ...]) -> None:
        self.own = own  # opcodes of the rule's own text; None: the same
        self.lines = lines  # the lines under a heading that changed

    @property
    def same(self) -> bool:
        """Nothing changed but typography and cross-reference numbers."""
        return self.own is None and not self.lines

    def label(self, change: str, renumbered: bool) -> str:
        """What a version's change is called when shown against this earlier one: the
        aligner's change type in words, unless it says only "unchanged" (or "aligned", a
        heading), which may hide an edit of the text, of the lines under it, or a new
        number."""
        if change not in ("unchanged", "aligned"):
            return change_words(change)
        return ("edited" if self.own else "subrules changed" if self.lines
                else "renumbered" if renumbered else "unchanged")


class Step:
    """A folded item (`fold.fold_history`) as a history shows it: against the item shown
    before it of the same rule, or of the same related text (None: the first)."""

    __slots__ = ("before", "comparison", "item")

    def __init__(self, item: dict[str, Any], before: dict[str, Any] | None,
                 comparison: Comparison | None) -> None:
        self.item, self.before = item, before
        self.comparison = comparison  # None for the first

    @property
    def label(self) -> str:
        """What the change is called, in the terminal, on the site and in the feed alike:
        first, edited, subrules changed, renumbered, renumbered and edited, split, merged,
        unchanged, or related (a related text) (rulesdb.lineage.words)."""
        if self.before is None or self.comparison is None:
            return change_words(self.item["change"])
        return self.comparison.label(self.item["change"], self.renumbered)

    @property
    def renumbered(self) -> bool:
        """Whether the rule has another number than the version before it."""
        return (self.before is not None and self.item["change"] != "concept"
                and self.before["number"] != self.item["number"])

    @property
    def number(self) -> str:
        """"502.9 → 702.17" for a new number, else the number."""
        if self.renumbered and self.before is not None:
            return f"{self.before['number']} → {self.item['number']}"
        return self.item["number"]


def steps(items: list[dict[str, Any]]) -> Iterator[Step]:
    """The folded items of a history in order, each compared with the item shown before it:
    a version with the rule's version before it, a related text with the last one of its
    kind and name (`fold.related_key`)."""
    shown: dict[tuple[str, str], dict[str, Any]] = {}
    rule: dict[str, Any] | None = None
    for item in items:
        if item["change"] == "concept":
            before = shown.get(related_key(item))
            shown[related_key(item)] = item
        else:
            before, rule = rule, item
        yield Step(item, before, None if before is None else compare(before["text"],
                                                                     item["text"]))


def split_lines(text: str) -> tuple[str, list[tuple[str | None, str]]]:
    """A version's own text and its further lines as (number, text) ("702.19a Trample …");
    the number is None for a line that starts with none (a paragraph of a glossary entry)."""
    own, *rest = text.split("\n")
    lines: list[tuple[str | None, str]] = []
    for line in rest:
        number, _, body = line.partition(" ")
        lines.append((number, body) if LINE_NUMBER.fullmatch(number) else (None, line))
    return own, lines


def alike(ops: tuple[dict[str, str], ...] | list[dict[str, str]]) -> float:
    """The share of words two texts keep in common (0: rewritten, 1: the same words)."""
    kept = sum(len(op["old"].split()) for op in ops if op["op"] == "equal")
    total = max(sum(len(op["old"].split()) for op in ops),
                sum(len(op["new"].split()) for op in ops), 1)
    return kept / total


def compare(before: str, now: str) -> Comparison:
    """How `now` (a version's text, a heading's with its subtree) differs from `before`."""
    old_own, old_lines = split_lines(before)
    new_own, new_lines = split_lines(now)
    own = None if same_key(old_own) == same_key(new_own) else tuple(
        wordiff.opcodes(old_own, new_own))
    keys = ([same_key(text) for _, text in old_lines], [same_key(text) for _, text in new_lines])
    changed: list[LineChange] = []
    matcher = SequenceMatcher(None, *keys, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            changed.extend(_pair(old_lines[i1:i2], new_lines[j1:j2]))
    return Comparison(own, tuple(changed))


def _pair(old: list[tuple[str | None, str]], new: list[tuple[str | None, str]]) -> list[LineChange]:
    """The lines of a changed block, in order: alike lines as edits, the rest added or removed."""
    out: list[LineChange] = []
    i = j = 0
    while i < len(old) or j < len(new):
        if i < len(old) and j < len(new) and key_ratio(
                normalize(old[i][1]), normalize(new[j][1])) >= SIMILAR:
            out.append(LineChange("edited", old[i][0], new[j][0],
                                  tuple(wordiff.opcodes(old[i][1], new[j][1]))))
            i, j = i + 1, j + 1
        elif i < len(old) and len(old) - i >= len(new) - j:
            out.append(LineChange("removed", old[i][0], None,
                                  tuple(wordiff.opcodes(old[i][1], ""))))
            i += 1
        else:
            out.append(LineChange("added", None, new[j][0],
                                  tuple(wordiff.opcodes("", new[j][1]))))
            j += 1
    return out
