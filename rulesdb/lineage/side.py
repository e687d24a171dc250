"""One edition as the alignment (rulesdb.lineage.align) sees it, and the rare words through
which rules that moved find their counterparts.

An edition's structure (numbers, parents, what each rule pairs with) is set up at once; the
words of a rule only when the alignment asks for them (`Side.prepare`): between two
consecutive editions nearly every rule keeps its number and its text, and such a rule needs
no words.

A word is rare for a pair of editions when at most RARE_DF of the rules the pair still has to
place (those that did not keep their number and text) hold it. Rare among those rules rather
than among all: they are the ones the candidates are drawn from.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from functools import cached_property
from itertools import chain
from typing import NamedTuple

from .text import bag_of, lead_of, normalize, vocab_of, word_tokens, words_of

RARE_DF = 60
RARE_WORDS = 6
RARE_CANDIDATES = 5


class RuleRec(NamedTuple):
    """One rule of an edition as the alignment sees it (a named tuple: an edition's
    thousands are made from database rows in one go)."""

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
        # what a rule pairs with: chapters with chapters, headings (sections and titled
        # rules: 212.6 "Lands" became section 305 in 2009) with headings, and rules with
        # rules and subrules (a renumbering turns subrules into rules: 419.7b → 614.7)
        self.kinds = ["chapter" if rule.kind == "chapter" else
                      "heading" if rule.kind == "section" or rule.title else "rule"
                      for rule in self.rules]
        index = self.index
        self.parents = [index.get(rule.parent) if rule.parent else None for rule in self.rules]
        self.children: dict[int, list[int]] = defaultdict(list)
        for i, parent in enumerate(self.parents):
            if parent is not None:
                self.children[parent].append(i)
        count = len(self.rules)
        # filled by prepare(), for the rules asked about
        self.prepared = bytearray(count)
        self.keys = [""] * count  # normalized texts (rulesdb.lineage.text.normalize)
        self.leads = [""] * count  # their first sentences (rulesdb.lineage.text.lead_of)
        self.several = bytearray(count)  # 1: a text of more than one sentence
        self.words: list[list[str]] = [[]] * count
        self.vocab: list[frozenset[str]] = [frozenset()] * count  # distinct words
        self.sizes = [1] * count  # words, at least 1
        self.repeats = [0] * count  # words met before in the same rule

    def prepare(self, rules: Iterable[int]) -> None:
        """Work out the normalized text and the words of these rules (once each)."""
        prepared, all_rules = self.prepared, self.rules
        for i in rules:
            if prepared[i]:
                continue
            rule = all_rules[i]
            key = normalize(rule.text or rule.title or "")
            words, vocab = words_of(key), vocab_of(key)
            self.keys[i], self.words[i], self.vocab[i] = key, words, vocab
            lead = self.leads[i] = lead_of(key)
            self.several[i] = lead != key
            self.sizes[i] = max(1, len(words))
            self.repeats[i] = len(words) - len(vocab)
            prepared[i] = 1

    def holds(self, ancestor: int, k: int) -> bool:
        """Whether rule `ancestor` is a parent, grandparent, … of rule `k`."""
        parent = self.parents[k]
        while parent is not None:
            if parent == ancestor:
                return True
            parent = self.parents[parent]
        return False

    @cached_property
    def titled_sections(self) -> dict[frozenset[str], str]:
        """The words of each section title met once in the edition → its section (sections
        tied by their titles: rulesdb.lineage.sections)."""
        named: dict[frozenset[str], list[str]] = defaultdict(list)
        for rule in self.rules:
            if rule.kind == "section" and rule.title:
                named[vocab_of(normalize(rule.title))].append(rule.number)
        return {words: numbers[0] for words, numbers in named.items()
                if words and len(numbers) == 1}

    def kin(self, k: int) -> list[int]:
        """The parent of subrule `k` and its siblings, when its parent is a rule (not a
        section or a chapter): where a rule's other sentences may have gone."""
        parent = self.parents[k]
        if parent is None or self.kinds[parent] != "rule":
            return []
        return [parent, *self.children[parent]]

    def tokens(self, i: int) -> frozenset[str | tuple[str, int]]:
        """The bag of words of rule `i` as a set (rulesdb.lineage.text.word_tokens)."""
        return word_tokens(self.keys[i])

    def bag(self, i: int) -> Counter[str]:
        """The bag of words of rule `i` (shared, never mutated)."""
        return bag_of(self.keys[i])


class Rarity:
    """The rare words of the rules two editions still have to place (`old_rules`,
    `new_rules`, prepared), and which of those rules hold each."""

    def __init__(self, old: Side, new: Side, old_rules: Sequence[int],
                 new_rules: Sequence[int]) -> None:
        self.old = old
        self.rules = {True: list(old_rules), False: list(new_rules)}  # by side is self.old
        self.frequency: Counter[str] = Counter(chain.from_iterable(
            [*(old.vocab[i] for i in old_rules), *(new.vocab[j] for j in new_rules)]))
        rare = sorted([word for word, count in self.frequency.items() if count <= RARE_DF])
        rare.sort(key=self.frequency.__getitem__)  # rarest first, ties by the word (stable)
        self.rank = {word: k for k, word in enumerate(rare)}
        self.rare = frozenset(rare)
        self._words: dict[tuple[bool, int], list[str]] = {}
        self.holders: dict[bool, dict[str, list[int]]] = {}
        for is_old, side in ((True, old), (False, new)):
            holders: dict[str, list[int]] = defaultdict(list)
            for i in self.rules[is_old]:
                for word in side.vocab[i] & self.rare:
                    holders[word].append(i)
            self.holders[is_old] = dict(holders)

    def words(self, side: Side, i: int) -> list[str]:
        """The rare words of rule `i` of `side`, rarest first (ties by the word)."""
        key = (side is self.old, i)
        found = self._words.get(key)
        if found is None:
            found = self._words[key] = sorted(side.vocab[i] & self.rare,
                                              key=self.rank.__getitem__)
        return found


def rare_pairs(src: Side, dst: Side, src_done: dict[int, int], dst_done: dict[int, int],
               rarity: Rarity, swap: bool = False) -> list[tuple[int, int]]:
    """(src rule, dst rule) candidates, as (dst rule, src rule) when `swap`: each src rule to
    place and not in `src_done` with the RARE_CANDIDATES dst rules to place and not in
    `dst_done` sharing most of its RARE_WORDS rarest words (the rarest of its words that some
    such dst rule holds)."""
    holders = rarity.holders[dst is rarity.old]
    live: dict[str, list[int]] = {}  # word → its dst holders not done (rare words recur)
    pairs: list[tuple[int, int]] = []
    for i in rarity.rules[src is rarity.old]:
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
