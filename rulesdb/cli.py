"""The `rulesdb` command line: the group; each command lives in rulesdb/commands/.

Command modules import only what lookups need at import time (click, sqlite3): heavy
dependencies (spaCy, Datasette, sqlite-utils) are imported inside the commands that use them.
"""

from __future__ import annotations

import click

from .commands import core, engine, lineage, lookup, site, sources


@click.group()
@click.version_option(package_name="rulesdb")
def cli() -> None:
    """rulesdb: the rules of Magic: The Gathering as one cross-referenced SQLite database.

    Example:

        rulesdb build && rulesdb rule 702.19
    """


for _module in (core, sources, lineage, site, engine, lookup):
    for _command in _module.COMMANDS:
        cli.add_command(_command)
