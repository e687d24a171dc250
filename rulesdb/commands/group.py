"""The `rulesdb` command group (click); each command lives in rulesdb/commands/. The program
(rulesdb.cli) answers the commonest lookups without it (rulesdb.commands.quick).

A command's module is imported only when that command runs (click's lazy group: `MODULES`
names each command's module), so a lookup does not import every other command's modules
first; `--help` imports them all to list each command with its one-line help. Command
modules import only what lookups need at import time (click, sqlite3): heavy dependencies
(spaCy, Datasette, sqlite-utils) are imported inside the commands that use them.
"""

from __future__ import annotations

import importlib
import sqlite3
import sys
from typing import Any

import click

from .. import __version__
from ..errors import InputError, Problem, database_problem
from .common import DB_PATH, leave_quickly, quick_exit_wanted, unreadable
from .plain import leave

# each command's module in rulesdb.commands (which lists it in its COMMANDS)
MODULES = {
    "build": "core", "docs": "core", "rule": "core", "export": "core", "info": "info",
    "add": "sources", "fetch": "sources", "remove": "sources",
    "diff": "lineage", "history": "lineage", "align": "align", "serve": "site",
    "trace": "engine", "coverage": "engine", "combat": "combat", "conformance": "combat",
    "search": "lookup", "glossary": "lookup", "keywords": "lookup", "refs": "lookup",
    "infractions": "lookup",
}
# the commands that only read the database and print: once their output is flushed the
# program ends without tearing its heap down (`leave_quickly`), 7-9 ms of a 50-100 ms lookup
LOOKUPS = {"docs", "rule", "export", "search", "glossary", "keywords", "refs", "diff", "history"}


class Shown(click.ClickException):
    """A rulesdb error (rulesdb.errors.Problem) as click shows it: its line and exit code."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.exit_code = problem.exit_code


class Rulesdb(click.Group):
    """The command group. Run as the `rulesdb` program (which calls it; tests call `main`),
    a command that asked to `leave_quickly` (rulesdb.commands.common) ends the process once its
    output is flushed, with the exit code it would have had, skipping the interpreter's
    teardown."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command's name, without importing any."""
        return sorted(MODULES)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command `cmd_name`, its module imported now; None for an unknown name."""
        module = MODULES.get(cmd_name)
        if module is None:
            return None
        found = importlib.import_module(f"{__package__}.{module}").COMMANDS
        return next(command for command in found if command.name == cmd_name)

    def resolve_command(self, ctx: click.Context,
                        args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        """The command the arguments name (click's), a lookup asked to `leave_quickly`."""
        name, command, rest = super().resolve_command(ctx, args)
        if name in LOOKUPS:
            leave_quickly()
        return name, command, rest

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; a database found damaged or unreadable while it runs (SQLite
        says so) is one line naming the file, exit code 2, not a traceback, and the errors
        of rulesdb.errors are shown as click shows its own."""
        try:
            return super().invoke(ctx)
        except Problem as exc:
            raise Shown(exc) from None
        except sqlite3.DatabaseError as exc:
            problem = database_problem(exc)
            if problem is None:
                raise
            raise Shown(InputError(unreadable(ctx.meta.get(DB_PATH), problem))) from None

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
            leave(code)


@click.group(cls=Rulesdb)
@click.version_option(__version__, prog_name="rulesdb")
def cli() -> None:
    """rulesdb: the rules of Magic: The Gathering as one cross-referenced SQLite database.

    The database is built on first use, in the user data folder (`rulesdb info` shows where).

    Example:

        rulesdb rule 702.19
    """


def commands() -> dict[str, click.Command]:
    """Every command by name (all their modules imported)."""
    ctx = click.Context(cli)
    return {name: command for name in cli.list_commands(ctx)
            if (command := cli.get_command(ctx, name)) is not None}
