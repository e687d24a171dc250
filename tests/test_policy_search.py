"""One search box for a judge: with no options search covers the current CR, MTR and IPG,
each hit labelled with its document; `--doc cr|mtr|ipg` (the site's `doc=`) narrows it; the
judges' questions find their paragraphs."""

from __future__ import annotations

import asyncio
import json

import pytest
from click.testing import CliRunner

from rulesdb.cli import cli
from rulesdb.lookup.query import connect
from rulesdb.site.serve import make_datasette

from conftest import script

CURRENT = {"cr": "cr-2026-01-16", "mtr": "mtr-2026-02-27", "ipg": "ipg-2024-09-23"}


def searched(db, *args: str) -> dict:
    result = CliRunner().invoke(cli, ["search", *args, "--json", "--db", str(db)])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_a_search_with_no_options_covers_the_three_current_documents(history_db) -> None:
    found = searched(history_db, "penalty for looking at an extra card")
    assert found["documents"] == list(CURRENT.values())
    first = found["hits"][0]
    assert (first["document"], first["number"]) == ("ipg-2024-09-23", "2.2")
    assert first["kind"] == "section" and "Looking at Extra Cards" in first["title"]
    rules = searched(history_db, "deathtouch trample")["hits"]
    assert {hit["document"] for hit in rules[:3]} == {"cr-2026-01-16"}


@pytest.mark.parametrize("kind", list(CURRENT))
def test_doc_narrows_the_search_to_one_current_document(history_db, kind) -> None:
    found = searched(history_db, "player draws an extra card", "--doc", kind)
    assert found["documents"] == [CURRENT[kind]]
    assert found["hits"] and {hit["document"] for hit in found["hits"]} == {CURRENT[kind]}


def test_the_text_output_labels_each_hit_with_its_document(history_db) -> None:
    result = CliRunner().invoke(cli, ["search", "penalty for looking at an extra card",
                                      "--limit", "3", "--db", str(history_db)])
    assert result.exit_code == 0
    assert "in cr-2026-01-16, mtr-2026-02-27, ipg-2024-09-23, the current documents" in (
        result.output)
    assert ("section 2.2 Game Play Error — Looking at Extra Cards (ipg-2024-09-23)"
            in result.output)


def test_the_site_filters_its_search_by_document(history_db) -> None:
    ds = make_datasette(history_db)
    page = asyncio.run(ds.client.get("/search?q=extra+card&doc=ipg")).text
    assert '<option value="ipg" selected>' in page
    assert "in ipg-2024-09-23" in page
    links = page.split('<ol class="results">')[1]
    assert "/ipg-2024-09-23/" in links and "/cr-2026-01-16/" not in links
    every = asyncio.run(ds.client.get("/search?q=extra+card")).text
    assert "in cr-2026-01-16, mtr-2026-02-27, ipg-2024-09-23, the current documents" in every


def test_the_judges_questions_find_their_paragraphs(history_db) -> None:
    """A guard below the figure measured (docs/search.md): recall@5 on the 87 questions of
    both collections with no options, 0.839 (the issue's target, 0.85, is not met)."""
    module = script("search_quality")
    questions = (module.load_questions(module.POLICY)
                 + module.load_questions(module.POLICY_MORE))
    with connect(history_db) as db:
        figures = module.scores(module.evaluate(db, questions))
    assert figures["recall@5"] >= 0.80, figures


def test_an_infractions_heading_is_read_with_its_penalty(bundled_db) -> None:
    """The IPG prints an infraction's penalty on its heading line: search reads the heading
    with it ("… Game Rule Violation, penalty Warning") and shows the title as printed."""
    from rulesdb.lookup.scope import load_scope

    with connect(bundled_db) as db:
        scope = load_scope(db, "ipg-2024-09-23")
    at = scope.numbers.index("2.5")
    assert scope.titles[at] == "Game Play Error — Game Rule Violation, penalty Warning"
    assert scope.printed[at] == "Game Play Error — Game Rule Violation"
    general = scope.numbers.index("1")
    assert scope.titles[general] == scope.printed[general]


def test_a_question_naming_an_infraction_and_penalty_finds_the_infraction(history_db) -> None:
    hits = searched(history_db, "GRV penalty")["hits"]
    assert (hits[0]["document"], hits[0]["number"]) == ("ipg-2024-09-23", "2.5")
