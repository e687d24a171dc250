"""`rulesdb serve` notices that `rulesdb add` replaced the database and serves the new file."""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3

import httpx
import pytest

from rulesdb.site.serve import Reloading

TITLE = "/rules.json?sql=select+title+from+documents+where+id='cr-2025-06-06-chapter7'&_shape=array"


def _titles(site: Reloading, times: int) -> list[str]:
    async def run() -> list[str]:
        transport = httpx.ASGITransport(app=site)
        async with httpx.AsyncClient(transport=transport, base_url="http://site") as client:
            return [(await client.get(TITLE)).json()[0]["title"] for _ in range(times)]
    return asyncio.run(run())


def test_a_replaced_database_is_served_at_the_next_request(bundled_db, tmp_path):
    path = tmp_path / "rules.db"
    shutil.copy(bundled_db, path)
    told = []
    site = Reloading(path, on_reload=told.append)
    before = _titles(site, 3)
    assert len(set(before)) == 1 and told == []
    # as `rulesdb add` does: a new file written beside, then put in its place
    new = tmp_path / ".rules.db.adding"
    shutil.copy(path, new)
    with sqlite3.connect(new) as conn:
        conn.execute("UPDATE documents SET title = title || ' (new)' WHERE id = "
                     "'cr-2025-06-06-chapter7'")
    conn.close()
    os.replace(new, path)
    after = _titles(site, 3)
    assert after == [before[0] + " (new)"] * 3
    assert told == [path]


def test_a_database_left_alone_is_loaded_once(bundled_db, tmp_path):
    path = tmp_path / "rules.db"
    shutil.copy(bundled_db, path)
    site = Reloading(path)
    _titles(site, 1)
    first = site.ds
    _titles(site, 3)
    assert site.ds is first


def test_the_replaced_file_is_let_go(bundled_db, tmp_path, monkeypatch):
    monkeypatch.setattr("rulesdb.site.serve.RETIRE_AFTER", 0)
    path = tmp_path / "rules.db"
    shutil.copy(bundled_db, path)
    site = Reloading(path)
    _titles(site, 2)
    old = site.ds.get_database()
    opened = list(old._all_file_connections)
    assert opened
    new = tmp_path / ".rules.db.adding"
    shutil.copy(path, new)
    os.replace(new, path)

    async def reload_and_wait() -> None:
        transport = httpx.ASGITransport(app=site)
        async with httpx.AsyncClient(transport=transport, base_url="http://site") as client:
            await client.get(TITLE)
            await asyncio.sleep(0.05)  # the retirement is due at once
    asyncio.run(reload_and_wait())
    assert site.ds.get_database() is not old
    for conn in opened:  # closed: the replaced file's space can be freed
        with pytest.raises(sqlite3.ProgrammingError):
            conn.execute("SELECT 1")
