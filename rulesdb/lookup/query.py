"""Read-only lookups over a built database (plain sqlite3: cheap to import)."""

from __future__ import annotations

import os
import sqlite3

from ..db.editions import newest_edition
from ..db.readonly import read_only
from ..errors import database_problem
from ..ingest.policy_names import KINDS
from ..numbers import natural_key, normalize_number

TYPE_CHECKING = False  # typing.TYPE_CHECKING: a lookup does not import typing
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

Row = dict[str, "Any"]


def connect(db_path: Path | str) -> sqlite3.Connection:
    """A read-only connection; FileNotFoundError when the database does not exist."""
    if not os.path.isfile(db_path):
        raise FileNotFoundError(str(db_path))
    conn = read_only(db_path)
    conn.row_factory = sqlite3.Row
    return conn


def trouble(conn: sqlite3.Connection, thorough: bool = False) -> str | None:
    """What keeps the database of `conn` from being read as a rulesdb database ("not a
    database (file is not a database)"), or None. `thorough` reads every page (PRAGMA
    quick_check: about 1 s for the full history) rather than the first few."""
    try:
        conn.execute("SELECT id FROM documents LIMIT 1").fetchall()
        if thorough:
            found = conn.execute("PRAGMA quick_check(1)").fetchone()[0]
            if found != "ok":
                return f"the database is damaged ({found.splitlines()[-1].strip()})"
    except sqlite3.DatabaseError as exc:
        problem = database_problem(exc)
        if problem is not None:
            return problem
        if str(exc).startswith("no such table"):
            return "not a rulesdb database (it has no documents table)"
        raise
    return None


def documents(conn: sqlite3.Connection) -> list[Row]:
    """Every document with its counts, oldest first."""
    rows = conn.execute(
        "SELECT id, kind, title, effective_date, partial, covers, rule_count, example_count, "
        "glossary_count, superseded_by FROM documents ORDER BY effective_date, id"
    ).fetchall()
    return [_document(row) for row in rows]


def document(conn: sqlite3.Connection, doc_id: str) -> Row | None:
    """One document, or None."""
    row = conn.execute("SELECT * FROM documents WHERE id = ?", [doc_id]).fetchone()
    return _document(row) if row else None


def _document(row: sqlite3.Row) -> Row:
    import json

    data = dict(row)
    data["partial"] = bool(data["partial"])
    data["covers"] = json.loads(data["covers"] or "[]")
    return data


# the names of the kinds of documents a judge reaches for: `--doc mtr` is the newest edition
# of the Magic Tournament Rules
KIND_NAMES = {"cr": "comprehensive_rules",
              **{prefix: kind for kind, (_, prefix, _) in KINDS.items()}}


def resolve_document(conn: sqlite3.Connection, doc: str) -> str | None:
    """The id a document name stands for: a kind's name ("cr", "mtr", "ipg") its newest
    edition (a whole one before a part of the same date), an id itself; None when there is
    no such document."""
    kind = KIND_NAMES.get(doc.lower())
    if kind is not None:
        return newest_edition(conn, kind)
    return doc if document(conn, doc) is not None else None


def find_rule(conn: sqlite3.Connection, number: str, doc_id: str | None = None) -> Row | None:
    """The rule row with `number` in `doc_id`, or in the newest document that has it: the
    judges' documents only when no other has it (their `7` and `A` are not the CR's chapter 7
    or the 1999 rulings' A; `--doc mtr` names them)."""
    number = normalize_number(number)
    sql = (
        "SELECT rules.* FROM rules JOIN documents ON documents.id = rules.document "
        "WHERE rules.number = ?"
    )
    params: list[Any] = [number]
    if doc_id:
        sql += " AND rules.document = ?"
        params.append(doc_id)
    sql += (f" ORDER BY documents.kind IN ({', '.join('?' * len(KINDS))}), "
            "documents.effective_date DESC, documents.partial LIMIT 1")
    params.extend(KINDS)
    row = conn.execute(sql, params).fetchone()
    return dict(row) if row else None




def examples(conn: sqlite3.Connection, rule_ids: list[int]) -> dict[int, list[str]]:
    """Example texts by rule id, in order."""
    result: dict[int, list[str]] = {rule_id: [] for rule_id in rule_ids}
    if not rule_ids:
        return result
    marks = ",".join("?" * len(rule_ids))
    for rule_id, text in conn.execute(
        f"SELECT rule_id, text FROM examples WHERE rule_id IN ({marks}) ORDER BY rule_id, position",
        rule_ids,
    ):
        result[rule_id].append(text)
    return result


def subtree(conn: sqlite3.Connection, rule: Row) -> list[Row]:
    """The rule and every descendant, in document order."""
    rows = conn.execute(
        "WITH RECURSIVE tree(id) AS (SELECT ? UNION ALL "
        "SELECT rules.id FROM rules JOIN tree ON rules.parent_id = tree.id) "
        "SELECT rules.* FROM rules JOIN tree USING (id) ORDER BY rules.position",
        [rule["id"]],
    ).fetchall()
    return [dict(row) for row in rows]


def rule_view(conn: sqlite3.Connection, rule: Row, with_subtree: bool = True,
              rows: list[Row] | None = None) -> Row:
    """A rule as the CLI shows it: its fields, examples and (optionally) descendants.

    `rows` is the rule's subtree when the caller already read it.
    """
    if rows is None:
        rows = subtree(conn, rule) if with_subtree else [rule]
    by_id = examples(conn, [row["id"] for row in rows])
    items = [_rule_item(row, by_id[row["id"]]) for row in rows]
    head = items[0]
    head["document"] = rule["document"]
    head["subrules"] = items[1:]
    return head


def _rule_item(row: Row, example_texts: list[str]) -> Row:
    return {
        "number": row["number"],
        "parent": row["parent"],
        "kind": row["kind"],
        "title": row["title"],
        "text": row["text"],
        "examples": example_texts,
    }


INFRACTION_FIELDS = ("category", "name", "penalty", "definition", "examples", "philosophy",
                     "additional_remedy", "upgrade", "downgrade")


def infractions(conn: sqlite3.Connection, rule_ids: list[int] | None = None,
                doc_id: str | None = None, penalty: str | None = None) -> list[Row]:
    """The Infraction Procedure Guide's infractions: of these rules, or of `doc_id`, whose
    penalty is `penalty` (any case) when given; each with its document, number and parts
    (`examples` a list), in document order."""
    import json
    where, params = [], []
    if rule_ids is not None:
        where.append(f"i.rule_id IN ({','.join('?' * len(rule_ids))})")
        params += rule_ids
    if doc_id is not None:
        where.append("i.document = ?")
        params.append(doc_id)
    if penalty is not None:
        where.append("lower(i.penalty) = lower(?)")
        params.append(penalty)
    try:
        rows = conn.execute(
            "SELECT i.rule_id, i.document, i.number, "
            f"{', '.join(f'i.{f}' for f in INFRACTION_FIELDS)} FROM infractions i "
            "JOIN rule_rows r ON r.id = i.rule_id"
            + (f" WHERE {' AND '.join(where)}" if where else "")
            + " ORDER BY i.document, r.position", params).fetchall()
    except sqlite3.OperationalError:  # a database built before infractions were stored
        return []
    found = []
    for row in rows:
        item = dict(row)
        item["examples"] = json.loads(item["examples"] or "[]")
        found.append(item)
    return found


def suggest_numbers(conn: sqlite3.Connection, number: str, doc_id: str | None = None) -> list[str]:
    """Up to five rule numbers near `number`: those sharing its longest prefix, else by spelling."""
    number = normalize_number(number)
    sql = "SELECT DISTINCT number FROM rules"
    params: list[Any] = []
    if doc_id:
        sql += " WHERE document = ?"
        params.append(doc_id)
    numbers = [row[0] for row in conn.execute(sql, params)]
    for cut in range(len(number) - 1, 2, -1):
        near = [n for n in numbers if n.startswith(number[:cut]) and n != number]
        if near:
            return sorted(near, key=natural_key)[:5]
    import difflib  # only a rule not found asks for the nearest numbers

    return difflib.get_close_matches(number, numbers, n=5, cutoff=0.6)




def export_document(conn: sqlite3.Connection, doc_id: str) -> Row | None:
    """The whole document in the public export shape (design.md), or None."""
    import json
    doc = document(conn, doc_id)
    if doc is None:
        return None
    rules = [dict(row) for row in conn.execute(
        "SELECT * FROM rules WHERE document = ? ORDER BY position", [doc_id])]
    by_id = examples(conn, [row["id"] for row in rules])
    citations: dict[int, list[Row]] = {}
    if doc["kind"] == "rulings_summary":
        for row in conn.execute(
            "SELECT rule_id, source, date, page FROM citations WHERE document = ? "
            "ORDER BY rule_id, start", [doc_id]
        ):
            citations.setdefault(row["rule_id"], []).append(
                {"source": row["source"], "date": row["date"], "page": row["page"]})
    items = []
    for row in rules:
        item = _rule_item(row, by_id[row["id"]])
        if doc["kind"] == "rulings_summary":
            item["citations"] = citations.get(row["id"], [])
        items.append(item)
    glossary = [
        {"term": row["term"], "aliases": json.loads(row["aliases"] or "[]"),
         "definition": row["definition"], "obsolete": bool(row["obsolete"])}
        for row in conn.execute(
            "SELECT term, aliases, definition, obsolete FROM glossary WHERE document = ? "
            "ORDER BY position", [doc_id])
    ]
    return {
        "document": {key: doc[key] for key in
                     ("id", "kind", "title", "effective_date", "partial", "covers")},
        "rules": items,
        "glossary": glossary,
    }


def in_editions(run: list[str]) -> str:
    """"in cr-2009-05-01" for one edition, "in 14 more editions, cr-2003-07-01 … cr-2009-05-01"
    for several (`run` oldest first): how a fold names the editions it stands for."""
    return f"in {run[0]}" if len(run) == 1 else f"in {len(run)} more editions, {run[0]} … {run[-1]}"
