"""Shared pieces of the command line: options, output helpers, errors with exit codes."""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path
from typing import Any

import click

from ..errors import InputError
from ..lookup import query
from . import plain
from .plain import (  # noqa: F401 - the commands take them from here
    NotFound,
    check_document,
    connected,
    echo_json,
    find_rule_or_fail,
    line_width,
    not_found,
    opened,
    unreadable,
    wrap,
)


class Text(click.ParamType):
    """A name, number or query to look up: text, which a byte the terminal could not decode
    as UTF-8 is not (Python keeps it as a lone surrogate, which SQLite refuses to bind)."""

    name = "text"  # click.STRING's: the help reads as before

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not plain.is_text(value):
            self.fail(f"{plain.undecoded(value)} is not UTF-8 text", param, ctx)
        return value


TEXT = Text()
DB_PATH = "rulesdb.db_path"  # where the --db of the command run is kept (Context.meta)
DB_DEFAULT = "rulesdb.db_default"  # set when it is the default database (the user's)


def remember_db(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path:
    """The --db given (or RULESDB_DB), else the default database in the user's data folder;
    kept where the group can name it in an error."""
    if value is None:
        from ..places import user

        value = user.database()
        ctx.meta[DB_DEFAULT] = value
    ctx.meta[DB_PATH] = value
    return value


db_option = click.option(
    "--db", "db_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
    envvar="RULESDB_DB", callback=remember_db,
    help="Database file (or set RULESDB_DB) [default: rules.db in the user data folder, "
         "built on first use; `rulesdb info` shows where].",
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON.")
format_option = click.option(
    "--format", "fmt", type=click.Choice(["text", "markdown", "json"]), default="text",
    show_default=True, help="Output: readable text, Markdown for pasting into a chat, or JSON.")
overrides_option = click.option(
    "--overrides", "overrides_path", type=click.Path(dir_okay=False, path_type=Path),
    default=None, envvar="RULESDB_OVERRIDES",
    help="Your file of alignments set by hand, applied on top of those rulesdb ships (or set "
         "RULESDB_OVERRIDES) [default: alignment-overrides.txt in the user data folder].")
sources_option = click.option(
    "--sources", type=click.Path(file_okay=False, path_type=Path), default=None,
    help="Folder with catalog.toml and the source files [default: the corpus rulesdb "
         "ships].")


def default_sources() -> Path:
    """The sources folder of the corpus rulesdb ships."""
    from ..places import shipped

    return shipped.sources()


def overrides_file(path: Path | None) -> Path:
    """The overrides file given, else the user's."""
    if path is not None:
        return path
    from ..places import user

    return user.overrides()


def is_default(db_path: Path) -> bool:
    """Whether `db_path` is the default database of the command run (neither --db nor
    RULESDB_DB given): it is built on first use and keeps the user's added releases."""
    ctx = click.get_current_context(silent=True)
    return ctx is not None and ctx.find_root().meta.get(DB_DEFAULT) == db_path


def user_releases(db_path: Path) -> Path | None:
    """The folder the releases added to `db_path` are kept in: the user's, for the default
    database; None for another."""
    if not is_default(db_path):
        return None
    from ..places import user

    return user.releases()


class ProgressBar:
    """A progress bar on standard error, drawn once the number of steps is known."""

    def __init__(self, label: str = "building") -> None:
        self.label = label
        self._bar: Any = None

    def step(self, label: str, total: int) -> None:
        """One step done, of `total`."""
        if self._bar is None:
            self._bar = click.progressbar(length=total, label=self.label, file=sys.stderr,
                                          item_show_func=lambda item: item)
            self._bar.__enter__()
        self._bar.update(1, label)

    def close(self) -> None:
        """Finish the bar (it stays on screen)."""
        if self._bar is not None:
            self._bar.__exit__(None, None, None)
            self._bar = None


def open_db(db_path: Path, thorough: bool = False) -> sqlite3.Connection:
    """A read-only connection to a database ready to answer (`ready`), or an InputError
    telling how to build the database or why it cannot be read (`thorough`: having read
    every page of it). The connection that finds it ready answers the command: a second
    one would read the schema again."""
    conn = connected(db_path, is_default(db_path), thorough)
    if conn is not None:
        return conn
    ready(db_path)  # built when it must be; else this says why it cannot answer
    conn = opened(db_path)
    if conn is None:
        raise InputError(f"{db_path}: no database here; run `rulesdb build` first")
    problem = query.trouble(conn, thorough)
    if problem is not None:
        conn.close()
        raise InputError(unreadable(db_path, problem))
    return conn


def ready(db_path: Path) -> None:
    """Build the database first when it must be: the default database on first use, and
    any database built from the corpus rulesdb ships once rulesdb or that corpus changed
    (an upgrade), saying why on standard error. Two commands started together build once:
    the other waits for the write lock, and neither reads a half-built file."""
    from ..sources.fresh import why_build

    default = is_default(db_path)
    if why_build(db_path, default) is None:
        return
    from ..sources.fresh import rebuild

    def still_needed() -> bool:  # asked holding the write lock
        why = why_build(db_path, default)
        if why is not None:
            click.echo(f"{db_path}: {why}", err=True)
        return why is not None

    bar = ProgressBar() if sys.stderr.isatty() else None
    try:
        report = rebuild(db_path, overrides_file(None), user_releases(db_path), still_needed,
                         on_step=bar.step if bar else None)
    finally:
        if bar:
            bar.close()
    if report is not None:
        leave_quickly()  # the build's heap is not worth tearing down
        click.echo(f"built {db_path}: {len(report.documents)} documents in "
                   f"{report.seconds:.0f} s", err=True)


_quick = {"exit": False}


def leave_quickly() -> None:
    """Have the `rulesdb` program end without tearing its heap down once this command is
    done (see rulesdb.commands.group.Rulesdb): after an add or a build, freeing what the
    layers built takes a sixth of a second and serves no one; after a lookup, 7-9 ms of its
    50-100. Call it in commands whose every file is closed, or only read, by the time they
    return."""
    _quick["exit"] = True


def quick_exit_wanted() -> bool:
    """Whether the command run asked to `leave_quickly`."""
    return _quick["exit"]
