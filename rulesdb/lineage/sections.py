"""Sections tied across two editions, so that the rules of one are looked for in the other:
by where their rules went (402 → 113 in 2009), or by their titles (411 "Playing Mana
Abilities" of 2004 and 605 "Mana Abilities" of 2026).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from .side import Side

FLOW_SHARE = 5  # two sections are tied when a fifth of the matches of one go to the other


def section(number: str) -> str:
    """The section (or chapter) a rule number lies in: 702.19a → 702."""
    return number.split(".", 1)[0]


def named_alike(old: Side, new: Side) -> set[tuple[str, str]]:
    """(old section, new section) whose titles name the same thing: the words of one title,
    two at least, are all in the other ("Playing Mana Abilities", 411 of 2004, and "Mana
    Abilities", 605 of 2026; "Abilities" alone names too broad a subject). A title met on
    several sections of a side ("General") says nothing alone."""
    old_titles, new_titles = old.titled_sections, new.titled_sections
    by_word: dict[str, list[frozenset[str]]] = defaultdict(list)
    for words in new_titles:
        for word in words:
            by_word[word].append(words)
    return {(old_titles[a], new_titles[b]) for a in old_titles
            for b in {b for word in a for b in by_word.get(word, ())}
            if min(len(a), len(b)) > 1 and (a <= b or b <= a)}


def tied_by_flow(old_sections: Sequence[str], new_sections: Sequence[str],
                 fwd: dict[int, int]) -> set[tuple[str, str]]:
    """(old section, new section) that the matches `fwd` (old rule → new rule) tie: a fifth
    of the matched rules of one (or of the other) go to the other."""
    flows = Counter(zip(map(old_sections.__getitem__, fwd),
                        map(new_sections.__getitem__, fwd.values()), strict=True))
    out_of: Counter[str] = Counter()
    into: Counter[str] = Counter()
    for (source, target), count in flows.items():
        out_of[source] += count
        into[target] += count
    return {(source, target) for (source, target), count in flows.items()
            if count * FLOW_SHARE >= min(out_of[source], into[target])}
