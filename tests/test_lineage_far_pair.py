"""The alignment across twenty years, 2004-10-01 → 2026-01-16 (computed on the fly, as
`rulesdb diff` does for editions that are not consecutive), against a golden table:
tests/data/alignment_2004_2026.csv holds old → new pairs, each checked by reading both
texts (the `why` column). "lead": the old rule's text survives as the new rule's lead
sentence while a sibling holds the rest; "family": a template sentence ("Multiple instances
of trample …") stays in its keyword's or type's family where another family's rule reads
almost the same. The new rule named is the one the old rule goes on as (its one-to-one
match: in a split, the part that is not extra)."""

from __future__ import annotations

import csv
import sqlite3
from pathlib import Path

import pytest

from rulesdb.lineage.query import compute_changes

GOLDEN = Path(__file__).parent / "data" / "alignment_2004_2026.csv"
OLD, NEW = "cr-2004-10-01", "cr-2026-01-16"


def golden() -> list[dict[str, str]]:
    with GOLDEN.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="module")
def goes_on_as(history_db) -> dict[str, str]:
    """Each old rule of 2004-10-01 → the rule of 2026-01-16 it goes on as."""
    conn = sqlite3.connect(history_db)
    changes = compute_changes(conn, OLD, NEW)
    conn.close()
    return {c.old: c.new for c in changes if c.old and c.new and not c.extra}


def test_the_golden_table_is_well_formed(history_db):
    rows = golden()
    assert {r["kind"] for r in rows} == {"lead", "family"}
    assert [r for r in rows if not r["why"].strip()] == []
    conn = sqlite3.connect(history_db)
    known = set(conn.execute("SELECT document, number FROM rules WHERE document IN (?, ?)",
                             [OLD, NEW]))
    conn.close()
    assert [r for r in rows if (OLD, r["old"]) not in known or (NEW, r["new"]) not in known] \
        == []


@pytest.mark.parametrize("kind", ["lead", "family"])
def test_the_far_pair_reproduces_the_golden_pairs(goes_on_as, kind):
    rows = [r for r in golden() if r["kind"] == kind]
    assert [(r["old"], goes_on_as.get(r["old"])) for r in rows] == [
        (r["old"], r["new"]) for r in rows]
