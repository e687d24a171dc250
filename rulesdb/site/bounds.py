"""Bounds on every SQLite connection the rules site opens, so that no query a visitor writes
can outlive the SQL time limit by much or take the memory of the machine.

Datasette's time limit is a progress handler, which SQLite calls between the steps of a
query's program, never inside one step: one call of a function runs to its end. So each step
is kept short: no string or blob longer than MAX_VALUE (SQLite's length limit; before,
`printf('%.*c', 1000000000, 'x')` ran 7.5 s and took a gigabyte), programs of at most
MAX_PROGRAM steps (one row evaluated straight through), LIKE and GLOB patterns of at most
MAX_PATTERN characters, and the functions whose time grows with the product of their
arguments' lengths (instr, replace, trim with a set of characters, json_patch) or with a
number in their format (printf's widths: SQLite 3.40 counts to them even past its length
limit) replaced by versions whose time grows with their arguments. (A full-text MATCH is
prepared in one step whose time grows faster than its length: MAX_VALUE keeps it near a
second.) A query's rows may hold
at most MAX_RESULT bytes in all, and SQLite's memory in a process serving the site at most
MAX_HEAP.
"""

from __future__ import annotations

import re
import sqlite3
import threading
import weakref
from collections.abc import Callable
from typing import Any

# bytes of one string or blob: FTS5 prepares a MATCH of 256 KB (130,000 words) in 3.4 s, one
# step; 128 KB takes 1.1 s. The longest values the site shows are 64 KB (sources/limits.py);
# a release's source kept by `add` (zlib, 0.3 MB) is not shown
MAX_VALUE = 128 * 1024
MAX_RESULT = 8 * 1024 * 1024  # bytes of the rows one query returns
MAX_PROGRAM = 2000  # steps of a visitor's query (the site's own are not limited)
MAX_PATTERN = 200  # characters of a LIKE or GLOB pattern
MAX_TRIMMED = 64  # distinct characters trim() may be given to remove
MAX_PATCHED = 4_000_000_000  # json_patch(): its arguments' lengths multiplied (two 63 KB objects)
MAX_WORK = 8 * MAX_VALUE  # bytes the replaced functions may read and write in a statement
MAX_HEAP = 512 * 1024 * 1024  # bytes SQLite may hold in a process serving the site

LIMITS = {
    sqlite3.SQLITE_LIMIT_LENGTH: MAX_VALUE,
    sqlite3.SQLITE_LIMIT_VDBE_OP: MAX_PROGRAM,
    sqlite3.SQLITE_LIMIT_LIKE_PATTERN_LENGTH: MAX_PATTERN,
    sqlite3.SQLITE_LIMIT_SQL_LENGTH: 20_000,
    sqlite3.SQLITE_LIMIT_COLUMN: 200,
    sqlite3.SQLITE_LIMIT_EXPR_DEPTH: 200,
    sqlite3.SQLITE_LIMIT_COMPOUND_SELECT: 50,
    sqlite3.SQLITE_LIMIT_FUNCTION_ARG: 64,
    sqlite3.SQLITE_LIMIT_ATTACHED: 0,
}

# Limits on the program a query is, not on what it reads: they bound what a visitor writes.
# The site's own queries are bounded by design, but not in length: a rule's history or the
# release notes of 110 editions name a thousand rules in one IN list or VALUES.
OWN_QUERIES_UNBOUNDED = {sqlite3.SQLITE_LIMIT_VDBE_OP, sqlite3.SQLITE_LIMIT_SQL_LENGTH}


class ResultTooBig(sqlite3.OperationalError):
    """What a query asked for is past the site's bounds (shown as any SQL error is)."""


# What a replacement returns past the bounds: a text longer than SQLite takes, so that it
# fails the query with its own "string or blob too big", as its functions do. (Raising would
# print a traceback per call: Datasette turns callback tracebacks on; and a Python function
# cannot give SQLite a message of its own.) Made once: SQLite refuses it before copying it.
_TOO_BIG = "x" * (MAX_VALUE + 1)


def bound(conn: sqlite3.Connection, budgets: bool = True) -> None:
    """Put the site's bounds on `conn` (see the module docstring); without `budgets` (a
    connection only the site's own pages use, whose queries are bounded by design), not
    the budgets of work and rows, which cost a call into Python per statement and per row."""
    for limit, value in LIMITS.items():
        if budgets or limit not in OWN_QUERIES_UNBOUNDED:
            conn.setlimit(limit, value)
    if not budgets:
        for name, arity, function in _REPLACED:
            conn.create_function(name, arity, function, deterministic=True)
        return
    work = _Work()
    conn.set_trace_callback(work.start)  # called as each statement starts
    for name, arity, function in _REPLACED:
        conn.create_function(name, arity, work.charged(function), deterministic=True)
    conn.row_factory = _budgeted(conn.row_factory or (lambda cursor, row: row))


class _Work:
    """What the replacements of one connection may read and write in one statement: they
    run in Python, holding the interpreter's lock that the rules pages need as well."""

    def __init__(self) -> None:
        self.left = MAX_WORK

    def start(self, statement: str) -> None:
        self.left = MAX_WORK

    def charged(self, function: Callable[..., Any]) -> Callable[..., Any]:
        """`function` counting its arguments and result against the statement's work; too
        big once the work is spent."""
        def run(*args: Any) -> Any:
            self.left -= sum(len(arg) for arg in args if isinstance(arg, str | bytes))
            if self.left < 0:
                return _TOO_BIG
            result = function(*args)
            if isinstance(result, str | bytes):
                self.left -= len(result)
            return result

        return run


def bound_heap() -> None:
    """Hold SQLite's memory in this process to MAX_HEAP (for the processes serving the site:
    the limit holds for every connection of the process, whatever else it does)."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute(f"PRAGMA hard_heap_limit = {MAX_HEAP}")
    finally:
        conn.close()


def _budgeted(make_row: Callable[[sqlite3.Cursor, tuple], Any]
              ) -> Callable[[sqlite3.Cursor, tuple], Any]:
    """A row factory doing what `make_row` does, and failing once the rows of one cursor
    pass MAX_RESULT bytes."""
    spent: weakref.WeakKeyDictionary[sqlite3.Cursor, int] = weakref.WeakKeyDictionary()

    def row(cursor: sqlite3.Cursor, values: tuple) -> Any:
        size = sum(len(value) for value in values if isinstance(value, str | bytes))
        total = spent.get(cursor, 0) + size + 8 * len(values)
        if total > MAX_RESULT:
            raise ResultTooBig(f"the rows of this query pass {MAX_RESULT // 1024 // 1024} MB, the "
                         "most the site returns; ask for fewer or shorter ones")
        spent[cursor] = total
        return make_row(cursor, values)

    return row


# SQLite's own functions, for what the replacements leave to them: a connection of each
# thread, without the replacements, with the same bounds
_plain = threading.local()


def _sqlite(sql: str, *args: Any) -> Any:
    conn = getattr(_plain, "conn", None)
    if conn is None:
        conn = _plain.conn = sqlite3.connect(":memory:", check_same_thread=True)
        conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE)
    return conn.execute(sql, args).fetchone()[0]


def _text(value: Any) -> str:
    """`value` as SQLite turns it into text."""
    if isinstance(value, str):
        return value
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return _sqlite("SELECT CAST(? AS TEXT)", value)


_SPEC = re.compile(r"%[-+ 0#,!]*(\*|\d*)(?:\.(\*|\d*))?(?:ll|l)?([a-zA-Z%])")
_CUT = set("sqQwz")  # conversions whose precision cuts their argument rather than pads it


def _printf(form: Any = None, *args: Any) -> Any:
    """printf() and format() (SQLite's), too big when their widths and precisions alone add
    up past MAX_VALUE characters, without counting to them."""
    if form is None:
        return None
    given, total = iter(args), 0
    for width, precision, conversion in _SPEC.findall(_text(form)):
        for number, pads in ((width, True), (precision, conversion not in _CUT)):
            if number == "*":
                number = next(given, 0)
            if pads:
                total += _number(number)
    if total > MAX_VALUE:
        return _TOO_BIG
    return _sqlite(f"SELECT printf({', '.join('?' * (len(args) + 1))})", form, *args)


def _number(value: Any) -> int:
    try:
        return abs(int(value or 0))
    except (TypeError, ValueError, OverflowError):
        return 0


def _instr(haystack: Any, needle: Any) -> Any:
    """instr() in time linear in its arguments (SQLite's compares the needle at each place)."""
    if haystack is None or needle is None:
        return None
    if isinstance(haystack, bytes) and isinstance(needle, bytes):
        return haystack.find(needle) + 1
    return _text(haystack).find(_text(needle)) + 1


def _replace(text: Any, old: Any, new: Any) -> Any:
    """replace() in time linear in its arguments, refusing a result past MAX_VALUE."""
    if text is None or old is None or new is None:
        return None
    text, old, new = _text(text), _text(old), _text(new)
    if not old:
        return text
    grows = text.count(old) * (len(new.encode()) - len(old.encode()))
    if len(text.encode()) + grows > MAX_VALUE:
        return _TOO_BIG
    return text.replace(old, new)


def _trimming(strip: Callable[[str, str], str]) -> Callable[[Any, Any], Any]:
    def trim(text: Any, characters: Any) -> Any:
        if text is None or characters is None:
            return None
        text, distinct = _text(text), "".join(dict.fromkeys(_text(characters)))
        if len(distinct) > MAX_TRIMMED:
            return _TOO_BIG
        return strip(text, distinct)

    return trim


def _json_patch(target: Any, patch: Any) -> Any:
    """json_patch() (SQLite's) on texts whose lengths multiplied stay under MAX_PATCHED: it
    looks each key of the patch up among the keys of the target one by one."""
    if target is not None and patch is not None and \
            len(_text(target)) * len(_text(patch)) > MAX_PATCHED:
        return _TOO_BIG
    return _sqlite("SELECT json_patch(?, ?)", target, patch)


_REPLACED: list[tuple[str, int, Callable[..., Any]]] = [
    ("printf", -1, _printf),
    ("format", -1, _printf),
    ("instr", 2, _instr),
    ("replace", 3, _replace),
    ("trim", 2, _trimming(str.strip)),
    ("ltrim", 2, _trimming(str.lstrip)),
    ("rtrim", 2, _trimming(str.rstrip)),
    ("json_patch", 2, _json_patch),
]
