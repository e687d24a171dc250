"""The command reference, docs/cli.md, made from the click commands' own help.

Run `python docs/cli_reference.py` after changing a command's help; tests/test_docs.py fails
while the page and `--help` disagree.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

PAGE = Path(__file__).resolve().parent / "cli.md"
WIDTH = 100
INTRO = """\
# Command reference

Every command's `--help`, as `rulesdb COMMAND --help` prints it. This page is made from the
commands themselves (`python docs/cli_reference.py`), and a test fails when the two differ.

Every command takes `--db PATH` (default `rules.db` in the user data folder, built on first use:
`rulesdb info` shows where; or the environment variable `RULESDB_DB`) and `--json`. Exit codes:
0 found, 1 not found, 2 usage or input error.
"""


def help_text(command: click.Command, name: str, parent: click.Context | None = None) -> str:
    """What `rulesdb NAME --help` prints, at a fixed width."""
    ctx = click.Context(command, info_name=name, parent=parent, terminal_width=WIDTH,
                        max_content_width=WIDTH)
    return command.get_help(ctx)


def reference() -> str:
    """The page: the group's help, then each command's, in alphabetical order."""
    from rulesdb.commands.group import cli, commands

    root = click.Context(cli, info_name="rulesdb", terminal_width=WIDTH,
                         max_content_width=WIDTH)
    parts = [INTRO, "## rulesdb\n", "```text", cli.get_help(root), "```\n"]
    for name, command in sorted(commands().items()):
        parts += [f"## rulesdb {name}\n", "```text", help_text(command, name, root), "```\n"]
    return "\n".join(parts)


if __name__ == "__main__":
    PAGE.write_text(reference())
    sys.stdout.write(f"wrote {PAGE}\n")
