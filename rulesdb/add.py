"""`rulesdb add`: official Comprehensive Rules text files added to a database, all or nothing.

A release's id is `cr-YYYY-MM-DD` from the effective date printed in it (or `--id`). Adding an
edition that is already present: the same text is a no-op; a more complete source of the same
edition (a whole release against a chapter fragment) replaces it; anything else is refused
unless `replace`. Only the new documents are stored, run through the layers and indexed for
full-text search; the source bytes are kept (zlib) so `rulesdb build` can add them again.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sqlite3
import sys
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Any

import sqlite_utils

from .batch import collector_paused
from .catalog import CatalogEntry
from .errors import InputError, position
from .fts import index_fts
from .ingest import cr_text
from .ingest.decode import decode
from .ingest.model import Document, ParseError
from .layers import LAYERS
from .layers.run import Background, feed_parsed, run_layers, warm_up
from .schema import OutdatedSchema, ensure_schema
from .store import StoredCounts, save_document
from .writelock import writing

LICENSE = ("© Wizards of the Coast LLC; reproduced for reference under the Wizards of the Coast "
           "Fan Content Policy")
_ID = re.compile(r"cr-(\d{4}-\d{2}-\d{2})")
_NAME_DATE = re.compile(r"(?<!\d)(\d{4})-?(\d{2})-?(\d{2})(?!\d)")
_SPAN = re.compile(r"(\d{3})-(\d{3})")
_ITALICS = re.compile(r"(?<!\w)_([^_]+)_(?!\w)")
_MARKS = re.compile(r"[™®]|\((?:TM|R)\)")


@dataclass(frozen=True)
class Source:
    """The bytes of one release and where they come from (a path or a URL)."""

    name: str
    data: bytes
    origin: str


@dataclass
class Added:
    """What adding one source did: `action` is added, replaced or unchanged."""

    id: str
    name: str
    action: str
    message: str
    counts: StoredCounts | None = None
    seconds: float = 0.0
    warnings: tuple[str, ...] = ()


@dataclass
class AddReport:
    """What an add did: one entry per source, the layer summaries, the time taken."""

    added: list[Added] = field(default_factory=list)
    layers: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0
    created: bool = False
    layer_seconds: dict[str, float] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)  # with keep_going: why each source was


def file_date(name: str) -> str | None:
    """The ISO date a file name carries ("MagicCompRules 20250606.txt" → "2025-06-06")."""
    for match in _NAME_DATE.finditer(name):
        try:
            return date(int(match[1]), int(match[2]), int(match[3])).isoformat()
        except ValueError:
            continue
    return None


STDIN = "(standard input)"  # the name of a release read from "-"


def read_source(path: Path) -> Source:
    """The bytes of a file given on the command line ("-" for standard input, as in
    `curl … | rulesdb add -`); InputError when it cannot be read."""
    if str(path) == "-":
        return Source(STDIN, sys.stdin.buffer.read(), "standard input")
    try:
        return Source(path.name, path.read_bytes(), str(path.resolve()))
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror}") from None


def parse_release(source: Source) -> Document:
    """The parsed release; InputError naming the file and position when it is not a CR text."""
    notes: list[str] = []
    try:
        text = decode(source.data, notes)
    except ParseError as exc:
        raise InputError(f"{source.name}: byte {exc.offset}: {exc.message}") from None
    try:
        doc = cr_text.parse_text(text)
    except ParseError as exc:
        raise InputError(f"{source.name}: {position(text, exc.offset)}: {exc.message}") from None
    return replace(doc, warnings=(*notes, *doc.warnings)) if notes else doc


def edition_id(doc: Document, source: Source, override: str | None = None) -> str:
    """`cr-YYYY-MM-DD`: `override`, else the printed effective date, else the file name's."""
    if override is not None:
        match = _ID.fullmatch(override)
        if not match or not _valid(match[1]):
            raise InputError(f"--id {override}: expected cr-YYYY-MM-DD")
        return override
    found = doc.meta.effective_date or file_date(source.name)
    if found is None:
        raise InputError(f"{source.name}: no effective date printed in the file nor in its "
                         "name; give the id with --id cr-YYYY-MM-DD")
    return f"cr-{found}"


def _valid(iso: str) -> bool:
    try:
        date.fromisoformat(iso)
    except ValueError:
        return False
    return True


def plain_title(title: str) -> str:
    """A printed title without typography: "_Magic_™ Rules" → "Magic Rules"."""
    title = _ITALICS.sub(r"\1", title)
    return " ".join(_MARKS.sub("", title).split())


def is_partial(doc: Document) -> bool:
    """True unless the release has the whole rule tree from 100 on and a glossary."""
    covers = doc.meta.covers
    return not (doc.glossary and len(covers) == 1 and covers[0].startswith("100-"))


def _coverage(covers: list[str] | tuple[str, ...], glossary: bool) -> tuple[set[int], bool]:
    sections: set[int] = set()
    for span in covers:
        match = _SPAN.fullmatch(span)
        if match:
            sections.update(range(int(match[1]), int(match[2]) + 1))
    return sections, glossary or "glossary" in covers


def _decision(db: sqlite_utils.Database, doc_id: str, source: Source, doc: Document,
              replace: bool) -> tuple[str, str]:
    """(action, message) for a source whose edition may already be in the database."""
    old = next(db["documents"].rows_where("id = ?", [doc_id]), None)
    if old is None:
        return "added", f"{doc_id}: added from {source.name}"
    stored = next(db["document_sources"].rows_where("document = ?", [doc_id]), None)
    same_bytes = old["sha256"] == hashlib.sha256(source.data).hexdigest()
    text = None if same_bytes or stored is None else decode(zlib.decompress(stored["data"]))
    if same_bytes or text == doc.text:
        return "unchanged", f"{doc_id}: already in the database with the same text; nothing done"
    if text is not None and _same_content(text, doc):
        return "unchanged", (f"{doc_id}: already in the database with the same rules and "
                             "glossary (only the layout of the file differs); nothing done")
    old_sections, old_glossary = _coverage(json.loads(old["covers"] or "[]"),
                                           bool(old["glossary_count"]))
    new_sections, new_glossary = _coverage(doc.meta.covers, bool(doc.glossary))
    contains = new_sections >= old_sections and new_glossary >= old_glossary
    wider = (new_sections, new_glossary) != (old_sections, old_glossary)
    # A whole release also beats a partial document of the same extent (the flattened 2009 text).
    if old["partial"] and contains and (wider or not is_partial(doc)):
        covered = ", ".join(json.loads(old["covers"] or "[]")) or "part of the rules"
        return "replaced", (f"{doc_id}: replaced the partial edition ({covered}, from "
                            f"{old['file']}) with the more complete {source.name}")
    if replace:
        return "replaced", f"{doc_id}: replaced (--replace) with {source.name}"
    raise InputError(
        f"{source.name}: {doc_id} is already in the database from {old['file']} with different "
        f"content; use --replace to replace it, or --id to store it under another id"
    )


def _same_content(stored: str, doc: Document) -> bool:
    """Whether the stored source text of an edition says what `doc` says."""
    try:
        return cr_text.parse_text(stored).content() == doc.content()
    except ParseError:  # stored by an older parser that took what this one refuses
        return False


def store_release(db: sqlite_utils.Database, doc_id: str, source: Source,
                  doc: Document) -> StoredCounts:
    """Store a parsed release under `doc_id` with its documents row and its source bytes
    (a stored copy of the edition is replaced)."""
    effective = doc_id.removeprefix("cr-")
    partial = is_partial(doc)
    day = date.fromisoformat(effective)
    title = f"{plain_title(doc.meta.title)} ({day:%B} {day.day}, {day.year})"
    if partial:
        title += f", rules {', '.join(doc.meta.covers)}"
    printed = doc.meta.date_text or "no effective date printed"
    entry = CatalogEntry(
        id=doc_id, kind=doc.meta.kind, title=title, file=source.name,
        sha256=hashlib.sha256(source.data).hexdigest(), parser="cr_text", effective_date=effective,
        partial=partial, covers=doc.meta.covers, license=LICENSE,
        source=f"Wizards of the Coast, Comprehensive Rules ({printed}); added from {source.origin}",
    )
    counts = save_document(db, entry, doc)
    db["documents"].update(doc_id, {"file_date": file_date(source.name)})
    db["document_sources"].insert({
        "document": doc_id, "name": source.name, "origin": source.origin,
        "sha256": entry.sha256, "size": len(source.data), "data": zlib.compress(source.data, 1),
    })
    return counts


def add_sources(db_path: Path, sources: list[Source], *, replace: bool = False,
                doc_id: str | None = None,
                on_added: Callable[[Added], None] | None = None,
                on_step: Callable[[str], None] | None = None,
                keep_going: bool = False) -> AddReport:
    """Add CR releases to `db_path` (created when missing), all or nothing.

    Every source is parsed before anything is written, and the writing is done on a copy
    that replaces the database only when everything succeeded. `on_added` hears of each
    source stored; `on_step` of each step done (for progress). With `keep_going`, a source
    that does not parse or is refused is left out (`AddReport.skipped` says why) and the
    others are added.
    """
    started = time.perf_counter()
    step = on_step or (lambda label: None)
    if doc_id is not None and len(sources) != 1:
        raise InputError("--id names one edition: give exactly one file with it")
    with collector_paused():
        workers = warm_up()  # the layers' worker imports spaCy while the sources are parsed
        try:
            with writing(db_path):  # another add would drop this one's editions
                return _add(db_path, sources, replace, doc_id, on_added, step, started,
                            workers, keep_going)
        finally:
            for worker in workers.values():
                worker.cancel()


def _add(db_path: Path, sources: list[Source], replace: bool, doc_id: str | None,
         on_added: Callable[[Added], None] | None, step: Callable[[str], None], started: float,
         workers: dict[str, Background], keep_going: bool) -> AddReport:
    report = AddReport(created=not db_path.exists())
    parsed = []
    for source in sources:
        try:
            doc = parse_release(source)
            parsed.append((source, doc, edition_id(doc, source, doc_id)))
        except InputError as exc:
            if not keep_going:
                raise
            report.skipped.append(exc.message)
        step(f"parsed {source.name}")
    feed_parsed(workers, [doc for _, doc, _ in parsed], db_path)
    db_path.parent.mkdir(parents=True, exist_ok=True)
    # Work on a copy put in place at the end: layers may commit on their own, so one
    # transaction could not promise that a failure leaves the database as it was.
    temp_path = db_path.with_name(f".{db_path.name}.adding-{os.getpid()}")
    temp_path.unlink(missing_ok=True)
    try:
        if not report.created:
            shutil.copyfile(db_path, temp_path)
        db = _open(temp_path, db_path)
        try:
            try:
                ensure_schema(db)
            except OutdatedSchema as exc:
                raise InputError(f"{db_path}: {exc}") from None
            new_ids = _store_all(db, parsed, replace, report, step, on_added, keep_going)
            if new_ids:
                _run_layers(db, new_ids, report, step, workers)
            db.conn.commit()
        finally:
            db.close()
        if new_ids:
            os.replace(temp_path, db_path)
    finally:
        temp_path.unlink(missing_ok=True)
    report.seconds = time.perf_counter() - started
    return report


def _store_all(db: sqlite_utils.Database, parsed: list[tuple[Source, Document, str]],
               replace: bool, report: AddReport, step: Callable[[str], None],
               on_added: Callable[[Added], None] | None, keep_going: bool) -> list[str]:
    new_ids = []
    for source, doc, edition in parsed:
        t0 = time.perf_counter()
        try:
            action, message = _decision(db, edition, source, doc, replace)
        except InputError as exc:
            if not keep_going:
                raise
            report.skipped.append(exc.message)
            continue
        added = Added(edition, source.name, action, message, warnings=doc.warnings)
        if action != "unchanged":
            added.counts = store_release(db, edition, source, doc)
            new_ids.append(edition)
        added.seconds = time.perf_counter() - t0
        report.added.append(added)
        step(f"stored {edition}")
        if on_added:
            on_added(added)
    return new_ids


def _run_layers(db: sqlite_utils.Database, new_ids: list[str], report: AddReport,
                step: Callable[[str], None], workers: dict[str, Background]) -> None:
    def full_text() -> None:  # needs no layer: done while the terms worker still works
        t0 = time.perf_counter()
        index_fts(db, new_ids)
        report.layer_seconds["full-text search"] = time.perf_counter() - t0
        step("full-text search")

    times = run_layers(db, new_ids, step, workers, LAYERS, meanwhile=full_text)
    report.layers.update(times.summaries)
    report.layer_seconds.update(times.seconds)


def add_files(db_path: Path, paths: list[Path], keep_going: bool = False,
              **options: Any) -> AddReport:
    """`add_sources` over files on disk (with `keep_going`, an unreadable one is skipped)."""
    sources, unread = [], []
    for path in paths:
        try:
            sources.append(read_source(path))
        except InputError as exc:
            if not keep_going:
                raise
            unread.append(exc.message)
    report = add_sources(db_path, sources, keep_going=keep_going, **options)
    report.skipped[:0] = unread
    return report


def _open(path: Path, shown: Path) -> sqlite_utils.Database:
    """The working copy, fast to write (it is thrown away on failure)."""
    try:
        db = sqlite_utils.Database(path, execute_plugins=False)
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as exc:
        raise InputError(f"{shown}: not a database ({exc})") from None
    db.execute("PRAGMA journal_mode = OFF")
    db.execute("PRAGMA synchronous = OFF")
    return db


def previous_sources(db_path: Path) -> list[tuple[str, Source]]:
    """(id, source) of every document added to the database at `db_path`; [] when none."""
    if not db_path.is_file():
        return []
    try:
        conn = sqlite3.connect(f"file:{db_path.resolve()}?mode=ro", uri=True)
        try:
            rows = conn.execute(
                "SELECT document, name, origin, data FROM document_sources ORDER BY document"
            ).fetchall()
        finally:
            conn.close()
    except sqlite3.DatabaseError:  # no such table, or not a database: nothing was added
        return []
    return [(doc_id, Source(name, zlib.decompress(data), origin))
            for doc_id, name, origin, data in rows]
