"""Glossary-term matching for the terms layer: texts cut into tokens with their lemma (spaCy's
English tokenizer and lookup lemmatizer table), and the names of a glossary found in them,
longest first (see rulesdb.layers.terms for what counts as a mention).

spaCy is imported only here, on first use; nothing is downloaded at run time.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from typing import Any

import numpy as np

from .spacy_loader import import_spacy

# "play" after these is the zone ("come into play", "removed from play"), not the act of playing
ZONE_PLAY = {"into", "from", "onto"}
SUFFIXES = (("ies", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ing", ""), ("ed", "e"), ("ing", "e"))


@dataclass(frozen=True)
class Name:
    """One linkable name of a glossary entry."""

    glossary_id: int
    lowers: tuple[str, ...]
    lemmas: tuple[str, ...]


@dataclass(frozen=True)
class Mention:
    """A glossary term found in a text: character span and the entry it names."""

    start: int
    end: int
    glossary_id: int


@cache
def _tokenizer() -> Any:
    """The tokenizer of `spacy.blank("en")`, made as its factory (spacy.Tokenizer.v1) makes
    it, without the pipeline around it: resolving the pipeline's config cost a third of
    making it, and only the tokenizer is used (tests/test_terms.py compares the two)."""
    import_spacy()
    from spacy import util
    from spacy.lang.en import English
    from spacy.tokenizer import Tokenizer
    from spacy.vocab import Vocab

    defaults = English.Defaults
    # only token offsets are read: lexical attributes (like_num, is_stop…) computed for every
    # new word would be wasted, and they do not change where tokens break
    return Tokenizer(
        Vocab(lex_attr_getters={}),
        rules=defaults.tokenizer_exceptions,
        prefix_search=util.compile_prefix_regex(defaults.prefixes).search,
        suffix_search=util.compile_suffix_regex(defaults.suffixes).search,
        infix_finditer=util.compile_infix_regex(defaults.infixes).finditer,
        token_match=defaults.token_match,
        url_match=defaults.url_match,
    )


class _Lemmas(dict):
    """Lower-case form → lemma, from the lookup lemmatizer's table, memoized."""

    def __init__(self) -> None:
        super().__init__()
        # the table the lookup-mode lemmatizer reads, loaded alone (a pipeline to hold it
        # costs more and adds nothing: its lookup is this `get`), as the plain dict
        # spacy.lookups.load_lookups reads: its Table keyed by string hashes answers the
        # same and took three quarters of the loading to build
        from spacy.lookups import load_lookups
        from spacy.util import load_language_data, registry

        tables = registry.lookups.get("en") if "en" in registry.lookups else {}
        if "lemma_lookup" in tables:
            self.table = load_language_data(tables["lemma_lookup"])
        else:  # spaCy's own error: spacy-lookups-data is missing
            self.table = load_lookups("en", ["lemma_lookup"]).get_table("lemma_lookup")

    def __missing__(self, lower: str) -> str:
        lemma = self[lower] = self.table.get(lower, lower)
        return lemma


@cache
def _lemma_table() -> _Lemmas:
    return _Lemmas()


def lemma(lower: str) -> str:
    """The lemma of a lower-case word ("having" → "have"; "lightning" stays)."""
    return _lemma_table()[lower]


def tokens_of(text: str) -> list[tuple[int, int, str, str]]:
    """(start, end, lower, lemma) of each token of `text`."""
    return _tokens(_tokenizer()(text), text)


def _tokens(doc: Any, text: str) -> list[tuple[int, int, str, str]]:
    """The tokens of `doc`, the tokenized `text` (passed in: `doc.text` rebuilds it from a
    Token object per word, which costs more than the tokenizing)."""
    table = _lemma_table()
    out = []
    # offsets from one array: creating a Token object per word costs more than the tokenizing
    for start, length in doc.to_array(["IDX", "LENGTH"]).tolist():
        word = text[start:start + length]
        # hyphens dropped so "face-down" and "state-based" match "Face Down"/"State-Based"
        if word == "-" or word.isspace():
            continue
        lower = word.lower()
        out.append((start, start + length, lower, table[lower]))
    return out


class Lexicon:
    """The distinct token texts met so far, each with a word id: its lower-case form and lemma
    (lists indexed by word id) and whether it is a word at all (not "-" nor whitespace).
    Words come by spaCy's ORTH hash (texts tokenized here) or by their text (texts whose
    tokens were kept, rulesdb.layers.token_cache): the same text has one id either way."""

    def __init__(self) -> None:
        self.strings = _tokenizer().vocab.strings
        self.hashes = np.empty(0, np.uint64)  # spaCy's ORTH hashes, sorted
        self.order = np.empty(0, np.int64)  # the word id of each sorted hash
        self.ids: dict[str, int] = {}  # word id of each text
        self.lowers: list[str] = []
        self.lemmas: list[str] = []
        self.kept = np.empty(0, bool)

    def _ids_of(self, words: list[str]) -> list[int]:
        """The word id of each text, new ones added."""
        ids, found = self.ids, []
        new: list[str] = []
        for word in words:
            at = ids.get(word)
            if at is None:
                at = ids[word] = len(self.lowers) + len(new)
                new.append(word)
            found.append(at)
        if new:
            table, kept = _lemma_table(), []
            for word in new:
                lower = word.lower()
                self.lowers.append(lower)
                self.lemmas.append(table[lower])
                # as _tokens: hyphens dropped so "face-down" matches "Face Down"
                kept.append(not (word == "-" or word.isspace()))
            self.kept = np.concatenate([self.kept, np.array(kept, bool)])
        return found

    def word_ids(self, hashes: np.ndarray) -> np.ndarray:
        """The word id of each ORTH hash, new words added."""
        unique = np.unique(hashes)
        at = np.searchsorted(self.hashes, unique)
        known = np.zeros(len(unique), bool)
        inside = at < len(self.hashes)
        known[inside] = self.hashes[at[inside]] == unique[inside]
        new = unique[~known]
        if len(new):
            ids = self._ids_of([self.strings[key] for key in new.tolist()])
            known_hashes = np.concatenate([self.hashes, new])
            order = np.concatenate([self.order, np.array(ids, np.int64)])
            sort = np.argsort(known_hashes)
            self.hashes, self.order = known_hashes[sort], order[sort]
        return self.order[np.searchsorted(self.hashes, hashes)]

    def text_ids(self, words: list[str]) -> np.ndarray:
        """The word id of each word text, new words added."""
        return np.array(self._ids_of(words), np.int64)


@dataclass(frozen=True)
class Tokens:
    """The words of one text (whitespace and hyphen tokens left out): character offsets and
    word ids in a Lexicon."""

    starts: np.ndarray
    ends: np.ndarray
    words: np.ndarray


def tokenize(texts: list[str], lexicon: Lexicon) -> list[Tokens]:
    """The tokens of each text, the same as `tokens_of` gives, as arrays (one pass for all:
    a Python loop over every token costs more than spaCy's tokenizing)."""
    from spacy.attrs import IDX, LENGTH, ORTH

    arrays = [doc.to_array([IDX, LENGTH, ORTH])
              for doc in _tokenizer().pipe(texts, batch_size=512)]
    if not arrays:
        return []
    joined = np.concatenate(arrays)
    table = joined.astype(np.int64)
    words = lexicon.word_ids(joined[:, 2])
    keep = lexicon.kept[words]
    owner = np.repeat(np.arange(len(texts)), [len(a) for a in arrays])[keep]
    starts, lengths, words = table[keep, 0], table[keep, 1], words[keep]
    ends = starts + lengths
    bounds = np.searchsorted(owner, np.arange(len(texts) + 1)).tolist()
    return [Tokens(starts[a:b], ends[a:b], words[a:b])
            for a, b in pairwise(bounds)]


class _Node:
    """A prefix of some name's words (printed or lemmas): the words that may follow it, and
    the entries named by exactly these words as printed (`exact`) or as lemmas (`lemma`)."""

    __slots__ = ("after", "exact", "lemma")

    def __init__(self) -> None:
        self.after: dict[str, _Node] = {}
        self.exact: int | None = None
        self.lemma: list[tuple[tuple[str, ...], int]] = []


class TermMatcher:
    """Finds the names of a set of glossary entries in tokenized texts, longest first."""

    def __init__(self, names: Iterable[tuple[int, str]]):
        self.first: set[str] = set()
        self.words: set[str] = set()
        # every prefix of a name's words, printed or lemmas, is a node: a text's run of
        # words is followed down from the root twice, by its printed words and by its stems
        self.root = _Node()
        for glossary_id, name in names:
            toks = tokens_of(name)
            if not toks:
                continue
            lowers = tuple(t[2] for t in toks)
            lemmas = tuple(t[3] for t in toks)
            node = self._node(lowers)
            if node.exact is None:  # the first entry of that name wins
                node.exact = glossary_id
            self.first.add(lowers[0])
            # a one-word name that is itself inflected ("Tapped", "Placed") matches only as
            # printed: "taps" is Tap, "takes place" is not Placed
            if len(toks) > 1 or lowers == lemmas:
                self._node(lemmas).lemma.append((lowers, glossary_id))
                self.first.add(lemmas[0])
                self.words.update(lemmas)
        self._stems: dict[str, str] = {}
        self._norm: dict[str, str] = {}
        # per word id of the Lexicon given to find_in: its stem, and whether a name starts so
        self._word_stems: list[str] = []
        self._word_starts = np.empty(0, bool)

    def _node(self, words: tuple[str, ...]) -> _Node:
        node = self.root
        for word in words:
            node = node.after.setdefault(word, _Node())
        return node

    def _normalize(self, lower: str, lemma: str) -> str:
        self._norm[lower] = self.stem(lower, lemma)
        return self._norm[lower]

    def stem(self, lower: str, lemma: str) -> str:
        """`lemma`, or when that is no word of any name (the lookup table lacks "permanents",
        maps "phases" to "phasis") the regular-suffix stem of `lower` that is one."""
        if lemma in self.words:
            return lemma
        if lower not in self._stems:
            self._stems[lower] = lemma
            for end, add in SUFFIXES:
                if not lower.endswith(end) or len(lower) < len(end) + 3:
                    continue
                cut = lower[: -len(end)] + add
                if cut in self.words:
                    self._stems[lower] = cut
                    break
                if not add and cut[-1] == cut[-2] and cut[:-1] in self.words:  # "untapped"
                    self._stems[lower] = cut[:-1]
                    break
        return self._stems[lower]

    def find(self, toks: list[tuple[int, int, str, str]],
             blocked: list[tuple[int, int]] = (), skip: set[int] = frozenset()) -> list[Mention]:
        """Non-overlapping mentions, longest first; none overlapping `blocked` char spans.
        A name of an entry in `skip` is left unlinked and nothing inside it is linked."""
        norm = self._norm
        lowers = [tok[2] for tok in toks]
        stems = [norm[lower] if lower in norm else self._normalize(lower, lemma)
                 for _, _, lower, lemma in toks]
        positions = [i for i, (lower, stem) in enumerate(zip(lowers, stems, strict=True))
                     if lower in self.first or stem in self.first]
        found = self._search(list(range(len(toks))), lowers, stems, positions,
                             [tok[0] for tok in toks], [tok[1] for tok in toks], blocked, skip)
        return [Mention(*mention) for mention in found]

    def find_in(self, tokens: Tokens, lexicon: Lexicon, blocked: list[tuple[int, int]] = (),
                skip: set[int] = frozenset()) -> list[tuple[int, int, int]]:
        """(start, end, glossary id) of what `find` finds in the same text, from its Tokens."""
        stems = self._word_stems
        if len(stems) < len(lexicon.lowers):
            fresh = [self._norm[lower] if lower in self._norm
                     else self._normalize(lower, lexicon.lemmas[w])
                     for w, lower in enumerate(lexicon.lowers[len(stems):], len(stems))]
            starting = [lower in self.first or stem in self.first
                        for lower, stem in zip(lexicon.lowers[len(stems):], fresh, strict=True)]
            stems.extend(fresh)
            self._word_starts = np.concatenate([self._word_starts, np.array(starting, bool)])
        positions = np.flatnonzero(self._word_starts[tokens.words]).tolist()
        if not positions:
            return []
        return self._search(tokens.words.tolist(), lexicon.lowers, stems, positions,
                            tokens.starts, tokens.ends, blocked, skip)

    def _search(self, words: list[int], lowers: Sequence[str], stems: Sequence[str],
                positions: Iterable[int], starts: Sequence[int], ends: Sequence[int],
                blocked: list[tuple[int, int]], skip: set[int]) -> list[tuple[int, int, int]]:
        """(start, end, glossary id) of the mentions in a text whose token k is the word
        `words[k]` (spelled `lowers[words[k]]`, stemmed `stems[words[k]]`) at `starts[k]`…
        `ends[k]`; a name can begin only at the tokens of `positions`."""
        root = self.root.after
        count = len(words)
        candidates: list[tuple[int, int, int, int]] = []  # (-length, start token, end, id)
        for i in positions:
            word = words[i]
            if stems[word] == "play" and i and lowers[words[i - 1]] in ZONE_PLAY:
                continue
            best = None
            printed, stemmed = root.get(lowers[word]), root.get(stems[word])
            j = i
            while True:
                # the words i…j as printed name an entry, or else as lemmas
                if printed is not None and printed.exact is not None:
                    best = (j + 1, printed.exact)
                elif stemmed is not None and stemmed.lemma:
                    best = (j + 1, self._by_spelling(stemmed.lemma, words, lowers, i, j))
                j += 1
                if j == count:
                    break
                word = words[j]
                printed = printed.after.get(lowers[word]) if printed is not None else None
                stemmed = stemmed.after.get(stems[word]) if stemmed is not None else None
                if printed is None and stemmed is None:
                    break
            if best:
                candidates.append((i - best[0], i, *best))
        # a blocked span takes the tokens it overlaps; one overlapping none (between two
        # tokens) is checked against each mention's characters
        taken = [False] * count
        between = []
        for s, e in blocked:
            first, last = bisect_right(ends, s), bisect_left(starts, e)
            if first < last:
                taken[first:last] = [True] * (last - first)
            else:
                between.append((s, e))
        mentions = []
        for _, i, j, glossary_id in sorted(candidates):
            start, end = int(starts[i]), int(ends[j - 1])
            if True in taken[i:j] or (between and any(s < end and start < e
                                                      for s, e in between)):
                continue
            taken[i:j] = [True] * (j - i)
            if glossary_id not in skip:
                mentions.append((start, end, glossary_id))
        mentions.sort()
        return mentions

    @staticmethod
    def _by_spelling(named: list[tuple[tuple[str, ...], int]], words: list[int],
                     lowers: Sequence[str], i: int, j: int) -> int:
        """The entry among those whose name has the lemmas of words i…j spelled most like
        them ("blocking creatures": Blocked/Blocking Creature)."""
        if len(named) == 1:
            return named[0][1]
        printed = [lowers[words[k]] for k in range(i, j + 1)]
        return max(named, key=lambda c: sum(
            _shared_prefix(a, b) for a, b in zip(c[0], printed, strict=True)))[1]


def _shared_prefix(a: str, b: str) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def warm_up() -> None:
    """Load spaCy's tokenizer and the lemma table now (they take most of a second)."""
    _tokenizer()
    _lemma_table()
