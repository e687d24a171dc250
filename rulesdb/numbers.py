"""Rule numbers as printed: stored form, natural order, ranges ("601.2a-h", "rules 306-311").

Shared by every stage but the parsers: the lookups sort and normalize numbers, the references
layer and the citation scanner expand ranges.
"""

from __future__ import annotations

import re

LETTERS = "abcdefghijkmnpqrstuvwxyz"  # subrule letters skip l and o


def normalize_number(number: str) -> str:
    """A rule number as stored: surrounding space and a trailing period dropped."""
    return number.strip().rstrip(".")


def spoken(number: str) -> str:
    """How a Comprehensive Rules number reads on its own: "chapter 5", "section 502", "rule
    702.19b"; any other number (a rulings-summary item, a rulebook label) as printed."""
    if re.fullmatch(r"\d", number):
        return f"chapter {number}"
    if re.fullmatch(r"\d{3}", number):
        return f"section {number}"
    if re.fullmatch(r"\d{3}\.\d+[a-z]?", number):
        return f"rule {number}"
    return number


def natural_key(number: str) -> list[tuple[int, str]]:
    """Sort key putting 702.9 before 702.10 and 702.19a before 702.19b."""
    return [(int(part), "") if part.isdigit() else (-1, part)
            for part in re.findall(r"\d+|[^\d.]+", number)]


def letter_range(first: str, last: str) -> list[str]:
    """Subrule letters from `first` to `last` inclusive, skipping l and o."""
    if first not in LETTERS or last not in LETTERS:
        return []
    return list(LETTERS[LETTERS.index(first) : LETTERS.index(last) + 1])


def expand_range(start: str, end: str) -> list[str]:
    """Every rule number from `start` to `end` ("601.2f", "h" → 601.2f … 601.2h).

    Returns [] when the two ends do not make a range of one kind.
    """
    head, _, tail = start.partition(".")
    if re.fullmatch(r"[a-z]", end):
        match = re.fullmatch(r"(\d+)([a-z])", tail)
        if not match:
            return []
        return [f"{head}.{match[1]}{letter}" for letter in letter_range(match[2], end)]
    end_head, end_dot, end_tail = end.partition(".")
    if not tail:  # sections: 306-311
        if end_dot or not (head.isdigit() and end.isdigit()):
            return []
        return [str(n) for n in range(int(head), int(end) + 1)]
    if not end_dot:  # 119.9–10: the end inherits the section
        end_head, end_tail = head, end
    if end_head != head:
        return []
    start_m = re.fullmatch(r"(\d+)([a-z]?)", tail)
    end_m = re.fullmatch(r"(\d+)([a-z]?)", end_tail)
    if not start_m or not end_m:
        return []
    if start_m[2] and end_m[2] and start_m[1] == end_m[1]:
        return [f"{head}.{start_m[1]}{letter}" for letter in letter_range(start_m[2], end_m[2])]
    if start_m[2] or end_m[2]:
        return []
    return [f"{head}.{n}" for n in range(int(start_m[1]), int(end_m[1]) + 1)]
