"""Running the layers in order, with the slow, self-contained part of one layer in a worker.

The terms layer spends most of its time importing spaCy and tokenizing; what it reads is
ready once the references layer is done, no layer between writes it, and none reads its
table. So its finding runs in a forked worker process while the layers between run here,
and its rows are written at its own place in the order: the database ends up exactly as if
every layer had run here one after the other. Without fork (Windows, macOS), on one core,
when threads are running, or with RULESDB_WORKERS=0, everything runs in this process
(rulesdb.background).
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import sqlite_utils

from ..background import Background
from ..db.replacing import scratch_folder
from ..ingest.model import Document
from . import LAYERS, Layer, term_matcher, term_rows, terms


@dataclass(frozen=True)
class Split:
    """A layer cut in three: read (here), find (in the worker), write (here)."""

    layer: Callable[[sqlite_utils.Database, list[str]], str]  # the whole layer, in LAYERS
    # the layers whose tables `prepare` reads (no layer after them and before this one may
    # write what it reads: it reads early)
    reads: tuple[str, ...]
    prepare: Callable[[sqlite_utils.Database, list[str]], Any]
    find: Callable[[Any], Any]
    finish: Callable[[sqlite_utils.Database, list[str], Any], str]
    warm: Callable[[], None]  # what the worker can do before it has the data (imports)
    # what the worker does with `find`'s value before handing it over, given a folder for
    # files (`finish` takes either form)
    ship: Callable[[Any, str], Any] | None = None
    # what the worker can start on as soon as the documents are parsed: `early` run there on
    # `sample(documents, database path)` (it only fills the worker's caches: `find` does the
    # same without)
    sample: Callable[[list[Document], Path | None], Any] | None = None
    early: Callable[[Any], None] | None = None


SPLITS = {"terms": Split(terms.compute, ("references",), terms.prepare, terms.find_all,
                         term_rows.finish, term_matcher.warm_up, term_rows.spool, terms.sample,
                         terms.prime)}


@dataclass
class LayerTimes:
    """Summaries and seconds per layer (a split layer's: the time it held the others up)."""

    summaries: dict[str, str] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)


def warm_up() -> dict[str, Background]:
    """A worker per split layer, started now so that its imports overlap the parsing and
    storing that come before the layers; give them to `run_layers` (which stops them)."""
    return {name: Background(split.warm) for name, split in SPLITS.items()}


def feed_parsed(workers: dict[str, Background], documents: list[Document],
                db_path: Path | None = None) -> None:
    """Give the workers (from `warm_up`) what they can start on while `documents`, parsed,
    are being stored into (a copy of) the database at `db_path` (None: a new one)."""
    for name, split in SPLITS.items():
        work = workers.get(name)
        if work is not None and work.pid is not None and split.sample and split.early:
            work.feed(split.early, split.sample(documents, db_path))


def run_layers(db: sqlite_utils.Database, doc_ids: list[str],
               on_layer: Callable[[str], None] | None = None,
               workers: dict[str, Background] | None = None,
               layers: dict[str, Layer] | None = None,
               meanwhile: Callable[[], None] | None = None) -> LayerTimes:
    """Run every layer of `layers` (default LAYERS) over `doc_ids`, in order; `on_layer`
    hears of each one done. `workers` (from `warm_up`) are used for the split layers, and
    stopped when not needed. `meanwhile` (work that needs no layer) runs before the first
    wait for a worker, or at the end.
    """
    layers = LAYERS if layers is None else layers
    times = LayerTimes()
    names = list(layers)
    idle = dict(workers or {})
    started: dict[str, tuple[Background, float]] = {}
    folder = str(scratch_folder("layers"))  # for what workers ship as files
    try:
        for at, name in enumerate(names):
            _start_ready(db, doc_ids, layers, names[at + 1:], times, started, idle, folder)
            if name in started:
                if meanwhile is not None:
                    meanwhile()
                    meanwhile = None
                t0 = time.perf_counter()
                work, spent = started.pop(name)
                times.summaries[name] = SPLITS[name].finish(db, doc_ids, work.result())
            else:
                t0, spent = time.perf_counter(), 0.0
                times.summaries[name] = layers[name](db, doc_ids)
            times.seconds[name] = spent + time.perf_counter() - t0
            if on_layer:
                on_layer(name)
        if meanwhile is not None:
            meanwhile()
    finally:
        for work in [*idle.values(), *(work for work, _ in started.values())]:
            work.cancel()
        shutil.rmtree(folder, ignore_errors=True)
    return times


def _start_ready(db: sqlite_utils.Database, doc_ids: list[str], layers: dict[str, Layer],
                 later: list[str],
                 times: LayerTimes, started: dict[str, tuple[Background, float]],
                 idle: dict[str, Background], folder: str) -> None:
    """Start the split layers that can start now and have other layers to run beside."""
    for name, split in SPLITS.items():
        # only when it is still the layer LAYERS runs, and not the very next one
        if (name in started or name not in later[1:] or layers.get(name) is not split.layer
                or not all(dep in times.summaries for dep in split.reads)):
            continue
        t0 = time.perf_counter()
        jobs = split.prepare(db, doc_ids)
        work = idle.pop(name, None) or Background(split.warm)
        work.submit(split.find, jobs,
                    None if split.ship is None else partial(split.ship, folder=folder))
        started[name] = (work, time.perf_counter() - t0)
