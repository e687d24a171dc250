"""Writing parsed documents into the database; the only place documents are inserted."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

import sqlite_utils

from ..ingest.model import Document, Rule
from ..ingest.policy_infractions import infraction
from .bulk import insert_rows, insert_tuples
from .editions import cited_edition
from .fts import drop_unused_heads, index_texts, unindex_fts, unindex_texts

DOCUMENT_TABLES = ["rule_rows", "examples", "glossary", "citations", "glyphs", "parts", "residue",
                   "build_warnings", "infractions"]


@dataclass(frozen=True)
class CatalogEntry:
    """One source document as the catalogue describes it."""

    id: str
    kind: str
    title: str
    file: str
    sha256: str
    parser: str
    effective_date: str | None = None
    partial: bool = False
    covers: tuple[str, ...] = ()
    source: str | None = None
    license: str | None = None


@dataclass(frozen=True)
class StoredCounts:
    """How many items of each kind a document stored."""

    rules: int
    examples: int
    glossary: int
    citations: int
    residue: int


# Layer rows naming a document, by table: the columns that may hold its id or its rules' ids.
LAYER_ROWS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "references": (("document", "target_doc"), ()),
    "keywords": (("document",), ()),
    "alignments": (("old_doc", "new_doc"), ()),
    "edition_changes": (("old_doc", "new_doc"), ()),
    "edition_edits": (("old_doc", "new_doc"), ()),
    "lineages": (("document",), ("rule_id",)),
    "concept_links": (("source_doc", "target_doc"), ()),
    "term_uses": (("document",), ()),
    "term_links": (("document", "glossary"), ()),
    "engine_citations": (("edition",), ("rule_id",)),
    "document_sources": (("document",), ()),
}


def delete_document(db: sqlite_utils.Database, doc_id: str) -> None:
    """Remove a document and every row that belongs to it, layers and full-text index included.

    A document not in `documents` has no rows: its row is written before any other and
    removed after them all (looking for them would read tables with no index on it)."""
    if not db["documents"].exists() or not db.execute(
            "SELECT 1 FROM documents WHERE id = ?", [doc_id]).fetchone():
        return
    _cite_another_edition(db, doc_id)
    rule_ids = "SELECT id FROM rule_rows WHERE document = ?"
    for table, (doc_columns, rule_columns) in LAYER_ROWS.items():
        if not db[table].exists():
            continue
        tests = [f"[{column}] = ?" for column in doc_columns]
        tests += [f"[{column}] IN ({rule_ids})" for column in rule_columns]
        db.execute(f"DELETE FROM [{table}] WHERE {' OR '.join(tests)}", [doc_id] * len(tests))
    unindex_fts(db, doc_id)
    for table in reversed(DOCUMENT_TABLES):
        if db[table].exists():
            db.execute(f"DELETE FROM [{table}] WHERE document = ?", [doc_id])
    drop_unused_heads(db)
    if db["texts"].exists():  # the texts no other document shares
        unused = "id NOT IN (SELECT text_id FROM rule_rows WHERE text_id IS NOT NULL)"
        unindex_texts(db, unused)
        db.execute(f"DELETE FROM texts WHERE {unused}")
    db.execute("DELETE FROM documents WHERE id = ?", [doc_id])


def _cite_another_edition(db: sqlite_utils.Database, doc_id: str) -> None:
    """The references of other documents to a document as a whole ("see the Magic Tournament
    Rules") follow to the edition that name resolves to without it; with none left they go
    with the document."""
    if not db["references"].exists():
        return
    (kind,) = db.execute("SELECT kind FROM documents WHERE id = ?", [doc_id]).fetchone()
    other = cited_edition(db.conn, kind, without=doc_id)
    if other is not None:
        db.execute("UPDATE [references] SET target_doc = ? WHERE target_doc = ? AND document "
                   "!= ? AND kind = 'document' AND target_rule_id IS NULL",
                   [other, doc_id, doc_id])


def save_document(db: sqlite_utils.Database, entry: CatalogEntry, doc: Document) -> StoredCounts:
    """Insert `doc` under the catalogue entry's id; rows of an older copy are replaced.

    Committed at the end unless the caller has a transaction open.
    """
    outer = db.conn.in_transaction
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
    insert_rows(db, "parts", [
        {"document": entry.id, "name": part.name, "text": part.text, "position": index}
        for index, part in enumerate(doc.parts)
    ])
    insert_rows(db, "residue", [
        {"document": entry.id, "reason": res.reason, "text": res.text,
         "span_start": res.span[0], "span_end": res.span[1]}
        for res in doc.residue
    ])
    insert_rows(db, "build_warnings", [
        {"document": entry.id, "message": message} for message in doc.warnings
    ])
    _save_infractions(db, entry.id, doc.rules, rule_ids)
    if not outer:
        db.conn.commit()
    return StoredCounts(len(doc.rules), examples_total, len(doc.glossary), citations,
                        len(doc.residue))


def _save_infractions(db: sqlite_utils.Database, doc_id: str, rules: tuple[Rule, ...],
                      rule_ids: list[int]) -> None:
    """The parts of each infraction of an Infraction Procedure Guide, a row each."""
    rows = []
    for rule, rule_id in zip(rules, rule_ids, strict=True):
        found = infraction(rule)
        if found is not None:
            rows.append({"document": doc_id, "rule_id": rule_id, **vars(found),
                         "examples": json.dumps(list(found.examples), ensure_ascii=False)})
    insert_rows(db, "infractions", rows)


def _next_id(db: sqlite_utils.Database, table: str) -> int:
    return (db.execute(f"SELECT coalesce(max(id), 0) FROM [{table}]").fetchone()[0]) + 1


def _save_rules(db: sqlite_utils.Database, doc_id: str, rules: tuple[Rule, ...]) -> list[int]:
    text_ids = _save_texts(db, [rule.text for rule in rules if rule.text is not None])
    first = _next_id(db, "rule_rows")
    ids_by_number: dict[str, int] = {}
    depth_by_number: dict[str, int] = {}
    rows = []
    for position, rule in enumerate(rules):
        row_id = first + position
        parent_id = ids_by_number.get(rule.parent) if rule.parent else None
        depth = depth_by_number.get(rule.parent, -1) + 1 if rule.parent else 0
        number = _unique_number(rule.number, ids_by_number)
        # A number printed twice (a source typo) keeps the later row as the parent of what follows.
        ids_by_number[rule.number] = ids_by_number[number] = row_id
        depth_by_number[rule.number] = depth
        rows.append({
            "id": row_id, "document": doc_id, "number": number, "parent": rule.parent,
            "parent_id": parent_id, "kind": rule.kind, "title": rule.title,
            "text_id": None if rule.text is None else text_ids[rule.text],
            "marker": rule.marker, "new": int(rule.new), "position": position, "depth": depth,
            "span_start": rule.span[0], "span_end": rule.span[1],
        })
    insert_rows(db, "rule_rows", rows)
    return [row["id"] for row in rows]


def digest(text: str) -> int:
    """A text's key in `texts`: its BLAKE2b digest's first 8 bytes, as a signed integer."""
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big",
                          signed=True)


def _save_texts(db: sqlite_utils.Database, texts: list[str]) -> dict[str, int]:
    """The id in `texts` of each of `texts`, storing those not stored yet (ids in order of
    arrival: new rows go at the end of the table, which keeps its pages full).

    A digest already naming another text is an error: a 64-bit collision, about one chance in
    10^7 for a million distinct texts.
    """
    wanted = {digest(text): text for text in texts}
    keys = list(wanted)
    ids: dict[str, int] = {}
    for at in range(0, len(keys), 500):
        chunk = keys[at:at + 500]
        for key, row_id, stored in db.execute(
                "SELECT digest, id, text FROM texts "
                f"WHERE digest IN ({', '.join('?' * len(chunk))})", chunk):
            if stored != wanted.pop(key):
                raise RuntimeError(f"texts: two texts share the digest {key}")
            ids[stored] = row_id
    first = _next_id(db, "texts")
    rows = [(first + n, key, text) for n, (key, text) in enumerate(wanted.items())]
    insert_tuples(db, "texts", ("id", "digest", "text"), rows)
    index_texts(db, [(row_id, text) for row_id, _, text in rows])
    ids.update((text, row_id) for row_id, _, text in rows)
    return ids


def _unique_number(number: str, taken: dict[str, int]) -> str:
    """`number`, or `number-2`, `number-3`… when the source prints it more than once (the
    rulings parser's convention for its own doubled numbers)."""
    if number not in taken:
        return number
    copy = 2
    while f"{number}-{copy}" in taken:
        copy += 1
    return f"{number}-{copy}"


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
    insert_rows(db, "examples", examples)
    insert_rows(db, "citations", citations)
    insert_rows(db, "glyphs", glyphs)
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
    insert_rows(db, "glossary", rows)
    return [row["id"] for row in rows]


def _save_glossary_glyphs(db: sqlite_utils.Database, doc_id: str, doc: Document,
                          glossary_ids: list[int]) -> None:
    insert_rows(db, "glyphs", [
        {"document": doc_id, "rule_id": None, "glossary_id": glossary_id,
         "original": glyph.original, "symbol": glyph.symbol, "start": glyph.start,
         "reason": glyph.reason}
        for entry, glossary_id in zip(doc.glossary, glossary_ids, strict=True)
        for glyph in entry.glyphs
    ])


def _with_examples(definition: str, examples: tuple) -> str:
    return "\n".join([definition, *(example.reconstruct() for example in examples)])



def mark_superseded(db: sqlite_utils.Database) -> None:
    """Point each partial CR document at the whole release of the same date, if any."""
    db.execute(
        "UPDATE documents SET superseded_by = (SELECT whole.id FROM documents AS whole "
        "WHERE whole.kind = documents.kind AND whole.partial = 0 AND whole.id != documents.id "
        "AND whole.effective_date = documents.effective_date ORDER BY whole.id LIMIT 1) "
        "WHERE kind = 'comprehensive_rules'"
    )
