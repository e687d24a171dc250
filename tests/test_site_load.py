"""The rules site under many readers: what Datasette's table views cost, the lanes requests
take, and the caching headers that let a reverse proxy or CDN serve repeats."""

from __future__ import annotations

import pytest

from rulesdb.site.serve import make_datasette

from test_site import get


@pytest.fixture(scope="module")
def ds(bundled_db):
    return make_datasette(bundled_db)


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
