"""The alignments set by hand that the project ships (data/alignment-overrides.txt): each has
a note, applies to the full history, corrects what the automatic alignment gives, and shows
as set by hand in the diff and the history."""

from __future__ import annotations

import json
import sqlite3

import pytest

from rulesdb.lineage.align import align
from rulesdb.lineage.overrides import read
from rulesdb.lineage.query import edition

from conftest import OVERRIDES
from edition_helpers import run

SHIPPED = read(OVERRIDES) or []


def test_the_file_holds_reviewed_corrections_each_with_a_note():
    assert len(SHIPPED) >= 18  # 25 found; 7 dropped once parser and alignment got them right
    assert all(o.note and len(o.note) > 20 for o in SHIPPED)
    assert len({o.key for o in SHIPPED}) == len(SHIPPED)


def test_every_shipped_override_applies_to_the_full_history(history_db):
    conn = sqlite3.connect(history_db)
    statuses = conn.execute("SELECT old_doc, old_number, new_doc, new_number, status "
                            "FROM alignment_overrides ORDER BY id").fetchall()
    conn.close()
    assert statuses == [(*o.key, "applied") for o in SHIPPED]


@pytest.fixture(scope="module")
def automatic(history_db):
    """The alignment of each pair of editions the file names, without its overrides."""
    conn = sqlite3.connect(history_db)
    found = {}
    for pair in {o.pair for o in SHIPPED}:
        (old, old_cover), (new, new_cover) = (edition(conn, doc) for doc in pair)
        found[pair] = align(old, new, old_cover, new_cover)
    conn.close()
    return found


@pytest.mark.parametrize("override", SHIPPED, ids=[o.describe() for o in SHIPPED])
def test_each_override_corrects_the_alignment_and_shows_in_the_diff(override, automatic,
                                                                    history_db):
    before = [(c.old, c.new) for c in automatic[override.pair]]
    assert (override.old_number, override.new_number) not in before
    result = run("diff", *override.pair, "--json", "--db", str(history_db))
    changes = json.loads(result.output)["changes"]
    pair = [c for c in changes if (c["old"], c["new"]) == (override.old_number,
                                                            override.new_number)]
    assert [(c["set_by_hand"], c["note"]) for c in pair] == [(True, override.note)]


def test_a_shipped_override_joins_a_rules_history(history_db):
    result = run("history", "310.2b", "--doc", "cr-2007-10-01", "--json", "--db",
                 str(history_db))
    versions = [(e["doc"], e["number"], e.get("set_by_hand", False))
                for e in json.loads(result.output) if e["change"] != "concept"]
    assert versions[0] == ("cr-2003-03-15", "310.1b", False)
    assert ("cr-2007-10-01", "310.2b", True) in versions


def test_the_shipped_file_waits_in_a_build_without_the_history(bundled_db):
    conn = sqlite3.connect(bundled_db)
    statuses = conn.execute("SELECT status FROM alignment_overrides ORDER BY id").fetchall()
    conn.close()
    assert statuses == [(f"not applied: no {o.old_doc} or {o.new_doc} in the database",)
                        for o in SHIPPED]
