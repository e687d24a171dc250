"""The terms layer's rows on their way to the database: what `find_all` found (per document,
its mention rows, made as they are read), grouped into mention sets (`mention_sets`: the
mentions of one text, stored once however many editions print it), handed over by the
worker in a SQLite file of its own (`spool`), and written to term_spans, term_uses and
term_links (the view `term_mentions` reads them as rows) with the tokens to keep (`finish`).
The worker groups the sets itself, so it hands over only the sets the database lacks: a new
release repeats most of its predecessor's, and writing its 32,000 mention rows was most of
what the add waited for at the end."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any

import sqlite_utils

from ..db.bulk import insert_tuples
from ..db.store import digest
from . import token_cache

COLUMNS = ("document", "glossary_id", "rule_id", "example_id", "start", "end", "text")


class Found(dict):
    """What `find_all` found: per document id, its glossary's document and its mention rows
    (COLUMNS); `tokens` the packed tokens of the texts it read (for the token cache);
    `terms` per glossary document its entries' terms by id, and `known` the mention sets
    the database held when the jobs were prepared (what `spool` needs to group the sets)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tokens: dict[str, bytes] = {}
        self.terms: dict[str, dict[int, str]] = {}
        self.known: frozenset[int] | None = None


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


@dataclass
class MentionSets:
    """Found mentions as sets: `spans` the rows of term_spans of the sets not stored yet
    (set id, position, start, end, text, term); per document in order, its glossary's
    document, its rows of term_uses (rule id, example id, set id) and its mention count;
    `forms` the (form, term) pairs of the new sets, lower-cased."""

    spans: list[tuple[int, int, int, int, str, str]] = field(default_factory=list)
    uses: dict[str, tuple[str, list[tuple[int | None, int | None, int]], int]] = field(
        default_factory=dict)
    forms: set[tuple[str, str]] = field(default_factory=set)


def mention_sets(found: dict[str, tuple[str, Rows | list[tuple]]],
                 terms_of: Callable[[str], Mapping[int, str]],
                 known: Iterable[int]) -> MentionSets:
    """The mention sets of `found` (rows grouped by text, each text's in order), `terms_of`
    giving a glossary document's terms by entry id; sets in `known` are stored already."""
    known = set(known)
    sets = MentionSets()
    for doc_id, (source, rows) in found.items():
        terms = terms_of(source)
        uses: list[tuple[int | None, int | None, int]] = []
        count = 0
        for (rule_id, example_id), group in groupby(rows, key=lambda row: (row[2], row[3])):
            spans = tuple((row[4], row[5], row[6], terms[row[1]]) for row in group)
            count += len(spans)
            set_id = digest(repr(spans))  # as a text's key in `texts`
            if set_id not in known:
                known.add(set_id)
                sets.spans += [(set_id, at, *span) for at, span in enumerate(spans)]
                sets.forms.update((text.lower(), term.lower()) for _, _, text, term in spans)
            uses.append((rule_id, example_id, set_id))
        sets.uses[doc_id] = (source, uses, count)
    return sets


@dataclass(frozen=True)
class Spooled:
    """Mention sets (`mention_sets`) written to the SQLite file `path`: tables `spans`,
    `uses` (with `seq`, in order) and `forms`, and the tokens to keep in `kept`; per document
    id its glossary's document, its uses' first and last `seq` and its mention count."""

    path: str
    ranges: dict[str, tuple[str, int, int, int]]


SPANS = ("set_id", "position", "start", "end", "text", "term")
USES = ("rule_id", "example_id", "set_id")


def spool(found: Found, folder: str) -> Spooled:
    """The mention sets of `found` that the database lacks, written to a new file in
    `folder`: the worker's way to hand them over. Copied table to table, they cost the
    process writing the database a third of inserting them from Python."""
    assert found.known is not None, "found by find_all from prepared jobs"
    sets = mention_sets(found, found.terms.__getitem__, found.known)
    path = os.path.join(folder, "term_mentions.db")
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA journal_mode = OFF")
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute(f"CREATE TABLE spans ({', '.join(f'[{c}]' for c in SPANS)})")
        conn.executemany("INSERT INTO spans VALUES (?, ?, ?, ?, ?, ?)", sets.spans)
        conn.execute(f"CREATE TABLE uses (seq INTEGER PRIMARY KEY, {', '.join(USES)})")
        ranges, seq = {}, 0
        for doc_id, (source, uses, count) in sets.uses.items():
            conn.executemany(f"INSERT INTO uses ({', '.join(USES)}) VALUES (?, ?, ?)", uses)
            ranges[doc_id] = (source, seq + 1, seq + len(uses), count)
            seq += len(uses)
        conn.execute("CREATE TABLE forms (form TEXT, term TEXT)")
        conn.executemany("INSERT INTO forms VALUES (?, ?)", sorted(sets.forms))
        conn.execute("CREATE TABLE kept (digest INTEGER, length INTEGER, bounds BLOB)")
        conn.executemany("INSERT INTO kept VALUES (?, ?, ?)", token_cache.rows(found.tokens))
        conn.commit()
    finally:
        conn.close()
    return Spooled(path, ranges)


def glossary_terms(db: sqlite_utils.Database, source: str) -> dict[int, str]:
    """The terms of the glossary of document `source`, by entry id."""
    return dict(db.execute("SELECT id, term FROM glossary WHERE document = ?",
                           [source]).fetchall())


class _Terms(dict):
    """A glossary document's terms by entry id, read from the database; an entry outside
    it (never expected) is looked up alone."""

    def __init__(self, db: sqlite_utils.Database, source: str) -> None:
        super().__init__(glossary_terms(db, source))
        self.db = db

    def __missing__(self, glossary_id: int) -> str:
        return self.db.execute("SELECT term FROM glossary WHERE id = ?",
                               [glossary_id]).fetchone()[0]


def known_sets(db: sqlite_utils.Database) -> frozenset[int]:
    """The mention sets the database holds."""
    return frozenset(row[0] for row in db.execute("SELECT DISTINCT set_id FROM term_spans"))


def finish(db: sqlite_utils.Database, doc_ids: list[str],
           found: dict[str, tuple[str, Rows | list[tuple]]] | Spooled) -> str:
    """Replace the stored mentions of `doc_ids` (and of the documents linked again) with
    those found (by `find_all`, or spooled by `spool`), and keep the tokens of the texts
    read; the one-line summary."""
    if isinstance(found, Spooled):
        spooled: Spooled | None = found
        sources = {doc_id: (source, count) for doc_id, (source, _, _, count)
                   in found.ranges.items()}
        db.conn.commit()  # ATTACH is refused inside a transaction
        db.execute("ATTACH DATABASE ? AS spool", [found.path])
    else:
        spooled = None
        terms: dict[str, _Terms] = {}
        sets = mention_sets(found, lambda source: terms.setdefault(source, _Terms(db, source)),
                            known_sets(db))
        sources = {doc_id: (source, count) for doc_id, (source, _, count) in sets.uses.items()}
    total, linked = 0, []
    try:
        for doc_id in [*doc_ids, *(doc_id for doc_id in sources if doc_id not in doc_ids)]:
            db.execute("DELETE FROM term_uses WHERE document = ?", [doc_id])
            db.execute("DELETE FROM term_links WHERE document = ?", [doc_id])
            if doc_id not in sources:
                continue
            source, count = sources[doc_id]
            if spooled:
                _, first, last, _ = spooled.ranges[doc_id]
                db.execute(f"INSERT INTO term_uses (document, {', '.join(USES)}) "
                           f"SELECT ?, {', '.join(USES)} FROM spool.uses "
                           "WHERE seq BETWEEN ? AND ? ORDER BY seq", [doc_id, first, last])
            else:
                insert_tuples(db, "term_uses", ("document", *USES),
                              [(doc_id, *use) for use in sets.uses[doc_id][1]])
            total += count
            db.execute("INSERT INTO term_links (document, glossary) VALUES (?, ?)",
                       [doc_id, source])
            linked.append((doc_id, source))
        if spooled:
            db.execute(f"INSERT INTO term_spans ({', '.join(SPANS)}) "
                       f"SELECT {', '.join(SPANS)} FROM spool.spans ORDER BY rowid")
            db.execute("INSERT OR IGNORE INTO term_forms (form, term) "
                       "SELECT form, term FROM spool.forms ORDER BY rowid")
        else:
            insert_tuples(db, "term_spans", SPANS, sets.spans)
            db.conn.executemany("INSERT OR IGNORE INTO term_forms (form, term) VALUES (?, ?)",
                                sorted(sets.forms))
        # the sets no text uses any more
        db.execute("DELETE FROM term_spans WHERE set_id NOT IN (SELECT set_id FROM term_uses)")
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
