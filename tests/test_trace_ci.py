"""The engine developer's workflow: `rulesdb trace --fail-on` for CI, `--format sarif` for
code review, `--fix [--write]` after a renumbering, `--since` after a new release, and
`coverage --format markdown` for a pull-request comment."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from rulesdb.cli import cli

from trace_helpers import LANGUAGES, copy_bundled_db, parses, planted_tree

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = Path(__file__).resolve().parent / "data" / "sarif-schema-2.1.0.json"


@pytest.fixture(scope="module")
def db_path(bundled_db, tmp_path_factory) -> Path:
    return copy_bundled_db(bundled_db, tmp_path_factory)


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    return planted_tree(tmp_path_factory)


def run(*args: str):
    return CliRunner().invoke(cli, [*args])


def trace_json(root: Path, db_path: Path) -> list[dict]:
    result = run("trace", str(root), "--json", "--db", str(db_path))
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


# --- 1. CI gate -------------------------------------------------------------------------

def test_fail_on_exits_1_and_says_why_in_its_last_line(db_path, tree):
    root, _, statuses = tree
    result = run("trace", str(root), "--fail-on", "renumbered,missing", "--db", str(db_path))
    assert result.exit_code == 1
    expected = Counter(s for s in statuses.values() if s in ("renumbered", "missing"))
    last = result.output.strip().splitlines()[-1]
    assert last == (f"Error: {sum(expected.values())} citations fail: "
                    f"{expected['missing']} missing, {expected['renumbered']} renumbered: "
                    "failing as --fail-on renumbered,missing asks")


def test_without_fail_on_or_without_such_citations_the_exit_is_0(db_path, tree, history_db,
                                                                tmp_path):
    root, _, _ = tree
    assert run("trace", str(root), "--db", str(db_path)).exit_code == 0
    # the built-in reference evaluator cites no stale rule (it cites rules of every chapter:
    # checked against a full release, as the default database has them)
    engine = ROOT / "rulesdb" / "engine"
    result = run("trace", str(engine), "--fail-on", "renumbered,missing", "--db",
                 str(_copy(history_db, tmp_path)))
    assert result.exit_code == 0, result.output
    assert result.output.strip().splitlines()[-1] == "no citation is missing or renumbered"


def test_an_unknown_status_is_a_usage_error(db_path, tree):
    result = run("trace", str(tree[0]), "--fail-on", "renumbred", "--db", str(db_path))
    assert result.exit_code == 2
    assert "unknown status renumbred" in result.output


# --- 2. SARIF ---------------------------------------------------------------------------

def test_sarif_is_valid_and_has_one_result_per_stale_citation(db_path, tree):
    root, _, statuses = tree
    result = run("trace", str(root), "--format", "sarif", "--db", str(db_path))
    assert result.exit_code == 0, result.output
    log = json.loads(result.output)
    jsonschema.Draft7Validator(json.loads(SCHEMA.read_text())).validate(log)
    (sarif_run,) = log["runs"]
    driver = sarif_run["tool"]["driver"]
    assert driver["properties"]["crEdition"] == "cr-2025-06-06-chapter7"
    assert driver["version"]
    stale = Counter(s for s in statuses.values()
                    if s in ("missing", "renumbered", "malformed", "suspect"))
    assert Counter(r["ruleId"] for r in sarif_run["results"]) == stale
    for found in sarif_run["results"]:
        location = found["locations"][0]["physicalLocation"]
        path = root / location["artifactLocation"]["uri"]
        line = path.read_text().splitlines()[location["region"]["startLine"] - 1]
        column = location["region"]["startColumn"]
        assert line[column - 1:].startswith(found["properties"]["cited"])
        assert found["properties"]["number"] in found["message"]["text"]
    renumbered = next(r for r in sarif_run["results"] if r["ruleId"] == "renumbered")
    assert "now 702.19a" in renumbered["message"]["text"]


def test_a_broken_log_fails_the_schema(db_path, tree):
    """The schema check can fail: a result without its message is refused."""
    log = json.loads(run("trace", str(tree[0]), "--format", "sarif", "--db",
                         str(db_path)).output)
    del log["runs"][0]["results"][0]["message"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft7Validator(json.loads(SCHEMA.read_text())).validate(log)


# --- 3. fix -----------------------------------------------------------------------------

def test_fix_prints_a_diff_and_write_leaves_no_renumbered_citation(db_path, tree, tmp_path):
    copy = tmp_path / "tree"
    shutil.copytree(tree[0], copy)
    files = sorted(p for p in copy.rglob("*") if p.is_file())
    before = {p: p.read_bytes() for p in files}
    parsed = {p: parses(p) for p in files}
    diff = run("trace", str(copy), "--fix", "--db", str(db_path))
    assert diff.exit_code == 0, diff.output
    removed = [line for line in diff.output.splitlines() if line.startswith("-  ")
               or line.startswith("-\t") or line.startswith("-    ")]
    assert len(removed) == len(LANGUAGES)  # one renumbered citation per file
    assert all(p.read_bytes() == before[p] for p in files)  # --fix alone writes nothing
    assert "// 20250606 - 702.19a" in diff.output and "# 20250606 - 702.19a" in diff.output
    written = run("trace", str(copy), "--fix", "--write", "--db", str(db_path))
    assert written.exit_code == 0, written.output
    assert f"rewrote {len(LANGUAGES)} renumbered citations in {len(LANGUAGES)} files" \
        in written.output
    assert "not touched:" in written.output and "704.9z missing" in written.output
    rows = trace_json(copy, db_path)
    assert Counter(r["status"] for r in rows)["renumbered"] == 0
    assert len(rows) == len(trace_json(tree[0], db_path))  # no citation lost
    for path in files:
        assert parses(path) == parsed[path], path
        changed = [(a, b) for a, b in zip(before[path].decode().splitlines(),
                                          path.read_text().splitlines(), strict=True) if a != b]
        assert len(changed) == 1 and "502.9a" in changed[0][0], (path, changed)
    checked = {p.suffix for p in files if parsed[p] is not None}
    assert ".py" in checked


def test_fix_rewrites_each_form_as_it_was_written(tmp_path, db_path):
    source = tmp_path / "forms.py"
    source.write_text('# CR 502.9a\n# see #R5029b\nSBA = "rule 502.9a"\n'
                      "def sba_rule502_9a():\n    pass\n")
    result = run("trace", str(tmp_path), "--fix", "--write", "--db", str(db_path))
    assert result.exit_code == 0, result.output
    assert source.read_text() == ('# CR 702.19a\n# see #R70219b\nSBA = "rule 702.19a"\n'
                                  "def sba_rule702_19a():\n    pass\n")


def test_write_needs_fix(db_path, tree):
    assert run("trace", str(tree[0]), "--write", "--db", str(db_path)).exit_code == 2


# --- 4. since ---------------------------------------------------------------------------

def test_since_lists_the_citations_whose_rule_changed(db_path, tree):
    root, _, _ = tree
    result = run("trace", str(root), "--since", "cr-2009-02-01-flattened", "--json",
                 "--db", str(db_path))
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert rows and {r["change"] for r in rows} <= {"edited", "renumbered",
                                                    "renumbered_edited", "removed"}
    sba = next(r for r in rows if r["cited"] == "704.5a")
    assert (sba["old_number"], sba["new_number"], sba["change"]) == (
        "420.5a", "704.5a", "renumbered_edited")
    assert "{+" in sba["words"] and "[-" in sba["words"]
    same = run("trace", str(root), "--since", "cr-2025-06-06-chapter7", "--json",
               "--db", str(db_path))
    assert json.loads(same.output) == []
    wrong = run("trace", str(root), "--since", "cr-1999-01-01", "--db", str(db_path))
    assert wrong.exit_code == 2 and "no such Comprehensive Rules edition" in wrong.output


# --- 5. coverage as a pull-request comment -----------------------------------------------

def test_coverage_markdown(db_path, tree):
    run("trace", str(tree[0]), "--engine", "planted", "--db", str(db_path))
    result = run("coverage", "--engine", "planted", "--format", "markdown", "--db",
                 str(db_path))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "### Rules coverage of `planted` against cr-2025-06-06-chapter7"
    assert "| section | covered | rules | share | title |" in lines
    assert any(line.startswith("| `src/") and "| renumbered |" in line for line in lines)


def test_the_built_in_engine_through_every_mode(history_db, tmp_path):
    """The reference evaluator (rulesdb/engine) cites cr-2025-06-06, rules of every chapter:
    against the full history, a valid, empty SARIF log, nothing to fix, and its rules'
    changes since the 2009 seed."""
    db_path = _copy(history_db, tmp_path)
    engine = ROOT / "rulesdb" / "engine"
    log = json.loads(run("trace", str(engine), "--format", "sarif", "--db", str(db_path)).output)
    jsonschema.Draft7Validator(json.loads(SCHEMA.read_text())).validate(log)
    assert log["runs"][0]["results"] == []
    copy = tmp_path / "engine"
    shutil.copytree(engine, copy)
    fixed = run("trace", str(copy), "--fix", "--db", str(db_path))
    assert fixed.exit_code == 0 and fixed.stdout == ""
    since = run("trace", str(engine), "--since", "cr-2009-02-01-flattened", "--json",
                "--db", str(db_path))
    rows = json.loads(since.output)
    assert any(r["cited"] == "704.5a" and r["old_number"] == "420.5a" for r in rows)


def _copy(database: Path, folder: Path) -> Path:
    """A copy of a session database (trace writes its rows into the database it checks)."""
    copy = folder / "history.db"
    shutil.copyfile(database, copy)
    return copy
