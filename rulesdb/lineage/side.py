"""One edition as the alignment (rulesdb.lineage.align) sees it: its rules with their normalized
texts, words and distinct words, and the rare words through which rules that moved find their
counterparts.

A word is rare for a pair of editions when at most RARE_DF rules of the two hold it. Each
edition counts and indexes the rules holding each word once (an edition is in two pairs); a
pair then works out the rare words of only the rules it asks about, the ones still unmatched,
rather than of every rule. The candidates are those of the plain definition
(tests/test_lineage_side.py compares them).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain

from .text import bag_of, normalize, vocab_of, word_tokens, words_of

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
        self.kinds = [rule.kind for rule in self.rules]
        self.keys = [normalize(rule.text or rule.title or "") for rule in self.rules]
        self.words = [words_of(key) for key in self.keys]
        self.sizes = [max(1, len(words)) for words in self.words]
        self.parents = [self.index.get(rule.parent) if rule.parent else None
                        for rule in self.rules]
        self.children: dict[int, list[int]] = defaultdict(list)
        for i, parent in enumerate(self.parents):
            if parent is not None:
                self.children[parent].append(i)
        self.vocab = [vocab_of(key) for key in self.keys]  # each rule's distinct words
        self.repeats = [len(words) - len(vocab) for words, vocab in zip(self.words, self.vocab,
                                                                        strict=True)]
        self.df: Counter[str] = Counter(chain.from_iterable(self.vocab))  # rules per word
        # Word → the rules holding it, in order, for the words held by at most RARE_DF rules
        # (any other is rare in no pair).
        holders: dict[str, list[int]] = defaultdict(list)
        common = {word for word, count in self.df.items() if count > RARE_DF}
        for i, vocab in enumerate(self.vocab):
            for word in vocab - common:
                holders[word].append(i)
        self.holders = dict(holders)

    def tokens(self, i: int) -> frozenset[str | tuple[str, int]]:
        """The bag of words of rule `i` as a set (rulesdb.lineage.text.word_tokens)."""
        return word_tokens(self.keys[i])

    def bag(self, i: int) -> Counter[str]:
        """The bag of words of rule `i` (shared, never mutated)."""
        return bag_of(self.keys[i])


class Rarity:
    """The rare words of two editions' rules, worked out for the rules asked about."""

    def __init__(self, old: Side, new: Side) -> None:
        self.old = old
        self.frequency: Counter[str] = old.df.copy()  # rules of both editions per word
        self.frequency.update(new.df)
        rare = sorted([word for word, count in self.frequency.items() if count <= RARE_DF])
        rare.sort(key=self.frequency.__getitem__)  # rarest first, ties by the word (stable)
        self.rank = {word: k for k, word in enumerate(rare)}
        self.rare = frozenset(rare)
        self._words: dict[tuple[bool, int], list[str]] = {}

    def words(self, side: Side, i: int) -> list[str]:
        """The words of rule `i` of `side` held by at most RARE_DF rules of both editions,
        rarest first (ties by the word)."""
        key = (side is self.old, i)
        found = self._words.get(key)
        if found is None:
            found = self._words[key] = sorted(side.vocab[i] & self.rare,
                                              key=self.rank.__getitem__)
        return found


def rare_pairs(src: Side, dst: Side, src_done: dict[int, int], dst_done: dict[int, int],
               rarity: Rarity, swap: bool = False) -> list[tuple[int, int]]:
    """(src rule, dst rule) candidates, as (dst rule, src rule) when `swap`: each src rule not
    in `src_done` with the RARE_CANDIDATES dst rules not in `dst_done` sharing most of its
    RARE_WORDS rarest words (the rarest of its words that some dst rule not in `dst_done`
    holds)."""
    holders = dst.holders
    live: dict[str, list[int]] = {}  # word → its dst holders not done (rare words recur)
    pairs: list[tuple[int, int]] = []
    for i in range(len(src.rules)):
        if i in src_done:
            continue
        found = []
        for word in rarity.words(src, i):
            held = live.get(word)
            if held is None:
                held = holders.get(word, [])
                if dst_done:
                    held = [j for j in held if j not in dst_done]
                live[word] = held
            if held:
                found.append(held)
                if len(found) == RARE_WORDS:
                    break
        if not found:
            continue
        if len(found) == 1:  # every hit counts once: the first dst rules in order
            ranked = found[0][:RARE_CANDIDATES]
        else:  # most hits first, then in order (a stable sort keeps the order of ties)
            hits = Counter(chain.from_iterable(found))
            ranked = sorted(hits)
            if len(hits) < sum(map(len, found)):  # some rule holds several of the words
                ranked.sort(key=hits.__getitem__, reverse=True)
            ranked = ranked[:RARE_CANDIDATES]
        if swap:
            pairs.extend([(j, i) for j in ranked])
        else:
            pairs.extend([(i, j) for j in ranked])
    return pairs
