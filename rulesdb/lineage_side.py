"""One edition as the alignment (rulesdb.lineage) sees it: its rules with their normalized
texts, words and bags of words, and the rare words through which rules that moved find their
counterparts.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain

from .lineage_text import normalize, prepared

RARE_DF = 60
RARE_WORDS = 6
RARE_CANDIDATES = 5


@dataclass(frozen=True)
class RuleRec:
    """One rule of an edition as the alignment sees it."""

    number: str
    kind: str
    title: str | None
    text: str
    parent: str | None = None


class Side:
    """One edition prepared for matching (`align` takes it in place of the rules, so an
    edition aligned with both its neighbours is prepared once)."""

    def __init__(self, rules: Sequence[RuleRec]) -> None:
        self.rules = list(rules)
        self.index = {rule.number: i for i, rule in enumerate(self.rules)}
        self.keys = [normalize(rule.text or rule.title or "") for rule in self.rules]
        texts = [prepared(key) for key in self.keys]
        self.words = [words for words, _ in texts]
        self.bags = [bag for _, bag in texts]
        self.sizes = [max(1, len(words)) for words in self.words]
        self.parents = [self.index.get(rule.parent) if rule.parent else None
                        for rule in self.rules]
        self.children: dict[int, list[int]] = defaultdict(list)
        for i, parent in enumerate(self.parents):
            if parent is not None:
                self.children[parent].append(i)
        self._rare: tuple[dict[str, int], list[list[str]]] | None = None
        self._postings: dict[str, list[int]] | None = None

    def rare_words(self, rare: dict[str, int]) -> list[list[str]]:
        """Per rule, its words met in at most RARE_DF rules of both editions, rarest first
        (kept: the alignment asks for them many times with the same frequencies)."""
        if self._rare is None or self._rare[0] is not rare:
            self._rare = (rare, [sorted([w for w in bag if rare.get(w, RARE_DF + 1) <= RARE_DF],
                                        key=lambda w: (rare[w], w))
                                 for bag in self.bags])
            self._postings = None
        return self._rare[1]

    def postings(self, rare: dict[str, int]) -> dict[str, list[int]]:
        """Rare word → the rules holding it, in order."""
        words = self.rare_words(rare)
        if self._postings is None:
            self._postings = defaultdict(list)
            for j, rule_words in enumerate(words):
                for word in rule_words:
                    self._postings[word].append(j)
        return self._postings


def rare_pairs(src: Side, dst: Side, src_done: dict[int, int], dst_done: dict[int, int],
                rare: dict[str, int]) -> list[tuple[int, int]]:
    """(src rule, dst rule) candidates: each src rule not in `src_done` with the
    RARE_CANDIDATES dst rules not in `dst_done` sharing most of its RARE_WORDS rarest words."""
    if dst_done:
        postings: dict[str, list[int]] = defaultdict(list)
        for j, words in enumerate(dst.rare_words(rare)):
            if j not in dst_done:
                for word in words:
                    postings[word].append(j)
    else:
        postings = dst.postings(rare)
    pairs = []
    for i, words in enumerate(src.rare_words(rare)):
        if i in src_done:
            continue
        rarest = [w for w in words if w in postings][:RARE_WORDS]  # words are rarest first
        hits = Counter(chain.from_iterable([postings[w] for w in rarest]))
        ranked = sorted([(-count, j) for j, count in hits.items()])[:RARE_CANDIDATES]
        pairs.extend((i, j) for _, j in ranked)
    return pairs


def document_frequency(old: Side, new: Side) -> dict[str, int]:
    """Word → the number of rules of both editions holding it."""
    return Counter(chain.from_iterable([*old.bags, *new.bags]))
