"""What the lookups print with, and the errors they raise, without click: a lookup answered
before click is loaded (rulesdb.commands.quick) and the same command run by click print the
same bytes. `style` and `echo` write what click.style and click.echo write (styles kept on
a terminal, left out elsewhere); a stream that cannot take UTF-8 is left to click.echo."""

from __future__ import annotations

import os
import re
import sqlite3
import sys

from ..errors import InputError, Problem
from ..lookup import query
from .wrapped import fill

TYPE_CHECKING = False  # typing.TYPE_CHECKING: a lookup does not import typing
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any, NoReturn

_ANSI = re.compile(r"\033\[[0-?]*[ -/]*[@-~]")  # click's own pattern of an escape sequence
_RESET = "\033[0m"


class NotFound(Problem):
    """Nothing matched; exits with code 1."""


def style(text: str, bold: bool = False, underline: bool = False, dim: bool = False) -> str:
    """`text` in bold, underlined or dim, as click.style writes it."""
    codes = "".join(code for on, code in ((bold, "\033[1m"), (dim, "\033[2m"),
                                          (underline, "\033[4m")) if on)
    return f"{codes}{text}{_RESET}"


def echo(text: str = "", nl: bool = True, err: bool = False) -> None:
    """Print `text` (and a newline) on standard output (or error), flushed; its styles
    left out unless the stream is a terminal."""
    stream = sys.stderr if err else sys.stdout
    if stream is None:  # no console (pythonw)
        return
    if not (getattr(stream, "encoding", None) or "").lower().replace("-", "").startswith("utf"):
        import click  # it mends a stream set to ASCII or the like

        click.echo(text, nl=nl, err=err)
        return
    out = text + "\n" if nl else text
    try:
        terminal = stream.isatty()
    except ValueError:  # a closed stream: as click, write and let it say so
        terminal = False
    stream.write(out if terminal else _ANSI.sub("", out))
    stream.flush()


def leave(code: int | None) -> NoReturn:
    """End the process with `code` once its output is flushed, without tearing its heap down
    (7-9 ms of a 50-100 ms lookup); 120 when the output could not be flushed, as Python's
    own shutdown says it."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # closed pipe or stream: as at shutdown
            code = code or 120
    os._exit(code or 0)


def echo_json(data: Any) -> None:
    """Print `data` as indented JSON, non-ASCII kept."""
    import json
    echo(json.dumps(data, indent=2, ensure_ascii=False))


def is_text(value: str) -> bool:
    """Whether a command-line value is text: no byte of it failed to decode as UTF-8 (Python
    keeps such a byte as a lone surrogate)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def undecoded(value: str) -> str:
    """A value holding undecoded bytes as the shell would show them: "b'\\xff'"."""
    return repr(os.fsencode(value))


def line_width() -> int:
    """The width lines are wrapped to: the terminal's (or COLUMNS), kept to 40-100."""
    try:  # shutil.get_terminal_size, without importing shutil for it
        columns = int(os.environ.get("COLUMNS", "0")) or os.get_terminal_size().columns
    except (OSError, ValueError):
        columns = 100
    return max(40, min(columns, 100))


def wrap(text: str, indent: str = "") -> str:
    """`text` wrapped to the terminal width, paragraph by paragraph."""
    width = line_width()
    return "\n".join(fill(paragraph, width, indent) for paragraph in text.split("\n"))


def unreadable(db_path: Path | None, problem: str) -> str:
    """The one line saying that the database at `db_path` cannot be read, and why."""
    return f"{db_path}: {problem}; build it again with `rulesdb build`"


def opened(db_path: Path | str) -> sqlite3.Connection | None:
    """query.connect, None when there is no database at `db_path`."""
    try:
        return query.connect(db_path)
    except FileNotFoundError:
        return None


def connected(db_path: Path | str, default: bool,
              thorough: bool = False) -> sqlite3.Connection | None:
    """A read-only connection to the database at `db_path` when it is there, up to date and
    readable (`thorough`: every page read, query.trouble); None when it must be built first
    or cannot be read (common.open_db builds it or says why)."""
    from ..sources.fresh import why_build

    conn = opened(db_path)
    if conn is None:
        return None
    if why_build(db_path, default, conn) is not None or query.trouble(conn, thorough):
        conn.close()
        return None
    return conn


def check_document(conn: sqlite3.Connection, doc_id: str | None) -> str | None:
    """The id `doc_id` stands for (a kind's name, "cr", "mtr" or "ipg", is its newest
    edition); InputError when it is given and names no document of the database."""
    if not doc_id:
        return doc_id
    found = query.resolve_document(conn, doc_id)
    if found is None:
        if doc_id.lower() in query.KIND_NAMES:
            raise InputError(f"no document of kind {doc_id} ({query.KIND_NAMES[doc_id.lower()]}) "
                             "in the database; see `rulesdb docs`")
        raise InputError(f"no document {doc_id}; see `rulesdb docs`")
    return found


def not_found(conn: sqlite3.Connection, number: str, doc_id: str | None,
              what: str = "rule") -> NotFound:
    """NotFound for a rule number, with the nearest numbers as suggestions."""
    near = query.suggest_numbers(conn, number, doc_id)
    hint = f"; did you mean {', '.join(near)}?" if near else ""
    return NotFound(f"no {what} {query.normalize_number(number)}"
                    f"{' in ' + doc_id if doc_id else ''}{hint}")


def find_rule_or_fail(conn: sqlite3.Connection, number: str, doc_id: str | None) -> dict:
    """The rule row `number` (in `doc_id`, else the newest document that has it); InputError
    for an unknown document, NotFound with suggestions for an unknown rule."""
    doc_id = check_document(conn, doc_id)
    found = query.find_rule(conn, number, doc_id)
    if found is None:
        raise not_found(conn, number, doc_id)
    return found
