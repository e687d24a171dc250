"""Adding an edition updates only what it changes, and the result is what computing
everything again gives: lineages from the first changed edition on, the concept links of the
touched editions, a document's term mentions through an index, nothing deleted for a
document that was never stored."""

from __future__ import annotations

import shutil
import sqlite3
from collections import Counter
from pathlib import Path

import pytest
import sqlite_utils

from rulesdb.db.store import CatalogEntry, save_document
from rulesdb.ingest import cr_text
from rulesdb.layers import concepts, lineage, terms
from rulesdb.sources.build import build

from conftest import SOURCES

ADDED = ["cr-2012-01-01", "cr-2016-01-01", "cr-2020-01-01"]
EDITIONS = ["cr-2009-02-01-flattened", *ADDED, "cr-2025-06-06-chapter7"]


@pytest.fixture(scope="module")
def editions(tmp_path_factory) -> Path:
    """The bundled build with its chapter 7 stored as three more editions between its two,
    each with its alignments, lineages, concept links and term mentions."""
    path = tmp_path_factory.mktemp("editions") / "rules.db"
    build(path, SOURCES, seeds_only=True)
    db = sqlite_utils.Database(path)
    doc = cr_text.parse((SOURCES / "cr-2025-06-06-chapter7.txt").read_bytes())
    for doc_id in ADDED:
        save_document(db, CatalogEntry(
            id=doc_id, kind="comprehensive_rules", title=doc_id, file=f"{doc_id}.txt",
            sha256="0", parser="cr_text", effective_date=doc_id.removeprefix("cr-"),
            partial=True, covers=doc.meta.covers), doc)
    lineage.compute(db, ADDED)
    terms.compute(db, ADDED)
    db.conn.commit()
    db.close()
    return path


@pytest.fixture
def db(editions, tmp_path) -> sqlite_utils.Database:
    path = tmp_path / "rules.db"
    shutil.copyfile(editions, path)
    return sqlite_utils.Database(path)


def lineage_rows(db: sqlite_utils.Database) -> list[tuple]:
    return sorted(db.execute("SELECT lineage, rule_id, document, number FROM lineages"))


def link_rows(db: sqlite_utils.Database) -> Counter:
    columns = [c.name for c in db["concept_links"].columns if c.name != "id"]
    return Counter(db.execute(f"SELECT {', '.join(columns)} FROM concept_links"))


def test_the_fixture_chains_lineages_across_the_editions(db):
    """The chapter 7 copies continue the lineages of 2009, not lineages of their own."""
    rows = lineage_rows(db)
    continued = [lin for lin, _, doc, _ in rows if doc == "cr-2020-01-01"
                 and lin.startswith("cr-2009-02-01-flattened/")]
    assert len(continued) > 300


@pytest.mark.parametrize("first", range(len(EDITIONS) + 1))
def test_lineages_stored_from_any_edition_on_are_those_stored_all_at_once(db, first):
    lineage._store_lineages(db, EDITIONS, 0)
    expected = lineage_rows(db)
    marks = ", ".join("?" * len(EDITIONS[first:]))
    db.execute(f"UPDATE lineages SET lineage = 'stale' WHERE document IN ({marks})",
               EDITIONS[first:])  # what is recomputed must not be read back
    lineage._store_lineages(db, EDITIONS, first)
    assert lineage_rows(db) == expected


def test_missing_lineages_before_the_first_changed_edition_are_stored_again(db):
    lineage._store_lineages(db, EDITIONS, 0)
    expected = lineage_rows(db)
    marks = ", ".join("?" * len(EDITIONS))
    db.execute(f"DELETE FROM lineages WHERE document IN ({marks})", EDITIONS)
    lineage._store_lineages(db, EDITIONS, 3)
    assert lineage_rows(db) == expected


def test_an_edition_realigned_rewrites_only_the_lineages_from_it_on(db, monkeypatch):
    expected = lineage_rows(db)
    written: list[str] = []
    real = lineage.insert_tuples

    def insert(db, table, columns, rows):
        if table == "lineages":
            written.extend(row[2] for row in rows)
        return real(db, table, columns, rows)

    monkeypatch.setattr(lineage, "insert_tuples", insert)
    db.execute("DELETE FROM alignments WHERE new_doc = 'cr-2016-01-01' "
               "OR old_doc = 'cr-2016-01-01'")
    lineage.compute(db, ["cr-2016-01-01"])
    assert set(written) == set(EDITIONS[2:])
    assert lineage_rows(db) == expected


@pytest.mark.parametrize("touched", [[doc] for doc in EDITIONS] + [ADDED[:2], ["rulebook-1995"]])
def test_concept_links_of_touched_documents_are_those_computing_all_gives(db, touched):
    concepts.compute(db)
    expected = link_rows(db)
    marks = ", ".join("?" * len(touched))
    db.execute(f"DELETE FROM concept_links WHERE source_doc IN ({marks}) "
               f"OR target_doc IN ({marks})", [*touched, *touched])
    assert link_rows(db).total() < expected.total()
    concepts.compute(db, touched)
    assert link_rows(db) == expected


def test_a_documents_term_mentions_are_read_through_an_index(bundled_db):
    conn = sqlite3.connect(bundled_db)
    for sql, index in (("DELETE FROM term_uses WHERE document = ?", "idx_term_uses_document"),
                       ("SELECT * FROM term_mentions WHERE document = ?",
                        "idx_term_uses_document"),
                       ("SELECT * FROM term_mentions WHERE rule_id = ?", "idx_term_uses_rule_id"),
                       ("SELECT * FROM term_mentions WHERE glossary_id = ?",
                        "idx_term_spans_term")):
        plan = " ".join(row[-1] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}", ["x"]))
        assert index in plan, (sql, plan)


def test_the_relinked_documents_are_found_by_their_stored_glossary(db):
    documents = [dict(zip(("id", "kind", "effective_date", "glossary_count"), row,
                          strict=True)) for row in db.execute(
        "SELECT id, kind, effective_date, glossary_count FROM documents")]
    assert terms._relinked(db, documents, []) == []
    db.execute("UPDATE term_links SET glossary = 'rulebook-2005' "
               "WHERE document = 'cr-2025-06-06-chapter7'")
    assert terms._relinked(db, documents, []) == ["cr-2025-06-06-chapter7"]


def test_a_new_document_is_stored_without_reading_the_layer_tables(db):
    statements: list[str] = []
    db.conn.set_trace_callback(statements.append)
    doc = cr_text.parse((SOURCES / "cr-2025-06-06-chapter7.txt").read_bytes())
    save_document(db, CatalogEntry(
        id="cr-2030-01-01", kind="comprehensive_rules", title="t", file="x.txt", sha256="0",
        parser="cr_text", effective_date="2030-01-01", partial=True,
        covers=doc.meta.covers), doc)
    db.conn.set_trace_callback(None)
    assert not [s for s in statements if s.startswith("DELETE")]
    assert db.execute("SELECT count(*) FROM rules WHERE document = 'cr-2030-01-01'"
                      ).fetchone()[0] == len(doc.rules)
