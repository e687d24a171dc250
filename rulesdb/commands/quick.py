"""The quick path: `rulesdb rule`, `glossary`, `refs`, `history`, `search` and `infractions`
answered without loading click (a third of a lookup's time: click and what it imports take
25-30 ms).

`answer` reads the arguments by the commands' own grammar, the same options as the click
commands (a test holds the two together), and prints what the click command prints, through
the same functions (rulesdb.commands.answers). It declines, and leaves the arguments to the
click program, whenever it is not sure to answer as click would: any other command, `--help`,
an unknown or repeated option, a value click would refuse, a database to build first or that
cannot be read, shell completion.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from collections.abc import Callable

from ..errors import InputError, Problem, database_problem
from ..ingest.policy_names import PENALTIES
from . import answers
from .plain import connected, echo, is_text, unreadable
from .render import output_format

TYPE_CHECKING = False  # typing.TYPE_CHECKING: a lookup does not import typing
if TYPE_CHECKING:
    from typing import Any

FORMATS = ("text", "markdown", "json")


def _limit(value: str) -> int | None:
    """--limit as click.IntRange(1, 500) reads it; None for what the quick path declines."""
    return int(value) if value.isascii() and value.isdigit() and 1 <= int(value) <= 500 else None


def _format(value: str) -> str | None:
    return value if value in FORMATS else None


class Grammar:
    """One command's arguments: its one argument (None: it takes none), the options that take
    a value (with a reader that gives None for a value the quick path declines), the flags
    with the value each sets, every parameter's default, how the answer is printed, and the
    options only click reads."""

    __slots__ = ("argument", "declined", "defaults", "flags", "run", "values")

    def __init__(self, argument: str | None, values: dict[str, tuple[str, Callable[[str], Any]]],
                 flags: dict[str, tuple[str, Any]], defaults: dict[str, Any],
                 run: Callable[..., None], declined: frozenset[str] = frozenset()) -> None:
        self.argument, self.values, self.flags = argument, values, flags
        self.defaults, self.run, self.declined = defaults, run, declined


def _penalty(value: str) -> str | None:
    """--penalty as click.Choice(PENALTIES, case_sensitive=False) reads it: the penalty as
    the IPG names it, whatever the case typed."""
    return next((penalty for penalty in PENALTIES if penalty.casefold() == value.casefold()),
                None)


def _text(value: str) -> str | None:
    return value if is_text(value) else None


_DOC = {"--doc": ("doc_id", _text)}
_OUTPUT = {"--format": ("fmt", _format)}
_JSON = {"--json": ("as_json", True)}

GRAMMARS = {
    "rule": Grammar(
        "number", {**_DOC, **_OUTPUT},
        {"--tree": ("tree", True), "--examples": ("examples", True),
         "--no-examples": ("examples", False), **_JSON},
        {"doc_id": None, "tree": False, "examples": True, "fmt": "text", "as_json": False},
        lambda conn, number, doc_id, tree, examples, fmt, as_json: answers.rule(
            conn, number, doc_id, tree, examples, output_format(fmt, as_json))),
    "glossary": Grammar(
        "term", {**_DOC, **_OUTPUT}, {"--all": ("every", True), **_JSON},
        {"doc_id": None, "every": False, "fmt": "text", "as_json": False},
        lambda conn, term, doc_id, every, fmt, as_json: answers.glossary(
            conn, term, doc_id, every, output_format(fmt, as_json))),
    "refs": Grammar(
        "number", {**_DOC, **_OUTPUT}, {**_JSON},
        {"doc_id": None, "fmt": "text", "as_json": False},
        lambda conn, number, doc_id, fmt, as_json: answers.refs(
            conn, number, doc_id, output_format(fmt, as_json))),
    "infractions": Grammar(
        None, {**_DOC, "--penalty": ("penalty", _penalty), **_OUTPUT},
        {**_JSON}, {"doc_id": "ipg", "penalty": None, "fmt": "text", "as_json": False},
        lambda conn, penalty, doc_id, fmt, as_json: answers.infractions(
            conn, penalty, doc_id, output_format(fmt, as_json))),
    "history": Grammar(
        "number", {**_DOC}, {"--all": ("every", True), **_JSON},
        {"doc_id": None, "every": False, "as_json": False},
        lambda conn, number, doc_id, every, as_json: answers.history(
            conn, number, doc_id, every, as_json),
        frozenset({"--step"})),
    "search": Grammar(
        "text", {**_DOC, **_OUTPUT, "--limit": ("limit", _limit)},
        {"--all-editions": ("all_editions", True), **_JSON},
        {"doc_id": None, "all_editions": False, "limit": 10, "fmt": "text", "as_json": False},
        lambda conn, text, doc_id, all_editions, limit, fmt, as_json: answers.search(
            conn, text, doc_id, all_editions, limit, output_format(fmt, as_json))),
}
DB = "--db"
DB_ENV = "RULESDB_DB"


def parse(argv: list[str]) -> tuple[str, dict[str, Any], str | None] | None:
    """(command, its parameters, the --db given) as click would read `argv`; None when the
    quick path declines them."""
    if not argv or argv[0] not in GRAMMARS:
        return None
    grammar = GRAMMARS[argv[0]]
    given: dict[str, Any] = {}
    db: str | None = None
    arguments: list[str] = []
    seen: set[str] = set()
    rest = iter(argv[1:])
    for token in rest:
        if not token.startswith("-"):
            arguments.append(token)
            continue
        name, equals, value = token.partition("=")
        if name in seen or (equals and name in grammar.flags):
            return None  # a repeated option, a flag given a value: click's to read
        seen.add(name)
        if name in grammar.flags:
            parameter, setting = grammar.flags[name]
            given[parameter] = setting
            continue
        if name != DB and name not in grammar.values:
            return None  # --help, an unknown option, "--", a negative number
        if not equals:
            value = next(rest, None)
            if value is None or value.startswith("-"):
                return None
        if name == DB:
            db = value
            continue
        parameter, read = grammar.values[name]
        given[parameter] = read(value)
        if given[parameter] is None:
            return None
    if grammar.argument is None:
        return (argv[0], {**grammar.defaults, **given}, db) if not arguments else None
    if len(arguments) != 1 or not is_text(arguments[0]):
        return None  # click's to read (undecoded bytes: its error)
    return argv[0], {**grammar.defaults, grammar.argument: arguments[0], **given}, db


def answer(argv: list[str]) -> int | None:
    """Answer `argv` (the arguments after `rulesdb`) as the click command would, printing its
    output and errors; its exit code, or None (nothing printed) when the quick path declines
    it."""
    if any(name.startswith("_") and name.endswith("_COMPLETE") for name in os.environ):
        return None  # shell completion is click's
    parsed = parse(argv)
    if parsed is None:
        return None
    command, parameters, db = parsed
    if db is None:
        db = os.environ.get(DB_ENV)
    if db is None:
        from ..places import user

        db_path, default = user.database_name(), True
    elif not db or os.path.isdir(db):
        return None  # an empty path or a folder: click's to refuse
    else:
        db_path, default = db, False  # a string: pathlib is not imported for it
    conn = connected(db_path, default)
    if conn is None:
        return None
    try:
        GRAMMARS[command].run(conn, **parameters)
    except Problem as exc:
        echo(f"Error: {exc.message}", err=True)  # as click shows it
        return exc.exit_code
    except sqlite3.DatabaseError as exc:
        problem = database_problem(exc)
        if problem is None:
            raise
        from pathlib import Path  # the path as click gives it (`./a//b.db` is `a/b.db`)

        echo(f"Error: {unreadable(Path(db_path), problem)}", err=True)
        return InputError.exit_code
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            raise
        return 1  # the reader of the output went away: as click, quietly
    return 0
