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

The alignment never compares every rule with every other rule. Pairs are scored only when
they are candidates, generated in this order:
1. exact normalized text: a text met once on each side is an anchor match at once; texts
   met several times ("General") make candidate pairs within their group;
2. the same number on both sides;
3. the unmatched children of two matched parents (e.g. 502.9a … under 502.9 → 702.19);
4. shared rare words: each unmatched rule's six rarest words (document frequency over both
   editions ≤ RARE_DF, see rulesdb.lineage.side) through an inverted index; the five rules
   sharing most of them.
Candidates are scored by bag-of-words Dice similarity (cheap), plus small bonuses for the
same number and matched parents, and matched greedily best first. A parent left unmatched
whose matched children mostly went under one new parent is matched to it (bottom-up), and
a second round then uses the new parents. Reported similarity of a non-identical match is
difflib's word-sequence ratio, computed only for the chosen pairs.

Candidate generation and tie-breaking treat both sides alike, so aligning (B, A) gives the
mirror of aligning (A, B).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from ..db.coverage import Coverage
from .side import Rarity, RuleRec, Side, rare_pairs
from .text import cited_numbers, key_ratio, normalize, word_tokens

__all__ = ["PAIR_OPS", "Change", "Coverage", "RuleRec", "Side", "align", "mirror"]

MIN_SIMILARITY = 0.5
MIN_SHORT_SIMILARITY = 0.8  # texts of at most SHORT words (headings) need more
SHORT = 3
SPLIT_CONTAINMENT = 0.8
MIN_ORDER_SIMILARITY = 0.35
# A rule moving between two families that are both matched elsewhere ("Multiple instances of
# changeling …" vs "… of deathtouch …") must be near-identical: template sentences differ
# only in the name of their family.
MIN_CROSS_FAMILY_SIMILARITY = 0.95

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


class _Matcher:
    """A one-to-one matching between two sides, built in rounds."""

    def __init__(self, old: Side, new: Side) -> None:
        self.old, self.new = old, new
        self.fwd: dict[int, int] = {}
        self.rev: dict[int, int] = {}
        self.sims: dict[tuple[int, int], float] = {}  # Dice per pair, kept across rounds

    def link(self, i: int, j: int) -> None:
        self.fwd[i] = j
        self.rev[j] = i

    def exact(self) -> None:
        by_key: dict[str, tuple[list[int], list[int]]] = defaultdict(lambda: ([], []))
        for i, key in enumerate(self.old.keys):
            by_key[key][0].append(i)
        for j, key in enumerate(self.new.keys):
            by_key[key][1].append(j)
        self.groups = by_key
        for olds, news in by_key.values():
            if len(olds) == 1 and len(news) == 1:
                self.link(olds[0], news[0])

    def candidates(self, rare: Rarity) -> set[tuple[int, int]]:
        pairs: set[tuple[int, int]] = set()
        for olds, news in self.groups.values():
            if 1 < len(olds) * len(news) <= 400:
                pairs.update((i, j) for i in olds if i not in self.fwd
                             for j in news if j not in self.rev)
        for i, rule in enumerate(self.old.rules):
            j = self.new.index.get(rule.number)
            if j is not None and i not in self.fwd and j not in self.rev:
                pairs.add((i, j))
        for i, j in list(self.fwd.items()):
            olds = [c for c in self.old.children.get(i, ()) if c not in self.fwd]
            news = [c for c in self.new.children.get(j, ()) if c not in self.rev]
            if olds and news and len(olds) * len(news) <= 4000:
                pairs.update((a, b) for a in olds for b in news)
        pairs.update(rare_pairs(self.old, self.new, self.fwd, self.rev, rare))
        pairs.update(rare_pairs(self.new, self.old, self.rev, self.fwd, rare, swap=True))
        return pairs

    def greedy(self, pairs: set[tuple[int, int]]) -> None:
        scored = []
        old, new, sims = self.old, self.new, self.sims
        old_kinds, new_kinds, old_sizes, new_sizes = old.kinds, new.kinds, old.sizes, new.sizes
        old_keys, new_keys, old_vocab, new_vocab = old.keys, new.keys, old.vocab, new.vocab
        old_repeats, new_repeats = old.repeats, new.repeats
        for i, j in pairs:
            if old_kinds[i] != new_kinds[j]:
                continue
            size_i, size_j = old_sizes[i], new_sizes[j]
            total = size_i + size_j
            # the Dice of bags this unequal in size is below every floor: skip counting words
            # (min() spelled out: this loop runs for every candidate pair)
            if 2 * (size_i if size_i < size_j else size_j) / total < MIN_SIMILARITY:
                continue
            sim = sims.get((i, j))
            if sim is None:
                # Shared distinct words, plus at most the fewer repeats: the Dice of that
                # bound below every floor rules the pair out without counting repeats.
                repeats_i, repeats_j = old_repeats[i], new_repeats[j]
                bound = len(old_vocab[i] & new_vocab[j]) + (
                    repeats_i if repeats_i < repeats_j else repeats_j)
                if 2 * bound / total < MIN_SIMILARITY:
                    continue
                shared = len(word_tokens(old_keys[i]) & word_tokens(new_keys[j]))
                sim = sims[(i, j)] = 2 * shared / total  # Dice
            if sim < MIN_SIMILARITY:  # below every floor
                continue
            same_parent = self._parents_match(i, j)
            short = min(len(old.words[i]), len(new.words[j])) <= SHORT
            floor = MIN_SHORT_SIMILARITY if short and not same_parent else MIN_SIMILARITY
            if not same_parent and (self._crosses_families(i, j)
                                    or self._names_other_family(i, j)):
                floor = MIN_CROSS_FAMILY_SIMILARITY
            if sim < floor:
                continue
            same_number = self.old.rules[i].number == self.new.rules[j].number
            if self._ambiguous(i, j) and not same_number and not (
                    same_parent and self.old.parents[i] is not None):
                continue
            score = sim + 0.1 * same_parent + 0.05 * same_number
            scored.append((-score, min(i, j), max(i, j), i, j, same_parent))
        for _, _, _, i, j, same_parent in sorted(scored):
            if i not in self.fwd and j not in self.rev and (
                    same_parent or self._order_similar(i, j)):
                self.link(i, j)

    def _ambiguous(self, i: int, j: int) -> bool:
        """A text met several times ("General") says nothing alone about where it moved."""
        olds, news = self.groups.get(self.old.keys[i], ((), ()))
        return self.old.keys[i] == self.new.keys[j] and (len(olds) > 1 or len(news) > 1)

    def _order_similar(self, i: int, j: int) -> bool:
        """Words in much the same order too (bags of words alone match unrelated rules)."""
        return key_ratio(self.old.keys[i], self.new.keys[j]) >= MIN_ORDER_SIMILARITY

    def _crosses_families(self, i: int, j: int) -> bool:
        """Either rule's parent is matched to another rule than the other's parent."""
        pi, pj = self.old.parents[i], self.new.parents[j]
        if pi is None or pj is None:
            return False
        return (pi in self.fwd and self.fwd[pi] != pj) or (pj in self.rev and self.rev[pj] != pi)

    def _names_other_family(self, i: int, j: int) -> bool:
        """The two rules sit under differently titled parents and one names its own parent's
        title where the other does not ("… of bands with other …" vs "… of intimidate …")."""
        pi, pj = self.old.parents[i], self.new.parents[j]
        if pi is None or pj is None:
            return False
        ti, tj = self.old.rules[pi].title, self.new.rules[pj].title
        if not ti or not tj:
            return False
        ti, tj = normalize(ti), normalize(tj)
        if ti == tj:
            return False
        old_key, new_key = self.old.keys[i], self.new.keys[j]
        return (ti in old_key and ti not in new_key) or (tj in new_key and tj not in old_key)

    def _parents_match(self, i: int, j: int) -> bool:
        pi, pj = self.old.parents[i], self.new.parents[j]
        if pi is None or pj is None:
            return pi is None and pj is None
        return self.fwd.get(pi) == pj

    def bottom_up(self) -> None:
        for side_old, side_new, fwd, link in ((self.old, self.new, self.fwd, self.link),
                                              (self.new, self.old, self.rev,
                                               lambda a, b: self.link(b, a))):
            for parent, kids in side_old.children.items():
                if parent in fwd:
                    continue
                targets = Counter(side_new.parents[fwd[k]] for k in kids if k in fwd)
                targets.pop(None, None)
                if not targets:
                    continue
                target, votes = targets.most_common(1)[0]
                matched_kids = sum(targets.values())
                if (votes * 2 > matched_kids and votes * 2 >= len(kids)
                        and votes * 2 >= len(side_new.children.get(target, ()))
                        and side_old.rules[parent].kind == side_new.rules[target].kind
                        and target not in (self.rev if side_old is self.old else self.fwd)):
                    link(parent, target)


def align(old: Sequence[RuleRec] | Side, new: Sequence[RuleRec] | Side,
          old_coverage: Coverage | None = None,
          new_coverage: Coverage | None = None) -> list[Change]:
    """Every old and new rule with its change, unchanged ones included, in new-document order."""
    old_side = old if isinstance(old, Side) else Side(old)
    new_side = new if isinstance(new, Side) else Side(new)
    matcher = _Matcher(old_side, new_side)
    matcher.exact()
    rare = Rarity(old_side, new_side)
    matcher.greedy(matcher.candidates(rare))
    matcher.bottom_up()
    matcher.greedy(matcher.candidates(rare))
    mapping = {old_side.rules[i].number: new_side.rules[j].number
               for i, j in matcher.fwd.items()}
    changes: dict[tuple[int | None, int | None], Change] = {}
    for i, j in matcher.fwd.items():
        changes[(i, j)] = _pair_change(old_side.rules[i], new_side.rules[j], old_side.keys[i],
                                       new_side.keys[j], mapping)
    splits = _splits(old_side, new_side, matcher.fwd, matcher.rev, rare)
    merges = [(i, j, k) for j, i, k in _splits(new_side, old_side, matcher.rev, matcher.fwd, rare)]
    # Many-to-many (a split whose parts are also merges) has no one reading: keep neither.
    split_sides = [({i}, {j, matcher.fwd[i]}) for i, j, _ in splits]
    merge_sides = [({i, matcher.rev[j]}, {j}) for i, j, _ in merges]
    clash = [any(o & mo or n & mn for mo, mn in merge_sides) for o, n in split_sides]
    merge_clash = [any(o & so or n & sn for so, sn in split_sides) for o, n in merge_sides]
    splits = [s for s, bad in zip(splits, clash, strict=True) if not bad]
    merges = [m for m, bad in zip(merges, merge_clash, strict=True) if not bad]
    for i, j, whole in splits:
        old_num = old_side.rules[i].number
        changes[(i, matcher.fwd[i])] = Change("split", old_num, mapping[old_num],
                                              changes[(i, matcher.fwd[i])].similarity)
        changes[(i, j)] = Change("split", old_num, new_side.rules[j].number, whole)
    for i, j, whole in merges:
        new_num = new_side.rules[j].number
        first = matcher.rev[j]
        changes[(first, j)] = Change("merged", old_side.rules[first].number, new_num,
                                     changes[(first, j)].similarity)
        changes[(i, j)] = Change("merged", old_side.rules[i].number, new_num, whole)
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
    return [changes[key] for key in sorted(changes, key=lambda k: _order(k, anchors))]


def _anchors(count: int, fwd: dict[int, int]) -> list[int]:
    """Per old rule, the new rule matched to it or to the nearest matched old rule before it
    (-1 when none is)."""
    anchors = []
    anchor = -1
    for i in range(count):
        anchor = fwd.get(i, anchor)
        anchors.append(anchor)
    return anchors


def _order(key: tuple[int | None, int | None], anchors: list[int]) -> tuple[int, int, int]:
    i, j = key
    if j is not None:
        return (j, 0, i if i is not None else -1)
    assert i is not None
    return (anchors[i], 1, i)


def _pair_change(a: RuleRec, b: RuleRec, key_a: str, key_b: str,
                 mapping: dict[str, str]) -> Change:
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


def _splits(src: Side, dst: Side, fwd: dict[int, int], rev: dict[int, int],
            rare: Rarity) -> list[tuple[int, int, float]]:
    """(src rule, extra dst rule, containment) where a src rule's text went to two dst rules."""
    found = []
    taken: set[int] = set()
    for j, i in rare_pairs(dst, src, rev, {}, rare):
        if i not in fwd or j in taken or len(dst.words[j]) <= SHORT:
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
        if together >= SPLIT_CONTAINMENT and together - alone >= 0.15:
            found.append((i, j, round(inside, 3)))
            taken.add(j)
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
                  change.citations_only)
