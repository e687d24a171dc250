"""Porter's stemming algorithm (1980), as SQLite's FTS5 `porter` tokenizer applies it.

Search compares a query's words with headings and glossary terms in Python, and the
full-text index compares them with texts: both must stem alike. This is the algorithm as
published (M. F. Porter, "An algorithm for suffix stripping", Program 14(3), 1980) and as
SQLite implements it; `tests/test_search_porter.py` checks it against FTS5 on every word the
rules use. Words of two letters or fewer are left as they are.
"""

from __future__ import annotations

import unicodedata

VOWELS = frozenset("aeiou")


def _consonant(word: str, i: int) -> bool:
    char = word[i]
    if char in VOWELS:
        return False
    if char == "y":
        return i == 0 or not _consonant(word, i - 1)
    return True


def _measure(stem: str) -> int:
    """m in [C](VC)^m[V]: how many vowel-consonant runs the stem has."""
    count, i, n = 0, 0, len(stem)
    while i < n and _consonant(stem, i):
        i += 1
    while i < n:
        while i < n and not _consonant(stem, i):
            i += 1
        if i >= n:
            break
        while i < n and _consonant(stem, i):
            i += 1
        count += 1
    return count


def _has_vowel(stem: str) -> bool:
    return any(not _consonant(stem, i) for i in range(len(stem)))


def _double_consonant(word: str) -> bool:
    return len(word) >= 2 and word[-1] == word[-2] and _consonant(word, len(word) - 1)


def _cvc(word: str) -> bool:
    """Ends consonant-vowel-consonant, the last not w, x or y (hop, not hoop)."""
    return (len(word) >= 3 and _consonant(word, len(word) - 1)
            and not _consonant(word, len(word) - 2) and _consonant(word, len(word) - 3)
            and word[-1] not in "wxy")


def _replace(word: str, rules: list[tuple[str, str]], least: int) -> str:
    """The first rule whose suffix ends `word` applies, when what stays has m > `least`."""
    for suffix, now in rules:
        if word.endswith(suffix):
            stem = word[:len(word) - len(suffix)]
            return stem + now if _measure(stem) > least else word
    return word


STEP2 = [("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"),
         ("izer", "ize"), ("bli", "ble"), ("alli", "al"), ("entli", "ent"), ("eli", "e"),
         ("ousli", "ous"), ("ization", "ize"), ("ation", "ate"), ("ator", "ate"),
         ("alism", "al"), ("iveness", "ive"), ("fulness", "ful"), ("ousness", "ous"),
         ("aliti", "al"), ("iviti", "ive"), ("biliti", "ble"), ("logi", "log")]
STEP3 = [("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"),
         ("ful", ""), ("ness", "")]
STEP4 = ["al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent",
         "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize"]


def fold(word: str) -> str:
    """A word without its diacritics ("dandân" → "dandan"), as FTS5's `unicode61` reads it."""
    if word.isascii():
        return word
    return "".join(char for char in unicodedata.normalize("NFD", word)
                   if not unicodedata.combining(char))


def stem(word: str) -> str:
    """The Porter stem of a lower-case word ("blocking" → "block", "dies" → "di")."""
    word = fold(word)
    if len(word) <= 2:
        return word
    # step 1a
    if word.endswith("sses") or word.endswith("ies"):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    # step 1b
    if word.endswith("eed"):
        if _measure(word[:-3]) > 0:
            word = word[:-1]
    else:
        for suffix in ("ed", "ing"):
            if word.endswith(suffix) and _has_vowel(word[:-len(suffix)]):
                word = word[:-len(suffix)]
                if word.endswith(("at", "bl", "iz")):
                    word += "e"
                elif _double_consonant(word) and word[-1] not in "lsz":
                    word = word[:-1]
                elif _measure(word) == 1 and _cvc(word):
                    word += "e"
                break
    # step 1c
    if word.endswith("y") and _has_vowel(word[:-1]):
        word = word[:-1] + "i"
    word = _replace(word, STEP2, 0)
    word = _replace(word, STEP3, 0)
    # step 4
    for suffix in STEP4:
        if word.endswith(suffix):
            stem_ = word[:len(word) - len(suffix)]
            if _measure(stem_) > 1 and (suffix != "ion" or stem_.endswith(("s", "t"))):
                word = stem_
            break
    # step 5
    if word.endswith("e"):
        stem_ = word[:-1]
        if _measure(stem_) > 1 or (_measure(stem_) == 1 and not _cvc(stem_)):
            word = stem_
    if _measure(word) > 1 and _double_consonant(word) and word.endswith("l"):
        word = word[:-1]
    return word
