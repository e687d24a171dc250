"""Editions of the judges' documents compared: what only moved in a transcription's layout
is no change (rulesdb.lineage.layout, wordiff.in_order_of), the real changes from the
November 2025 MTR to the February 2026 one, a section's history."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from rulesdb.cli import cli
from rulesdb.lineage import wordiff
from rulesdb.lineage.align import Change, RuleRec
from rulesdb.lineage.layout import layout_only, settle


@pytest.mark.parametrize(("old", "new", "same"), [
    ("Regular Regular tournaments are", "Regular\nRegular tournaments are", True),
    ("affected\nplayer.", "affected player.", True),
    ("2 Single-Elimination 4 (Team/2HG Only)", "4 (Team/2HG Only)\t2 Single-Elimination", True),
    ("a Warning", "a Game Loss", False),
    ("tournament legal", "tournament-legal", False),
])
def test_layout_only_means_the_same_words(old: str, new: str, same: bool) -> None:
    assert layout_only(old, new) is same


def test_an_edit_of_the_layout_settles_and_a_real_one_stays() -> None:
    old = {"1": RuleRec("1", "section", "A", "x y\nz"), "2": RuleRec("2", "section", "B", "a b")}
    new = {"1": RuleRec("1", "section", "A", "x y z"), "3": RuleRec("3", "section", "B", "a c")}
    changes = [Change("edited", "1", "1", 0.9), Change("renumbered_edited", "2", "3", 0.5)]
    assert settle(changes, old, new) == ([Change("unchanged", "1", "1", 1.0),
                                          Change("renumbered_edited", "2", "3", 0.5)], 1)


_LINE = st.text(alphabet="abcdef ", min_size=1, max_size=12).map(str.strip).filter(bool)


@given(st.lists(_LINE, min_size=8, max_size=30, unique=True), st.randoms())
def test_a_list_read_in_another_order_compares_line_for_line(lines, random) -> None:
    shuffled = lines[:]
    random.shuffle(shuffled)
    old, new = "\n".join(shuffled), "\n".join(lines)
    assert wordiff.in_order_of(old, new) == new
    assert all(op["op"] == "equal" for op in wordiff.layout_opcodes(old, new))
    added = "\n".join([*lines[:4], "xyz ghost", *lines[4:]])
    ops = [op for op in wordiff.layout_opcodes(old, added) if op["op"] != "equal"]
    assert [(op["op"], op["new"].strip()) for op in ops] == [("insert", "xyz ghost")]


def test_a_short_text_keeps_its_order() -> None:
    assert wordiff.in_order_of("b\na", "a\nb") == "b\na"


def test_the_2026_mtr_changes_what_its_appendix_a_says(bundled_db) -> None:
    result = CliRunner().invoke(cli, ["diff", "mtr-2025-11-10", "mtr", "--db", str(bundled_db),
                                      "--json"])
    assert result.exit_code == 0, result.output
    diff = json.loads(result.output)
    assert (diff["old"], diff["new"]) == ("mtr-2025-11-10", "mtr-2026-02-27")
    assert [(c["op"], c["old"], c["new"]) for c in diff["changes"]] == [
        ("outside_coverage", None, "introduction")] + [  # the transcription has none
        ("edited", n, n) for n in ("3.7", "6.3", "6.4", "6.6", "6.7", "A", "D")]
    added = {c["new"]: " ".join(op["new"] for op in c["words"] if op["op"] != "equal")
             for c in diff["changes"] if c["op"] == "edited"}
    assert "Teenage Mutant Ninja Turtles" in added["6.4"]
    assert "Secrets of Strixhaven" in added["6.4"]
    # the sets the transcription lists in two columns read across are not taken for changes
    assert "Eighth Edition" not in added["6.4"] and "Kaladesh" not in added["6.4"]


def test_a_section_that_only_moved_in_the_layout_has_one_version(bundled_db) -> None:
    result = CliRunner().invoke(cli, ["history", "1.12", "--doc", "mtr", "--db",
                                      str(bundled_db), "--json"])
    assert result.exit_code == 0, result.output
    versions = json.loads(result.output)
    assert [(v["doc"], v["change"]) for v in versions] == [("mtr-2025-11-10", "first"),
                                                          ("mtr-2026-02-27", "unchanged")]
    assert "Regular Regular tournaments" in versions[0]["text"]  # as the app ran it together
