"""HTTP caching of the rules site, so that a browser, a reverse proxy or a CDN serves repeats.

A page of a database served immutable is a function of its address, the database file and
the site's code (rulesdb, its templates, Datasette, the metadata and settings). So every
answer 200 to GET or HEAD carries `Cache-Control: public, max-age=TTL` (Datasette's
`default_cache_ttl` setting) and a weak ETag naming the file's content (Datasette's own
hash of the file, SHA-256, which `datasette inspect` precomputes for published images) and
the code; a request whose If-None-Match names the tag of the file now served is answered
304 at once, without a query or a template. A file replaced by `rulesdb add` is served by
a new Datasette whose tag differs, so what a cache holds is revalidated into the new page.

Left to Datasette: what is personal (a request with a cookie or credentials, an answer
setting a cookie: Datasette marks it `private, no-store`), errors and redirects (no tag),
Datasette's pages about the running process (/-/threads, /-/actor, ...), and mutable
databases (no tag: their pages may change at any time).
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import threading
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..db.replacing import file_stamp

Asgi = Callable[[dict, Callable, Callable], Any]
PACKAGE = Path(__file__).resolve().parent.parent
# Datasette's pages under /-/ that may be cached: its static files; the others describe the
# running process or the visitor
CACHED_SPECIAL = ("/-/static/", "/-/static-plugins/")
VARY = b"Cookie, Authorization"

# the tag of each Datasette serving the site; file hashes by file stamp, computed once per
# file in a process and kept by the worker processes it forks
_tags: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()
_file_hashes: dict[tuple[str, tuple[int, int, int] | None], str] = {}
_reading: weakref.WeakKeyDictionary[Any, threading.Thread] = weakref.WeakKeyDictionary()


@functools.cache
def code_digest() -> str:
    """A digest of the code that renders the pages: rulesdb's modules and templates and the
    versions of Datasette and Jinja."""
    import datasette
    import jinja2

    digest = hashlib.sha256(f"{datasette.__version__} {jinja2.__version__}".encode())
    for path in sorted(p for pattern in ("**/*.py", "templates/**/*") for p in
                       PACKAGE.glob(pattern) if p.is_file()):
        digest.update(str(path.relative_to(PACKAGE)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def prepare(datasette: Any) -> None:
    """Work out the ETag of the pages `datasette` serves (none for a mutable database): at
    once when the file's hash is known in this process, else in a thread (reading the file
    takes 0.5 s at full history: pages go out without a tag meanwhile, rather than wait)."""
    db = datasette.get_database()
    if db.is_mutable or db.is_memory or not db.path:
        return
    if _key(db) in _file_hashes:
        compute(datasette)
        return
    reading = threading.Thread(target=compute, args=(datasette,), name="rulesdb-etag",
                               daemon=True)
    _reading[datasette] = reading
    reading.start()


def compute(datasette: Any) -> None:
    """Work out the ETag of `datasette`'s pages now, reading the file unless its hash is
    known (the serving process computes it before forking its workers)."""
    reading = _reading.get(datasette)
    if reading is not None and reading is not threading.current_thread():
        reading.join()  # started by prepare
        return
    db = datasette.get_database()
    key = _key(db)
    if key not in _file_hashes:
        _file_hashes[key] = db.hash  # Datasette's: from --inspect-file, or the file read
    db.cached_hash = _file_hashes[key]
    config = json.dumps([datasette.metadata(), datasette.settings_dict()], sort_keys=True,
                        default=str)
    code = hashlib.sha256((code_digest() + config).encode()).hexdigest()
    _tags[datasette] = f'W/"{db.cached_hash[:20]}-{code[:12]}"'


def _key(db: Any) -> tuple[str, tuple[int, int, int] | None]:
    return str(db.path), file_stamp(db.path)


async def ready(datasette: Any, seconds: float = 30.0) -> str | None:
    """The ETag of `datasette`'s pages once worked out (None if not within `seconds`)."""
    deadline = asyncio.get_running_loop().time() + seconds
    while etag(datasette) is None and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.01)
    return etag(datasette)


def etag(datasette: Any) -> str | None:
    """The ETag of the pages `datasette` serves, None before `prepare` or when they may
    change while served."""
    return _tags.get(datasette)


def cacheable(scope: dict) -> bool:
    """Whether the request may get a shared answer: GET or HEAD, no cookie or credentials,
    not one of Datasette's pages about the process or the visitor."""
    if scope.get("type") != "http" or scope.get("method") not in ("GET", "HEAD"):
        return False
    path = scope.get("path", "")
    if path.startswith("/-/") and not path.startswith(CACHED_SPECIAL):
        return False
    return not any(name in (b"cookie", b"authorization") for name, _ in scope.get("headers", []))


def revalidated(datasette: Any, scope: dict) -> bool:
    """Whether the request names, in If-None-Match, the page it would get now."""
    tag = etag(datasette)
    if tag is None or not cacheable(scope):
        return False
    asked = b",".join(v for k, v in scope.get("headers", []) if k == b"if-none-match")
    if not asked:
        return False
    weak = tag.removeprefix("W/")
    return any(t.strip() == "*" or t.strip().removeprefix("W/") == weak
               for t in asked.decode("latin-1").split(","))


def cached(datasette: Any, app: Asgi) -> Asgi:
    """`app` with the caching headers on its cacheable answers 200, answering 304 to a
    request that names the current ETag."""
    async def answer(scope: dict, receive: Callable, send: Callable) -> None:
        if not cacheable(scope):
            await app(scope, receive, send)
            return
        if revalidated(datasette, scope):
            await send({"type": "http.response.start", "status": 304,
                        "headers": _headers([(b"vary", VARY)], datasette, etag(datasette))})
            await send({"type": "http.response.body", "body": b""})
            return

        async def tagged(message: dict) -> None:
            # the tag is read as the answer starts: Datasette's first request prepares it
            tag = etag(datasette)
            if message["type"] == "http.response.start" and message["status"] == 200 \
                    and tag is not None:
                message = {**message, "headers": _headers(message.get("headers", []),
                                                          datasette, tag)}
            await send(message)

        await app(scope, receive, tagged)

    return answer


def _headers(headers: list[tuple[bytes, bytes]], datasette: Any, tag: str | None
             ) -> list[tuple[bytes, bytes]]:
    """`headers` with the ETag and Cache-Control of a shared answer, unless Datasette made
    it personal (a cookie set, or `private`/`no-store`)."""
    names = {k.lower(): v.lower() for k, v in headers}
    control = names.get(b"cache-control", b"")
    if b"set-cookie" in names or b"private" in control or b"no-store" in control:
        return headers
    kept = [(k, v) for k, v in headers if k.lower() not in (b"etag", b"cache-control")]
    if control in (b"", b"public"):  # the rules pages; Datasette's set max-age (its ?_ttl=)
        ttl = int(datasette.setting("default_cache_ttl"))
        control = f"max-age={ttl}".encode() if ttl else b"no-cache"
    if not control.startswith(b"no-cache"):
        control = b"public, " + control
    vary = [] if b"vary" in names else [(b"vary", VARY)]
    return [*kept, (b"cache-control", control), (b"etag", str(tag).encode()), *vary]
