"""Two lanes through a process serving the rules site: the rules pages, and Datasette's own
pages (a visitor's SQL, tables, the JSON API), which run whatever they are asked up to the SQL
time limit. Each lane has its SQL threads; requests are answered a few at a time (Turns), in
the order they came, whatever their lane, and at most QUERY_TURNS of Datasette's pages at
once: visitors' queries running to their time limit never hold every turn.

A query of Datasette's pages runs at full speed while it is short (every table view, canned
query and count of the site takes under 25 ms); past HEAVY_MS of processor time, while other
requests wait or are answered, it yields the processor at each check of its time limit for
YIELD_FACTOR times what it used since the last one (at most a quarter of a core each). Its
thread used to run at a lower CPU priority from the start: under load, or beside other
programs, every table page then waited for the processor (p50 2.3-5 s where it takes 50 ms
alone, benchmarks/serve_load.py), and one thread per process took them one at a time.

Their time limit is checked less often than Datasette does (every 1000 steps of SQLite, some
12,000 times a second): each check is a call into Python, which takes the interpreter's lock
from the thread rendering a page. And it counts the time a query spends on the processor, not
the time it waits for it (up to ten times the limit on the clock): what a page shows does
not depend on how busy the machine was, so a cache may keep it (rulesdb.site.caching).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import contextvars
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from typing import Any

QUERY_THREADS = 2  # SQL threads of Datasette's own pages, per process
QUERY_TURNS = 3  # of the requests a process answers at once, at most this many of Datasette's
HEAVY_MS = 50  # processor time after which a query of Datasette's pages yields
YIELD_FACTOR = 3  # a heavy query sleeps this many times the processor time it took
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


def page_thread() -> bool:
    """Whether this thread is one of the rules pages' SQL threads."""
    return threading.current_thread().name.startswith(PAGE_THREADS)


class Lanes(Executor):
    """Datasette's SQL threads (its `executor`) as two pools: a submission made while
    answering one of Datasette's own pages (QUERY_LANE) goes to the query threads."""

    def __init__(self, page_threads: int) -> None:
        self.pages = ThreadPoolExecutor(page_threads, thread_name_prefix=PAGE_THREADS)
        self.queries = ThreadPoolExecutor(QUERY_THREADS, thread_name_prefix="rulesdb-queries")

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
    clock), so that a query waiting for the processor while pages take it does not run out
    of time; past HEAVY_MS of it the query yields while other requests are in (Turns)."""
    started = last = time.thread_time()
    cpu_deadline, heavy = started + ms / 1000, started + HEAVY_MS / 1000
    deadline = time.perf_counter() + WAIT_FACTOR * ms / 1000
    steps = 1 if ms <= 20 else TIME_CHECK_STEPS  # as Datasette does, for tiny limits

    def past_it() -> bool:
        nonlocal last
        now = time.thread_time()
        if now >= cpu_deadline or time.perf_counter() >= deadline:
            return True
        if now > heavy and Turns.requests > 1:
            time.sleep(YIELD_FACTOR * (now - last))
        last = now
        return False

    conn.set_progress_handler(past_it, steps)
    try:
        yield
    finally:
        conn.set_progress_handler(None, steps)


class Turns:
    """Requests answered at once by a process: `turns`, given in the order the requests
    came, at most `query_turns` to Datasette's pages; a request of theirs waiting for one
    holds back none behind it. (One line for all: with a line per lane, the readers of the
    slower lane piled up in it, 5 s where the rules pages took 0.1 s.)"""

    requests = 0  # requests of this process in a turn or waiting for one

    def __init__(self, turns: int, query_turns: int = QUERY_TURNS) -> None:
        self.free = {False: turns, True: query_turns}  # turns left, of them for queries
        self.waiting: collections.deque[tuple[bool, asyncio.Future]] = collections.deque()

    @contextlib.asynccontextmanager
    async def turn(self, query: bool) -> AsyncIterator[None]:
        """Wait for a turn (`query`: for one of Datasette's pages), held while in the block."""
        Turns.requests += 1
        try:
            granted = asyncio.get_running_loop().create_future()
            self.waiting.append((query, granted))
            self._grant()
            try:
                await granted
            except asyncio.CancelledError:
                if granted.done() and not granted.cancelled():
                    self._release(query)
                raise
            try:
                yield
            finally:
                self._release(query)
        finally:
            Turns.requests -= 1

    def _release(self, query: bool) -> None:
        self.free[False] += 1
        self.free[True] += query
        self._grant()

    def _grant(self) -> None:
        for entry in list(self.waiting):
            if not self.free[False]:
                return
            query, granted = entry
            if granted.done():
                self.waiting.remove(entry)
            elif not query or self.free[True]:
                self.waiting.remove(entry)
                self.free[False] -= 1
                self.free[True] -= query
                granted.set_result(None)
