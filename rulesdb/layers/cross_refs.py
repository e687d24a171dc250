"""The references between the judges' documents (the Magic Tournament Rules, the
Infraction Procedure Guide) and the Comprehensive Rules, and within a judges' document, as
rows of the references layer's table: citations (rulesdb.layers.policy_refs) and the uses of
the terms the judges' documents define (rulesdb.layers.policy_terms), each resolved against
the newest edition of the document it names."""

from __future__ import annotations

import functools
from typing import Any

import sqlite_utils

from ..db.editions import cited_edition
from . import policy_refs, policy_terms

Row = tuple[Any, ...]
POLICY_KINDS = tuple(k for k in policy_refs.KEYS if k != "comprehensive_rules")
# the references layer's columns, in the order of the tuples its rows are (`Cross.rows`)
COLUMNS = ("document", "source_table", "rule_id", "example_id", "glossary_id", "start", "end",
           "cited_start", "cited_end", "raw", "cited", "kind",
           "target_number", "target_rule_id", "target_glossary_id", "target_doc", "status",
           "reason")
# what `Cross.rows` takes from `Targets.resolve`, and where it puts it
_RESOLVED = tuple(COLUMNS.index(c) for c in ("target_number", "target_rule_id", "target_doc",
                                             "status", "reason"))
_TARGET_DOC, _REASON = COLUMNS.index("target_doc"), COLUMNS.index("reason")
# the reason of a reference into the CR when the database holds none
_NO_CR = policy_refs.Targets.missing("cr")


class Cross:
    """What references between the judges' documents and the CR are resolved with: the
    newest edition of each, the newest IPG's infractions, the terms the newest MTR and IPG
    define (rulesdb.layers.policy_terms)."""

    def __init__(self, db: sqlite_utils.Database) -> None:
        self.db = db
        self.targets = policy_refs.Targets(db.conn)
        self.found: dict[tuple[str, str, str | None], list[policy_refs.Cite]] = {}

    @functools.cached_property
    def infractions(self) -> policy_refs.Infractions:
        """The newest IPG's infractions (only a judges' document's text needs them)."""
        return policy_refs.Infractions.read(self.db.conn, self.targets.newest.get("ipg"))

    @functools.cached_property
    def terms(self) -> dict[str, tuple[policy_terms.Terms, list[str]]]:
        """The terms the newest MTR and IPG define, and the target of each (only a judges'
        document's text needs them)."""
        terms = {}
        for key in ("mtr", "ipg"):
            doc_id = self.targets.newest.get(key)
            rows = self.db.execute("SELECT number, title, text FROM rules WHERE document = ? "
                                   "ORDER BY position", [doc_id]).fetchall() if doc_id else []
            found = policy_terms.definitions([(title, text if text != title else "")
                                              for _, title, text in rows])
            terms[key] = (policy_terms.terms(found), [f"{key}|{rows[d.rule][0]}" for d in found])
        return terms

    def rows(self, doc_id: str, key: str, owner: tuple, text: str,
             title: str | None = None) -> list[Row]:
        """The rows of the references a text of document `doc_id` (of kind `key`) makes to
        another document or, in a judges' document, to its own sections and terms; `owner`
        is the row's first columns (document, table, rule, example, glossary), `title` the
        title of the section the text is."""
        if key == "cr" and "Tournament Rules" not in text and "Infraction" not in text:
            return []  # most CR texts name neither
        cites = self.found.get((key, text, title))
        if cites is None:
            cites = self.found[(key, text, title)] = self._find(text, key, title)
        rows = []
        for cite, named in ((one, target) for one in cites for target in one.targets):
            # its own document's section or term
            target = (f"{policy_refs.SELF}|{named.partition('|')[2]}"
                      if named.startswith(f"{key}|") else named)
            number, rule_id, target_doc, status, reason = _resolved(self.targets, target, doc_id)
            if rule_id is not None and rule_id == owner[2] and owner[3] is None:
                continue  # an infraction naming itself, a term where it is defined
            rows.append((*owner, cite.start, cite.end, cite.cited_start, cite.cited_end,
                         text[cite.start:cite.end], text[cite.cited_start:cite.cited_end],
                         cite.kind, number, rule_id, None, target_doc, status, reason))
        return rows

    def _find(self, text: str, key: str, title: str | None) -> list[policy_refs.Cite]:
        """The citations of a text, then the terms it uses where no citation stands."""
        cites = policy_refs.find(text, self.infractions, key, title)
        taken = [(c.start, c.end) for c in cites]
        for defining in {"mtr": ("mtr",), "ipg": ("mtr", "ipg")}.get(key, ()):
            found, targets = self.terms[defining]
            for start, end, at in policy_terms.mentions(text, found):
                if not any(lo < end and start < hi for lo, hi in taken):
                    cites.append(policy_refs.Cite(start, end, start, end, "term",
                                                  (targets[at],)))
                    taken.append((start, end))
        return sorted(cites, key=lambda c: c.start)


def retarget(db: sqlite_utils.Database) -> None:
    """Point the references to a judges' document as a whole (the CR's) at its newest
    edition, or drop them when none is left."""
    for kind in POLICY_KINDS:
        newest = cited_edition(db.conn, kind)
        stale = ("kind = 'document' AND target_rule_id IS NULL AND target_doc IN (SELECT id "
                 "FROM documents WHERE kind = ?)")
        if newest is None:
            db.execute(f"DELETE FROM [references] WHERE {stale}", [kind])
        else:
            db.execute(f"UPDATE [references] SET target_doc = ? WHERE {stale} AND "
                       "target_doc != ?", [newest, kind, newest])


def cr_retargeted(stored: list[Row], doc_id: str,
                  targets: policy_refs.Targets) -> list[Row] | None:
    """The rows of a judges' document `doc_id` as `Cross.rows` makes them, from its rows
    `stored` when only editions of the CR have come since they were made: the same rows, those
    into the CR resolved again (by the number they cite) against its cited edition now. None
    when a row names a document no longer held (its rows must be found again)."""
    kinds = targets.kinds()
    rows = []
    for row in stored:
        into = row[_TARGET_DOC]
        if into is not None and into not in kinds:
            return None
        if kinds.get(into) != "comprehensive_rules" and not (into is None
                                                              and row[_REASON] == _NO_CR):
            rows.append(row)
            continue
        changed = list(row)
        for at, value in zip(_RESOLVED, _resolved(targets, f"cr|{row[_RESOLVED[0]] or ''}",
                                                  doc_id), strict=True):
            changed[at] = value
        rows.append(tuple(changed))
    return rows


def _resolved(targets: policy_refs.Targets, target: str, doc_id: str) -> tuple:
    """`Targets.resolve` of a reference made in `doc_id`, as its row stores it: a target in
    its own document without the document's id."""
    number, rule_id, target_doc, status, reason = targets.resolve(target, doc_id)
    return number, rule_id, target_doc if target_doc != doc_id else None, status, reason
