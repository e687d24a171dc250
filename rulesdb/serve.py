"""`rulesdb serve`: build the database when it is missing, then run the rules site in Datasette.

The site is Datasette with the metadata of metadata.yml (shipped in the package as
rulesdb/site/metadata.yml, a link to the one at the project root), the plugin of
rulesdb.site.plugin and the templates of rulesdb/templates; the database is opened
immutable, with a time limit on every SQL query.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

METADATA = Path(__file__).resolve().parent / "site" / "metadata.yml"
DATABASE_NAME = "rules"
SETTINGS: dict[str, Any] = {
    "sql_time_limit_ms": 1000,
    "max_returned_rows": 1000,
    "num_sql_threads": 4,
    "default_cache_ttl": 3600,
    "allow_download": True,
}


def load_metadata(path: Path = METADATA) -> dict[str, Any]:
    """The site's metadata as a dict."""
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def register_plugin() -> None:
    """Register the site plugin with Datasette unless an entry point already did."""
    from datasette.plugins import pm

    from .site import plugin

    if not pm.is_registered(plugin) and pm.get_plugin("rulesdb") is None:
        pm.register(plugin, name="rulesdb")


def make_datasette(db_path: Path, settings: dict[str, Any] | None = None) -> Any:
    """A Datasette serving `db_path` read-only as the rules site."""
    from datasette.app import Datasette

    register_plugin()
    ds = Datasette(
        immutables=[str(db_path)],
        metadata=load_metadata(),
        settings={**SETTINGS, **(settings or {})},
        cors=False,
    )
    # Always /rules, whatever the file is called: the metadata and every shared URL say so.
    stem = Path(db_path).stem
    if stem != DATABASE_NAME:
        db = ds.databases[stem]
        ds.remove_database(stem)
        ds.add_database(db, name=DATABASE_NAME, route=DATABASE_NAME)
    return ds


def ensure_database(db_path: Path, sources: Path) -> bool:
    """Build `db_path` from `sources` when it does not exist; True when it was built."""
    if Path(db_path).is_file():
        return False
    from .build import build

    build(Path(db_path), sources)
    return True


def run(ds: Any, host: str, port: int) -> None:
    """Serve `ds` with uvicorn until interrupted."""
    import asyncio

    import uvicorn

    asyncio.run(ds.invoke_startup())
    uvicorn.run(ds.app(), host=host, port=port, log_level="warning", lifespan="on", workers=1)
