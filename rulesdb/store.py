"""Writing parsed documents into the database; the only place documents are inserted."""

from __future__ import annotations

import json
from dataclasses import dataclass

import sqlite_utils

from .catalog import CatalogEntry
from .ingest.model import Document, Rule

DOCUMENT_TABLES = ["rules", "examples", "glossary", "citations", "glyphs", "parts", "residue",
                   "build_warnings"]


@dataclass(frozen=True)
class StoredCounts:
    """How many items of each kind a document stored."""

    rules: int
    examples: int
    glossary: int
    citations: int
    residue: int


def delete_document(db: sqlite_utils.Database, doc_id: str) -> None:
    """Remove a document and every row that belongs to it, layers included."""
    for table in ["references", "keywords", *reversed(DOCUMENT_TABLES)]:
        if db[table].exists():
            db.execute(f"DELETE FROM [{table}] WHERE document = ?", [doc_id])
    db.execute("DELETE FROM documents WHERE id = ?", [doc_id])


def save_document(db: sqlite_utils.Database, entry: CatalogEntry, doc: Document) -> StoredCounts:
    """Insert `doc` under the catalogue entry's id; rows of an older copy are replaced."""
    delete_document(db, entry.id)
    examples_total = sum(len(rule.examples) for rule in doc.rules)
    db["documents"].insert(
        {
            "id": entry.id,
            "kind": entry.kind,
            "title": entry.title,
            "effective_date": entry.effective_date or doc.meta.effective_date,
            "date_text": doc.meta.date_text,
            "partial": int(entry.partial),
            "covers": json.dumps(list(entry.covers or doc.meta.covers)),
            "file": entry.file,
            "sha256": entry.sha256,
            "parser": entry.parser,
            "source": entry.source,
            "license": entry.license,
            "rule_count": len(doc.rules),
            "example_count": examples_total,
            "glossary_count": len(doc.glossary),
        }
    )
    rule_ids = _save_rules(db, entry.id, doc.rules)
    glossary_ids = _save_glossary(db, entry.id, doc)
    citations = _save_rule_details(db, entry.id, doc.rules, rule_ids)
    _save_glossary_glyphs(db, entry.id, doc, glossary_ids)
    db["parts"].insert_all(
        {"document": entry.id, "name": part.name, "text": part.text, "position": index}
        for index, part in enumerate(doc.parts)
    )
    db["residue"].insert_all(
        {"document": entry.id, "reason": res.reason, "text": res.text,
         "span_start": res.span[0], "span_end": res.span[1]}
        for res in doc.residue
    )
    db["build_warnings"].insert_all(
        {"document": entry.id, "message": message} for message in doc.warnings
    )
    return StoredCounts(len(doc.rules), examples_total, len(doc.glossary), citations,
                        len(doc.residue))


def _next_id(db: sqlite_utils.Database, table: str) -> int:
    return (db.execute(f"SELECT coalesce(max(id), 0) FROM [{table}]").fetchone()[0]) + 1


def _save_rules(db: sqlite_utils.Database, doc_id: str, rules: tuple[Rule, ...]) -> list[int]:
    first = _next_id(db, "rules")
    ids_by_number: dict[str, int] = {}
    depth_by_number: dict[str, int] = {}
    rows = []
    for position, rule in enumerate(rules):
        row_id = first + position
        parent_id = ids_by_number.get(rule.parent) if rule.parent else None
        depth = depth_by_number.get(rule.parent, -1) + 1 if rule.parent else 0
        ids_by_number[rule.number] = row_id
        depth_by_number[rule.number] = depth
        rows.append({
            "id": row_id, "document": doc_id, "number": rule.number, "parent": rule.parent,
            "parent_id": parent_id, "kind": rule.kind, "title": rule.title, "text": rule.text,
            "marker": rule.marker, "new": int(rule.new), "position": position, "depth": depth,
            "span_start": rule.span[0], "span_end": rule.span[1],
        })
    db["rules"].insert_all(rows, batch_size=2000)
    return [row["id"] for row in rows]


def _save_rule_details(db: sqlite_utils.Database, doc_id: str, rules: tuple[Rule, ...],
                       rule_ids: list[int]) -> int:
    examples, citations, glyphs = [], [], []
    for rule, rule_id in zip(rules, rule_ids, strict=True):
        examples.extend(
            {"document": doc_id, "rule_id": rule_id, "number": rule.number, "position": index,
             "label": example.label, "text": example.text}
            for index, example in enumerate(rule.examples)
        )
        citations.extend(
            {"document": doc_id, "rule_id": rule_id, "number": rule.number,
             "source": cite.source, "date": cite.date, "page": cite.page, "raw": cite.raw,
             "start": cite.start, "end": cite.end}
            for cite in rule.citations
        )
        glyphs.extend(
            {"document": doc_id, "rule_id": rule_id, "glossary_id": None,
             "original": glyph.original, "symbol": glyph.symbol, "start": glyph.start,
             "reason": glyph.reason}
            for glyph in rule.glyphs
        )
    db["examples"].insert_all(examples, batch_size=2000)
    db["citations"].insert_all(citations, batch_size=2000)
    db["glyphs"].insert_all(glyphs, batch_size=2000)
    return len(citations)


def _save_glossary(db: sqlite_utils.Database, doc_id: str, doc: Document) -> list[int]:
    first = _next_id(db, "glossary")
    rows = [
        {"id": first + position, "document": doc_id, "term": entry.term,
         "aliases": json.dumps(list(entry.aliases)), "heading": entry.heading,
         "definition": _with_examples(entry.definition, entry.examples),
         "obsolete": int(entry.obsolete), "see": json.dumps(list(entry.see)),
         "position": position}
        for position, entry in enumerate(doc.glossary)
    ]
    db["glossary"].insert_all(rows, batch_size=2000)
    return [row["id"] for row in rows]


def _save_glossary_glyphs(db: sqlite_utils.Database, doc_id: str, doc: Document,
                          glossary_ids: list[int]) -> None:
    db["glyphs"].insert_all(
        {"document": doc_id, "rule_id": None, "glossary_id": glossary_id,
         "original": glyph.original, "symbol": glyph.symbol, "start": glyph.start,
         "reason": glyph.reason}
        for entry, glossary_id in zip(doc.glossary, glossary_ids, strict=True)
        for glyph in entry.glyphs
    )


def _with_examples(definition: str, examples: tuple) -> str:
    return "\n".join([definition, *(example.reconstruct() for example in examples)])

