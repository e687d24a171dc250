"""Errors a user can cause: one plain line, a non-zero exit code.

They do without click, so that a lookup answered without loading click (rulesdb.commands.quick)
raises the same errors as the command line, which shows them as click shows its own.
"""

from __future__ import annotations

import sqlite3


class Problem(Exception):
    """What ends a command with one line, `Error: <message>` on standard error, and
    `exit_code` (1: nothing found)."""

    exit_code = 1

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class InputError(Problem):
    """Bad input (a source file, the catalogue, an option); exits with code 2."""

    exit_code = 2


def position(text: str, offset: int) -> str:
    """'line L, column C' of a character offset in `text`."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return f"line {line}, column {column}"


# SQLite's primary result codes that mean the file or the disk is at fault, not the program
_FILE_PROBLEMS = {
    11: "the database is damaged",  # SQLITE_CORRUPT
    26: "not a database",  # SQLITE_NOTADB
    13: "the disk is full",  # SQLITE_FULL
    10: "an input/output error",  # SQLITE_IOERR
    14: "cannot open it",  # SQLITE_CANTOPEN
    8: "cannot write it",  # SQLITE_READONLY
    3: "not allowed",  # SQLITE_PERM
}


def database_problem(exc: sqlite3.Error) -> str | None:
    """What a SQLite error says of the database file ("the database is damaged (database
    disk image is malformed)"), or None when it is not about the file or the disk (a bug)."""
    code = getattr(exc, "sqlite_errorcode", None)
    problem = _FILE_PROBLEMS.get(code & 0xFF) if isinstance(code, int) else None
    return f"{problem} ({exc})" if problem else None
