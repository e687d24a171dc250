"""The terms layer's rows on their way to the database: what `find_all` found (per document,
its mention rows, made as they are read), handed over by the worker in a SQLite file of its
own (`spool`), and written as mention sets (term_spans, term_uses, term_links: the view
`term_mentions` reads them as rows) with the tokens to keep (`finish`)."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import groupby
from typing import Any

import sqlite_utils

from ..db.bulk import insert_tuples
from ..db.store import digest
from . import token_cache

COLUMNS = ("document", "glossary_id", "rule_id", "example_id", "start", "end", "text")


class Found(dict):
    """What `find_all` found: per document id, its glossary's document and its mention rows
    (COLUMNS); `tokens` the packed tokens of the texts it read (for the token cache)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tokens: dict[str, bytes] = {}


class Rows:
    """A document's mention rows (COLUMNS), made as they are read from what was found in each
    of its texts (one list per distinct text and context, shared by the documents printing
    it): made at once, the rows of a history of 90 editions took the worker 700 MB."""

    __slots__ = ("doc_id", "found", "items")

    def __init__(self, doc_id: str, items: list[tuple[int, int | None, str, int]],
                 found: list[list[tuple[int, int, int]]]) -> None:
        self.doc_id = doc_id
        self.items = items  # (rule id, example id, text, owner) of each text
        self.found = found  # (start, end, glossary id) of each mention, per text

    def __iter__(self) -> Iterator[tuple]:
        for (rule_id, example_id, text, _), mentions in zip(self.items, self.found,
                                                            strict=True):
            for start, end, glossary_id in mentions:
                yield (self.doc_id, glossary_id, None if example_id else rule_id, example_id,
                       start, end, text[start:end])

    def __len__(self) -> int:
        return sum(map(len, self.found))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rows | list) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]


@dataclass(frozen=True)
class Spooled:
    """What `find_all` found, its rows written to the SQLite file `path` (table `found`, in
    order); per document id its glossary's document and its rows' first and last `seq`."""

    path: str
    ranges: dict[str, tuple[str, int, int]]


SPOOL_TABLE = ", ".join(f"[{c}]" for c in COLUMNS)


def spool(found: Found | dict[str, tuple[str, Rows | list[tuple]]], folder: str) -> Spooled:
    """`found` written to a new file in `folder` (its tokens in table `kept`): the worker's
    way to hand over its rows. Copied table to table, they cost the process writing the
    database a third of inserting them from Python, and nothing is pickled."""
    path = os.path.join(folder, "term_mentions.db")
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA journal_mode = OFF")
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute(f"CREATE TABLE found (seq INTEGER PRIMARY KEY, {SPOOL_TABLE})")
        ranges, seq = {}, 0
        for doc_id, (source, rows) in found.items():
            conn.executemany(f"INSERT INTO found ({SPOOL_TABLE}) VALUES "
                             f"({', '.join('?' * len(COLUMNS))})", rows)
            ranges[doc_id] = (source, seq + 1, seq + len(rows))
            seq += len(rows)
        conn.execute("CREATE TABLE kept (digest INTEGER, length INTEGER, bounds BLOB)")
        conn.executemany("INSERT INTO kept VALUES (?, ?, ?)",
                         token_cache.rows(getattr(found, "tokens", {})))
        conn.commit()
    finally:
        conn.close()
    return Spooled(path, ranges)


class Sets:
    """Mention sets on their way to term_spans / term_uses: the mentions of one text are a
    set, stored once under the digest of what it holds, however many editions print it."""

    def __init__(self, db: sqlite_utils.Database) -> None:
        self.db = db
        self.known = {row[0] for row in db.execute("SELECT DISTINCT set_id FROM term_spans")}
        self.terms: dict[str, dict[int, str]] = {}  # per glossary document: id → term
        self.forms: set[tuple[str, str]] = set()

    def store(self, doc_id: str, source: str, rows: Iterable[tuple]) -> int:
        """Store a document's mention rows (COLUMNS, grouped by text, each text's in order)
        linked to the glossary of `source`; how many mentions."""
        if source not in self.terms:
            self.terms[source] = dict(self.db.execute(
                "SELECT id, term FROM glossary WHERE document = ?", [source]).fetchall())
        terms = self.terms[source]
        spans_rows: list[tuple] = []
        uses: list[tuple] = []
        count = 0
        for (rule_id, example_id), group in groupby(rows, key=lambda row: (row[2], row[3])):
            spans = tuple((row[4], row[5], row[6], terms.get(row[1]) or self._term(row[1]))
                          for row in group)
            count += len(spans)
            set_id = digest(repr(spans))  # as a text's key in `texts`
            if set_id not in self.known:
                self.known.add(set_id)
                spans_rows += [(set_id, at, *span) for at, span in enumerate(spans)]
                self.forms.update((text.lower(), term.lower()) for _, _, text, term in spans)
            uses.append((doc_id, rule_id, example_id, set_id))
        insert_tuples(self.db, "term_spans",
                      ("set_id", "position", "start", "end", "text", "term"), spans_rows)
        insert_tuples(self.db, "term_uses", ("document", "rule_id", "example_id", "set_id"),
                      uses)
        return count

    def _term(self, glossary_id: int) -> str:
        """The term of an entry outside the document's glossary (never expected)."""
        return self.db.execute("SELECT term FROM glossary WHERE id = ?",
                               [glossary_id]).fetchone()[0]

    def finish(self) -> None:
        """Drop the sets no text uses any more; record the surface forms of the new ones."""
        self.db.execute("DELETE FROM term_spans WHERE set_id NOT IN "
                        "(SELECT set_id FROM term_uses)")
        self.db.conn.executemany("INSERT OR IGNORE INTO term_forms (form, term) VALUES (?, ?)",
                                 sorted(self.forms))


def finish(db: sqlite_utils.Database, doc_ids: list[str],
           found: dict[str, tuple[str, Rows | list[tuple]]] | Spooled) -> str:
    """Replace the stored mentions of `doc_ids` (and of the documents linked again) with
    those found (by `find_all`, or spooled by `spool`), and keep the tokens of the texts
    tokenized; the one-line summary."""
    spooled = found if isinstance(found, Spooled) else None
    sources = (spooled.ranges if spooled else
               {doc_id: (source, 1, len(rows)) for doc_id, (source, rows) in found.items()})
    if spooled:  # ATTACH is refused inside a transaction
        db.conn.commit()
        db.execute("ATTACH DATABASE ? AS spool", [spooled.path])
    total, linked = 0, []
    sets = Sets(db)
    try:
        for doc_id in [*doc_ids, *(doc_id for doc_id in sources if doc_id not in doc_ids)]:
            db.execute("DELETE FROM term_uses WHERE document = ?", [doc_id])
            db.execute("DELETE FROM term_links WHERE document = ?", [doc_id])
            if doc_id not in sources:
                continue
            source, first, last = sources[doc_id]
            rows: Any = (db.execute(f"SELECT {SPOOL_TABLE} FROM spool.found WHERE seq BETWEEN "
                                    "? AND ? ORDER BY seq", [first, last]) if spooled
                         else found[doc_id][1])
            total += sets.store(doc_id, source, rows)
            db.execute("INSERT INTO term_links (document, glossary) VALUES (?, ?)",
                       [doc_id, source])
            linked.append((doc_id, source))
        sets.finish()
        token_cache.make_current(db)
        if spooled:
            db.execute(f"{token_cache.INSERT} SELECT digest, length, bounds FROM spool.kept")
        else:
            db.conn.executemany(f"{token_cache.INSERT} VALUES (?, ?, ?)",
                                token_cache.rows(getattr(found, "tokens", {})))
    finally:
        if spooled:
            db.conn.commit()
            db.execute("DETACH DATABASE spool")
    own = sum(doc_id == source for doc_id, source in linked)
    others = ", ".join(f"{doc_id}→{source}" for doc_id, source in linked if doc_id != source)
    return (f"{total} term mentions in {len(linked)} documents ({own} with their own glossary"
            + (f"; {others}" if others else "") + ")")
