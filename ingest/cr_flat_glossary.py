"""Glossary splitting for the flattened Comprehensive Rules.

With the line breaks gone, nothing marks where a term ends and its definition begins.
Three facts of the printed glossary recover it:

- every entry starts at a sentence boundary with a Title Case heading, and the
  definition's first word is capitalized too, so the heading is the capitalized run
  minus the word that starts the definition's first sentence;
- the entries are in alphabetical order, so of all the candidate headings the entries
  are the longest chain in strictly increasing order (a longest increasing subsequence);
- a definition ends with a sentence end, so a chain member always follows one.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, replace

from .model import Example, GlossaryEntry

_SENTENCE_START = re.compile(r"""(?:(?<=[.!?]\s)|(?<=[.!?]["')]\s))(?=[A-Z])""")
_WORD_START = re.compile(r"(?<=[A-Za-z0-9]\s)(?=[A-Z])")
_TOKEN = re.compile(r"\S+")
_CAP_WORD = re.compile(r"[A-Z][A-Za-z'/-]*,?")
_PLACEHOLDER = re.compile(r"\[[a-z ]+\]")
_CONNECTORS = frozenset(
    ["of", "the", "and", "to", "a", "an", "in", "from", "with", "as", "on", "for", "or", "at", "by"]
)
_ARTICLES = frozenset(["a", "an", "the"])
_OBSOLETE = "(Obsolete)"
# Capitalized words that open a definition's first sentence and never sit inside a
# Title Case heading (where small words are lowercase).
_OPENERS = frozenset(
    {"See", "The", "A", "An", "If", "When", "Whenever", "Before", "During", "Use", "Each"}
    | {"Normally", "Some", "This", "Many", "Most", "There", "Any", "Only", "Once"}
)
_NEVER_FIRST = frozenset(["See", "The", "A", "An"])
# Capitalized small words that open a definition ("In a two-player game") unless a
# heading word follows them ("Depend On", "Counts As (Obsolete)").
_PARTICLES = frozenset(["In", "As", "To", "For", "On", "At"])
_STRONG, _WEAK = 3, 1
_REPEATED, _OPENED = 2, 1
_MAX_HEADING_WORDS = 7
_EXAMPLE = re.compile(r"(?<!\S)Example:\s")
# "See X." / "See also A, B." naming entries ("See rule 217, ..." names a rule instead).
_SEE = re.compile(r'(?:^|(?<=[.!?"]\s))See (?:also )?([A-Z][^.]*?)\.(?=\s|$)')
_LIST_SEPARATOR = re.compile(r",? and |, ")


@dataclass(frozen=True)
class _Candidate:
    """A possible entry start: where it is, where its heading ends, its sort key, and
    whether the heading is confirmed by the definition (repeated, or a clear opener)."""

    start: int
    heading_end: int
    key: str
    strong: bool
    after_sentence: bool = True


def _sort_key(heading: str) -> str:
    """How the glossary orders its headings: case-insensitive, word by word, a name
    before its extensions ("Trigger, Triggered Ability" before "Trigger Condition")."""
    key = heading.lower().replace(_OBSOLETE.lower(), "").strip()
    key = key.replace(",", "\x01").replace("-", "\x02").replace(" ", "\x02")
    return re.sub(r"[^a-z0-9\x01\x02]", "", key)


def _bare(word: str) -> str:
    return word.strip('"(),').lower()


def _heading_at(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The end of the heading starting at `start` and how well the definition confirms
    it (_REPEATED, _OPENED or 0), or None when no heading fits there."""
    tokens = []
    for match in _TOKEN.finditer(text, start, end):
        tokens.append(match)
        if len(tokens) > 2 * _MAX_HEADING_WORDS + 2:
            break
    words = [t.group(0) for t in tokens]
    if not _CAP_WORD.fullmatch(words[0]) or words[0] in _NEVER_FIRST:
        return None
    repeated = _repeated_heading(words)
    if repeated is not None:
        return tokens[repeated - 1].end(), _REPEATED
    run = 1
    while run < len(words) and _in_heading(words, run):
        run += 1
    following = words[run] if run < len(words) else ""
    cut = run
    # Only a definition opening with a word such as "The" or "See" confirms the heading.
    confidence = _OPENED if following in _OPENERS or following in _PARTICLES else 0
    if following.lstrip('"(')[:1].islower() and following not in _CONNECTORS:
        # The definition's first sentence starts with a capitalized word followed by a
        # lowercase one ("Cleanup Step Cleanup is ..."): that word is not the heading's.
        while cut > 1 and words[cut - 1] in _CONNECTORS:
            cut -= 1
        cut -= 1
        confidence = 0
    while cut > 0 and words[cut - 1] in _CONNECTORS:
        cut -= 1
    if cut == 0 or cut > _MAX_HEADING_WORDS or words[cut - 1].endswith(","):
        return None
    if cut < len(words) and words[cut].lstrip('"(')[:1].islower():
        return None  # a definition starts a sentence: "Sacrificing a permanent doesn't ..."
    return tokens[cut - 1].end(), confidence


def _in_heading(words: list[str], index: int) -> bool:
    """Whether `words[index]` continues a heading (Title Case words, small connectors,
    "(Obsolete)", placeholders such as "[quality] card") rather than opening the text."""
    word, previous = words[index], words[index - 1]
    following = words[index + 1] if index + 1 < len(words) else ""
    if word in _OPENERS:
        return False
    if word in _PARTICLES and not (_CAP_WORD.fullmatch(following) or following == _OBSOLETE):
        # "Depend On An effect ...", "Counts As (Obsolete)": a capitalized particle
        # followed by another heading word belongs to the heading.
        return False
    return bool(
        _CAP_WORD.fullmatch(word.replace('"', ""))
        or word == _OBSOLETE
        or word in _CONNECTORS
        or _PLACEHOLDER.fullmatch(word)
        or (_PLACEHOLDER.fullmatch(previous) and word.isalpha() and word.islower())
    )


def _repeated_heading(words: list[str]) -> int | None:
    """The heading length when the definition repeats it ("Absorb Absorb is", "Active
    Player The active player", "Imprinted [quality] card The phrase "imprinted ...")."""
    lowered = [_bare(w) for w in words]
    for size in range(1, _MAX_HEADING_WORDS + 1):
        if size >= len(words) or (size > 1 and not _in_heading(words, size - 1)):
            return None
        if words[size - 1].endswith(","):
            continue
        # The definition repeats the heading's last name ("Life, Life Total Life total").
        first = max((i + 1 for i in range(size - 1) if words[i].endswith(",")), default=0)
        head = [w for w in lowered[first:size] if w != "obsolete"]
        rest = size
        if lowered[rest : rest + 2] == ["the", "phrase"]:
            rest += 2
        elif lowered[rest] in _ARTICLES:
            rest += 1
        if head and all(map(_same_word, head, lowered[rest : rest + len(head)])):
            return size
    return None


def _same_word(heading_word: str, word: str) -> bool:
    """Whether `word` is `heading_word` or its plural ("effect", "effects")."""
    if word in (heading_word, heading_word + "s", heading_word + "es"):
        return True
    return heading_word.endswith("y") and word == heading_word[:-1] + "ies"


def _candidates(text: str, start: int, end: int) -> list[_Candidate]:
    """Every place in the glossary that could open an entry: sentence starts, and
    capitalized words after an unterminated text when the definition repeats them
    (a list closes the creature types without a period: "... Zubera Cumulative Upkeep
    Cumulative upkeep is ...")."""
    out = []
    starts = [
        (start, True),
        *((m.start(), True) for m in _SENTENCE_START.finditer(text, start + 1, end)),
    ]
    starts.extend((m.start(), False) for m in _WORD_START.finditer(text, start + 1, end))
    for position, after_sentence in sorted(starts):
        found = _heading_at(text, position, end)
        if found is None or (not after_sentence and found[1] != _REPEATED):
            continue
        key = _sort_key(text[position : found[0]])
        if key:
            out.append(_Candidate(position, found[0], key, found[1] > 0, after_sentence))
    return out


def _heaviest_increasing(candidates: list[_Candidate]) -> list[_Candidate]:
    """The chain of candidates with strictly increasing sort keys that has the most
    weight, a confirmed heading weighing more than an unconfirmed one."""
    ranks = {key: rank for rank, key in enumerate(sorted({c.key for c in candidates}), 1)}
    size = len(ranks)
    tree = [(0, -1)] * (size + 1)  # Fenwick tree of (best weight, candidate index)
    previous = []
    best = (0, -1)
    for index, candidate in enumerate(candidates):
        rank = ranks[candidate.key]
        found = (0, -1)
        position = rank - 1
        while position > 0:
            found = max(found, tree[position])
            position -= position & -position
        previous.append(found[1])
        entry = (found[0] + (_STRONG if candidate.strong else _WEAK), index)
        best = max(best, entry)
        position = rank
        while position <= size:
            tree[position] = max(tree[position], entry)
            position += position & -position
    chain = []
    index = best[1]
    while index >= 0:
        chain.append(candidates[index])
        index = previous[index]
    return chain[::-1]


def split_glossary(text: str, start: int, end: int) -> tuple[list[GlossaryEntry], list[str]]:
    """The entries of the glossary in `text[start:end]`, and warnings about oddities."""
    candidates = _candidates(text, start, end)
    chain = _heaviest_increasing(candidates)
    chain, warnings = _restore_misplaced(text, candidates, chain)
    entries = []
    for index, candidate in enumerate(chain):
        stop = chain[index + 1].start if index + 1 < len(chain) else end
        entries.append(_entry(text, candidate, stop))
        if not candidate.after_sentence:
            warnings.append(f"the glossary entry before {entries[-1].heading!r} has no period")
    entries, see_warnings = _with_see(entries)
    return entries, warnings + see_warnings


def _restore_misplaced(
    text: str, candidates: list[_Candidate], chain: list[_Candidate]
) -> tuple[list[_Candidate], list[str]]:
    """`chain` with the confirmed entries printed slightly out of alphabetical order put
    back: those whose initial letter matches the entries on both sides of them."""
    chosen = {c.start for c in chain}
    starts = [c.start for c in chain]
    restored = list(chain)
    warnings = []
    for candidate in candidates:
        if not candidate.strong or candidate.start in chosen:
            continue
        after = bisect.bisect_left(starts, candidate.start)
        if after == 0 or after == len(chain):
            continue
        letters = {chain[after - 1].key[:1], chain[after].key[:1]}
        if letters == {candidate.key[:1]}:
            restored.append(candidate)
            heading = text[candidate.start : candidate.heading_end]
            warnings.append(f"glossary entry {heading!r} is out of alphabetical order")
    return sorted(restored, key=lambda c: c.start), warnings


def _entry(text: str, candidate: _Candidate, stop: int) -> GlossaryEntry:
    """One entry from its heading to `stop`, its examples split off."""
    heading = text[candidate.start : candidate.heading_end]
    body_start = candidate.heading_end
    while body_start < stop and text[body_start].isspace():
        body_start += 1
    body_end = stop
    while body_end > body_start and text[body_end - 1].isspace():
        body_end -= 1
    labels = list(_EXAMPLE.finditer(text, body_start, body_end))
    definition = text[body_start : labels[0].start() if labels else body_end].rstrip()
    examples = []
    for index, label in enumerate(labels):
        ex_end = labels[index + 1].start() if index + 1 < len(labels) else body_end
        example_text = text[label.end() : ex_end].rstrip()
        examples.append(
            Example(example_text, "Example:", (label.start(), label.end() + len(example_text)))
        )
    obsolete = heading.endswith(" " + _OBSOLETE)
    term = heading[: -len(_OBSOLETE) - 1] if obsolete else heading
    return GlossaryEntry(
        term=term,
        definition=definition,
        heading=heading,
        aliases=_aliases(term, definition),
        obsolete=obsolete,
        examples=tuple(examples),
        span=(candidate.start, body_end),
    )


def _aliases(term: str, definition: str) -> tuple[str, ...]:
    """The separate names of a heading that names several ("Control, Controller");
    none when the definition uses the whole heading as one name ("Active Player,
    Nonactive Player order")."""
    if ", " not in term or term.lower() in definition.lower():
        return ()
    return tuple(name.strip('"') for name in term.split(", "))


def _with_see(entries: list[GlossaryEntry]) -> tuple[list[GlossaryEntry], list[str]]:
    """`entries` with the entries each one refers to ("See also Controller, Owner.");
    a reference naming anything but known entries is left out, with a warning."""
    known = {name.lower() for e in entries for name in (e.term, e.heading, *e.aliases)}
    warnings = []
    out = []
    for entry in entries:
        targets: list[str] = []
        for match in _SEE.finditer(entry.definition):
            named = match.group(1)
            pieces = [named] if named.lower() in known else _LIST_SEPARATOR.split(named)
            if all(piece.lower() in known for piece in pieces):
                targets.extend(pieces)
            else:
                warnings.append(f"glossary entry {entry.heading!r}: unresolved 'See {named}'")
        out.append(replace(entry, see=tuple(targets)) if targets else entry)
    return out, warnings
