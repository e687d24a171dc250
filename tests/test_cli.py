"""The command line: every command's help, JSON output and exit codes."""

from __future__ import annotations

import json
import re

import click
import pytest
from click.testing import CliRunner

from rulesdb.cli import cli
from rulesdb.commands.group import commands as all_commands

from conftest import ROOT


@pytest.fixture(scope="module")
def db_path(bundled_db):
    return bundled_db


def run(*args, db=None):
    argv = [*args] + (["--db", str(db)] if db else [])
    return CliRunner().invoke(cli, argv)


def commands() -> list[str]:
    return sorted(all_commands())


@pytest.mark.parametrize("name", commands())
def test_every_command_has_help_with_an_example_json_and_a_docs_page(name):
    command = all_commands()[name]
    result = run(name, "--help")
    assert result.exit_code == 0
    assert "Example:" in result.output
    assert any(isinstance(p, click.Option) and "--json" in p.opts for p in command.params)
    topics = "".join(page.read_text() for page in (ROOT / "docs").glob("*.md")
                     if page.name != "cli.md")  # the reference is made from --help itself
    assert re.search(rf"rulesdb {name}\b", topics), f"no page of docs/ shows {name}"


def test_docs_json(db_path):
    result = run("docs", "--json", db=db_path)
    assert result.exit_code == 0
    ids = [row["id"] for row in json.loads(result.output)]
    assert ids == ["rulebook-1995", "rulings-1999-04", "rulebook-2005", "cr-2009-02-01-flattened",
                   "ipg-2024-09-23", "cr-2025-06-06-chapter7", "mtr-2025-11-10",
                   "mtr-2026-02-27"]


def test_rule_json_has_subrules_and_examples(db_path):
    result = run("rule", "702.19", "--json", db=db_path)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["document"], data["number"], data["kind"], data["title"], data["text"]) == (
        "cr-2025-06-06-chapter7", "702.19", "rule", "Trample", "Trample")
    assert [s["number"] for s in data["subrules"]][:3] == ["702.19a", "702.19b", "702.19c"]
    assert data["subrules"][1]["examples"][0].startswith("A 2/2 creature that can block")


def test_rule_defaults_to_the_newest_document_that_has_it(db_path):
    newest = json.loads(run("rule", "702.19", "--json", db=db_path).output)
    older = json.loads(run("rule", "502.9", "--json", db=db_path).output)
    assert (newest["document"], older["document"], older["title"]) == (
        "cr-2025-06-06-chapter7", "cr-2009-02-01-flattened", "Trample")


def test_rule_accepts_a_trailing_period_and_doc(db_path):
    result = run("rule", "502.9.", "--doc", "cr-2009-02-01-flattened", db=db_path)
    assert result.exit_code == 0
    assert result.output.startswith("502.9 (cr-2009-02-01-flattened)\n  Trample\n502.9a")


def test_rule_not_found_exits_1_with_suggestions(db_path):
    result = run("rule", "702.19z", db=db_path)
    assert result.exit_code == 1
    assert result.output == (
        "Error: no rule 702.19z; did you mean 702.19, 702.19a, 702.19b, 702.19c, 702.19d?\n")


def test_unknown_document_is_a_usage_error(db_path):
    result = run("rule", "702.19", "--doc", "cr-1900-01-01", db=db_path)
    assert result.exit_code == 2
    assert "no document cr-1900-01-01" in result.output


def test_missing_database_is_an_input_error(tmp_path):
    result = run("docs", db=tmp_path / "none.db")
    assert result.exit_code == 2
    assert "run `rulesdb build` first" in result.output


def test_rulesdb_db_environment_variable(db_path):
    result = CliRunner().invoke(cli, ["docs", "--json"], env={"RULESDB_DB": str(db_path)})
    assert result.exit_code == 0
    assert len(json.loads(result.output)) == 8


def test_export_json_shape(db_path):
    result = run("export", "cr-2025-06-06-chapter7", "--json", db=db_path)
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["document"] == {
        "id": "cr-2025-06-06-chapter7", "kind": "comprehensive_rules",
        "title": "Magic: The Gathering Comprehensive Rules (June 6, 2025), chapter 7 only",
        "effective_date": "2025-06-06", "partial": True, "covers": ["700-731"]}
    trample = next(r for r in data["rules"] if r["number"] == "702.19")
    assert trample == {"number": "702.19", "parent": "702", "kind": "rule", "title": "Trample",
                       "text": "Trample", "examples": []}
    assert data["rules"][0]["number"] == "700"
    assert data["glossary"] == []
    assert len(data["rules"]) == 1469


def test_export_rulings_carry_citations(db_path):
    data = json.loads(run("export", "rulings-1999-04", "--json", db=db_path).output)
    entry = next(r for r in data["rules"] if r["number"] == "A.1.1")
    assert entry["kind"] == "entry"
    assert entry["citations"] == [{"source": "D’Angelo", "date": "1998-02-03", "page": None}]


def test_export_glossary_aliases_and_obsolete(db_path):
    data = json.loads(run("export", "cr-2009-02-01-flattened", "--json", db=db_path).output)
    by_term = {g["term"]: g for g in data["glossary"]}
    assert by_term["Control, Controller"]["aliases"] == ["Control", "Controller"]
    assert by_term["Active Player, Nonactive Player Order"]["aliases"] == []
    assert any(g["obsolete"] for g in data["glossary"])


def test_export_unknown_document_exits_1(db_path):
    assert run("export", "nope", "--json", db=db_path).exit_code == 1


def test_the_group_names_each_command_by_its_module():
    from importlib import import_module

    from rulesdb.commands.group import MODULES

    for name, module in MODULES.items():
        found = [c.name for c in import_module(f"rulesdb.commands.{module}").COMMANDS]
        assert name in found, (name, module)
    modules = {p.stem for p in (ROOT / "rulesdb" / "commands").glob("*.py")}
    every = {c.name for m in modules if m != "__init__"
             for c in getattr(import_module(f"rulesdb.commands.{m}"), "COMMANDS", [])}
    assert every == set(MODULES)


def test_a_command_imports_only_its_own_module():
    import subprocess
    import sys

    code = ("import sys; from rulesdb.cli import cli; cli.get_command(None, 'rule'); "
            "print(sorted(m for m in sys.modules if m.startswith('rulesdb.commands.')))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout
    assert eval(loaded) == ["rulesdb.commands.answers", "rulesdb.commands.common",
                            "rulesdb.commands.core", "rulesdb.commands.group",
                            "rulesdb.commands.plain", "rulesdb.commands.render",
                            "rulesdb.commands.wrapped"]


def test_help_lists_every_command_with_its_one_line_help():
    result = CliRunner().invoke(cli, ["--help"], terminal_width=200)
    listed = re.findall(r"^  (\w+) {2,}(.+)$", result.output.split("Commands:")[1], re.M)
    assert [name for name, _ in listed] == commands()
    assert all(text.strip() for _, text in listed)
