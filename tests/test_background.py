"""The forked worker (rulesdb.background): a job runs in another process and its value comes
back; fed work runs first; a worker that fails or dies leaves the job to this process; a
cancelled worker is reaped; without workers everything runs here."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from rulesdb.background import Background

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
    work.feed(_fail, None)  # nothing fed runs without a worker
    work.submit(_getpid, None)
    assert work.result() == os.getpid()


def _getpid(_arg: object) -> int:
    return os.getpid()


def _fail(_arg: object) -> None:
    raise AssertionError("fed work ran without a worker")
