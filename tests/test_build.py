"""`rulesdb build`: the bundled documents (five seeds, the judges' three), the layers, and
failures that lose nothing."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
import sqlite_utils
from click.testing import CliRunner

from rulesdb.cli import cli
from rulesdb.errors import InputError
from rulesdb.sources import build as build_module
from rulesdb.sources.build import build

from conftest import SOURCES, copy_sources

DOC_IDS = ["cr-2009-02-01-flattened", "cr-2025-06-06-chapter7", "rulings-1999-04",
           "rulebook-2005", "rulebook-1995", "mtr-2026-02-27", "mtr-2025-11-10",
           "ipg-2024-09-23"]


@pytest.fixture(scope="session")
def built(bundled_db) -> sqlite_utils.Database:
    return sqlite_utils.Database(bundled_db)


def test_every_document_is_built(built):
    rows = built.execute("SELECT id, kind, partial FROM documents ORDER BY id").fetchall()
    assert rows == [
        ("cr-2009-02-01-flattened", "comprehensive_rules", 1),
        ("cr-2025-06-06-chapter7", "comprehensive_rules", 1),
        ("ipg-2024-09-23", "infraction_procedure_guide", 0),
        ("mtr-2025-11-10", "tournament_rules", 1),
        ("mtr-2026-02-27", "tournament_rules", 0),
        ("rulebook-1995", "rulebook", 1),
        ("rulebook-2005", "rulebook", 0),
        ("rulings-1999-04", "rulings_summary", 0),
    ]


def test_stored_counts_match_the_document_rows(built):
    for doc_id, rule_count, example_count, glossary_count in built.execute(
        "SELECT id, rule_count, example_count, glossary_count FROM documents"
    ).fetchall():
        assert built.execute("SELECT count(*) FROM rules WHERE document = ?",
                             [doc_id]).fetchone()[0] == rule_count
        assert built.execute("SELECT count(*) FROM examples WHERE document = ?",
                             [doc_id]).fetchone()[0] == example_count
        assert built.execute("SELECT count(*) FROM glossary WHERE document = ?",
                             [doc_id]).fetchone()[0] == glossary_count


def test_every_parent_resolves_to_a_row_of_the_same_document(built):
    orphans = built.execute(
        "SELECT document, number, parent FROM rules WHERE parent IS NOT NULL AND parent_id IS NULL"
    ).fetchall()
    assert orphans == []
    crossed = built.execute(
        "SELECT count(*) FROM rules child JOIN rules parent ON parent.id = child.parent_id "
        "WHERE parent.document != child.document OR parent.number != child.parent"
    ).fetchone()[0]
    assert crossed == 0


def resolution(db, doc_id):
    counts = dict(db.execute(
        "SELECT status, count(*) FROM [references] WHERE document = ? GROUP BY status", [doc_id]
    ).fetchall())
    inside = counts.get("resolved", 0) + counts.get("unresolved", 0)
    return counts, counts.get("resolved", 0) / inside


@pytest.mark.parametrize("doc_id", ["cr-2009-02-01-flattened", "cr-2025-06-06-chapter7",
                                    "rulings-1999-04"])
def test_references_inside_the_document_resolve(built, doc_id):
    counts, share = resolution(built, doc_id)
    assert counts["resolved"] > 100
    assert share >= 0.99, counts


def test_references_outside_a_partial_document_are_outside_coverage(built):
    rows = built.execute(
        "SELECT r.raw, r.target_number, r.status, r.reason FROM [references] r "
        "JOIN rules ON rules.id = r.rule_id "
        "WHERE r.document = 'cr-2025-06-06-chapter7' AND rules.number = '700.2a'"
    ).fetchall()
    assert rows == [("See rule 601.2b", "601.2b", "outside_coverage",
                     "cr-2025-06-06-chapter7 contains only 700-731")]
    inside = built.execute(
        "SELECT count(*) FROM [references] WHERE document = 'cr-2025-06-06-chapter7' "
        "AND status = 'outside_coverage' AND CAST(substr(target_number, 1, 3) AS INTEGER) "
        "BETWEEN 700 AND 731"
    ).fetchone()[0]
    assert inside == 0


def test_resolved_references_point_at_the_cited_rule(built):
    wrong = built.execute(
        "SELECT count(*) FROM [references] r JOIN rules t ON t.id = r.target_rule_id "
        "WHERE r.kind IN ('rule', 'bare', 'range', 'section') "
        "AND (t.number != r.target_number OR t.document != coalesce(r.target_doc, r.document))"
    ).fetchone()[0]
    assert wrong == 0
    # the judges' documents cite sections of each other: those name the document cited
    assert built.execute("SELECT count(*) FROM [references] WHERE kind = 'section' AND "
                         "target_doc IS NOT NULL AND target_rule_id IS NOT NULL").fetchone()[0]


def test_glossary_see_references_resolve_between_entries(built):
    rows = built.execute(
        "SELECT r.raw, t.term, r.status FROM [references] r "
        "JOIN glossary g ON g.id = r.glossary_id JOIN glossary t ON t.id = r.target_glossary_id "
        "WHERE r.document = 'rulebook-2005' AND g.term = 'Attack' ORDER BY r.start"
    ).fetchall()
    assert rows == [("See also Attacking creature", "Attacking creature", "resolved"),
                    ("Blocking creature", "Blocking creature", "resolved"),
                    ("Combat", "Combat", "resolved")]


@pytest.mark.parametrize(("doc_id", "keyword", "number", "kind"), [
    ("cr-2025-06-06-chapter7", "Trample", "702.19", "ability"),
    ("cr-2025-06-06-chapter7", "Scry", "701.22", "action"),
    ("cr-2009-02-01-flattened", "Trample", "502.9", "ability"),
    ("cr-2009-02-01-flattened", "Banding", "502.10", "ability"),
    ("cr-2009-02-01-flattened", "hellbent", None, "ability_word"),
])
def test_keywords(built, doc_id, keyword, number, kind):
    rows = built.execute(
        "SELECT number, kind FROM keywords WHERE document = ? AND keyword = ?", [doc_id, keyword]
    ).fetchall()
    assert rows == [(number, kind)]


def test_ability_words_come_from_the_glossary_list_in_older_editions(built):
    words = [w for (w,) in built.execute(
        "SELECT keyword FROM keywords WHERE kind = 'ability_word' ORDER BY id")]
    assert words == ["channel", "chroma", "domain", "grandeur", "hellbent", "kinship",
                     "radiance", "sweep", "threshold"]


def test_full_text_search_uses_porter_stemming(built):
    hits = built.execute(
        "SELECT rules.number FROM rules_fts JOIN rules ON rules.id = rules_fts.rowid "
        "WHERE rules_fts MATCH 'trampling' AND rules.document = 'cr-2025-06-06-chapter7'"
    ).fetchall()
    assert ("702.19",) in hits


# --- failures: one clear line, exit code 2, previous database untouched ---------------------


def replace_source(sources: Path, file: str, data: bytes, update_sha: bool = True) -> None:
    path = sources / file
    old_sha = hashlib.sha256(path.read_bytes()).hexdigest()
    path.write_bytes(data)
    if update_sha:
        catalog = sources / "catalog.toml"
        catalog.write_text(catalog.read_text().replace(old_sha, hashlib.sha256(data).hexdigest()))


CR7 = "cr-2025-06-06-chapter7.txt"


def cr7_bytes() -> bytes:
    return (SOURCES / CR7).read_bytes()


BAD_INPUTS = {
    "empty": (lambda: b"", r"cr-2025-06-06-chapter7: byte 0: file is empty"),
    "binary": (lambda: bytes(range(256)) * 64, r"cr-2025-06-06-chapter7: .*binary|cannot decode"),
    "truncated": (lambda: cr7_bytes()[: cr7_bytes().index(b"702.19b") + 60],
                  r"cr-2025-06-06-chapter7: line \d+, column \d+: "
                  r"the document stops inside subrule 702.19b"),
    "wrong format": (lambda: (SOURCES / "rulings-summary-1999-04.txt").read_bytes(),
                     r"cr-2025-06-06-chapter7: line \d+, column \d+: "),
}


@pytest.mark.parametrize("case", list(BAD_INPUTS))
def test_bad_input_is_one_clear_line_and_keeps_the_old_database(tmp_path, case):
    sources = copy_sources(tmp_path)
    db_path = tmp_path / "rules.db"
    db_path.write_bytes(b"previous database")
    make, pattern = BAD_INPUTS[case]
    replace_source(sources, CR7, make())
    result = CliRunner().invoke(cli, ["build", "--seeds-only", "--db", str(db_path), "--sources",
                                      str(sources)])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1
    assert CR7 in lines[0]
    assert re.search(pattern, lines[0]), lines[0]
    assert db_path.read_bytes() == b"previous database"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_sha256_mismatch_is_refused(tmp_path):
    sources = copy_sources(tmp_path)
    db_path = tmp_path / "rules.db"
    db_path.write_bytes(b"previous database")
    replace_source(sources, CR7, cr7_bytes().replace(b"Trample", b"Trampel"), update_sha=False)
    result = CliRunner().invoke(cli, ["build", "--seeds-only", "--db", str(db_path), "--sources",
                                      str(sources)])
    assert result.exit_code == 2
    assert re.fullmatch(rf"Error: \S*{CR7}: cr-2025-06-06-chapter7: sha256 mismatch \(catalogue "
                        rf"\w+…, "
                        r"file \w+…\)", result.output.strip())
    assert db_path.read_bytes() == b"previous database"


def test_interrupted_build_keeps_the_old_database(tmp_path, monkeypatch):
    db_path = tmp_path / "rules.db"
    db_path.write_bytes(b"previous database")

    def interrupted(db, doc_ids):
        raise KeyboardInterrupt

    monkeypatch.setitem(build_module.LAYERS, "references", interrupted)
    with pytest.raises(KeyboardInterrupt):
        build(db_path, SOURCES, seeds_only=True)
    assert db_path.read_bytes() == b"previous database"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rules.db"]


def test_unknown_parser_in_catalogue(tmp_path):
    sources = copy_sources(tmp_path)
    catalog = sources / "catalog.toml"
    catalog.write_text(catalog.read_text().replace('parser = "rulings"', 'parser = "nope"'))
    with pytest.raises(InputError, match="rulings-1999-04: unknown parser 'nope'"):
        build(tmp_path / "rules.db", sources, seeds_only=True)


def test_build_prints_per_document_counts(tmp_path):
    result = CliRunner().invoke(cli, ["build", "--seeds-only", "--db", str(tmp_path / "r.db"),
                                      "--sources", str(SOURCES)])
    assert result.exit_code == 0, result.output
    for doc_id in DOC_IDS:
        assert re.search(rf"^{doc_id} +\d+ rules", result.output, re.MULTILINE)
    assert re.search(r"^references: \d+ references", result.output, re.MULTILINE)


def test_rebuild_traces_stored_engines_again_or_says_it_drops_them(tmp_path):
    tree = tmp_path / "engine"
    tree.mkdir()
    (tree / "sba.py").write_text("def lose_life_check(state):\n    # CR 704.5a\n    return 0\n")
    db_path = tmp_path / "rules.db"
    build(db_path, SOURCES, seeds_only=True)
    traced = CliRunner().invoke(cli, ["trace", str(tree), "--engine", "toy", "--json",
                                      "--keep-path", "--db", str(db_path)])
    assert traced.exit_code == 0, traced.output

    def toy_rows():
        return sqlite_utils.Database(db_path).execute(
            "SELECT c.function, c.number, c.status, r.number FROM engine_citations c "
            "JOIN rules r ON r.id = c.rule_id WHERE c.engine = 'toy'").fetchall()

    assert toy_rows() == [("lose_life_check", "704.5a", "ok", "704.5a")]
    report = build(db_path, SOURCES, seeds_only=True)
    assert report.notes == ["engine toy kept: traced "
                            f"{tree.resolve()} again against cr-2025-06-06-chapter7 (1 citations)"]
    assert toy_rows() == [("lose_life_check", "704.5a", "ok", "704.5a")]
    (tree / "sba.py").unlink()
    tree.rmdir()
    report = build(db_path, SOURCES, seeds_only=True)
    assert report.notes == [f"engine toy not kept: {tree.resolve()} is gone; "
                            "run `rulesdb trace` again"]
    assert toy_rows() == []


def test_an_engine_traced_without_keep_path_shows_its_folder_name_and_is_not_retraced(
        tmp_path):
    tree = tmp_path / "private" / "engine"
    tree.mkdir(parents=True)
    (tree / "sba.py").write_text("def lose_life_check(state):\n    # CR 704.5a\n    return 0\n")
    db_path = tmp_path / "rules.db"
    build(db_path, SOURCES, seeds_only=True)
    traced = CliRunner().invoke(cli, ["trace", str(tree), "--json", "--db", str(db_path)])
    assert traced.exit_code == 0, traced.output
    stored = sqlite_utils.Database(db_path).execute(
        "SELECT name, path FROM engines WHERE kind = 'scanned'").fetchall()
    assert stored == [("engine", "engine")]  # nothing of where the tree lies on this machine
    report = build(db_path, SOURCES, seeds_only=True)
    assert report.notes == ["engine engine not kept: only its folder's name (engine) was "
                            "stored; run `rulesdb trace` again (with --keep-path, builds "
                            "trace it again)"]
