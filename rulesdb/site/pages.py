"""What each page of the rules site shows, read from the database (plain sqlite3, no HTML).

Each function takes a connection and returns a dict for its template, or None when the
thing asked for does not exist.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any
from urllib.parse import quote

from .render import Span, glossary_url, linked, mention_spans, reference_spans, rule_url, slug

Row = dict[str, Any]
# A rule whose subtree is larger than this lists its children instead of every text.
FULL_SUBTREE = 200


def rows(conn: sqlite3.Connection, sql: str, params: Any = ()) -> list[Row]:
    """The rows of a query as dicts."""
    cursor = conn.execute(sql, params)
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def documents(conn: sqlite3.Connection) -> list[Row]:
    """Every document, oldest first, with `url`."""
    return [_shown(doc) for doc in rows(conn, "SELECT * FROM documents "
                                              "ORDER BY effective_date, id")]


def document(conn: sqlite3.Connection, doc_id: str) -> Row | None:
    """One document, or None (read alone: every page names one, and reading all 115 took
    2 ms of each page at full history)."""
    found = rows(conn, "SELECT * FROM documents WHERE id = ?", [doc_id])
    return _shown(found[0]) if found else None


def _shown(doc: Row) -> Row:
    doc["url"] = f"/{doc['id']}"
    doc["covers"] = json.loads(doc["covers"] or "[]")
    return doc


def contents(conn: sqlite3.Connection, doc_id: str) -> Row | None:
    """A document's table of contents: its two top levels of rules, and its glossary size."""
    doc = document(conn, doc_id)
    if doc is None:
        return None
    items = rows(conn, "SELECT number, title, text, kind, depth FROM rules "
                       "WHERE document = ? AND depth <= 1 ORDER BY position", [doc_id])
    for item in items:
        item["url"] = rule_url(doc_id, item["number"])
        item["label"] = item["title"] or short(item["text"])
    return {"document": doc, "items": items}


def short(text: str | None, size: int = 80) -> str:
    """`text` on one line, cut to `size` characters with an ellipsis."""
    text = (text or "").replace("\n", " ")
    return text if len(text) <= size else text[: size - 1].rstrip() + "…"


def rule_page(conn: sqlite3.Connection, doc_id: str, number: str) -> Row | None:
    """A rule with breadcrumbs, rendered texts of its subtree, examples, citations, the
    references to it and the engine functions that enforce it (history: see diffs)."""
    doc = document(conn, doc_id)
    found = rows(conn, "SELECT * FROM rules WHERE document = ? AND number = ?",
                 [doc_id, number.strip().rstrip(".")])
    if doc is None or not found:
        return None
    rule = found[0]
    crumbs = [dict(crumb, url=rule_url(doc_id, crumb["number"]))
              for crumb in ancestors(conn, rule["parent_id"])]
    # the subtree's ids first (rule_rows alone): a chapter's 1,500 texts are read only to
    # be shown
    size = conn.execute("WITH RECURSIVE tree(id) AS (SELECT ? UNION ALL SELECT r.id FROM "
                        "rule_rows r JOIN tree ON r.parent_id = tree.id) SELECT count(*) "
                        "FROM tree", [rule["id"]]).fetchone()[0]
    children: list[Row] = []
    if size > FULL_SUBTREE:
        children = [dict(r, url=rule_url(doc_id, r["number"]),
                         label=r["title"] or short(r["text"]))
                    for r in rows(conn, "SELECT * FROM rules WHERE parent_id = ? "
                                        "ORDER BY position", [rule["id"]])]
        tree = [rule]
    else:
        tree = rows(conn, "WITH RECURSIVE tree(id) AS (SELECT ? UNION ALL SELECT r.id FROM "
                          "rule_rows r JOIN tree ON r.parent_id = tree.id) SELECT rules.* FROM "
                          "rules JOIN tree USING (id) ORDER BY rules.position", [rule["id"]])
    items = _render_items(conn, tree)
    siblings = rows(conn, "SELECT number, position FROM rules WHERE document = ? AND "
                          "parent_id IS ? ORDER BY position", [doc_id, rule["parent_id"]])
    index = [s["number"] for s in siblings].index(rule["number"])
    nav = {
        "prev": rule_url(doc_id, siblings[index - 1]["number"]) if index > 0 else None,
        "next": (rule_url(doc_id, siblings[index + 1]["number"])
                 if index + 1 < len(siblings) else None),
    }
    ids = [item["id"] for item in items]
    return {
        "document": doc, "rule": rule, "breadcrumbs": crumbs, "items": items,
        "infraction": infraction(conn, rule["id"]),
        "children": children, "nav": nav,
        "cited_by": cited_by(conn, rule["id"]),
        "history_url": rule_url(doc_id, rule["number"]) + "/history",
        "engines": engines(conn, ids),
    }


def infraction(conn: sqlite3.Connection, rule_id: int) -> Row | None:
    """An infraction's category and penalty, when the rule is one (IPG), with the URL of
    the infractions that have the same penalty."""
    try:
        found = rows(conn, "SELECT category, name, penalty FROM infractions WHERE rule_id = ?",
                     [rule_id])
    except sqlite3.OperationalError:  # a database built before infractions were stored
        return None
    if not found:
        return None
    return {**found[0], "same_penalty": f"?penalty={quote(found[0]['penalty'] or '')}"}


def ancestors(conn: sqlite3.Connection, parent_id: int | None) -> list[Row]:
    """The numbers and titles of a rule's ancestors, outermost first. One primary-key read
    each: a recursive query over the rules makes SQLite build a Bloom filter over every rule
    of every edition at each step (14 ms a page at full history)."""
    found: list[Row] = []
    while parent_id is not None:
        parent_id, number, title = conn.execute(
            "SELECT parent_id, number, title FROM rule_rows WHERE id = ?", [parent_id]).fetchone()
        found.append({"number": number, "title": title})
    return found[::-1]


def _render_items(conn: sqlite3.Connection, tree: list[Row]) -> list[Row]:
    """Each rule of `tree` with its text and examples rendered with their links."""
    ids = [r["id"] for r in tree]
    marks = ",".join("?" * len(ids))
    refs = rows(conn, f"SELECT * FROM [references] WHERE rule_id IN ({marks}) "
                      "AND source_table IN ('rules', 'examples') ORDER BY start, id", ids)
    number_of, term_of = _targets(conn, refs)
    mentions = _mentions(conn, f"m.rule_id IN ({marks})", ids)
    examples = rows(conn, f"SELECT * FROM examples WHERE rule_id IN ({marks}) "
                          "ORDER BY rule_id, position", ids)
    example_ids = [e["id"] for e in examples]
    example_mentions = _mentions(conn, f"m.example_id IN ({','.join('?' * len(example_ids))})",
                                 example_ids) if example_ids else []
    citations = rows(conn, f"SELECT * FROM citations WHERE rule_id IN ({marks}) "
                           "ORDER BY rule_id, start", ids)
    items = []
    for rule in tree:
        own_refs = [r for r in refs if r["source_table"] == "rules" and r["rule_id"] == rule["id"]]
        own_mentions = [m for m in mentions if m["rule_id"] == rule["id"]
                        and m["example_id"] is None]
        spans = [*reference_spans(own_refs, number_of, term_of), *mention_spans(own_mentions)]
        used: set[int] = set()  # a term is underlined at its first use in the rule and examples
        html = linked(rule["text"] or "", spans, used)
        rendered_examples = []
        for example in (e for e in examples if e["rule_id"] == rule["id"]):
            ex_refs = [r for r in refs if r["example_id"] == example["id"]]
            ex_mentions = [m for m in example_mentions if m["example_id"] == example["id"]]
            ex_spans = [*reference_spans(ex_refs, number_of, term_of), *mention_spans(ex_mentions)]
            rendered_examples.append(linked(example["text"] or "", ex_spans, used))
        items.append({
            **rule, "url": rule_url(rule["document"], rule["number"]),
            "html": html,
            "examples": rendered_examples,
            "citations": [c for c in citations if c["rule_id"] == rule["id"]],
        })
    return items


def _targets(conn: sqlite3.Connection,
             refs: list[Row]) -> tuple[dict[int, tuple[str, str]], dict[int, tuple[str, str]]]:
    rule_ids = sorted({r["target_rule_id"] for r in refs if r["target_rule_id"]})
    glossary_ids = sorted({r["target_glossary_id"] for r in refs if r["target_glossary_id"]})
    number_of = {r["id"]: (r["document"], r["number"]) for r in rows(
        conn, f"SELECT id, document, number FROM rules WHERE id IN "
              f"({','.join('?' * len(rule_ids))})", rule_ids)} if rule_ids else {}
    term_of = {r["id"]: (r["document"], r["term"]) for r in rows(
        conn, f"SELECT id, document, term FROM glossary WHERE id IN "
              f"({','.join('?' * len(glossary_ids))})", glossary_ids)} if glossary_ids else {}
    return number_of, term_of


def _mentions(conn: sqlite3.Connection, where: str, params: list[int]) -> list[Row]:
    return rows(conn, "SELECT m.*, g.document AS g_document, g.term FROM term_mentions m "
                      f"JOIN glossary g ON g.id = m.glossary_id WHERE {where} ORDER BY m.start",
                params)


def cited_by(conn: sqlite3.Connection, rule_id: int) -> list[Row]:
    """The rules and glossary entries whose text (or examples) cite this rule."""
    found = rows(conn, "SELECT DISTINCT r.source_table, r.raw, s.document AS s_doc, s.number, "
                       "g.document AS g_doc, g.term FROM [references] r "
                       "LEFT JOIN rule_rows s ON s.id = r.rule_id "
                       "LEFT JOIN glossary g ON g.id = r.glossary_id "
                       "WHERE r.target_rule_id = ? ORDER BY s.position, g.position", [rule_id])
    for row in found:
        if row["number"] is not None:
            row["label"], row["url"] = row["number"], rule_url(row["s_doc"], row["number"])
        else:
            row["label"] = f"glossary: {row['term']}"
            row["url"] = glossary_url(row["g_doc"], row["term"])
    return found


def engines(conn: sqlite3.Connection, rule_ids: list[int]) -> list[Row]:
    """Engine functions citing any of these rules, with where they stand."""
    if not rule_ids:
        return []
    return rows(conn, "SELECT c.*, r.number AS rule_number, e.kind AS engine_kind "
                      "FROM engine_citations c JOIN rules r ON r.id = c.rule_id "
                      "LEFT JOIN engines e ON e.name = c.engine "
                      f"WHERE c.rule_id IN ({','.join('?' * len(rule_ids))}) "
                      "ORDER BY r.position, c.engine, c.file, c.line", rule_ids)


def glossary_index(conn: sqlite3.Connection, doc_id: str) -> Row | None:
    """A document's glossary terms with their pages."""
    doc = document(conn, doc_id)
    if doc is None:
        return None
    entries = rows(conn, "SELECT term, obsolete FROM glossary WHERE document = ? "
                         "ORDER BY position", [doc_id])
    for entry in entries:
        entry["url"] = glossary_url(doc_id, entry["term"])
    return {"document": doc, "entries": entries}


# The rules that use a glossary entry's term, read from the uses of the documents linked to
# its glossary (CROSS JOIN keeps that order): SQLite read the term's spans first, in every
# edition, 0.45 s for "Card" at full history (a common term in 6,700 sets of spans); this
# way 20-40 ms whatever the term. The same rows as term_mentions gives.
USED_IN = ("SELECT r.document, r.number, count(*) AS times FROM glossary g "
           "CROSS JOIN term_links l CROSS JOIN term_uses u CROSS JOIN term_spans s "
           "CROSS JOIN rule_rows r WHERE g.id = ? AND l.glossary = g.document "
           "AND u.document = l.document AND s.set_id = u.set_id AND s.term = g.term "
           "AND r.id = u.rule_id GROUP BY r.id ORDER BY r.document, r.position LIMIT 500")


def glossary_entry(conn: sqlite3.Connection, doc_id: str, term_slug: str) -> Row | None:
    """The glossary entries of `doc_id` whose term has this slug, rendered, with the rules
    that use the term and the same term in other documents."""
    doc = document(conn, doc_id)
    if doc is None:
        return None
    entries = [e for e in rows(conn, "SELECT * FROM glossary WHERE document = ? "
                                     "ORDER BY position", [doc_id]) if slug(e["term"]) == term_slug]
    if not entries:
        return None
    for entry in entries:
        refs = rows(conn, "SELECT * FROM [references] WHERE glossary_id = ? ORDER BY start, id",
                    [entry["id"]])
        number_of, term_of = _targets(conn, refs)
        spans: list[Span] = reference_spans(refs, number_of, term_of)
        entry["html"] = linked(entry["definition"] or "", spans)
        entry["aliases"] = json.loads(entry["aliases"] or "[]")
        entry["used_in"] = rows(conn, USED_IN, [entry["id"]])
        for use in entry["used_in"]:
            use["url"] = rule_url(use["document"], use["number"])
    elsewhere = [dict(e, url=glossary_url(e["document"], e["term"])) for e in rows(
        conn, "SELECT document, term FROM glossary WHERE document != ? AND lower(term) = ? "
              "ORDER BY document", [doc_id, entries[0]["term"].lower()])]
    return {"document": doc, "entries": entries, "elsewhere": elsewhere,
            "index_url": f"/{doc_id}/glossary"}


# what the home page offers to start from: rule kind, the kind of document holding it, label
SAMPLES = (("rule", "comprehensive_rules", "a rule"),
           ("ruling", "rulings_summary", "a ruling with its sources"),
           ("paragraph", "rulebook", "a rulebook paragraph"),
           ("section", "tournament_rules", "a section of the Magic Tournament Rules"),
           ("infraction", "infraction_procedure_guide", "an infraction and its penalty"))


def samples(conn: sqlite3.Connection) -> list[Row]:
    """One page of each kind to start from: a rule and its history, a ruling, a glossary
    entry; taken from the newest document that has one (each read in its document through
    an index: ordering every rule of the history by date took 185 ms)."""
    newest = rows(conn, "SELECT id, kind FROM documents ORDER BY effective_date DESC, partial")
    found: list[Row] = []
    for kind, doc_kind, label in SAMPLES:
        for doc in (d["id"] for d in newest if d["kind"] == doc_kind):
            hit = conn.execute("SELECT number FROM rule_rows WHERE document = ? AND kind = ? "
                               "ORDER BY position LIMIT 1", [doc, kind]).fetchone()
            if hit:
                url = rule_url(doc, hit[0])
                found.append({"label": f"{label}: {doc} {hit[0]}", "url": url})
                if kind == "rule":
                    found.append({"label": "its history across editions",
                                  "url": url + "/history"})
                break
    for doc in (d["id"] for d in newest):
        entry = conn.execute("SELECT term FROM glossary WHERE document = ? ORDER BY position "
                             "LIMIT 1", [doc]).fetchone()
        if entry:
            found.append({"label": f"a glossary entry: {doc} {entry[0]}",
                          "url": glossary_url(doc, entry[0])})
            break
    return found
