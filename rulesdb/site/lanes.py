"""Two lanes through a process serving the rules site: the rules pages, and Datasette's own
pages (a visitor's SQL, tables, the JSON API), which run whatever they are asked up to the SQL
time limit. Each lane has its SQL threads; Datasette's pages have one per process, which on
Linux runs at a lower CPU priority, so that visitors' queries each using a core to its time
limit leave the rules pages their threads and most of the processor (two such threads per
process, each taking the interpreter's lock now and then, still made rule pages wait
seconds at the 95th percentile when a megabyte printf() ran beside them).

Their time limit is checked less often than Datasette does (every 1000 steps of SQLite, some
12,000 times a second): each check is a call into Python, which takes the interpreter's lock
from the thread rendering a page. And it counts the time a query spends on the processor, not
the time it waits for it (up to ten times the limit on the clock). Measured on two busy cores
(benchmarks/runaway_queries.py), four such queries slowed a rule page to 170 ms at the median
and 3-4 s at the 95th percentile with the threads at one priority and Datasette's checks; 65
and 95 ms with both changes.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from typing import Any

QUERY_THREADS = 1  # SQL threads of Datasette's own pages, per process (more: see above)
# added to their niceness (Linux: one thread's, not the process's). At +10 (a tenth of a
# core beside busy rule pages) table pages waited 2-3.5 s under the load of
# benchmarks/serve_latency.py, making its p99 1.0-1.15 s; at +5 they wait 1.1-1.4 s (p99
# 0.6-0.7 s), and rule pages beside four runaway queries stay at p95 13-16 ms either way
QUERY_NICENESS = 5
PAGE_THREADS = "rulesdb-pages"  # the names of the rules pages' SQL threads start so
TIME_CHECK_STEPS = 5_000  # steps of SQLite between checks of the time limit (about 0.4 ms)
WAIT_FACTOR = 10  # the time limit is of processor time, and this many times it on the clock

# whether the request being answered is one of Datasette's own pages (set by the server)
QUERY_LANE: contextvars.ContextVar[bool] = contextvars.ContextVar("rulesdb_query_lane",
                                                                   default=False)


def datasette_page(path: str, database: str) -> bool:
    """Whether `path` is one of Datasette's own pages (/DATABASE…, /-/… but its static
    files) rather than a page of the rules site."""
    if path == f"/{database}" or path.startswith((f"/{database}/", f"/{database}.")):
        return True
    return path.startswith("/-/") and not path.startswith("/-/static")


def _lower_priority() -> None:
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError):  # not allowed: it keeps the process's priority
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(),
                           os.getpriority(os.PRIO_PROCESS, 0) + QUERY_NICENESS)


def page_thread() -> bool:
    """Whether this thread is one of the rules pages' SQL threads."""
    return threading.current_thread().name.startswith(PAGE_THREADS)


class Lanes(Executor):
    """Datasette's SQL threads (its `executor`) as two pools: a submission made while
    answering one of Datasette's own pages (QUERY_LANE) goes to the query threads."""

    def __init__(self, page_threads: int) -> None:
        self.pages = ThreadPoolExecutor(page_threads, thread_name_prefix=PAGE_THREADS)
        self.queries = ThreadPoolExecutor(QUERY_THREADS, thread_name_prefix="rulesdb-queries",
                                          initializer=_lower_priority)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        pool = self.queries if QUERY_LANE.get() else self.pages
        return pool.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        for pool in (self.pages, self.queries):
            pool.shutdown(wait=wait, cancel_futures=cancel_futures)


def check_time_less_often() -> None:
    """Have Datasette check the time limit of its queries every TIME_CHECK_STEPS steps."""
    import datasette.database

    datasette.database.sqlite_timelimit = _time_limit


@contextlib.contextmanager
def _time_limit(conn: sqlite3.Connection, ms: int) -> Iterator[None]:
    """Datasette's `sqlite_timelimit`, checking every TIME_CHECK_STEPS steps, on the time
    the query's thread spends on the processor (up to WAIT_FACTOR times as long on the
    clock): a query of Datasette's pages, at a lower priority, would otherwise run out of
    time waiting for the processor while the rules pages take it."""
    cpu_deadline = time.thread_time() + ms / 1000
    deadline = time.perf_counter() + WAIT_FACTOR * ms / 1000
    steps = 1 if ms <= 20 else TIME_CHECK_STEPS  # as Datasette does, for tiny limits

    def past_it() -> bool:
        return time.thread_time() >= cpu_deadline or time.perf_counter() >= deadline

    conn.set_progress_handler(past_it, steps)
    try:
        yield
    finally:
        conn.set_progress_handler(None, steps)
