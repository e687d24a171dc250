"""The one-to-one matching under an alignment (rulesdb.lineage.align), built in rounds.

First, without looking at words: a rule that keeps its number and its text (under a parent
that keeps its text) is unchanged; a text met once on each side is a rule that moved. Then
a normalized text met once on each side is an anchor. The rules left are prepared (their
words) and matched in rounds, each scoring its candidate pairs and taking them best first:
1. candidates: pairs within a group of equal texts ("General"), the same number, the
   unmatched children of two matched parents, and each rule with the five that share most
   of its six rarest words (rulesdb.lineage.side); with a rule of several sentences, the
   kin of the subrules it pairs with (its lead sentence may have gone to their parent);
2. parents left unmatched are matched to the new parent most of their children went to
   (or would go to), then the same candidates again;
3. the unmatched rules of two sections that the matches tie together (402 → 113 in 2009),
   or whose titles name the same thing (rulesdb.lineage.sections).

A pair is scored by its bag-of-words Dice, difflib's word-order ratio and the share of the
shorter text kept in order (a rule cut short), plus how much more of each one's lead
sentence the other holds than of its whole text (a rule cut in two goes on where its lead
went), and bonuses for the same family (parents matched to each other, or a level added or
removed in between), else for tied sections, and for the same number. Floors keep
unrelated rules apart: Dice ≥ 0.5 (or most of the shorter text kept in order), word order
too when the families differ, more for headings, and 0.95 for a rule leaving one matched
family for another, or for a pair whose texts each name their own family's title (template
sentences: "Multiple instances of trample …" vs "… of skulk …"), unless the families' other
rules vote them the same (In Play → Battlefield).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable

from .sections import named_alike, section, tied_by_flow
from .side import Rarity, Side, rare_pairs
from .text import held, key_ratio, normalize, vocab_of, word_tokens

MIN_SIMILARITY = 0.5
MIN_COVER = 0.8  # or this share of the shorter text's words (a rule cut short)
MIN_SIZE_RATIO = 1 / 4  # the shorter text has at least this many words per word of the other
MIN_SHORT_SIMILARITY = 0.8  # texts of at most SHORT words (headings) need more
SHORT = 3
MIN_ORDER_SIMILARITY = 0.35
MIN_MOVED_ORDER = 0.5  # a pair whose families turn out matched elsewhere (Matcher._leaves)
# A rule moving between two families that are both matched elsewhere, or texts that each
# name their own family ("Multiple instances of changeling …" vs "… of deathtouch …"), must
# be near-identical: template sentences differ only in the name of their family.
MIN_CROSS_FAMILY_SIMILARITY = 0.95

# weight of how alike two rules begin (their first sentences' words in order) in a score
LEAD_WEIGHT = 0.1

FLOW_PAIRS = 2000  # at most this many pairs of unmatched rules from two tied sections

# How the families of two rules relate (Matcher._family), closest first
SAME, FITS, OPEN, HALF, ELSEWHERE = range(5)


class Matcher:
    """A one-to-one matching between two sides, built in rounds."""

    def __init__(self, old: Side, new: Side) -> None:
        self.old, self.new = old, new
        self.fwd: dict[int, int] = {}
        self.rev: dict[int, int] = {}
        self.sims: dict[tuple[int, int], int] = {}  # shared words per pair, across rounds
        # per rule, its best counterpart that only the vote of its family can allow
        self.deferred: tuple[dict[int, tuple[float, int]], dict[int, tuple[float, int]]] = ({}, {})
        self.named = named_alike(old, new)  # sections whose titles name the same thing

    def run(self) -> Rarity:
        """Match in rounds; the rare words of the rules that did not keep their place."""
        self.unchanged()
        self.exact()
        rare = self.rare = Rarity(self.old, self.new, self.old_left, self.new_left)
        self.tie_sections()
        self.greedy(self.candidates(rare))
        self.bottom_up()
        self.greedy(self.candidates(rare))
        self.tie_sections()
        self.greedy(self.flow_pairs())
        return rare

    def open_rules(self) -> tuple[list[int], list[int]]:
        """The rules of each side still unmatched."""
        return ([i for i in self.old_left if i not in self.fwd],
                [j for j in self.new_left if j not in self.rev])

    def link(self, i: int, j: int) -> None:
        """Match old rule `i` with new rule `j`."""
        self.fwd[i] = j
        self.rev[j] = i

    def unchanged(self) -> None:
        """Match each rule that keeps its number and its text under a parent that keeps its
        text too (in 2009 "300 General" stayed, but under another chapter), then each rule
        whose text is met once on each side; prepare the others (their words)."""
        old_rules, new_rules, new_index = self.old.rules, self.new.rules, self.new.index
        old_parents, new_parents = self.old.parents, self.new.parents
        for i, rule in enumerate(old_rules):
            j = new_index.get(rule.number)
            if j is None or new_rules[j].text != rule.text:
                continue
            pi, pj = old_parents[i], new_parents[j]
            if pi == pj is None or (pi is not None and pj is not None
                                    and old_rules[pi].text == new_rules[pj].text):
                self.link(i, j)
        # and each rule that keeps its text (met once on each side) under another number
        by_text: dict[str, tuple[list[int], list[int]]] = defaultdict(lambda: ([], []))
        for i, rule in enumerate(old_rules):
            if i not in self.fwd:
                by_text[rule.text][0].append(i)
        for j, rule in enumerate(new_rules):
            if j not in self.rev:
                by_text[rule.text][1].append(j)
        for olds, news in by_text.values():
            if len(olds) == 1 and len(news) == 1:
                self.link(olds[0], news[0])
        self.sections = ([section(rule.number) for rule in old_rules],
                         [section(rule.number) for rule in new_rules])
        self.old_left = [i for i in range(len(old_rules)) if i not in self.fwd]
        self.new_left = [j for j in range(len(new_rules)) if j not in self.rev]
        self.old.prepare(self.old_left)
        self.new.prepare(self.new_left)

    def exact(self) -> None:
        """Match the rules left whose normalized text is met once on each side."""
        by_key: dict[str, tuple[list[int], list[int]]] = defaultdict(lambda: ([], []))
        old_keys, new_keys = self.old.keys, self.new.keys
        for i in self.old_left:
            by_key[old_keys[i]][0].append(i)
        for j in self.new_left:
            by_key[new_keys[j]][1].append(j)
        self.groups = by_key
        for olds, news in by_key.values():
            if len(olds) == 1 and len(news) == 1:
                self.link(olds[0], news[0])

    def candidates(self, rare: Rarity) -> set[tuple[int, int]]:
        """Pairs of unmatched rules worth scoring: within a group of equal texts, the same
        number, the children of two matched parents, and shared rare words."""
        pairs: set[tuple[int, int]] = set()
        for olds, news in self.groups.values():
            if 1 < len(olds) * len(news) <= 400:
                pairs.update((i, j) for i in olds if i not in self.fwd
                             for j in news if j not in self.rev)
        old, new, fwd, rev = self.old, self.new, self.fwd, self.rev
        open_old, open_new = self.open_rules()
        for i in open_old:
            j = new.index.get(old.rules[i].number)
            if j is not None and j not in rev:
                pairs.add((i, j))
        # the unmatched children of two matched parents
        families = {(p, fwd[p]) for p in map(old.parents.__getitem__, open_old) if p in fwd}
        families.update((rev[q], q) for q in map(new.parents.__getitem__, open_new) if q in rev)
        for i, j in families:
            olds = [c for c in old.children.get(i, ()) if c not in fwd]
            news = [c for c in new.children.get(j, ()) if c not in rev]
            if olds and news and len(olds) * len(news) <= 4000:
                pairs.update((a, b) for a in olds for b in news)
        pairs.update(rare_pairs(self.old, self.new, self.fwd, self.rev, rare))
        pairs.update(rare_pairs(self.new, self.old, self.rev, self.fwd, rare, swap=True))
        return pairs

    def kin_pairs(self, pairs: Iterable[tuple[int, int]]) -> set[tuple[int, int]]:
        """A rule of several sentences may have been cut in two, its lead sentence kept in the
        parent or a sibling of the subrule its other words went to (200.1 of 2004, "When a
        rule … refers to a 'card' … Tokens aren't considered cards …", is 108.2 and 108.2b of
        2026): with each pair of such a rule that passes the floors, the subrule's kin (and
        the mirror, for a rule of several sentences made of two)."""
        old, new, fwd, rev = self.old, self.new, self.fwd, self.rev
        found = set()
        for i, j in pairs:
            if old.several[i]:
                found.update((i, q) for q in new.kin(j) if q not in rev)
            if new.several[j]:
                found.update((p, j) for p in old.kin(i) if p not in fwd)
        return found

    def tie_sections(self) -> None:
        """Find the sections the matches so far tie together (rulesdb.lineage.sections:
        by where their rules went, or by their titles)."""
        self.tied = tied_by_flow(*self.sections, self.fwd) | self.named

    def flow_pairs(self) -> set[tuple[int, int]]:
        """Pairs of unmatched rules of two tied sections."""
        old_sections, new_sections = self.sections
        open_old: dict[str, list[int]] = defaultdict(list)
        open_new: dict[str, list[int]] = defaultdict(list)
        open_rules = self.open_rules()
        for i in open_rules[0]:
            open_old[old_sections[i]].append(i)
        for j in open_rules[1]:
            open_new[new_sections[j]].append(j)
        pairs: set[tuple[int, int]] = set()
        for source, target in self.tied:
            olds, news = open_old.get(source), open_new.get(target)
            if olds and news and len(olds) * len(news) <= FLOW_PAIRS:
                pairs.update((i, j) for i in olds for j in news)
        return pairs

    def greedy(self, pairs: set[tuple[int, int]]) -> None:
        """Score the pairs, and the kin of those that pass the floors (kin_pairs), and match
        them best first (a rule once matched is taken)."""
        scored = self.scored(pairs)
        kin = self.kin_pairs([(i, j) for *_, i, j, _ in scored]) - pairs
        if kin:
            scored += self.scored(kin)
        for _, _, _, i, j, recheck in sorted(scored):
            if i not in self.fwd and j not in self.rev and not (recheck and self._leaves(i, j,
                                                                                     recheck)):
                self.link(i, j)

    def scored(self, pairs: Iterable[tuple[int, int]]) -> list[tuple]:
        """(-score, min(i, j), max(i, j), i, j, recheck) of each pair that passes the floors
        (recheck: its word order when the pair must be checked again as it is taken)."""
        scored = []
        old, new, sims = self.old, self.new, self.sims
        old_kinds, new_kinds, old_sizes, new_sizes = old.kinds, new.kinds, old.sizes, new.sizes
        old_keys, new_keys, old_vocab, new_vocab = old.keys, new.keys, old.vocab, new.vocab
        old_repeats, new_repeats = old.repeats, new.repeats
        old_leads, new_leads, old_several, new_several = (old.leads, new.leads, old.several,
                                                          new.several)
        (old_sections, new_sections), tied = self.sections, self.tied
        for i, j in pairs:
            if old_kinds[i] != new_kinds[j]:
                continue
            size_i, size_j = old_sizes[i], new_sizes[j]
            total = size_i + size_j
            smaller = size_i if size_i < size_j else size_j  # min() spelled out: a hot loop
            # bags this unequal in size share too few words for any floor: skip counting
            if smaller < MIN_SIZE_RATIO * (total - smaller):
                continue
            shared = sims.get((i, j))
            if shared is None:
                # Shared distinct words, plus at most the fewer repeats: a bound below every
                # floor rules the pair out without counting repeats.
                repeats_i, repeats_j = old_repeats[i], new_repeats[j]
                bound = len(old_vocab[i] & new_vocab[j]) + (
                    repeats_i if repeats_i < repeats_j else repeats_j)
                if 2 * bound < MIN_SIMILARITY * total and bound < MIN_COVER * smaller:
                    continue
                shared = sims[(i, j)] = len(word_tokens(old_keys[i]) & word_tokens(new_keys[j]))
            sim = 2 * shared / total  # Dice
            # a rule cut short (or lengthened) keeps most of the shorter text, in order (109.1,
            # "An object is …", is the first sentence of 200.8 before 2009)
            covered = (smaller > SHORT and shared >= MIN_COVER * smaller
                       and key_ratio(old_keys[i], new_keys[j]) * total >= 2 * MIN_COVER * smaller)
            if sim < MIN_SIMILARITY and not covered:  # below every floor
                continue
            family = self._family(i, j)
            same_parent = family <= FITS
            short = smaller <= SHORT
            floor = MIN_SHORT_SIMILARITY if short and not same_parent else MIN_SIMILARITY
            if family == ELSEWHERE or (family >= OPEN and self._names_other_family(i, j)):
                if family == OPEN and (sim >= floor or covered):
                    # a family renamed ("In Play" → "Battlefield") or one template sentence
                    # in two unrelated families: their other rules decide (bottom_up)
                    self._defer(i, j, sim)
                floor, covered = MIN_CROSS_FAMILY_SIMILARITY, False
            if sim < floor and not covered:
                continue
            same_number = self.old.rules[i].number == self.new.rules[j].number
            if self._ambiguous(i, j) and not same_number and not (
                    same_parent and self.old.parents[i] is not None):
                continue
            # words in order, of both texts and of the shorter one
            order = key_ratio(old_keys[i], new_keys[j])
            # bags of words alone match unrelated rules: words in much the same order too
            if not same_parent and order < MIN_ORDER_SIMILARITY:
                continue
            # how much more of each one's first sentence the other holds, in order, than of
            # its whole text: a rule cut in two goes on where its lead sentence went, not
            # where its tail did (0 for two texts of one sentence each)
            lead = 0.0
            if old_several[i] or new_several[j]:
                kept = order * total / 2  # words in order
                lead = (held(old_leads[i], new_keys[j]) - kept / size_i
                        + held(new_leads[j], old_keys[i]) - kept / size_j) / 2
            # structure: the same family, else sections the matches tie; the same number
            score = ((sim + order + order * total / (2 * smaller)) / 3 + LEAD_WEIGHT * lead
                     + 0.05 * same_number + (0.1 if same_parent else
                                             0.05 * ((old_sections[i], new_sections[j]) in tied)))
            # a pair between two families is checked again when it is taken: a parent
            # matched earlier in the round may have sent both families elsewhere
            recheck = family >= OPEN and sim < MIN_CROSS_FAMILY_SIMILARITY
            scored.append((-score, min(i, j), max(i, j), i, j, recheck and order))
        return scored

    def _leaves(self, i: int, j: int, order: float) -> bool:
        """Whether a pair scored between two families now leaves one for another that goes
        on elsewhere with its words too little in order (known at scoring, such a pair needs
        MIN_CROSS_FAMILY_SIMILARITY; learnt since, a move that reads alike may stand: 200.4
        → 110.5, the definition of a token in 2009), or each names its own family."""
        family = self._family(i, j)
        return (family == ELSEWHERE and order < MIN_MOVED_ORDER) or self.strays(i, j)

    def _defer(self, i: int, j: int, sim: float) -> None:
        old_best, new_best = self.deferred
        if sim > old_best.get(i, (0.0, -1))[0]:
            old_best[i] = (sim, j)
        if sim > new_best.get(j, (0.0, -1))[0]:
            new_best[j] = (sim, i)

    def _ambiguous(self, i: int, j: int) -> bool:
        """A text met several times ("General") says nothing alone about where it moved."""
        olds, news = self.groups.get(self.old.keys[i], ((), ()))
        return self.old.keys[i] == self.new.keys[j] and (len(olds) > 1 or len(news) > 1)

    def strays(self, i: int, j: int) -> bool:
        """Whether old rule `i` and new rule `j` sit in families not known to be the same
        and one text names its own family where the other does not (one template sentence
        in two families)."""
        return self._family(i, j) >= OPEN and self._names_other_family(i, j)

    def _names_other_family(self, i: int, j: int) -> bool:
        """The two rules sit under differently titled parents and each names its own
        parent's title, not the other's ("… of bands with other …" vs "… of intimidate …";
        "… of banding … of bands with other …" names both: families merged)."""
        pi, pj = self.old.parents[i], self.new.parents[j]
        if pi is None or pj is None:
            return False
        ti, tj = self.old.rules[pi].title, self.new.rules[pj].title
        if not ti or not tj:
            return False
        ti, tj = normalize(ti), normalize(tj)
        old_key, new_key = self.old.keys[i], self.new.keys[j]
        if not (ti in old_key and tj in new_key and ti not in new_key and tj not in old_key):
            return False
        # one title narrowing the other: one family cut from the other ("Replacement and
        # Prevention Effects" → "Replacement Effects")
        words_i, words_j = vocab_of(ti), vocab_of(tj)
        return not (words_i <= words_j or words_j <= words_i)

    def _family(self, i: int, j: int) -> int:
        """How the families (parents) of two rules relate: SAME (matched to each other, or
        both top level), FITS (a renumbering added or removed a level: 212.2h, under 212.2
        with 212.2g, → 301.7a under 301.7 (← 212.2g) under 301 (← 212.2)), ELSEWHERE (both
        matched elsewhere), HALF (one matched elsewhere, the other not) or OPEN (neither
        matched)."""
        old, new = self.old, self.new
        pi, pj = old.parents[i], new.parents[j]
        if pi is None or pj is None:
            return SAME if pi is None and pj is None else OPEN
        mi, mj = self.fwd.get(pi), self.rev.get(pj)
        if mi == pj:
            return SAME
        if mi is not None and mj is not None:
            if (old.parents[mj] == pi and new.holds(mi, pj)) or (
                    new.parents[mi] == pj and old.holds(mj, pi)):
                return FITS
            return ELSEWHERE
        return OPEN if mi is None and mj is None else HALF

    def bottom_up(self) -> None:
        """Match each unmatched parent to the new parent most of its children went to (or
        would go to, for children whose match waits for their family's vote), and the
        reverse; the best-supported first, again until no parent is matched any more (a
        parent matched gives the votes for its own parent). The same parents are matched in
        whichever direction two editions are aligned."""
        while True:
            votes = sorted(self._parent_votes())
            matched = False
            for _, _, _, i, j in votes:
                if i not in self.fwd and j not in self.rev:
                    self.link(i, j)
                    matched = True
            if not matched:
                return

    def _parent_votes(self) -> list[tuple[int, int, int, int, int]]:
        """(-votes, min(i, j), max(i, j), old parent i, new parent j) for each unmatched
        parent of either side and the parent of the other side most of its children went
        to, when they are enough."""
        found = []
        for side_old, side_new, fwd, taken, deferred, mirrored in (
                (self.old, self.new, self.fwd, self.rev, self.deferred[0], False),
                (self.new, self.old, self.rev, self.fwd, self.deferred[1], True)):
            for parent, kids in side_old.children.items():
                if parent in fwd:
                    continue
                targets = Counter(side_new.parents[fwd[k] if k in fwd else deferred[k][1]]
                                  for k in kids if k in fwd or k in deferred)
                targets.pop(None, None)
                if not targets:
                    continue
                target, votes = targets.most_common(1)[0]
                if (votes * 2 > sum(targets.values())
                        and side_old.kinds[parent] == side_new.kinds[target]
                        and target not in taken
                        and (votes * 2 >= max(len(kids), len(side_new.children[target]))
                             # two votes do for half of one family ("State-Based Effects"
                             # → "State-Based Actions", which grew) or within one family
                             # ("Removed from the Game" → "Exile" under "Zones")
                             or (votes >= 2 and (
                                 votes * 2 >= min(len(kids), len(side_new.children[target]))
                                 or side_new.parents[target] == fwd.get(
                                     side_old.parents[parent], -1))))):
                    i, j = (target, parent) if mirrored else (parent, target)
                    found.append((-votes, min(i, j), max(i, j), i, j))
        return found
