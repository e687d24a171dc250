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
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import sqlite_utils

from . import LAYERS, Layer, term_matcher, terms


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


SPLITS = {"terms": Split(terms.compute, ("references",), terms.prepare, terms.find_all,
                         terms.finish, term_matcher.warm_up)}


@dataclass
class LayerTimes:
    """Summaries and seconds per layer (a split layer's: the time it held the others up)."""

    summaries: dict[str, str] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)


def can_fork() -> bool:
    """Whether a worker process may be forked here (and would run beside this one)."""
    return (hasattr(os, "fork") and sys.platform != "darwin" and (os.cpu_count() or 1) > 1
            and threading.active_count() == 1
            and os.environ.get("RULESDB_WORKERS", "1") != "0")


class Background:
    """A forked worker process: it runs `warm()` at once (imports), then computes the one
    `fn(arg)` given to `submit`, whose value `result()` waits for.

    The worker never touches the database: `arg` reaches it through an unlinked temporary
    file (so `submit` never waits for the worker to be ready to read) and the value comes
    back pickled through a pipe. Without a worker (see `can_fork`), or when it failed or
    died, `result()` computes in this process, so an error surfaces here as it would have.
    """

    def __init__(self, warm: Callable[[], None] | None = None) -> None:
        self.job: tuple[Callable[[Any], Any], Any] | None = None
        self.pid: int | None = None
        if not can_fork():
            return
        # closed by _reap, once the worker is done with it
        self.payload = tempfile.TemporaryFile()  # noqa: SIM115
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
                if os.read(go_read, 1):
                    self.payload.seek(0)
                    fn, arg = pickle.load(self.payload)
                    value = pickle.dumps(fn(arg), pickle.HIGHEST_PROTOCOL)
                    with os.fdopen(back_write, "wb") as out:
                        out.write(value)
            finally:
                os._exit(0)
        os.close(go_read)
        os.close(back_write)
        self.pid = pid

    def submit(self, fn: Callable[[Any], Any], arg: Any) -> None:
        """Have the worker compute `fn(arg)` (`fn` a module-level function)."""
        self.job = (fn, arg)
        if self.pid is None:
            return
        pickle.dump(self.job, self.payload, pickle.HIGHEST_PROTOCOL)
        self.payload.flush()
        try:
            os.write(self.go, b"1")
        except BrokenPipeError:  # the worker is gone (its warm-up failed): compute here
            self.cancel()
        else:
            self._close_go()

    def result(self) -> Any:
        """The value of the job submitted (waits for the worker)."""
        assert self.job is not None, "nothing submitted"
        if self.pid is not None:
            with os.fdopen(self.back, "rb") as pipe:
                data = pipe.read()
            self._reap()
            if data:
                return pickle.loads(data)
        fn, arg = self.job
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


def run_layers(db: sqlite_utils.Database, doc_ids: list[str],
               on_layer: Callable[[str], None] | None = None,
               workers: dict[str, Background] | None = None,
               layers: dict[str, Layer] | None = None) -> LayerTimes:
    """Run every layer of `layers` (default LAYERS) over `doc_ids`, in order; `on_layer`
    hears of each one done. `workers` (from `warm_up`) are used for the split layers, and
    stopped when not needed.
    """
    layers = LAYERS if layers is None else layers
    times = LayerTimes()
    names = list(layers)
    idle = dict(workers or {})
    started: dict[str, tuple[Background, float]] = {}
    try:
        for at, name in enumerate(names):
            _start_ready(db, doc_ids, layers, names[at + 1:], times, started, idle)
            t0 = time.perf_counter()
            if name in started:
                work, spent = started.pop(name)
                times.summaries[name] = SPLITS[name].finish(db, doc_ids, work.result())
            else:
                spent = 0.0
                times.summaries[name] = layers[name](db, doc_ids)
            times.seconds[name] = spent + time.perf_counter() - t0
            if on_layer:
                on_layer(name)
    finally:
        for work in [*idle.values(), *(work for work, _ in started.values())]:
            work.cancel()
    return times


def _start_ready(db: sqlite_utils.Database, doc_ids: list[str], layers: dict[str, Layer],
                 later: list[str],
                 times: LayerTimes, started: dict[str, tuple[Background, float]],
                 idle: dict[str, Background]) -> None:
    """Start the split layers that can start now and have other layers to run beside."""
    for name, split in SPLITS.items():
        # only when it is still the layer LAYERS runs, and not the very next one
        if (name in started or name not in later[1:] or layers.get(name) is not split.layer
                or not all(dep in times.summaries for dep in split.reads)):
            continue
        t0 = time.perf_counter()
        jobs = split.prepare(db, doc_ids)
        work = idle.pop(name, None) or Background(split.warm)
        work.submit(split.find, jobs)
        started[name] = (work, time.perf_counter() - t0)
