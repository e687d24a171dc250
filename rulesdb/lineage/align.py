"""Alignment of the rules of two editions: which old rule became which new one, and how.

Pure: lists of `RuleRec` in, a list of `Change` out; no database.

Change types: unchanged, edited, renumbered, renumbered_edited (a one-to-one match), split
(one old rule whose text went to several new ones), merged (the reverse), added, removed,
outside_coverage (no counterpart, and the counterpart would lie outside what a partial
document covers).

Texts are compared after normalization: case and spacing folded, and every cited rule
number ("rule 613.1f", "see 702.19") replaced by a placeholder. Two texts that differ only
in cited numbers are the same text when each old citation maps, through this alignment,
to the new one (or to a rule that neither side can check): updating citations is not an
edit.

The alignment never compares every rule with every other rule. A rule that keeps its number
and text, or whose text is met once on each side, is matched at once; so is a normalized text
met once on each side. The rest are matched in rounds of candidate pairs, scored and taken
greedily best first (rulesdb.lineage.matcher says which pairs, how they are scored and what
keeps a template sentence from pairing across two keywords). A rule whose text went to two
new rules or more is a split, the reverse a merge; the part holding the rule's number, else
its lead sentence, is the one its lineage goes on into. Reported similarity of a
non-identical match is difflib's word-sequence ratio.

Candidate generation and tie-breaking treat both sides alike, so aligning (B, A) gives the
mirror of aligning (A, B).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..db.coverage import Coverage
from .matcher import SHORT, Matcher
from .side import Rarity, RuleRec, Side, rare_pairs
from .text import cited_numbers, held, key_ratio

__all__ = ["PAIR_OPS", "Change", "Coverage", "RuleRec", "Side", "align", "mirror"]

SPLIT_CONTAINMENT = 0.8
SPLIT_GAIN = 0.15  # the share of a rule's words a part of it adds to the rest
LEAD_MARGIN = 0.25  # a part holding this much more of a rule's lead sentence goes on as it
PAIR_OPS = ("unchanged", "edited", "renumbered", "renumbered_edited")
MIRROR = {"added": "removed", "removed": "added", "split": "merged", "merged": "split"}


@dataclass(frozen=True)
class Change:
    """How one old rule relates to one new rule (either side None for added/removed)."""

    op: str
    old: str | None
    new: str | None
    similarity: float
    citations_only: bool = False
    # the second part of a split (or merge): the one-to-one match is its other row, the one a
    # rule's lineage continues into
    extra: bool = False


def align(old: Sequence[RuleRec] | Side, new: Sequence[RuleRec] | Side,
          old_coverage: Coverage | None = None,
          new_coverage: Coverage | None = None) -> list[Change]:
    """Every old and new rule with its change, unchanged ones included, in new-document order."""
    old_side = old if isinstance(old, Side) else Side(old)
    new_side = new if isinstance(new, Side) else Side(new)
    matcher = Matcher(old_side, new_side)
    rare = matcher.run()
    splits, merges = _parts(matcher, rare)
    old_rules, new_rules = old_side.rules, new_side.rules
    changes: dict[tuple[int | None, int | None], Change] = {}
    edited = []
    for i, j in matcher.fwd.items():
        a, b = old_rules[i], new_rules[j]
        if a.text == b.text:  # most pairs: no words to compare
            changes[(i, j)] = Change("unchanged" if a.number == b.number else "renumbered",
                                     a.number, b.number, 1.0)
        else:
            edited.append((i, j))
    if edited:
        mapping = {old_rules[i].number: new_rules[j].number for i, j in matcher.fwd.items()}
        for i, j in edited:
            changes[(i, j)] = pair_change(old_rules[i], new_rules[j], old_side.keys[i],
                                          new_side.keys[j], mapping)
    for i, j, whole in splits:
        primary = changes[(i, matcher.fwd[i])]
        changes[(i, matcher.fwd[i])] = Change("split", primary.old, primary.new,
                                              primary.similarity)
        changes[(i, j)] = Change("split", primary.old, new_rules[j].number, whole, extra=True)
    for i, j, whole in merges:
        primary = changes[(matcher.rev[j], j)]
        changes[(matcher.rev[j], j)] = Change("merged", primary.old, primary.new,
                                              primary.similarity)
        changes[(i, j)] = Change("merged", old_rules[i].number, primary.new, whole, extra=True)
    placed_new = {j for _, j in changes if j is not None}
    placed_old = {i for i, _ in changes if i is not None}
    for j, rule in enumerate(new_side.rules):
        if j not in placed_new:
            op = _unmatched(new_side, j, matcher.rev, old_side, old_coverage, "added")
            changes[(None, j)] = Change(op, None, rule.number, 0.0)
    for i, rule in enumerate(old_side.rules):
        if i not in placed_old:
            op = _unmatched(old_side, i, matcher.fwd, new_side, new_coverage, "removed")
            changes[(i, None)] = Change(op, rule.number, None, 0.0)
    anchors = _anchors(len(old_side.rules), matcher.fwd)
    keys = [(j, 0, -1 if i is None else i) if j is not None else (anchors[i], 1, i)
            for i, j in changes]
    return [change for _, change in sorted(zip(keys, changes.values(), strict=True))]


def _anchors(count: int, fwd: dict[int, int]) -> list[int]:
    """Per old rule, the new rule matched to it or to the nearest matched old rule before it
    (-1 when none is)."""
    anchors = []
    anchor = -1
    for i in range(count):
        anchor = fwd.get(i, anchor)
        anchors.append(anchor)
    return anchors


def pair_change(a: RuleRec, b: RuleRec, key_a: str, key_b: str,
                mapping: Mapping[str, str]) -> Change:
    """How old rule `a` became new rule `b` (their normalized texts `key_a`, `key_b`): the
    same text, the same but for the numbers it cites (each cited rule having become, by
    `mapping` of old numbers to new, the one cited now), or edited, with its similarity."""
    same_number = a.number == b.number
    citations_only = False
    if a.text == b.text:
        return Change("unchanged" if same_number else "renumbered", a.number, b.number, 1.0)
    if key_a == key_b:
        cited_a, cited_b = cited_numbers(a.text), cited_numbers(b.text)
        same = len(cited_a) == len(cited_b) and all(
            mapping.get(x, y) == y for x, y in zip(cited_a, cited_b, strict=True))
        citations_only = same and cited_a != cited_b
        if same:
            return Change("unchanged" if same_number else "renumbered", a.number, b.number, 1.0,
                          citations_only)
        similarity = 0.99
    else:
        similarity = round(key_ratio(key_a, key_b), 3)
    return Change("edited" if same_number else "renumbered_edited", a.number, b.number,
                  min(similarity, 0.99))


def _parts(matcher: Matcher, rare: Rarity) -> tuple[list[tuple[int, int, float]],
                                                    list[tuple[int, int, float]]]:
    """The splits (old rule, extra new part, containment) and merges (extra old part, new
    rule, containment) of a matching. Many-to-many (a split whose parts are also merges) has
    no one reading: neither is kept. Of a rule's parts, the one keeping its number is its
    one-to-one match (the matching is changed so): 702.22a cut in two goes on as 702.22a;
    else the one holding its lead sentence: 418.1 of 2004, "A continuous effect modifies
    … . A continuous effect may be generated by …", goes on as 611.1 of 2026, not 611.2."""
    splits = _splits(matcher, rare)
    merges = [(i, j, k) for j, i, k in _splits(matcher, rare, mirrored=True)]
    split_sides = [({i}, {j, matcher.fwd[i]}) for i, j, _ in splits]
    merge_sides = [({i, matcher.rev[j]}, {j}) for i, j, _ in merges]
    clash = [any(o & mo or n & mn for mo, mn in merge_sides) for o, n in split_sides]
    merge_clash = [any(o & so or n & sn for so, sn in split_sides) for o, n in merge_sides]
    kept_splits = []
    for (i, j, whole), bad in zip(splits, clash, strict=True):
        if not bad:
            extra, inside = _primary_part(matcher, i, j)
            kept_splits.append((i, extra, whole if inside is None else inside))
    kept_merges = []
    for (i, j, whole), bad in zip(merges, merge_clash, strict=True):
        if not bad:
            extra, inside = _primary_part(matcher, j, i, mirrored=True)
            kept_merges.append((extra, j, whole if inside is None else inside))
    return kept_splits, kept_merges


def _primary_part(matcher: Matcher, whole: int, extra: int,
                  mirrored: bool = False) -> tuple[int, float | None]:
    """Make the part of a split `whole` (of a merge when `mirrored`) that keeps its number,
    else the one holding clearly more of its lead sentence, its one-to-one match; the extra
    part then, and its share of words the whole holds when it changed (None when not)."""
    src, dst, fwd, rev = ((matcher.new, matcher.old, matcher.rev, matcher.fwd) if mirrored
                          else (matcher.old, matcher.new, matcher.fwd, matcher.rev))
    primary = fwd[whole]
    number = src.rules[whole].number
    if dst.rules[primary].number == number:
        return extra, None
    lead = src.leads[whole]
    if dst.rules[extra].number == number or (
            src.several[whole]
            and held(lead, dst.keys[extra]) - held(lead, dst.keys[primary]) >= LEAD_MARGIN):
        del rev[primary]
        fwd[whole], rev[extra] = extra, whole
        return primary, _inside(dst, primary, src, whole)
    return extra, None


def _inside(part_side: Side, part: int, whole_side: Side, whole: int) -> float:
    """The share of a part's words that its whole holds."""
    return round(len(part_side.tokens(part) & whole_side.tokens(whole))
                 / part_side.sizes[part], 3)


def _splits(matcher: Matcher, rare: Rarity,
            mirrored: bool = False) -> list[tuple[int, int, float]]:
    """(src rule, extra dst rule, containment) where a src rule's text went to several dst
    rules (old to new; new to old when `mirrored`): each extra part lies mostly inside it and
    adds a share of its words to what its match holds, and the parts with its match hold
    most of it (419.6h of 2009-05-01 is 613.11, 613.11a and 613.11b of 2009-07-11)."""
    src, dst, fwd, rev = ((matcher.new, matcher.old, matcher.rev, matcher.fwd) if mirrored
                          else (matcher.old, matcher.new, matcher.fwd, matcher.rev))
    parts: dict[int, list[tuple[int, float]]] = {}  # src rule → its extra parts, in order
    for j, i in rare_pairs(dst, src, rev, {}, rare):
        if i not in fwd or len(dst.words[j]) <= SHORT:
            continue
        bound = len(dst.vocab[j] & src.vocab[i]) + min(dst.repeats[j], src.repeats[i])
        if bound / dst.sizes[j] < SPLIT_CONTAINMENT:  # `inside` below it too
            continue
        inside = len(dst.tokens(j) & src.tokens(i)) / dst.sizes[j]
        if inside < SPLIT_CONTAINMENT:
            continue
        other = fwd[i]
        alone = len(src.tokens(i) & dst.tokens(other)) / src.sizes[i]
        together = _contained(src.bag(i), dst.bag(other) + dst.bag(j), src.sizes[i])
        if (together - alone >= SPLIT_GAIN
                and not matcher.strays(*((j, i) if mirrored else (i, j)))):
            parts.setdefault(i, []).append((j, round(inside, 3)))
    found = []
    taken: set[int] = set()
    for i, extra in parts.items():
        # a part that repeats one kept before it is a copy (a sentence copied into three
        # sections): of parts saying the same, the one nearest the match is kept
        extra.sort(key=lambda part: (-part[1], abs(part[0] - fwd[i])))
        kept: list[int] = []
        for j, _ in extra:
            if j not in taken and not any(
                    len(dst.tokens(j) & dst.tokens(k)) >= SPLIT_CONTAINMENT * dst.sizes[j]
                    for k in kept):
                kept.append(j)
        whole = sum((dst.bag(j) for j in kept), dst.bag(fwd[i]))
        if kept and _contained(src.bag(i), whole, src.sizes[i]) >= SPLIT_CONTAINMENT:
            inside = dict(extra)
            found.extend((i, j, inside[j]) for j in kept)
            taken.update(kept)
    return found


def _contained(whole: Counter, parts: Counter, size: int) -> float:
    return sum([min(whole[w], parts[w]) for w in whole.keys() & parts.keys()]) / size


def _unmatched(side: Side, k: int, done: dict[int, int], other: Side,
               other_coverage: Coverage | None, op: str) -> str:
    """`op` (added/removed), or outside_coverage when the counterpart would lie outside."""
    if other_coverage is None or not other_coverage.partial:
        return op
    parent = side.parents[k]
    while parent is not None:
        if parent in done:
            anchor = other.rules[done[parent]].number
            return op if other_coverage.contains(anchor) else "outside_coverage"
        parent = side.parents[parent]
    return op if other_coverage.contains(side.rules[k].number) else "outside_coverage"


def mirror(change: Change) -> Change:
    """The change seen from the other side (old and new swapped)."""
    return Change(MIRROR.get(change.op, change.op), change.new, change.old, change.similarity,
                  change.citations_only, change.extra)
