"""History pages: a rule's versions across editions compared word by word, or, for a large
subtree (rulesdb.lineage.subtree), a summary per release of what changed inside it, a page
of releases at a time, with the words of one release's step on request."""

from __future__ import annotations

import sqlite3
from typing import Any

from ..lineage import subtree
from ..lineage import versions as lineage_versions
from ..lineage.changes import steps
from ..lineage.fold import fold_history, run_note
from ..lineage.words import change_words
from ..lookup.query import in_editions
from ..numbers import normalize_number, spoken
from .diffs import shown_change, side_by_side, whole
from .pages import Row, document, rows
from .render import glossary_url, rule_url

STEPS_PER_PAGE = 20  # releases of a summary per page
CHANGES_PER_PAGE = 50  # changes of one step shown word by word per page


def versions(rule: Row, entries: list[Row]) -> list[Row]:
    """`entries`, the versions of `rule` (`subtree.complete_history`), with a page URL on
    each and whether it is `rule`."""
    for entry in entries:
        linked(entry)
        entry["current"] = (entry["doc"], entry["number"]) == (rule["document"], rule["number"])
    return entries


def linked(entry: Row) -> Row:
    """`entry` (a version or related text) with the URL of its page."""
    if entry["number"].startswith("glossary: "):
        entry["url"] = glossary_url(entry["doc"], entry["number"][len("glossary: "):])
    else:
        entry["url"] = rule_url(entry["doc"], entry["number"])
    return entry


def the_rule(conn: sqlite3.Connection, doc_id: str, number: str) -> Row | None:
    """The rule `number` of `doc_id`, or None."""
    found = rows(conn, "SELECT * FROM rules WHERE document = ? AND number = ?",
                 [doc_id, normalize_number(number)])
    return found[0] if found else None


def history_page(conn: sqlite3.Connection, doc_id: str, number: str, page: int = 1,
                 step: str | None = None) -> Row | None:
    """The history page of a rule (`summary_page` or `step_page` for a large subtree);
    None without such a rule, page or step."""
    rule = the_rule(conn, doc_id, number)
    if rule is None:
        return None
    found = subtree.complete_history(conn, rule)
    if found is None:
        if step is not None:
            return step_page(conn, rule, step, page)
        return summary_page(conn, rule, page)
    if step is not None or page != 1:
        return None
    return full_page(conn, rule, found)


def full_page(conn: sqlite3.Connection, rule: Row, found: list[Row]) -> Row:
    """Every version of a rule across editions (`found`: `subtree.complete_history`), oldest
    first, each compared word by word with the version before it, and the related texts of
    other documents."""
    doc_id = rule["document"]
    entries = fold_history(versions(rule, found))
    chain: list[dict[str, Any]] = []
    for shown in steps([e for e in entries if e["change"] != "concept"]):
        entry, previous = shown.item, shown.before
        entry["previous"], entry["label"] = previous, shown.label
        # the first version whole (against nothing, every word of it would be added)
        entry["old_html"], entry["new_html"] = side_by_side(
            previous["text"], entry["text"]) if previous else ("", whole(entry["text"]))
        entry["run_note"] = run_note(entry).removeprefix("; ")
        entry["run_links"] = [(doc, rule_url(doc, entry["number"])) for doc in entry["run"]]
        chain.append(entry)
    return {"rule": rule, "document": document(conn, doc_id), "versions": chain,
            "related": _related(entries), "rule_url": rule_url(doc_id, rule["number"]),
            "template": "rulesdb_history.html"}


def _related(entries: list[Row]) -> list[Row]:
    related = [e for e in entries if e["change"] == "concept"]
    for entry in related:
        entry["run_note"] = run_note(entry).removeprefix("; ")
    return related


def summary_page(conn: sqlite3.Connection, rule: Row, page: int) -> Row | None:
    """What changed inside a large subtree, release by release, STEPS_PER_PAGE releases a
    page (None past the last page)."""
    doc_id, base = rule["document"], rule_url(rule["document"], rule["number"])
    found = subtree.summary(conn, rule["id"])
    pages = max(1, -(-len(found) // STEPS_PER_PAGE))
    if not 1 <= page <= pages:
        return None
    shown = [_step(item, base) for item in
             found[(page - 1) * STEPS_PER_PAGE: page * STEPS_PER_PAGE]]
    related = fold_history(lineage_versions.related(conn, rule))
    return {"rule": rule, "document": document(conn, doc_id), "rule_url": base,
            "steps": shown, "page": page, "pages": pages,
            "page_urls": [(n, _page_url(base, n)) for n in range(1, pages + 1)],
            "releases": sum(1 + len(item["run"]) for item in found),
            "changed": len(found) - 1, "size": found[0]["size"],
            "limit": subtree.SUMMARY_AFTER, "listed": subtree.LISTED,
            "related": [linked(entry) for entry in _related(related)],
            "template": "rulesdb_history_summary.html"}


def _page_url(base: str, page: int) -> str:
    return f"{base}/history" + (f"?page={page}" if page > 1 else "")


def _step(item: Row, base: str) -> Row:
    """A summary step with its words, links and the first LISTED rules it changed."""
    changes = item["changes"]
    return {**item, "described": subtree.described(item["counts"]), **_headings(item),
            "url": rule_url(item["new_doc"], item["number"]),
            "step_url": f"{base}/history?step={item['new_doc']}" if item["old_doc"] else None,
            "run_note": f"nothing changed inside {in_editions(item['run'])}"
                        if item["run"] else "",
            "listed": [_change(change, item) for change in changes[:subtree.LISTED]],
            "more": max(0, len(changes) - subtree.LISTED)}


def _headings(step: Row) -> Row:
    """The step's number and the one before, as a reader says them ("chapter 5": a bare "5"
    under a release's id reads as a count)."""
    old = step.get("old_number")
    return {"heading": spoken(step["number"]), "old_heading": spoken(old) if old else None}


def _change(change: Row, step: Row) -> Row:
    """A change of a step named as a history names it, linked to the history of the rule."""
    return {"op": change["op"], "words": change_words(change["op"]),
            "label": subtree.named(change),
            "history_url": rule_url(*subtree.placed(change, step)) + "/history"}


def step_page(conn: sqlite3.Connection, rule: Row, new_doc: str, page: int) -> Row | None:
    """The changes inside a large subtree from the release before `new_doc` to it, word by
    word, CHANGES_PER_PAGE a page; None without such a step or page."""
    found = subtree.step_diff(conn, rule["id"], new_doc)
    if found is None:
        return None
    changes = found["changes"]
    pages = max(1, -(-len(changes) // CHANGES_PER_PAGE))
    if not 1 <= page <= pages:
        return None
    step, base = found["step"], rule_url(rule["document"], rule["number"])
    shown = [{**shown_change(change, step["old_doc"], new_doc), **_change(change, step)}
             for change in changes[(page - 1) * CHANGES_PER_PAGE: page * CHANGES_PER_PAGE]]
    step_url = f"{base}/history?step={new_doc}"
    return {"rule": rule, "document": document(conn, rule["document"]), "rule_url": base,
            "step": {**step, "described": subtree.described(found["counts"]), **_headings(step)},
            "changes": shown, "page": page, "pages": pages, "total": len(changes),
            "summary_url": f"{base}/history",
            "prev_url": f"{step_url}&page={page - 1}" if page > 1 else None,
            "next_url": f"{step_url}&page={page + 1}" if page < pages else None,
            "diff_url": f"/diff/{step['old_doc']}/{new_doc}",
            "template": "rulesdb_history_step.html"}


def rule_history(conn: sqlite3.Connection, doc_id: str, number: str) -> Row:
    """What a rule's page says of its history: the versions as its history page names them
    (folded, with their labels), or for a large subtree how many releases changed it."""
    rule = the_rule(conn, doc_id, number)
    found = subtree.complete_history(conn, rule) if rule else None
    if found is None:
        summed = subtree.summary(conn, rule["id"]) if rule else []
        return {"summarized": True, "changed": max(0, len(summed) - 1),
                "releases": sum(1 + len(item["run"]) for item in summed), "versions": []}
    entries = fold_history(versions(rule, found))
    shown = []
    for item in steps(entries):
        entry = item.item
        entry["label"] = item.label
        entry["run_note"] = run_note(entry).removeprefix("; ")
        shown.append(entry)
    return {"summarized": False, "versions": shown}
