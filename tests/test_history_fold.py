"""A rule's history folded for reading: runs of unchanged editions and repeated related
texts shown once, every edition still named; at full history it reads in a screen."""

from __future__ import annotations

import sqlite3

from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from rulesdb.cli import cli
from rulesdb.lineage.fold import fold_history, run_note, unfold


def version(doc: str, number: str, change: str, text: str = "t") -> dict:
    return {"doc": doc, "number": number, "change": change, "text": text}


def test_runs_of_unchanged_editions_fold_under_their_version():
    entries = [version("a", "1.1", "first"), version("b", "1.1", "unchanged"),
               version("c", "1.1", "unchanged"), version("d", "2.1", "renumbered"),
               version("e", "2.1", "unchanged"), version("f", "2.1", "edited", "u")]
    items = fold_history(entries)
    assert [(i["doc"], i["change"], i["run"]) for i in items] == [
        ("a", "first", ["b", "c"]), ("d", "renumbered", ["e"]), ("f", "edited", [])]
    assert run_note(items[0]) == "; unchanged in 2 more editions, b … c"
    assert run_note(items[1]) == "; unchanged in e"


def test_a_related_text_repeated_by_editions_is_shown_once():
    entries = [{**version("a", "glossary: X", "concept", "same"), "score": 0.7},
               version("a", "1", "first"),
               {**version("b", "glossary: X", "concept", "same"), "score": 0.7},
               {**version("c", "glossary: X", "concept", "new"), "score": 0.7}]
    items = fold_history(entries)
    assert [(i["doc"], i["run"]) for i in items] == [("a", ["b"]), ("a", []), ("c", [])]
    assert run_note(items[0]) == "; the same in b"


changes = st.sampled_from(["unchanged", "unchanged", "edited", "renumbered", "concept"])


@given(st.lists(st.tuples(changes, st.sampled_from(["1", "2"]), st.sampled_from(["x", "y"])),
                min_size=1, max_size=40))
def test_folding_loses_no_edition(steps):
    entries = [version(f"d{at:02}", number, "first" if at == 0 else change, text)
               for at, (change, number, text) in enumerate(steps)]
    items = fold_history(entries)
    assert sorted(unfold(items)) == sorted((e["doc"], e["number"], e["text"]) for e in entries)
    assert len(items) <= len(entries)


def test_the_full_history_reads_in_a_screen_and_json_keeps_every_edition(history_db):
    folded = CliRunner().invoke(cli, ["history", "702.19", "--db", str(history_db)])
    assert folded.exit_code == 0, folded.output
    assert len(folded.output.splitlines()) <= 80
    assert "[renumbered]; unchanged in" in folded.output
    every = CliRunner().invoke(cli, ["history", "702.19", "--all", "--db", str(history_db)])
    assert len(every.output.splitlines()) > 3 * len(folded.output.splitlines())
    data = CliRunner().invoke(cli, ["history", "702.19", "--json", "--db", str(history_db)])
    docs = {entry["doc"] for entry in __import__("json").loads(data.output)}
    conn = sqlite3.connect(history_db)
    releases = {row[0] for row in conn.execute(
        "SELECT id FROM documents WHERE kind = 'comprehensive_rules' AND partial = 0")}
    assert releases <= docs  # every whole release has a version of trample or its glossary entry


def test_a_rule_keeps_its_history_across_the_seed_fragment_of_its_date(history_db):
    """601.2 was 409.1 before 2009; the chapter-7 seed of 2025-06-06 must not cut it."""
    result = CliRunner().invoke(cli, ["history", "601.2", "--json", "--db", str(history_db)])
    entries = __import__("json").loads(result.output)
    assert entries[0]["doc"] == "cr-2003-03-15"
    assert {"cr-2025-06-06", "cr-2025-07-25", "cr-2026-01-16"} <= {e["doc"] for e in entries}
