"""`rulesdb add` of an edition already present, of files that are not CRs, atomicity, and
`rulesdb build` keeping added editions."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest
import sqlite_utils
from click.testing import CliRunner

from rulesdb.cli import cli
from rulesdb.sources.build import build

from conftest import SOURCES
from test_add import add, release

CHAPTER7 = SOURCES / "cr-2025-06-06-chapter7.txt"


def whole() -> bytes:
    """The synthetic release with the real chapter 7 of 2025-06-06: more than the fragment."""
    text = release()
    start, end = text.index("702. Keyword Abilities"), text.index("\nGlossary\n\nActive")
    return (text[:start] + CHAPTER7.read_text(encoding="utf-8") + text[end:]).encode("utf-8")


def snapshot(db_path: Path) -> dict[str, list]:
    """Every row of every table, to show a refused add changed nothing."""
    db = sqlite_utils.Database(db_path)
    return {table: db.execute(f"SELECT * FROM [{table}] ORDER BY rowid").fetchall()
            for table in db.table_names() if not table.endswith(("_fts", "_data", "_idx",
                                                                 "_docsize", "_config"))}


def fts_intact(db_path: Path) -> None:
    """FTS5 checks its index against the rows it indexes; an error means stale entries."""
    db = sqlite_utils.Database(db_path)
    for table in ("rule_heads", "examples", "glossary", "texts"):
        db.execute(f"INSERT INTO [{table}_fts] ([{table}_fts]) VALUES ('integrity-check')")


def no_orphans(db_path: Path) -> None:
    db = sqlite_utils.Database(db_path)
    for table, column, parent in [("rules", "document", "documents"),
                                  ("references", "rule_id", "rules"),
                                  ("keywords", "rule_id", "rules"),
                                  ("examples", "rule_id", "rules"),
                                  ("glossary", "document", "documents")]:
        key = "id"
        orphans = db.execute(
            f"SELECT count(*) FROM [{table}] WHERE [{column}] IS NOT NULL AND [{column}] NOT IN "
            f"(SELECT [{key}] FROM [{parent}])").fetchone()[0]
        assert orphans == 0, (table, column)


def test_the_same_text_again_is_a_no_op(tmp_path):
    first, db_path = add(tmp_path, release().encode("utf-8"))
    assert first.exit_code == 0, first.output
    before = snapshot(db_path)
    # the same edition in another encoding and with other line endings is the same text
    again, _ = add(tmp_path, release().replace("\n", "\r\n").encode("utf-16"), "copy.txt")
    assert again.exit_code == 0, again.output
    assert again.output.splitlines()[0] == (
        "cr-2025-06-06: already in the database with the same text; nothing done")
    assert snapshot(db_path) == before


@pytest.mark.parametrize("layout", [
    lambda t: t.replace("\n", "\r\r\n"),  # double-spaced
    lambda t: "\n".join(f"  {line}  " for line in t.split("\n")),
    lambda t: t.replace("100.1. These", "100.1.\u00a0These").replace("\nGlossary", "\n\fGlossary"),
], ids=["double-spaced", "indented", "no-break-space-and-page-break"])
def test_the_same_content_laid_out_otherwise_is_a_no_op(tmp_path, layout):
    first, db_path = add(tmp_path, release().encode("utf-8"))
    assert first.exit_code == 0, first.output
    before = snapshot(db_path)
    again, _ = add(tmp_path, layout(release()).encode("utf-8"), "copy.txt")
    assert again.exit_code == 0, again.output
    assert again.output.splitlines()[0] == (
        "cr-2025-06-06: already in the database with the same rules and glossary (only the "
        "layout of the file differs); nothing done")
    assert snapshot(db_path) == before


def test_a_release_is_added_beside_the_seed_fragment_of_its_date(tmp_path):
    db_path = tmp_path / "rules.db"
    build(db_path, SOURCES, seeds_only=True)  # cr-2025-06-06-chapter7 holds chapter 7 only
    result, _ = add(tmp_path, whole(), db=db_path)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == (
        "cr-2025-06-06: added from MagicCompRules 20250606.txt: 1476 rules, 92 examples, "
        "4 glossary entries")
    db = sqlite_utils.Database(db_path)
    row = db["documents"].get("cr-2025-06-06")
    assert (row["rule_count"], row["covers"], row["file"]) == (
        1476, '["100-101", "700-731"]', "MagicCompRules 20250606.txt")
    # a partial release (chapters 1 and 7) does not supersede the seed: lookups keep both
    assert db["documents"].get("cr-2025-06-06-chapter7")["superseded_by"] is None
    fts_intact(db_path)
    no_orphans(db_path)


def test_a_whole_release_supersedes_the_seed_fragment_of_its_date(tmp_path):
    db_path = tmp_path / "rules.db"
    build(db_path, SOURCES, seeds_only=True)
    result, _ = add(tmp_path, one_chapter().encode("utf-8"), db=db_path)
    assert result.exit_code == 0, result.output
    db = sqlite_utils.Database(db_path)
    assert db["documents"].get("cr-2025-06-06")["partial"] == 0
    seed = db["documents"].get("cr-2025-06-06-chapter7")
    assert (seed["partial"], seed["superseded_by"]) == (1, "cr-2025-06-06")
    docs = CliRunner().invoke(cli, ["docs", "--db", str(db_path)]).output
    assert "the whole release is cr-2025-06-06" in docs
    removed = CliRunner().invoke(cli, ["remove", "cr-2025-06-06", "--db", str(db_path)])
    assert removed.exit_code == 0, removed.output
    db = sqlite_utils.Database(db_path)
    assert db["documents"].get("cr-2025-06-06-chapter7")["superseded_by"] is None


def test_a_less_complete_or_different_source_is_refused_unless_replace(tmp_path):
    first, db_path = add(tmp_path, release().encode("utf-8"))
    assert first.exit_code == 0
    before = snapshot(db_path)
    changed = release().replace("takes precedence", "wins")
    refused, _ = add(tmp_path, changed.encode("utf-8"), "other.txt")
    assert refused.exit_code == 2
    assert refused.output == (
        "Error: other.txt: cr-2025-06-06 is already in the database from MagicCompRules "
        "20250606.txt with different content; use --replace to replace it, or --id to store it "
        "under another id\n")
    assert snapshot(db_path) == before
    replaced, _ = add(tmp_path, changed.encode("utf-8"), "other.txt", "--replace")
    assert replaced.exit_code == 0, replaced.output
    assert replaced.output.startswith("cr-2025-06-06: replaced (--replace) with other.txt")
    db = sqlite_utils.Database(db_path)
    assert db.execute("SELECT text FROM rules WHERE number = '101.1'").fetchone()[0] == (
        "Whenever a card’s text directly contradicts these rules, the card wins.")
    assert db.execute("SELECT count(*) FROM documents").fetchone()[0] == 1
    fts_intact(db_path)
    no_orphans(db_path)


NOT_CR = {
    "rulings summary": (lambda: (SOURCES / "rulings-summary-1999-04.txt").read_bytes(),
                        "line 1, column 1: no numbered rule found: not a Comprehensive Rules "
                        "text file"),
    "empty": (lambda: b"", "byte 0: file is empty"),
    "binary": (lambda: b"\x00\x01\x02\x03" * 300, "byte 0: binary content"),
    "html": (lambda: b"<!DOCTYPE html><html><body>Rules</body></html>",
             "line 1, column 1: a web page (HTML), not a Comprehensive Rules text file"),
    "html without its doctype": (lambda: b"\r\n <HTML lang='en'><body>Rules</body></HTML>",
                                 "line 1, column 1: a web page (HTML)"),
    # the other forms a release is published in are read as such (tests/test_forms*.py)
    "pdf": (lambda: b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< >>\nstream\n\x00\x01",
            "a damaged PDF document: it cannot be opened (PDFium: Data format error)"),
    "docx": (lambda: b"PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00",
             "a damaged ZIP archive (File is not a zip file), not a readable Word document"),
    "doc": (lambda: b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 40,
            "a damaged Word document: its container cannot be read (not an OLE2 structured "
            "storage file)"),
    "rtf": (lambda: b"{\\rtf1\\ansi\\deff0 {\\fonttbl}100.1. Rules.}",
            "no effective date printed in the file nor in its name"),
    "truncated": (lambda: release().split("\nGlossary\n\nActive")[0].encode("utf-8"),
                  "line 40, column 1: the Glossary listed in the contents is missing"),
}


@pytest.mark.parametrize("case", list(NOT_CR))
def test_a_file_that_is_not_a_cr_is_refused_and_nothing_is_written(tmp_path, case):
    make, message = NOT_CR[case]
    result, db_path = add(tmp_path, make(), "bad.txt")
    assert result.exit_code == 2
    assert result.output.startswith(f"Error: bad.txt: {message}"), result.output
    assert len(result.output.splitlines()) == 1
    assert not db_path.exists()


def test_one_bad_file_among_several_adds_none(tmp_path):
    _first, db_path = add(tmp_path, release().encode("utf-8"))
    before = snapshot(db_path)
    good = tmp_path / "good.txt"
    good.write_bytes(release(date="October 1, 2024").encode("utf-8"))
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"not rules at all\n")
    result = CliRunner().invoke(cli, ["add", str(good), str(bad), "--db", str(db_path)])
    assert result.exit_code == 2
    assert snapshot(db_path) == before


def test_a_failure_while_writing_rolls_everything_back(tmp_path, monkeypatch):
    _first, db_path = add(tmp_path, release().encode("utf-8"))
    before = snapshot(db_path)

    def broken(db, doc_ids):
        raise RuntimeError("layer failed")

    monkeypatch.setitem(importlib.import_module("rulesdb.sources.add").LAYERS, "keywords", broken)
    result, _ = add(tmp_path, release(date="October 1, 2024").encode("utf-8"), "b.txt")
    assert isinstance(result.exception, RuntimeError)
    assert snapshot(db_path) == before


def test_id_is_for_one_file_only(tmp_path):
    paths = []
    for name in ("a.txt", "b.txt"):
        paths.append(tmp_path / name)
        paths[-1].write_bytes(release().encode("utf-8"))
    result = CliRunner().invoke(cli, ["add", *map(str, paths), "--id", "cr-2025-06-06",
                                      "--db", str(tmp_path / "r.db")])
    assert result.exit_code == 2
    assert result.output == "Error: --id names one edition: give exactly one file with it\n"


def test_build_keeps_added_editions(tmp_path):
    db_path = tmp_path / "rules.db"
    build(db_path, SOURCES, seeds_only=True)
    result, _ = add(tmp_path, release(date="October 1, 2024").encode("utf-8"), "a.txt",
                    db=db_path)
    assert result.exit_code == 0, result.output
    rebuilt = CliRunner().invoke(cli, ["build", "--seeds-only", "--db", str(db_path), "--json"])
    assert rebuilt.exit_code == 0, rebuilt.output
    ids = [doc["id"] for doc in json.loads(rebuilt.output)["documents"]]
    assert ids[-1] == "cr-2024-10-01"
    db = sqlite_utils.Database(db_path)
    row = db["documents"].get("cr-2024-10-01")
    assert (row["file"], row["rule_count"]) == ("a.txt", 12)
    assert db.execute("SELECT count(*) FROM [references] WHERE document = 'cr-2024-10-01'"
                      ).fetchone()[0] == 4


def test_build_keeps_an_added_release_beside_the_seed_of_its_date(tmp_path):
    db_path = tmp_path / "rules.db"
    build(db_path, SOURCES, seeds_only=True)
    add(tmp_path, whole(), db=db_path)
    build(db_path, SOURCES, seeds_only=True)
    db = sqlite_utils.Database(db_path)
    row = db["documents"].get("cr-2025-06-06")
    assert (row["file"], row["rule_count"]) == ("MagicCompRules 20250606.txt", 1476)
    assert db["documents"].get("cr-2025-06-06-chapter7")["file"] == "cr-2025-06-06-chapter7.txt"
    fts_intact(db_path)


def test_add_json(tmp_path):
    result, _db_path = add(tmp_path, release().encode("utf-8"), "r.txt", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["created"] is True
    assert [{k: d[k] for k in ("id", "file", "action", "rules", "examples", "glossary")}
            for d in data["documents"]] == [
        {"id": "cr-2025-06-06", "file": "r.txt", "action": "added", "rules": 12, "examples": 1,
         "glossary": 4}]
    assert set(data["layers"]) >= {"references", "keywords"}


def test_a_file_that_cannot_be_read(tmp_path):
    result = CliRunner().invoke(cli, ["add", str(tmp_path / "missing.txt"),
                                      "--db", str(tmp_path / "r.db")])
    assert result.exit_code == 2
    assert "missing.txt: cannot read: No such file or directory" in result.output


def test_a_database_that_is_not_one(tmp_path):
    db_path = tmp_path / "rules.db"
    db_path.write_bytes(b"previous database" * 100)
    result, _ = add(tmp_path, release().encode("utf-8"), db=db_path)
    assert result.exit_code == 2
    assert result.output.startswith(f"Error: {db_path}: not a database")
    assert db_path.read_bytes() == b"previous database" * 100


def test_chapter7_with_an_id_then_the_whole_release(tmp_path):
    result, _db_path = add(tmp_path, CHAPTER7.read_bytes(), "c7.txt", "--id", "cr-2025-06-06")
    assert result.exit_code == 0, result.output
    result, _ = add(tmp_path, whole())
    assert result.output.startswith("cr-2025-06-06: replaced the partial edition (700-731")
    less, _ = add(tmp_path, CHAPTER7.read_bytes(), "c7.txt", "--id", "cr-2025-06-06")
    assert less.exit_code == 2  # the fragment does not replace the whole release
    assert "use --replace" in less.output


def one_chapter() -> str:
    """A whole release by extent: chapter 1 from rule 100 on, and a glossary."""
    text = release()
    start, end = text.index("7. Additional Rules\n\n702."), text.index("\nGlossary\n\nActive")
    return text[:start] + text[end + 1:]


def test_a_whole_release_replaces_a_partial_document_of_the_same_extent(tmp_path):
    first, db_path = add(tmp_path, one_chapter().encode("utf-8"))
    assert first.exit_code == 0, first.output
    db = sqlite_utils.Database(db_path)
    assert db["documents"].get("cr-2025-06-06")["partial"] == 0
    # as the catalogue marks the flattened 2009 text: same extent, but partial
    db.execute("UPDATE documents SET partial = 1")
    db.conn.commit()
    second, _ = add(tmp_path, one_chapter().replace("precedence", "priority").encode(), "b.txt")
    assert second.exit_code == 0, second.output
    assert second.output.startswith("cr-2025-06-06: replaced the partial edition (100-101, from "
                                    "MagicCompRules 20250606.txt) with the more complete b.txt")


def test_only_the_new_document_is_computed(tmp_path):
    db_path = tmp_path / "rules.db"
    build(db_path, SOURCES, seeds_only=True)
    before = snapshot(db_path)
    result, _ = add(tmp_path, release(date="October 1, 2024").encode("utf-8"), db=db_path)
    assert result.exit_code == 0, result.output
    after = snapshot(db_path)
    # rows of the documents already there keep their ids and contents, layers included
    for table in ("rule_rows", "texts", "examples", "glossary", "references", "keywords"):
        assert set(before[table]) <= set(after[table]), table
    fts_intact(db_path)
