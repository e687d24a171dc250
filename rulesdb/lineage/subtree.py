"""The history of a large subtree (a chapter, a section) as a summary: per release, what
changed inside it since the release before, counted by kind of change and named rule by rule,
rather than every word of every rule in every release.

A history shows a heading (a rule with a title) with every line of its subtree in every
version. Past SUMMARY_AFTER rules that is too much to read and to send: at full history chapter
7's page was 36.8 MB of HTML (31 s), section 702's 16.6 MB. Measured at full history
(cr-2026-01-16): rules with a heading hold at most 17 rules (205.3, whose complete history page
is 0.8 MB: the creature types, reworded in most releases); sections hold 1 to 752 rules (median
12; 41 of 146 hold more than 20), chapters 88 to 1,518; the complete pages of sections of 21 to
30 rules weighed 0.25-0.75 MB and took up to 0.8 s on a busy machine, those past 30 up to 1.4
MB. So a rule with its subrules keeps its complete history, and so does a section of at most 20
rules; larger ones get the summary, and the words of one release's step on request
(`step_diff`). A rule without a heading (704.5, 25 rules) shows only its own words, and keeps
its history whatever its size.

The changes are the lineage layer's stored alignments of consecutive whole releases, so a
summary reads no text; a rule lies in the subtree of a version when its number lies under the
heading's number in that release (`query.in_section`).
"""

from __future__ import annotations

import sqlite3
from collections import Counter

from . import versions, wordiff
from .query import OP_ORDER, diff, in_section
from .words import counted

TYPE_CHECKING = False  # typing.TYPE_CHECKING: a lookup does not import typing
if TYPE_CHECKING:
    from typing import Any

Row = dict[str, "Any"]
SUMMARY_AFTER = 20  # rules in a subtree (the heading included) past which a history is summed up
LISTED = 12  # rules named per step in a summary line; the others are counted
NAMED = [op for op in OP_ORDER if op != "outside_coverage"]
# `query.in_section` in SQL: number {n} is heading {h} or lies under it (NULL: no heading)
_UNDER = ("({n} = {h} OR CASE WHEN {h} GLOB '[0-9]' THEN {n} GLOB {h} || '[0-9][0-9]' "
          "OR {n} GLOB {h} || '[0-9][0-9].*' ELSE {n} GLOB {h} || '.*' "
          "OR {n} GLOB {h} || '[a-z]' END)")


def subtree_size(conn: sqlite3.Connection, rule_ids: list[int]) -> int:
    """The most rules a subtree of these rules holds (each rule counted with its subrules)."""
    if not rule_ids:
        return 0
    found = conn.execute(
        "WITH RECURSIVE tree(root, id) AS (SELECT id, id FROM rule_rows WHERE id IN "
        f"({','.join('?' * len(rule_ids))}) UNION ALL SELECT tree.root, r.id FROM rule_rows r "
        "JOIN tree ON r.parent_id = tree.id) SELECT max(n) FROM (SELECT count(*) AS n FROM "
        "tree GROUP BY root)", rule_ids).fetchone()[0]
    return found or 0


def summarized(conn: sqlite3.Connection, rule_id: int, sizes: dict[int, int] | None = None,
               ) -> bool:
    """Whether the history of this rule is a summary: it is a heading (a rule with a title,
    whose history shows every line under it: `versions.history`) and some version of it (in
    any release) holds more than SUMMARY_AFTER rules. The rule asked is measured first (a
    chapter needs no more); `sizes` (`versions.rule_history`'s) are the sizes of headings
    known already."""
    return outgrown(conn, rule_id) or _a_version_outgrown(conn, rule_id, sizes)


def outgrown(conn: sqlite3.Connection, rule_id: int) -> bool:
    """Whether the rule is a heading that holds more than SUMMARY_AFTER rules itself: its
    history is a summary whatever its other versions hold (`summarized` asks them too)."""
    return _heading(conn, rule_id) and subtree_size(conn, [rule_id]) > SUMMARY_AFTER


def complete_history(conn: sqlite3.Connection, rule: Row) -> list[Row] | None:
    """The versions of `rule` (`versions.rule_history`) when its history shows them all, None
    when it is summed up (`summarized`): what `rulesdb history` and the site both show, each
    version's subtree read once (a chapter's versions are never read: it is summed up on its
    own size)."""
    if outgrown(conn, rule["id"]):
        return None
    sizes: dict[int, int] = {}  # the versions' sizes, read with their texts
    entries = versions.rule_history(conn, rule, sizes)
    return None if _a_version_outgrown(conn, rule["id"], sizes) else entries


def _a_version_outgrown(conn: sqlite3.Connection, rule_id: int,
                        sizes: dict[int, int] | None) -> bool:
    """Whether a version of this heading in another release holds more than SUMMARY_AFTER
    rules (`sizes`: those known already)."""
    if not _heading(conn, rule_id):
        return False
    ids = [member for _, _, member in _members(conn, rule_id)]
    known = sizes or {}
    if any(known.get(member, 0) > SUMMARY_AFTER for member in ids):
        return True
    unknown = [member for member in ids if member not in known]
    headings = [row[0] for row in conn.execute(
        f"SELECT id FROM rule_rows WHERE id IN ({','.join('?' * len(unknown))}) "
        "AND title IS NOT NULL", unknown)]
    return subtree_size(conn, headings) > SUMMARY_AFTER


def _heading(conn: sqlite3.Connection, rule_id: int) -> bool:
    return conn.execute("SELECT title IS NOT NULL FROM rule_rows WHERE id = ?",
                        [rule_id]).fetchone()[0]


def _members(conn: sqlite3.Connection, rule_id: int) -> list[tuple[str, str, int]]:
    """(document, number, rule id) of each version of the rule in a whole document, oldest
    first (the rule alone when the lineage layer linked it to none)."""
    found = conn.execute(
        "SELECT l.document, l.number, l.rule_id FROM lineages l JOIN documents d "
        "ON d.id = l.document WHERE l.lineage = (SELECT lineage FROM lineages WHERE "
        "rule_id = ?) AND d.superseded_by IS NULL ORDER BY d.effective_date, d.id",
        [rule_id]).fetchall()
    if found:
        return found
    return conn.execute("SELECT document, number, id FROM rule_rows WHERE id = ?",
                        [rule_id]).fetchall()


def summary(conn: sqlite3.Connection, rule_id: int) -> list[Row]:
    """The steps of the subtree's history, oldest first: the first release that has the
    rule ("old_doc" None, "size": its rules), then each release whose subtree changed, with
    "old_doc"/"old_number" (the release before and the rule's number there, None when the
    rule was not in it), "new_doc"/"number", "counts" ({change: n} in the diff's order),
    "changes" ([{"op", "old", "new"}] in the release's order) and "run" (the later
    releases in which nothing under it changed)."""
    members = _members(conn, rule_id)
    before = dict(conn.execute("SELECT new_doc, old_doc FROM edition_changes").fetchall())
    number_in = {doc: number for doc, number, _ in members}
    pairs = [(before[doc], doc, number_in.get(before[doc]), number)
             for doc, number, _ in members[1:] if doc in before]
    changed: dict[tuple[str, str], list[Row]] = {}
    for at in range(0, len(pairs), 200):
        chunk = pairs[at:at + 200]
        for old_doc, new_doc, op, old, new in conn.execute(
                f"WITH steps(old_doc, new_doc, old_h, new_h) AS (VALUES "
                f"{','.join(['(?, ?, ?, ?)'] * len(chunk))}) "
                "SELECT a.old_doc, a.new_doc, a.change, a.old_number, a.new_number FROM steps "
                "JOIN alignments a ON a.new_doc = steps.new_doc AND a.old_doc = steps.old_doc "
                f"AND a.change != 'unchanged' WHERE {_UNDER.format(n='a.new_number', h='new_h')}"
                f" OR {_UNDER.format(n='a.old_number', h='old_h')} ORDER BY a.id",
                [value for pair in chunk for value in pair]):
            if op in NAMED:
                changed.setdefault((old_doc, new_doc), []).append(
                    {"op": op, "old": old, "new": new})
    first_doc, first_number, first_id = members[0]
    steps: list[Row] = [{"old_doc": None, "old_number": None, "new_doc": first_doc,
                         "number": first_number, "counts": {}, "changes": [], "run": [],
                         "size": subtree_size(conn, [first_id])}]
    for doc, number, _ in members[1:]:
        old_doc = before.get(doc)
        old_number = number_in.get(old_doc) if old_doc else None
        inside = changed.get((old_doc, doc), []) if old_doc else []
        if not inside and old_number is not None:
            steps[-1]["run"].append(doc)
            continue
        counts = Counter(c["op"] for c in inside)
        steps.append({"old_doc": old_doc, "old_number": old_number, "new_doc": doc,
                      "number": number, "counts": {op: counts[op] for op in NAMED if counts[op]},
                      "changes": inside, "run": []})
    return steps


def step_diff(conn: sqlite3.Connection, rule_id: int, new_doc: str) -> Row | None:
    """The diff (`query.diff`, with words) of the step of the summary into `new_doc`,
    restricted to the rule's subtree on either side; None when the summary has no such
    step."""
    step = next((s for s in summary(conn, rule_id)
                 if s["new_doc"] == new_doc and s["old_doc"] is not None), None)
    if step is None:
        return None
    found = diff(conn, step["old_doc"], new_doc, words=False)
    found["changes"] = [c for c in found["changes"] if in_section(c["new"], step["number"]) or (
        step["old_number"] and in_section(c["old"], step["old_number"]))]
    for change in found["changes"]:
        if "old_text" in change:
            change["words"] = wordiff.opcodes(change["old_text"] or "", change["new_text"] or "")
    counts = Counter(c["op"] for c in found["changes"])
    found["counts"] = {op: counts[op] for op in OP_ORDER if counts[op]}
    return {**found, "step": step}


def named(change: Row) -> str:
    """A change of a step named as a history names a rule: "502.3c → 502.3b" for a new
    number, else its number."""
    if change["old"] and change["new"] and change["old"] != change["new"]:
        return f"{change['old']} → {change['new']}"
    return change["new"] or change["old"]


def placed(change: Row, step: Row) -> tuple[str, str]:
    """The release and number of a step's changed rule (the new release's, or the old one's
    for a rule removed), whose history a summary links."""
    if change["new"]:
        return step["new_doc"], change["new"]
    return step["old_doc"], change["old"]


def described(counts: dict[str, int]) -> str:
    """"3 edited, 1 renumbered and edited, 1 added" (the diff's order, in words)."""
    return counted(counts) or "nothing changed"
