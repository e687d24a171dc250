"""`rulesdb serve`: build the database when it is missing, then run the rules site in Datasette.

The site is Datasette with the metadata of metadata.yml (shipped in the package as
rulesdb/site/metadata.yml, a link to the one at the project root), the plugin of
rulesdb.site.plugin and the templates of rulesdb/templates; the database is opened
immutable, with a time limit on every SQL query. `rulesdb add` and `fetch` replace the
database file as a whole: the site notices at its next request and serves the new file
(`Reloading`), so what was added shows without a restart.
"""

from __future__ import annotations

import asyncio
import atexit
import functools
import os
import shutil
import signal
import socket
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
from datasette.utils.asgi import Request

from ..db.replacing import file_stamp, scratch_folder
from .bounds import bound_heap
from .caching import compute, revalidated
from .guard import failure_page, guarded
from .lanes import Lanes, Turns, check_time_less_often, datasette_page

METADATA = Path(__file__).resolve().parent / "metadata.yml"
DATABASE_NAME = "rules"
SETTINGS: dict[str, Any] = {
    "sql_time_limit_ms": 1000,
    # a page of 1,000 rules was 1.4 MB of HTML, and labelling the foreign keys of 1,000 rows
    # (the CSV export every table page links) wrote a program past the bounds of a visitor's
    # query (rulesdb.site.bounds.MAX_PROGRAM: an IN list takes some 4 steps a value; 450
    # values pass it): 400 rows are 0.6 MB
    "max_returned_rows": 400,
    "num_sql_threads": 4,
    # Cache-Control: max-age of every page (rulesdb.site.caching): a browser or a CDN serves a
    # page again for a minute, then asks whether it changed (304 when not)
    "default_cache_ttl": 60,
    "allow_download": True,
    # `.csv?_stream=on` read every row of a table, up to 2.3 million, for one click; the
    # whole data is the database file (allow_download), served as a file
    "allow_csv_stream": False,
    # at full history a table has up to 2.3 million rows: suggesting facets reads a column of
    # each several times per page view (1.4 s for /rules/rules)
    "suggest_facets": False,
}


def load_metadata(path: Path = METADATA) -> dict[str, Any]:
    """The site's metadata as a dict."""
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def register_plugin() -> None:
    """Register the site plugin with Datasette unless an entry point already did."""
    from datasette.plugins import pm

    from . import plugin

    if not pm.is_registered(plugin) and pm.get_plugin("rulesdb") is None:
        pm.register(plugin, name="rulesdb")


@functools.cache
def servable(db_path: Path) -> Path:
    """`db_path`, or a path by which Datasette opens that file: Datasette hands SQLite the
    path in a file: URI without quoting it, so in a path with "#", "?" or "%" SQLite would
    look for another file. Such a database is served through a link to it in a temporary
    folder of its own, removed at exit (the link follows the file an add puts there)."""
    resolved = Path(db_path).resolve()
    if not set("#?%") & set(str(resolved)):
        return Path(db_path)
    folder = scratch_folder("serve")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    link = folder / f"{DATABASE_NAME}.db"
    link.symlink_to(resolved)
    return link


def make_datasette(db_path: Path, settings: dict[str, Any] | None = None) -> Any:
    """A Datasette serving `db_path` read-only as the rules site."""
    from datasette.app import Datasette

    register_plugin()
    db_path = servable(Path(db_path))
    ds = Datasette(
        immutables=[str(db_path)],
        metadata=load_metadata(),
        settings={**SETTINGS, **(settings or {})},
        cors=False,
    )
    if ds.executor is not None:  # no thread of it started yet
        ds.executor.shutdown()
        ds.executor = Lanes(ds.setting("num_sql_threads"))
    check_time_less_often()
    # Always /rules, whatever the file is called: the metadata and every shared URL say so.
    stem = Path(db_path).stem
    if stem != DATABASE_NAME:
        db = ds.databases[stem]
        ds.remove_database(stem)
        ds.add_database(db, name=DATABASE_NAME, route=DATABASE_NAME)
    return ds


def ensure_database(db_path: Path, sources: Path) -> bool:
    """Build `db_path` from `sources` when it does not exist; True when it was built."""
    if Path(db_path).is_file():
        return False
    from ..sources.build import build

    build(Path(db_path), sources)
    return True


# how long the Datasette a replaced file was served by keeps its threads for the requests
# it is still answering (beyond any query's time limit)
RETIRE_AFTER = 60.0


class Reloading:
    """The rules site of `db_path` as an ASGI app, made anew by `make` (a Datasette for the
    path) when the file is replaced: an immutable database's connections keep reading the
    file they opened, so the new file needs a new Datasette. The old one keeps its threads
    and connections RETIRE_AFTER seconds for the requests it is answering."""

    def __init__(self, db_path: Path, make: Callable[[Path], Any] = make_datasette,
                 on_reload: Callable[[Path], None] | None = None) -> None:
        self.path = Path(db_path)
        self.make = make
        self.on_reload = on_reload
        self.stamp: tuple[int, int, int] | None = None
        self.ds: Any = None
        self.app: Any = None
        self.lock = asyncio.Lock()
        # requests answered at once, in the order they came (rulesdb.site.lanes). A page runs
        # several queries one after another, each through Datasette's SQL threads: with every
        # request let in, a table page's queries queued behind those of fifty others and took
        # 10-20 s under load while it takes 30 ms alone
        self.turns = Turns(SETTINGS["num_sql_threads"])

    async def load(self) -> None:
        """Serve the file now at the path (its Datasette started)."""
        stamp = file_stamp(self.path)
        ds = self.make(self.path)
        await ds.invoke_startup()
        old, self.ds, self.app, self.stamp = self.ds, ds, ds.app(), stamp
        if old is not None:
            asyncio.get_running_loop().call_later(RETIRE_AFTER, _retire, old)
            if self.on_reload is not None:
                self.on_reload(self.path)

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if self.app is None or (scope["type"] == "http" and self._replaced()):
            async with self.lock:
                if self.app is None or self._replaced():
                    await self.load()
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if revalidated(self.ds, scope):  # a 304, without a query: no turn to wait for
            await self.app(scope, receive, send)
            return
        # Datasette's own pages (a visitor's SQL) take their own lane: the plugin sends their
        # SQL to its threads
        async with self.turns.turn(datasette_page(scope.get("path", ""), DATABASE_NAME)):
            await self._answer(scope, receive, send)

    async def _answer(self, scope: dict, receive: Callable, send: Callable) -> None:
        """The response of the Datasette serving the file, or the page saying that the file
        cannot be read when Datasette meets it before any of its pages does (counting the
        rows of the new file at its first request)."""
        started = False

        async def sending(message: dict) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except sqlite3.DatabaseError as exc:
            page = None if started else failure_page(self.ds, Request(scope, receive), exc)
            if page is None:
                raise
            response = await page()
            await guarded(lambda s, r, answer: response.asgi_send(answer))(scope, receive, send)

    def _replaced(self) -> bool:
        stamp = file_stamp(self.path)
        return stamp is not None and stamp != self.stamp


def _retire(ds: Any) -> None:
    """Stop the threads of a Datasette no longer served and close its connections, which
    hold the replaced file (its disk space is freed only then)."""
    ds.executor.shutdown(wait=False)
    for database in ds.databases.values():
        database.close()


def _told(path: Path) -> None:
    print(f"{path} was replaced: serving the new file", file=sys.stderr, flush=True)


def default_workers() -> int:
    """Worker processes by default: one per core, at most 4 (each holds its own Datasette)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(4, cores or 1))


def run(db_path: Path, host: str, port: int, workers: int = 1) -> None:
    """Serve the rules site of `db_path` with uvicorn until interrupted, in `workers`
    processes (pages are rendered in Python: one process uses one core)."""
    import uvicorn

    bound_heap()  # forked workers keep it
    site = Reloading(db_path, on_reload=_told)
    asyncio.run(site.load())  # errors in the metadata or plugin surface before serving
    if workers <= 1:
        uvicorn.run(site, host=host, port=port, log_level="warning", lifespan="on", workers=1)
        return
    compute(site.ds)  # the file's hash, read once for every worker
    _retire(site.ds)  # its threads are not to be forked
    _prefork(db_path, host, port, workers)


def _listening(host: str, port: int, reuse_port: bool = False) -> socket.socket:
    """A listening TCP socket. Made with IPPROTO_TCP: asyncio turns Nagle's algorithm off
    only on connections of such a socket, and uvicorn's own multi-process mode binds one
    without it (every chunked page then waited 40 ms for a delayed ACK). With `reuse_port`,
    one of several on the port, among which the kernel spreads the connections."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if reuse_port:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def listening_sockets(host: str, port: int, workers: int) -> list[socket.socket]:
    """The listening sockets of `workers` processes: on Linux one each on the same port
    (SO_REUSEPORT), the kernel spreading new connections among them evenly; elsewhere one
    they share. (Sharing one, the process idle at the moment accepts: 40 of 50 keep-alive
    connections went to one of two workers, which answered four fifths of the requests
    while the other core idled.)"""
    if workers <= 1 or not sys.platform.startswith("linux") or \
            not hasattr(socket, "SO_REUSEPORT"):
        return [_listening(host, port)]
    first = _listening(host, port, reuse_port=True)
    port = first.getsockname()[1]  # --port 0: the others on the port the first was given
    return [first, *(_listening(host, port, reuse_port=True) for _ in range(workers - 1))]


def _prefork(db_path: Path, host: str, port: int, workers: int) -> None:
    """Serve from `workers` forked processes listening on the port (listening_sockets);
    SIGTERM or Ctrl-C stops them all."""
    import multiprocessing

    socks = listening_sockets(host, port, workers)
    context = multiprocessing.get_context("fork")
    children = [context.Process(target=_worker, args=(db_path, socks, i % len(socks)),
                                daemon=True)
                for i in range(workers)]
    for child in children:
        child.start()
    if len(socks) > 1:  # each is its worker's alone: a worker gone takes its socket along
        for sock in socks:
            sock.close()

    def stop(signum: int, frame: Any) -> None:
        for child in children:
            if child.is_alive():
                child.terminate()
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    try:
        for child in children:
            child.join()
    except KeyboardInterrupt:
        stop(signal.SIGINT, None)


def _worker(db_path: Path, socks: list[socket.socket], index: int) -> None:
    """One worker process: the site of `db_path` on the inherited socket `socks[index]`."""
    import uvicorn

    for i, sock in enumerate(socks):
        if i != index and len(socks) > 1:
            sock.close()
    config = uvicorn.Config(Reloading(db_path, on_reload=_told), log_level="warning",
                            lifespan="on")
    uvicorn.Server(config).run(sockets=[socks[index]])
