"""A forked worker process that computes one value beside this one (rulesdb.layers.run gives
it a layer's slow part; `rulesdb add` the text of a release while its modules are imported).

Without fork (Windows, macOS), on one core, when threads are running, or with
RULESDB_WORKERS=0, there is no worker: the value is computed here when it is asked for.

A worker given a `memory` bound (C code that may take all the memory there is, as PDFium
inflating a page's content stream whole) may use that much address space beyond this
process's; it is forked wherever forking is safe (one core and RULESDB_WORKERS=0 aside),
and when it dies its job is not run here (what killed it would kill this process): its
`result()` raises WorkerDied.
"""

from __future__ import annotations

import os
import pickle
import signal
import struct
import sys
import tempfile
import threading
from collections.abc import Callable
from typing import Any

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


def can_fork(bounded: bool = False) -> bool:
    """Whether a worker process may be forked here (and would run beside this one; a
    `bounded` one, for the bound, even on one core or with RULESDB_WORKERS=0)."""
    safe = hasattr(os, "fork") and sys.platform != "darwin" and threading.active_count() == 1
    return safe and (bounded or ((os.cpu_count() or 1) > 1
                                 and os.environ.get("RULESDB_WORKERS", "1") != "0"))


class WorkerDied(RuntimeError):
    """A bounded worker ended without handing its value over; `signal` is the signal that
    ended it (SIGABRT when its C code ran out of the memory it was given), or None."""

    def __init__(self, signal_number: int | None) -> None:
        super().__init__(f"died ({_signal_name(signal_number)})")
        self.signal = signal_number


def _signal_name(number: int | None) -> str:
    if number is None:
        return "it handed no value over"
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _bound(memory: int) -> None:
    """Limit this process's address space to what it has and `memory` bytes more (never
    above a limit it has already); where the size cannot be read, leave it unbounded."""
    try:
        import resource
        with open("/proc/self/statm", "rb") as statm:
            size = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (ImportError, OSError, ValueError):
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = size + memory
    if soft == resource.RLIM_INFINITY or limit < soft:
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


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

    def __init__(self, warm: Callable[[], None] | None = None,
                 memory: int | None = None) -> None:
        self.job: tuple[Callable[[Any], Any], Any, Callable[[Any], Any] | None] | None = None
        self.pid: int | None = None
        self.memory = memory
        self.status = 0  # the worker's exit status, once reaped
        if not can_fork(bounded=memory is not None):
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
                if memory is not None:
                    _bound(memory)
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
            if self.memory is not None:
                raise WorkerDied(os.WTERMSIG(self.status) if os.WIFSIGNALED(self.status)
                                 else None)
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
        _, self.status = os.waitpid(self.pid, 0)
        self.payload.close()
        self.pid = None
