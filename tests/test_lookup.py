"""Lookup commands a judge runs: rule (terms, references, tree), glossary, keywords, refs —
JSON shapes, text and Markdown output, exit codes (search: test_search.py)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from rulesdb.cli import cli
from rulesdb.lookup.search import looks_like_rule_number


@pytest.fixture(scope="module")
def db_path(bundled_db):
    return bundled_db


@pytest.fixture(scope="module")
def run(db_path):
    def invoke(*args):
        return CliRunner().invoke(cli, [*args, "--db", str(db_path)])
    return invoke


def data(result):
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)  # a not-found error goes to stderr after the JSON


def test_rule_json_marks_terms_and_lists_references(run):
    view = data(run("rule", "702.19", "--json"))
    b = next(s for s in view["subrules"] if s["number"] == "702.19b")
    terms = {(t["text"], t["term"], t["glossary"]) for t in b["terms"]}
    assert ("attacking creature", "Attacking Creature", "cr-2009-02-01-flattened") in terms
    assert ("lethal damage", "Lethal Damage", "cr-2009-02-01-flattened") in terms
    assert all(b["text"][t["start"]:t["end"]] == t["text"] for t in b["terms"])
    assert not any(t["term"] == "Trample" for s in view["subrules"] for t in s["terms"])
    c = next(s for s in view["subrules"] if s["number"] == "702.19c")
    assert c["references"] == [{
        "raw": "rule 702.19b", "cited": "702.19b", "kind": "rule", "status": "resolved",
        "reason": None, "target": "702.19b", "target_document": "cr-2025-06-06-chapter7",
        "target_text": "The controller of an attacking creature with trample first assigns "
                       "damage to the creature(s) …"}]
    a = next(s for s in view["subrules"] if s["number"] == "702.19a")
    assert a["references"][0]["status"] == "outside_coverage"


def test_rule_tree_and_examples_options(run):
    section = data(run("rule", "702", "--json"))
    tree = data(run("rule", "702", "--tree", "--json"))
    assert {s["parent"] for s in section["subrules"]} == {"702"}
    assert len(tree["subrules"]) > len(section["subrules"]) > 100
    bare = data(run("rule", "702.19", "--no-examples", "--json"))
    assert all(s["examples"] == [] for s in bare["subrules"])


def test_rule_text_and_markdown(run):
    text = run("rule", "702.19", "--no-examples")
    assert text.exit_code == 0
    assert text.output.startswith("702.19 (cr-2025-06-06-chapter7)\n  Trample\n702.19a\n  "
                                  "Trample is a ")
    assert "References:\n  702.19a → 510 — outside coverage" in text.output
    assert "\nGlossary terms:\n  Ability (cr-2009-02-01-flattened): " in text.output
    assert ("\n  Attacking Creature (cr-2009-02-01-flattened): A creature becomes an "
            "attacking") in text.output
    md = run("rule", "702.19", "--format", "markdown")
    assert md.output.startswith("**702.19 (cr-2025-06-06-chapter7)**\nTrample\n\n**702.19a**\n"
                                "Trample is a _static ability_ that")
    assert "> _Example:_ A 2/2 creature" in md.output


@pytest.mark.parametrize(("term", "doc", "expected"), [
    ("Trample", None, [("cr-2009-02-01-flattened", "Trample", "exact"),
                       ("rulebook-2005", "Trample", "exact")]),
    ("tapped", "rulebook-2005", [("rulebook-2005", "Tap", "inflected form"),
                                 ("rulebook-2005", "{T} Tap", "inflected form")]),
    ("taps", "cr-2025-06-06-chapter7", [("cr-2009-02-01-flattened", "Tap", "inflected form")]),
    ("blockers", "rulebook-2005", [("rulebook-2005", "Blocker", "inflected form"),
                                   ("rulebook-2005", "Blocking creature", "see Blocker")]),
    ("controller", "cr-2009-02-01-flattened", [("cr-2009-02-01-flattened", "Control, Controller",
                                                "alias")]),
])
def test_glossary_exact_alias_inflected_and_pointers(run, term, doc, expected):
    args = ["glossary", term, "--json", *(["--doc", doc] if doc else [])]
    result = data(run(*args))
    assert [(m["document"], m["term"], m["matched"]) for m in result["matches"]] == expected


def test_glossary_typo_suggests_and_exits_1(run):
    result = run("glossary", "trampel")
    assert result.exit_code == 1
    assert result.output == "Error: no glossary term 'trampel'; did you mean Trample, Rampage?\n"
    assert data(run("glossary", "trampel", "--json"))["suggestions"][0] == "Trample"


@pytest.mark.parametrize(("args", "doc", "count", "first"), [
    ((), "cr-2025-06-06-chapter7", 244, ("Activate", "action", "701.2")),
    (("--kind", "ability"), "cr-2025-06-06-chapter7", 182, ("Deathtouch", "ability", "702.2")),
    (("--doc", "cr-2009-02-01-flattened", "--kind", "action"), "cr-2009-02-01-flattened", 9,
     ("Attach", "action", "501.2")),
])
def test_keywords(run, args, doc, count, first):
    result = data(run("keywords", *args, "--json"))
    assert result["document"] == doc and len(result["keywords"]) == count
    k = result["keywords"][0]
    assert (k["keyword"], k["kind"], k["number"]) == first


def test_refs_both_ways(run):
    cites = data(run("refs", "702.19c", "--json"))
    assert [r["target"] for r in cites["cites"]] == ["702.19b"]
    cited = data(run("refs", "702.19b", "--json"))
    assert [(c["source"], c["number"]) for c in cited["cited_by"]] == [("rule", "702.19c")]
    glossary = data(run("refs", "502.9", "--json"))
    assert [(c["source"], c["term"]) for c in glossary["cited_by"]] == [("glossary", "Trample")]
    assert run("refs", "702.19z").exit_code == 1


@pytest.mark.parametrize("command", [["search", "x"], ["glossary", "x"], ["keywords"],
                                     ["refs", "702.19"], ["rule", "702.19"]])
def test_unknown_document_is_a_usage_error(run, command):
    result = run(*command, "--doc", "cr-1900-01-01")
    assert result.exit_code == 2
    assert "no document cr-1900-01-01" in result.output


@pytest.mark.parametrize(("text", "expected"), [
    ("702.19", True), ("702.19b.", True), ("702", True), ("A.1.Ruling.3", True),
    ("trample", False), ("702 19", False), ("A", False),
])
def test_looks_like_rule_number(text, expected):
    assert looks_like_rule_number(text) is expected


def test_lookup_paths_import_no_heavy_modules():
    code = ("import sys, rulesdb.cli, rulesdb.lookup.lookup, rulesdb.commands.render; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & "
            "{'spacy', 'datasette', 'sqlite_utils', 'thinc', 'numpy'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
