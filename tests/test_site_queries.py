"""The rules site's canned queries (metadata.yml), answered in-process by Datasette: by rule
and edition, ranked search with escaped snippets, glossary names, keywords, references, diff
and history links, and every query answering."""

from __future__ import annotations

import re

import pytest

from rulesdb.site.serve import load_metadata, make_datasette

from test_site import get, rows


@pytest.fixture(scope="module")
def ds(bundled_db):
    return make_datasette(bundled_db)


def test_canned_query_rule_by_number_and_edition(ds):
    assert [(r["document"], r["number"], r["title"], r["url"])
            for r in rows(ds, "rule", number="702.19", edition="")] == [
        ("cr-2025-06-06-chapter7", "702.19", "Trample", "/cr-2025-06-06-chapter7/702.19")]
    assert [r["document"] for r in rows(ds, "rule", number="502.9.",
                                        edition="cr-2009-02-01-flattened")] \
        == ["cr-2009-02-01-flattened"]
    assert rows(ds, "rule", number="502.9", edition="cr-2025-06-06-chapter7") == []


def test_canned_query_search_is_ranked_with_snippets_and_escaped(ds):
    found = rows(ds, "search", q="trample", edition="")
    assert len(found) > 10
    assert {r["kind"] for r in found} >= {"rule", "subrule", "glossary"}
    assert all("⟦" in r["snippet"] for r in found)
    assert found[0]["url"].startswith("/")
    only = rows(ds, "search", q="trample", edition="cr-2009-02-01-flattened")
    assert only and {r["document"] for r in only} == {"cr-2009-02-01-flattened"}
    # FTS syntax in the words typed is matched literally, never an error
    for q in ['"unbalanced', "trample OR", "NEAR(", "a*b:c"]:
        assert get(ds, f"/rules/search.json?q={q}&edition=").status_code == 200


def test_canned_query_glossary_term_matches_any_name_any_case(ds):
    found = rows(ds, "glossary_term", term="TRAMPLE")
    assert [(r["document"], r["url"]) for r in found] == [
        ("cr-2009-02-01-flattened", "/cr-2009-02-01-flattened/glossary/trample"),
        ("rulebook-2005", "/rulebook-2005/glossary/trample")]
    assert rows(ds, "glossary_term", term="Controller")[0]["url"] == \
        "/cr-2009-02-01-flattened/glossary/control-controller"


def test_canned_query_keywords(ds):
    found = rows(ds, "keywords", keyword="trample")
    assert sorted((r["document"], r["number"]) for r in found) == [
        ("cr-2009-02-01-flattened", "502.9"), ("cr-2025-06-06-chapter7", "702.19")]
    assert len(rows(ds, "keywords", keyword="")) > 300


def test_canned_queries_references_from_and_to_a_rule(ds):
    out = rows(ds, "references_from_rule", edition="cr-2025-06-06-chapter7", number="702.19")
    assert ("702.19c", "702.19b", "resolved", "/cr-2025-06-06-chapter7/702.19b") in [
        (r["in_rule"], r["target_number"], r["status"], r["url"]) for r in out]
    assert ("702.19a", "510", "outside_coverage", None) in [
        (r["in_rule"], r["target_number"], r["status"], r["url"]) for r in out]
    into = rows(ds, "references_to_rule", edition="cr-2025-06-06-chapter7", number="702.19b")
    assert [(r["from_rule"], r["url"]) for r in into] == [
        ("702.19c", "/cr-2025-06-06-chapter7/702.19c")]


def test_canned_queries_diff_and_history_link_to_pages(ds):
    changes = rows(ds, "diff", old="cr-2009-02-01-flattened", new="cr-2025-06-06-chapter7")
    # a query's rows stop at the site's maximum (the diff pages have every change)
    assert len(changes) == ds.setting("max_returned_rows")
    assert ("renumbered", "501.1", "701.1", "/cr-2025-06-06-chapter7/701.1") in [
        (c["change"], c["old_number"], c["new_number"], c["url"]) for c in changes]
    versions = rows(ds, "history", number="702.19", doc="")
    assert [(v["document"], v["number"], v["url"]) for v in versions
            if not v["change"].startswith("concept")] == [
        ("cr-2009-02-01-flattened", "502.9", "/cr-2009-02-01-flattened/502.9"),
        ("cr-2025-06-06-chapter7", "702.19", "/cr-2025-06-06-chapter7/702.19")]
    pages = [c["url"] for c in changes[:20]] + [v["url"] for v in versions if v["url"]]
    assert all(r.status_code == 200 for r in get(ds, *pages))


def test_every_canned_query_answers(ds):
    """Each query of metadata.yml, with its parameters empty, answers 200 (no SQL error)."""
    queries = load_metadata()["databases"]["rules"]["queries"]
    assert {"rule", "search", "glossary_term", "keywords", "references_from_rule",
            "references_to_rule"} <= set(queries)
    for name, query in queries.items():
        params = sorted(set(re.findall(r"(?<!:):(\w+)", query["sql"])))
        path = f"/rules/{name}.json?" + "&".join(f"{p}=" for p in params)
        response = get(ds, path)
        assert response.status_code == 200, (name, response.text[:300])
        assert response.json()["ok"] is True, name


# pages ------------------------------------------------------------------------------------
