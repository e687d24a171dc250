"""`rulesdb build`: parse every catalogued source and write a fresh database atomically."""

from __future__ import annotations

import importlib
import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from .. import __version__
from ..background import Background
from ..db.batch import collector_paused, open_working_copy
from ..db.fts import ensure_fts
from ..db.replacing import put_in_place, working_path, write_failures
from ..db.schema import ensure_schema
from ..db.stamp import SHIPPED, Stamp
from ..db.stamp import write as write_stamp
from ..db.store import CatalogEntry, StoredCounts, mark_superseded, save_document
from ..db.writelock import writing
from ..errors import InputError, position
from ..ingest.decode import decode
from ..ingest.model import Document, ParseError
from ..layers import LAYERS
from ..layers.run import feed_parsed, run_layers, warm_up
from ..places import shipped
from ..trace.run import scanned_engines, trace_tree
from .catalog import load_catalog, read_verified
from .history import load_archives, load_releases, read_archive, read_release
from .kept import kept as kept_releases
from .overrides import previous_overrides, read_layers
from .overrides import store as store_overrides
from .release import (
    Source,
    UnreadableDatabase,
    edition_id,
    parse_release,
    previous_sources,
    store_release,
)
from .vocabulary import store as store_vocabulary

PARSERS = ("cr_text", "cr_flat", "cr_any", "rulings", "rulebook_print", "rulebook_web",
           "policy_text", "policy_json")


@dataclass
class DocumentReport:
    """What building one document did."""

    id: str
    counts: StoredCounts
    seconds: float
    warnings: tuple[str, ...] = ()
    added_from: str | None = None  # the source file of a document `rulesdb add` put there
    from_archive: str | None = None  # ARCHIVE:MEMBER of a release read from a catalogued archive


@dataclass
class BuildReport:
    """What a build did: per-document counts and timings, layer summaries."""

    documents: list[DocumentReport] = field(default_factory=list)
    layers: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    layer_seconds: dict[str, float] = field(default_factory=dict)
    seconds: float = 0.0


def parse_source(entry: CatalogEntry, data: bytes | dict[str, bytes],
                 path: Path | str) -> Document:
    """`data` parsed by the entry's parser (a folder's files by name: by its `parse_files`);
    InputError naming file, document and position."""
    if entry.parser not in PARSERS:
        raise InputError(f"{path}: {entry.id}: unknown parser {entry.parser!r}")
    module = importlib.import_module(f"rulesdb.ingest.{entry.parser}")
    if isinstance(data, dict):
        try:
            return module.parse_files(data)
        except ParseError as exc:
            raise InputError(f"{path}: {entry.id}: {exc.message}") from None
    try:
        text = decode(data)
    except ParseError as exc:
        raise InputError(f"{path}: {entry.id}: byte {exc.offset}: {exc.message}") from None
    try:
        return module.parse(data)
    except ParseError as exc:
        raise InputError(
            f"{path}: {entry.id}: {position(text, exc.offset)}: {exc.message}"
        ) from None


def build(
    db_path: Path,
    sources_dir: Path,
    catalog_path: Path | None = None,
    on_document: Callable[[DocumentReport], None] | None = None,
    seeds_only: bool = False,
    on_step: Callable[[str, int], None] | None = None,
    overrides: Path | None = None,
    releases: Path | None = None,
    when: Callable[[], bool] | None = None,
    lock_wait: float | None = None,
) -> BuildReport | None:
    """Build `db_path` from the catalogue in `sources_dir`: its documents and, unless
    `seeds_only`, the releases of its archives and its release files, with the alignments
    set by hand of the corpus (the file beside `sources_dir`) and, on top, of the file
    `overrides` (when neither exists, those of the old database); the old file survives any
    failure. The editions added to the old database are kept, and so are the releases kept
    as files in the folder `releases` (rulesdb.sources.kept) that it lacks.

    `on_step(label, total)` is called after each step (for a progress bar of `total` steps).
    `when`, asked once the write lock is held, may decide that there is nothing to build
    (another command built it meanwhile): None is returned then. `lock_wait`: how long to
    wait for another writer (rulesdb.db.writelock.WAIT when None).
    """
    with collector_paused():
        workers = warm_up()  # the terms layer's worker imports spaCy while sources are parsed
        try:
            # it keeps what was added: no add may run meanwhile
            with writing(db_path, wait=lock_wait), write_failures(db_path):
                if when is not None and not when():
                    return None
                return _build(db_path, sources_dir, catalog_path, on_document, workers,
                              seeds_only, on_step or (lambda label, total: None), overrides,
                              releases)
        finally:
            for worker in workers.values():
                worker.cancel()


def _build(db_path: Path, sources_dir: Path, catalog_path: Path | None,
           on_document: Callable[[DocumentReport], None] | None,
           workers: dict[str, Background], seeds_only: bool,
           on_step: Callable[[str, int], None], overrides: Path | None,
           releases: Path | None) -> BuildReport:
    started = time.perf_counter()
    catalog = catalog_path or sources_dir / "catalog.toml"
    entries = load_catalog(catalog)
    sources = [] if seeds_only else [
        *(source for archive in load_archives(catalog)
          for source in read_archive(archive, catalog.parent)),
        *(read_release(release, catalog.parent) for release in load_releases(catalog))]
    report = BuildReport()
    try:
        kept = _previously_added(db_path)
        unreadable = None
    except UnreadableDatabase as exc:  # rebuilt from the catalogue; the old file kept aside
        kept, unreadable = [], exc
    kept += _parsed_again(db_path, [(doc_id, source) for doc_id, source in kept_releases(releases)
                                    if doc_id not in {k[0] for k in kept}])
    hand_set = read_layers([sources_dir.parent / shipped.OVERRIDES, overrides])
    if hand_set is None:  # no file: the old database's are kept
        hand_set, overrides = previous_overrides(db_path), None
    total = 2 * (len(entries) + len(sources) + len(kept)) + len(LAYERS) + 2
    parsed = []
    for entry in entries:
        t0 = time.perf_counter()
        data = read_verified(entry, sources_dir)
        doc = parse_source(entry, data, sources_dir / entry.file)
        parsed.append((entry, doc, time.perf_counter() - t0))
        on_step(f"parsed {entry.id}", total)
    kept_ids = {doc_id for doc_id, *_ in kept}
    history = [item for item in _parse_history(sources, {e.id for e in entries}, catalog,
                                               lambda label: on_step(label, total))
               if item[0] not in kept_ids]  # an edition added by hand replaces its release
    # the worker tokenizes while the documents are stored, reading the tokens the old
    # database kept of them
    feed_parsed(workers, [doc for _, doc, _ in parsed] + [doc for _, _, doc, _ in history]
                + [doc for _, _, doc, _ in kept], db_path)
    engines = scanned_engines(db_path)
    db_path.parent.mkdir(parents=True, exist_ok=True)
    temp_path = working_path(db_path, "building")
    temp_path.unlink(missing_ok=True)
    try:
        db = open_working_copy(temp_path, db_path)
        ensure_schema(db)
        def stored(doc_id: str, doc: Document, parse_seconds: float,
                   store: Callable[[], StoredCounts], **origin: str | None) -> None:
            t0 = time.perf_counter()
            counts = store()
            doc_report = DocumentReport(doc_id, counts, parse_seconds + time.perf_counter() - t0,
                                        doc.warnings, **origin)
            report.documents.append(doc_report)
            if on_document:
                on_document(doc_report)
            on_step(f"stored {doc_id}", total)

        for entry, doc, parse_seconds in parsed:
            stored(entry.id, doc, parse_seconds,
                   partial(save_document, db, entry, doc))
        doc_ids = [entry.id for entry in entries]
        for doc_id, source, doc, parse_seconds in history:
            stored(doc_id, doc, parse_seconds,
                   partial(store_release, db, doc_id, source, doc, keep_source=False),
                   from_archive=source.origin)
            doc_ids.append(doc_id)
        for doc_id, source, doc, parse_seconds in kept:
            stored(doc_id, doc, parse_seconds,
                   partial(store_release, db, doc_id, source, doc),
                   added_from=source.name)
            doc_ids = [*(i for i in doc_ids if i != doc_id), doc_id]
        mark_superseded(db)
        store_overrides(db, hand_set, overrides)
        write_stamp(db, _stamp(sources_dir))
        t0 = time.perf_counter()
        report.layers["search"] = store_vocabulary(db, sources_dir.parent)
        report.layer_seconds["search"] = time.perf_counter() - t0
        times = run_layers(db, doc_ids, lambda label: on_step(label, total), workers=workers,
                           layers=LAYERS)
        report.layers.update(times.summaries)
        report.layer_seconds.update(times.seconds)
        db.conn.commit()
        report.notes.extend(retrace(db.conn, engines))
        ensure_fts(db)
        on_step("full-text search", total)
        db.execute("ANALYZE")
        db.conn.commit()
        # indexes filled row by row keep pages part empty: rewritten packed, the full history
        # takes 240 MB instead of 250 (1 s)
        db.execute("VACUUM")
        db.close()
        if unreadable is not None:
            report.notes.append(set_aside(db_path, unreadable))
        put_in_place(temp_path, db_path)
    finally:
        temp_path.unlink(missing_ok=True)
    report.seconds = time.perf_counter() - started
    return report


def set_aside(db_path: Path, unreadable: UnreadableDatabase) -> str:
    """Move the unreadable database being rebuilt beside it (NAME.unreadable), so that what
    was added to it is not lost with it; what to tell the user."""
    aside = db_path.with_name(db_path.name + ".unreadable")
    os.replace(db_path, aside)
    return (f"{unreadable.message}: it is kept as {aside.name}, and the new database holds "
            "the catalogue's documents only (add the editions you had added again)")


def retrace(conn: sqlite3.Connection, engines: list[dict]) -> list[str]:
    """Scan again the engines `rulesdb trace` stored in the database being rebuilt.

    Their rule ids point into the old database, so they are re-checked from their source
    tree; an engine whose tree is gone, or was stored by its folder's name only (traced
    without --keep-path), is not kept, and the note says so.
    """
    notes = []
    for engine in engines:
        path = Path(engine["path"])
        if not path.is_absolute():
            notes.append(f"engine {engine['name']} not kept: only its folder's name "
                         f"({engine['path']}) was stored; run `rulesdb trace` again (with "
                         "--keep-path, builds trace it again)")
            continue
        if not path.is_dir():
            notes.append(f"engine {engine['name']} not kept: {path} is gone; "
                         "run `rulesdb trace` again")
            continue
        edition = engine["edition"]
        if not conn.execute("SELECT 1 FROM documents WHERE id = ?", [edition]).fetchone():
            edition = None
        traced = trace_tree(conn, path, engine["name"], edition, keep_path=True)
        notes.append(f"engine {traced.engine} kept: traced {path} again against "
                     f"{traced.edition} ({len(traced.items)} citations)")
    return notes


def _parse_history(sources: list[Source], taken: set[str], catalog: Path,
                   step: Callable[[str], None]) -> list[tuple[str, Source, Document, float]]:
    """(id, source, document, seconds) of each archived release, parsed as `rulesdb add`
    parses it; InputError for a release that does not parse or whose id is taken."""
    result: list[tuple[str, Source, Document, float]] = []
    seen: dict[str, str] = {}
    for source in sources:
        t0 = time.perf_counter()
        doc = parse_release(source)
        doc_id = edition_id(doc, source)
        if doc_id in taken or doc_id in seen:
            first = seen.get(doc_id, f"{catalog.name}'s [[document]] {doc_id}")
            raise InputError(f"{source.origin}: its edition {doc_id} is already given by {first}")
        seen[doc_id] = source.origin
        result.append((doc_id, source, doc, time.perf_counter() - t0))
        step(f"parsed {source.name}")
    return result


def _previously_added(db_path: Path) -> list[tuple[str, Source, Document, float]]:
    """The documents `rulesdb add` put in the database being rebuilt, parsed again.

    They are kept (from the source bytes stored with them) so that a rebuild does not drop
    added editions; one that replaced a catalogued document of the same id replaces it again.
    """
    return _parsed_again(db_path, previous_sources(db_path, whole=True))


def _parsed_again(db_path: Path, sources: list[tuple[str, Source]]
                  ) -> list[tuple[str, Source, Document, float]]:
    """(id, source, document, seconds) of releases added earlier, parsed again; InputError
    for one that no longer parses."""
    kept = []
    for doc_id, source in sources:
        t0 = time.perf_counter()
        try:
            doc = parse_release(source)
        except InputError as exc:
            raise InputError(f"{db_path}: {doc_id}, added from {source.name}, no longer "
                             f"parses ({exc.message}); move the database away to build from "
                             "the catalogue alone") from None
        kept.append((doc_id, source, doc, time.perf_counter() - t0))
    return kept


def _stamp(sources_dir: Path) -> Stamp:
    """What a build from `sources_dir` is stamped with: the corpus rulesdb ships (with its
    digest), or the folder holding `sources_dir`."""
    if shipped.is_shipped(sources_dir):
        return Stamp(__version__, SHIPPED, shipped.digest())
    return Stamp(__version__, str(sources_dir.parent.resolve()), "")
