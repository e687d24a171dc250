"""Shared pieces of the command line: options, output helpers, errors with exit codes."""

from __future__ import annotations

import json
import shutil
import sqlite3
import textwrap
from pathlib import Path
from typing import Any

import click

from . import query
from .errors import InputError

DEFAULT_DB = Path("data/rules.db")


def default_sources() -> Path:
    """./data/sources when present, else the data/sources of the checkout holding this package."""
    here = Path("data/sources")
    if (here / "catalog.toml").is_file():
        return here
    return Path(__file__).resolve().parent.parent / "data" / "sources"


db_option = click.option(
    "--db", "db_path", type=click.Path(dir_okay=False, path_type=Path), default=DEFAULT_DB,
    envvar="RULESDB_DB", show_default=True, help="Database file (or set RULESDB_DB).",
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON.")


class NotFound(click.ClickException):
    """Nothing matched; exits with code 1."""

    exit_code = 1


def echo_json(data: Any) -> None:
    """Print `data` as indented JSON, non-ASCII kept."""
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def open_db(db_path: Path) -> sqlite3.Connection:
    """A read-only connection, or an InputError telling how to build the database."""
    try:
        return query.connect(db_path)
    except FileNotFoundError:
        raise InputError(f"{db_path}: no database here; run `rulesdb build` first") from None


def wrap(text: str, indent: str = "") -> str:
    """`text` wrapped to the terminal width, paragraph by paragraph."""
    width = max(40, min(shutil.get_terminal_size((100, 24)).columns, 100))
    return "\n".join(
        textwrap.fill(paragraph, width, initial_indent=indent, subsequent_indent=indent)
        for paragraph in text.split("\n")
    )


