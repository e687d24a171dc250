"""The default database in the user data folder: built on first use from the corpus rulesdb
ships, built again after an upgrade (a new rulesdb, a changed corpus) with what the user added
kept (releases added with `add`, alignments set with `align`); never anything written into the
working folder or the shipped corpus.

The shipped corpus here is a copy of data/ without the history (the seeds build in seconds),
put in the place of the package's (rulesdb.places.shipped.root and .located).
"""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdb.cli import cli
from rulesdb.lineage.overrides import read as read_overrides
from rulesdb.places import shipped, user

from conftest import ROOT
from edition_helpers import write_releases

A, B = "cr-2024-01-01", "cr-2024-06-01"
LINK = (A, "702.19a", B, "702.19a")


def seeds_corpus(folder: Path) -> Path:
    """A copy of data/ whose catalogue names the seeds only (no archive, no release)."""
    corpus = folder / "corpus"
    shutil.copytree(ROOT / "data", corpus, ignore=shutil.ignore_patterns(
        "history", "*.db", "__pycache__", ".*"))
    catalog = corpus / "sources" / "catalog.toml"
    blocks = re.split(r"(?m)^(?=\[\[)", catalog.read_text(encoding="utf-8"))
    catalog.write_text("".join(b for b in blocks if not b.startswith(("[[archive]]",
                                                                       "[[release]]"))),
                       encoding="utf-8")
    return corpus


@pytest.fixture
def corpus(tmp_path, monkeypatch) -> Path:
    found = seeds_corpus(tmp_path)
    monkeypatch.setattr(shipped, "root", lambda: found)
    monkeypatch.setattr(shipped, "located", lambda: found)
    return found


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "home"
    monkeypatch.setenv("RULESDB_HOME", str(folder))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return folder


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def files_under(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_the_first_command_builds_the_default_database_once_and_answers(corpus, home):
    before = files_under(corpus)
    first = run("rule", "702.19b")
    assert first.exit_code == 0, first.output
    assert first.stdout.startswith("702.19b (cr-2025-06-06-chapter7)")
    assert first.stderr.splitlines()[0] == (
        f"{home / 'rules.db'}: no database yet: building it from the corpus rulesdb ships "
        "(once; about a minute)")
    assert re.fullmatch(rf"built {re.escape(str(home / 'rules.db'))}: 8 documents in \d+ s",
                        first.stderr.splitlines()[-1])
    second = run("glossary", "tapped")
    assert (second.exit_code, second.stderr) == (0, "")
    assert files_under(Path.cwd()) == []
    assert files_under(corpus) == before
    assert files_under(home) == ["rules.db"]


def test_an_explicit_database_that_is_missing_is_an_error_not_a_build(corpus, home, tmp_path):
    result = run("rule", "702.19b", "--db", str(tmp_path / "elsewhere.db"))
    assert (result.exit_code, result.output) == (
        2, f"Error: {tmp_path / 'elsewhere.db'}: no database here; run `rulesdb build` first\n")
    assert not home.exists()


def changes_of(pair: tuple[str, str], number: str) -> list[tuple]:
    result = run("diff", *pair, "--json")
    return [(c["op"], c["old"], c["new"], c.get("set_by_hand", False))
            for c in json.loads(result.stdout)["changes"] if number in (c["old"], c["new"])]


def test_an_upgrade_rebuilds_and_keeps_the_added_release_and_the_override(corpus, home,
                                                                          tmp_path):
    releases = write_releases(tmp_path, only=[A, B])
    added = run("add", *map(str, releases))
    assert added.exit_code == 0, added.output
    assert "no database yet" in added.stderr  # built first, then added to
    assert files_under(home / "releases") == [A, f"{A}/{A}.txt", B, f"{B}/{B}.txt"]
    aligned = run("align", *LINK, "--note", "the same rule")
    assert aligned.exit_code == 0, aligned.output
    assert (home / "alignment-overrides.txt").read_text().endswith(
        f"{A} 702.19a = {B} 702.19a  # the same rule\n")
    assert changes_of((A, B), "702.19a") == [("edited", "702.19a", "702.19a", True)]
    shipped_before = (corpus / "alignment-overrides.txt").read_bytes()

    # the upgrade: the shipped vocabulary gains a line
    with open(corpus / "search-vocabulary.txt", "a", encoding="utf-8") as vocabulary:
        vocabulary.write("zzyzx = trample  # a word no one types\n")
    result = run("docs", "--json")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[0] == (
        f"{home / 'rules.db'}: the corpus rulesdb ships changed since it was built: building "
        "it again (the releases you added and your alignments set by hand are kept)")
    assert {A, B} <= {row["id"] for row in json.loads(result.stdout)}
    assert changes_of((A, B), "702.19a") == [("edited", "702.19a", "702.19a", True)]
    conn = sqlite3.connect(home / "rules.db")
    assert conn.execute("SELECT count(*) FROM search_vocabulary WHERE words = 'zzyzx'"
                        ).fetchone() == (1,)
    listed = conn.execute("SELECT file, count(*) FROM alignment_overrides GROUP BY file "
                          "ORDER BY file").fetchall()
    assert listed == sorted([(str(corpus / "alignment-overrides.txt"),
                              len(read_overrides(corpus / "alignment-overrides.txt"))),
                             (str(home / "alignment-overrides.txt"), 1)])
    assert (corpus / "alignment-overrides.txt").read_bytes() == shipped_before

    # a new rulesdb (the database says another made it), and the old database unreadable:
    # the releases come back from their files
    conn.execute("UPDATE build_info SET value = '0.0.1' WHERE key = 'version'")
    conn.execute("DROP TABLE document_sources")
    conn.commit()
    conn.close()
    result = run("history", "702.19a", "--doc", B, "--json")
    assert result.exit_code == 0, result.output
    assert "built by rulesdb 0.0.1, and this is rulesdb" in result.stderr
    assert [(e["doc"], e["change"], e.get("note")) for e in json.loads(result.stdout)][-1] == (
        B, "edited", "the same rule")
    assert changes_of((A, B), "702.19a") == [("edited", "702.19a", "702.19a", True)]
    assert files_under(Path.cwd()) == []


def test_a_database_of_another_corpus_is_not_rebuilt_when_the_shipped_one_changes(
        corpus, home, tmp_path):
    other = seeds_corpus(tmp_path / "other")
    db = tmp_path / "other.db"
    assert run("build", "--db", str(db), "--sources", str(other / "sources"),
               "--json").exit_code == 0
    (corpus / "search-stopwords.txt").write_text("zzyzx\n", encoding="utf-8")
    result = run("rule", "702.19b", "--db", str(db))
    assert (result.exit_code, result.stderr) == (0, "")


def test_align_writes_the_users_file_and_refuses_to_remove_a_shipped_alignment(
        corpus, home, tmp_path):
    shipped_file = corpus / "alignment-overrides.txt"
    shipped_file.write_text(shipped_file.read_text()
                            + f"{A} 100.2 != {B} 100.2  # shipped: not the same rule\n")
    shipped_before = shipped_file.read_bytes()
    assert run("add", *map(str, write_releases(tmp_path, only=[A, B]))).exit_code == 0
    result = run("align", "--remove", A, "100.2", B, "100.2")
    line = shipped_before.decode().count("\n")
    assert (result.exit_code, result.output) == (1, (
        f"Error: {shipped_file}, line {line}: {A} 100.2 != {B} 100.2 is one of the alignments "
        "rulesdb ships (read-only); set the two rules otherwise instead (with or without "
        "--unlink)\n"))
    result = run("align", A, "100.2", B, "100.2", "--note", "mine: the same rule")
    assert result.exit_code == 0, result.output
    assert shipped_file.read_bytes() == shipped_before
    assert (home / "alignment-overrides.txt").read_text().splitlines()[-1] == (
        f"{A} 100.2 = {B} 100.2  # mine: the same rule")
    assert changes_of((A, B), "100.2") == [("edited", "100.2", "100.2", True)]


def test_a_bad_line_of_the_users_file_names_that_file_and_line(corpus, home):
    assert run("build", "--seeds-only", "--json").exit_code == 0
    mine = home / "alignment-overrides.txt"
    mine.write_text("# mine\ncr-2009-02-01-flattened 502.2 = cr-2025-06-06-chapter7\n")
    result = run("build", "--seeds-only")
    assert (result.exit_code, result.output) == (2, (
        f"Error: {mine}, line 2: expected OLD_DOC OLD_NUMBER = NEW_DOC NEW_NUMBER  # note  "
        "(or != for rules that differ)\n"))


def test_remove_forgets_the_kept_release(corpus, home, tmp_path):
    assert run("add", *map(str, write_releases(tmp_path, only=[A, B]))).exit_code == 0
    assert run("remove", A).exit_code == 0
    assert files_under(home / "releases") == [B, f"{B}/{B}.txt"]


def test_info_says_where_everything_is(corpus, home, tmp_path):
    result = run("info", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["database"] == {
        "path": str(home / "rules.db"), "default": True, "exists": False, "bytes": None,
        "age_seconds": None, "built": None, "built_by": None, "corpus": None,
        "documents": None, "newest_cr": None, "problem": None, "why_build": None}
    assert not home.exists()  # info builds nothing
    assert run("add", str(write_releases(tmp_path, only=[B])[0])).exit_code == 0
    report = json.loads(run("info", "--json").stdout)
    db = report["database"]
    assert (db["exists"], db["documents"], db["newest_cr"], db["corpus"], db["why_build"]) == (
        True, 9, {"id": "cr-2025-06-06-chapter7", "effective_date": "2025-06-06"},
        "rulesdb.data", None)
    assert db["bytes"] == (home / "rules.db").stat().st_size
    assert report["user_data"] == {
        "folder": str(home), "releases_folder": str(home / "releases"), "releases": [B],
        "overrides": str(home / "alignment-overrides.txt"), "overrides_exists": False}
    assert report["corpus"] == {"folder": str(corpus), "digest": shipped.digest()}
    text = run("info").stdout
    assert f"database: {home / 'rules.db'}\n" in text
    assert "9 documents; newest Comprehensive Rules: cr-2025-06-06-chapter7" in text
    assert f"user data: {home}\n  releases you added: 1 (cr-2024-06-01)" in text


def test_the_digest_reads_small_files_whole_and_large_ones_by_size(tmp_path):
    (tmp_path / "small.txt").write_bytes(b"a" * 10)
    (tmp_path / "large.bin").write_bytes(b"b" * (shipped.SMALL + 1))
    (tmp_path / "rules.db").write_bytes(b"a database a checkout keeps")
    first = shipped.digest(tmp_path)
    (tmp_path / "rules.db").write_bytes(b"changed")
    (tmp_path / "large.bin").write_bytes(b"c" * (shipped.SMALL + 1))
    assert shipped.digest(tmp_path) == first  # pinned by the catalogue's sha256
    (tmp_path / "small.txt").write_bytes(b"b" * 10)
    assert shipped.digest(tmp_path) != first
    (tmp_path / "small.txt").write_bytes(b"a" * 10)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "new.json").write_text("{}")
    assert shipped.digest(tmp_path) != first


def test_the_corpus_is_found_where_importlib_resources_finds_it():
    from importlib.resources import files

    assert Path(shipped.located()) == shipped.root() == Path(str(files("rulesdb.data")))
    assert (shipped.root() / "sources" / "catalog.toml").is_file()


@pytest.mark.skipif(sys.platform != "linux", reason="platformdirs alone answers elsewhere")
@pytest.mark.parametrize(("data_home", "home"), [
    (None, "/home/judge"), ("", "/home/judge/"), ("/srv/data", "/home/judge"),
    ("/srv//data/", "/root"), ("relative/data", "/home/judge"), (None, "/"),
    ("~/data", "/home/judge"),
])
def test_the_user_folder_is_where_platformdirs_puts_it(monkeypatch, data_home, home):
    """A lookup finds the default database without importing platformdirs (15-18 ms of it)
    where the XDG rules decide; it must be the folder platformdirs names."""
    from platformdirs import user_data_path

    monkeypatch.delenv("RULESDB_HOME", raising=False)
    monkeypatch.delenv("ANDROID_DATA", raising=False)
    monkeypatch.setenv("HOME", home)
    if data_home is None:
        monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_DATA_HOME", data_home)
    assert user._xdg_data_folder() is not None  # the quick answer is the one given
    assert Path(user.folder_name()) == user.folder() == user_data_path("rulesdb",
                                                                       appauthor=False)
