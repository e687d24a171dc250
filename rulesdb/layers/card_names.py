"""Names in the running text of the rules: cards ("Lightning Bolt", "Wall of Spears", "Power
Play"), tokens ("Phyrexian Token", "Young Hero Role") and products ("Commander Legends"),
told from the words around them by their capitals. A glossary term inside a name is not a
use of the term ("Power" in "Power Play", "Commander" in "Commander Legends"): the terms layer
(rulesdb.layers.terms) links none.

A name is a run of two or more capitalized words:
- a capitalized word begins with a capital letter (its hyphenated and possessive forms too:
  "Snow-Covered", "Urza’s"); the words of a run are next to each other on one line, or joined
  by "of" or "of the" ("Library of Alexandria", "Lord of the Pit");
- a word that begins a sentence (the text's start, or after . ! ? : or a line break, a
  closing quote or parenthesis between), a quote or an aside owes its capital to its place: a
  function word there ("An Aura", "Each Vehicle", "In a Commander game") or a verb's -ing
  form ("Having Flying more than once", "Playing Magic games": the lemma of an -ing form is
  the verb, that of "Lightning" is itself) starts no run, any other word does ("Lightning
  Bolt deals 3 damage");
- a run whose every word is a glossary term ("an Aura Role enchantment token", "a Grand Melee
  Planechase game": capitalized subtypes and variants side by side) is terms, not a name,
  unless it stands right after an opening quote or parenthesis ("One card (Power Play)",
  'named “Phyrexian Token.”'): the capitals alone cannot tell "Artifact Ward" in a list of
  card names from two subtypes, and the rules name single cards in parentheses or quotes;
- a name that is the term itself ("Two-Headed Giant", "Grand Melee") stays a use of it: only
  a term inside a larger name, or across its edge, is dropped.
Headings are capitalized word by word ("Casting Spells", "Tap and Untap"): the terms layer
looks for names only in running text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .term_matcher import lemma

WORD = re.compile(r"[^\W\d_][\w’'\-]*")
SPACE = re.compile(r"[ \t\u00a0]+")
OPENERS = "“\"‘'(["  # a word right after one of these begins a quote or an aside
CLOSERS = "”\"’')]"  # what may stand between a sentence's end and the space after it
SENTENCE_END = ".!?:\n"
FUNCTION_WORDS = frozenset({
    "a", "an", "the", "this", "that", "these", "those", "each", "every", "some", "any", "all",
    "most", "many", "such", "no", "none", "other", "another", "both", "either", "neither", "one",
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "if", "in", "on",
    "as", "at", "by", "for", "from", "to", "with", "of", "into", "onto", "upon", "about",
    "after", "before", "during", "until", "unless", "once", "while", "when", "whenever",
    "where", "which", "who", "whose", "what", "only", "also", "not", "and", "or", "but", "nor",
    "so", "then", "there", "its", "it", "your", "you", "their", "they", "his", "her", "we",
    "our", "my", "see"})


@dataclass(frozen=True)
class Name:
    """A run of capitalized words: its span, each word's span, and whether it stands right
    after an opening quote or parenthesis."""

    start: int
    end: int
    words: tuple[tuple[int, int], ...]
    enclosed: bool


def names(text: str) -> list[Name]:
    """The runs of two or more capitalized words in `text` (see the module docstring), in
    order."""
    words = [(m.start(), m.end()) for m in WORD.finditer(text)]
    found = []
    i = 0
    while i < len(words):
        start, end = words[i]
        if not text[start].isupper() or (
                _opens_sentence(text, start) and _placed(text[start:end].lower())):
            i += 1
            continue
        run = [i]
        while (step := _next_capital(text, words, run[-1])) is not None:
            run.append(step)
        if len(run) >= 2:
            found.append(Name(start, words[run[-1]][1], tuple(words[k] for k in run),
                              start > 0 and text[start - 1] in OPENERS))
        i = run[-1] + 1
    return found


def _placed(word: str) -> bool:
    """Whether a sentence's first word (lower case) is capitalized only by its place."""
    return word in FUNCTION_WORDS or (word.endswith("ing") and lemma(word) != word)


def _next_capital(text: str, words: list[tuple[int, int]], at: int) -> int | None:
    """The index of the capitalized word that continues a run ending with word `at`: the
    next word, or the one after "of" / "of the"; None when the run ends there."""
    k = at + 1
    joiners = 0
    while k < len(words) and _spaced(text, words[k - 1][1], words[k][0]):
        word = text[words[k][0]:words[k][1]]
        if word[0].isupper():
            return k
        if (joiners, word) == (0, "of") or (joiners, word) == (1, "the"):
            joiners += 1
            k += 1
            continue
        return None
    return None


def _spaced(text: str, end: int, start: int) -> bool:
    return SPACE.fullmatch(text, end, start) is not None


def _opens_sentence(text: str, start: int) -> bool:
    """Whether the word at `start` begins a sentence, a quote or an aside."""
    if start and text[start - 1] in OPENERS:
        return True
    at = start
    while at and text[at - 1] in " \t\u00a0":
        at -= 1
    while at and text[at - 1] in CLOSERS:
        at -= 1
    return at == 0 or text[at - 1] in SENTENCE_END


def outside_names(mentions: list[tuple[int, int, int]],
                  found: list[Name]) -> list[tuple[int, int, int]]:
    """The mentions (start, end, glossary id) that are not inside a name nor across its
    edge (a mention holding a whole name is kept); a run whose every word is inside a
    mention is no name unless enclosed (see the module docstring)."""
    spans = [(name.start, name.end) for name in found
             if name.enclosed or not all(_inside(word, mentions) for word in name.words)]
    if not spans:
        return mentions
    return [m for m in mentions
            if not any(s < m[1] and m[0] < e and not (m[0] <= s and e <= m[1])
                       for s, e in spans)]


def _inside(word: tuple[int, int], mentions: list[tuple[int, int, int]]) -> bool:
    return any(m[0] <= word[0] and word[1] <= m[1] for m in mentions)
