"""`rulesdb add`: official Comprehensive Rules text files added to a database, all or nothing
(or all that can be, with `keep_going`; or nothing at all but the report, with `dry_run`).

A release's id is `cr-YYYY-MM-DD` from the effective date printed in it (or `--id`). Adding an
edition that is already present: the same text is a no-op; a more complete source of the same
edition (a whole release against a chapter fragment) replaces it; anything else is refused
unless `replace`. Only the new documents are stored, run through the layers and indexed for
full-text search; the source bytes are kept (zlib) so `rulesdb build` can add them again.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

import sqlite_utils

from ..background import Background
from ..db.batch import collector_paused, open_working_copy
from ..db.fts import index_fts
from ..db.replacing import (
    put_in_place,
    scratch_folder,
    sweep_scratch,
    working_path,
    write_failures,
)
from ..db.schema import OutdatedSchema, ensure_schema
from ..db.store import StoredCounts, mark_superseded
from ..db.writelock import writing
from ..errors import InputError
from ..ingest.model import Document
from ..layers import LAYERS, lineage
from ..layers.run import feed_parsed, run_layers, warm_up
from ..places import shipped
from .early import EarlyText
from .kept import keep
from .limits import MAX_MB, megabytes
from .overrides import store_file
from .release import (
    STDIN,
    Source,
    decision,
    edition_id,
    file_date,
    parse_release,
    plain_title,
    previous_sources,
    read_source,
    store_release,
)
from .vocabulary import store as store_vocabulary

# what the rest of rulesdb and its tests take from here (rulesdb.sources.release has them)
__all__ = ["STDIN", "AddOptions", "AddReport", "Added", "Source", "add_files", "add_sources",
           "edition_id", "file_date", "parse_release", "plain_title", "previous_sources",
           "read_source", "store_release"]


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


@dataclass(frozen=True)
class AddOptions:
    """How `add_sources` treats what it is given (see there)."""

    replace: bool = False
    doc_id: str | None = None
    keep_going: bool = False
    dry_run: bool = False
    overrides: Path | None = None
    max_bytes: int = megabytes(MAX_MB)
    releases: Path | None = None


def add_sources(db_path: Path, sources: list[Source], *, replace: bool = False,
                doc_id: str | None = None,
                on_added: Callable[[Added], None] | None = None,
                on_step: Callable[[str], None] | None = None,
                keep_going: bool = False, dry_run: bool = False,
                overrides: Path | None = None,
                max_bytes: int = megabytes(MAX_MB),
                releases: Path | None = None) -> AddReport:
    """Add CR releases to `db_path` (created when missing), all or nothing, with the
    alignments set by hand of the database's corpus and, on top, of the file `overrides`
    (when neither exists, the database's). Each release added is kept as a file in the
    folder `releases` too (rulesdb.sources.kept), when one is given.

    Every source is parsed before anything is written, and the writing is done on a copy
    that replaces the database only when everything succeeded. `on_added` hears of each
    source stored; `on_step` of each step done (for progress). With `keep_going`, a source
    that does not parse or is refused is left out (`AddReport.skipped` says why) and the
    others are added. With `dry_run`, the report says what adding would do (each source
    stored in a throwaway copy, no layer run) and nothing is written. A source in another
    form than text (.docx, .doc, .rtf, .pdf) may hold at most `max_bytes` once read.
    """
    started = time.perf_counter()
    step = on_step or (lambda label: None)
    options = AddOptions(replace, doc_id, keep_going, dry_run, overrides, max_bytes, releases)
    if doc_id is not None and len(sources) != 1:
        raise InputError("--id names one edition: give exactly one file with it")
    if dry_run:  # no write lock: it sweeps what killed runs left (as `writing` does)
        sweep_scratch()
        folder = scratch_folder("dry-run")
        try:
            with write_failures(db_path):
                return _add(db_path, _parse_all(sources, options, step), options, on_added,
                            step, started, {}, folder / db_path.name)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    with collector_paused():
        # the layers' worker imports spaCy while the sources are parsed, or, while workers
        # read their texts (rulesdb.sources.early), once they are done: it has time to
        # spare, they do not, and the machine may have two cores
        reading = any(source.early is not None for source in sources)
        workers = {} if reading else warm_up()
        try:
            # the sources are parsed before the write lock is taken: reading a file (PDFium
            # is C code) cannot leave the lock behind, whatever befalls it
            begun = _parse_all(sources, options, step)
            if reading:
                workers = warm_up()
            # another add would drop this one's editions
            with writing(db_path), write_failures(db_path):
                return _add(db_path, begun, options, on_added, step, started, workers,
                            working_path(db_path, "adding"))
        finally:
            for worker in workers.values():
                worker.cancel()


Parsed = list[tuple[Source, Document, str]]  # each source, its document and its edition


def _parse_all(sources: list[Source], options: AddOptions,
               step: Callable[[str], None]) -> tuple[AddReport, Parsed]:
    """Every source parsed (one that does not parse is skipped with `keep_going`, in the
    report begun)."""
    report, parsed = AddReport(), []
    for source in sources:
        try:
            doc = parse_release(source, options.max_bytes)
            parsed.append((source, doc, edition_id(doc, source, options.doc_id)))
        except InputError as exc:
            if not options.keep_going:
                raise
            report.skipped.append(exc.message)
        step(f"parsed {source.name}")
    return report, parsed


def _add(db_path: Path, begun: tuple[AddReport, Parsed], options: AddOptions,
         on_added: Callable[[Added], None] | None, step: Callable[[str], None], started: float,
         workers: dict[str, Background], temp_path: Path) -> AddReport:
    """The add of the sources parsed (`begun`), the work done in `temp_path` (put in place
    at the end unless a dry run)."""
    report, parsed = begun
    report.created = not db_path.exists()
    feed_parsed(workers, [doc for _, doc, _ in parsed], db_path)
    if not options.dry_run:
        db_path.parent.mkdir(parents=True, exist_ok=True)
    # Work on a copy put in place at the end: layers may commit on their own, so one
    # transaction could not promise that a failure leaves the database as it was.
    temp_path.unlink(missing_ok=True)
    try:
        if not report.created:
            shutil.copyfile(db_path, temp_path)
        db = open_working_copy(temp_path, db_path)
        try:
            try:
                ensure_schema(db)
            except OutdatedSchema as exc:
                raise InputError(f"{db_path}: {exc}") from None
            new_ids = _store_all(db, parsed, options, report, step, on_added)
            stored = {edition: source for source, _, edition in parsed if edition in new_ids}
            mark_superseded(db)
            # the layers read the stored rows: the parsed documents, most of an add's memory
            # (390 MB for a history of 90 editions), are no longer needed
            parsed.clear()
            if new_ids and not options.dry_run:
                refresh = store_file(db, options.overrides)
                if report.created:  # a new database: the words rulesdb ships
                    store_vocabulary(db, shipped.root())
                _run_layers(db, new_ids, report, step, workers, refresh)
            db.conn.commit()
        finally:
            db.close()
        if new_ids and not options.dry_run:
            put_in_place(temp_path, db_path)
            for edition, source in stored.items():
                if options.releases is not None:
                    keep(options.releases, edition, source)
    finally:
        temp_path.unlink(missing_ok=True)
    report.seconds = time.perf_counter() - started
    return report


def _store_all(db: sqlite_utils.Database, parsed: list[tuple[Source, Document, str]],
               options: AddOptions, report: AddReport, step: Callable[[str], None],
               on_added: Callable[[Added], None] | None) -> list[str]:
    new_ids = []
    for source, doc, edition in parsed:
        t0 = time.perf_counter()
        try:
            action, message = decision(db, edition, source, doc, options.replace)
        except InputError as exc:
            if not options.keep_going:
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
                step: Callable[[str], None], workers: dict[str, Background],
                refresh: set[tuple[str, str]]) -> None:
    def full_text() -> None:  # needs no layer: done while the terms worker still works
        t0 = time.perf_counter()
        index_fts(db, new_ids)
        report.layer_seconds["full-text search"] = time.perf_counter() - t0
        step("full-text search")

    # the pairs whose overrides the file changed are aligned again too
    layers = {**LAYERS, "lineage": partial(lineage.compute, refresh=refresh)}
    times = run_layers(db, new_ids, step, workers, layers, meanwhile=full_text)
    report.layers.update(times.summaries)
    report.layer_seconds.update(times.seconds)


def add_files(db_path: Path, paths: list[Path], keep_going: bool = False,
              max_bytes: int = megabytes(MAX_MB), keep_path: bool = False,
              early: dict[Path, EarlyText] | None = None, **options: Any) -> AddReport:
    """`add_sources` over files on disk, each read up to `max_bytes` (and what a .docx or
    a PDF holds, up to as much) and known by its name (by its absolute path with
    `keep_path`); with `keep_going`, an unreadable or longer one is skipped. `early` holds
    the texts of files being read already (`rulesdb.sources.early.read_early`)."""
    sources, unread = [], []
    for path in paths:
        try:
            source = read_source(path, max_bytes, keep_path)
        except InputError as exc:
            if not keep_going:
                raise
            unread.append(exc.message)
            continue
        text = (early or {}).get(path.resolve())
        sources.append(replace(source, early=text) if text is not None else source)
    report = add_sources(db_path, sources, keep_going=keep_going, max_bytes=max_bytes,
                         **options)
    report.skipped[:0] = unread
    return report
