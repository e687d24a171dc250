"""After a new release: the citations whose rule changed between an older edition and the
one checked (edited, renumbered, removed), with the words that changed."""

from __future__ import annotations

import sqlite3
from typing import Any

from ..errors import InputError
from ..lineage.fold import same_key
from ..lineage.wordiff import opcodes, render_inline
from .scan import Citation
from .status import Checked


def changed_since(conn: sqlite3.Connection, items: list[tuple[Citation, Checked]],
                  since: str, edition: str) -> list[dict[str, Any]]:
    """One row per citation whose rule differs between `since` and `edition`: change
    (edited, renumbered, renumbered_edited, removed), both numbers and texts, and the words
    that changed in context. InputError when `since` is not a CR edition here."""
    if not conn.execute("SELECT 1 FROM documents WHERE id = ? AND kind = 'comprehensive_rules'",
                        [since]).fetchone():
        raise InputError(f"--since {since}: no such Comprehensive Rules edition; see "
                         "`rulesdb docs`")
    rows, seen = [], set()
    for citation, verdict in items:
        key = (citation.file, citation.line, citation.number)
        if key in seen or verdict.status in ("malformed", "outside_coverage"):
            continue
        seen.add(key)
        current = verdict.rule or (verdict.suggestion if verdict.status == "renumbered"
                                   else None)
        old = _version(conn, since, edition, current, citation.number)
        if old is None:
            continue
        (old_number, old_text), new = old
        if new is None:
            change, new_number, new_text = "removed", None, None
        else:
            new_number, new_text = new
            renumbered = old_number != new_number
            # as a history tells versions apart: typography and renumbered citations aside
            edited = same_key(old_text or "") != same_key(new_text or "")
            if not renumbered and not edited:
                continue
            change = "renumbered_edited" if renumbered and edited else (
                "renumbered" if renumbered else "edited")
        words = render_inline(opcodes(old_text or "", new_text or "")) if new_text else None
        rows.append({"file": citation.file, "line": citation.line, "column": citation.column,
                     "function": citation.function, "cited": citation.number,
                     "change": change, "old_number": old_number, "new_number": new_number,
                     "old_text": old_text, "new_text": new_text, "words": words})
    return rows


def _version(conn: sqlite3.Connection, since: str, edition: str, current: str | None,
             cited: str) -> tuple[tuple[str, str], tuple[str, str] | None] | None:
    """((number, text) in `since`, (number, text) in `edition` or None when it is gone), or
    None when the rule is in neither lineage."""
    if current is not None:
        found = conn.execute(
            "SELECT o.number, o.text, n.number, n.text FROM rules n "
            "JOIN lineages ln ON ln.rule_id = n.id "
            "JOIN lineages lo ON lo.lineage = ln.lineage AND lo.document = ? "
            "JOIN rules o ON o.id = lo.rule_id WHERE n.document = ? AND n.number = ?",
            [since, edition, current]).fetchone()
        if found:
            return (found[0], found[1]), (found[2], found[3])
    old = conn.execute("SELECT id, number, text FROM rules WHERE document = ? AND number = ?",
                       [since, cited]).fetchone()
    if old is None:
        return None
    new = conn.execute(
        "SELECT n.number, n.text FROM lineages lo JOIN lineages ln ON ln.lineage = lo.lineage "
        "AND ln.document = ? JOIN rules n ON n.id = ln.rule_id WHERE lo.rule_id = ?",
        [edition, old[0]]).fetchone()
    return (old[1], old[2]), (tuple(new) if new else None)
