"""Where a glossary heading ends when nothing but words separates it from its definition
("Active Player The player whose turn it is."), told by how headings and sentences are
written: a heading is a short run of Title Case words (small words lowercase, "(Obsolete)"
last); a definition opens a sentence: an article, "See", a numbered sense "1.", or a
capitalized word that lowercase words follow."""

from __future__ import annotations

import re

MAX_WORDS = 8
CONNECTORS = frozenset(
    {"of", "the", "and", "to", "a", "an", "in", "from", "with", "as", "on", "for", "or", "at"}
    | {"by", "into", "vs.", "than"})
_ARTICLES = frozenset({"the", "a", "an"})
# words that open a definition wherever they stand after a heading's first word
_STOPS = frozenset({"A", "An", "The", "See"})
# marks that end a heading: "Ante (Obsolete) Earlier versions ..."
MARKS = frozenset({"(Obsolete)", "(obsolete)", "(Informal)"})
# what may open a word before its first letter; "?" is a curly quote lost to a bad encoding
_OPENING = "\"“”‘’'?(_[{"
_PLACEHOLDER = re.compile(r"\[[a-z ]+\][,”\"]*")
_SENSE = re.compile(r"\d+\.")
_QUOTE_OPENERS = {'"': '"', "“": "”"}
# a word that ends a sentence, so no heading holds it ("vs." is an abbreviation); a heading
# may end with "!" ("For Mirrodin!")
_FULL_STOP = re.compile(r"[.?][”\"’')\]]*$")
_EXCLAIMED = re.compile(r"!(?:[”\"’')\]]*)$")


def lost_quotes(words: list[str]) -> list[str]:
    """`words` with the curly quotes a bad encoding turned into "?" put back as quotes
    ("Intervening ?If? Clause", "Banding, ?Bands with Other?"), so they end no sentence."""
    out = []
    quoted = False
    for word in words:
        if word[:1] == "?" and word[1:2].isalpha():
            word, quoted = "“" + word[1:], True
        if quoted and word.endswith("?"):
            word, quoted = word[:-1] + "”", False
        out.append(word)
    return out


def _core(word: str) -> str:
    return word.lstrip(_OPENING)


def capitalized(word: str) -> bool:
    """Whether `word` starts, past any opening quote or bracket, with a capital or a digit."""
    core = _core(word)
    return bool(core) and (core[0].isupper() or core[0].isdigit())


def may_open_heading(word: str) -> bool:
    """Whether `word` can be a heading's first word: a capitalized word, not a number nor
    a parenthesis or bracket."""
    core = _core(word)
    return (bool(core) and core[0].isupper() and not _full_stop(word)
            and word[0] not in "([{")


def sentence_word(word: str) -> bool:
    """Whether `word` is a lowercase word of running text (not a small heading word, a
    placeholder or a mark)."""
    core = _core(word)
    return (bool(core) and core[0].islower() and word not in CONNECTORS and word not in MARKS
            and _PLACEHOLDER.fullmatch(word) is None)


def opens_definition(word: str) -> bool:
    """Whether `word` opens a definition wherever it stands: an article, "See", "1."."""
    return word in _STOPS or _SENSE.fullmatch(word) is not None


def _heading_word(word: str) -> bool:
    return (capitalized(word) or word in CONNECTORS or word in MARKS
            or _PLACEHOLDER.fullmatch(word) is not None)


def _full_stop(word: str) -> bool:
    return _FULL_STOP.search(word) is not None and word not in CONNECTORS


def _opens_here(words: list[str], index: int) -> bool:
    """Whether words[index] (not the first) opens the definition."""
    word, previous = words[index], words[index - 1]
    following = words[index + 1] if index + 1 < len(words) else ""
    after = words[index + 2] if index + 2 < len(words) else ""
    if opens_definition(word) or previous in MARKS or _EXCLAIMED.search(previous):
        return True
    if _full_stop(word):
        return True
    # "Meld Cards Cards with ...": the definition repeats the heading's last word
    if word[:1].isupper() and not previous.endswith(",") and \
            word.rstrip("s") == previous.rstrip("s"):
        return True
    if not capitalized(word):
        return False
    if sentence_word(following) or following in _ARTICLES:
        return True  # "Teammate In a multiplayer game ...", "Oracle Use the Oracle ..."
    return following in CONNECTORS and (after in _ARTICLES or sentence_word(after))


def lowercase(word: str) -> bool:
    """Whether `word` starts, past any opening quote or bracket, with a lowercase letter."""
    core = _core(word)
    return bool(core) and core[0].islower()


def heading_length(words: list[str]) -> int:
    """How many of `words` (an entry's words from its start) make its heading; 0 when no
    heading fits there."""
    if words[0][:1] in _QUOTE_OPENERS:  # a quoted heading ends with its quotation: "As though"
        closing = _QUOTE_OPENERS[words[0][0]]
        end = next((i + 1 for i, w in enumerate(words[:MAX_WORDS])
                    if w.rstrip(",").endswith(closing) and (i or len(w) > 1)), 0)
        return 0 if end == 0 or _full_stop(words[end - 1].rstrip(",")[:-1]) else end
    # The plainest case first: heading words up to a word that always opens a definition
    # ("More Than Meets the Eye A keyword ability ...").
    for length in range(1, min(len(words), MAX_WORDS + 1)):
        previous = words[length - 1]
        if opens_definition(words[length]) or previous in MARKS or _EXCLAIMED.search(previous):
            return length
        if not _heading_word(words[length]) or _full_stop(words[length]):
            break
    length = 1
    while length < min(len(words), MAX_WORDS):
        if _opens_here(words, length):
            break
        if sentence_word(words[length]):
            # "Colorless mana", "Roll a d20": a lowercase word ends a heading, before a
            # definition that opens a sentence ("Numeral symbols (such as {1}) ...")
            following = words[length + 1 : length + 3]
            if len(following) == 2 and capitalized(following[0]) and lowercase(following[1]):
                length += 1
            else:
                length = 0
            break
        if not _heading_word(words[length]):
            break
        length += 1
    while length > 1 and words[length - 1] in CONNECTORS:
        length -= 1
    return length


def _bare(word: str) -> str:
    return word.strip("\"“”‘’'(),.").lower()


def repeats_heading(words: list[str], length: int) -> bool:
    """Whether the definition after a heading of `length` words opens by repeating it, or
    its last name ("Absorb Absorb is", "Active Player The active player", "Life, Life Total
    Life total", "Imprinted [type] card The phrase "imprinted [type] card" means")."""
    first = max((i + 1 for i in range(length - 1) if words[i].endswith(",")), default=0)
    head = [_bare(w) for w in words[first:length] if w not in MARKS]
    rest = [_bare(w) for w in words[length : length + len(head) + 2]]
    if rest[:2] == ["the", "phrase"]:
        rest = rest[2:]
    elif rest[:1] and rest[0] in _ARTICLES:
        rest = rest[1:]
    return bool(head) and len(rest) >= len(head) and all(map(_same_word, head, rest))


def _same_word(heading_word: str, word: str) -> bool:
    """Whether `word` is `heading_word` or its plural ("effect", "effects")."""
    if word in (heading_word, heading_word + "s", heading_word + "es"):
        return True
    return heading_word.endswith("y") and word == heading_word[:-1] + "ies"
