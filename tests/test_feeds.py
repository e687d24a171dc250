"""The site's Atom feeds (/changes.atom, /{doc}/{number}/history.atom), each edition's release
notes, the renumbering list of a diff and the pairs set by hand, in-process on a database of
three small releases (and on the full history for what must hold at its size)."""

from __future__ import annotations

import json
import sqlite3
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest

from rulesdb.site.serve import make_datasette

from edition_helpers import make_db, run
from test_site import get

A, B, C = "cr-2024-01-01", "cr-2024-06-01", "cr-2025-01-01"
NS = {"a": "http://www.w3.org/2005/Atom"}
OVERRIDES = f"{A} 702.19a = {B} 702.19a  # the same trample rule, reworded\n"


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    return make_db(tmp_path_factory.mktemp("feeds"), overrides=OVERRIDES)


@pytest.fixture(scope="module")
def ds(db):
    return make_datasette(db)


def atom(response) -> ET.Element:
    """The feed of a response, checked for what Atom 1.0 requires of a feed and its entries."""
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/atom+xml; charset=utf-8"
    feed = ET.fromstring(response.content)
    assert feed.tag == "{http://www.w3.org/2005/Atom}feed"
    for element in (feed, *feed.findall("a:entry", NS)):
        for tag in ("id", "title", "updated"):
            assert len(element.findall(f"a:{tag}", NS)) == 1, tag
            assert element.find(f"a:{tag}", NS).text
        assert element.find("a:id", NS).text.startswith("urn:uuid:")
        assert element.find("a:updated", NS).text.endswith("T00:00:00Z")
    assert feed.find("a:author/a:name", NS).text
    for entry in feed.findall("a:entry", NS):
        links = entry.findall("a:link[@rel='alternate']", NS)
        assert len(links) == 1 and links[0].get("href").startswith("http://localhost/")
    ids = [e.find("a:id", NS).text for e in feed.findall("a:entry", NS)]
    assert len(set(ids)) == len(ids)
    return feed


def entries(feed: ET.Element) -> list[tuple[str, str, str, str]]:
    """(title, updated, link path, summary) per entry."""
    return [(e.find("a:title", NS).text, e.find("a:updated", NS).text,
             e.find("a:link", NS).get("href").removeprefix("http://localhost"),
             e.find("a:summary", NS).text) for e in feed.findall("a:entry", NS)]


def test_the_feed_of_releases_has_an_entry_per_edition_newest_first(ds):
    feed = atom(get(ds, "/changes.atom"))
    assert feed.find("a:updated", NS).text == "2025-01-01T00:00:00Z"
    assert [(updated, link, summary) for _, updated, link, summary in entries(feed)] == [
        ("2025-01-01T00:00:00Z", f"/diff/{B}/{C}", f"Against {B}: 1 edited, 1 added"),
        ("2024-06-01T00:00:00Z", f"/diff/{A}/{B}",
         f"Against {A}: 2 edited, 4 renumbered, 2 added, 1 removed"),
        ("2024-01-01T00:00:00Z", f"/{A}", "14 rules: the first edition in this database")]


def test_the_counts_of_the_feed_are_those_of_the_diff(ds, db):
    feed = atom(get(ds, "/changes.atom"))
    summary = entries(feed)[1][3]
    counts = json.loads(run("diff", A, B, "--json", "--db", str(db)).output)["counts"]
    assert summary == f"Against {A}: " + ", ".join(f"{n} {op}" for op, n in counts.items())


def test_entry_ids_stay_the_same_in_another_build(ds, tmp_path):
    other = make_datasette(make_db(tmp_path, overrides=OVERRIDES))
    for path in ("/changes.atom", f"/{B}/702.19a/history.atom"):
        ids = [[e.find("a:id", NS).text for e in atom(get(site, path)).iter(
            "{http://www.w3.org/2005/Atom}entry")] for site in (ds, other)]
        assert ids[0] == ids[1]


def test_a_rules_feed_has_an_entry_per_version_that_changed(ds):
    feed = atom(get(ds, f"/{C}/702.19a/history.atom"))
    assert feed.find("a:link[@rel='self']", NS).get("href") == (
        f"http://localhost/{C}/702.19a/history.atom")
    assert [(title, updated, link) for title, updated, link, _ in entries(feed)] == [
        (f"702.19a edited in {C}", "2025-01-01T00:00:00Z", f"/{C}/702.19a"),
        (f"702.19a edited in {B}", "2024-06-01T00:00:00Z", f"/{B}/702.19a"),
        (f"702.19a in {A}: first version in this database", "2024-01-01T00:00:00Z",
         f"/{A}/702.19a")]
    assert entries(feed)[1][3] == "Set by hand: the same trample rule, reworded"
    content = feed.findall("a:entry", NS)[0].find("a:content", NS)
    assert content.get("type") == "html" and "<ins>or planeswalker</ins>" in content.text


def test_a_rule_left_unchanged_gives_one_entry_and_a_missing_rule_none(ds):
    feed = atom(get(ds, f"/{C}/100.1/history.atom"))
    assert [title for title, *_ in entries(feed)] == [
        f"100.1 in {A}: first version in this database"]
    assert get(ds, f"/{C}/999.9/history.atom").status_code == 404


class Links(HTMLParser):
    """The feeds a page announces, and its links."""

    def __init__(self) -> None:
        super().__init__()
        self.feeds: list[str] = []
        self.hrefs: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "link" and attrs.get("rel") == "alternate" \
                and attrs.get("type") == "application/atom+xml":
            self.feeds.append(attrs["href"])
        if tag == "a":
            self.hrefs.append(attrs.get("href"))


def links(response) -> Links:
    assert response.status_code == 200
    parser = Links()
    parser.feed(response.text)
    return parser


@pytest.mark.parametrize(("path", "feeds"), [
    ("/", ["/changes.atom"]),
    (f"/{B}", ["/changes.atom"]),
    (f"/diff/{A}/{B}", ["/changes.atom"]),
    (f"/{B}/702.19a", ["/changes.atom", f"/{B}/702.19a/history.atom"]),
    (f"/{B}/702.19a/history", ["/changes.atom", f"/{B}/702.19a/history.atom"]),
])
def test_pages_announce_their_feeds(ds, path, feeds):
    assert links(get(ds, path)).feeds == feeds
    for feed in feeds:
        atom(get(ds, feed))


def test_an_editions_page_shows_what_it_changed(ds):
    page = get(ds, f"/{B}")
    assert page.status_code == 200
    notes = page.text[page.text.index('<section class="release-notes">'):
                      page.text.index("</section>")]
    parser = Links()
    parser.feed(notes)
    base = f"/diff/{A}/{B}"
    assert parser.hrefs == [
        f"/{A}", f"{base}?change=edited", f"{base}?change=renumbered", f"{base}?change=added",
        f"{base}?change=removed", base, f"{base}/renumbered", "/changes.atom",
        f"/{B}/702.19a", f"/{B}/702.19a/history", f"/{B}/100.2", f"/{B}/100.2/history"]
    assert "2 edited</a>, <a" in notes and "26 words changed" in notes
    assert "set by hand" in notes
    assert all(r.status_code == 200 for r in get(ds, *parser.hrefs))


def test_the_first_edition_has_no_release_notes(ds):
    assert 'class="release-notes"' not in get(ds, f"/{A}").text


def test_the_diff_page_links_the_renumbering_list_and_marks_pairs_set_by_hand(ds):
    page = get(ds, f"/diff/{A}/{B}")
    assert f"/diff/{A}/{B}/renumbered" in links(page).hrefs
    assert "set by hand: the same trample rule, reworded" in page.text
    listing, csv, data = get(ds, f"/diff/{A}/{B}/renumbered", f"/diff/{A}/{B}/renumbered.csv",
                             f"/diff/{A}/{B}/renumbered.json")
    assert [h for h in links(listing).hrefs if h.startswith(f"/{B}/")] == [
        f"/{B}/702.3", f"/{B}/702.3a", f"/{B}/702.4", f"/{B}/702.4a"]
    assert csv.headers["content-type"] == "text/csv; charset=utf-8"
    assert csv.text.splitlines()[1:] == ["702.2,702.3,,,", "702.2a,702.3a,,,",
                                         "702.3,702.4,,,", "702.3a,702.4a,,,"]
    assert [(c["old"], c["new"]) for c in data.json()["renumbered"]] == [
        ("702.2", "702.3"), ("702.2a", "702.3a"), ("702.3", "702.4"), ("702.3a", "702.4a")]
    assert get(ds, f"/diff/{A}/cr-2099-01-01/renumbered").status_code == 404


def test_feeds_and_release_notes_at_full_history(history_db):
    site = make_datasette(history_db)
    feed = atom(get(site, "/changes.atom"))
    found = entries(feed)
    conn = sqlite3.connect(history_db)
    editions = [row[0] for row in conn.execute(
        "SELECT id FROM documents WHERE kind = 'comprehensive_rules' AND superseded_by IS NULL")]
    conn.close()
    assert len(found) == len(editions) >= 115
    assert [updated for _, updated, _, _ in found] == sorted(
        (updated for _, updated, _, _ in found), reverse=True)
    assert atom(get(site, "/cr-2025-02-07/702.19/history.atom")).findall("a:entry", NS)
    page = get(site, "/cr-2025-02-07")
    notes = page.text[page.text.index('<section class="release-notes">'):]
    assert notes.count("words changed") == 10


def test_a_database_made_before_the_counts_serves_its_pages_without_notes(db, tmp_path):
    old = tmp_path / "old.db"
    old.write_bytes(db.read_bytes())
    conn = sqlite3.connect(old)
    conn.execute("DROP TABLE edition_edits")
    conn.execute("DROP TABLE edition_changes")
    conn.commit()
    conn.close()
    site = make_datasette(old)
    page = get(site, f"/{B}")
    assert page.status_code == 200 and 'class="release-notes"' not in page.text
    assert entries(atom(get(site, "/changes.atom"))) == []


def test_the_home_page_and_the_diff_chooser_say_what_each_pair_changed(ds):
    for page in get(ds, "/", "/diff"):
        assert (f'<a href="/diff/{A}/{B}">{A} → {B}</a> (2 edited, 4 renumbered, 2 added, '
                "1 removed)") in page.text
        assert f'<a href="/diff/{B}/{C}">{B} → {C}</a> (1 edited, 1 added)' in page.text
