"""How a search query is read: the concepts it asks about, in the rules' own words.

One analysis chain, data rather than branches (Lucene's analyzers are the model): the query is
cut into words; phrases the rules or players use are found first, longest first — the
players' vocabulary (`search_vocabulary`, from data/search-vocabulary.txt), the glossary's
obsolete terms read as the glossary says what replaced them, and the glossary's own terms
("first strike", "state-based actions"); filler words (`search_stopwords`) are left out; every
other word is a concept of its own. Word forms are the full-text index's business (porter
stemming on both sides: blocks, blocked, blocking).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from . import porter

WORD = re.compile(r"[+-]?\d+/[+-]?\d+|p/t|[^\W_]+(?:['’][^\W_]+)*", re.I)
# WORD in a text already lowered, its apostrophes straightened: no case folding to match
_LOWER_WORD = re.compile(r"[+-]?\d+/[+-]?\d+|p/t|[^\W_]+(?:'[^\W_]+)*")
QUOTED = re.compile(r'"([^"]*)"|“([^”]*)”')
MAX_QUERY_WORDS = 64  # a longer query is read up to here (and says so)
MAX_PHRASE_WORDS = 6  # the longest phrase looked for


@dataclass(frozen=True)
class Concept:
    """What one part of the query asks about: the words as typed, and the phrases searched
    for it (any of them matching), with where that reading comes from."""

    words: str
    phrases: tuple[str, ...]
    source: str = "word"  # word, quoted, glossary term, vocabulary, obsolete term, number
    note: str | None = None
    replaced_by: str | None = None  # an obsolete term's replacement, as the glossary says

    @property
    def read_as(self) -> str | None:
        """The rules' words searched instead of the typed ones, when they differ."""
        if (self.source in ("vocabulary", "obsolete term", "number")
                and self.phrases != (self.words,)):
            return " | ".join(self.phrases)
        return None


@dataclass(frozen=True)
class Reading:
    """A query read: its concepts in order, the filler words left out, and the words cut
    off a query too long to read whole."""

    query: str
    concepts: tuple[Concept, ...]
    ignored: tuple[str, ...] = ()
    cut: int = 0
    notes: tuple[str, ...] = field(default=())


@lru_cache(maxsize=1 << 16)
def words_of(text: str) -> tuple[str, ...]:
    """The words of a text in lower case (a word's inner apostrophe kept: "can't", "owner's";
    power/toughness such as "+1/+1" as one word). Remembered: the same headings and terms
    are read by several steps of a search."""
    return tuple(_LOWER_WORD.findall(text.lower().replace("’", "'")))


def stem(word: str) -> str:
    """A word as the full-text index compares it (Porter's stemmer, as FTS5's `porter`)."""
    found = _STEMS.get(word)
    if found is None:
        found = _STEMS[word] = porter.stem(word)
    return found


_STEMS: dict[str, str] = {}


def key_of(words: Sequence[str]) -> tuple[str, ...]:
    """A phrase as the lexicon compares it: hyphenated words apart, possessives and plural
    endings off ("State-Based Actions" and "state based action" meet)."""
    return _key(tuple(words))


@lru_cache(maxsize=1 << 16)
def _key(words: tuple[str, ...]) -> tuple[str, ...]:
    out: list[str] = []
    for word in words:
        for part in word.split("-"):
            if part:
                out.append(_crude_stem(part))
    return tuple(out)


def _crude_stem(word: str) -> str:
    word = word.removesuffix("'s")
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("es") and word[-3] in "sxz":
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


@dataclass
class Lexicon:
    """The phrases a query is read against, by key: each with its concept (the typed words
    are filled in when it is met)."""

    entries: dict[tuple[str, ...], Concept] = field(default_factory=dict)
    more: dict[tuple[str, ...], tuple[Concept, ...]] = field(default_factory=dict)  # + parts
    forms: dict[str, tuple[str, ...]] = field(default_factory=dict)  # a word's other forms
    stopwords: frozenset[str] = frozenset()

    def add(self, words: str, concept: Concept, replace: bool = True) -> None:
        """Know `words` as `concept` (an earlier entry stays unless `replace`)."""
        key = key_of(words_of(words))
        if key and (replace or key not in self.entries):
            self.entries[key] = concept


def stopwords(conn: sqlite3.Connection) -> frozenset[str]:
    """The words that do not decide a search, as the database keeps them."""
    return frozenset(_table(conn, "SELECT word FROM search_stopwords"))


def lexicon(conn: sqlite3.Connection, doc_id: str | None) -> Lexicon:
    """The vocabulary, stop words, and the glossary of `doc_id` (its terms and what its
    obsolete terms now are), from the database."""
    lex = Lexicon(stopwords=stopwords(conn))
    if doc_id:
        cursor = conn.cursor()
        cursor.row_factory = None  # plain tuples: a sqlite3.Row costs more
        for term, aliases, definition, obsolete in cursor.execute(
                "SELECT term, aliases, definition, obsolete FROM glossary WHERE document = ?",
                [doc_id]):
            names = [term, *_aliases(aliases)]
            if obsolete:
                now = replacement(definition or "")
                concept = Concept(term, tuple(dict.fromkeys([*now, term.lower()])),
                                  "obsolete term", definition, " | ".join(now) or None)
                for name in names:
                    lex.add(name, concept)
            else:
                for name in names:
                    words = words_of(name)
                    # the term, and its shorter forms ("Two-Headed Giant" of "Two-Headed
                    # Giant Variant"), as phrases
                    for end in range(len(words), 1, -1):
                        lex.add(" ".join(words[:end]),
                                Concept(name, (" ".join(words[:end]),), "glossary term"),
                                replace=False)
    for words, reading, note in _table(
            conn, "SELECT words, reading, note FROM search_vocabulary ORDER BY line"):
        parts = [Concept(words, tuple(part.split(" | ")), "vocabulary", note)
                 for part in reading.split(" + ")]
        for typed in words.split(" | "):
            lex.add(typed, parts[0])
            lex.more[key_of(words_of(typed))] = tuple(parts[1:])
            single = tuple(form for form in parts[0].phrases if " " not in form)
            if " " not in typed and len(parts) == 1 and single:
                lex.forms[typed] = single
    return lex


def _table(conn: sqlite3.Connection, sql: str) -> list:
    try:
        rows = conn.execute(sql).fetchall()
    except sqlite3.OperationalError:  # a database built before search had its tables
        return []
    return [row[0] if len(row) == 1 else tuple(row) for row in rows]


def _aliases(aliases: str | None) -> list[str]:
    if not aliases or aliases == "[]":
        return []
    import json

    try:
        return [str(name) for name in json.loads(aliases or "[]")]
    except ValueError:
        return []


# What an obsolete glossary term became, as its definition says it (first that applies).
REPLACED = [
    re.compile(r"has been renamed\. See rule [\d.]+[a-z]?, “(?P<now>[^”]+?)[.,]?”"),
    re.compile(r"[Aa]n older name for (?:the )?(?P<now>.+?)(?: casual variant)?\. "
               r"See rule [\d.]+[a-z]?, “(?P<title>[^”]+?)[.,]?”"),
    re.compile(r"[Aa]n older name for (?:the )?(?P<now>[^.]+)\."),
    re.compile(r"is an obsolete term for “(?P<now>[^”]+?)[.,]?”"),
    re.compile(r"[Aa]n obsolete term for (?:the |an? )?(?P<now>[^.,]+)[.,]"),
    re.compile(r"[Aa] term that meant “(?P<now>[^”]+?)[.,]?”"),
    re.compile(r"are now (?P<now>\w+)"),
    re.compile(r"to say “(?P<now>[^”]+?)[.,]?”"),
    re.compile(r"now say “(?P<now>[^”]+?)[.,]?”"),
]


def replacement(definition: str) -> list[str]:
    """The rules' words for what an obsolete term is now, from its glossary definition
    ("An obsolete term for the battlefield." → battlefield; "… has been renamed. See rule
    702.89, “Umbra Armor.”" → umbra armor); bracketed placeholders cut the phrase, and the
    longest piece stands for it. None when the glossary names no successor."""
    for pattern in REPLACED:
        found = pattern.search(definition)
        if found:
            now = found.groupdict().get("title") or found["now"]
            pieces = [piece.strip(" ,") for piece in re.split(r"\[[^\]]*\]", now)]
            best = max(pieces, key=lambda piece: len(words_of(piece)))
            return [best.lower()] if words_of(best) else []
    return []


def read(query: str, lex: Lexicon) -> Reading:
    """The concepts of `query`: quoted phrases as written, then known phrases (longest
    first), then every word that is not filler. A word is read once, in the first concept
    that takes it."""
    concepts: list[Concept] = []
    for match in QUOTED.finditer(query):
        phrase = " ".join(words_of(match[1] or match[2] or ""))
        if phrase:
            concepts.append(Concept(phrase, (phrase,), "quoted"))
    rest = QUOTED.sub(" ", query).replace('"', " ").replace("“", " ").replace("”", " ")
    words = words_of(rest)
    cut = max(0, len(words) - MAX_QUERY_WORDS)
    words = words[:MAX_QUERY_WORDS]
    keys = [key_of([word]) for word in words]
    ignored: list[str] = []
    at = 0
    while at < len(words):
        for length in range(min(MAX_PHRASE_WORDS, len(words) - at), 0, -1):
            key = tuple(part for parts in keys[at:at + length] for part in parts)
            known = lex.entries.get(key)
            if known is not None and (length > 1 or known.source in ("vocabulary",
                                                                      "obsolete term")):
                typed = " ".join(words[at:at + length])
                for part in (known, *lex.more.get(key, ())):
                    phrases = tuple(dict.fromkeys(
                        form for phrase in part.phrases
                        for form in _forms(_trimmed(phrase, lex.stopwords), lex.forms)))
                    concepts.append(Concept(typed, phrases, part.source, part.note,
                                            part.replaced_by))
                at += length
                break
        else:
            word = words[at]
            if word in lex.stopwords or (len(word) == 1 and not word.isdigit() and word != "x"):
                ignored.append(word)
            else:
                concepts.append(_number(word) or Concept(word, (word,)))
            at += 1
    # one concept per meaning: "blocks blocked blocking" is one word to the index
    unique: dict[tuple[str, ...], Concept] = {}
    for concept in concepts:
        unique.setdefault(tuple(sorted({" ".join(stem(word) for word in words_of(phrase))
                                        for phrase in concept.phrases})), concept)
    return Reading(query, tuple(unique.values()), tuple(ignored), cut)


_NUMBER_WORDS = {"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
                 "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
                 "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
                 "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100}
_NUMERALS = {str(value): word for word, value in _NUMBER_WORDS.items()}


def _number(word: str) -> Concept | None:
    """A number of ten or more read as both the ways the documents print it: the CR says
    "60 cards", the Tournament Rules "sixty cards". A smaller one stays as typed: "one",
    "two" and "zero" are words of every sentence ("one or more", "two players"), where "1"
    is a number of counters or damage."""
    other = _NUMERALS.get(word) or str(_NUMBER_WORDS.get(word, ""))
    return Concept(word, (word, other), "number") if other else None


def _trimmed(phrase: str, stopwords: frozenset[str]) -> str:
    """A phrase without the filler words at its ends ("at end of turn" → "end of turn"):
    a phrase is matched word after word, and its ends need not be."""
    words = phrase.split()
    while len(words) > 2 and words[0].lower() in stopwords:
        words = words[1:]
    while len(words) > 2 and words[-1].lower() in stopwords:
        words = words[:-1]
    return " ".join(words)


def _forms(phrase: str, forms: dict[str, tuple[str, ...]], most: int = 4) -> list[str]:
    """A phrase and its variants with a word in its other forms ("leaves the battlefield",
    "left the battlefield"): the stemmer joins regular forms, not irregular ones."""
    words = phrase.split()
    out = [phrase]
    if len(words) < 2:
        return out
    for at, word in enumerate(words):
        for form in forms.get(word.lower(), ()):
            variant = " ".join([*words[:at], form, *words[at + 1:]])
            if variant not in out:
                out.append(variant)
    return out[:most]


def plain(concept: Concept) -> Concept:
    """An obsolete term read as the words it is (the current rules still use them)."""
    return Concept(concept.words, (concept.words,), "word")


def fts_expression(concept: Concept) -> str:
    """The concept as an FTS5 query: each phrase quoted (nothing of the user's reaches the
    query syntax), any phrase matching."""
    phrases = [" ".join(words_of(phrase)).replace('"', " ") for phrase in concept.phrases]
    return " OR ".join(f'"{phrase}"' for phrase in phrases if phrase.strip())
