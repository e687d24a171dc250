"""What the rules site holds to whatever it is asked (rulesdb/site/guard.py): GET and HEAD
only, security headers on every response with a CSP its pages satisfy, no path of the
machine shown, and a page that says so when the database cannot be read."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import re
import shutil
from urllib.parse import urlencode

import httpx
import pytest

from rulesdb.site.guard import policy
from rulesdb.site.serve import Reloading, make_datasette


@pytest.fixture(scope="module")
def ds(bundled_db):
    return make_datasette(bundled_db)


def fetch(app, *requests: tuple[str, str]) -> list[httpx.Response]:
    """(method, path) requests answered by the ASGI `app`, in one event loop."""
    async def run() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://site") as client:
            return [await client.request(method, path) for method, path in requests]
    return asyncio.run(run())


PAGES = ["/", "/cr-2025-06-06-chapter7/702.19", "/cr-2025-06-06-chapter7/702.19/history",
         "/search?q=trample", "/diff", "/robots.txt", "/nowhere-2025/1", "/rules",
         "/rules/rules", "/rules/rules.json", "/rules/rule?number=702.19", "/rules?sql=select+1",
         "/-/static/app.css", "/-/databases", "/-/databases.json", "/-/versions.json"]


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
@pytest.mark.parametrize("path", ["/rules/rule", "/rules", "/rules/rules", "/",
                                  "/cr-2025-06-06-chapter7/702.19"])
def test_only_get_and_head_are_answered(ds, method, path):
    response, = fetch(ds.app(), (method, path))
    assert (response.status_code, response.headers["allow"], response.text) == (
        405, "GET, HEAD", "405: the rules site is read-only; it answers GET and HEAD only\n")


def test_get_and_head_are(ds):
    get, head = fetch(ds.app(), ("GET", "/rules/rule?number=702.19"),
                      ("HEAD", "/cr-2025-06-06-chapter7/702.19"))
    assert (get.status_code, head.status_code) == (200, 200)


def test_every_response_carries_the_security_headers(ds):
    for path, response in zip(PAGES, fetch(ds.app(), *(("GET", p) for p in PAGES)),
                              strict=True):
        assert response.status_code in (200, 404), path
        assert {k: response.headers.get(k) for k in ("x-content-type-options",
                                                      "x-frame-options",
                                                      "content-security-policy")} == {
            "x-content-type-options": "nosniff", "x-frame-options": "DENY",
            "content-security-policy": policy()}, path
    assert "frame-ancestors 'none'" in policy()


def test_every_inline_script_of_the_pages_is_allowed_by_the_policy(ds):
    """Datasette writes scripts into its pages: each one's hash is in the policy, and no
    page has an event handler attribute or a javascript: link, which no hash allows."""
    allowed = set(re.findall(r"'sha256-([^']+)'", policy()))
    pages = ["/", "/cr-2025-06-06-chapter7/702.19", "/rules", "/rules/rules",
             "/rules/rules?_facet=kind", "/rules?sql=select+1", "/rules/rule?number=702.19",
             "/rules/rules/1", "/-/databases", "/search?q=trample", "/nowhere-2025/1"]
    seen = 0
    for path, response in zip(pages, fetch(ds.app(), *(("GET", p) for p in pages)),
                              strict=True):
        for body in re.findall(r"<script>(.*?)</script>", response.text, re.S):
            digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
            assert digest in allowed, (path, body[:80])
            seen += 1
        assert not re.search(r"\son[a-z]+\s*=|javascript:", response.text, re.I), path
    assert seen >= len(pages)  # every page has at least the script closing menus


def test_databases_show_file_names_not_paths(ds, bundled_db):
    listing, page = fetch(ds.app(), ("GET", "/-/databases.json"), ("GET", "/-/databases"))
    assert listing.json() == [{"name": "rules", "route": "rules", "path": "rules.db",
                               "size": bundled_db.stat().st_size, "is_mutable": False,
                               "is_memory": False, "hash": None}]
    assert page.status_code == 200 and "&#34;path&#34;: &#34;rules.db&#34;" in page.text


def test_no_page_shows_where_the_database_is(ds, bundled_db):
    folder = str(bundled_db.parent)
    pages = [*PAGES, "/-/metadata.json", "/-/settings.json", "/-/plugins.json",
             "/-/threads.json", "/rules.json", "/rules/documents.json?_shape=array"]
    for path, response in zip(pages, fetch(ds.app(), *(("GET", p) for p in pages)),
                              strict=True):
        assert folder not in response.text, path


def test_a_database_damaged_under_the_site_gets_a_page_that_says_so(bundled_db, tmp_path):
    path = tmp_path / "rules.db"
    shutil.copyfile(bundled_db, path)
    site = Reloading(path)
    good, = fetch(site, ("GET", "/cr-2025-06-06-chapter7/702.19"))
    assert good.status_code == 200
    damaged = tmp_path / ".rules.db.new"
    damaged.write_bytes(os.urandom(100_000))
    os.replace(damaged, path)  # as a writer gone wrong would put it
    pages = fetch(site, ("GET", "/cr-2025-06-06-chapter7/702.19"), ("GET", "/"),
                  ("GET", "/rules/rules.json"))
    message = ("rules.db: not a database (file is not a database). The site answers again "
               "once the database is built again (rulesdb build).")
    assert [p.status_code for p in pages] == [503, 503, 503]
    assert message in pages[0].text and "The rules database cannot be read" in pages[0].text
    assert pages[2].json() == {"ok": False, "error": message, "status": 503,
                               "title": "The rules database cannot be read"}
    assert str(tmp_path) not in pages[0].text
    shutil.copyfile(bundled_db, damaged)
    os.replace(damaged, path)
    again, = fetch(site, ("GET", "/cr-2025-06-06-chapter7/702.19"))
    assert again.status_code == 200


def test_an_empty_file_under_the_site_is_not_a_rules_database(bundled_db, tmp_path):
    path = tmp_path / "rules.db"
    shutil.copyfile(bundled_db, path)
    site = Reloading(path)
    fetch(site, ("GET", "/"))
    empty = tmp_path / ".rules.db.new"
    empty.write_bytes(b"")
    os.replace(empty, path)
    page, = fetch(site, ("GET", "/"))
    assert page.status_code == 503
    assert ("rules.db: not a rulesdb database (it has no documents table). The site answers "
            "again") in page.text


def test_a_query_past_the_bounds_is_an_error_page_not_a_failure(ds):
    """Too long a program: SQLite says "out of memory"; the page says what it means."""
    column = "length(upper(upper(upper(upper(upper(x))))))"
    sql = "select " + ", ".join([column] * 199) + " from (select 'a' as x)"
    response, = fetch(ds.app(), ("GET", "/rules.json?" + urlencode({"sql": sql})))
    assert response.status_code == 400
    assert response.json()["title"] == "Query too large"
