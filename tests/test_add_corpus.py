"""The real releases of ../shared/corpus/cr added to one database (skipped when absent)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sqlite_utils

from rulesdb.ingest.cr_text import parse
from rulesdb.ingest.decode import decode
from rulesdb.ingest.lossless import lossless_mismatch, normalize_ws
from rulesdb.sources.add import add_files
from rulesdb.sources.build import build

from conftest import SOURCES, corpus_files, needs_corpus

pytestmark = needs_corpus


def doc_id(path: Path) -> str:
    return "cr-" + path.stem.removeprefix("MagicCompRules-")


@pytest.fixture(scope="module")
def corpus_db(tmp_path_factory) -> sqlite_utils.Database:
    path = tmp_path_factory.mktemp("corpus") / "rules.db"
    build(path, SOURCES, seeds_only=True)
    report = add_files(path, corpus_files())
    assert [a.action for a in report.added] == ["added"] * len(corpus_files())
    return sqlite_utils.Database(path)


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_release_is_stored_exactly_as_parsed(corpus_db, path):
    doc = parse(path.read_bytes())
    assert lossless_mismatch(doc) is None
    ident = doc_id(path)
    rows = corpus_db.execute(
        "SELECT id, number, kind, parent, title, text, marker FROM rules WHERE document = ? "
        "ORDER BY position", [ident]).fetchall()
    assert [(kind, parent, title, text, marker) for _, _, kind, parent, title, text, marker
            in rows] == [(r.kind, r.parent, r.title, r.text, r.marker) for r in doc.rules]
    numbers = [row[1] for row in rows]
    assert len(set(numbers)) == len(numbers)
    assert [n.split("-")[0] for n in numbers] == [r.number for r in doc.rules]
    examples = corpus_db.execute(
        "SELECT rules.position, examples.text FROM examples JOIN rules ON rules.id = "
        "examples.rule_id WHERE examples.document = ? ORDER BY rules.position, "
        "examples.position", [ident]).fetchall()
    assert examples == [(i, e.text) for i, r in enumerate(doc.rules) for e in r.examples]
    glossary = corpus_db.execute(
        "SELECT term, aliases, obsolete, definition FROM glossary WHERE document = ? "
        "ORDER BY position", [ident]).fetchall()
    assert glossary == [
        (g.term, json.dumps(list(g.aliases)), int(g.obsolete),
         "\n".join([g.definition, *(e.reconstruct() for e in g.examples)]))
        for g in doc.glossary]


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_every_stored_text_is_in_the_source(corpus_db, path):
    source = normalize_ws(decode(path.read_bytes()))
    missing = []
    for marker, text in corpus_db.execute(
        "SELECT marker, text FROM rules WHERE document = ?", [doc_id(path)]
    ):
        spaced, glued = normalize_ws(f"{marker} {text}"), normalize_ws(marker + text)
        if spaced not in source and glued not in source:
            missing.append(marker)
    for heading, definition in corpus_db.execute(
        "SELECT heading, definition FROM glossary WHERE document = ?", [doc_id(path)]
    ):
        if normalize_ws(f"{heading} {definition}") not in source:
            missing.append(heading)
    # doubled spaces are reduced to one (a reported source typo), nothing else differs
    assert missing == []


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_references_resolve(corpus_db, path):
    counts = dict(corpus_db.execute(
        "SELECT status, count(*) FROM [references] WHERE document = ? GROUP BY status",
        [doc_id(path)]).fetchall())
    assert counts.get("outside_coverage", 0) == 0
    assert counts["resolved"] / (counts["resolved"] + counts.get("unresolved", 0)) >= 0.99


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_document_row(corpus_db, path):
    row = corpus_db["documents"].get(doc_id(path))
    day = path.stem.removeprefix("MagicCompRules-")
    assert (row["effective_date"], row["file_date"], row["partial"], row["file"]) == (
        day, day, 0, path.name)
    assert row["title"].startswith("Magic: The Gathering Comprehensive Rules (")


def test_full_text_search_covers_every_edition(corpus_db):
    editions = corpus_db.execute(
        "SELECT DISTINCT rules.document FROM rules_fts JOIN rules ON rules.id = "
        "rules_fts.rowid WHERE rules_fts MATCH 'trample' AND rules.document LIKE 'cr-%' "
        "ORDER BY 1").fetchall()
    assert [e[0] for e in editions] == sorted(
        ["cr-2009-02-01-flattened", "cr-2025-06-06-chapter7", *map(doc_id, corpus_files())])
    # the rules' index (once per distinct title and text), added to release by release, holds
    # what a rebuild would
    for table in ("rule_heads", "examples", "glossary", "texts"):
        corpus_db.execute(f"INSERT INTO [{table}_fts] ([{table}_fts]) VALUES ('integrity-check')")
    assert corpus_db.execute(
        "SELECT count(*) FROM (SELECT DISTINCT title, text_id FROM rule_rows)").fetchone() == \
        corpus_db.execute("SELECT count(*) FROM rule_heads").fetchone()


def test_adding_the_corpus_again_changes_nothing(corpus_db):
    before = corpus_db.execute("SELECT count(*) FROM rules").fetchone()[0]
    report = add_files(Path(corpus_db.conn.execute("PRAGMA database_list").fetchone()[2]),
                       corpus_files())
    assert [a.action for a in report.added] == ["unchanged"] * len(corpus_files())
    assert corpus_db.execute("SELECT count(*) FROM rules").fetchone()[0] == before
