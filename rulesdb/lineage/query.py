"""Read-only lookups of the lineage layer: diffs between editions (a rule's history:
rulesdb.lineage.versions).

Plain sqlite3, cheap to import: the aligner, the overrides and the layout rules load when a
diff needs them. A diff reads the stored alignment of a pair of editions when the layer computed it
(consecutive CR editions), else aligns the two on the fly and applies the overrides of that
pair. Changes set by hand carry `set_by_hand` and their note.
"""

from __future__ import annotations

import re
import sqlite3
from collections import Counter, OrderedDict

from . import wordiff

TYPE_CHECKING = False  # typing.TYPE_CHECKING: a lookup does not import typing
if TYPE_CHECKING:
    from typing import Any

    from ..db.coverage import Coverage
    from .align import Change
    from .side import RuleRec

Row = dict[str, "Any"]
OP_ORDER = ("edited", "renumbered_edited", "split", "merged", "renumbered", "added", "removed",
            "outside_coverage")
CHAPTER = re.compile(r"\d")  # a chapter of the Comprehensive Rules: "7"


def edition(conn: sqlite3.Connection, doc_id: str) -> tuple[list[RuleRec], Coverage]:
    """The rules of a document in order, and what it covers."""
    import json

    from ..db.coverage import Coverage
    from .side import RuleRec

    rules = list(map(RuleRec._make, conn.execute(  # the `rules` view, joined (faster)
        "SELECT r.number, r.kind, r.title, t.text, r.parent FROM rule_rows r LEFT JOIN texts t "
        "ON t.id = r.text_id WHERE r.document = ? ORDER BY r.position", [doc_id])))
    partial, covers = conn.execute(
        "SELECT partial, covers FROM documents WHERE id = ?", [doc_id]).fetchone()
    return rules, Coverage.from_covers(bool(partial), json.loads(covers or "[]"))


def compute_changes(conn: sqlite3.Connection, old_doc: str, new_doc: str) -> list[Change]:
    """The alignment of two stored documents, computed now, with their overrides applied."""
    (old_rules, old_cover), (new_rules, new_cover) = (edition(conn, doc)
                                                      for doc in (old_doc, new_doc))
    return aligned(conn, old_doc, new_doc, old_rules, new_rules, old_cover, new_cover)


# Alignments computed on the fly, kept by database file and pair: aligning two distant
# editions takes most of a second, and the site's diff, its pages and its renumbering list
# each ask for it (a file replaced by `rulesdb add` has another stamp)
_ALIGNED: OrderedDict[tuple[Any, ...], list[Change]] = OrderedDict()
ALIGNED_KEPT = 8


def aligned(conn: sqlite3.Connection, old_doc: str, new_doc: str, old_rules: list[RuleRec],
            new_rules: list[RuleRec], old_cover: Coverage, new_cover: Coverage) -> list[Change]:
    """`align` of two documents' rules (read from `conn`: `edition`), with the overrides
    stored for the pair applied."""
    from ..db.replacing import file_stamp  # a history does without it (and its imports)

    path = conn.execute("PRAGMA database_list").fetchone()[2]
    stamp = file_stamp(path) if path else None
    key = (path, stamp, old_doc, new_doc)
    if stamp is not None and key in _ALIGNED:
        _ALIGNED.move_to_end(key)
        return list(_ALIGNED[key])
    from . import layout, overrides
    from .align import align

    changes = align(old_rules, new_rules, old_cover, new_cover)
    hand_set = overrides.stored(conn, old_doc, new_doc)
    old_by, new_by = {r.number: r for r in old_rules}, {r.number: r for r in new_rules}
    if hand_set:
        changes = overrides.apply(changes, hand_set, old_by, new_by)
    kinds = {row[0] for row in conn.execute("SELECT kind FROM documents WHERE id IN (?, ?)",
                                            [old_doc, new_doc])}
    if kinds <= layout.POLICY_KINDS:
        changes, _ = layout.settle(changes, old_by, new_by)
    if stamp is not None:
        _ALIGNED[key] = list(changes)
        while len(_ALIGNED) > ALIGNED_KEPT:
            _ALIGNED.popitem(last=False)
    return changes


def stored_changes(conn: sqlite3.Connection, old_doc: str, new_doc: str,
                   changed_only: bool = False) -> list[Change] | None:
    """The alignment the layer stored for this pair (without its unchanged rules when
    `changed_only`: most of a pair's rows), or None when it stored none."""
    if conn.execute("SELECT 1 FROM alignments WHERE old_doc = ? AND new_doc = ? LIMIT 1",
                    [old_doc, new_doc]).fetchone() is None:
        return None
    rows = conn.execute(
        "SELECT change, old_number, new_number, similarity, detail FROM alignments "
        "WHERE old_doc = ? AND new_doc = ?" + (" AND change != 'unchanged'" if changed_only
                                                else "") + " ORDER BY id",
        [old_doc, new_doc]).fetchall()
    return [_stored_change(*row) for row in rows]


def _stored_change(op: str, old: str | None, new: str | None, similarity: float,
                   detail: str | None) -> Change:
    import json

    from .align import Change
    from .overrides import HandChange

    details = json.loads(detail) if detail else {}
    citations_only, extra = bool(details.get("citations_only")), bool(details.get("extra"))
    if details.get("set_by_hand"):
        return HandChange(op, old, new, similarity, citations_only, extra,
                          note=details["note"])
    return Change(op, old, new, similarity, citations_only, extra)


def hand_mark(change: Change) -> Row:
    """`set_by_hand` and its note for a change an override made, else nothing."""
    from .overrides import HandChange

    if isinstance(change, HandChange):
        return {"set_by_hand": True, "note": change.note}
    return {}


def alignment(conn: sqlite3.Connection, old_doc: str, new_doc: str,
              changed_only: bool = False) -> tuple[list[Change], str]:
    """The alignment of two documents and where it comes from: "stored" by the layer, else
    "computed" now."""
    changes = stored_changes(conn, old_doc, new_doc, changed_only)
    if changes is None:
        return compute_changes(conn, old_doc, new_doc), "computed"
    return changes, "stored"


def in_section(number: str | None, section: str) -> bool:
    """Whether `number` is `section` or lies under it (7 → 702.19a; 702 → 702.19a;
    702.19 → 702.19a)."""
    if not number:
        return False
    if CHAPTER.fullmatch(section):  # its sections are numbered 700-799
        return number == section or bool(re.fullmatch(section + r"\d\d(?:\..*)?", number))
    return (number == section or number.startswith(section + ".")
            or bool(re.fullmatch(re.escape(section) + r"[a-z]", number)))


def diff(conn: sqlite3.Connection, old_doc: str, new_doc: str,
         section: str | None = None, words: bool = True) -> Row:
    """The public diff shape: old, new, counts, changes (unchanged left out); without `words`,
    edits carry their two texts but not their word-level opcodes (a page computes them for
    the edits it shows)."""
    changes = stored_changes(conn, old_doc, new_doc, changed_only=True)
    source = "stored"
    if changes is None:  # aligned now: the texts come with the rules read for it
        (old_rules, old_cover), (new_rules, new_cover) = (edition(conn, doc)
                                                          for doc in (old_doc, new_doc))
        changes = aligned(conn, old_doc, new_doc, old_rules, new_rules, old_cover, new_cover)
        source = "computed"
        olds = {rule.number: rule for rule in old_rules}
        news = {rule.number: rule for rule in new_rules}
    changes = [c for c in changes if c.op != "unchanged"]
    if section:
        changes = [c for c in changes if in_section(c.old, section) or in_section(c.new, section)]
    if source == "stored":  # only the rules the changes name: a few hundred of 3,000
        olds = _rules(conn, old_doc, [c.old for c in changes])
        news = _rules(conn, new_doc, [c.new for c in changes])
    kinds = {row[0] for row in conn.execute("SELECT kind FROM documents WHERE id IN (?, ?)",
                                            [old_doc, new_doc])}
    from .layout import POLICY_KINDS

    compare = wordiff.layout_opcodes if kinds <= POLICY_KINDS else wordiff.opcodes
    items = []
    for change in changes:
        item: Row = {"op": change.op, "old": change.old, "new": change.new,
                     "similarity": round(change.similarity, 3)}
        old_rule, new_rule = olds.get(change.old or ""), news.get(change.new or "")
        old_text = old_rule.text if old_rule else None
        new_text = new_rule.text if new_rule else None
        if change.op in ("edited", "renumbered_edited", "split", "merged"):
            if words:
                item["words"] = compare(old_text or "", new_text or "")
            item["old_text"], item["new_text"] = old_text, new_text
        elif change.op in ("added", "removed", "outside_coverage"):
            item["text"] = old_text if change.old else new_text
        if change.op == "renumbered":
            item["old_parent"] = old_rule.parent if old_rule else None
            item["new_parent"] = new_rule.parent if new_rule else None
        if change.citations_only:
            item["citations_only"] = True
        item.update(hand_mark(change))
        items.append(item)
    counts = Counter(item["op"] for item in items)
    return {"old": old_doc, "new": new_doc, "alignment": source,
            "counts": {op: counts[op] for op in OP_ORDER if counts[op]}, "changes": items}


def _rules(conn: sqlite3.Connection, doc_id: str,
           numbers: list[str | None]) -> dict[str, RuleRec]:
    """The rules of `doc_id` with these numbers, by number."""
    from .side import RuleRec

    wanted = sorted({number for number in numbers if number})
    found: dict[str, RuleRec] = {}
    for at in range(0, len(wanted), 500):
        chunk = wanted[at:at + 500]
        found.update((rule.number, rule) for rule in map(RuleRec._make, conn.execute(
            "SELECT r.number, r.kind, r.title, t.text, r.parent FROM rule_rows r LEFT JOIN "
            f"texts t ON t.id = r.text_id WHERE r.document = ? AND r.number IN "
            f"({','.join('?' * len(chunk))})", [doc_id, *chunk])))
    return found
