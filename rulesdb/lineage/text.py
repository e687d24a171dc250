"""Texts as the alignment compares them: folded, citations neutralized, cut into words."""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

try:  # difflib compiled: the same ratios, a third of the time (not built for every Python)
    from cydifflib import SequenceMatcher
except ImportError:  # pragma: no cover - the pure-Python original
    from difflib import SequenceMatcher

# A rule number ("613.1f"), or a section number after "rule"/"section" ("rule 510"), with
# the end of a range when one follows ("608.2c–k", "119.9–10", "rules 306-311").
CITED = re.compile(r"(?P<pre>\b(?:[Rr]ules?|[Ss]ections?) )?(?<![\w.])"
                   r"(?P<num>\d{3}(?P<rule>\.\d+[a-z]?)?)"
                   r"(?:\s?[-–]\s?(?P<end>\d{3}(?:\.\d+[a-z]?)?(?![\w]|\.\d)|[a-z]\b|\d+\b))?"
                   r"(?![\w]|\.\d)")
# CITED without the words before the number (they are looked for only before a number):
# a pattern that starts with a digit is tried at far fewer places
NUMBER = re.compile(CITED.pattern.split(")?", 1)[1])
CITED_BY = re.compile(r"\b(?:[Rr]ules?|[Ss]ections?) \Z")  # "rule " just before a number
DIGIT = re.compile(r"\d")
WORD = re.compile(r"[a-z0-9§]+(?:['’][a-z]+)?")
PLACEHOLDER = "§"
QUOTES = (("’", "'"), ("‘", "'"), ("“", '"'), ("”", '"'))
# the end of a sentence: a stop (a closing quote or bracket may follow) before a space
SENTENCE_END = re.compile(r"[.!?]['\")]*\s")


@lru_cache(maxsize=1 << 14)  # an edition's texts are compared with both its neighbours'
def cited_numbers(text: str) -> tuple[str, ...]:
    """The rule numbers cited in a text, in order; a range gives both its ends in full."""
    if not DIGIT.search(text):
        return ()
    numbers = []
    for match in CITED.finditer(text):
        if match["pre"] or match["rule"]:
            numbers.append(match["num"])
            if match["end"]:
                numbers.append(_range_end(match["num"], match["end"]))
    return tuple(numbers)


def _range_end(start: str, end: str) -> str:
    """The end of a range in full: 608.2c–k → 608.2k, 119.9–10 → 119.10."""
    if end.isalpha():
        return start.rstrip("abcdefghijklmnopqrstuvwxyz") + end
    if "." in start and "." not in end and len(end) < 3:
        return f"{start.split('.')[0]}.{end}"
    return end


def _placeholders(text: str) -> str:
    """`text` with each citation's number (or range) as a placeholder: CITED.sub, faster."""
    parts = []
    last = 0
    for match in NUMBER.finditer(text):
        start = match.start()
        # the window holds "sections " and the character before it
        if match["rule"] or CITED_BY.search(text[max(0, start - 12):start]):
            parts.append(text[last:start])
            parts.append(f"{PLACEHOLDER}-{PLACEHOLDER}" if match["end"] else PLACEHOLDER)
            last = match.end()
    parts.append(text[last:])
    return "".join(parts)


@lru_cache(maxsize=1 << 16)
def normalize(text: str) -> str:
    """Text folded for comparison: lower case, single spaces, citations as a placeholder."""
    text = fold_quotes(text)
    if DIGIT.search(text):  # a citation has three digits: most texts have none
        text = _placeholders(text)
    return " ".join(text.lower().split())


def fold_quotes(text: str) -> str:
    """Typographic quotes as plain ones: editions differ in them, readers do not."""
    for curly, plain in QUOTES:
        if curly in text:
            text = text.replace(curly, plain)
    return text


@lru_cache(maxsize=1 << 16)
def lead_of(key: str) -> str:
    """The first sentence of a normalized text (the whole text when it has one sentence)."""
    end = SENTENCE_END.search(key)
    return key[:end.end() - 1] if end else key


@lru_cache(maxsize=1 << 16)
def words_of(key: str) -> list[str]:
    """The words of a normalized text (shared, never mutated)."""
    return WORD.findall(key)


@lru_cache(maxsize=1 << 16)
def bag_of(key: str) -> Counter:
    """The bag of words of a normalized text (shared, never mutated)."""
    return Counter(words_of(key))


@lru_cache(maxsize=1 << 16)  # an edition shares most texts with both its neighbours
def vocab_of(key: str) -> frozenset[str]:
    """The distinct words of a normalized text (shared, never mutated)."""
    return frozenset(words_of(key))


@lru_cache(maxsize=1 << 16)  # only the rules the alignment scores need one
def word_tokens(key: str) -> frozenset[str | tuple[str, int]]:
    """The bag of words of a normalized text as a set: each word, and (word, n) for its n-th
    occurrence from the second on. Two texts share, repeats included, as many words as their
    sets have in common (counted in C, where a bag's minimum per word is not)."""
    bag = bag_of(key)
    if len(bag) == len(words_of(key)):
        return frozenset(bag)
    return frozenset(bag).union([(word, n) for word, count in bag.items() if count > 1
                                 for n in range(2, count + 1)])


def clear_caches() -> None:
    """Forget normalized texts, their words and ratios (the caches make a second alignment
    of the same texts cheap)."""
    normalize.cache_clear()
    lead_of.cache_clear()
    words_of.cache_clear()
    bag_of.cache_clear()
    vocab_of.cache_clear()
    word_tokens.cache_clear()
    _key_ratio.cache_clear()
    cited_numbers.cache_clear()


def ratio(a: list[str], b: list[str]) -> float:
    """difflib's similarity of two word lists, the same whichever comes first."""
    if b < a:
        a, b = b, a
    return SequenceMatcher(None, a, b, autojunk=False).ratio()


def key_ratio(a: str, b: str) -> float:
    """`ratio` of the words of two normalized texts, the same whichever comes first."""
    return _key_ratio(a, b) if a <= b else _key_ratio(b, a)


def held(a: str, b: str) -> float:
    """The share of the words of normalized text `a` that `b` holds in the same order."""
    size_a = len(words_of(a))
    return key_ratio(a, b) * (size_a + len(words_of(b))) / (2 * size_a) if size_a else 0.0


@lru_cache(maxsize=1 << 14)  # a pair matched on word order is scored again as an edit
def _key_ratio(a: str, b: str) -> float:
    """`key_ratio` of two texts in sorted order (one cache entry per pair)."""
    return ratio(words_of(a), words_of(b))
