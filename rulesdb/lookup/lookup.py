"""Read-only lookups a judge runs: glossary, keywords, references, term mentions, a rule with
all of them (search: rulesdb.lookup.search).

Plain sqlite3 over a built database, cheap to import (no spaCy, no sqlite-utils).
"""

from __future__ import annotations

import re
import sqlite3

from ..numbers import natural_key
from . import query
from .query import Row

TYPE_CHECKING = False  # typing.TYPE_CHECKING: a lookup does not import typing
if TYPE_CHECKING:
    from typing import Any

SUFFIXES = (("ies", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ing", ""), ("ed", "e"), ("ing", "e"))


def first_words(text: str | None, words: int = 14) -> str:
    """The first `words` words of `text`, with an ellipsis when cut."""
    parts = (text or "").split()
    return " ".join(parts[:words]) + (" …" if len(parts) > words else "")


def glossary_documents(conn: sqlite3.Connection, doc_id: str) -> list[str]:
    """The glossaries that apply to `doc_id`: its own, or the one its terms are linked to."""
    own = conn.execute("SELECT 1 FROM glossary WHERE document = ? LIMIT 1", [doc_id]).fetchone()
    if own:
        return [doc_id]
    try:
        return [row[0] for row in conn.execute(
            "SELECT glossary FROM term_links WHERE document = ?", [doc_id])]
    except sqlite3.OperationalError:  # a database built before term_links existed
        return [row[0] for row in conn.execute(
            "SELECT DISTINCT g.document FROM term_mentions m JOIN glossary g "
            "ON g.id = m.glossary_id WHERE m.document = ?", [doc_id])]


def _entries(conn: sqlite3.Connection, docs: list[str] | None,
             names: set[str] | None = None) -> list[Row]:
    """Glossary entries of `docs` (default all), newest first; only those whose term or an
    alias is one of `names` (lower case) when given."""
    import json
    sql = ("SELECT g.id, g.document, g.term, g.aliases, g.definition, g.obsolete, g.see "
           "FROM glossary g JOIN documents d ON d.id = g.document")
    where: list[str] = []
    params: list[Any] = []
    if docs is not None:
        where.append(f"g.document IN ({','.join('?' * len(docs))})")
        params.extend(docs)
    if names is not None:
        listed = sorted(names)
        quoted = [f'%"{json.dumps(name)[1:-1]}"%' for name in listed]
        aliased = " OR ".join(["lower(aliases) LIKE ?"] * len(listed))
        # the candidates through two indexes (lower(term); the few entries with aliases),
        # then the exact test: a scan of every edition's glossary took 60 ms
        variants = [v for name in listed for v in (name, f'"{name}"', f'"{name}', f'{name}"')]
        where.append(f"g.id IN (SELECT id FROM glossary WHERE lower(term) IN "
                     f"({','.join('?' * len(variants))}) UNION SELECT id FROM glossary "
                     f"WHERE aliases != '[]' AND ({aliased}))")
        params.extend([*variants, *quoted])
        where.append("(trim(lower(g.term), '\"') IN (" + ",".join("?" * len(listed)) + ") OR "
                     + aliased.replace("aliases", "g.aliases") + ")")
        params.extend([*listed, *quoted])
    if where:
        sql += " WHERE " + " AND ".join(where)
    rows = conn.execute(sql + " ORDER BY d.effective_date DESC, d.partial, g.position",
                        params).fetchall()
    entries = [dict(row) for row in rows]
    for entry in entries:
        entry["aliases"] = json.loads(entry["aliases"] or "[]")
        entry["see"] = json.loads(entry["see"] or "[]")
        entry["names"] = [n.lower().strip('"') for n in [entry["term"], *entry["aliases"]]]
    return entries


def glossary(conn: sqlite3.Connection, term: str, doc_id: str | None = None) -> Row:
    """Entries for `term`: exact, alias, or inflected form; pointer entries ("Blocker: See
    Blocking creature") followed; else suggestions. {"matches": [...], "suggestions": [...]}."""
    docs = glossary_documents(conn, doc_id) if doc_id else None
    wanted = " ".join(term.lower().replace("’", "'").split()).strip('"')
    forms = {wanted: "exact"}
    for end, add in SUFFIXES:
        if wanted.endswith(end) and len(wanted) > len(end) + 2:
            cut = wanted[: -len(end)] + add
            forms.setdefault(cut, "inflected")
            if not add and cut[-1] == cut[-2]:
                forms.setdefault(cut[:-1], "inflected")  # "tapped" → "tap"
    used = _linked_terms(conn, wanted)
    entries = _entries(conn, docs, {*forms, *used})
    matches: list[Row] = []
    matched: set[int] = set()
    for rank, how in enumerate(("exact", "alias", "inflected")):
        for entry in entries:
            if entry["id"] in matched:
                continue
            if how == "exact" and entry["term"].lower() == wanted:
                matches.append(_match(entry, "exact", rank))
            elif how == "alias" and wanted in entry["names"][1:]:
                matches.append(_match(entry, "alias", rank))
            elif how == "inflected" and (entry["term"].lower() in used or any(
                    forms.get(name) == "inflected" for name in entry["names"])):
                matches.append(_match(entry, "inflected form", rank))
            else:
                continue
            matched.add(entry["id"])
    pointed = {target.lower() for match in matches if re.match(r"See\s", match["definition"] or "")
               for target in match["see"]}
    by_term = {(e["document"], e["term"].lower()): e
               for e in (_entries(conn, docs, pointed) if pointed else [])}
    for match in list(matches):
        if re.match(r"See\s", match["definition"] or "") and match["see"]:
            for target in match["see"]:
                entry = by_term.get((match["document"], target.lower()))
                if entry and entry["id"] not in matched:
                    matches.append(_match(entry, f"see {match['term']}", match["rank"]))
                    matched.add(entry["id"])
    # within a rank, an entry headed by the word itself before one that only lists it
    # ("Tap" before "{T} Tap")
    matches.sort(key=lambda m: (m["rank"], not forms.get(m["term"].lower().strip('"'))))
    for match in matches:
        del match["rank"]
    suggestions = [] if matches else _suggest(wanted, _spellings(conn, docs))
    return {"query": term, "matches": fold_editions(matches), "suggestions": suggestions}


def fold_editions(matches: list[Row]) -> list[Row]:
    """Entries that say the same in several editions as one, the newest, with the other
    editions in `also_in` (newest first)."""
    groups: dict[tuple, Row] = {}
    for match in matches:
        key = (match["term"], match["definition"], match["matched"], match["obsolete"])
        if key in groups:
            groups[key]["also_in"].append(match["document"])
        else:
            groups[key] = {**match, "also_in": []}
    return list(groups.values())


def _linked_terms(conn: sqlite3.Connection, form: str) -> set[str]:
    """The glossary terms (lower case) the terms layer linked `form` to in some text."""
    try:
        return {row[0] for row in conn.execute(
            "SELECT term FROM term_forms WHERE form = ?", [form])}
    except sqlite3.OperationalError:  # a database built before term_forms existed
        return {row[0].lower() for row in conn.execute(
            "SELECT DISTINCT g.term FROM term_mentions m JOIN glossary g "
            "ON g.id = m.glossary_id WHERE lower(m.text) = ?", [form])}


def _match(entry: Row, how: str, rank: int) -> Row:
    return {"document": entry["document"], "term": entry["term"], "aliases": entry["aliases"],
            "definition": entry["definition"], "obsolete": bool(entry["obsolete"]),
            "see": entry["see"], "matched": how, "id": entry["id"], "rank": rank}


def _spellings(conn: sqlite3.Connection, docs: list[str] | None) -> dict[str, str]:
    """Each name (lower case) of the glossaries of `docs` (default all) → the term it names
    (as the last of them in `_entries`' order prints it); only the two columns it needs."""
    import json
    where = f" WHERE g.document IN ({','.join('?' * len(docs))})" if docs is not None else ""
    spelled: dict[str, str] = {}
    for term, aliases in conn.execute(
            "SELECT g.term, g.aliases FROM glossary g JOIN documents d ON d.id = g.document"
            + where + " ORDER BY d.effective_date DESC, d.partial, g.position", docs or []):
        spelled[term.lower().strip('"')] = term
        if aliases and aliases != "[]":
            for name in json.loads(aliases):
                spelled[name.lower().strip('"')] = term
    return spelled


def _suggest(wanted: str, spelled: dict[str, str]) -> list[str]:
    import difflib  # only a term not found asks for the nearest spellings

    close = difflib.get_close_matches(wanted, list(spelled), n=5, cutoff=0.7)
    inside = [name for name in spelled if wanted in name and name not in close]
    seen: list[str] = []
    for name in close + sorted(inside, key=len):
        if spelled[name] not in seen:
            seen.append(spelled[name])
    return seen[:5]


def keywords(conn: sqlite3.Connection, doc_id: str | None = None,
             kind: str | None = None) -> Row:
    """Keywords of `doc_id` (default: the newest document that has some of `kind`), each with
    its rule and the first words of the rule's first subrule."""
    if doc_id is None:
        row = conn.execute(
            "SELECT k.document FROM keywords k JOIN documents d ON d.id = k.document "
            + ("WHERE k.kind = ? " if kind else "")
            + "ORDER BY d.effective_date DESC, d.partial LIMIT 1",
            [kind] if kind else []).fetchone()
        doc_id = row[0] if row else None
    sql = ("SELECT k.keyword, k.kind, k.number, k.rule_id, "
           "(SELECT c.text FROM rules c WHERE c.parent_id = k.rule_id ORDER BY c.position "
           "LIMIT 1) AS first_child, r.text FROM keywords k JOIN rules r ON r.id = k.rule_id "
           "WHERE k.document = ?" + (" AND k.kind = ?" if kind else "") + " ORDER BY k.id")
    rows = conn.execute(sql, [doc_id, *([kind] if kind else [])]).fetchall() if doc_id else []
    items = [{"keyword": r["keyword"], "kind": r["kind"], "number": r["number"],
              "summary": first_words(r["first_child"] if r["kind"] != "ability_word"
                                     else r["text"])} for r in rows]
    return {"document": doc_id, "kind": kind, "keywords": items}


def references_from(conn: sqlite3.Connection, rule_ids: list[int]) -> dict[int, list[Row]]:
    """Per rule id, what its text and examples cite, with the targets' first words."""
    result: dict[int, list[Row]] = {rule_id: [] for rule_id in rule_ids}
    if not rule_ids:
        return result
    marks = ",".join("?" * len(rule_ids))
    for row in conn.execute(
        "SELECT coalesce(f.rule_id, e.rule_id) AS owner, f.source_table, f.raw, f.cited, "
        "f.kind, f.status, f.reason, f.target_number, "
        "coalesce(t.document, f.target_doc) AS target_document, "
        "t.text AS target_text, t.title AS target_title, g.term AS target_term, "
        "d.title AS target_doc_title "
        "FROM [references] f LEFT JOIN examples e ON e.id = f.example_id "
        "LEFT JOIN rules t ON t.id = f.target_rule_id "
        "LEFT JOIN glossary g ON g.id = f.target_glossary_id "
        "LEFT JOIN documents d ON d.id = f.target_doc AND f.target_rule_id IS NULL "
        # two indexed lookups: an OR over the two joined tables would read every reference
        f"WHERE f.id IN (SELECT id FROM [references] WHERE rule_id IN ({marks}) UNION ALL "
        "SELECT x.id FROM examples ex JOIN [references] x ON x.example_id = ex.id "
        f"WHERE ex.rule_id IN ({marks})) ORDER BY f.id",
        [*rule_ids, *rule_ids],
    ):
        result[row["owner"]].append(_reference(row, "target"))
    return result


def references_to(conn: sqlite3.Connection, rule_id: int) -> list[Row]:
    """What cites the rule: rules, examples and glossary entries, with their first words."""
    rows = conn.execute(
        "SELECT f.source_table, f.raw, f.kind, f.status, f.reason, f.document, "
        "coalesce(r.number, er.number) AS number, coalesce(r.text, e.text) AS text, "
        "g.term AS term, g.definition AS definition FROM [references] f "
        "LEFT JOIN rules r ON r.id = f.rule_id LEFT JOIN examples e ON e.id = f.example_id "
        "LEFT JOIN rules er ON er.id = e.rule_id LEFT JOIN glossary g ON g.id = f.glossary_id "
        "WHERE f.target_rule_id = ? ORDER BY f.document, f.id", [rule_id]).fetchall()
    cited_by = []
    for row in rows:
        source = {"rules": "rule", "examples": "example", "glossary": "glossary"}.get(
            row["source_table"], row["source_table"])
        cited_by.append({"source": source, "document": row["document"],
                         "number": row["number"] if source != "glossary" else None,
                         "term": row["term"], "raw": row["raw"],
                         "text": first_words(row["text"] or row["definition"])})
    cited_by.sort(key=lambda c: (c["document"], natural_key(c["number"] or ""), c["term"] or ""))
    return cited_by


def _reference(row: sqlite3.Row, prefix: str) -> Row:
    target_text = (row["target_title"] or row["target_text"] or row["target_term"]
                   or row["target_doc_title"])
    return {"raw": row["raw"], "cited": row["cited"], "kind": row["kind"],
            "status": row["status"], "reason": row["reason"],
            f"{prefix}": row["target_number"] or row["target_term"],
            f"{prefix}_document": row["target_document"],
            f"{prefix}_text": first_words(target_text) if target_text else None}


def term_mentions(conn: sqlite3.Connection, rule_ids: list[int]) -> dict[int, list[Row]]:
    """Per rule id, the glossary terms its text uses: span, entry and definition's first words."""
    result: dict[int, list[Row]] = {rule_id: [] for rule_id in rule_ids}
    if not rule_ids:
        return result
    marks = ",".join("?" * len(rule_ids))
    try:
        rows = conn.execute(
            "SELECT m.rule_id, m.start, m.[end], m.text, g.term, g.document, g.definition "
            "FROM term_mentions m JOIN glossary g ON g.id = m.glossary_id "
            f"WHERE m.rule_id IN ({marks}) ORDER BY m.rule_id, m.start", rule_ids).fetchall()
    except sqlite3.OperationalError:
        return result  # a database built before the terms layer existed
    for row in rows:
        result[row["rule_id"]].append({
            "start": row["start"], "end": row["end"], "text": row["text"], "term": row["term"],
            "glossary": row["document"], "definition": first_words(row["definition"])})
    return result


def rule_view(conn: sqlite3.Connection, rule: Row, tree: bool = False,
              examples: bool = True) -> Row:
    """query.rule_view with each item's glossary terms and references; the direct subrules
    only unless `tree`; examples emptied unless `examples`."""
    rows = query.subtree(conn, rule)
    view = query.rule_view(conn, rule, rows=rows)
    if not tree:
        view["subrules"] = [s for s in view["subrules"] if s["parent"] == view["number"]]
    ids = {row["number"]: row["id"] for row in rows}
    items = [view, *view["subrules"]]
    wanted = [ids[item["number"]] for item in items]
    terms, refs = term_mentions(conn, wanted), references_from(conn, wanted)
    kinds = {row["number"]: row["kind"] for row in rows}
    parts = {found.pop("rule_id"): found for found in query.infractions(
        conn, [ids[item["number"]] for item in items
               if kinds.get(item["number"]) == "infraction"])} if "infraction" in kinds.values() \
        else {}
    for item in items:
        item["terms"] = terms[ids[item["number"]]]
        item["references"] = refs[ids[item["number"]]]
        if not examples:
            item["examples"] = []
        found = parts.get(ids[item["number"]])
        if found is not None:
            item["infraction"] = {field: found[field] for field in query.INFRACTION_FIELDS}
    return view
