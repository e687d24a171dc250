"""Read-only lookups of the lineage layer: diffs between editions and a rule's history.

Plain sqlite3, cheap to import: the aligner, the overrides and the layout rules load when a
diff needs them, and a rule's history (read from the stored lineages) does without them. A
diff reads the stored alignment of a pair of editions when the layer computed it
(consecutive CR editions), else aligns the two on the fly and applies the overrides of that
pair. Changes set by hand carry `set_by_hand` and their note.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections import Counter, OrderedDict
from collections.abc import Iterator

from ..lookup.query import find_rule
from ..numbers import normalize_number
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
RULE_NUMBER = re.compile(r"\d{1,3}(?:\.\d+[a-z]?)?|[A-Z](?:\.[\w-]+)*")


def edition(conn: sqlite3.Connection, doc_id: str) -> tuple[list[RuleRec], Coverage]:
    """The rules of a document in order, and what it covers."""
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


def _detail_mark(detail: str | None) -> Row:
    """`hand_mark` of a stored alignment row's detail."""
    extra = json.loads(detail) if detail else {}
    return {"set_by_hand": True, "note": extra["note"]} if extra.get("set_by_hand") else {}


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


def rule_history(conn: sqlite3.Connection, rule: Row) -> list[Row]:
    """`history` of a rule found already (`history_rule`)."""
    ids = members(conn, rule)
    return _sorted(_versions(conn, ids) + _concepts(conn, ids))


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


def _versions(conn: sqlite3.Connection, members: list[int], texts: bool = True) -> list[Row]:
    """The versions of a lineage, oldest first; without `texts`, a heading's own text and
    "_id" and "_title" to read its subtree's by."""
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
    full = _full_texts(conn, rows) if texts else {}
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


def _full_texts(conn: sqlite3.Connection, rules: list[Row]) -> dict[int, str]:
    """By rule id: a heading's text with its subtree ("Banding" alone says little); else the
    text. One query for every heading's subtree, then one for each distinct text in them:
    the editions of a rule repeat most of their subrules' texts (joining the texts to the
    subtrees had SQLite read the whole texts table first, 2-4 ms)."""
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
    for root, number, text_id in tree:
        if texts.get(text_id):
            lines[root].append(f"{number} {texts[text_id]}")
    result.update((rule_id, "\n".join(parts)) for rule_id, parts in lines.items())
    return result
