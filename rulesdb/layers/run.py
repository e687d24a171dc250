"""Running the layers in order, with the slow, self-contained part of one layer in a worker.

The terms layer spends most of its time importing spaCy and tokenizing; what it reads is
ready once the references layer is done, no layer between writes it, and none reads its
table. So its finding runs in a forked worker process while the layers between run here,
and its rows are written at its own place in the order: the database ends up exactly as if
every layer had run here one after the other. Without fork (Windows, macOS), on one core,
when threads are running, or with RULESDB_WORKERS=0, everything runs in this process.
"""

from __future__ import annotations

import os
import pickle
import shutil
import signal
import struct
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import sqlite_utils

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


# what the worker is told on its pipe: feed or job, and where its pickle lies in the file
MESSAGE = struct.Struct("<cQQ")
FEED, JOB = b"f", b"j"


def _read(fd: int, size: int) -> bytes:
    """`size` bytes from a pipe, or fewer when it closes first."""
    data = b""
    while len(data) < size and (chunk := os.read(fd, size - len(data))):
        data += chunk
    return data


def _pread(fd: int, size: int, offset: int) -> bytes:
    """`size` bytes of a file at `offset` (not moving the position both processes share)."""
    data = b""
    while len(data) < size and (chunk := os.pread(fd, size - len(data), offset + len(data))):
        data += chunk
    return data


def can_fork() -> bool:
    """Whether a worker process may be forked here (and would run beside this one)."""
    return (hasattr(os, "fork") and sys.platform != "darwin" and (os.cpu_count() or 1) > 1
            and threading.active_count() == 1
            and os.environ.get("RULESDB_WORKERS", "1") != "0")


class Background:
    """A forked worker process: it runs `warm()` at once (imports), then whatever `feed`
    gives it (work that fills its caches), then computes the one `fn(arg)` given to
    `submit`, whose value `result()` waits for (`ship(fn(arg))` when a `ship` is given: the
    worker's own way to hand over a bulky value).

    The worker never touches the database: arguments reach it through an unlinked temporary
    file (so `feed` and `submit` never wait for the worker to be ready to read), each
    announced on a pipe by its place in the file, and the value comes back pickled through
    a pipe. Without a worker (see `can_fork`), or when it failed or died, `result()`
    computes in this process, so an error surfaces here as it would have.
    """

    def __init__(self, warm: Callable[[], None] | None = None) -> None:
        self.job: tuple[Callable[[Any], Any], Any, Callable[[Any], Any] | None] | None = None
        self.pid: int | None = None
        if not can_fork():
            return
        # closed by _reap, once the worker is done with it
        self.payload = tempfile.TemporaryFile()  # noqa: SIM115
        self.written = 0
        go_read, go = os.pipe()
        self.go: int | None = go
        self.back, back_write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the worker; it leaves without running any of the caller's code
            try:
                os.close(go)
                os.close(self.back)
                if warm is not None:
                    warm()
                self._serve(go_read, back_write)
            finally:
                os._exit(0)
        os.close(go_read)
        os.close(back_write)
        self.pid = pid

    def _serve(self, go_read: int, back_write: int) -> None:
        """The worker's loop: run each fed function, then the job, and send its value."""
        while len(message := _read(go_read, MESSAGE.size)) == MESSAGE.size:
            kind, offset, length = MESSAGE.unpack(message)
            work = pickle.loads(_pread(self.payload.fileno(), length, offset))
            if kind == FEED:
                fn, arg = work
                fn(arg)
                continue
            fn, arg, ship = work
            value = fn(arg) if ship is None else ship(fn(arg))
            with os.fdopen(back_write, "wb") as out:
                out.write(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))
            return

    def feed(self, fn: Callable[[Any], Any], arg: Any) -> None:
        """Have the worker run `fn(arg)` before its job, for what it leaves in the worker's
        memory (its value is dropped); without a worker, nothing is run."""
        if self.pid is not None and not self._send(FEED, (fn, arg)):
            self.cancel()  # the worker is gone (its warm-up failed): the job runs here

    def submit(self, fn: Callable[[Any], Any], arg: Any,
               ship: Callable[[Any], Any] | None = None) -> None:
        """Have the worker compute `fn(arg)` (`fn` and `ship` module-level functions, or
        partials of them); without a worker, `result()` gives `fn(arg)` itself."""
        self.job = (fn, arg, ship)
        if self.pid is None:
            return
        if self._send(JOB, self.job):
            self._close_go()
        else:  # the worker is gone (its warm-up failed): compute here
            self.cancel()

    def _send(self, kind: bytes, work: Any) -> bool:
        """Write `work` to the payload file and announce it; whether the worker is there."""
        data = pickle.dumps(work, pickle.HIGHEST_PROTOCOL)
        os.pwrite(self.payload.fileno(), data, self.written)
        message = MESSAGE.pack(kind, self.written, len(data))
        self.written += len(data)
        assert self.go is not None, "the job was submitted already"
        try:
            os.write(self.go, message)
        except BrokenPipeError:
            return False
        return True

    def result(self) -> Any:
        """The value of the job submitted (waits for the worker)."""
        assert self.job is not None, "nothing submitted"
        if self.pid is not None:
            with os.fdopen(self.back, "rb") as pipe:
                data = pipe.read()
            self._reap()
            if data:
                return pickle.loads(data)
        fn, arg, _ship = self.job
        return fn(arg)

    def cancel(self) -> None:
        """Stop the worker (its value is no longer wanted)."""
        if self.pid is not None:
            os.kill(self.pid, signal.SIGKILL)
            self._close_go()
            os.close(self.back)
            self._reap()

    def _close_go(self) -> None:
        if self.go is not None:
            os.close(self.go)
            self.go = None

    def _reap(self) -> None:
        assert self.pid is not None
        os.waitpid(self.pid, 0)
        self.payload.close()
        self.pid = None


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
