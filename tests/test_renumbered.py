"""`rulesdb diff OLD NEW --renumbered`: old number → new number of every renumbered rule,
edited or not, in number order; as text, JSON, CSV, Markdown and HTML."""

from __future__ import annotations

import json

import pytest

from rulesdb.numbers import natural_key

from edition_helpers import make_db, run

A, B = "cr-2024-01-01", "cr-2024-06-01"
MOVED = [("702.2", "702.3"), ("702.2a", "702.3a"), ("702.3", "702.4"), ("702.3a", "702.4a")]


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    return make_db(tmp_path_factory.mktemp("renumbered"))


def renumbered(db, *args: str) -> str:
    result = run("diff", A, B, "--renumbered", "--db", str(db), *args)
    assert result.exit_code == 0, result.output
    return result.output


def test_every_renumbered_rule_in_number_order(db):
    assert json.loads(renumbered(db, "--json")) == {
        "old": A, "new": B, "alignment": "stored",
        "renumbered": [{"old": old, "new": new, "edited": False} for old, new in MOVED]}


def test_the_list_as_text_csv_markdown_and_html(db):
    assert renumbered(db) == f"{A} → {B}: 4 renumbered\n" + "".join(
        f"{old} → {new}\n" for old, new in MOVED)
    assert renumbered(db, "--format", "csv") == "old,new,edited,set_by_hand,note\n" + "".join(
        f"{old},{new},,,\n" for old, new in MOVED)
    assert renumbered(db, "--format", "markdown").splitlines()[2:] == [
        "| old | new | edited |", "|---|---|---|",
        *(f"| {old} | {new} |  |" for old, new in MOVED)]
    assert renumbered(db, "--format", "html").count("<tr><td>") == len(MOVED)


def test_the_list_keeps_to_a_section(db):
    found = json.loads(renumbered(db, "--json", "--section", "702.4"))["renumbered"]
    assert [(c["old"], c["new"]) for c in found] == MOVED[2:]


def test_a_pair_set_by_hand_is_marked_in_the_list(db, tmp_path):
    copy = tmp_path / "rules.db"
    copy.write_bytes(db.read_bytes())
    result = run("align", A, "100.3", B, "702.2a", "--note", "test", "--db", str(copy),
                 "--overrides", str(tmp_path / "o.txt"))
    assert result.exit_code == 0, result.output
    found = json.loads(run("diff", A, B, "--renumbered", "--json", "--db", str(copy)).output)
    assert found["renumbered"][0] == {"old": "100.3", "new": "702.2a", "edited": True,
                                      "set_by_hand": True, "note": "test"}
    assert [(c["old"], c["new"]) for c in found["renumbered"][1:]] == MOVED
    result = run("diff", A, B, "--renumbered", "--db", str(copy))
    assert result.output.splitlines()[1] == "100.3 → 702.2a (edited) (set by hand: test)"


def test_the_renumbering_of_2025_02_07_is_the_one_the_diff_counts(history_db):
    old, new = "cr-2023-10-13", "cr-2025-02-07"
    listed = json.loads(run("diff", old, new, "--renumbered", "--json",
                            "--db", str(history_db)).output)["renumbered"]
    counts = json.loads(run("diff", old, new, "--json", "--db", str(history_db)).output)["counts"]
    assert len(listed) == counts.get("renumbered", 0) + counts.get("renumbered_edited", 0)
    assert 140 <= len(listed) < 150
    assert sum(c["edited"] for c in listed) == counts.get("renumbered_edited", 0)
    assert [c["old"] for c in listed] == sorted((c["old"] for c in listed), key=natural_key)
    assert all(c["old"] != c["new"] for c in listed)
    csv_lines = run("diff", old, new, "--renumbered", "--format", "csv",
                    "--db", str(history_db)).output.splitlines()
    assert len(csv_lines) == len(listed) + 1
