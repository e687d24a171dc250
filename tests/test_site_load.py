"""The rules site under many readers: what Datasette's table views cost, the lanes requests
take, and the caching headers that let a reverse proxy or CDN serve repeats."""

from __future__ import annotations

import asyncio

import pytest

from rulesdb.site import caching
from rulesdb.site.serve import make_datasette

from test_site import get


@pytest.fixture(scope="module")
def ds(bundled_db):
    return prime(make_datasette(bundled_db))


def prime(ds):
    """`ds` once its first request is answered and its ETag worked out (in a thread)."""
    async def run():
        await ds.client.get("/robots.txt")
        assert await caching.ready(ds)

    asyncio.run(run())
    return ds


def test_the_table_search_of_the_rules_view_finds_rules(ds, bundled_db):
    """rules is a view: without fts_pk Datasette matched the index's rowid to the view's
    (none) and every ?_search= found nothing, after reading all 238,000 rows."""
    import sqlite3

    conn = sqlite3.connect(bundled_db)
    expected = {row[0] for row in conn.execute(
        "SELECT rowid FROM rules_fts WHERE rules_fts MATCH 'trample'")}
    conn.close()
    response = get(ds, "/rules/rules.json?_search=trample&_shape=objects&_size=max")
    assert response.status_code == 200
    data = response.json()
    assert expected and {row["id"] for row in data["rows"]} == expected
    assert data["filtered_table_rows_count"] == len(expected)
    assert "where id in (select rowid from rules_fts" in data["query"]["sql"]


def test_pages_carry_cache_control_and_an_etag_and_a_conditional_get_answers_304(ds):
    paths = ["/", "/cr-2025-06-06-chapter7/702.19", "/search?q=trample",
             "/rules/rules?_search=trample", "/rules/glossary.json?term__contains=tap",
             "/changes.atom", "/-/static/app.css"]
    first = get(ds, *paths)
    tags = {response.headers.get("etag") for response in first}
    assert len(tags) == 1 and next(iter(tags)).startswith('W/"')  # one file, one code
    for path, response in zip(paths, first, strict=True):
        assert response.status_code == 200, path
        assert response.headers["cache-control"] == "public, max-age=60", path
        assert "Cookie" in response.headers["vary"], path

    async def again():
        return [await ds.client.get(path, headers={"if-none-match": response.headers["etag"]})
                for path, response in zip(paths, first, strict=True)]

    for path, response in zip(paths, asyncio.run(again()), strict=True):
        assert response.status_code == 304, path
        assert response.content == b""
        assert response.headers["etag"] == next(iter(tags))
        assert response.headers["cache-control"] == "public, max-age=60"
        assert response.headers["x-content-type-options"] == "nosniff"  # the guard's headers


def test_a_stale_or_foreign_etag_gets_the_page(ds):
    page = get(ds, "/cr-2025-06-06-chapter7/702.19")

    async def ask(tag):
        return await ds.client.get("/cr-2025-06-06-chapter7/702.19",
                                   headers={"if-none-match": tag})

    for tag in ('W/"0000-1111"', '"something"', page.headers["etag"].removeprefix("W/") + "x"):
        response = asyncio.run(ask(tag))
        assert response.status_code == 200 and response.text == page.text
    # weak comparison, and one of several tags
    assert asyncio.run(ask('"a", ' + page.headers["etag"].removeprefix("W/"))).status_code == 304


@pytest.mark.parametrize("path, headers", [
    ("/-/threads.json", {}), ("/-/actor.json", {}),  # the process, the visitor
    ("/cr-2025-06-06-chapter7/702.19", {"cookie": "ds_actor=x"}),  # personal
    ("/cr-2025-06-06-chapter7/no-such-rule", {}),  # errors
])
def test_what_is_personal_or_not_a_page_is_not_shared(ds, path, headers):
    async def ask():
        return await ds.client.get(path, headers=headers)

    response = asyncio.run(ask())
    assert "etag" not in response.headers
    assert "public" not in response.headers.get("cache-control", "")


def test_a_replaced_database_gets_another_etag(bundled_db, tmp_path):
    """The tag names the file's content: a copy has the same, a changed file another."""
    import shutil
    import sqlite3

    copy = tmp_path / "copy.db"
    shutil.copy(bundled_db, copy)
    same = get(prime(make_datasette(copy)), "/").headers["etag"]
    assert same == get(prime(make_datasette(bundled_db)), "/").headers["etag"]
    conn = sqlite3.connect(copy)
    conn.execute("UPDATE documents SET title = title || ' (changed)'")
    conn.commit()
    conn.close()
    assert get(prime(make_datasette(copy)), "/").headers["etag"] != same


def test_a_mutable_database_gets_no_etag(bundled_db):
    from datasette.app import Datasette

    from rulesdb.site.serve import load_metadata, register_plugin

    register_plugin()
    mutable = Datasette([str(bundled_db)], metadata=load_metadata())

    async def run():
        await mutable.client.get("/robots.txt")
        return await caching.ready(mutable, seconds=0.5)

    assert asyncio.run(run()) is None
    response = get(mutable, "/cr-2025-06-06-chapter7/702.19")
    assert response.status_code == 200 and "etag" not in response.headers


def test_turns_are_given_in_arrival_order_with_a_cap_on_datasette_pages():
    """Four turns, at most two to Datasette's pages (True): a query page that must wait
    holds back none of the rules pages (False) behind it, and gets the next turn its cap
    allows, before the pages that came after it."""
    from rulesdb.site.lanes import Turns

    order: list[str] = []

    async def run() -> None:
        turns = Turns(4, query_turns=2)
        gates = {name: asyncio.Event() for name in "abcdefgh"}

        async def request(name: str, query: bool) -> None:
            async with turns.turn(query):
                order.append(name)
                await gates[name].wait()

        lanes_of = {"a": True, "b": True, "c": True, "d": False, "e": False, "f": True,
                    "g": False, "h": False}
        tasks = []
        for name, query in lanes_of.items():
            tasks.append(asyncio.create_task(request(name, query)))
            await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert order == ["a", "b", "d", "e"]  # c waits for a query turn; d and e pass it
        assert Turns.requests == 8
        gates["d"].set()  # a turn, but no query turn: g, the next rules page, takes it
        await asyncio.sleep(0.01)
        assert order == ["a", "b", "d", "e", "g"]
        gates["a"].set()  # a query turn: c, first in line, takes it before f
        await asyncio.sleep(0.01)
        assert order == ["a", "b", "d", "e", "g", "c"]
        tasks[5].cancel()  # f gives up waiting: its place is not lost to h
        gates["b"].set()
        await asyncio.sleep(0.01)
        assert order == ["a", "b", "d", "e", "g", "c", "h"]
        for gate in gates.values():
            gate.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        assert turns.free == {False: 4, True: 2} and not turns.waiting
        assert Turns.requests == 0

    asyncio.run(run())


def test_a_heavy_query_yields_the_processor_while_other_requests_are_in(monkeypatch):
    """Past HEAVY_MS of processor time a query sleeps YIELD_FACTOR times what it used, but
    only while other requests wait or are answered; alone it runs at full speed."""
    import sqlite3
    import time

    from rulesdb.site import lanes

    count = ("with recursive n(i) as (select 1 union all select i + 1 from n where i < 300000) "
             "select count(*) from n")
    conn = sqlite3.connect(":memory:")
    slept: list[float] = []
    monkeypatch.setattr(lanes.time, "sleep", slept.append)

    def run(requests: int) -> float:
        monkeypatch.setattr(lanes.Turns, "requests", requests)
        slept.clear()
        cpu = time.thread_time()
        with lanes._time_limit(conn, 5000):
            assert conn.execute(count).fetchone()[0] == 300000
        return time.thread_time() - cpu

    monkeypatch.setattr(lanes, "HEAVY_MS", 10)
    run(1)
    assert slept == []
    used = run(3)
    assert len(slept) > 10
    assert lanes.YIELD_FACTOR * (used - 0.010) * 0.7 < sum(slept) \
        <= lanes.YIELD_FACTOR * used * 1.01


def test_each_worker_listens_on_a_socket_of_its_own_on_the_same_port():
    """On Linux the kernel spreads connections among the workers' sockets (SO_REUSEPORT):
    sharing one, the process idle at the moment accepted, 40 of 50 keep-alive connections."""
    import socket
    import sys

    from rulesdb.site.serve import listening_sockets

    socks = listening_sockets("127.0.0.1", 0, 3)
    try:
        ports = {sock.getsockname()[1] for sock in socks}
        if sys.platform.startswith("linux"):
            assert len(socks) == 3 and len(ports) == 1
            assert all(sock.getsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT) for sock in socks)
        else:
            assert len(socks) == 1
    finally:
        for sock in socks:
            sock.close()
    single = listening_sockets("127.0.0.1", 0, 1)
    assert len(single) == 1
    single[0].close()


def test_the_rules_using_a_glossary_term_are_those_the_mentions_view_gives(bundled_db):
    import sqlite3

    from rulesdb.site.pages import USED_IN

    conn = sqlite3.connect(bundled_db)
    ids = [row[0] for row in conn.execute(
        "SELECT glossary_id FROM term_mentions WHERE rule_id IS NOT NULL "
        "GROUP BY glossary_id ORDER BY count(*) DESC LIMIT 40")]
    ids += [row[0] for row in conn.execute("SELECT id FROM glossary ORDER BY id LIMIT 20")]
    by_view = ("SELECT r.document, r.number, count(*) AS times FROM term_mentions m "
               "JOIN rules r ON r.id = m.rule_id WHERE m.glossary_id = ? GROUP BY r.id "
               "ORDER BY r.document, r.position LIMIT 500")
    used = 0
    for glossary_id in ids:
        expected = conn.execute(by_view, [glossary_id]).fetchall()
        assert conn.execute(USED_IN, [glossary_id]).fetchall() == expected, glossary_id
        used += bool(expected)
    conn.close()
    assert used >= 40


def test_the_served_site_answers_304_without_waiting_for_a_turn(bundled_db, monkeypatch):
    import httpx

    from rulesdb.site.lanes import Turns
    from rulesdb.site.serve import Reloading

    site = Reloading(bundled_db)
    turns_taken = []
    turn = Turns.turn

    def counting(self, query):
        turns_taken.append(query)
        return turn(self, query)

    monkeypatch.setattr(Turns, "turn", counting)

    async def run():
        transport = httpx.ASGITransport(app=site)
        async with httpx.AsyncClient(transport=transport, base_url="http://site") as client:
            await client.get("/robots.txt")
            await caching.ready(site.ds)
            first = await client.get("/cr-2025-06-06-chapter7/702.19")
            again = await client.get("/cr-2025-06-06-chapter7/702.19",
                                     headers={"if-none-match": first.headers["etag"]})
            return first, again

    first, again = asyncio.run(run())
    assert first.status_code == 200 and again.status_code == 304
    assert turns_taken == [False, False]  # robots.txt and the page, not the 304
