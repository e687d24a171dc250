"""The tables the layers write (references, keywords, lineage, terms, enforcement), their
indexes, and which tables each layer owns: part of the schema (rulesdb.db.schema merges them
into TABLES and INDEXES)."""

from __future__ import annotations

from typing import Any

LAYER_SPECS: dict[str, dict[str, Any]] = {
    "references": {
        "columns": {
            "id": int,
            "document": str,
            "source_table": str,
            "rule_id": int,
            "example_id": int,
            "glossary_id": int,
            "start": int,
            "end": int,
            "cited_start": int,
            "cited_end": int,
            "raw": str,
            "cited": str,
            "kind": str,
            "target_number": str,
            "target_rule_id": int,
            "target_glossary_id": int,
            # the document cited, when another than the citing one (a judges' document and
            # the CR citing each other); alone, the whole document
            "target_doc": str,
            "status": str,
            "reason": str,
        },
        "pk": "id",
        "foreign_keys": [
            ("document", "documents", "id"),
            ("rule_id", "rule_rows", "id"),
            ("example_id", "examples", "id"),
            ("glossary_id", "glossary", "id"),
            ("target_rule_id", "rule_rows", "id"),
            ("target_glossary_id", "glossary", "id"),
            ("target_doc", "documents", "id"),
        ],
    },
    "keywords": {
        "columns": {
            "id": int,
            "document": str,
            "keyword": str,
            "kind": str,
            "rule_id": int,
            "number": str,
        },
        "pk": "id",
        "foreign_keys": [("document", "documents", "id"), ("rule_id", "rule_rows", "id")],
    },
    # lineage layer (rulesdb/layers/lineage.py, over rulesdb/lineage/align.py): alignment of
    # rules between two editions
    "alignments": {
        "columns": {
            "id": int,
            "old_doc": str,
            "new_doc": str,
            "old_rule_id": int,
            "new_rule_id": int,
            "old_number": str,
            "new_number": str,
            "change": str,
            "similarity": float,
            "detail": str,
        },
        "pk": "id",
        "foreign_keys": [
            ("old_doc", "documents", "id"),
            ("new_doc", "documents", "id"),
            ("old_rule_id", "rule_rows", "id"),
            ("new_rule_id", "rule_rows", "id"),
        ],
    },
    # lineage layer: one stable id per rule across all editions
    "lineages": {
        "columns": {"id": int, "lineage": str, "rule_id": int, "document": str, "number": str},
        "pk": "id",
        "foreign_keys": [("rule_id", "rule_rows", "id"), ("document", "documents", "id")],
    },
    # lineage layer: what changed from each CR edition to the next, counted once at build
    # (the feed of releases and each edition's page read it, not the alignments)
    "edition_changes": {
        "columns": {"old_doc": str, "new_doc": str, "edited": int, "renumbered_edited": int,
                    "renumbered": int, "split": int, "merged": int, "added": int,
                    "removed": int, "outside_coverage": int},
        "pk": "new_doc",
        "foreign_keys": [("old_doc", "documents", "id"), ("new_doc", "documents", "id")],
    },
    # lineage layer: the largest edits from each CR edition to the next (most words changed)
    "edition_edits": {
        "columns": {"id": int, "old_doc": str, "new_doc": str, "rank": int, "old_number": str,
                    "new_number": str, "change": str, "similarity": float, "words": int,
                    "set_by_hand": int},
        "pk": "id",
        "foreign_keys": [("old_doc", "documents", "id"), ("new_doc", "documents", "id")],
    },
    # alignments set by hand (those rulesdb ships, data/alignment-overrides.txt, and the
    # user's, set with `rulesdb align`): kept as given, whether or not the database holds their
    # documents
    "alignment_overrides": {
        "columns": {"id": int, "old_doc": str, "old_number": str, "new_doc": str,
                    "new_number": str, "link": int, "note": str, "line": int, "status": str,
                    "file": str},
        "pk": "id",
    },
    # lineage layer: prose headings, glossary entries and rulings topics ↔ CR rules / glossary
    "concept_links": {
        "columns": {
            "id": int,
            "source_doc": str,
            "source_rule_id": int,
            "source_glossary_id": int,
            "target_doc": str,
            "target_rule_id": int,
            "target_glossary_id": int,
            "concept": str,
            "score": float,
            "method": str,
        },
        "pk": "id",
        "foreign_keys": [
            ("source_doc", "documents", "id"),
            ("source_rule_id", "rule_rows", "id"),
            ("source_glossary_id", "glossary", "id"),
            ("target_doc", "documents", "id"),
            ("target_rule_id", "rule_rows", "id"),
            ("target_glossary_id", "glossary", "id"),
        ],
    },
    # terms layer (rulesdb/layers/terms.py): glossary terms used in rule and example texts
    # the terms layer's tokens of each text, so that none is tokenized twice
    # (rulesdb/layers/token_cache.py)
    "token_cache": {"columns": {"digest": int, "length": int, "bounds": bytes},
                    "pk": "digest"},
    "token_cache_version": {"columns": {"tokenizer": str}, "pk": "tokenizer"},
    # each surface form the terms layer linked to a glossary term ("tapped" → "tap"), once:
    # `rulesdb glossary` finds inflected forms here instead of reading every mention
    "term_forms": {"columns": {"form": str, "term": str}, "pk": ("form", "term")},
    # term mentions, stored once however many editions repeat them (read through the view
    # `term_mentions`, TERM_MENTIONS_VIEW): the mentions found in one text form a set, kept
    # once (term_spans, by the glossary term each names); each rule or example text that has
    # mentions points at its set (term_uses); each document's glossary is named in
    # term_links. At full history 2.3 million mentions are 170,000 spans.
    "term_spans": {
        "columns": {"id": int, "set_id": int, "position": int, "start": int, "end": int,
                    "text": str, "term": str},
        "pk": "id",
    },
    "term_uses": {
        "columns": {"id": int, "document": str, "rule_id": int, "example_id": int,
                    "set_id": int},
        "pk": "id",
        "foreign_keys": [
            ("document", "documents", "id"),
            ("rule_id", "rule_rows", "id"),
            ("example_id", "examples", "id"),
        ],
    },
    "term_links": {
        "columns": {"document": str, "glossary": str},
        "pk": "document",
        "foreign_keys": [("document", "documents", "id"), ("glossary", "documents", "id")],
    },
    # paraphrases (rulesdb/layers/paraphrases.py): the stems the rules say in place of a stem
    "search_paraphrases": {
        "columns": {"source": str, "target": str, "p": float},
        "pk": ("source", "target"),
    },
    # enforcement (rulesdb/engine + rulesdb/trace): engines and the rule ids their code cites
    "engines": {
        "columns": {"name": str, "kind": str, "path": str, "edition": str, "files": int,
                    "skipped": int, "scanned_at": str},
        "pk": "name",
        "foreign_keys": [("edition", "documents", "id")],
    },
    "engine_citations": {
        "columns": {
            "id": int,
            "engine": str,
            "file": str,
            "line": int,
            "function": str,
            "cited": str,
            "number": str,
            "edition": str,
            "rule_id": int,
            "status": str,
            "suggestion": str,
            "context": str,
        },
        "pk": "id",
        "foreign_keys": [
            ("engine", "engines", "name"),
            ("edition", "documents", "id"),
            ("rule_id", "rule_rows", "id"),
        ],
    },
}

LAYER_INDEXES: dict[str, list[tuple[list[str], bool]]] = {
    "references": [(["target_rule_id"], False), (["document", "status"], False)],
    "keywords": [(["document", "keyword"], False), (["keyword"], False)],
    "alignments": [(["old_doc", "new_doc"], False), (["old_rule_id"], False),
                   (["new_rule_id"], False)],
    "lineages": [(["lineage"], False), (["rule_id"], True)],
    "edition_edits": [(["new_doc"], False)],
    # by document: replacing a document's mentions would read every edition's without it
    "term_uses": [(["rule_id"], False), (["document"], False), (["set_id"], False)],
    "term_spans": [(["set_id"], False), (["term"], False)],
    "engine_citations": [(["engine"], False), (["rule_id"], False), (["number"], False)],
}

# Columns mostly NULL, indexed only where they hold a value (`WHERE column IS NOT NULL`: what
# an equality or IN test reads): a reference is made by a rule, an example or a glossary
# entry, and targets a rule or an entry; a concept link joins rules or entries. At full
# history the whole-column indexes took 7 MB, these 2.5 MB.
SPARSE_INDEXES: dict[str, list[str]] = {
    "references": ["rule_id", "example_id", "glossary_id", "target_glossary_id"],
    "concept_links": ["source_rule_id", "target_rule_id"],
}

LAYER_TABLES: dict[str, list[str]] = {
    "references": ["references"],
    "keywords": ["keywords"],
    "lineage": ["alignments", "lineages", "concept_links", "edition_changes", "edition_edits"],
    "terms": ["term_uses", "term_spans", "term_links", "term_forms", "token_cache",
              "token_cache_version"],
    "enforcement": ["engines", "engine_citations"],
    "paraphrases": ["search_paraphrases"],
}
