"""One vocabulary for the versions of a history: the site's page, its feed and `rulesdb history`
call each version's change by the same word (rulesdb.lineage.changes.Step.label), a heading
whose own words stayed while its subrules changed included."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import click
import pytest

from rulesdb.site.serve import make_datasette

from edition_helpers import make_db, run
from test_site import get

A, B, C = "cr-2024-01-01", "cr-2024-06-01", "cr-2025-01-01"
NS = {"a": "http://www.w3.org/2005/Atom"}
CLI_HEAD = re.compile(r"^(\S+)  (.+?)  \[([^\]]+)\]")
FEED_TITLE = re.compile(r"^(?:\S+ → )?\S+ (.+) in (\S+)$")  # "702.2 → 702.3 renumbered in D"
FIRST = re.compile(r"^\S+ in (\S+): first version in this database$")


def site_labels(ds, doc: str, number: str) -> dict[str, str]:
    """{edition: label} of the rows of a history page."""
    page = get(ds, f"/{doc}/{number}/history")
    assert page.status_code == 200
    row = r'<tbody class="version" id="v-([^"]+)">.*?<span class="meta">([^<]*)</span>'
    return dict(re.findall(row, page.text, re.S))


def feed_labels(ds, doc: str, number: str) -> dict[str, str]:
    """{edition: label} of a history's feed (the first version says "first")."""
    feed = ET.fromstring(get(ds, f"/{doc}/{number}/history.atom").content)
    found = {}
    for entry in feed.findall("a:entry", NS):
        title = entry.find("a:title", NS).text
        first = FIRST.match(title)
        if first:
            found[first[1]] = "first"
        else:
            label, edition = FEED_TITLE.match(title).groups()
            found[edition] = label
    return found


def cli_labels(db, number: str, doc: str) -> dict[str, str]:
    """{edition: label} of the versions `rulesdb history` prints (related texts left out)."""
    result = run("history", number, "--doc", doc, "--db", str(db))
    assert result.exit_code == 0, result.output
    found = {}
    for line in map(click.unstyle, result.output.splitlines()):
        head = CLI_HEAD.match(line)
        if head and head[3] != "related":
            found[head[1]] = head[3]
    return found


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    return make_db(tmp_path_factory.mktemp("labels"))


def test_a_heading_whose_subrules_changed_says_so_everywhere(db):
    """702.19 prints "Trample" in every edition; its subrule 702.19a changed twice."""
    ds = make_datasette(db)
    expected = {A: "first", B: "subrules changed", C: "subrules changed"}
    assert site_labels(ds, C, "702.19") == expected
    assert feed_labels(ds, C, "702.19") == expected
    assert cli_labels(db, "702.19", C) == expected


def test_a_renumbered_rule_is_called_so_everywhere(db):
    ds = make_datasette(db)
    expected = {A: "first", B: "renumbered"}  # Deathtouch 702.2 → 702.3; C repeats B
    assert site_labels(ds, C, "702.3") == expected
    assert feed_labels(ds, C, "702.3") == expected
    assert cli_labels(db, "702.3", C) == expected


def test_trample_at_full_history_says_the_same_on_the_site_and_in_the_terminal(history_db):
    """The row of cr-2003-07-01 said "unchanged" on the site while 502.9a gained a reference
    and 502.9d was removed (issue 32)."""
    ds = make_datasette(history_db)
    site = site_labels(ds, "cr-2026-01-16", "702.19")
    assert site["cr-2003-07-01"] == "subrules changed"
    assert "unchanged" not in site.values()
    assert site == cli_labels(history_db, "702.19", "cr-2026-01-16")
    assert site == feed_labels(ds, "cr-2026-01-16", "702.19")
