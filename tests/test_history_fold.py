"""A rule's history folded for reading: runs of editions that repeat a version shown once,
renumberings visible, related texts shown once per run, every edition still named (and its
exact text kept); at full history it reads in a screen."""

from __future__ import annotations

import json
import sqlite3

import click
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from rulesdb.cli import cli
from rulesdb.commands.history_text import history_lines
from rulesdb.lineage.changes import compare
from rulesdb.lineage.fold import fold_history, run_note, same_key, unfold

TRAMPLE = "Trample\n502.9a Trample is a static ability. See rule 310."
TRAMPLE_2 = "Trample\n702.17a Trample is a static ability. See rule 510."


def version(doc: str, number: str, change: str, text: str = "t") -> dict:
    return {"doc": doc, "number": number, "change": change, "text": text}


def concept(doc: str, number: str, text: str) -> dict:
    return {**version(doc, number, "concept", text), "score": 0.7, "method": "title"}


def folded(items: list[dict]) -> list[tuple]:
    return [(i["doc"], i["number"], i["change"], i["run"]) for i in items]


def test_runs_of_unchanged_editions_fold_under_their_version():
    entries = [version("cr-1", "1.1", "first"), version("cr-2", "1.1", "unchanged"),
               version("cr-3", "1.1", "unchanged"), version("cr-4", "2.1", "renumbered"),
               version("cr-5", "2.1", "unchanged"), version("cr-6", "2.1", "edited", "u")]
    items = fold_history(entries)
    assert folded(items) == [("cr-1", "1.1", "first", ["cr-2", "cr-3"]),
                             ("cr-4", "2.1", "renumbered", ["cr-5"]),
                             ("cr-6", "2.1", "edited", [])]
    assert run_note(items[0]) == "; unchanged in 2 more editions, cr-2 … cr-3"
    assert run_note(items[1]) == "; unchanged in cr-5"


def test_a_run_in_which_the_number_changed_is_not_unchanged():
    entries = [version("cr-1", "502.9", "first", TRAMPLE),
               version("cr-2", "702.17", "renumbered", TRAMPLE_2),
               version("cr-3", "702.17", "unchanged", TRAMPLE_2)]
    assert folded(fold_history(entries)) == [("cr-1", "502.9", "first", []),
                                             ("cr-2", "702.17", "renumbered", ["cr-3"])]
    assert [click.unstyle(line) for line in history_lines(entries)] == [
        "3 versions and related texts in 3 documents, 2 shown (runs of editions that repeat "
        "one folded; --all: every edition)",
        "cr-1  502.9  [first]", "  Trample", "  … 1 more line(s)",
        "cr-2  502.9 → 702.17  [renumbered]; unchanged in cr-3"]


@pytest.mark.parametrize(("old", "new", "same"), [
    ('It "tramples over" them.', "It “tramples over” them.", True),      # quote style
    ("It can’t be blocked.", "It can?t be blocked.", True),             # a lossy conversion
    ("rules 601.2a–d apply", "rules 601.2a-d apply", True),             # dash style
    ("the spell is illegal ; the game", "the spell is illegal; the game", True),
    ("See rule 722, “Handling”", "See rule 723, “Handling”", True),     # a citation renumbered
    ("Creatures and tribals", "Creatures and kindreds", False),
    ("draws 2 cards", "draws 3 cards", False),                          # a number, not a citation
    ("the defending player.", "the player or planeswalker.", False),
])
def test_what_a_run_counts_as_the_same(old, new, same):
    assert (same_key(old) == same_key(new)) is same


def test_typography_and_renumbered_citations_join_the_run_and_keep_their_texts():
    texts = ["See rule 721, “Handling.”", 'See rule 721, "Handling."',
             "See rule 722, “Handling.”", "See rule 723, “Handling.”"]
    entries = [version(f"cr-{n}", "601.2", "first" if n == 0 else "unchanged", text)
               for n, text in enumerate(texts)]
    items = fold_history(entries)
    assert folded(items) == [("cr-0", "601.2", "first", ["cr-1", "cr-2", "cr-3"])]
    assert items[0]["variants"] == {f"cr-{n}": {"number": "601.2", "text": texts[n]}
                                    for n in (1, 2, 3)}
    assert run_note(items[0]) == ("; unchanged in 3 more editions, cr-1 … cr-3 "
                                  "(cross-references renumbered: 721 → 722 → 723; "
                                  "typography in 2)")
    assert unfold(items) == [(e["doc"], e["number"], e["text"]) for e in entries]


def test_a_related_text_is_shown_once_per_run_of_documents_of_its_kind():
    entries = [concept("cr-2003-01-01", "glossary: Banding, \"Bands\"", "same"),
               version("cr-2003-01-01", "502.10", "first"),
               concept("rulebook-2005", "glossary: Banding, \"Bands\"", "other"),
               concept("cr-2005-10-01", "glossary: Banding, “Bands”", "same"),
               concept("cr-2006-01-01", "glossary: Banding, \"Bands\"", "new"),
               concept("cr-2007-01-01", "glossary: Banding, \"Bands\"", "same")]
    items = fold_history(entries)
    assert [(i["doc"], i["run"]) for i in items] == [
        ("cr-2003-01-01", ["cr-2005-10-01"]), ("cr-2003-01-01", []), ("rulebook-2005", []),
        ("cr-2006-01-01", []), ("cr-2007-01-01", [])]  # a run is unbroken: "same" came back
    assert run_note(items[0]) == "; the same in cr-2005-10-01 (typography in 1)"
    assert items[0]["variants"]["cr-2005-10-01"]["number"] == "glossary: Banding, “Bands”"


def test_a_later_version_shows_the_lines_that_changed_in_context():
    old = ("Trample\n702.19a Trample is a static ability.\n702.19b The controller assigns "
           "damage.\n702.19c If all the creatures blocking it are removed, all its damage is "
           "assigned to the player.")
    new = ("Trample\n702.19a Trample is a static ability.\n702.19b The controller assigns "
           "excess damage.\n702.19c Trample over planeswalkers is a variant of trample.\n"
           "702.19d If all the creatures blocking it are removed, all its damage is "
           "assigned to the player.")
    entries = [version("cr-1", "702.19", "first", old), version("cr-2", "702.19", "unchanged", new)]
    assert [click.unstyle(line) for line in history_lines(entries)][3:] == [
        "cr-2  702.19  [subrules changed]",
        "  702.19b: The controller assigns {+excess+} damage.",
        "  702.19c added: Trample over planeswalkers is a variant of trample.",
    ]  # 702.19c → 702.19d kept its words: a relettering alone is no change
    assert compare(old, old).same


def test_every_edition_whole_with_all():
    entries = [version("cr-1", "1.1", "first", "a b"), version("cr-2", "1.1", "unchanged", "a b")]
    assert [click.unstyle(line) for line in history_lines(entries, every=True)] == [
        "cr-1  1.1  [first]", "  a b", "cr-2  1.1  [unchanged]", "  a b"]


changes = st.sampled_from(["unchanged", "unchanged", "edited", "renumbered", "concept"])
texts = st.sampled_from(["x", "y", "See rule 100.1.", "See rule 100.2.", "It’s", "It's"])
terms = st.sampled_from(["1", "2", "glossary: “A”", 'glossary: "A"'])
kinds = st.sampled_from(["cr", "rulebook"])


@given(st.lists(st.tuples(changes, terms, texts, kinds), min_size=1, max_size=40))
def test_unfolding_gives_back_every_edition(steps):
    entries = [version(f"{kind}-{at:02}", number, "first" if at == 0 else change, text)
               for at, (change, number, text, kind) in enumerate(steps)]
    items = fold_history(entries)
    assert sorted(unfold(items)) == sorted((e["doc"], e["number"], e["text"]) for e in entries)
    assert len(items) <= len(entries)
    # a run of a rule's versions is unbroken: no other version of the rule falls inside it
    versions = [e["doc"] for e in entries if e["change"] != "concept"]
    for item in (i for i in items if i["change"] != "concept"):
        start = versions.index(item["doc"])
        assert versions[start:start + 1 + len(item["run"])] == [item["doc"], *item["run"]]


def test_the_full_history_reads_in_a_screen_and_json_keeps_every_edition(history_db):
    folded_out = CliRunner().invoke(cli, ["history", "702.19", "--db", str(history_db)])
    assert folded_out.exit_code == 0, folded_out.output
    lines = folded_out.output.splitlines()
    assert len(lines) <= 80
    assert any(line.startswith("cr-2009-07-11  502.9 → 702.17  [renumbered]") for line in lines)
    assert any(line.startswith("cr-2013-07-13  702.18 → 702.19  [renumbered]; unchanged in")
               for line in lines)
    every = CliRunner().invoke(cli, ["history", "702.19", "--all", "--db", str(history_db)])
    assert len(every.output.splitlines()) > 3 * len(lines)
    data = CliRunner().invoke(cli, ["history", "702.19", "--json", "--db", str(history_db)])
    entries = json.loads(data.output)
    conn = sqlite3.connect(history_db)
    releases = {row[0] for row in conn.execute(
        "SELECT id FROM documents WHERE kind = 'comprehensive_rules' AND partial = 0")}
    assert releases <= {entry["doc"] for entry in entries}  # every whole release is there
    assert sorted(unfold(fold_history(entries))) == sorted(
        (e["doc"], e["number"], e["text"]) for e in entries)


def test_a_rule_keeps_its_history_across_the_seed_fragment_of_its_date(history_db):
    """601.2 was 409.1 before 2009; the chapter-7 seed of 2025-06-06 must not cut it."""
    result = CliRunner().invoke(cli, ["history", "601.2", "--json", "--db", str(history_db)])
    entries = json.loads(result.output)
    assert entries[0]["doc"] == "cr-2003-03-15"
    assert {"cr-2025-06-06", "cr-2025-07-25", "cr-2026-01-16"} <= {e["doc"] for e in entries}


@pytest.mark.parametrize("hit, said", [
    ({}, ""),
    ({"also_in": ["cr-2009-05-01"]}, "; the same in cr-2009-05-01"),
    ({"also_in": ["cr-2009-05-01", "cr-2008-08-01", "cr-2003-07-01"]},  # newest first
     "; the same in 3 more editions, cr-2003-07-01 … cr-2009-05-01"),
    ({"also_in": ["cr-2009-05-01"], "other_wordings": [["cr-2004-10-01", "cr-2003-07-01"]]},
     "; the same in cr-2009-05-01; 1 other wording back to cr-2003-07-01"),
])
def test_a_folded_search_hit_names_its_editions_oldest_to_newest(hit, said):
    from rulesdb.lookup.search import also_in

    assert also_in(hit) == said
