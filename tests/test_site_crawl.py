"""The whole site crawled and fuzzed in-process on the bundled database (issue 33): every
internal link leads to a page, no page is a server error or weighs more than 1 MB, and no
hostile URL gets a server error or its markup echoed unescaped. (Times are measured by
benchmarks/crawl.py on the full history, not here.)"""

from __future__ import annotations

import pytest

from rulesdb.site import crawl, fuzz
from rulesdb.site.serve import load_metadata, make_datasette

from test_site import get

MAX_BYTES = 1_000_000
# every kind of page the bundled database has, and so the crawl must reach
KINDS = {"home", "search", "releases feed", "diff chooser", "diff", "diff page",
         "renumbered list", "contents", "glossary", "glossary entry", "history",
         "chapter history", "section history", "history step", "history feed", "chapter feed",
         "section feed", "chapter", "section", "rule", "subrule", "rulings or rulebook item",
         "static file", "database", "table", "table json", "table csv", "row"}


@pytest.fixture(scope="module")
def site(bundled_db):
    return make_datasette(bundled_db)


@pytest.fixture(scope="module")
def crawled(site):
    return crawl.crawl(fuzz.in_process(site), ["/", "/search?q=trample"], per_kind=6,
                       limits={"table": 30, "row": 10}, focus=["cr-2025-06-06-chapter7"])


def test_the_crawl_reaches_every_kind_of_page(crawled):
    assert KINDS - set(crawled.kinds()) == set()
    assert "other" not in crawled.kinds(), [p.path for p in crawled.pages if p.kind == "other"]
    assert crawled.downloads == {"/rules.db"}


def test_the_crawl_finds_no_server_error_no_broken_link_and_no_page_too_large(crawled):
    assert [(p.path, p.status) for p in crawled.errors()] == []
    assert [(p.path, p.status, p.referrer) for p in crawled.broken()] == []
    assert [(p.path, p.size) for p in crawled.large(MAX_BYTES)] == []


def test_no_page_of_the_rules_site_shows_a_raw_label(crawled, site):
    """The rules site's pages and feeds print the lineage's words ("renumbered and edited"),
    never its raw labels; the crawl read pages that needed them."""
    assert crawled.raw == {}
    for path in ("/cr-2025-06-06-chapter7/702.19b/history",
                 "/diff/cr-2009-02-01-flattened/cr-2025-06-06-chapter7",
                 "/cr-2025-06-06-chapter7/702.19b/history.atom"):
        answer = fuzz.in_process(site)(path)
        assert "renumbered and edited" in crawl.shown_text(answer), path


def test_the_raw_label_check_reads_what_a_reader_sees():
    page = ('<p>502.9 <span class="change-renumbered_edited">renumbered_edited</span> '
            '<a href="/diff/a/b?change=outside_coverage">renumbered and edited</a> '
            '<a title="title_variant" href="/x">x</a></p><style>.renumbered_edited{}</style>')
    feed = ('<feed><entry><title>702.19b renumbered_edited in cr-2</title><content '
            'type="html">&lt;a href="/d?change=outside_coverage"&gt;x&lt;/a&gt;</content>'
            '<link href="/x?renumbered_edited"/></entry></feed>')
    assert crawl.raw_labels(fuzz.Answer(200, "text/html", page.encode(), 0.1)) == [
        "renumbered_edited", "title_variant"]
    assert crawl.raw_labels(fuzz.Answer(200, "application/atom+xml", feed.encode(), 0.1)) \
        == ["renumbered_edited"]
    assert crawl.raw_labels(fuzz.Answer(200, "text/csv", b"renumbered_edited", 0.1)) == []
    found = crawl.crawl(lambda path: fuzz.Answer(200 if path == "/" else 404, "text/html",
                                                 page.encode(), 0.1))
    assert found.raw == {"/": ["renumbered_edited", "title_variant"]}


def test_every_chapter_and_section_of_the_focus_edition_is_crawled_with_its_history(
        crawled, bundled_db):
    import sqlite3

    conn = sqlite3.connect(bundled_db)
    numbers = [row[0] for row in conn.execute(
        "SELECT number FROM rule_rows WHERE document = 'cr-2025-06-06-chapter7' "
        "AND kind IN ('chapter', 'section')")]
    fetched = {p.path for p in crawled.pages if p.status == 200}
    for number in numbers:
        base = f"/cr-2025-06-06-chapter7/{number}"
        assert {base, f"{base}/history", f"{base}/history.atom"} <= fetched, number


def test_a_crawl_finds_what_is_wrong():
    """The checks can fail: a site with a broken link, a server error and a large page."""
    pages = {"/": (200, '<a href="/a">a</a> <a href="/b">b</a> <a href="/c">c</a>'),
             "/a": (500, ""), "/b": (404, ""), "/c": (200, "x" * (MAX_BYTES + 1))}

    def fetch(path):
        status, body = pages[path]
        return fuzz.Answer(status, "text/html", body.encode(), 0.01)

    found = crawl.crawl(fetch)
    assert [p.path for p in found.errors()] == ["/a"]
    assert [p.path for p in found.broken()] == ["/b"]
    assert [p.path for p in found.large(MAX_BYTES)] == ["/c"]


def test_fuzzed_urls_get_no_server_error_and_no_echo(site, bundled_db):
    vocabulary = fuzz.Vocabulary.read(bundled_db, load_metadata())
    report = fuzz.run(fuzz.in_process(site), vocabulary, 400, seed=33, max_seconds=60)
    assert report.urls == 400
    assert [(f.path, f.status) for f in report.problems("server error")] == []
    assert [f.path for f in report.problems("input echoed")] == []
    assert report.statuses[200] > 50 and report.statuses[400] > 20  # both kinds of answer


def test_the_echo_check_finds_markup_of_the_url():
    path = "/search?q=%27%22%3E%3Cx-fz7%3E"
    raw = fuzz.Answer(200, "text/html; charset=utf-8", b"<p>'\"><x-fz7></p>", 0.1)
    escaped = fuzz.Answer(200, "text/html", b"<p>&#39;&#34;&gt;&lt;x-fz7&gt;</p>", 0.1)
    as_json = fuzz.Answer(400, "application/json", b'{"error": "<x-fz7>"}', 0.1)
    assert fuzz.echoed(raw, path) and not fuzz.echoed(escaped, path)
    assert not fuzz.echoed(as_json, path)


@pytest.mark.parametrize(("path", "status"), [
    ("/rules/rules?_sort=no_such_column", 400),  # Datasette answered 500
    ("/rules/rules?_sort_desc=no_such_column", 400),
    ("/rules/rules?_sort=id&_sort_desc=id", 400),
    ("/rules/rules?_through=x", 400),
    ("/rules/rules?_through=%7B%7D", 400),
    ("/rules/rules?_timelimit=soon", 400),
    ("/rules/rule?number=1&edition=&_timelimit=soon", 400),
    ("/rules?sql=select+1&_timelimit=soon", 400),
    ("/rules/rules?text%00=1", 400),
    ("/rules/rules?_size=-1", 400),
    ("/rules/rules?_size=100000", 400),
    ("/rules/rules?_facet=no_such_column", 400),
    ("/rules/rules?_search=%22", 400),
    ("/rules/rules?_next=zzz", 400),
    ("/rules/no_such_table", 404),
    ("/rules/rules/999999999", 404),
    ("/rules/term_forms/trample", 404),  # a key of two columns: Datasette failed to bind it
    ("/search?q=tr%00ample", 400),
    ("/search?q=trample&doc=cr-1900-01-01", 404),
    ("/search?q=trample&doc=%3Cb%3E", 400),
    ("/search?q=%22unterminated+NEAR(", 200),
    ("/search?q=" + "a" * 5000, 200),  # read up to 1,000 characters, and says so
    ("/diff?old=x&new=y", 400),
    ("/diff/cr-2009-02-01-flattened/cr-2025-06-06-chapter7?page=0", 400),
    ("/diff/cr-2009-02-01-flattened/cr-2025-06-06-chapter7?page=abc", 400),
    ("/diff/cr-2009-02-01-flattened/cr-2025-06-06-chapter7?page=999", 404),
    ("/diff/cr-2009-02-01-flattened/cr-2025-06-06-chapter7?change=bogus", 400),
    ("/diff/cr-2009-02-01-flattened/cr-1900-01-01", 404),
    ("/cr-2025-06-06-chapter7/702/history?page=x", 400),
    ("/cr-2025-06-06-chapter7/702/history?step=cr-1900-01-01", 404),
    ("/cr-2025-06-06-chapter7/9999/history", 404),
    ("/cr-1900-01-01/702", 404),
])
def test_a_visitors_mistake_is_a_400_or_404_never_a_500(site, path, status, capsys):
    assert get(site, path).status_code == status
    as_json = path.split("?")[0]
    if as_json.startswith("/rules/") or as_json == "/rules":
        response = get(site, path.replace(as_json, as_json + ".json", 1))
        assert response.status_code == status
        assert response.json()["status"] == status and response.json()["error"]
    assert "Traceback" not in "".join(capsys.readouterr())  # nothing printed: not a bug


def test_at_full_history_no_page_shows_a_raw_label(history_db):
    """A few pages of each kind of the full history, the summed-up histories whose related
    texts were linked by a variant of their name (508, 509 of cr-2026-01-16) among them."""
    site = make_datasette(history_db)
    seeds = ["/", "/cr-2026-01-16/508/history", "/cr-2003-03-15/308/history",
             "/cr-2026-01-16/702.19b/history", "/diff/cr-2023-10-13/cr-2025-02-07"]
    found = crawl.crawl(fuzz.in_process(site), seeds, per_kind=4, most=250)
    assert found.raw == {}
    shown = crawl.shown_text(fuzz.in_process(site)("/cr-2026-01-16/508/history"))
    assert "a variant of the name" in shown
