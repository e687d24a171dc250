"""The rules site in Datasette, tested in-process: canned queries, pages, links, safety."""

from __future__ import annotations

import asyncio
import re
import shutil
import sqlite3
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
import sqlite_utils

from rulesdb.db.fts import ensure_fts
from rulesdb.db.store import digest
from rulesdb.site.render import Span, linked, slug
from rulesdb.site.serve import make_datasette


@pytest.fixture(scope="module")
def db_path(bundled_db):
    return bundled_db


@pytest.fixture(scope="module")
def ds(db_path):
    return make_datasette(db_path)


@pytest.fixture(scope="module")
def doctored(db_path, tmp_path_factory):
    """A copy of the database with hostile text and rows of the terms and engine layers."""
    path = tmp_path_factory.mktemp("doctored") / "doctored.db"
    shutil.copy(db_path, path)
    conn = sqlite3.connect(path)
    rule_id = conn.execute("SELECT id FROM rules WHERE document = 'cr-2025-06-06-chapter7' "
                           "AND number = '702.19d'").fetchone()[0]
    conn.execute("DELETE FROM term_uses WHERE rule_id = ?", [rule_id])
    hostile = 'Blocked <script>alert("x")</script> & <b>bold</b> creature'
    conn.execute("INSERT INTO texts (id, digest, text) VALUES (-1, ?, ?)",
                 [digest(hostile), hostile])
    conn.execute("UPDATE rule_rows SET text_id = -1 WHERE id = ?", [rule_id])
    trample = conn.execute("SELECT id FROM glossary WHERE document = 'cr-2009-02-01-flattened' "
                           "AND term = 'Trample'").fetchone()[0]
    conn.execute("INSERT INTO term_spans (set_id, position, start, end, text, term) "
                 "VALUES (-1, 0, 0, 7, 'Blocked', 'Trample')")
    conn.execute("INSERT INTO term_uses (document, rule_id, set_id) "
                 "VALUES ('cr-2025-06-06-chapter7', ?, -1)", [rule_id])
    conn.execute("UPDATE glossary SET definition = definition || ' <img src=x onerror=alert(1)>' "
                 "WHERE id = ?", [trample])
    conn.execute("INSERT INTO engines (name, kind, path, edition, files, skipped, scanned_at) "
                 "VALUES ('reference', 'builtin', 'rulesdb/engine', 'cr-2025-06-06-chapter7', 1, "
                 "0, '')")
    conn.execute("INSERT INTO engine_citations (engine, file, line, function, cited, number, "
                 "edition, rule_id, status) VALUES ('reference', 'rulesdb/engine/combat.py', 42, "
                 "'assign_trample_damage', '702.19d', '702.19d', 'cr-2025-06-06-chapter7', ?, "
                 "'ok')",
                 [rule_id])
    conn.commit()
    conn.close()
    db = sqlite_utils.Database(path)
    ensure_fts(db)  # the full-text indexes read the doctored rows
    db.conn.commit()
    return make_datasette(path)


def get(ds, *paths):
    """Responses for the paths, fetched in one event loop."""
    async def run():
        return [await ds.client.get(path) for path in paths]
    responses = asyncio.run(run())
    return responses if len(paths) > 1 else responses[0]


def rows(ds, query, **params):
    params = {"_shape": "array", **params}
    path = f"/rules/{query}.json?" + "&".join(f"{k}={v}" for k, v in params.items())
    response = get(ds, path)
    assert response.status_code == 200, response.text
    return response.json()


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag, attrs):
        href = dict(attrs).get("href")
        if tag == "a" and href:
            self.hrefs.append(href)


def links(html: str) -> list[str]:
    parser = Links()
    parser.feed(html)
    return parser.hrefs


def content(html: str) -> str:
    return html[html.index('<section class="content">'):html.index("</section>")]


# canned queries ---------------------------------------------------------------------------

PAGES = [
    ("/", ["The rules of Magic: The Gathering", 'href="/cr-2025-06-06-chapter7"',
           'href="/cr-2009-02-01-flattened/glossary"',
           'href="/diff/cr-2009-02-01-flattened/cr-2025-06-06-chapter7"',
           'href="/diff"', 'action="/search"', 'href="/rules/search"', "/history"]),
    ("/cr-2025-06-06-chapter7", ['href="/cr-2025-06-06-chapter7/702"',
                                 'href="/cr-2025-06-06-chapter7/702.19"',
                        "covers 700-731"]),
    ("/cr-2025-06-06-chapter7/702.19", ["702.19 Trample", 'href="/cr-2025-06-06-chapter7/702.19b"',
                               'class="example"', 'href="/cr-2025-06-06-chapter7/702"',
                               'href="/cr-2009-02-01-flattened/502.9"',
                               'href="/cr-2025-06-06-chapter7/702.19/history"']),
    ("/cr-2025-06-06-chapter7/702", ['href="/cr-2025-06-06-chapter7/702.19"', "Keyword Abilities"]),
    ("/cr-2025-06-06-chapter7/702.19/history", ['href="/cr-2009-02-01-flattened/502.9"',
                                                "renumbered",
                                       'href="/rulings-1999-04/A.27"']),
    ("/cr-2009-02-01-flattened/glossary", ['href="/cr-2009-02-01-flattened/glossary/trample"']),
    ("/cr-2009-02-01-flattened/glossary/trample", ["Trample",
                                                   'href="/rulebook-2005/glossary/trample"',
                                         'href="/cr-2009-02-01-flattened/502.9']),
    ("/rulings-1999-04/A.1.1", ["D’Angelo", "1998-02-03", 'href="/rulings-1999-04/A.1"']),
    ("/rulebook-1995/s2-expanding-your-knowledge.color", ["Color"]),
    ("/search?q=trample+damage", ["<mark>", 'href="/cr-2025-06-06-chapter7/702.19']),
    ("/search?q=trample&doc=rulebook-2005", ['href="/rulebook-2005/']),
    ("/diff", ['href="/diff/cr-2009-02-01-flattened/cr-2025-06-06-chapter7"', 'name="old"']),
    ("/diff/cr-2009-02-01-flattened/cr-2025-06-06-chapter7?change=renumbered_edited",
     ["<del>", "<ins>", 'href="/cr-2025-06-06-chapter7/', 'href="/cr-2009-02-01-flattened/']),
    ("/diff/cr-2025-06-06-chapter7/cr-2009-02-01-flattened", ["computed", "added"]),
    ("/robots.txt", ["Disallow: /"]),
]


@pytest.mark.parametrize(("path", "expected"), PAGES)
def test_page_status_and_content(ds, path, expected):
    response = get(ds, path)
    assert response.status_code == 200, response.text[:500]
    for fragment in expected:
        assert fragment in response.text, fragment


@pytest.mark.parametrize("path", ["/cr-2025-06-06-chapter7/999.9", "/cr-1900-01-01/1",
                                  "/cr-2009-02-01-flattened/glossary/no-such-term",
                                  "/cr-2025-06-06-chapter7/999.9/history",
                                  "/diff/cr-2009-02-01-flattened/cr-1900-01-01", "/cr-1900-01-01"])
def test_missing_things_are_404(ds, path, capsys):
    response = get(ds, path)
    assert response.status_code == 404
    assert "Not Found" in response.text or "not found" in response.text.lower()
    # a 404 is the visitor's slip: nothing is printed where `rulesdb serve` runs
    assert "Traceback" not in "".join(capsys.readouterr())


@pytest.mark.parametrize("path", ["/no-such-db", "/rules/no_such_table", "/rules/no_such.json"])
def test_datasette_404s_print_no_traceback(ds, path, capsys):
    response = get(ds, path)
    assert response.status_code == 404
    if path.endswith(".json"):
        assert response.json()["status"] == 404
    assert "Traceback" not in "".join(capsys.readouterr())


@pytest.mark.parametrize("path", [
    "/", "/cr-2025-06-06-chapter7/702.19", "/cr-2025-06-06-chapter7/702.19/history",
    "/cr-2009-02-01-flattened/glossary/trample", "/rulings-1999-04/A.27",
    "/search?q=first+strike", "/diff/cr-2009-02-01-flattened/cr-2025-06-06-chapter7",
    "/cr-2009-02-01-flattened/601.2",
])
def test_every_link_on_a_page_leads_to_an_existing_page(ds, path):
    hrefs = sorted({h for h in links(get(ds, path).text)
                    if h.startswith("/") and not h.startswith("/-/")})
    assert hrefs
    for href, response in zip(hrefs, get(ds, *hrefs) if len(hrefs) > 1 else [get(ds, *hrefs)],
                              strict=True):
        assert response.status_code == 200, href


def test_contents_links_resolve(ds):
    hrefs = [h for h in links(get(ds, "/cr-2009-02-01-flattened").text) if h.startswith("/cr-2009")]
    assert len(hrefs) > 40
    assert all(r.status_code == 200 for r in get(ds, *hrefs[::7]))


def test_cross_references_link_to_their_target_in_the_same_edition(ds):
    html = content(get(ds, "/cr-2025-06-06-chapter7/702.19").text)
    assert ('<a class="ref" href="/cr-2025-06-06-chapter7/702.19b" title="702.19b">'
            'rule 702.19b</a>') in html
    assert ('<span class="ref-outside_coverage" title="cr-2025-06-06-chapter7 contains only '
            '700-731">'
            'See rule 510</span>') in html
    older = content(get(ds, "/cr-2009-02-01-flattened/502.9").text)
    before_history = older.split("<h2>History</h2>")[0]
    assert 'href="/cr-2009-02-01-flattened/' in older
    assert 'href="/cr-2025-06-06-chapter7/' not in before_history


def test_glossary_terms_in_rule_text_link_to_their_entries(ds):
    html = content(get(ds, "/cr-2025-06-06-chapter7/702.19").text)
    assert re.search(r'<a class="term first" href="/cr-2009-02-01-flattened/glossary/[a-z-]+" '
                     r'title="glossary: [^"]+">', html)


def test_a_term_is_underlined_at_its_first_use_in_each_rule(ds):
    """702.19b says "creature" and "damage" again and again: each term's first link in the
    rule (its text, then its examples) is marked "first", the others are links too, and every
    rule of the page starts anew."""
    html = content(get(ds, "/cr-2025-06-06-chapter7/702.19").text)
    items = re.findall(r'<div class="rule-item" id="([^"]+)".*?</div>', html, re.S)
    assert len(items) > 5
    for item in re.findall(r'<div class="rule-item" id="[^"]+".*?</div>', html, re.S):
        terms = re.findall(r'<a class="term( first)?" href="([^"]+)"', item)
        firsts = [href for first, href in terms if first]
        assert sorted(firsts) == sorted({href for _, href in terms})
        for href in set(firsts):
            uses = [first for first, h in terms if h == href]
            assert uses[0] == " first" and " first" not in uses[1:]
    b = next(item for item in re.findall(r'<div class="rule-item" id="702.19b".*?</div>', html,
                                          re.S))
    damage = re.findall(r'<a class="term( first)?" href="[^"]+/glossary/damage"', b)
    assert damage[0] == " first" and len(damage) > 3


def test_the_first_use_mark_follows_the_links_kept_and_the_rule_across_its_examples():
    damage = "/d/glossary/damage"
    text = "see rule 1.1 damage and damage"
    used: set[int] = set()
    spans = [Span(0, 12, "/d/1.1", "1.1", "ref"), Span(4, 8, damage, "g", "term", 7),
             Span(13, 19, damage, "g", "term", 7), Span(24, 30, damage, "g", "term", 7)]
    html = linked(text, spans, used)
    assert html == ('<a class="ref" href="/d/1.1" title="1.1">see rule 1.1</a> '
                    f'<a class="term first" href="{damage}" title="g">damage</a> and '
                    f'<a class="term" href="{damage}" title="g">damage</a>')
    assert used == {7}
    example = linked("damage", [Span(0, 6, damage, "g", "term", 7)], used)
    assert example == f'<a class="term" href="{damage}" title="g">damage</a>'


def test_breadcrumbs_climb_the_tree(ds):
    html = get(ds, "/cr-2009-02-01-flattened/502.9a").text
    crumbs = html[html.index('<p class="crumbs">'):].split("</p>")[0]
    assert links(crumbs) == ["/", "/cr-2009-02-01-flattened", "/cr-2009-02-01-flattened/5",
                             "/cr-2009-02-01-flattened/502",
                             "/cr-2009-02-01-flattened/502.9"]


def test_search_box_on_every_page(ds):
    for path in ["/", "/cr-2025-06-06-chapter7/702.19", "/rules", "/rules/rules", "/diff"]:
        assert 'class="rulesdb-search" action="/search"' in get(ds, path).text, path


# safety -----------------------------------------------------------------------------------

def test_script_in_a_rule_text_renders_as_text(doctored):
    html = get(doctored, "/cr-2025-06-06-chapter7/702.19d").text
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;" in html
    assert '<a class="term first" href="/cr-2009-02-01-flattened/glossary/trample"' in html
    search = get(doctored, "/search?q=alert").text
    assert "<script>alert" not in search and "&lt;script&gt;" in search
    glossary = get(doctored, "/cr-2009-02-01-flattened/glossary/trample").text
    assert "<img src=x" not in glossary and "&lt;img src=x onerror=alert(1)&gt;" in glossary


def test_engine_functions_show_on_the_rule_and_its_parent(doctored):
    for path in ["/cr-2025-06-06-chapter7/702.19d", "/cr-2025-06-06-chapter7/702.19"]:
        html = get(doctored, path).text
        assert "<code>assign_trample_damage</code>" in html
        assert "rulesdb/engine/combat.py:42" in html


def test_read_only_with_a_time_limit_and_robots_blocked(ds):
    assert ds.databases["rules"].is_mutable is False
    settings = get(ds, "/-/settings.json").json()
    assert settings["sql_time_limit_ms"] == 1000
    response = get(ds, "/rules.json?sql=delete+from+rules")
    assert response.status_code == 400
    assert get(ds, "/rules.json?sql=select+count(*)+from+rules&_shape=array").json() \
        == [{"count(*)": 5080}]  # the seeds and the judges' three documents
    assert 'name="robots" content="noindex, nofollow"' in get(ds, "/").text


def test_linked_escapes_everything_outside_and_inside_spans():
    text = "<i>a</i> see rule 1.1 & more"
    html = linked(text, [Span(9, 21, "/d/1.1?x=<y>", "1.1", "ref"),
                         Span(10, 12, "/ignored", "x", "term")])
    assert html == ('&lt;i&gt;a&lt;/i&gt; <a class="ref" href="/d/1.1?x=&lt;y&gt;" title="1.1">'
                    'see rule 1.1</a> &amp; more')


@pytest.mark.parametrize(("term", "expected"), [
    ("Active Player, Nonactive Player Order", "active-player-nonactive-player-order"),
    ("Snow-Covered", "snow-covered"), ("{T}", "t"), ("Mana  Pool", "mana-pool"),
    ("★/★", "u2605-u002f-u2605")])  # the rulebook's power/toughness entry had no page
def test_slug(term, expected):
    assert slug(term) == expected


def test_urls_are_stable_for_any_database_file_name(ds):
    assert urlsplit(rows(ds, "rule", number="702.19", edition="")[0]["url"]).path == \
        "/cr-2025-06-06-chapter7/702.19"


def test_search_at_full_history_shows_each_wording_once_by_its_newest_edition(history_db):
    """110 editions print 'Trample': the page lists it once, by the newest, and says where
    else; a rule number goes to its rule."""
    full = make_datasette(history_db)
    page = get(full, "/search?q=trample").text
    hits = re.findall(r'<li><a href="(/[^"]+)">[^<]*</a> <span class="meta">(\w+)', page)
    assert len(hits) == len(set(hits)) > 10  # an example links to its rule's page
    links = [link for link, _ in hits]
    numbers = [link.rsplit("/", 1)[1] for link in links if "/glossary/" not in link]
    assert numbers.count("702.19") == 1 and "/cr-2026-01-16/702.19" in links
    assert "/cr-2026-01-16/glossary/trample" in links
    assert re.search(r"the same in \d+ more editions, cr-20\d\d-\d\d-\d\d … cr-2025-11-14", page)
    found = asyncio.run(full.client.get("/search?q=702.19b"))
    assert found.status_code == 302 and found.headers["location"] == "/cr-2026-01-16/702.19b"
