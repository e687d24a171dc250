"""Errors a user can cause: one plain line, exit code 2."""

from __future__ import annotations

import click


class InputError(click.ClickException):
    """Bad input (a source file, the catalogue, an option); exits with code 2."""

    exit_code = 2


def position(text: str, offset: int) -> str:
    """'line L, column C' of a character offset in `text`."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return f"line {line}, column {column}"
