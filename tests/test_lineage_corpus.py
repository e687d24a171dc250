"""Alignment of rules across the real CR releases of ../shared/corpus/cr (skipped when absent)."""

from __future__ import annotations

import sqlite3
from itertools import pairwise

import pytest
import sqlite_utils

from rulesdb.db.store import CatalogEntry, save_document
from rulesdb.ingest import cr_text
from rulesdb.layers import keywords, lineage
from rulesdb.lineage.query import compute_changes, diff
from rulesdb.sources.build import build

from conftest import SOURCES, corpus_files, needs_corpus

# --- the real CR releases ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def corpus_db(tmp_path_factory):
    path = tmp_path_factory.mktemp("corpus") / "rules.db"
    build(path, SOURCES, seeds_only=True)
    db = sqlite_utils.Database(path)
    ids = []
    for file in corpus_files():
        doc = cr_text.parse(file.read_bytes())
        doc_id = f"cr-{doc.meta.effective_date}"
        save_document(db, CatalogEntry(
            id=doc_id, kind="comprehensive_rules", title=doc.meta.title, file=file.name,
            sha256="-", parser="cr_text", effective_date=doc.meta.effective_date,
            partial=False, covers=doc.meta.covers), doc)
        ids.append(doc_id)
    for layer in (keywords, lineage):
        layer.compute(db, ids)
    db.conn.commit()
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    return conn


def editions_in(conn):
    return [row[0] for row in conn.execute(
        "SELECT id FROM documents WHERE kind = 'comprehensive_rules' AND partial = 0 "
        "ORDER BY effective_date")]


@needs_corpus
def test_2004_to_2009_aligns_every_keyword_present_in_both(corpus_db):
    changes = compute_changes(corpus_db, "cr-2004-10-01", "cr-2009-10-01")
    mapped = {c.old: c.new for c in changes if c.old and c.new}
    rows = corpus_db.execute(
        "SELECT a.keyword, a.number, b.number FROM keywords a JOIN keywords b "
        "ON lower(a.keyword) = lower(b.keyword) AND a.kind = b.kind "
        "WHERE a.document = 'cr-2004-10-01' AND b.document = 'cr-2009-10-01' "
        "AND a.kind != 'ability_word'").fetchall()
    assert len(rows) >= 30
    assert [tuple(r) for r in rows if mapped.get(r[1]) != r[2]] == []


@needs_corpus
def test_consecutive_modern_releases_report_shifts_as_renumbered(corpus_db):
    modern = [e for e in editions_in(corpus_db) if e >= "cr-2009-10-01"]
    assert len(modern) >= 4
    for old_doc, new_doc in pairwise(modern):
        result = diff(corpus_db, old_doc, new_doc)
        assert result["alignment"] == "stored"
        removed = {c["text"] for c in result["changes"] if c["op"] == "removed"}
        added = {c["text"] for c in result["changes"] if c["op"] == "added"}
        assert removed & added == set(), (old_doc, new_doc)
        assert result["counts"]["renumbered"] > 20


@needs_corpus
def test_foundations_shift_in_608_is_renumbered(corpus_db):
    result = diff(corpus_db, "cr-2023-10-13", "cr-2025-02-07", section="608.2")
    ops = {(c["op"], c["old"], c["new"]) for c in result["changes"]}
    assert {("renumbered", "608.2i", "608.2j"), ("renumbered", "608.2j", "608.2k"),
            ("added", None, "608.2i")} <= ops
