"""Alignment of rules across the bundled editions: golden checks, the lineage layer, concept
links, and the `history` and `diff` commands."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter

import pytest
import sqlite_utils

from rulesdb.db.store import CatalogEntry, save_document
from rulesdb.ingest import cr_text
from rulesdb.layers import lineage
from rulesdb.lineage.query import compute_changes, diff
from rulesdb.sources.build import build

from conftest import SOURCES

# --- the bundled documents ------------------------------------------------------------------


@pytest.fixture(scope="module")
def built(bundled_db):
    path = bundled_db
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    return path, conn


def stored(conn, old_doc, new_doc):
    return {(r["old_number"], r["new_number"]): r["change"] for r in conn.execute(
        "SELECT * FROM alignments WHERE old_doc = ? AND new_doc = ?", [old_doc, new_doc])}


def test_every_keyword_of_2009_and_2025_is_aligned_heading_to_heading(built):
    _, conn = built
    pairs = stored(conn, "cr-2009-02-01-flattened", "cr-2025-06-06-chapter7")
    mapped = {old: new for old, new in pairs if old and new}
    rows = conn.execute(
        "SELECT a.keyword, a.number, b.number FROM keywords a JOIN keywords b "
        "ON a.keyword = b.keyword AND a.kind = b.kind WHERE a.document = 'cr-2009-02-01-flattened' "
        "AND b.document = 'cr-2025-06-06-chapter7' AND a.kind != 'ability_word'").fetchall()
    assert len(rows) >= 80
    assert [(k, old, mapped.get(old)) for k, old, new in rows if mapped.get(old) != new] == []


@pytest.mark.parametrize(("old", "new"), [("502.9", "702.19"), ("502.10", "702.22"),
                                          ("501", "701"), ("502", "702"), ("502.2", "702.7")])
def test_golden_renumberings_2009_to_2025(built, old, new):
    changes = stored(built[1], "cr-2009-02-01-flattened", "cr-2025-06-06-chapter7")
    assert changes[(old, new)] == "renumbered"


@pytest.mark.parametrize("old", ["1", "100", "100.1", "302.2", "212.1b"])
def test_2009_rules_outside_chapter_7_are_outside_coverage(built, old):
    changes = stored(built[1], "cr-2009-02-01-flattened", "cr-2025-06-06-chapter7")
    assert changes[(old, None)] == "outside_coverage"


def test_lineages_give_one_stable_id_per_rule(built):
    _, conn = built
    assert [tuple(row) for row in conn.execute(
        "SELECT lineage, number FROM lineages WHERE lineage = (SELECT lineage FROM lineages "
        "WHERE number = '702.19' AND document = 'cr-2025-06-06-chapter7') ORDER BY document")] == [
        ("cr-2009-02-01-flattened/502.9", "502.9"), ("cr-2009-02-01-flattened/502.9", "702.19")]
    # every rule of the CR and of the judges' documents (chains of their own) has one
    rules = conn.execute("SELECT count(*) FROM rules JOIN documents d ON d.id = rules.document "
                         "WHERE d.kind IN ('comprehensive_rules', 'tournament_rules', "
                         "'infraction_procedure_guide')").fetchone()[0]
    assert conn.execute("SELECT count(*) FROM lineages").fetchone()[0] == rules


def test_concept_links_join_rulebooks_rulings_and_cr(built):
    _, conn = built
    rows = conn.execute(
        "SELECT c.source_doc, s.number, c.target_doc, t.number, c.method FROM concept_links c "
        "JOIN rules s ON s.id = c.source_rule_id JOIN rules t ON t.id = c.target_rule_id "
        "WHERE c.concept = 'banding' ORDER BY 1, 3").fetchall()
    assert [tuple(r) for r in rows] == [
        ("rulebook-1995", "s2-expanding-your-knowledge.advanced-creature-abilities.banding",
         "cr-2009-02-01-flattened", "502.10", "title"),
        ("rulebook-1995", "s2-expanding-your-knowledge.advanced-creature-abilities.banding",
         "cr-2025-06-06-chapter7", "702.22", "title"),
        ("rulings-1999-04", "A.11", "cr-2009-02-01-flattened", "502.10", "title"),
        ("rulings-1999-04", "A.11", "cr-2025-06-06-chapter7", "702.22", "title"),
    ]


def test_stored_and_computed_diffs_agree(built):
    _, conn = built
    computed = compute_changes(conn, "cr-2009-02-01-flattened", "cr-2025-06-06-chapter7")
    as_stored = stored(conn, "cr-2009-02-01-flattened", "cr-2025-06-06-chapter7")
    assert {(c.old, c.new): c.op for c in computed} == as_stored
    result = diff(conn, "cr-2025-06-06-chapter7", "cr-2009-02-01-flattened")
    assert result["alignment"] == "computed"
    assert sum(result["counts"].values()) == len(result["changes"])


def test_a_new_edition_between_two_replaces_their_pair(tmp_path):
    path = tmp_path / "rules.db"
    build(path, SOURCES, seeds_only=True)
    db = sqlite_utils.Database(path)
    doc = cr_text.parse((SOURCES / "cr-2025-06-06-chapter7.txt").read_bytes())
    entry = CatalogEntry(id="cr-2020-01-01", kind="comprehensive_rules", title="t",
                         file="x.txt", sha256="0", parser="cr_text",
                         effective_date="2020-01-01", partial=True, covers=doc.meta.covers)
    save_document(db, entry, doc)
    mtr = "SELECT * FROM alignments WHERE old_doc LIKE 'mtr-%' ORDER BY id"
    before = db.execute(mtr).fetchall()
    summary = lineage.compute(db, ["cr-2020-01-01"])
    assert db.execute(mtr).fetchall() == before  # a CR edition leaves the MTR's pair alone
    assert summary.startswith("3 edition pairs")  # and the MTR's, as it was
    pairs = db.execute("SELECT DISTINCT old_doc, new_doc FROM alignments ORDER BY 1").fetchall()
    assert pairs == [("cr-2009-02-01-flattened", "cr-2020-01-01"), ("cr-2020-01-01",
                                                                    "cr-2025-06-06-chapter7"),
                     ("mtr-2025-11-10", "mtr-2026-02-27")]
    ops = Counter(row[0] for row in db.execute(
        "SELECT change FROM alignments WHERE new_doc = 'cr-2025-06-06-chapter7'"))
    assert set(ops) == {"unchanged"}


def test_history_json_of_the_bundled_keyword(built):
    from click.testing import CliRunner

    from rulesdb.cli import cli

    path, _ = built
    result = CliRunner().invoke(cli, ["history", "Banding", "--json", "--db", str(path)])
    assert result.exit_code == 0, result.output
    entries = json.loads(result.output)
    assert [(e["doc"], e["number"], e["change"]) for e in entries] == [
        ("rulebook-1995", "s2-expanding-your-knowledge.advanced-creature-abilities.banding",
         "concept"),
        ("rulings-1999-04", "A.11", "concept"),
        ("cr-2009-02-01-flattened", "502.10", "first"),
        ("cr-2009-02-01-flattened", 'glossary: Banding, "Bands with Other"', "concept"),
        ("cr-2025-06-06-chapter7", "702.22", "renumbered"),
    ]


@pytest.mark.parametrize("doc_id", ["cr-2009-02-01-flattened", "cr-2025-06-06-chapter7",
                                    "rulings-1999-04"])
def test_a_document_against_itself_has_no_changes(built, doc_id):
    assert diff(built[1], doc_id, doc_id) == {"old": doc_id, "new": doc_id,
                                              "alignment": "computed", "counts": {},
                                              "changes": []}


def test_diff_json_shape_and_section_filter(built):
    from click.testing import CliRunner

    from rulesdb.cli import cli

    path, _ = built
    result = CliRunner().invoke(cli, ["diff", "cr-2009-02-01-flattened", "cr-2025-06-06-chapter7",
                                      "--section",
                                      "702.19", "--json", "--db", str(path)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["old"], data["new"], data["alignment"]) == (
        "cr-2009-02-01-flattened", "cr-2025-06-06-chapter7", "stored")
    assert {(c["op"], c["old"], c["new"]) for c in data["changes"]} == {
        ("renumbered", "502.9", "702.19"), ("renumbered_edited", "502.9a", "702.19a"),
        ("renumbered_edited", "502.9b", "702.19b"), ("renumbered_edited", "502.9c", "702.19d"),
        ("added", None, "702.19c"), ("added", None, "702.19e"), ("added", None, "702.19f"),
        ("renumbered_edited", "502.9f", "702.19g")}
    edit = next(c for c in data["changes"] if c["old"] == "502.9a")
    assert "".join(w["old"] for w in edit["words"]) == edit["old_text"]
    assert "".join(w["new"] for w in edit["words"]) == edit["new_text"]
    assert {w["op"] for w in edit["words"]} >= {"equal", "replace"}


def test_keyword_subrules_stay_within_their_keyword(built):
    """Template sentences ("Multiple instances of trample … are redundant") differ only in
    the keyword's name: a subrule never aligns into another keyword's rule."""
    _, conn = built
    crossed = conn.execute(
        "SELECT ko.keyword, kn.keyword FROM alignments a "
        "JOIN rules o ON o.id = a.old_rule_id JOIN rules n ON n.id = a.new_rule_id "
        "JOIN keywords ko ON ko.rule_id = o.parent_id JOIN keywords kn ON kn.rule_id = n.parent_id "
        "WHERE a.old_doc = 'cr-2009-02-01-flattened' AND a.new_doc = 'cr-2025-06-06-chapter7' "
        "AND lower(ko.keyword) != lower(kn.keyword)").fetchall()
    # only renamed or merged keywords: Tap → Tap and Untap, Bands with Other → Banding
    assert crossed
    assert all(old[:4].lower() in new.lower() or new[:4].lower() in old.lower()
               for old, new in crossed), crossed


@pytest.mark.parametrize(("args", "code"), [
    (["diff", "nope", "cr-2025-06-06-chapter7"], 2),
    (["history", "999.9"], 1),
    (["history", "Nonexistent Keyword"], 1),
    (["history", "702.19", "--doc", "nope"], 2),
])
def test_lineage_commands_exit_codes(built, args, code):
    from click.testing import CliRunner

    from rulesdb.cli import cli

    result = CliRunner().invoke(cli, [*args, "--db", str(built[0])])
    assert result.exit_code == code, result.output
    assert len(result.output.strip().splitlines()) == 1
