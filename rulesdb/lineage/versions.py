"""A rule's history: every version of it across the documents, oldest first, read from the
stored lineages (rulesdb.layers.lineage), with the related texts (glossary entries, rulings,
rulebook paragraphs) the concept links name. Plain sqlite3: a history in a terminal is a
fresh process, and it needs neither the aligner nor the overrides module."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator

from ..lookup.query import find_rule
from ..numbers import normalize_number

TYPE_CHECKING = False  # typing.TYPE_CHECKING: a lookup does not import typing
if TYPE_CHECKING:
    from typing import Any

Row = dict[str, "Any"]
RULE_NUMBER = re.compile(r"\d{1,3}(?:\.\d+[a-z]?)?|[A-Z](?:\.[\w-]+)*")


def find_concept_rule(conn: sqlite3.Connection, name: str, doc_id: str | None) -> Row | None:
    """The rule a keyword or heading names, newest CR document first (else any document)."""
    params: list[Any] = [name.strip().rstrip(":")]
    where = " AND rules.document = ?" if doc_id else ""
    if doc_id:
        params.append(doc_id)
    for sql in (
        "SELECT rules.* FROM keywords JOIN rules ON rules.id = keywords.rule_id "
        "JOIN documents d ON d.id = rules.document WHERE keywords.keyword = ? COLLATE NOCASE "
        f"AND keywords.kind != 'ability_word'{where} ORDER BY d.effective_date DESC, d.partial "
        f"LIMIT 1",
        "SELECT rules.* FROM rules JOIN documents d ON d.id = rules.document "
        f"WHERE rules.title = ? COLLATE NOCASE{where} "
        "ORDER BY d.kind != 'comprehensive_rules', d.effective_date DESC, d.partial LIMIT 1",
    ):
        row = conn.execute(sql, params).fetchone()
        if row:
            return dict(row)
    return None


def history(conn: sqlite3.Connection, number: str, doc_id: str | None = None) -> list[Row] | None:
    """Every version of a rule (or of the concept a keyword/heading names), oldest first."""
    rule = history_rule(conn, number, doc_id)
    return None if rule is None else rule_history(conn, rule)


def rule_history(conn: sqlite3.Connection, rule: Row,
                 sizes: dict[int, int] | None = None) -> list[Row]:
    """`history` of a rule found already (`history_rule`); `sizes`, when given, gets the
    number of rules of each version that is a heading, its subtree's included (what
    `subtree.summarized` asks)."""
    ids = members(conn, rule)
    return _sorted(_versions(conn, ids, sizes=sizes) + _concepts(conn, ids))


def history_rule(conn: sqlite3.Connection, number: str, doc_id: str | None = None) -> Row | None:
    """The rule whose history `number` asks for: the rule of that number (in `doc_id`, else
    in the newest document that has it), else the rule a keyword or heading names."""
    rule = find_rule(conn, number, doc_id)
    if rule is None and not RULE_NUMBER.fullmatch(normalize_number(number)):
        rule = find_concept_rule(conn, number, doc_id)
    return rule


def members(conn: sqlite3.Connection, rule: Row) -> list[int]:
    """The ids of every version of `rule` (its lineage), the rule alone without one."""
    lineage = _lineage_of(conn, rule)
    if lineage is None:
        return [rule["id"]]
    return [row[0] for row in conn.execute("SELECT rule_id FROM lineages WHERE lineage = ?",
                                           [lineage])]


def streamed_history(conn: sqlite3.Connection, rule: Row, chunk: int = 8) -> Iterator[Row]:
    """`history` of `rule`, the headings' texts (with their subtrees) read `chunk` versions
    at a time as they are yielded: the versions of a chapter hold 17 MB of text at full
    history."""
    ids = members(conn, rule)
    entries = _sorted(_versions(conn, ids, texts=False) + _concepts(conn, ids))
    for at, entry in enumerate(entries):
        if "_id" in entry:
            unread = [e for e in entries[at:] if "_id" in e][:chunk]
            texts = _full_texts(conn, [{"id": e["_id"], "title": e["_title"], "text": e["text"]}
                                       for e in unread])
            for other in unread:
                other["text"] = texts[other.pop("_id")]
                del other["_title"]
        yield entry


def related(conn: sqlite3.Connection, rule: Row) -> list[Row]:
    """The related texts of `rule`'s history (glossary entries, rulings, rulebook
    paragraphs: `history`'s entries with change "concept"), oldest first."""
    return _sorted(_concepts(conn, members(conn, rule)))


def _sorted(entries: list[Row]) -> list[Row]:
    entries.sort(key=lambda e: (e.pop("_date") or "", e.pop("_rank")))
    return entries


def _lineage_of(conn: sqlite3.Connection, rule: Row) -> str | None:
    row = conn.execute("SELECT lineage FROM lineages WHERE rule_id = ?", [rule["id"]]).fetchone()
    if row:
        return row[0]
    row = conn.execute(
        "SELECT l.lineage FROM concept_links c JOIN lineages l ON l.rule_id = c.target_rule_id "
        "JOIN documents d ON d.id = c.target_doc WHERE c.source_rule_id = ? "
        "ORDER BY c.score DESC, d.effective_date DESC LIMIT 1", [rule["id"]]).fetchone()
    return row[0] if row else None


def _versions(conn: sqlite3.Connection, members: list[int], texts: bool = True,
              sizes: dict[int, int] | None = None) -> list[Row]:
    """The versions of a lineage, oldest first; without `texts`, a heading's own text and
    "_id" and "_title" to read its subtree's by; `sizes` as `rule_history`'s."""
    marks = ",".join("?" * len(members))
    rows = [dict(row) for row in conn.execute(
        f"SELECT rules.id, rules.document, rules.number, rules.title, rules.text, "
        f"d.effective_date FROM rules JOIN documents d ON d.id = rules.document "
        f"WHERE rules.id IN ({marks}) ORDER BY d.effective_date, d.id", members)]
    # how each version came from another of the lineage (a seed fragment branches off its
    # whole release: the version after it comes from the release, not from the fragment)
    incoming = {new: (change, detail) for old, new, change, detail in conn.execute(
        f"SELECT old_rule_id, new_rule_id, change, detail FROM alignments "
        f"WHERE new_rule_id IN ({marks}) AND old_rule_id IN ({marks}) ORDER BY similarity",
        [*members, *members])}
    bridged = _bridged(conn, rows)
    full = _full_texts(conn, rows, sizes) if texts else {}
    entries = []
    previous: Row | None = None
    for row in rows:
        entry = {"doc": row["document"], "number": row["number"],
                 "text": full.get(row["id"], row["text"]), "change": "first"}
        if not texts:
            entry.update(_id=row["id"], _title=row["title"])
        if previous is not None:
            change, detail = incoming.get(row["id"], ("aligned", None))
            entry["change"] = change
            entry.update(_detail_mark(detail))
            note = bridged.get((previous["document"], previous["number"],
                                row["document"], row["number"]))
            if note is not None and change == "aligned":
                entry.update(set_by_hand=True, note=note)
        entries.append({**entry, "_date": row["effective_date"], "_rank": 1})
        previous = row
    return entries


def _bridged(conn: sqlite3.Connection, rows: list[Row]) -> dict[tuple[str, ...], str]:
    """The notes of the links set by hand between versions of `rows` (editions no stored pair
    joins), by the two rules they link (read here: the overrides module loads the aligner)."""
    docs = {row["document"] for row in rows}
    try:
        links = conn.execute("SELECT old_doc, old_number, new_doc, new_number, note "
                             "FROM alignment_overrides WHERE link ORDER BY id").fetchall()
    except sqlite3.OperationalError:  # a database made before overrides existed
        return {}
    return {(a, b, c, d): note or "" for a, b, c, d, note in links if {a, c} <= docs}


def _concepts(conn: sqlite3.Connection, members: list[int]) -> list[Row]:
    marks = ",".join("?" * len(members))
    rows = conn.execute(
        "SELECT c.source_doc, c.source_rule_id, c.source_glossary_id, max(c.score), c.method, "
        "d.effective_date FROM concept_links c JOIN documents d ON d.id = c.source_doc "
        f"WHERE c.target_rule_id IN ({marks}) "
        "GROUP BY c.source_doc, c.source_rule_id, c.source_glossary_id", members).fetchall()
    rule_ids = [row[1] for row in rows if row[1] is not None]
    rules = {row["id"]: dict(row) for row in conn.execute(
        f"SELECT * FROM rules WHERE id IN ({','.join('?' * len(rule_ids))})", rule_ids)}
    texts = _full_texts(conn, list(rules.values()))
    glossary_ids = [row[2] for row in rows if row[1] is None]
    glossary = {row[0]: (row[1], row[2]) for row in conn.execute(
        f"SELECT id, term, definition FROM glossary WHERE id IN "
        f"({','.join('?' * len(glossary_ids))})", glossary_ids)}
    entries = []
    for doc, rule_id, glossary_id, score, method, date in rows:
        if rule_id is not None:
            number, text = rules[rule_id]["number"], texts[rule_id]
        else:
            term, text = glossary[glossary_id]
            number = f"glossary: {term}"
        entries.append({"doc": doc, "number": number, "text": text, "change": "concept",
                        "score": round(score, 3), "method": method,
                        "_date": date, "_rank": 0 if rule_id is not None else 2})
    return entries


def _full_texts(conn: sqlite3.Connection, rules: list[Row],
                sizes: dict[int, int] | None = None) -> dict[int, str]:
    """By rule id: a heading's text with its subtree ("Banding" alone says little); else the
    text. One query for every heading's subtree, then one for each distinct text in them:
    the editions of a rule repeat most of their subrules' texts (joining the texts to the
    subtrees had SQLite read the whole texts table first, 2-4 ms). `sizes`, when given,
    gets each heading's number of rules, itself included."""
    result = {rule["id"]: rule["text"] for rule in rules}
    headings = [rule["id"] for rule in rules if rule.get("title")]
    if not headings:
        return result
    tree = conn.execute(
        "WITH RECURSIVE tree(root, id) AS (SELECT parent_id, id FROM rule_rows "
        f"WHERE parent_id IN ({','.join('?' * len(headings))}) UNION ALL "
        "SELECT tree.root, r.id FROM rule_rows r JOIN tree ON r.parent_id = tree.id) "
        "SELECT tree.root, r.number, r.text_id FROM tree JOIN rule_rows r ON r.id = tree.id "
        "ORDER BY tree.root, r.position", headings).fetchall()
    text_ids = sorted({text_id for _, _, text_id in tree})
    texts: dict[int, str] = {}
    for at in range(0, len(text_ids), 500):
        chunk = text_ids[at:at + 500]
        texts.update(conn.execute(f"SELECT id, text FROM texts WHERE id IN "
                                  f"({','.join('?' * len(chunk))})", chunk).fetchall())
    lines: dict[int, list[str]] = {rule_id: [result[rule_id]] for rule_id in headings}
    if sizes is not None:
        sizes.update((rule_id, 1) for rule_id in headings)
        for root, _, _ in tree:
            sizes[root] += 1
    for root, number, text_id in tree:
        if texts.get(text_id):
            lines[root].append(f"{number} {texts[text_id]}")
    result.update((rule_id, "\n".join(parts)) for rule_id, parts in lines.items())
    return result


def _detail_mark(detail: str | None) -> Row:
    """`hand_mark` of a stored alignment row's detail."""
    if not detail:
        return {}
    import json

    extra = json.loads(detail)
    return {"set_by_hand": True, "note": extra["note"]} if extra.get("set_by_hand") else {}
