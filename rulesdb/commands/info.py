"""The `info` command: where the database and the user's data are, and what the database
holds."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import click

from .. import __version__
from .common import (
    db_option,
    echo_json,
    is_default,
    json_option,
    overrides_file,
    overrides_option,
)


@click.command()
@db_option
@overrides_option
@json_option
def info(db_path: Path, overrides_path: Path | None, as_json: bool) -> None:
    """Say where the database is, its size and age, the documents it holds (how many, the
    newest Comprehensive Rules edition), where your data lives (the releases you added,
    your alignments set by hand) and the rulesdb version. Builds nothing.

    Example:

        rulesdb info

        rulesdb info --json
    """
    report = gather(db_path, overrides_file(overrides_path))
    if as_json:
        echo_json(report)
        return
    db, user = report["database"], report["user_data"]
    click.echo(f"rulesdb {report['version']}")
    click.echo(f"database: {db['path']}" + ("" if db["default"] else " (--db or RULESDB_DB)"))
    if not db["exists"]:
        click.echo("  not built yet: " + ("the first command that reads it builds it"
                                          if db["default"] else
                                          f"`rulesdb build --db {db['path']}` builds it"))
    elif db["problem"]:
        click.echo(f"  cannot be read: {db['problem']}")
    else:
        click.echo(f"  {db['bytes'] / 1e6:.1f} MB, built {db['built'] or 'at an unknown time'}"
                   f" ({_age(db['age_seconds'])} ago) by rulesdb {db['built_by'] or '(older)'}")
        newest = db["newest_cr"]
        click.echo(f"  {db['documents']} documents; newest Comprehensive Rules: "
                   + (f"{newest['id']}" if newest else "none"))
        if db["why_build"]:
            click.echo(f"  the next command builds it again: {db['why_build']}")
    click.echo(f"user data: {user['folder']}")
    click.echo(f"  releases you added: {len(user['releases'])}"
               + (f" ({', '.join(user['releases'])})" if user["releases"] else ""))
    click.echo(f"  your alignments set by hand: {user['overrides']}"
               + ("" if user["overrides_exists"] else " (none yet)"))
    click.echo(f"corpus rulesdb ships: {report['corpus']['folder']}")


def gather(db_path: Path, overrides: Path) -> dict[str, Any]:
    """What `info` reports, as JSON-ready data."""
    from ..places import shipped, user
    from ..sources.fresh import why_build
    from ..sources.kept import kept_ids

    releases = user.releases()
    return {
        "version": __version__,
        "database": {"path": str(db_path), "default": is_default(db_path),
                     **_database(db_path, why_build)},
        "user_data": {"folder": str(user.folder()), "releases_folder": str(releases),
                      "releases": kept_ids(releases), "overrides": str(overrides),
                      "overrides_exists": overrides.is_file()},
        "corpus": {"folder": str(shipped.root()), "digest": shipped.digest()},
    }


def _database(db_path: Path, why_build: Any) -> dict[str, Any]:
    from ..db.readonly import read_only
    from ..db.stamp import read as read_stamp

    found: dict[str, Any] = {"exists": db_path.is_file(), "bytes": None, "age_seconds": None,
                             "built": None, "built_by": None, "corpus": None,
                             "documents": None, "newest_cr": None, "problem": None,
                             "why_build": None}
    if not found["exists"]:
        return found
    stat = db_path.stat()
    found.update(bytes=stat.st_size, age_seconds=round(time.time() - stat.st_mtime))
    try:
        conn = read_only(db_path)
        try:
            stamp = read_stamp(conn)
            found["documents"] = conn.execute("SELECT count(*) FROM documents").fetchone()[0]
            newest = conn.execute(
                "SELECT id, effective_date FROM documents WHERE kind = 'comprehensive_rules' "
                "AND superseded_by IS NULL ORDER BY effective_date DESC, id DESC LIMIT 1"
            ).fetchone()
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        found["problem"] = str(exc)
        return found
    if stamp is not None:
        found.update(built=stamp.built, built_by=stamp.version, corpus=stamp.corpus)
    found["newest_cr"] = {"id": newest[0], "effective_date": newest[1]} if newest else None
    found["why_build"] = why_build(db_path, is_default(db_path))
    return found


def _age(seconds: int) -> str:
    for unit, size in (("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= 2 * size:
            return f"{seconds // size} {unit}"
    return f"{seconds} seconds"


COMMANDS = [info]
