"""The terms layer's tokens of each text, kept in the database so that no text is tokenized
twice: a new release repeats nine tenths of its predecessor's texts, and tokenizing them
was most of the work `rulesdb add` waited for.

Table `token_cache`: one row per distinct text tokenized (rule and example texts of every
linked document), keyed by the text's digest (rulesdb.db.store.digest) with its length; its
words (the tokens the layer keeps: no whitespace, no "-") as (gap before, length) pairs of
16-bit numbers. Table `token_cache_version`: the tokenizer the rows came from (spaCy's
version and this format); rows of another tokenizer are not read, and are replaced.
A word's lemma is not kept: it is looked up again from its text.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import numpy as np
import sqlite_utils

from ..db.readonly import read_only
from ..db.store import digest
from .term_matcher import Lexicon, Tokens, tokenize

FORMAT = 1  # raise it when the kept tokens would differ: packing, or how term_matcher makes them
WIDEST = 0xFFFF  # a gap or word longer than this is not kept (no rule text has one)
CHUNK = 900  # digests per query (SQLite allows 999 parameters by default before 3.32)


def tokenizer_version() -> str:
    """What the kept tokens depend on: spaCy's version (its English tokenizer) and FORMAT."""
    try:
        spacy = version("spacy")
    except PackageNotFoundError:  # pragma: no cover - spaCy is a dependency
        spacy = "unknown"
    return f"spacy {spacy}; format {FORMAT}"


def pack(tokens: Tokens) -> bytes | None:
    """The words of `tokens` as (gap, length) pairs; None when one does not fit 16 bits."""
    if not len(tokens.starts):
        return b""
    before = np.empty_like(tokens.ends)
    before[0] = 0
    before[1:] = tokens.ends[:-1]
    pairs = np.empty(2 * len(tokens.starts), np.int64)
    pairs[0::2] = tokens.starts - before
    pairs[1::2] = tokens.ends - tokens.starts
    if pairs.max() > WIDEST or pairs.min() < 0:
        return None
    return pairs.astype("<u2").tobytes()


def unpack(kept: dict[str, bytes], lexicon: Lexicon) -> dict[str, Tokens]:
    """The Tokens of each text from what `pack` made of them (all at once: the arrays of one
    text are too small for numpy to pay)."""
    texts = list(kept)
    if not texts:
        return {}
    pairs = np.frombuffer(b"".join(kept.values()), "<u2").astype(np.int64)
    gaps, lengths = pairs[0::2], pairs[1::2]
    counts = np.array([len(data) // 4 for data in kept.values()], np.int64)
    bounds = np.concatenate([[0], np.cumsum(counts)])
    ends = np.cumsum(gaps + lengths)
    # each text's offsets count from its own start: less the running total before it
    ends -= np.repeat(np.concatenate([[0], ends])[bounds[:-1]], counts)
    starts = ends - lengths
    at, to = starts.tolist(), ends.tolist()
    spans = list(zip(texts, bounds[:-1].tolist(), bounds[1:].tolist(), strict=True))
    words = lexicon.text_ids([text[a:b] for text, first, last in spans
                              for a, b in zip(at[first:last], to[first:last], strict=True)])
    return {text: Tokens(starts[a:b], ends[a:b], words[a:b]) for text, a, b in spans}


@dataclass
class Tokenized:
    """Texts tokenized (or whose kept tokens were read), with the Lexicon of their words;
    `fresh` the packed tokens of those tokenized here, `taken` of those read back."""

    lexicon: Lexicon = field(default_factory=Lexicon)
    tokens: dict[str, Tokens] = field(default_factory=dict)
    fresh: dict[str, bytes] = field(default_factory=dict)
    taken: dict[str, bytes] = field(default_factory=dict)

    def take(self, kept: dict[str, bytes]) -> None:
        """Read the kept tokens of those texts not met yet."""
        new = {text: packed for text, packed in kept.items() if text not in self.tokens}
        self.tokens.update(unpack(new, self.lexicon))
        self.taken.update(new)

    def packed(self) -> dict[str, bytes]:
        """The packed tokens of every text met, to be kept in the database written: those
        read back too, as a build writes a new file beside the one they were read from."""
        return {**self.taken, **self.fresh}

    def tokenize(self, texts: list[str]) -> None:
        """Tokenize those of `texts` not met yet."""
        unseen = [text for text in dict.fromkeys(texts) if text not in self.tokens]
        for text, tokens in zip(unseen, tokenize(unseen, self.lexicon), strict=True):
            self.tokens[text] = tokens
            packed = pack(tokens)
            if packed is not None:
                self.fresh[text] = packed


@dataclass
class Sample:
    """Texts a worker is to tokenize ahead, with the packed tokens of those kept already."""

    texts: list[str]
    kept: dict[str, bytes] = field(default_factory=dict)


def read(db_path: Path | None, texts: list[str]) -> dict[str, bytes]:
    """The kept tokens of those of `texts` that the database at `db_path` holds (none when
    there is no such database, or its rows come from another tokenizer)."""
    if db_path is None or not Path(db_path).is_file() or not texts:
        return {}
    try:
        conn = read_only(Path(db_path))
    except sqlite3.Error:
        return {}
    try:
        return read_from(conn, texts)
    finally:
        conn.close()


def read_from(conn: sqlite3.Connection, texts: list[str]) -> dict[str, bytes]:
    """`read` from an open database."""
    try:
        row = conn.execute("SELECT tokenizer FROM token_cache_version").fetchone()
        if row is None or row[0] != tokenizer_version():
            return {}
        by_key = {digest(text): text for text in texts}
        keys = list(by_key)
        found = {}
        for at in range(0, len(keys), CHUNK):
            part = keys[at:at + CHUNK]
            for key, length, data in conn.execute(
                f"SELECT digest, length, bounds FROM token_cache WHERE digest IN "
                f"({', '.join('?' * len(part))})", part,
            ):
                text = by_key[key]
                if len(text) == length:
                    found[text] = data
        return found
    except sqlite3.Error:  # no such table: an older database, or not a rulesdb one
        return {}


def rows(packed: dict[str, bytes]) -> list[tuple[int, int, bytes]]:
    """The `token_cache` rows of these texts' packed tokens."""
    return [(digest(text), len(text), data) for text, data in packed.items()]


def make_current(db: sqlite_utils.Database) -> None:
    """Have `token_cache` hold only rows of this tokenizer (emptied when it held others')."""
    current = tokenizer_version()
    stored = db.execute("SELECT tokenizer FROM token_cache_version").fetchone()
    if stored is None or stored[0] != current:
        db.execute("DELETE FROM token_cache")
        db.execute("DELETE FROM token_cache_version")
        db.execute("INSERT INTO token_cache_version (tokenizer) VALUES (?)", [current])


INSERT = "INSERT OR IGNORE INTO token_cache (digest, length, bounds)"
