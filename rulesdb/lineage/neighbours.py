"""The last candidates of an alignment (rulesdb.lineage.matcher): for each rule still
unmatched, the unmatched rules of the other edition that share the most weight of words
with it, each word weighing the more the fewer of those rules hold it (its inverse document
frequency). Where rare words and sections found nothing, this finds a rule that moved far
and changed its rare words ("state-based effects" → "state-based actions"), as difflib's
get_close_matches over every rule would, at the cost of an inverted index over the few rules
left.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from itertools import chain

from .side import Side

NEIGHBOURS = 5  # candidates per rule
COMMON_SHARE = 0.25  # a word held by more than this share of the rules left weighs nothing


def neighbour_pairs(old: Side, new: Side, open_old: Sequence[int],
                    open_new: Sequence[int]) -> set[tuple[int, int]]:
    """(old, new) pairs: each rule of `open_old` with its NEIGHBOURS nearest rules of
    `open_new` of the same tier, and the reverse (so aligning the other way round gives the
    mirror)."""
    if not open_old or not open_new:
        return set()
    frequency = Counter(chain.from_iterable(
        [*(old.vocab[i] for i in open_old), *(new.vocab[j] for j in open_new)]))
    total = len(open_old) + len(open_new)
    limit = max(2, COMMON_SHARE * total)
    weight = {word: math.log(total / count) for word, count in frequency.items()
              if count <= limit}
    pairs: set[tuple[int, int]] = set()
    for src, dst, src_rules, dst_rules, flip in ((old, new, open_old, open_new, False),
                                                 (new, old, open_new, open_old, True)):
        postings: dict[str, list[int]] = defaultdict(list)
        norms = {}
        for j in dst_rules:
            words = dst.vocab[j] & weight.keys()
            norms[j] = math.sqrt(sum(weight[word] ** 2 for word in words)) or 1.0
            for word in words:
                postings[word].append(j)
        for i in src_rules:
            words = src.vocab[i] & weight.keys()
            if not words:
                continue
            scores: dict[int, float] = defaultdict(float)
            for word in words:
                for j in postings.get(word, ()):
                    scores[j] += weight[word] ** 2
            kind = src.kinds[i]
            ranked = sorted((-score / norms[j], j) for j, score in scores.items()
                            if dst.kinds[j] == kind)[:NEIGHBOURS]
            pairs.update((j, i) if flip else (i, j) for _, j in ranked)
    return pairs
