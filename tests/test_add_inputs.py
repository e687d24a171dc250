"""What `rulesdb add` is given and how it is told to take it: a folder, standard input,
--keep-going, --dry-run."""

from __future__ import annotations

import json

import sqlite_utils
from click.testing import CliRunner

from rulesdb.cli import cli

from test_add import release


def test_a_folder_stands_for_its_txt_files(tmp_path):
    folder = tmp_path / "releases"
    (folder / "nested").mkdir(parents=True)
    (folder / "b.TXT").write_bytes(release(date="October 1, 2024").encode())
    (folder / "a.txt").write_bytes(release().encode())
    (folder / "notes.md").write_text("not a release")
    (folder / "nested" / "c.txt").write_text("not read: only the folder's own files")
    db_path = tmp_path / "rules.db"
    result = CliRunner().invoke(cli, ["add", str(folder), "--db", str(db_path), "--json"])
    assert result.exit_code == 0, result.output
    assert [(d["file"], d["id"]) for d in json.loads(result.output)["documents"]] == [
        ("a.txt", "cr-2025-06-06"), ("b.TXT", "cr-2024-10-01")]


def test_a_folder_without_release_files_is_refused(tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "notes.md").write_text("not a release")
    result = CliRunner().invoke(cli, ["add", str(tmp_path / "empty"), "--db",
                                      str(tmp_path / "rules.db")])
    assert result.exit_code == 2
    assert result.output.strip() == (f"Error: {tmp_path / 'empty'}: no release file (.txt, "
                                     ".docx, .doc, .rtf, .pdf) in this folder")
    assert not (tmp_path / "rules.db").exists()


def test_a_release_is_read_from_standard_input(tmp_path):
    db_path = tmp_path / "rules.db"
    result = CliRunner().invoke(cli, ["add", "-", "--db", str(db_path), "--json"],
                                input=release().replace("\n", "\r\n").encode("utf-16"))
    assert result.exit_code == 0, result.output
    assert [(d["file"], d["id"], d["action"]) for d in json.loads(result.output)["documents"]] \
        == [("(standard input)", "cr-2025-06-06", "added")]
    row = sqlite_utils.Database(db_path)["documents"].get("cr-2025-06-06")
    assert row["source"].endswith("added from standard input")
    bad = CliRunner().invoke(cli, ["add", "-", "--db", str(db_path)], input=b"Just text.\n")
    assert bad.exit_code == 2
    assert bad.output.startswith("Error: (standard input): line 1, column 1: no numbered rule")


def test_keep_going_adds_what_it_can_and_lists_the_rest(tmp_path):
    folder = tmp_path / "releases"
    folder.mkdir()
    (folder / "a.txt").write_bytes(release().encode())
    (folder / "b.txt").write_bytes(b"Just some text.\n")  # not a CR
    (folder / "c.txt").write_bytes(release(date="October 1, 2024").encode())
    # the same edition as a.txt with other text: refused without --replace
    (folder / "d.txt").write_bytes(release(**{"Trample\n": "Trampling\n"}).encode())
    db_path = tmp_path / "rules.db"
    plain = CliRunner().invoke(cli, ["add", str(folder), "--db", str(db_path)])
    assert plain.exit_code == 2 and not db_path.exists()
    result = CliRunner().invoke(cli, ["add", str(folder), "--db", str(db_path), "--keep-going",
                                      "--json"])
    assert result.exit_code == 2
    data = json.loads(result.output)
    assert [(d["file"], d["id"], d["action"]) for d in data["documents"]] == [
        ("a.txt", "cr-2025-06-06", "added"), ("c.txt", "cr-2024-10-01", "added")]
    assert [why.split(":")[0] for why in data["skipped"]] == ["b.txt", "d.txt"]
    assert "no numbered rule found" in data["skipped"][0]
    assert "use --replace" in data["skipped"][1]
    stored = sqlite_utils.Database(db_path).execute("SELECT id FROM documents").fetchall()
    assert sorted(stored) == [("cr-2024-10-01",), ("cr-2025-06-06",)]


def test_keep_going_with_nothing_addable_writes_nothing(tmp_path):
    (tmp_path / "b.txt").write_bytes(b"Just some text.\n")
    db_path = tmp_path / "rules.db"
    result = CliRunner().invoke(
        cli, ["add", str(tmp_path / "b.txt"), str(tmp_path / "missing.txt"), "--db",
              str(db_path), "--keep-going"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"skipped {tmp_path / 'missing.txt'}: cannot read: No such file or directory",
        "skipped b.txt: line 1, column 1: no numbered rule found: not a Comprehensive Rules "
        "text file"]
    assert not db_path.exists()


def test_a_dry_run_says_what_adding_would_do_and_writes_nothing(tmp_path):
    db_path = tmp_path / "rules.db"
    (tmp_path / "a.txt").write_bytes(release().encode())
    assert CliRunner().invoke(cli, ["add", str(tmp_path / "a.txt"), "--db", str(db_path)]
                              ).exit_code == 0
    before = db_path.read_bytes()
    (tmp_path / "b.txt").write_bytes(release(date="October 1, 2024").encode())
    (tmp_path / "c.txt").write_bytes(release(**{"Trample\n": "Trampling\n"}).encode())
    result = CliRunner().invoke(cli, ["add", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"),
                                      str(tmp_path / "c.txt"), "--db", str(db_path),
                                      "--dry-run", "--keep-going", "--json"])
    assert result.exit_code == 2
    data = json.loads(result.output)
    assert data["dry_run"] is True and data["layers"] == {}
    assert [(d["file"], d["action"]) for d in data["documents"]] == [
        ("a.txt", "unchanged"), ("b.txt", "added")]
    assert data["skipped"][0].startswith("c.txt: cr-2025-06-06 is already in the database")
    assert db_path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt", "c.txt", "rules.db"]
    fresh = tmp_path / "new" / "rules.db"
    text = CliRunner().invoke(cli, ["add", str(tmp_path / "b.txt"), "--db", str(fresh),
                                    "--dry-run"])
    assert text.exit_code == 0
    assert text.output.splitlines()[-1] == f"dry run: nothing written to {fresh}"
    assert not fresh.parent.exists()


def test_a_copy_cut_off_in_its_glossary_is_a_partial_edition_until_the_whole_one(tmp_path):
    whole = release()
    cut = whole[: whole.index("Cards printed with this term")] + "Cards prin"
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "cut.txt").write_text(cut)
    db_path = tmp_path / "rules.db"
    result = CliRunner().invoke(cli, ["add", str(folder / "cut.txt"), "--db", str(db_path)])
    assert result.exit_code == 0, result.output
    assert "the copy stops inside entry 'Bury' in the glossary" in result.output
    row = sqlite_utils.Database(db_path)["documents"].get("cr-2025-06-06")
    assert (row["partial"], row["glossary_count"], json.loads(row["covers"])) == (
        1, 1, ["100-101", "702-702",
                   "glossary cut off after Active Player, Nonactive Player Order"])
    assert row["title"].endswith(
        "(June 6, 2025), glossary cut off after Active Player, Nonactive Player Order")

    (folder / "whole.txt").write_text(whole)
    result = CliRunner().invoke(cli, ["add", str(folder / "whole.txt"), "--db", str(db_path)])
    assert result.exit_code == 0, result.output
    assert "replaced the partial edition" in result.output
    row = sqlite_utils.Database(db_path)["documents"].get("cr-2025-06-06")
    assert (row["glossary_count"], json.loads(row["covers"])) == (4, ["100-101", "702-702"])


def test_a_file_is_known_by_its_name_unless_its_path_is_asked_for(tmp_path):
    folder = tmp_path / "somewhere" / "private"
    folder.mkdir(parents=True)
    (folder / "a.txt").write_bytes(release().encode())
    (folder / "b.txt").write_bytes(release(date="October 1, 2024").encode())
    db_path = tmp_path / "rules.db"
    for name, extra in (("a.txt", []), ("b.txt", ["--keep-path"])):
        result = CliRunner().invoke(cli, ["add", str(folder / name), "--db", str(db_path),
                                          *extra])
        assert result.exit_code == 0, result.output
    db = sqlite_utils.Database(db_path)
    assert [(r["document"], r["name"], r["origin"]) for r in
            db["document_sources"].rows_where(order_by="document")] == [
        ("cr-2024-10-01", "b.txt", str((folder / "b.txt").resolve())),
        ("cr-2025-06-06", "a.txt", "a.txt")]
    assert db["documents"].get("cr-2025-06-06")["source"].endswith("; added from a.txt")
