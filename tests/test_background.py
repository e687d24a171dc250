"""The forked worker (rulesdb.background): a job runs in another process and its value comes
back; fed work runs first; a worker that fails or dies leaves the job to this process, but
a bounded one, whose death is an error; a cancelled worker is reaped; without workers
everything runs here."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest

from rulesdb.background import Background, can_fork

# Each case runs in a fresh process: forking is refused while threads run (see can_fork), and
# other tests of the suite leave some running.
WORKER_PRELUDE = """
import os, sys
from rulesdb.background import Background, can_fork

def pid(_arg):
    return os.getpid()

def square_unless_worker(arg):
    parent, value = arg
    if os.getpid() != parent:
        os._exit(3)  # a worker that dies without a word
    return value * value

MEMORY = []

def remember(value):
    MEMORY.append(value)

def recall(_arg):
    return os.getpid(), MEMORY

def fail(_arg):
    raise RuntimeError("fed work failed")

def reaped(pid):
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False

if not can_fork():
    print("no fork")
    sys.exit()
"""
WORKER_CASES = {
    "a job runs in another process": """
work = Background()
work.submit(pid, None)
assert work.result() != os.getpid()
assert work.pid is None
""",
    "a dead worker leaves the job to this process": """
work = Background()
work.submit(square_unless_worker, (os.getpid(), 7))
assert work.result() == 49
""",
    "a worker whose warm-up failed leaves the job to this process": """
def broken():
    raise ImportError("no spaCy here")

work = Background(broken)
child = work.pid
# gone (not yet reaped) before the job is submitted: nobody reads the job's signal
os.waitid(os.P_PID, child, os.WEXITED | os.WNOWAIT)
work.submit(square_unless_worker, (os.getpid(), 7))
assert work.result() == 49
assert work.pid is None and reaped(child)
""",
    "fed work runs in the worker, in order, before its job": """
work = Background()
work.feed(remember, 5)
work.feed(remember, "x" * 100_000)  # not read with the first one
work.submit(recall, None)
pid, memory = work.result()
assert pid != os.getpid() and memory == [5, "x" * 100_000] and MEMORY == []
""",
    "fed work that fails leaves the job to this process": """
work = Background()
work.feed(fail, None)
work.submit(square_unless_worker, (os.getpid(), 7))
assert work.result() == 49
""",
    "a bounded worker that dies does not leave its job to this process": """
from rulesdb.background import WorkerDied

def allocate(size):
    return len(bytearray(size))  # more than the worker's bound: MemoryError, no value

work = Background(memory=64 * 1024 * 1024)
work.submit(allocate, 8 * 1024 * 1024)  # within the bound
assert work.result() == 8 * 1024 * 1024
work = Background(memory=64 * 1024 * 1024)
work.submit(allocate, 1024 * 1024 * 1024)
try:
    work.result()
except WorkerDied as exc:
    assert exc.signal is None and str(exc) == "died (it handed no value over)"
else:
    raise AssertionError("the job ran here")
work = Background(memory=64 * 1024 * 1024)
work.submit(square_unless_worker, (os.getpid(), 7))  # exits 3, no value
try:
    work.result()
except WorkerDied:
    pass
else:
    raise AssertionError("the job ran here")
""",
    "a worker cancelled before a job is stopped and reaped": """
work = Background(lambda: None)
child = work.pid
work.cancel()
assert work.pid is None and reaped(child)
""",
    "a worker cancelled after a job is stopped and reaped": """
work = Background(lambda: None)
child = work.pid
work.submit(pid, None)
work.cancel()
assert work.pid is None and reaped(child)
""",
}


@pytest.mark.parametrize("case", list(WORKER_CASES))
def test_worker(case):
    script = WORKER_PRELUDE + WORKER_CASES[case] + "print('ok')"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    if out.stdout.strip() == "no fork":
        pytest.skip("no worker process can be forked on this machine")
    assert out.stdout.strip() == "ok"


def test_without_workers_the_job_runs_here(monkeypatch):
    monkeypatch.setenv("RULESDB_WORKERS", "0")
    work = Background()
    assert work.pid is None
    # a bounded worker is forked all the same (where forking is safe): its bound is its point
    assert can_fork(bounded=True) == can_fork_here()
    work.feed(_fail, None)  # nothing fed runs without a worker
    work.submit(_getpid, None)
    assert work.result() == os.getpid()


def can_fork_here() -> bool:
    """Whether forking is safe in this process (no threads running, not macOS)."""
    return hasattr(os, "fork") and sys.platform != "darwin" and threading.active_count() == 1


def _getpid(_arg: object) -> int:
    return os.getpid()


def _fail(_arg: object) -> None:
    raise AssertionError("fed work ran without a worker")
