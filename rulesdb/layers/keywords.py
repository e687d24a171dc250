"""Keywords layer: keyword abilities, keyword actions and ability words with their rules.

Keyword abilities and actions are the titled rules under the sections headed "Keyword
Abilities" / "Keyword Actions" (502/501 before the 2009 renumbering, 702/701 after).
Ability words come from the rule that lists them ("The ability words are …"), or in older
editions from the glossary entry "Ability Word" ("The list of ability words, … is as follows: …").
"""

from __future__ import annotations

import re

import sqlite_utils

from ..db.bulk import insert_rows
from ..db.schema import ensure_schema

SECTION_KINDS = {"keyword abilities": "ability", "keyword actions": "action"}
ABILITY_WORDS = re.compile(
    r"(?:The ability words are|The list of ability words[^:.]*is as follows:) (?P<words>[^.]+)\."
)


def compute(db: sqlite_utils.Database, doc_ids: list[str]) -> str:
    """Store the keywords of the given CR documents; a one-line summary."""
    ensure_schema(db, ["keywords"])
    total = 0
    for doc_id in doc_ids:
        db.execute("DELETE FROM keywords WHERE document = ?", [doc_id])
        rows = list(_keywords(db, doc_id))
        insert_rows(db, "keywords", rows)
        total += len(rows)
    return f"{total} keywords"


def _keywords(db: sqlite_utils.Database, doc_id: str) -> list[dict]:
    rows = []
    sections = db.execute(
        "SELECT id, title FROM rules WHERE document = ? AND kind = 'section'", [doc_id]
    ).fetchall()
    for section_id, title in sections:
        kind = SECTION_KINDS.get((title or "").strip().lower())
        if not kind:
            continue
        for rule_id, number, keyword in db.execute(
            "SELECT id, number, title FROM rules WHERE parent_id = ? AND title IS NOT NULL "
            "ORDER BY position", [section_id]
        ):
            rows.append({"document": doc_id, "keyword": keyword, "kind": kind,
                         "rule_id": rule_id, "number": number})
    listed = db.execute(
        "SELECT id, number, text FROM rules WHERE document = ? AND text LIKE '%ability words%' "
        "UNION ALL SELECT NULL, NULL, definition FROM glossary WHERE document = ? "
        "AND definition LIKE '%ability words%'", [doc_id, doc_id]
    ).fetchall()
    seen: set[str] = set()
    for rule_id, number, text in listed:
        match = ABILITY_WORDS.search(text or "")
        if not match:
            continue
        for word in re.split(r",\s(?:and\s)?|\sand\s", match["words"]):
            word = word.strip()
            if word and word not in seen:
                seen.add(word)
                rows.append({"document": doc_id, "keyword": word, "kind": "ability_word",
                             "rule_id": rule_id, "number": number})
    return rows
