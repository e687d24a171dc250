"""The rules site: serve."""

from __future__ import annotations

from pathlib import Path

import click

from .common import (
    db_option,
    default_sources,
    echo_json,
    json_option,
    open_db,
    ready,
    sources_option,
)


@click.command()
@db_option
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (0.0.0.0 makes the site public).")
@click.option("--port", default=8001, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on.")
@sources_option
@click.option("--workers", type=click.IntRange(1, 64), default=None,
              help="Processes answering requests [default: one per core, at most 4].")
@json_option
def serve(db_path: Path, host: str, port: int, sources: Path | None, workers: int | None,
          as_json: bool) -> None:
    """Serve the rules site with Datasette, building the database first when it is missing
    (from --sources) or was built by another rulesdb (an upgrade).

    Read-only: the database is opened immutable and every query has a time limit. A
    database that cannot be read is refused at start (and, damaged while served, each page
    says so). When
    `rulesdb add` or `fetch` replaces the database, the next request serves the new one.
    With --json, prints one line {"url", "db", "built"} before serving.

    Example:

        rulesdb serve --db /tmp/rules.db --port 8001
    """
    from ..site.serve import default_workers, ensure_database, run

    ready(db_path)
    built = ensure_database(db_path, sources or default_sources())
    open_db(db_path, thorough=True).close()  # a damaged file is refused before serving
    url = f"http://{host}:{port}/"
    if as_json:
        echo_json({"url": url, "db": str(db_path), "built": built})
    else:
        if built:
            click.echo(f"built {db_path}")
        click.echo(f"rules site: {url}  (Ctrl-C stops it)")
    run(db_path, host, port, workers or default_workers())


COMMANDS = [serve]
