"""`rulesdb align`: alignments set by hand in the database and the overrides file, applied by
`add` and `build`, shown by `diff` and `history`; bad overrides are input errors that leave
the database and the file as they were."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from conftest import copy_sources
from edition_helpers import TRAMPLE_A, TRAMPLE_B, make_db, run, write_releases

A, B, C = "cr-2024-01-01", "cr-2024-06-01", "cr-2025-01-01"
TRAMPLE = f"{A} 702.19a = {B} 702.19a  # the same rule: excess damage to the player\n"


@pytest.fixture
def db(tmp_path) -> Path:
    return make_db(tmp_path)


def align(db: Path, *args: str) -> object:
    return run("align", *args, "--db", str(db), "--overrides", str(db.parent / "overrides.txt"))


def diff(db: Path, old: str, new: str) -> list[dict]:
    result = run("diff", old, new, "--db", str(db), "--json")
    return [{k: c[k] for k in ("op", "old", "new", "set_by_hand", "note") if k in c}
            for c in json.loads(result.output)["changes"]]


def history(db: Path, number: str, doc: str) -> list[tuple]:
    result = run("history", number, "--doc", doc, "--db", str(db), "--json")
    return [(e["doc"], e["number"], e["change"], e.get("note"))
            for e in json.loads(result.output)]


def naming(changes: list[dict], number: str) -> list[dict]:
    return [c for c in changes if number in (c["old"], c["new"])]


def test_a_link_makes_a_rewritten_rule_one_rule_in_diff_history_and_file(db):
    assert naming(diff(db, A, B), "702.19a") == [
        {"op": "removed", "old": "702.19a", "new": None},
        {"op": "added", "old": None, "new": "702.19a"}]
    result = align(db, A, "702.19a", B, "702.19a", "--note",
                   "the same rule: excess damage to the player")
    assert result.exit_code == 0, result.output
    assert naming(diff(db, A, B), "702.19a") == [
        {"op": "edited", "old": "702.19a", "new": "702.19a", "set_by_hand": True,
         "note": "the same rule: excess damage to the player"}]
    assert history(db, "702.19a", C) == [
        (A, "702.19a", "first", None),
        (B, "702.19a", "edited", "the same rule: excess damage to the player"),
        (C, "702.19a", "edited", None)]
    text = (db.parent / "overrides.txt").read_text()
    assert text.startswith("# Alignments set by hand")
    assert text.endswith("\n" + TRAMPLE)
    listed = json.loads(align(db, "--list", "--json").output)
    assert listed == [{"old_doc": A, "old_number": "702.19a", "new_doc": B,
                       "new_number": "702.19a", "link": True,
                       "note": "the same rule: excess damage to the player",
                       "line": text.count("\n"), "file": str(db.parent / "overrides.txt"),
                       "status": "applied"}]


def test_align_reports_the_changes_before_and_after(db):
    result = align(db, A, "702.19a", B, "702.19a", "--json")
    report = json.loads(result.output)
    assert report["before"] == [
        {"op": "removed", "old": "702.19a", "new": None, "similarity": 0.0},
        {"op": "added", "old": None, "new": "702.19a", "similarity": 0.0}]
    assert [(c["op"], c["set_by_hand"], c["note"]) for c in report["after"]] == [
        ("edited", True, "")]
    assert report["status"] == "applied"


def test_an_unlink_parts_two_rules_and_their_histories(db):
    assert history(db, "100.2", C)[0][:2] == (A, "100.2")
    result = align(db, "--unlink", A, "100.2", B, "100.2", "--note", "not the same deck rule")
    assert result.exit_code == 0, result.output
    assert naming(diff(db, A, B), "100.2") == [
        {"op": "removed", "old": "100.2", "new": None, "set_by_hand": True,
         "note": "not the same deck rule"},
        {"op": "added", "old": None, "new": "100.2", "set_by_hand": True,
         "note": "not the same deck rule"}]
    assert history(db, "100.2", C) == [(B, "100.2", "first", None), (C, "100.2", "unchanged", None)]
    assert (db.parent / "overrides.txt").read_text().endswith(
        f"{A} 100.2 != {B} 100.2  # not the same deck rule\n")


def test_removing_an_override_restores_the_automatic_alignment(db):
    before = diff(db, A, B)
    align(db, A, "702.19a", B, "702.19a")
    result = align(db, "--remove", A, "702.19a", B, "702.19a")
    assert result.exit_code == 0, result.output
    assert diff(db, A, B) == before
    assert "702.19a" not in (db.parent / "overrides.txt").read_text()
    assert align(db, "--list").exit_code == 1


def test_a_link_between_editions_further_apart_joins_a_rule_dropped_and_printed_again(db):
    assert history(db, "100.3", C) == [(C, "100.3", "first", None)]
    result = align(db, A, "100.3", C, "100.3", "--note", "the mulligan rule is back")
    assert result.exit_code == 0, result.output
    assert "status: applied: lineages joined" in result.output
    assert history(db, "100.3", C) == [(A, "100.3", "first", None),
                                       (C, "100.3", "aligned", "the mulligan rule is back")]
    assert naming(diff(db, A, C), "100.3") == [
        {"op": "edited", "old": "100.3", "new": "100.3", "set_by_hand": True,
         "note": "the mulligan rule is back"}]
    align(db, "--remove", A, "100.3", C, "100.3")
    assert history(db, "100.3", C) == [(C, "100.3", "first", None)]


def test_a_link_further_apart_whose_rules_go_on_between_holds_for_the_diff_only(db):
    result = align(db, A, "702.2a", C, "702.2a", "--json")
    assert json.loads(result.output)["status"] == (
        f"applied to the diff of the two editions; lineages not joined: both go on in {B}")
    assert naming(diff(db, A, C), "702.2a")[0]["set_by_hand"] is True
    assert [e[:2] for e in history(db, "702.2a", C)] == [(B, "702.2a"), (C, "702.2a")]


@pytest.mark.parametrize(("args", "code", "message"), [
    ((A, "702.99", B, "702.19a"), 2, f"override {A} 702.99 = {B} 702.19a: no rule 702.99 in {A}"),
    ((A, "702.19a", "cr-2099-01-01", "702.19a"), 2, "no document cr-2099-01-01"),
    ((B, "702.19a", A, "702.19a"), 2, f"{B} is not older than {A}"),
    (("--remove", A, "702.19a", B, "702.19a"), 1, "no override of"),
    ((A, "702.19a", B), 2, "give OLD_DOC OLD_NUMBER NEW_DOC NEW_NUMBER"),
    (("--list", A), 2, "--list takes no rules"),
    (("--unlink", "--remove", A, "702.19a", B, "702.19a"), 2, "not both"),
    (("--list",), 1, "no alignment set by hand"),
])
def test_a_wrong_override_is_refused_and_changes_nothing(db, args, code, message):
    align(db, "--unlink", A, "100.2", B, "100.2")
    before = db.read_bytes(), (db.parent / "overrides.txt").read_text()
    if args == ("--list",):
        align(db, "--remove", A, "100.2", B, "100.2")
        before = db.read_bytes(), (db.parent / "overrides.txt").read_text()
    result = align(db, *args)
    assert result.exit_code == code, result.output
    assert message in result.output
    assert (db.read_bytes(), (db.parent / "overrides.txt").read_text()) == before


def test_add_applies_the_overrides_file(tmp_path):
    db = make_db(tmp_path, overrides=TRAMPLE)
    assert naming(diff(db, A, B), "702.19a")[0]["set_by_hand"] is True


def test_an_override_waits_for_its_editions(tmp_path):
    db = make_db(tmp_path, overrides=TRAMPLE, only=[A])
    listed = json.loads(align(db, "--list", "--json").output)
    assert listed[0]["status"] == f"not applied: no {B} in the database"
    result = run("add", str(write_releases(tmp_path, [B])[0]), "--db", str(db),
                 "--overrides", str(tmp_path / "overrides.txt"))
    assert result.exit_code == 0, result.output
    assert json.loads(align(db, "--list", "--json").output)[0]["status"] == "applied"
    assert naming(diff(db, A, B), "702.19a")[0]["set_by_hand"] is True


def rows(db: Path) -> tuple[list, list]:
    conn = sqlite3.connect(db)
    alignments = conn.execute(
        "SELECT old_doc, new_doc, old_number, new_number, change, similarity, detail "
        "FROM alignments ORDER BY old_doc, new_doc, old_number, new_number").fetchall()
    lineages = sorted(conn.execute("SELECT lineage, document, number FROM lineages"))
    conn.close()
    return alignments, lineages


def test_adding_one_by_one_gives_the_rows_adding_at_once_gives(tmp_path):
    overrides = TRAMPLE + f"{A} 100.3 = {C} 100.3  # back\n{B} 100.2 != {C} 100.2\n"
    for folder in ("at-once", "one"):
        (tmp_path / folder).mkdir()
    at_once = make_db(tmp_path / "at-once", overrides=overrides)
    for doc in (A, C, B):  # B comes between the two others last
        one = make_db(tmp_path / "one", overrides=overrides, only=[doc])
    assert rows(one) == rows(at_once)


def test_add_aligns_again_the_pairs_whose_overrides_the_file_changed(tmp_path):
    db = make_db(tmp_path, only=[A, B])
    (tmp_path / "overrides.txt").write_text(TRAMPLE)
    result = run("add", str(write_releases(tmp_path, [C])[0]), "--db", str(db),
                 "--overrides", str(tmp_path / "overrides.txt"))
    assert result.exit_code == 0, result.output
    assert naming(diff(db, A, B), "702.19a")[0]["set_by_hand"] is True


def test_build_applies_the_file_again_and_keeps_the_database_when_one_is_wrong(tmp_path, db):
    align(db, A, "702.19a", B, "702.19a", "--note", "checked")
    sources = copy_sources(tmp_path)
    result = run("build", "--seeds-only", "--sources", str(sources), "--db", str(db),
                 "--overrides", str(db.parent / "overrides.txt"))
    assert result.exit_code == 0, result.output
    assert naming(diff(db, A, B), "702.19a")[0]["note"] == "checked"
    bad = db.parent / "bad.txt"
    bad.write_text(f"# first line\n{A} 702.19a = {B} 702.99  # typo\n")
    before = db.read_bytes()
    result = run("build", "--seeds-only", "--sources", str(sources), "--db", str(db),
                 "--overrides", str(bad))
    assert result.exit_code == 2
    assert f"{bad}, line 2: no rule 702.99 in {B}" in result.output
    assert db.read_bytes() == before


def test_build_without_the_file_keeps_the_databases_overrides(tmp_path, db):
    align(db, A, "702.19a", B, "702.19a", "--note", "kept")
    sources = copy_sources(tmp_path)
    result = run("build", "--seeds-only", "--sources", str(sources), "--db", str(db),
                 "--overrides", str(tmp_path / "absent.txt"))
    assert result.exit_code == 0, result.output
    assert naming(diff(db, A, B), "702.19a")[0]["note"] == "kept"


def test_the_hand_set_texts_are_the_editions_texts(db):
    align(db, A, "702.19a", B, "702.19a")
    result = run("diff", A, B, "--db", str(db), "--json")
    change = naming(json.loads(result.output)["changes"], "702.19a")[0]
    assert (change["old_text"], change["new_text"]) == (TRAMPLE_A, TRAMPLE_B)


def test_add_with_a_wrong_override_is_refused_and_changes_nothing(tmp_path):
    db = make_db(tmp_path, only=[A])
    before = db.read_bytes()
    (tmp_path / "overrides.txt").write_text(f"# one\n\n{A} 702.19a = {B} 702.99  # typo\n")
    result = run("add", str(write_releases(tmp_path, [B])[0]), "--db", str(db),
                 "--overrides", str(tmp_path / "overrides.txt"))
    assert result.exit_code == 2
    assert result.output.strip() == (
        f"Error: {tmp_path / 'overrides.txt'}, line 3: no rule 702.99 in {B}")
    assert db.read_bytes() == before


def test_align_without_a_database_says_how_to_make_one(tmp_path):
    result = align(tmp_path / "none.db", A, "702.19a", B, "702.19a")
    assert result.exit_code == 2
    assert "no database here; run `rulesdb build` first" in result.output
    assert not (tmp_path / "overrides.txt").exists()


def test_align_replaces_the_database_as_the_other_writers_do(db):
    """Its working copy is one a later writer clears when a killed `align` left it, and the
    database keeps its permissions."""
    db.chmod(0o640)
    leftover = db.with_name(f".{db.name}.aligning-999999")
    leftover.write_bytes(b"left by a killed align")
    result = align(db, A, "702.19a", B, "702.19a", "--note", "the same rule")
    assert result.exit_code == 0, result.output
    assert db.stat().st_mode & 0o777 == 0o640
    assert not leftover.exists()
    assert not list(db.parent.glob(f".{db.name}.aligning-*"))
