"""The bounds on the site's SQLite connections (rulesdb/site/bounds.py) and its two lanes of
SQL threads (rulesdb/site/lanes.py): runaway calls end at once, ordinary ones answer as
SQLite's own functions do."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
import time

import pytest

from rulesdb.site import lanes
from rulesdb.site.bounds import MAX_RESULT, MAX_VALUE, ResultTooBig, bound
from rulesdb.site.serve import Reloading, make_datasette

M = MAX_VALUE - 1000


@pytest.fixture
def conn() -> sqlite3.Connection:
    connection = sqlite3.connect(":memory:")
    connection.row_factory = sqlite3.Row
    bound(connection)
    return connection


def answer(conn: sqlite3.Connection, sql: str) -> object:
    """The first column of the first row, or the error as 'Kind: message'."""
    try:
        return conn.execute(sql).fetchone()[0]
    except (sqlite3.Error, MemoryError) as exc:
        return f"{type(exc).__name__}: {exc}"


TOO_BIG = "DataError: string or blob too big"
RUNAWAY = {
    "select length(printf('%.*c', 1000000000, 'x'))": TOO_BIG,
    "select length(format('%2000000000d', 1))": TOO_BIG,
    "select length(randomblob(1e9))": TOO_BIG,
    "select length(zeroblob(1e9))": TOO_BIG,
    f"select instr(printf('%.*c', {M}, 'a'), printf('%.*c', {M // 2}, 'a') || 'b')": 0,
    f"select length(replace(printf('%.*c', {M}, 'a'), printf('%.*c', {M // 2}, 'a') || 'b', "
    "'c'))": M,
    f"select length(replace(printf('%.*c', {M // 10}, 'a'), 'a', 'bbbbbbbbbbbbbbbbbbbbb'))":
        TOO_BIG,
    f"select trim(printf('%.*c', {M}, 'a'), (with recursive n(i) as (select 1 union all "
    "select i + 1 from n where i < 100) select group_concat(char(i + 200), '') from n) || 'a')":
        TOO_BIG,
    "select json_patch((select json_group_object(i, i) from (with recursive n(i) as (select 1 "
    "union all select i + 1 from n where i < 40000) select i from n)), (select "
    "json_group_object(-i, i) from (with recursive n(i) as (select 1 union all select i + 1 "
    "from n where i < 40000) select i from n)))": TOO_BIG,
}


@pytest.mark.parametrize("sql", RUNAWAY)
def test_a_runaway_call_is_refused_or_answered(conn, sql):
    """How long they take is benchmarks/runaway_queries.py's to show."""
    assert answer(conn, sql) == RUNAWAY[sql]


def test_a_full_text_query_longer_than_a_value_is_refused(bundled_db):
    """A MATCH of 256 KB (130,000 words) took 3.4 s to prepare, in one step."""
    conn = sqlite3.connect(f"file:{bundled_db}?immutable=1", uri=True)
    bound(conn)
    words = "with recursive n(i) as (select 1 union all select i + 1 from n where i < {}) " \
            "select group_concat(char(97 + i % 26), ' ') from n"
    match = "select count(*) from rules_fts where rules_fts match ({})"
    assert answer(conn, match.format(words.format(MAX_VALUE // 2 + 1))) == TOO_BIG
    # "b c d": a short one is run, and finds what the query finds without bounds
    unbounded = sqlite3.connect(f"file:{bundled_db}?immutable=1", uri=True)
    expected = unbounded.execute(match.format("'b c d'")).fetchone()[0]
    assert expected > 0
    assert answer(conn, match.format(words.format(3))) == expected


ORDINARY = [
    "printf('%5.2f|%-4d|%s|%.3s|%c|%x|%q|%%', 3.14159, 42, 'abc', 'abcdef', 'z', 255, 'it''s')",
    "printf('%.*s|%*d', 2, 'abcdef', 6, 7)", "format('%d items', 3)", "printf(NULL)",
    "printf('%s')", "printf('%.1000000000s', 'x')", "printf('%!.15g', 0.1)",
    "instr('trample', 'amp')", "instr('trample', '')", "instr(x'0102ff03', x'ff')",
    "instr(12345, 34)", "instr(NULL, 'a')", "instr('a', NULL)", "instr('ĉapelo', 'pe')",
    "replace('a.b.c', '.', '--')", "replace('abc', '', 'x')", "replace(1.5, '.', ',')",
    "replace('aaa', 'a', '')", "replace(NULL, 'a', 'b')", "replace('a', 'a', NULL)",
    "replace('ĉĉĉ', 'ĉ', 'c')", "trim('xxaxx', 'x')", "ltrim('..a..', '.')",
    "rtrim('702.19.', '.')", "trim('  a  ')", "trim('abc', NULL)", "trim(123, '1')",
    "json_patch('{\"a\":1,\"b\":{\"c\":2}}', '{\"b\":{\"c\":null,\"d\":3},\"e\":1.50}')",
    "json_patch('[1,2]', '{\"a\":1}')", "json_patch(NULL, '{}')",
]


@pytest.mark.parametrize("expression", ORDINARY)
def test_the_replacements_answer_as_sqlite_does(conn, expression):
    plain = sqlite3.connect(":memory:")
    assert answer(conn, f"select {expression}") == answer(plain, f"select {expression}")


def test_the_replacements_share_a_budget_of_work_per_statement(conn):
    one = f"length(replace(printf('%.*c', {M}, 'a'), 'a', 'b'))"
    assert answer(conn, f"select {one} + {one}") == 2 * M
    assert answer(conn, f"select {' + '.join([one] * 8)}") == TOO_BIG
    assert answer(conn, f"select {one}") == M  # a new statement, a new budget


def test_the_rows_of_a_query_are_bounded(conn):
    rows = f"with recursive n(i) as (select 1 union all select i + 1 from n where i < 1000) " \
           f"select printf('%.*c', {M}, 'x') from n"
    with pytest.raises(ResultTooBig, match="the rows of this query pass 8 MB"):
        conn.execute(rows).fetchall()
    fits = MAX_RESULT // MAX_VALUE - 1
    assert len(conn.execute(rows.replace("i < 1000", f"i < {fits}")).fetchall()) == fits


def test_a_program_too_long_is_refused(conn):
    column = "length(upper(upper(upper(upper(upper(x))))))"
    with pytest.raises(MemoryError):
        conn.execute("select " + ", ".join([column] * 199) + " from (select 'a' as x)")


def test_an_unbound_connection_takes_what_the_bounds_refuse():
    """The bounds are what refuses: SQLite's own limits take these."""
    plain = sqlite3.connect(":memory:")
    assert answer(plain, "select length(zeroblob(2000000))") == 2_000_000
    assert answer(plain, f"select length(replace(printf('%.*c', {M // 10}, 'a'), 'a', 'bb'))") \
        == 2 * (M // 10)


@pytest.mark.parametrize("path, theirs", [
    ("/rules", True), ("/rules.json", True), ("/rules/rules", True), ("/rules.db", True),
    ("/rules/search?q=x", True), ("/-/databases.json", True), ("/-/versions", True),
    ("/-/static/app.css", False), ("/", False), ("/search", False), ("/rulesdb", False),
    ("/cr-2025-06-06/702.19", False), ("/diff", False), ("/robots.txt", False),
])
def test_the_lane_of_each_page(path, theirs):
    assert lanes.datasette_page(path, "rules") is theirs


def test_the_query_lane_runs_on_its_own_threads():
    pool = lanes.Lanes(2)
    try:
        def where() -> tuple[str, int]:
            return threading.current_thread().name, os.getpriority(os.PRIO_PROCESS, 0)

        page = pool.submit(where).result()
        token = lanes.QUERY_LANE.set(True)
        try:
            query = pool.submit(where).result()
        finally:
            lanes.QUERY_LANE.reset(token)
    finally:
        pool.shutdown()
    assert page[0].startswith("rulesdb-pages") and query[0].startswith("rulesdb-queries")
    assert query[1] == page[1]  # at one priority: a heavy query yields instead


def test_the_server_sends_datasette_pages_down_the_query_lane(bundled_db, monkeypatch):
    import httpx

    seen = []
    submit = lanes.Lanes.submit

    def spy(self, fn, *args, **kwargs):
        seen.append(lanes.QUERY_LANE.get())
        return submit(self, fn, *args, **kwargs)

    monkeypatch.setattr(lanes.Lanes, "submit", spy)
    site = Reloading(bundled_db)

    async def get(path: str) -> int:
        transport = httpx.ASGITransport(app=site)
        async with httpx.AsyncClient(transport=transport, base_url="http://site") as client:
            return (await client.get(path)).status_code

    assert asyncio.run(get("/")) == 200  # the first request counts every table's rows
    seen.clear()
    assert asyncio.run(get("/cr-2025-06-06-chapter7/702.19")) == 200
    assert seen and not any(seen)
    seen.clear()
    assert asyncio.run(get("/rules.json?sql=select+1")) == 200
    assert seen and all(seen)


def test_the_time_limit_still_holds(bundled_db):
    from datasette.database import QueryInterrupted

    ds = make_datasette(bundled_db)

    async def run() -> float:
        started = time.perf_counter()
        with pytest.raises(QueryInterrupted):
            await ds.get_database().execute("select count(*) from rule_rows a, rule_rows b, "
                                            "rule_rows c", custom_time_limit=200)
        return time.perf_counter() - started

    assert asyncio.run(run()) < 2.5  # 0.2 s of processor time, at most 2 s on the clock


def test_the_time_limit_counts_time_on_the_processor_not_waiting():
    """A query of the low-priority lane waits for the processor while pages take it: that
    wait does not count, up to ten times the limit on the clock. (A limit of 20 ms is
    checked at every step, as Datasette does.)"""
    conn = sqlite3.connect(":memory:")
    conn.create_function("wait", 1, lambda seconds: time.sleep(seconds))
    waits = "with recursive n(i) as (select 1 union all select i + 1 from n where i < {}) " \
            "select sum(wait(0.005) is null) from n"
    with lanes._time_limit(conn, 20):  # 0.15 s of waiting, hardly any processor time
        assert conn.execute(waits.format(30)).fetchone()[0] == 30
    started = time.perf_counter()
    with lanes._time_limit(conn, 20), pytest.raises(sqlite3.OperationalError,
                                                    match="interrupted"):
        conn.execute(waits.format(200)).fetchone()  # 1 s of waiting: stopped at 0.2 s
    assert 0.15 < time.perf_counter() - started < 1.0
    started = time.perf_counter()
    with lanes._time_limit(conn, 20), pytest.raises(sqlite3.OperationalError,
                                                    match="interrupted"):
        conn.execute("with recursive n(i) as (select 1 union all select i + 1 from n) "
                     "select count(*) from n").fetchone()  # busy: stopped at 20 ms of it
    assert time.perf_counter() - started < 1.0


def test_the_budgets_hold_for_visitors_not_for_the_rules_pages(bundled_db):
    """The rules pages' own queries are bounded by design and skip the budgets' calls into
    Python; a visitor's rows past 8 MB are refused with a page that says so."""
    import httpx

    site = Reloading(bundled_db)
    rows = (f"with recursive n(i) as (select 1 union all select i + 1 from n where i < 100) "
            f"select printf('%.*c', {M}, 'x') from n")

    async def get(*paths: str) -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=site)
        async with httpx.AsyncClient(transport=transport, base_url="http://site") as client:
            return [await client.get(path) for path in paths]

    from urllib.parse import urlencode

    page, visitor = asyncio.run(get("/cr-2025-06-06-chapter7/702.19",
                                    "/rules.json?" + urlencode({"sql": rows})))
    assert page.status_code == 200
    assert visitor.status_code == 400
    assert visitor.json()["error"].startswith("the rows of this query pass 8 MB")
    factory = asyncio.run(site.ds.get_database().execute_fn(lambda conn: conn.row_factory))
    assert factory is sqlite3.Row  # Datasette's, on a connection of the pages' threads
    plain = sqlite3.connect(":memory:")
    bound(plain, budgets=False)
    assert plain.row_factory is None
    assert answer(plain, "select length(printf('%.*c', 1000000000, 'x'))") == TOO_BIG
