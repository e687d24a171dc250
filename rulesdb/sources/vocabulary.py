"""The search vocabulary and stop words: read from data/, stored in the database.

`data/search-vocabulary.txt` maps the words players use to the rules' words, one entry per
line (`WORD[ | WORD …] = READING[ | READING …][ + READING …]   # note`: `|` separates
alternatives, `+` parts that each count); `data/search-stopwords.txt` lists
the filler words a query leaves out; `data/search-ranker.toml` holds the second stage's
weights (rulesdb.lookup.rerank). All are stored by `build` (tables
`search_vocabulary`, `search_stopwords`, `search_ranker`), so the database answers searches on
its own; a line that cannot be read is an input error naming the file and line.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

import sqlite_utils

from ..db.schema import ensure_schema
from ..errors import InputError

ENTRY = re.compile(r"^(?P<words>[^=#]+?)\s*=\s*(?P<reading>[^#]+?)\s*(?:#\s*(?P<note>.*))?$")
VOCABULARY = "search-vocabulary.txt"
STOPWORDS = "search-stopwords.txt"
RANKER = "search-ranker.toml"


@dataclass(frozen=True)
class Entry:
    """A line of the vocabulary: the words typed, the rules' words read for them, a note."""

    words: tuple[str, ...]
    readings: tuple[tuple[str, ...], ...]  # parts, each of alternatives
    note: str
    line: int


def _alternatives(text: str) -> tuple[str, ...]:
    return tuple(" ".join(part.split()).lower() for part in text.split("|") if part.strip())


def read_vocabulary(path: Path) -> list[Entry]:
    """The entries of a vocabulary file; InputError naming the file and line for a line
    that is not `WORDS = READINGS # note`, or a word given twice."""
    entries: list[Entry] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(_lines(path), 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        found = ENTRY.match(text)
        if not found or not _alternatives(found["words"]) or not _alternatives(
                found["reading"]):
            raise InputError(f"{path}, line {number}: expected 'WORD | WORD = READING | "
                             f"READING   # note', got {text[:80]!r}")
        words = _alternatives(found["words"])
        for word in words:
            if word in seen:
                raise InputError(f"{path}, line {number}: {word!r} is already read on line "
                                 f"{seen[word]}")
            seen[word] = number
        parts = tuple(_alternatives(part) for part in found["reading"].split("+"))
        if not all(parts):
            raise InputError(f"{path}, line {number}: an empty part in {text[:80]!r}")
        entries.append(Entry(words, parts, (found["note"] or "").strip(), number))
    return entries


def read_stopwords(path: Path) -> list[str]:
    """The stop words of a file (words separated by spaces; `#` starts a comment)."""
    words: list[str] = []
    for line in _lines(path):
        words.extend(line.split("#", 1)[0].lower().split())
    return list(dict.fromkeys(words))


def read_ranker(path: Path) -> list[dict]:
    """The ranker's weights, a row per feature; InputError naming the file for a file that
    is not TOML with a [weights] table of numbers."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot be read ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: {exc}") from None
    weights = data.get("weights")
    if not isinstance(weights, dict):
        raise InputError(f"{path}: no [weights] table")
    rows = []
    for name, weight in weights.items():
        if isinstance(weight, bool) or not isinstance(weight, int | float):
            raise InputError(f"{path}: weight {name!r} is not a number: {weight!r}")
        rows.append({"name": name, "weight": float(weight)})
    return rows


def _lines(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot be read ({exc})") from None


def store(db: sqlite_utils.Database, data_dir: Path) -> str:
    """Store the vocabulary, stop words and ranker of `data_dir` (each left empty when its
    file is missing); a one-line summary."""
    vocabulary = data_dir / VOCABULARY
    stopwords = data_dir / STOPWORDS
    ranker = data_dir / RANKER
    entries = read_vocabulary(vocabulary) if vocabulary.is_file() else []
    words = read_stopwords(stopwords) if stopwords.is_file() else []
    ranking = read_ranker(ranker) if ranker.is_file() else []
    ensure_schema(db, ["search_vocabulary", "search_stopwords", "search_ranker"])
    db.execute("DELETE FROM search_vocabulary")
    db.execute("DELETE FROM search_stopwords")
    db.execute("DELETE FROM search_ranker")
    db["search_ranker"].insert_all(ranking)
    db["search_vocabulary"].insert_all(
        {"line": entry.line, "words": " | ".join(entry.words),
          "reading": " + ".join(" | ".join(part) for part in entry.readings),
          "note": entry.note} for entry in entries)
    db["search_stopwords"].insert_all({"word": word} for word in words)
    return (f"{len(entries)} vocabulary entries, {len(words)} stop words, "
            f"{len(ranking)} ranker weights")
