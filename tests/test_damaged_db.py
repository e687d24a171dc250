"""A database that cannot be read — empty, not a database, cut short, with pages overwritten
— is one line naming the file, exit code 2, for every command that reads it and for `serve`,
which refuses it before serving; a bug keeps its traceback."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdb.cli import cli
from rulesdb.commands import quick

LOOKUPS = [
    ["rule", "702.19"], ["search", "trample"], ["glossary", "trample"], ["keywords"],
    ["refs", "702.19"], ["docs"], ["export", "rulebook-2005"], ["history", "702.19"],
    ["diff", "cr-2009-02-01-flattened", "cr-2025-06-06-chapter7"], ["coverage"],
]


def damaged(source: Path, folder: Path) -> dict[str, Path]:
    """Copies of the database at `source`, each damaged in its own way."""
    data = source.read_bytes()
    made = {"empty": b"", "not a database": os.urandom(100_000),
            "cut short": data[: len(data) // 3]}
    pages = bytearray(data)
    for offset in range(8192, len(pages), 3 * 8192):  # a kilobyte of noise every third page
        pages[offset:offset + 1024] = os.urandom(1024)
    # and at the head of each page of the schema (past the file's header) and of the table a
    # rebuild reads first (the editions added): where noise lands must not depend on how the
    # tables happen to be laid out
    conn = sqlite3.connect(source)
    size = conn.execute("PRAGMA page_size").fetchone()[0]
    read_first = [row[0] for row in conn.execute(
        "SELECT pageno FROM dbstat WHERE name IN ('sqlite_schema', 'document_sources') "
        "AND pageno > 1")]
    conn.close()
    for page in read_first:
        pages[(page - 1) * size:(page - 1) * size + 1024] = os.urandom(1024)
    made["pages overwritten"] = bytes(pages)
    paths = {}
    for name, content in made.items():
        paths[name] = folder / f"{name.replace(' ', '-')}.db"
        paths[name].write_bytes(content)
    return paths


@pytest.fixture(scope="module")
def broken(bundled_db, tmp_path_factory) -> dict[str, Path]:
    return damaged(bundled_db, tmp_path_factory.mktemp("damaged"))


PROBLEMS = {
    "empty": "not a rulesdb database (it has no documents table)",
    "not a database": "not a database (file is not a database)",
    "cut short": "the database is damaged (database disk image is malformed)",
    "pages overwritten": "the database is damaged (database disk image is malformed)",
}


@pytest.mark.parametrize("kind", PROBLEMS)
@pytest.mark.parametrize("args", LOOKUPS, ids=[a[0] for a in LOOKUPS])
def test_every_lookup_of_a_damaged_database_is_one_line(broken, kind, args):
    db = broken[kind]
    result = CliRunner().invoke(cli, [*args, "--db", str(db)])
    assert (result.exit_code, result.output) == (
        2, f"Error: {db}: {PROBLEMS[kind]}; build it again with `rulesdb build`\n")


def test_damage_met_in_the_middle_of_a_command_is_one_line(bundled_db, tmp_path, monkeypatch,
                                                           capsys):
    """A page found damaged after the first reads: SQLite says so, the command names the file."""
    cut = tmp_path / "cut.db"
    cut.write_bytes(bundled_db.read_bytes()[:100_000])
    try:
        sqlite3.connect(cut).execute("SELECT count(*) FROM rules").fetchall()
    except sqlite3.DatabaseError as exc:
        malformed = exc
    else:
        raise AssertionError("a database cut short read whole")

    def read_damage(*args, **kwargs):
        raise malformed

    monkeypatch.setattr("rulesdb.lookup.lookup.rule_view", read_damage)
    line = (f"Error: {bundled_db}: the database is damaged (database disk image is "
            "malformed); build it again with `rulesdb build`\n")
    result = CliRunner().invoke(cli, ["rule", "702.19", "--db", str(bundled_db)])
    assert (result.exit_code, result.output) == (2, line)
    assert quick.answer(["rule", "702.19", "--db", str(bundled_db)]) == 2  # the quick path
    assert capsys.readouterr() == ("", line)


def test_a_bug_meeting_sqlite_keeps_its_traceback(bundled_db, monkeypatch):
    def bug(*args, **kwargs):
        raise sqlite3.OperationalError("no such column: nope")

    monkeypatch.setattr("rulesdb.lookup.lookup.rule_view", bug)
    result = CliRunner().invoke(cli, ["rule", "702.19", "--db", str(bundled_db)])
    assert result.exit_code == 1
    assert isinstance(result.exception, sqlite3.OperationalError)
    with pytest.raises(sqlite3.OperationalError):
        quick.answer(["rule", "702.19", "--db", str(bundled_db)])


@pytest.mark.parametrize("kind", PROBLEMS)
def test_serve_refuses_a_damaged_database_before_serving(broken, kind, monkeypatch):
    import rulesdb.site.serve as serve

    def never(*args, **kwargs):
        raise AssertionError("served")

    monkeypatch.setattr(serve, "run", never)
    db = broken[kind]
    result = CliRunner().invoke(cli, ["serve", "--db", str(db)])
    problem = PROBLEMS[kind]
    if kind == "pages overwritten":  # found by reading every page
        problem = result.output.split(": ", 2)[2].split(";")[0]
        assert problem.startswith("the database is damaged (")
    assert (result.exit_code, result.output) == (
        2, f"Error: {db}: {problem}; build it again with `rulesdb build`\n")


def test_serve_takes_a_sound_database(bundled_db, tmp_path, monkeypatch):
    import rulesdb.site.serve as serve

    served = []
    monkeypatch.setattr(serve, "run", lambda db, *args: served.append(db))
    db = tmp_path / "rules.db"
    shutil.copyfile(bundled_db, db)
    result = CliRunner().invoke(cli, ["serve", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert served == [db]


@pytest.mark.parametrize("kind", ["not a database", "pages overwritten"])
def test_build_over_a_damaged_database_keeps_it_aside_and_says_so(broken, kind, tmp_path):
    """What was added to an unreadable database cannot be carried over: the build (which the
    lookups advise) makes a new one from the catalogue, and the old file is kept, not lost."""
    db = tmp_path / "rules.db"
    shutil.copyfile(broken[kind], db)
    damaged_bytes = db.read_bytes()
    result = CliRunner().invoke(cli, ["build", "--seeds-only", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "rules.db.unreadable").read_bytes() == damaged_bytes
    assert f"{db}: cannot read the editions added to it (" in result.output
    assert "it is kept as rules.db.unreadable" in result.output
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT count(*) FROM documents").fetchone() == (8,)
