"""`rulesdb trace` and `rulesdb coverage` on the command line: JSON output, stored rows and
exit codes."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdb.cli import cli

from trace_helpers import LANGUAGES, copy_bundled_db, planted_tree


@pytest.fixture(scope="module")
def db_path(bundled_db, tmp_path_factory) -> Path:
    return copy_bundled_db(bundled_db, tmp_path_factory)


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    return planted_tree(tmp_path_factory)


# --- command line -----------------------------------------------------------------------

def run(*args):
    return CliRunner().invoke(cli, [*args])


def test_trace_json_stores_and_replaces_atomically(db_path, tree):
    root, expected, _ = tree
    result = run("trace", str(root), "--engine", "fixture", "--json", "--db", str(db_path))
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert len(rows) == len(expected)
    assert set(rows[0]) == {"file", "line", "column", "function", "cited", "number", "rule",
                            "status", "suggestion"}
    run("trace", str(root), "--engine", "fixture", "--json", "--db", str(db_path))
    conn = sqlite3.connect(db_path)
    stored = conn.execute("SELECT count(*) FROM engine_citations WHERE engine = 'fixture'")
    assert stored.fetchone()[0] == len(expected)
    engine = conn.execute("SELECT kind, edition, files, skipped FROM engines "
                          "WHERE name = 'fixture'").fetchone()
    assert engine == ("scanned", "cr-2025-06-06-chapter7", len(LANGUAGES), 0)


def test_trace_exit_codes(db_path, tmp_path):
    (tmp_path / "empty.c").write_text("int main(void) { return 0; }\n")
    assert run("trace", str(tmp_path), "--db", str(db_path)).exit_code == 1
    assert run("trace", str(tmp_path / "none"), "--db", str(db_path)).exit_code == 2
    result = run("trace", str(tmp_path), "--edition", "cr-1900-01-01", "--db", str(db_path))
    assert (result.exit_code, "no Comprehensive Rules edition cr-1900-01-01" in result.output) \
        == (2, True)


def test_coverage_of_the_reference_evaluator(db_path):
    result = run("coverage", "--engine", "rulesdb", "--json", "--db", str(db_path))
    assert result.exit_code == 0, result.output
    [report] = json.loads(result.output)
    sections = {s["section"]: s for s in report["sections"]}
    assert set(sections) == {"702", "704"}
    assert "704.5t" in report["uncovered"] and "704.5a" not in report["uncovered"]
    assert report["stale"] == []
    assert run("coverage", "--engine", "nope", "--db", str(db_path)).exit_code == 1
