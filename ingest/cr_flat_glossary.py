"""Glossary splitting for Comprehensive Rules text whose line breaks are lost.

With the line breaks gone, nothing marks where an entry starts. Three facts of the
printed glossary recover it:

- an entry starts after the end of the definition before it (a sentence end, a closing
  quote or bracket, a cited rule number), with a Title Case heading that its definition
  follows (`cr_flat_headings` tells where the heading ends);
- the entries are in alphabetical order, so of all the candidate headings the entries
  are the heaviest chain in increasing order, a heading its definition confirms (it
  repeats the heading, or opens with "A", "The", "See", "1.") weighing more;
- entries printed slightly out of order are put back when their definition confirms them
  and their initial letter is their neighbours', unless their heading overlaps a heavier
  entry's (an entry's text is the text up to the next entry: two never share a word).
"""

from __future__ import annotations

import bisect
import heapq
import re
from dataclasses import dataclass

from .cr_flat_headings import (
    MAX_WORDS,
    heading_length,
    lost_quotes,
    lowercase,
    may_open_heading,
    opens_definition,
    repeats_heading,
)
from .cr_flat_rules import lstrip_index, split_examples
from .cr_glossary import see_targets, split_aliases
from .model import GlossaryEntry

_TOKEN = re.compile(r"\S+")
_GLUED_SENSE = re.compile(r"(?<=[a-z])1\.$")
# a word that ends the text before it: a sentence end, a closing quote or bracket
_ENDS = re.compile(r"""[.!?][”"’')\]]*$|[”"’)]$""")
_ABBREVIATIONS = frozenset({"vs.", "e.g.", "i.e."})
# a cited rule closing a definition that lacks its period ("See rule 409.1f Toughness")
_RULE_NUMBER = re.compile(r"\d{3}(?:\.\d+[a-z]?)?")
_NOT_A_HEADING = frozenset({"See", "A", "An", "Example:"})
_OBSOLETE = "(Obsolete)"
# a heading its definition confirms, after a sentence, weighs most; one after no sentence
# end (a list that closes a definition without a period), least
_CONFIRMED, _PLAIN, _LOOSE = 4, 2, 1
_LOOSE_WORDS = 4  # the longest heading after a text that lacks its end
_MISPLACED = 2  # how many entries an entry printed out of order may be away from its place


@dataclass(frozen=True)
class _Candidate:
    """A possible entry start: where it and its heading end are, its sort key, whether
    the definition confirms the heading, and whether it follows the end of a sentence."""

    start: int
    heading_end: int
    key: str
    strong: bool
    after_sentence: bool = True


def _sort_key(heading: str) -> str:
    """How the glossary orders its headings: case-insensitive, word by word, a name
    before its extensions ("Trigger, Triggered Ability" before "Trigger Condition"), a
    leading "The" aside ("The Ring" among the R's)."""
    key = heading.lower().replace(_OBSOLETE.lower(), "").strip()
    key = key.removeprefix("the ")
    key = key.replace(",", "\x01").replace("-", "\x02").replace(" ", "\x02")
    return re.sub(r"[^a-z0-9\x01\x02]", "", key)


def _ends_text(word: str) -> bool:
    return (_ENDS.search(word) is not None and word not in _ABBREVIATIONS) or \
        _RULE_NUMBER.fullmatch(word) is not None


def _tokens(text: str, start: int, end: int) -> list[tuple[int, int, str]]:
    """(start, end, word) of each word of text[start:end]; a heading run into its first
    numbered sense ("Ability1. Text on ...") is two words."""
    out = []
    for match in _TOKEN.finditer(text, start, end):
        glued = _GLUED_SENSE.search(match.group())
        if glued:
            cut = match.start() + glued.start()
            out.append((match.start(), cut, text[match.start() : cut]))
            out.append((cut, match.end(), text[cut : match.end()]))
        else:
            out.append((match.start(), match.end(), match.group()))
    return out


def _candidates(text: str, tokens: list[tuple[int, int, str]]) -> list[_Candidate]:
    """Every word that could open an entry, with its heading."""
    words = [word for _, _, word in tokens]
    out = []
    for index, word in enumerate(words):
        if not may_open_heading(word) or word in _NOT_A_HEADING:
            continue
        after_sentence = index == 0 or _ends_text(words[index - 1])
        window = lost_quotes(words[index : index + 2 * MAX_WORDS + 2])
        length = heading_length(window)
        cut_off = 0 < length == len(window) == len(words) - index  # the copy stops after it
        if not cut_off and (not 0 < length < len(window) or lowercase(window[length])):
            continue  # no definition, or one that does not open a sentence
        repeated = not cut_off and repeats_heading(window, length)
        opened = not cut_off and opens_definition(window[length])
        if not after_sentence and not ((repeated or opened) and length <= _LOOSE_WORDS):
            continue  # "... Zombie, Zubera Cumulative Upkeep Cumulative upkeep is ..."
        if word == "The" and not (length > 1 and (repeated or opened)):
            continue  # "The Ring An emblem ...", not "The Grand Melee variant ..."
        end = tokens[index + length - 1][1]
        key = _sort_key(text[tokens[index][0] : end])
        if key:
            out.append(_Candidate(tokens[index][0], end, key, repeated or opened,
                                  after_sentence))
    return out


def _weight(candidate: _Candidate) -> int:
    if not candidate.after_sentence:
        return _LOOSE
    return _CONFIRMED if candidate.strong else _PLAIN


def _heaviest_increasing(candidates: list[_Candidate]) -> list[_Candidate]:
    """The chain of candidates with strictly increasing sort keys that has the most
    weight, a confirmed heading weighing more than an unconfirmed one; no candidate of
    the chain starts inside the heading of the one before it."""
    ranks = {key: rank for rank, key in enumerate(sorted({c.key for c in candidates}), 1)}
    size = len(ranks)
    # Fenwick tree of (best weight, -candidate index): of equal chains, the one whose last
    # candidate starts first (of two headings, one inside the other, the longer)
    tree = [(0, 1)] * (size + 1)
    previous = []
    best = (0, 1)
    pending: list[tuple[int, tuple[int, int]]] = []  # (heading end, chain) not yet in the tree
    for index, candidate in enumerate(candidates):
        # a chain may go on from a candidate once its heading is over
        while pending and pending[0][0] <= candidate.start:
            _, chain_end = heapq.heappop(pending)
            position = ranks[candidates[-chain_end[1]].key]
            while position <= size:
                tree[position] = max(tree[position], chain_end)
                position += position & -position
        found = (0, 1)
        position = ranks[candidate.key] - 1
        while position > 0:
            found = max(found, tree[position])
            position -= position & -position
        previous.append(-found[1])
        entry = (found[0] + _weight(candidate), -index)
        best = max(best, entry)
        heapq.heappush(pending, (candidate.heading_end, entry))
    chain = []
    index = -best[1]
    while index >= 0:
        chain.append(candidates[index])
        index = previous[index]
    return chain[::-1]


def split_glossary(text: str, start: int, end: int) -> tuple[list[GlossaryEntry], list[str]]:
    """The entries of the glossary in `text[start:end]`, and warnings about oddities."""
    candidates = _candidates(text, _tokens(text, start, end))
    chain = _heaviest_increasing(candidates)
    chain, warnings = _restore_misplaced(text, candidates, chain)
    fields = []
    for index, candidate in enumerate(chain):
        stop = chain[index + 1].start if index + 1 < len(chain) else end
        fields.append(_entry(text, candidate, stop))
        if not candidate.after_sentence:
            warnings.append(f"the glossary entry before {fields[-1]['heading']!r} has no period")
    terms = frozenset(entry["term"] for entry in fields)
    entries = [GlossaryEntry(**entry, see=see_targets(entry["definition"], terms))
               for entry in fields]
    return entries, warnings


def _restore_misplaced(
    text: str, candidates: list[_Candidate], chain: list[_Candidate]
) -> tuple[list[_Candidate], list[str]]:
    """`chain` with the entries printed out of alphabetical order put back: a candidate
    after a sentence end that its definition confirms, or that would be in order but for
    a few entries around it ("Basic Landcycling" printed before "Basic Land Type"). One
    put back takes the place of the entries that start inside its heading when it
    outweighs them, and is left out otherwise: no entry starts inside another's heading."""
    chosen = {c.start for c in chain}
    starts = [c.start for c in chain]
    restored = list(chain)
    warnings = []
    keys = [c.key for c in chain]
    for candidate in candidates:
        if not candidate.after_sentence or candidate.start in chosen:
            continue
        after = bisect.bisect_left(starts, candidate.start)
        if not 1 <= after < len(chain):
            continue
        if chain[after - 1].key.startswith(candidate.key):
            continue  # "Grand Melee The Grand Melee variant is ... Grand Melee is normally ..."
        # a definition that repeats its heading or opens with "A", "The", "See", "1."
        # confirms it wherever it stands ("Junk Token A Junk token is ...", printed among
        # the I's)
        if not (candidate.strong or _fits_nearly(candidate.key, keys, after)):
            continue
        place = bisect.bisect_left(restored, candidate.start, key=_start)
        if place and restored[place - 1].heading_end > candidate.start:
            continue
        # an entry's text ends where the next one starts: a heading holding the start of
        # the next entry would be printed whole, and its words again in that entry
        # ("Attack Left Option Left Option An ..." of "... 506.5. Attack Left Option An ...")
        inside = place
        while inside < len(restored) and restored[inside].start < candidate.heading_end:
            inside += 1
        if sum(map(_weight, restored[place:inside])) >= _weight(candidate):
            continue
        restored[place:inside] = [candidate]
        heading = text[candidate.start : candidate.heading_end]
        warnings.append(f"glossary entry {heading!r} is out of alphabetical order")
    return restored, warnings


def _start(candidate: _Candidate) -> int:
    return candidate.start


def _fits_nearly(key: str, keys: list[str], after: int) -> bool:
    """Whether `key`, met before keys[after], would be in order but for at most
    `_MISPLACED` entries around it."""
    for skipped_before in range(_MISPLACED + 1):
        for skipped_after in range(_MISPLACED + 1 - skipped_before):
            low = after - 1 - skipped_before
            high = after + skipped_after
            if (low < 0 or keys[low] < key) and (high >= len(keys) or key < keys[high]):
                return True
    return False


def _entry(text: str, candidate: _Candidate, stop: int) -> dict:
    """The fields of one entry, from its heading to `stop`, its examples split off."""
    heading = " ".join(text[candidate.start : candidate.heading_end].split())
    glued = candidate.heading_end < stop and not text[candidate.heading_end].isspace()
    body_start = lstrip_index(text, candidate.heading_end, stop)
    definition, examples = split_examples(text, body_start, stop)
    body_end = examples[-1].span[1] if examples else body_start + len(
        text[body_start:stop].rstrip())
    obsolete = heading.endswith(" " + _OBSOLETE)
    term = heading[: -len(_OBSOLETE) - 1] if obsolete else heading
    return {"term": term, "definition": definition, "heading": heading,
            "aliases": split_aliases(term), "obsolete": obsolete, "examples": examples,
            "glued": glued, "span": (candidate.start, body_end)}
