"""The `rulesdb` command line: the group; each command lives in rulesdb/commands/.

Command modules import only what lookups need at import time (click, sqlite3): heavy
dependencies (spaCy, Datasette, sqlite-utils) are imported inside the commands that use them.
"""

from __future__ import annotations

import os
import sqlite3
import sys
from typing import Any

import click

from .commands import align, combat, core, engine, lineage, lookup, site, sources
from .commands.common import DB_PATH, quick_exit_wanted, unreadable
from .errors import InputError, database_problem


class Rulesdb(click.Group):
    """The command group. Run as the `rulesdb` program (which calls it; tests call `main`),
    a command that asked to `leave_quickly` (rulesdb.commands.common) ends the process once its
    output is flushed, with the exit code it would have had, skipping the interpreter's
    teardown."""

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; a database found damaged or unreadable while it runs (SQLite
        says so) is one line naming the file, exit code 2, not a traceback."""
        try:
            return super().invoke(ctx)
        except sqlite3.DatabaseError as exc:
            problem = database_problem(exc)
            if problem is None:
                raise
            raise InputError(unreadable(ctx.meta.get(DB_PATH), problem)) from None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().__call__(*args, **kwargs)
        except SystemExit as stop:
            if not quick_exit_wanted():
                raise
            code = stop.code
            if code is not None and not isinstance(code, int):
                print(code, file=sys.stderr)  # as the interpreter does with such a code
                code = 1
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (OSError, ValueError):  # closed pipe or stream: as at shutdown
                    code = code or 120
            os._exit(code or 0)


@click.group(cls=Rulesdb)
@click.version_option(package_name="rulesdb")
def cli() -> None:
    """rulesdb: the rules of Magic: The Gathering as one cross-referenced SQLite database.

    Example:

        rulesdb build && rulesdb rule 702.19
    """


for _module in (core, sources, lineage, align, site, engine, combat, lookup):
    for _command in _module.COMMANDS:
        cli.add_command(_command)
