"""The judges' documents on the rules site: every section a page with its breadcrumbs, its
lists laid out, its links to the other documents; an infraction's penalty, and the table of
infractions filtered by penalty."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from rulesdb.site.serve import make_datasette


@pytest.fixture(scope="module")
def ds(bundled_db):
    return make_datasette(bundled_db)


def get(ds, path: str):
    return asyncio.run(ds.client.get(path))


def test_every_section_of_the_judges_documents_has_its_page(ds, bundled_db) -> None:
    with sqlite3.connect(bundled_db) as conn:
        pages = conn.execute("SELECT document, number FROM rules WHERE document IN "
                             "('mtr-2026-02-27', 'mtr-2025-11-10', 'ipg-2024-09-23')").fetchall()
    assert len(pages) == 104 + 103 + 36
    for doc, number in pages[::7]:
        assert get(ds, f"/{doc}/{number}").status_code == 200, (doc, number)


def test_a_section_page_has_its_breadcrumbs_lists_and_links(ds) -> None:
    page = get(ds, "/mtr-2026-02-27/4.9").text
    assert '<h1 id="rule-heading">4.9 Day/Night</h1>' in page
    assert '› <a href="/mtr-2026-02-27/4">4 Communication</a>' in page
    assert 'href="/ipg-2024-09-23/3.7"' in page  # "a Communication Policy Violation"
    listed = get(ds, "/mtr-2026-02-27/4.1").text
    assert '<ul class="items"><li>Life total.</li>' in listed
    cr = get(ds, "/cr-2025-06-06-chapter7/730.1c").text
    assert 'href="/mtr-2026-02-27"' in cr  # the CR names the Tournament Rules


def test_an_infraction_page_shows_its_penalty_and_parts(ds) -> None:
    page = get(ds, "/ipg-2024-09-23/3.1").text
    assert "penalty: <b>Game Loss</b>" in page
    assert 'href="/rules/infractions?penalty=Game%20Loss"' in page
    assert '<strong class="part">Philosophy</strong>' in page


def test_the_infractions_table_is_filtered_by_penalty(ds) -> None:
    found = get(ds, "/rules/infractions.json?penalty=Game+Loss&_shape=array").json()
    assert [(row["number"], row["name"]) for row in found] == [("3.1", "Tardiness"),
                                                               ("3.4", "Decklist Problem")]
