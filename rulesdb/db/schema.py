"""The database schema: tables, the view `rules`, foreign keys, indexes, and
which columns full-text search covers (rulesdb.db.fts builds and fills it).

Layers own their tables and declare them in rulesdb.db.layer_tables, merged here, so a
reader finds every column of rules.db in these two modules and `ensure_schema` can
(re)create any of them alone.
"""

from __future__ import annotations

from typing import Any

import sqlite_utils

from .layer_tables import LAYER_INDEXES, LAYER_SPECS, LAYER_TABLES, SPARSE_INDEXES
from .views import RULES_VIEW, TERM_MENTIONS_VIEW, view

__all__ = ["FTS", "INDEXES", "LAYER_TABLES", "TABLES", "OutdatedSchema", "ensure_schema"]

Columns = dict[str, Any]

DOCUMENT_COLUMNS: Columns = {
    "id": str,
    "kind": str,
    "title": str,
    "effective_date": str,
    "date_text": str,
    "partial": int,
    "covers": str,
    "file": str,
    "sha256": str,
    "parser": str,
    "source": str,
    "license": str,
    "rule_count": int,
    "example_count": int,
    "glossary_count": int,
    # `rulesdb add`: the date in the source file's name, when it carries one
    "file_date": str,
    # a partial document (a seed fragment) whose date a whole release of the database also
    # carries: that release's id; lookups prefer it
    "superseded_by": str,
}

TABLES: dict[str, dict[str, Any]] = {
    "documents": {"columns": DOCUMENT_COLUMNS, "pk": "id"},
    # the rules' texts, each distinct text once (an unchanged rule repeats its text in every
    # edition); digest: the first 8 bytes of the text's BLAKE2b digest (rulesdb.db.store.digest)
    "texts": {"columns": {"id": int, "digest": int, "text": str}, "pk": "id"},
    # the rules, read through the view `rules` (RULES_VIEW), which joins each row's text
    "rule_rows": {
        "columns": {
            "id": int,
            "document": str,
            "number": str,
            "parent": str,
            "parent_id": int,
            "kind": str,
            "title": str,
            "text_id": int,
            "marker": str,
            "new": int,
            "position": int,
            "depth": int,
            "span_start": int,
            "span_end": int,
        },
        "pk": "id",
        "foreign_keys": [("document", "documents", "id"), ("parent_id", "rule_rows", "id"),
                         ("text_id", "texts", "id")],
    },
    # each distinct (title, text) a rule prints, once: what the rules' full-text index holds
    # (rulesdb.db.fts; the view `rules_fts` gives it back row by row)
    "rule_heads": {
        "columns": {"id": int, "title": str, "text_id": int},
        "pk": "id",
        "foreign_keys": [("text_id", "texts", "id")],
    },
    "examples": {
        "columns": {
            "id": int,
            "document": str,
            "rule_id": int,
            "number": str,
            "position": int,
            "label": str,
            "text": str,
        },
        "pk": "id",
        "foreign_keys": [("document", "documents", "id"), ("rule_id", "rule_rows", "id")],
    },
    "glossary": {
        "columns": {
            "id": int,
            "document": str,
            "term": str,
            "aliases": str,
            "heading": str,
            "definition": str,
            "obsolete": int,
            "see": str,
            "position": int,
        },
        "pk": "id",
        "foreign_keys": [("document", "documents", "id")],
    },
    "citations": {
        "columns": {
            "id": int,
            "document": str,
            "rule_id": int,
            "number": str,
            "source": str,
            "date": str,
            "page": str,
            "raw": str,
            "start": int,
            "end": int,
        },
        "pk": "id",
        "foreign_keys": [("document", "documents", "id"), ("rule_id", "rule_rows", "id")],
    },
    "glyphs": {
        "columns": {
            "id": int,
            "document": str,
            "rule_id": int,
            "glossary_id": int,
            "original": str,
            "symbol": str,
            "start": int,
            "reason": str,
        },
        "pk": "id",
        "foreign_keys": [
            ("document", "documents", "id"),
            ("rule_id", "rule_rows", "id"),
            ("glossary_id", "glossary", "id"),
        ],
    },
    "parts": {
        "columns": {"id": int, "document": str, "name": str, "text": str, "position": int},
        "pk": "id",
        "foreign_keys": [("document", "documents", "id")],
    },
    "residue": {
        "columns": {
            "id": int,
            "document": str,
            "reason": str,
            "text": str,
            "span_start": int,
            "span_end": int,
        },
        "pk": "id",
        "foreign_keys": [("document", "documents", "id")],
    },
    "build_warnings": {
        "columns": {"id": int, "document": str, "message": str},
        "pk": "id",
        "foreign_keys": [("document", "documents", "id")],
    },
    # the Infraction Procedure Guide's infractions, each part of one in its own column
    # (rulesdb.ingest.policy_infractions): "every infraction whose penalty is a Game Loss";
    # examples is a JSON list, without their letters
    "infractions": {
        "columns": {"id": int, "document": str, "rule_id": int, "number": str,
                    "category": str, "name": str, "penalty": str, "definition": str,
                    "examples": str, "philosophy": str, "additional_remedy": str,
                    "upgrade": str, "downgrade": str},
        "pk": "id",
        "foreign_keys": [("document", "documents", "id"), ("rule_id", "rule_rows", "id")],
    },
    # search: the words players use read as the rules' words, and the filler words a query
    # leaves out (data/search-vocabulary.txt, data/search-stopwords.txt; rulesdb.lookup.reading)
    "search_vocabulary": {
        "columns": {"line": int, "words": str, "reading": str, "note": str},
        "pk": "line",
    },
    "search_stopwords": {"columns": {"word": str}, "pk": "word"},
    # the second stage's weights (data/search-ranker.toml; rulesdb.lookup.rerank)
    "search_ranker": {"columns": {"name": str, "weight": float}, "pk": "name"},
    # how many distinct rule texts say each stem (rulesdb.db.fts.count_stems)
    "search_stems": {"columns": {"stem": str, "texts": int}, "pk": "stem"},
    # `rulesdb add` / `fetch`: the source bytes of added documents (zlib), so that
    # `rulesdb build` can add them again without the original files
    "document_sources": {
        "columns": {"document": str, "name": str, "origin": str, "sha256": str,
                    "size": int, "data": bytes},
        "pk": "document",
        "foreign_keys": [("document", "documents", "id")],
    },
    # what the database was built from (rulesdb.db.stamp)
    "build_info": {"columns": {"key": str, "value": str}, "pk": "key"},
    **LAYER_SPECS,
}

INDEXES: dict[str, list[tuple[list[str], bool]]] = {
    "texts": [(["digest"], True)],
    "rule_rows": [(["document", "number"], True), (["document", "position"], False),
              (["parent_id"], False), (["number"], False),
              # the rules that print a text (search: where a text found in every edition is;
              # the view rules_fts: the rows of a (title, text) the index found)
              (["text_id", "title"], False)],
    "rule_heads": [(["text_id", "title"], False)],
    "examples": [(["rule_id"], False)],
    "glossary": [(["document", "term"], False)],
    "citations": [(["rule_id"], False), (["source"], False)],
    "infractions": [(["document", "number"], True), (["penalty"], False), (["rule_id"], True)],
    **LAYER_INDEXES,
}

# Tables indexed row by row. The rules are indexed once per distinct (title, text)
# (`rule_heads`), their rows repeating their texts edition after edition (rulesdb.db.fts).
FTS: dict[str, list[str]] = {
    "examples": ["text"],
    "glossary": ["term", "definition"],
}



def _sparse_index(db: sqlite_utils.Database, table: str, column: str) -> None:
    """The index of a mostly NULL column over its values only (an older version's index of
    every row, under the same name, is replaced)."""
    name = f"idx_{table}_{column}"
    found = db.execute("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?",
                       [name]).fetchone()
    if found is not None and "WHERE" not in found[0]:
        db.execute(f"DROP INDEX [{name}]")
    db.execute(f"CREATE INDEX IF NOT EXISTS [{name}] ON [{table}] ([{column}]) "
               f"WHERE [{column}] IS NOT NULL")


class OutdatedSchema(Exception):
    """The database was made by an older rulesdb (rule texts in `rules`, or a term mention
    stored per edition): it is rebuilt, not updated."""


def ensure_schema(db: sqlite_utils.Database, tables: list[str] | None = None) -> None:
    """Create the named tables (default: all, and the view `rules`) with their foreign keys
    and indexes; OutdatedSchema when `rules` is a table of an older version."""
    if "term_mentions" in db.table_names():
        raise OutdatedSchema("made by an older rulesdb (a term mention stored per edition); "
                             "run `rulesdb build` to rebuild it, added editions included")
    if tables is None and "rules" in db.table_names():
        raise OutdatedSchema("made by an older rulesdb (rule texts not yet shared between "
                             "editions); run `rulesdb build` to rebuild it, added editions "
                             "included")
    for name in tables or list(TABLES):
        spec = TABLES[name]
        if not db[name].exists():
            db[name].create(
                spec["columns"], pk=spec["pk"], foreign_keys=spec.get("foreign_keys", [])
            )
        else:  # a database made by an older version gains the columns declared since
            present = set(db[name].columns_dict)
            for column, kind in spec["columns"].items():
                if column not in present:
                    db[name].add_column(column, kind)
        for columns, unique in INDEXES.get(name, []):
            db[name].create_index(columns, unique=unique, if_not_exists=True)
        for column in SPARSE_INDEXES.get(name, []):
            _sparse_index(db, name, column)
        if name == "rule_rows":  # an older version's index, (text_id, title) serves as well
            db.execute("DROP INDEX IF EXISTS idx_rule_rows_text_id")
    if tables is None:
        view(db, "rules", RULES_VIEW)
    if tables is None or "glossary" in tables:
        # the same term in every edition (a glossary page's "elsewhere"): a scan of 70,000
        # entries at full history without it
        db.execute("CREATE INDEX IF NOT EXISTS idx_glossary_lower_term ON glossary (lower(term))")
        # the few entries that name several terms (`rulesdb glossary controller`)
        db.execute("CREATE INDEX IF NOT EXISTS idx_glossary_aliases ON glossary (aliases) "
                   "WHERE aliases != '[]'")
    if tables is None or "alignments" in tables:
        # the changed rows of each pair (a tenth of them): the diffs and the summed-up
        # histories of chapters and sections (rulesdb.lineage.subtree) read only those
        db.execute("CREATE INDEX IF NOT EXISTS idx_alignments_changed ON alignments "
                   "(new_doc, old_doc) WHERE change != 'unchanged'")
    if tables is None or "term_uses" in tables:
        # only the texts of examples: the rule_id index holds every row already
        db.execute("CREATE INDEX IF NOT EXISTS idx_term_uses_example_id "
                   "ON term_uses (example_id) WHERE example_id IS NOT NULL")
        view(db, "term_mentions", TERM_MENTIONS_VIEW)
