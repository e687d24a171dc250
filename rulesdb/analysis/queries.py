"""Queries behind the analysis notebooks: document and chapter sizes, keywords, glossary growth,
concept timelines and engine coverage (plain sqlite3; no plotting here; diffs of two editions
are in `rulesdb.analysis.edition_diff`).

The query functions take a read-only connection and return plain rows (dicts), so the
notebooks only choose and plot, and the numbers can be tested without a kernel.
"""

from __future__ import annotations

import os
import re
import sqlite3
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from ..lookup import query
from ..places import user

Row = dict[str, Any]

RULE_KINDS = ("rule", "subrule")
LAYER_OF = {"alignments": "lineage", "lineages": "lineage", "concept_links": "lineage",
            "keywords": "keywords", "engines": "enforcement", "engine_citations": "enforcement"}


def database_path() -> Path:
    """$RULESDB_DB, else the default database (in the user data folder)."""
    if os.environ.get("RULESDB_DB"):
        return Path(os.environ["RULESDB_DB"])
    return user.database()


def connect(path: Path | str | None = None) -> sqlite3.Connection:
    """A read-only connection; FileNotFoundError saying how to build the database."""
    path = Path(path) if path else database_path()
    try:
        return query.connect(path)
    except FileNotFoundError:
        raise FileNotFoundError(
            f"{path}: no database here; run `rulesdb build` (or set RULESDB_DB)") from None


def row_count(conn: sqlite3.Connection, table: str) -> int:
    """Rows in `table`; 0 when the table does not exist."""
    exists = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [table]).fetchone()
    return conn.execute(f"SELECT count(*) FROM [{table}]").fetchone()[0] if exists else 0


def empty_message(table: str, then: str = "so there is nothing to plot here") -> str:
    """The sentence a notebook prints when a layer's table has no rows yet."""
    layer = LAYER_OF.get(table, table)
    return (f"The table `{table}` is empty in this database: the {layer} layer has not "
            f"written anything yet, {then}.")


def year_of(date: str | None) -> float | None:
    """A date as printed ('2009-02-01', '1999-04', '2005') as a fractional year."""
    match = re.match(r"(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?", date or "")
    if not match:
        return None
    month = int(match[2] or 1)
    day = int(match[3] or 1)
    return int(match[1]) + (month - 1) / 12 + (day - 1) / 365


def documents(conn: sqlite3.Connection) -> list[Row]:
    """Every document, oldest first, with its fractional `year` and a short `label`."""
    rows = query.documents(conn)
    for row in rows:
        row["year"] = year_of(row["effective_date"])
        row["label"] = row["id"] + (" (partial)" if row["partial"] else "")
    return rows


def _words(text: str | None) -> int:
    return len((text or "").split())


def chapter_key(kind: str, number: str) -> str:
    """The chapter of a rule number: the CR chapter digit, else the top-level label."""
    root = number.split(".")[0]
    return root[0] if kind == "comprehensive_rules" and root[:1].isdigit() else root


def document_sizes(conn: sqlite3.Connection) -> list[Row]:
    """Per document, oldest first: rules, examples, glossary entries and words of each."""
    sizes = []
    for doc in documents(conn):
        rule_words = sum(_words(t) for (t,) in conn.execute(
            "SELECT text FROM rules WHERE document = ?", [doc["id"]]))
        example_words = sum(_words(t) for (t,) in conn.execute(
            "SELECT text FROM examples WHERE document = ?", [doc["id"]]))
        glossary_words = sum(_words(t) for (t,) in conn.execute(
            "SELECT definition FROM glossary WHERE document = ?", [doc["id"]]))
        sizes.append({
            "document": doc["id"], "label": doc["label"], "kind": doc["kind"],
            "year": doc["year"], "rules": doc["rule_count"], "examples": doc["example_count"],
            "glossary": doc["glossary_count"], "rule_words": rule_words,
            "example_words": example_words, "glossary_words": glossary_words,
        })
    return sizes


def chapter_sizes(conn: sqlite3.Connection) -> list[Row]:
    """Per document and chapter (CR chapter digit, else top-level section): rules and words.

    Chapter titles come from the document's own chapter heading, else from another edition's
    (of the same kind) heading for the same chapter, else 'Chapter N'.
    """
    titles: dict[str, str] = {}
    for doc_id, kind, number, title in conn.execute(
        "SELECT r.document, d.kind, r.number, coalesce(r.title, r.text) FROM rules r "
        "JOIN documents d ON d.id = r.document WHERE r.depth = 0 ORDER BY r.document"
    ):
        titles[f"{doc_id}\t{number}"] = title
        titles.setdefault(f"{kind}\t{number}", title)
    sizes = []
    for doc in documents(conn):
        counts: dict[str, Counter] = {}
        for number, text, examples in conn.execute(
            "SELECT number, text, (SELECT group_concat(text, ' ') FROM examples "
            "WHERE rule_id = rules.id) FROM rules WHERE document = ? ORDER BY position",
            [doc["id"]],
        ):
            key = chapter_key(doc["kind"], number)
            counter = counts.setdefault(key, Counter())
            counter["rules"] += 1
            counter["words"] += _words(text) + _words(examples)
        for key, counter in counts.items():
            title = (titles.get(f"{doc['id']}\t{key}") or titles.get(f"{doc['kind']}\t{key}")
                     or f"Chapter {key}")
            sizes.append({"document": doc["id"], "label": doc["label"], "kind": doc["kind"],
                          "year": doc["year"], "chapter": key, "title": title,
                          "rules": counter["rules"], "words": counter["words"]})
    return sizes


def keyword_introductions(conn: sqlite3.Connection) -> list[Row]:
    """Per document holding keywords, oldest first: the keywords no earlier document has.

    Keywords compare case-insensitively; `new` maps each kind to the sorted new names (a name
    the document lists under two kinds counts under the first), `total` counts the document's
    distinct keywords.
    """
    seen: set[str] = set()
    result = []
    for doc in documents(conn):
        rows = conn.execute(
            "SELECT keyword, kind FROM keywords WHERE document = ? ORDER BY keyword, kind",
            [doc["id"]]).fetchall() if row_count(conn, "keywords") else []
        if not rows:
            continue
        new: dict[str, list[str]] = defaultdict(list)
        names = set()
        for keyword, kind in rows:
            key = keyword.casefold()
            if key not in seen and key not in names:  # a name of two kinds counts once
                new[kind].append(keyword)
            names.add(key)
        seen |= names
        result.append({"document": doc["id"], "label": doc["label"], "year": doc["year"],
                       "total": len(names), "new": {k: sorted(v) for k, v in new.items()}})
    return result


def glossary_growth(conn: sqlite3.Connection) -> list[Row]:
    """Per document with a glossary, oldest first: entries, new terms, dropped terms, obsolete.

    `new` counts terms no earlier glossary has; `dropped` counts terms of the previous glossary
    of the same kind of document (CR, rulebook) missing from this one; terms compare
    case-insensitively.
    """
    seen: set[str] = set()
    previous: dict[str, set[str]] = {}
    result = []
    for doc in documents(conn):
        rows = conn.execute("SELECT term, obsolete FROM glossary WHERE document = ?",
                            [doc["id"]]).fetchall()
        if not rows:
            continue
        terms = {term.casefold() for term, _ in rows}
        result.append({
            "document": doc["id"], "label": doc["label"], "kind": doc["kind"],
            "year": doc["year"], "total": len(rows), "new": len(terms - seen),
            "carried": len(terms & seen),
            "dropped": len(previous.get(doc["kind"], set()) - terms),
            "obsolete": sum(1 for _, obsolete in rows if obsolete),
            "new_terms": sorted(term for term, _ in rows if term.casefold() not in seen),
        })
        seen |= terms
        previous[doc["kind"]] = terms
    return result


def concept_timeline(conn: sqlite3.Connection, limit: int = 40) -> list[Row]:
    """Concepts from `concept_links` with the documents (and years) they appear in.

    A link's concept is its `concept` name, else the title or term of its target; it is shown
    as its targets most often print it ("Banding"). The `limit` concepts spanning the most
    documents are kept, ordered by first appearance.
    """
    if not row_count(conn, "concept_links"):
        return []
    years = {doc["id"]: doc["year"] for doc in documents(conn)}
    docs_of: dict[str, set[str]] = defaultdict(set)
    shown: dict[str, Counter] = defaultdict(Counter)
    for concept, printed, source_doc, target_doc in conn.execute(
        "SELECT coalesce(nullif(trim(concept_links.concept), ''), rules.title, glossary.term, "
        "rules.number), coalesce(rules.title, glossary.term), source_doc, target_doc "
        "FROM concept_links LEFT JOIN rules ON rules.id = concept_links.target_rule_id "
        "LEFT JOIN glossary ON glossary.id = concept_links.target_glossary_id"
    ):
        if not concept:
            continue
        key = concept.strip().casefold()
        docs_of[key] |= {d for d in (source_doc, target_doc) if d in years}
        shown[key][(printed or concept).strip()] += 1
    rows = []
    for key, docs in docs_of.items():
        points = sorted((years[d], d) for d in docs if years[d] is not None)
        if points:
            concept = shown[key].most_common(1)[0][0]  # as the target documents print it
            rows.append({"concept": concept, "documents": [d for _, d in points],
                         "years": [y for y, _ in points], "first": points[0][0],
                         "last": points[-1][0]})
    rows.sort(key=lambda r: (-len(r["documents"]), r["first"] - r["last"], r["concept"]))
    kept = rows[:limit]
    kept.sort(key=lambda r: (r["first"], r["concept"].casefold()))
    return kept


def engines(conn: sqlite3.Connection) -> list[Row]:
    """Every engine with its citation counts by status."""
    if not row_count(conn, "engines"):
        return []
    result = []
    for row in conn.execute("SELECT * FROM engines ORDER BY name").fetchall():
        engine = dict(row)
        engine["statuses"] = dict(conn.execute(
            "SELECT coalesce(status, 'unknown'), count(*) FROM engine_citations "
            "WHERE engine = ? GROUP BY 1 ORDER BY 2 DESC", [engine["name"]]).fetchall())
        result.append(engine)
    return result


def section_coverage(conn: sqlite3.Connection, engine: str) -> list[Row]:
    """Per section of the engine's edition: rules, rules covered and the covered share.

    A rule or subrule is covered when an engine citation resolves to it with status 'ok', or
    to a rule above it (citing 702.19 covers 702.19a–e); citing a whole section covers
    nothing by itself.
    """
    row = conn.execute("SELECT edition FROM engines WHERE name = ?", [engine]).fetchone()
    if row is None:
        return []
    edition = row[0] or ""
    kind_row = conn.execute("SELECT kind FROM documents WHERE id = ?", [edition]).fetchone()
    doc_kind = kind_row[0] if kind_row else ""
    rules = conn.execute(
        "SELECT id, parent_id, number, kind, coalesce(title, text) FROM rules "
        "WHERE document = ? ORDER BY position", [edition]).fetchall()
    cited = {rule_id for (rule_id,) in conn.execute(
        "SELECT rule_id FROM engine_citations WHERE engine = ? AND rule_id IS NOT NULL "
        "AND coalesce(status, 'ok') = 'ok'", [engine])}
    covered_ids: set[int] = set()
    for rule_id, parent_id, _, kind, _ in rules:  # document order: parents come first
        if kind in RULE_KINDS and (rule_id in cited or parent_id in covered_ids):
            covered_ids.add(rule_id)
    titles = {number: title for _, _, number, kind, title in rules if kind == "section"}
    per_section: dict[str, Counter] = defaultdict(Counter)
    for rule_id, _, number, kind, _ in rules:
        if kind not in RULE_KINDS:
            continue
        section = number.split(".")[0]
        per_section[section]["rules"] += 1
        per_section[section]["covered"] += rule_id in covered_ids
    return [{"section": section, "chapter": chapter_key(doc_kind, section),
             "title": titles.get(section), "rules": c["rules"], "covered": c["covered"],
             "share": c["covered"] / c["rules"]}
            for section, c in sorted(per_section.items(),
                                     key=lambda item: query.natural_key(item[0]))]

