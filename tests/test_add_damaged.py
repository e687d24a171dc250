"""What `rulesdb add` does with a damaged copy of the rules: its line breaks lost, its
printed date misprinted, its rules out of numerical order."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
import tarfile
from hashlib import sha256

import pytest
import sqlite_utils
from click.testing import CliRunner

from rulesdb.cli import cli

from conftest import SOURCES
from test_add import add, release, texts

FLAT = " ".join(release().split())
NOT_A_DATE = ("Error: MagicCompRules 20250606.txt: line 3, column 1: the effective date "
              "printed, 'These rules are effective as of {}.', is not a date; give the id "
              "with --id cr-YYYY-MM-DD\n")


def test_a_flattened_release_is_added_as_the_release(tmp_path):
    lines, lines_db = add(tmp_path, release().encode(), "lines.txt",
                          db=tmp_path / "lines.db")
    flat, flat_db = add(tmp_path, FLAT.encode(), "flat.txt", "--json",
                        db=tmp_path / "flat.db")
    assert (lines.exit_code, flat.exit_code) == (0, 0), flat.output
    assert [(d["id"], d["action"]) for d in json.loads(flat.output)["documents"]] == \
        [("cr-2025-06-06", "added")]
    assert {number: " ".join(text.split())
            for number, text in texts(lines_db, "cr-2025-06-06").items()} \
        == texts(flat_db, "cr-2025-06-06")
    glossary = "SELECT heading, definition FROM glossary ORDER BY position"
    lines_entries, flat_entries = ([(h, " ".join(d.split())) for h, d in
                                    sqlite_utils.Database(db).execute(glossary).fetchall()]
                                   for db in (lines_db, flat_db))
    assert len(flat_entries) == 4
    assert flat_entries == lines_entries
    rows = [sqlite_utils.Database(db)["documents"].get("cr-2025-06-06")
            for db in (lines_db, flat_db)]
    assert [(row["parser"], row["covers"], row["title"]) for row in rows] == [
        (parser, '["100-101", "702-702"]',
         "Magic: The Gathering Comprehensive Rules (June 6, 2025), rules 100-101, 702-702")
        for parser in ("cr_text", "cr_flat")]


def test_a_flattened_release_is_built_from_the_catalogue(tmp_path):
    """`rulesdb build` reads a catalogued archive's flattened release as `add` does."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:xz") as tar:
        info = tarfile.TarInfo("flat.txt")
        info.size = len(FLAT.encode())
        tar.addfile(info, io.BytesIO(FLAT.encode()))
    archive = buffer.getvalue()
    sums = f"{sha256(FLAT.encode()).hexdigest()}  flat.txt\n"
    (tmp_path / "h.tar.xz").write_bytes(archive)
    (tmp_path / "SUMS").write_text(sums)
    seed = "cr-2025-06-06-chapter7.txt"
    shutil.copy(SOURCES / seed, tmp_path)
    (tmp_path / "catalog.toml").write_text(
        f'[[archive]]\nfile = "h.tar.xz"\nsha256 = "{sha256(archive).hexdigest()}"\n'
        f'sums = "SUMS"\nsums_sha256 = "{sha256(sums.encode()).hexdigest()}"\n\n'
        f'[[document]]\nid = "chapter7"\nkind = "comprehensive_rules"\ntitle = "Chapter 7"\n'
        f'file = "{seed}"\nsha256 = "{sha256((SOURCES / seed).read_bytes()).hexdigest()}"\n'
        'parser = "cr_text"\n')
    db_path = tmp_path / "rules.db"
    result = CliRunner().invoke(cli, ["build", "--db", str(db_path), "--sources",
                                      str(tmp_path)])
    assert result.exit_code == 0, result.output
    row = sqlite_utils.Database(db_path)["documents"].get("cr-2025-06-06")
    assert (row["parser"], row["glossary_count"]) == ("cr_flat", 4)


@pytest.mark.parametrize("printed", ["Febuary 7, 2025", "February 30, 2025"])
@pytest.mark.parametrize("form", ["lines", "flattened"])
def test_a_printed_date_that_is_no_date_asks_for_an_id(tmp_path, printed, form):
    text = release(date=printed)
    if form == "flattened":
        text = " ".join(text.split())
    result, db_path = add(tmp_path, text.encode())
    assert result.exit_code == 2
    expected = NOT_A_DATE.format(printed)
    assert result.output == (expected if form == "lines"
                             else expected.replace("line 3, column 1", "line 1, column 42"))
    assert not db_path.exists()
    given, db_path = add(tmp_path, text.encode(), "MagicCompRules 20250606.txt", "--id",
                         "cr-2025-02-07")
    assert given.exit_code == 0, given.output
    assert (f"  warning: the printed date cannot be read: 'These rules are effective as of "
            f"{printed}.'") in given.output.splitlines()
    row = sqlite_utils.Database(db_path)["documents"].get("cr-2025-02-07")
    assert (row["effective_date"], row["date_text"]) == (
        "2025-02-07", f"These rules are effective as of {printed}.")


def test_keep_going_lists_a_release_with_no_date_and_adds_the_others(tmp_path):
    folder = tmp_path / "releases"
    folder.mkdir()
    (folder / "a.txt").write_bytes(release(date="Febuary 7, 2025").encode())
    (folder / "b.txt").write_bytes(release().encode())
    (folder / "c.txt").write_bytes(" ".join(release(date="October 1, 2024").split()).encode())
    db_path = tmp_path / "rules.db"
    result = CliRunner().invoke(cli, ["add", str(folder), "--db", str(db_path), "--keep-going",
                                      "--json"])
    assert result.exit_code == 2
    data = json.loads(result.output)
    assert [(d["file"], d["id"]) for d in data["documents"]] == [
        ("b.txt", "cr-2025-06-06"), ("c.txt", "cr-2024-10-01")]
    assert data["skipped"] == [NOT_A_DATE.format("Febuary 7, 2025")
                               .removeprefix("Error: ").replace("MagicCompRules 20250606.txt",
                                                                "a.txt").rstrip("\n")]


@pytest.mark.parametrize("form", ["lines", "flattened"])
def test_numbering_out_of_order_is_a_warning_a_dry_run_shows(tmp_path, form):
    text = release(**{"101.1. Whenever": "100.9. Whenever"})
    if form == "flattened":
        text = " ".join(text.split())
    result, db_path = add(tmp_path, text.encode(), "r.txt", "--dry-run")
    assert result.exit_code == 0, result.output
    assert "  warning: rule 100.9 follows 101: out of numerical order" in \
        result.output.splitlines()
    assert not db_path.exists()


def test_an_error_is_one_line_on_stderr_and_no_traceback(tmp_path):
    path = tmp_path / "MagicCompRules 20250606.txt"
    path.write_text(release(date="Febuary 7, 2025"), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "rulesdb", "add", str(path), "--db",
                           str(tmp_path / "rules.db")], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 2
    assert done.stderr == NOT_A_DATE.format("Febuary 7, 2025")
    assert done.stdout == ""
