"""A visitor's mistake is a 400, not a server error: what Datasette's own pages answer when
they cannot read a request's parameters.

Datasette 0.65 raises some of these as errors of the server: a `_sort` by a column the table
lacks ("Cannot sort table by …", 61 of 600 random requests answered 500), `_sort` with
`_sort_desc`, a `_through` naming no foreign key; and lets others escape as Python errors: a
`_timelimit` that is not a number (ValueError), a `_through` that is not JSON (JSONDecodeError)
or lacks a key (KeyError), a column named with a NUL (which SQLite refuses in the SQL Datasette
writes), a static file's name too long for the file system. Each is the request's fault: it
answers 400 with Datasette's error page, or its JSON error for a .json URL, and prints no
traceback where the site runs; a row of a table keyed by two columns asked for by one value
(which Datasette fails to bind) is a 404. An error raised in rulesdb's own code is left a 500:
that is a bug.
"""

from __future__ import annotations

import errno
import sqlite3
import sys
import traceback
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import datasette
from datasette.utils.asgi import Response
from datasette.views.base import DatasetteError

# the messages of Datasette's errors (status 500) that name a parameter of the request
ABOUT_PARAMETERS = ("Cannot sort table by ", "Cannot use _sort and _sort_desc at the same time",
                    "Invalid _through")
# errors of reading a value (a number, JSON) or of finding what it names (a key of it)
READING = (ValueError, OverflowError, LookupError, TypeError)
# what SQLite refuses in the SQL Datasette wrote from the request (a column named "a\0b")
REFUSED_SQL = ("the query contains a null character",)
# a row of a table with a key of two columns asked for by one value (/rules/term_forms/x)
NO_SUCH_ROW = "You did not supply a value for binding parameter"
DATASETTE = str(Path(datasette.__file__).resolve().parent)  # the package folders
OURS = str(Path(__file__).resolve().parent.parent)


def visitor_mistake(exception: BaseException) -> tuple[int, str] | None:
    """The status (400, or 404 for a row that cannot exist) and the sentence to answer with
    when `exception` comes of a request's parameters as Datasette read them, or None (a bug,
    or an error Datasette already answers)."""
    if isinstance(exception, DatasetteError):
        message = str(exception.message)
        if exception.status == 500 and message.startswith(ABOUT_PARAMETERS):
            return 400, message
        return None
    if not _raised_in_datasette(exception):
        return None
    if isinstance(exception, sqlite3.ProgrammingError) and str(exception).startswith(
            NO_SUCH_ROW):
        return 404, "Not found: a row of this table is named by the values of all its keys."
    refused = isinstance(exception, sqlite3.ProgrammingError) and str(exception) in REFUSED_SQL
    too_long = isinstance(exception, OSError) and exception.errno == errno.ENAMETOOLONG
    if refused or too_long or isinstance(exception, READING):
        return 400, (f"A parameter of this URL could not be read "
                     f"({type(exception).__name__}: {exception}).")
    return None


def _raised_in_datasette(exception: BaseException) -> bool:
    """Whether the innermost frame of Datasette or rulesdb in the traceback is Datasette's
    (frames of the standard library below it, json.loads say, do not count)."""
    last = None
    for frame in traceback.extract_tb(exception.__traceback__):
        if frame.filename.startswith(OURS):
            last = "rulesdb"
        elif frame.filename.startswith(DATASETTE):
            last = "datasette"
    return last == "datasette"


def bad_request(datasette: Any, request: Any, exception: BaseException
                ) -> Callable[[], Awaitable[Response]] | None:
    """A 400 or 404 page (or JSON error) for a visitor's mistake, or None."""
    found = visitor_mistake(exception)
    if found is None:
        return None
    status, message = found

    async def page() -> Response:
        info = {"ok": False, "error": message, "status": status,
                "title": "Bad request" if status == 400 else "Not found"}
        if request.path.endswith(".json"):
            return Response.json(info, status=status)
        html = await datasette.render_template(["error.html"], info, request=request)
        return Response.html(html, status=status)

    return page


class _Traceback:
    """`traceback` as Datasette's own error handler uses it, printing nothing for a visitor's
    mistake (its handler runs, and prints, even when the site's answers first)."""

    def print_exc(self) -> None:
        exception = sys.exc_info()[1]
        if exception is None or visitor_mistake(exception) is None:
            traceback.print_exc()


def quiet_tracebacks() -> None:
    """Have Datasette print tracebacks of real failures only."""
    from datasette import handle_exception

    handle_exception.traceback = _Traceback()
