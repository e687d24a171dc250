"""What the rules site holds to on every request, whatever it is asked: it answers GET and
HEAD only (405 otherwise); every response carries security headers, with a Content Security
Policy that its own pages and Datasette's satisfy; /-/databases shows file names, not the
paths of the machine; and a database that cannot be read, or a query past the site's
bounds (rulesdb.site.bounds), gets a page that says so instead of a traceback.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import re
import sqlite3
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

from datasette.utils.asgi import Response

from ..db.readonly import read_only
from ..errors import database_problem
from ..lookup.query import trouble

METHODS = ("GET", "HEAD")
# Datasette's pages with a script written into them, and the values the script takes
INLINE_SCRIPTS = {
    "_close_open_menus.html": {},
    "_codemirror_foot.html": {},
    "table.html": {"datasette_allow_facet": ("true", "false")},
}
_SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)

Asgi = Callable[[dict, Callable, Callable], Awaitable[None]]


@functools.cache
def policy() -> str:
    """The Content-Security-Policy of the site: scripts from the site itself and Datasette's
    inline scripts (by their hashes); inline styles (the pages' <style> and style=""), no
    plugins, no framing, forms posted only to the site."""
    hashes = " ".join(f"'sha256-{digest}'" for digest in script_hashes())
    return ("default-src 'self'; "
            f"script-src 'self' {hashes}; "
            "style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; "
            "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


def script_hashes() -> list[str]:
    """The base64 SHA-256 of each inline script Datasette's templates can write."""
    from datasette import __file__ as datasette_init
    from jinja2 import Template

    folder = Path(datasette_init).parent / "templates"
    found = []
    for name, variables in INLINE_SCRIPTS.items():
        for body in _SCRIPT.findall((folder / name).read_text(encoding="utf-8")):
            for values in _each(variables):
                templated = "{{" in body or "{%" in body
                text = Template(body, keep_trailing_newline=True).render(**values) \
                    if templated else body
                digest = hashlib.sha256(text.encode("utf-8")).digest()
                found.append(base64.b64encode(digest).decode("ascii"))
    return sorted(set(found))


def _each(variables: dict[str, tuple[str, ...]]) -> Iterator[dict[str, str]]:
    if not variables:
        yield {}
        return
    (name, values), *rest = variables.items()
    for value in values:
        for others in _each(dict(rest)):
            yield {name: value, **others}


def headers() -> list[tuple[bytes, bytes]]:
    """The security headers of every response."""
    return [
        (b"x-content-type-options", b"nosniff"),
        (b"x-frame-options", b"DENY"),
        (b"referrer-policy", b"same-origin"),
        (b"content-security-policy", policy().encode("ascii")),
    ]


_OURS = {name for name, _ in headers()}


def guarded(app: Asgi) -> Asgi:
    """`app` answering GET and HEAD only, with the security headers on every response."""
    async def guard(scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return

        async def secured(message: dict) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in _OURS]
                message = {**message, "headers": [*kept, *headers()]}
            await send(message)

        if scope["method"] not in METHODS:
            response = Response.text("405: the rules site is read-only; it answers GET and "
                                     "HEAD only\n", status=405,
                                     headers={"Allow": ", ".join(METHODS)})
            await response.asgi_send(secured)
            return
        await app(scope, receive, secured)

    return guard


async def databases(datasette: Any, request: Any) -> Response:
    """/-/databases and /-/databases.json as Datasette has them, with each database's file
    name rather than its path (and no hash: Datasette reads the whole file for it)."""
    data = [{"name": name, "route": db.route, "path": Path(db.path).name if db.path else None,
             "size": db.size, "is_mutable": db.is_mutable, "is_memory": db.is_memory,
             "hash": None}
            for name, db in datasette.databases.items() if name != "_internal"]
    if request.path.endswith(".json"):
        return Response.json(data)
    html = await datasette.render_template(
        ["show_json.html"], {"filename": "databases.json",
                             "data_json": json.dumps(data, indent=4)}, request=request)
    return Response.html(html)


def failure_page(datasette: Any, request: Any, exception: BaseException
                 ) -> Callable[[], Awaitable[Response]] | None:
    """A page for a database that cannot be read (503) or a query past the site's bounds
    (400), or None to leave `exception` to Datasette."""
    if isinstance(exception, MemoryError):
        status, title = 400, "Query too large"
        message = ("This query is past what the site allows (a program of more steps, or "
                   "more memory): ask for less.")
    else:
        problem = _unreadable(datasette, exception)
        if problem is None:
            return None
        status, title = 503, "The rules database cannot be read"
        message = (f"{problem}. The site answers again once the database is built again "
                   "(rulesdb build).")

    async def page() -> Response:
        info = {"ok": False, "error": message, "status": status, "title": title}
        if request.path.endswith(".json"):
            return Response.json(info, status=status)
        # without the request, as Datasette renders its own error pages: this one may be
        # made outside Datasette's handling of requests (rulesdb.site.serve.Reloading)
        html = await datasette.render_template(["error.html"], info)
        return Response.html(html, status=status)

    return page


def _unreadable(datasette: Any, exception: BaseException) -> str | None:
    """'rules.db: the database is damaged (…)' when `exception` comes of the database file
    rather than of the program; None otherwise."""
    db = datasette.get_database()
    for cause in _causes(exception):
        if isinstance(cause, sqlite3.DatabaseError) and db.path:
            problem = database_problem(cause) or _trouble(Path(db.path))
            return f"{Path(db.path).name}: {problem}" if problem else None
    return None


def _causes(exception: BaseException) -> Iterator[BaseException]:
    seen: list[BaseException] = []
    cause: BaseException | None = exception
    while cause is not None and cause not in seen:
        seen.append(cause)
        yield cause
        cause = cause.__cause__ or cause.__context__


def _trouble(path: Path) -> str | None:
    try:
        conn = read_only(path)
    except sqlite3.Error as exc:
        return database_problem(exc) or str(exc)
    try:
        return trouble(conn)
    except sqlite3.Error:
        return None
    finally:
        conn.close()
