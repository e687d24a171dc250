"""`rulesdb trace` on the planted multi-language tree: recall, precision, the status of each
citation (ok, suspect, renumbered), renumbering, and parallel against serial scans."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from rulesdb.trace.renumber import Renumbered
from rulesdb.trace.scan import scan
from rulesdb.trace.status import Checker

from trace_helpers import LANGUAGES, MISATTRIBUTED, copy_bundled_db, planted_tree


@pytest.fixture(scope="module")
def db_path(bundled_db, tmp_path_factory) -> Path:
    return copy_bundled_db(bundled_db, tmp_path_factory)


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    return planted_tree(tmp_path_factory)


def test_recall_precision_misattribution_and_noise_on_the_fixture_tree(db_path, tree):
    root, expected, statuses = tree
    conn = sqlite3.connect(db_path)
    checker = Checker(conn, "cr-2025-06-06-chapter7")
    result = scan(root, checker.known, workers=1)
    got = {(c.file, c.line, c.number, c.function) for c in result.citations}
    hits = got & expected
    recall, precision = len(hits) / len(expected), len(hits) / len(got)
    assert recall >= 0.99 and precision >= 0.99, (sorted(expected - got)[:5],
                                                  sorted(got - expected)[:5])
    verdicts = {(c.file, c.line, c.number): checker.check(c).status for c in result.citations}
    assert verdicts == statuses
    suspects = [k for k, v in verdicts.items() if v == "suspect"]
    assert len(suspects) == len(MISATTRIBUTED) * len(LANGUAGES)
    noise_lines = {(c.file, c.line) for c in result.citations if "192.168" in c.context
                   or "Mozilla" in c.context or "x = 702.19" in c.context
                   or "x := 702.19" in c.context}
    assert noise_lines == set()
    assert result.files == len(LANGUAGES)
    assert len(result.citations) == len(expected)


def test_renumbered_citation_suggests_the_current_number(db_path, tree):
    root, _, _ = tree
    conn = sqlite3.connect(db_path)
    checker = Checker(conn, "cr-2025-06-06-chapter7")
    result = scan(root / "src" / "java", checker.known, workers=1)
    moved = [checker.check(c) for c in result.citations if c.number == "502.9a"]
    assert [(v.status, v.suggestion) for v in moved] == [("renumbered", "702.19a")]
    suspect = [checker.check(c) for c in result.citations if c.function.endswith("applyWither")]
    assert [(v.status, v.rule, v.suggestion) for v in suspect] == [
        ("suspect", "702.83a", "702.80")]


@pytest.mark.parametrize(("old", "new"), [("502.9", "702.19"), ("502.9a", "702.19a"),
                                           ("502.2b", "702.7b"), ("502.21", "702.33")])
def test_renumbering_by_lineage_and_by_heading_agree(db_path, old, new):
    conn = sqlite3.connect(db_path)
    renumbering = Checker(conn, "cr-2025-06-06-chapter7").renumbering
    assert renumbering.has_lineage
    by_lineage = renumbering.find(old)
    renumbering.has_lineage = False
    by_heading = renumbering.find(old)
    assert (by_lineage, by_heading) == (Renumbered("cr-2009-02-01-flattened", new),) * 2


def test_parallel_and_serial_scans_agree(tree):
    root, _, _ = tree
    serial = scan(root, None, workers=1).citations
    parallel = scan(root, None, workers=2).citations
    assert sorted(serial, key=repr) == sorted(parallel, key=repr)
