"""The notebooks' helpers: rulesdb.analysis.queries, rulesdb.analysis.edition_diff,
rulesdb.lineage.highlight and rulesdb.analysis.figures, on the bundled database and on small
made-up rows."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesdb.analysis import edition_diff, figures
from rulesdb.analysis import queries as analysis
from rulesdb.lineage import wordiff
from rulesdb.lineage.highlight import Edit, changed_words

DATES = ["1995", "1999-04", "2005", "2009-02-01", "2025-06-06"]


@pytest.fixture(scope="module")
def db_path(bundled_db) -> Path:
    return bundled_db


@pytest.fixture(scope="module")
def conn(db_path) -> sqlite3.Connection:
    return analysis.connect(db_path)


@pytest.fixture
def writable(db_path, tmp_path) -> sqlite3.Connection:
    """A writable copy of the bundled database."""
    path = tmp_path / "copy.db"
    shutil.copy(db_path, path)
    connection = sqlite3.connect(path)
    connection.row_factory = sqlite3.Row
    return connection


@pytest.mark.parametrize(("date", "year"), [
    ("1995", 1995.0), ("1999-04", 1999.25), ("2009-02-01", 2009 + 1 / 12),
    ("2025-06-06", 2025 + 5 / 12 + 5 / 365), (None, None), ("c. 1999", None),
])
def test_year_of(date, year):
    assert analysis.year_of(date) == year


def test_database_path_follows_rulesdb_db(monkeypatch, tmp_path):
    monkeypatch.setenv("RULESDB_DB", str(tmp_path / "x.db"))
    assert analysis.database_path() == tmp_path / "x.db"
    with pytest.raises(FileNotFoundError, match=r"x\.db: no database here; run `rulesdb build`"):
        analysis.connect()


def test_documents_oldest_first(conn):
    docs = analysis.documents(conn)
    assert [(d["effective_date"], d["label"]) for d in docs] == [
        ("1995", "rulebook-1995 (partial)"), ("1999-04", "rulings-1999-04"),
        ("2005", "rulebook-2005"), ("2009-02-01", "cr-2009-02-01-flattened (partial)"),
        ("2024-09-23", "ipg-2024-09-23"), ("2025-06-06", "cr-2025-06-06-chapter7 (partial)"),
        ("2025-11-10", "mtr-2025-11-10 (partial)"), ("2026-02-27", "mtr-2026-02-27")]


def test_document_sizes_match_the_documents_table(conn):
    sizes = analysis.document_sizes(conn)
    counts = {row[0]: tuple(row[1:]) for row in conn.execute(
        "SELECT id, rule_count, example_count, glossary_count FROM documents")}
    assert {s["document"]: (s["rules"], s["examples"], s["glossary"]) for s in sizes} == counts
    by_id = {s["document"]: s for s in sizes}
    assert by_id["rulings-1999-04"]["example_words"] == 0
    assert by_id["cr-2009-02-01-flattened"]["glossary_words"] > 0
    assert all(s["rule_words"] > 0 for s in sizes)


def test_chapter_sizes_partition_each_document(conn):
    chapters = analysis.chapter_sizes(conn)
    per_doc: dict[str, int] = {}
    for row in chapters:
        per_doc[row["document"]] = per_doc.get(row["document"], 0) + row["rules"]
    assert per_doc == {s["document"]: s["rules"] for s in analysis.document_sizes(conn)}
    keys = {(r["document"], r["chapter"]): r["title"] for r in chapters}
    assert [k for d, k in keys if d == "cr-2009-02-01-flattened"] == ["1", "2", "3", "4", "5", "6"]
    assert keys[("cr-2009-02-01-flattened", "5")] == "Additional Rules"
    assert keys[("cr-2025-06-06-chapter7", "7")] == "Chapter 7"  # no chapter heading in the bundle
    assert keys[("rulings-1999-04", "A")] == "Abilities"
    # the judges' documents by section, titled by their own headings
    assert keys[("mtr-2026-02-27", "7")] == "Limited Tournament Rules"
    assert keys[("ipg-2024-09-23", "2")] == "Game Play Errors"


def test_keyword_introductions(conn):
    rows = analysis.keyword_introductions(conn)
    assert [r["document"] for r in rows] == ["cr-2009-02-01-flattened", "cr-2025-06-06-chapter7"]
    first, second = rows
    assert sum(map(len, first["new"].values())) == first["total"]
    assert "Trample" in first["new"]["ability"]
    assert "Trample" not in second["new"].get("ability", [])
    distinct = conn.execute("SELECT count(DISTINCT lower(keyword)) FROM keywords").fetchone()[0]
    assert sum(len(names) for r in rows for names in r["new"].values()) == distinct


def test_glossary_growth(conn):
    rows = analysis.glossary_growth(conn)
    assert [(r["document"], r["dropped"]) for r in rows] == [("rulebook-2005", 0),
                                                            ("cr-2009-02-01-flattened", 0)]
    first, second = rows
    assert first["new"] == first["total"] and first["carried"] == 0
    assert second["new"] + second["carried"] == len({t.casefold() for (t,) in conn.execute(
        "SELECT term FROM glossary WHERE document = 'cr-2009-02-01-flattened'")})


def test_glossary_dropped_counts_the_previous_glossary_of_the_same_kind(writable):
    writable.execute("INSERT INTO documents (id, kind, effective_date, partial, rule_count, "
                     "example_count, glossary_count) VALUES "
                     "('cr-2030-01-01', 'comprehensive_rules', '2030-01-01', 0, 0, 0, 2)")
    writable.executemany("INSERT INTO glossary (document, term, obsolete) VALUES (?, ?, ?)",
                         [("cr-2030-01-01", "trample", 0), ("cr-2030-01-01", "Brand New", 1)])
    cr_2009 = {t.casefold() for (t,) in writable.execute(
        "SELECT term FROM glossary WHERE document = 'cr-2009-02-01-flattened'")}
    last = analysis.glossary_growth(writable)[-1]
    assert {k: last[k] for k in ("document", "total", "new", "carried", "dropped", "obsolete",
                                 "new_terms")} == {
        "document": "cr-2030-01-01", "total": 2, "new": 1, "carried": 1,
        "dropped": len(cr_2009) - 1, "obsolete": 1, "new_terms": ["Brand New"]}


def test_concept_timeline(conn):
    rows = analysis.concept_timeline(conn, limit=40)
    assert 0 < len(rows) <= 40
    assert all(r["years"] == sorted(r["years"]) and r["first"] == r["years"][0] for r in rows)
    assert [r["first"] for r in rows] == sorted(r["first"] for r in rows)
    banding = next(r for r in rows if r["concept"] == "Banding")
    assert banding["documents"][0] == "rulebook-1995"


def test_empty_layer_tables(writable):
    for table in ("concept_links", "alignments", "engine_citations", "engines"):
        writable.execute(f"DELETE FROM [{table}]")
    assert analysis.row_count(writable, "concept_links") == 0
    assert analysis.row_count(writable, "no_such_table") == 0
    assert analysis.concept_timeline(writable) == []
    assert analysis.engines(writable) == []
    assert edition_diff.stored_pairs(writable) == []
    assert analysis.empty_message("concept_links") == (
        "The table `concept_links` is empty in this database: the lineage layer has not "
        "written anything yet, so there is nothing to plot here.")


def test_diff_of_the_bundled_editions(conn):
    pair = edition_diff.default_pair(conn)
    assert pair == ("cr-2009-02-01-flattened", "cr-2025-06-06-chapter7")
    assert edition_diff.stored_pairs(conn) == [pair, ("mtr-2025-11-10", "mtr-2026-02-27")]
    diff = edition_diff.edition_diff(conn, *pair)
    assert diff["alignment"] == "stored"
    chapters = edition_diff.chapters(conn, diff)
    compared = [c for c in diff["changes"] if c["op"] != "outside_coverage"]
    assert sum(sum(c.values()) for c in chapters.values()) == len(compared)
    assert chapters["7"]["renumbered"] == diff["counts"]["renumbered"]
    edits = edition_diff.largest_edits(diff, 5)
    words = [changed_words(e.ops) for e in edits]
    assert len(edits) == 5 and words == sorted(words, reverse=True)
    similar = edition_diff.similarities(diff)
    assert len(similar["renumbered"]) == diff["counts"]["renumbered"]


def test_default_pair_prefers_complete_editions(writable):
    writable.execute("UPDATE documents SET partial = 0 WHERE id = 'cr-2009-02-01-flattened'")
    assert edition_diff.default_pair(writable) == ("cr-2009-02-01-flattened",
                                                   "cr-2025-06-06-chapter7")
    writable.execute("UPDATE documents SET kind = 'rulebook' WHERE id = 'cr-2025-06-06-chapter7'")
    assert edition_diff.default_pair(writable) is None


def test_section_coverage_counts_subrules_of_a_cited_rule(writable):
    writable.execute("INSERT INTO engines (name, kind, edition) VALUES "
                     "('toy', 'external', 'cr-2025-06-06-chapter7')")
    trample = writable.execute("SELECT id FROM rules WHERE document = 'cr-2025-06-06-chapter7' "
                               "AND number = '702.19'").fetchone()[0]
    subrules = writable.execute("SELECT count(*) FROM rules WHERE parent_id = ?",
                                [trample]).fetchone()[0]
    flying = writable.execute("SELECT id FROM rules WHERE document = 'cr-2025-06-06-chapter7' "
                              "AND number = '702.9a'").fetchone()[0]
    writable.executemany(
        "INSERT INTO engine_citations (engine, cited, number, rule_id, status) "
        "VALUES ('toy', ?, ?, ?, ?)",
        [("702.19", "702.19", trample, "ok"), ("702.9a", "702.9a", flying, "suspect")])
    rows = {r["section"]: r for r in analysis.section_coverage(writable, "toy")}
    assert rows["702"]["covered"] == 1 + subrules
    assert rows["702"]["share"] == rows["702"]["covered"] / rows["702"]["rules"]
    assert sum(r["covered"] for r in rows.values()) == 1 + subrules
    assert rows["702"]["title"] == "Keyword Abilities"
    assert analysis.section_coverage(writable, "no such engine") == []


def test_reference_engine_covers_state_based_actions(conn):
    engines = analysis.engines(conn)
    assert [(e["name"], e["edition"]) for e in engines] == [("rulesdb", "cr-2025-06-06-chapter7")]
    rows = {r["section"]: r for r in analysis.section_coverage(conn, "rulesdb")}
    assert rows["704"]["covered"] > 0
    assert sum(r["rules"] for r in rows.values()) == conn.execute(
        "SELECT count(*) FROM rules WHERE document = 'cr-2025-06-06-chapter7' "
        "AND kind IN ('rule', 'subrule')").fetchone()[0]


def test_edit_renders_escaped_html_and_word_diff_text():
    ops = tuple(wordiff.opcodes("a <b> creature dies", "a <b> creature is destroyed"))
    edit = Edit("420.5a", "704.5a", "renumbered_edited", 0.5, ops)
    assert edit.heading() == "420.5a → 704.5a (renumbered_edited, similarity 0.50, 3 words changed)"
    html = edit._repr_html_()
    assert "&lt;b&gt;" in html and "<b>" not in html.replace("<b>420.5a", "")
    assert "<del>dies</del>" in html and "<ins>is destroyed</ins>" in html
    assert str(edit).splitlines()[1:] == ["  old: a <b> creature [-dies-]",
                                          "  new: a <b> creature {+is destroyed+}"]


@given(st.lists(st.sampled_from(["a", "b", "c", "dies", "is"]), max_size=8),
       st.lists(st.sampled_from(["a", "b", "c", "dies", "is"]), max_size=8))
def test_changed_words_is_zero_only_for_equal_texts(old, new):
    ops = wordiff.opcodes(" ".join(old), " ".join(new))
    assert (changed_words(ops) == 0) == (old == new)


def _figures(conn):
    chapters = analysis.chapter_sizes(conn)
    kinds = {d["id"]: d["kind"] for d in analysis.documents(conn)}
    diff = edition_diff.edition_diff(conn, "cr-2009-02-01-flattened", "cr-2025-06-06-chapter7")
    engines = analysis.engines(conn)
    return {
        "document_sizes": figures.document_sizes(analysis.document_sizes(conn)),
        "cr_chapters": figures.cr_chapters(chapters),
        "other_sections": figures.other_sections(chapters),
        "keywords": figures.keyword_introductions(analysis.keyword_introductions(conn)),
        "concepts": figures.concept_timeline(analysis.concept_timeline(conn), kinds),
        "glossary": figures.glossary_growth(analysis.glossary_growth(conn)),
        "change_counts": figures.change_counts(diff["counts"], diff["old"], diff["new"]),
        "by_chapter": figures.changes_by_chapter(edition_diff.chapters(conn, diff),
                                                 diff["old"], diff["new"]),
        "similarities": figures.similarities(edition_diff.similarities(diff), diff["old"],
                                             diff["new"]),
        "statuses": figures.citation_statuses(engines),
        "coverage": figures.coverage_heatmap(analysis.section_coverage(conn, "rulesdb"),
                                             "rulesdb", "cr-2025-06-06-chapter7"),
    }


def test_every_figure_is_titled_with_labelled_axes(conn):
    for name, fig in _figures(conn).items():
        assert fig is not None, name
        plots = [ax for ax in fig.axes if ax.get_label() != "<colorbar>"]
        assert fig.get_suptitle() or all(ax.get_title() for ax in plots), name
        assert all(ax.get_xlabel() and ax.get_ylabel() for ax in plots), name


@pytest.mark.parametrize("draw", [
    lambda: figures.document_sizes([]), lambda: figures.cr_chapters([]),
    lambda: figures.other_sections([]), lambda: figures.keyword_introductions([]),
    lambda: figures.concept_timeline([], {}), lambda: figures.glossary_growth([]),
    lambda: figures.change_counts({}, "a", "b"), lambda: figures.changes_by_chapter({}, "a", "b"),
    lambda: figures.similarities({}, "a", "b"), lambda: figures.citation_statuses([]),
    lambda: figures.coverage_heatmap([], "e", "d"),
])
def test_no_figure_without_rows(draw):
    assert draw() is None
