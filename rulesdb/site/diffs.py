"""Diff pages, from the lineage layer's lookups (`rulesdb.lineage.query`) and its word-level
differences (`rulesdb.lineage.wordiff`): the site shows what `rulesdb diff` prints."""

from __future__ import annotations

import sqlite3
from collections import OrderedDict
from typing import Any

from markupsafe import Markup, escape

from ..db.replacing import file_stamp
from ..lineage import query as lineage_query
from ..lineage import wordiff
from ..lineage.renumbered import renumbered
from . import releases
from .pages import Row, document, documents, rows
from .render import rule_url

PAGE_SIZE = 100
# Changes listed when no filter is given; rules outside the other document's coverage are
# only counted (a chapter-7 edition against a chapters-1-6 one has a thousand of them).
HIDDEN_BY_DEFAULT = ("outside_coverage",)
# Diffs computed on the fly are kept: the database is immutable, so they never go stale.
_CACHE: OrderedDict[tuple[Any, ...], Row] = OrderedDict()
CACHE_SIZE = 16


def side_by_side(old: str | None, new: str | None) -> tuple[Markup, Markup]:
    """Old and new text, escaped, removed words in <del> and added words in <ins>."""
    left, right = wordiff.render_html(wordiff.opcodes(old or "", new or ""))
    return Markup(left.replace("\n", "<br>\n")), Markup(right.replace("\n", "<br>\n"))


def whole(text: str) -> Markup:
    """A text escaped, its lines kept."""
    return Markup(str(escape(text)).replace("\n", "<br>\n"))


def pairs(conn: sqlite3.Connection) -> list[Row]:
    """The edition pairs the lineage layer stored, oldest first, with their page URLs and
    what changed (read from the counts stored at build: counting the alignments took a
    tenth of a second at full history)."""
    found = [{"old_doc": row["old_doc"], "new_doc": row["new_doc"],
              "summary": releases.summary(releases.counts(row))}
             for row in releases.counted_pairs(conn)]
    found += rows(conn, "SELECT d.superseded_by AS old_doc, d.id AS new_doc, 'a part of "
                        "the whole release' AS summary FROM documents d WHERE d.superseded_by "
                        "IS NOT NULL AND EXISTS (SELECT 1 FROM alignments a WHERE a.old_doc = "
                        "d.superseded_by AND a.new_doc = d.id) ORDER BY d.id")
    for pair in found:
        pair["url"] = f"/diff/{pair['old_doc']}/{pair['new_doc']}"
    return found


def database_key(conn: sqlite3.Connection) -> tuple[str, int, int, int]:
    """Which database file `conn` reads: its path, and which file is there (an add while the
    site runs puts another file at the same path)."""
    path = conn.execute("PRAGMA database_list").fetchone()[2]
    return path, *(file_stamp(path) or (0, 0, 0))


def _cached(conn: sqlite3.Connection, kind: str, old: str, new: str) -> Row:
    """The diff (or renumbering list) of two documents, kept for the next request."""
    key = (*database_key(conn), old, new, kind)
    if key not in _CACHE:
        _CACHE[key] = (lineage_query.diff(conn, old, new, words=False) if kind == "diff"
                       else renumbered(conn, old, new))
        while len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)
    _CACHE.move_to_end(key)
    return _CACHE[key]


def shown_change(item: Row, old: str, new: str) -> Row:
    """A change of a diff (`lineage_query.diff`) as a row of a page: its numbers linked in
    documents `old` and `new`, its texts side by side."""
    old_text = item.get("old_text", item.get("text") if item["old"] else None)
    new_text = item.get("new_text", item.get("text") if item["new"] else None)
    old_html, new_html = side_by_side(old_text, new_text)
    return {
        "change": item["op"], "similarity": item["similarity"],
        "old_number": item["old"], "new_number": item["new"],
        "old_url": rule_url(old, item["old"]) if item["old"] else None,
        "new_url": rule_url(new, item["new"]) if item["new"] else None,
        "old_html": old_html if item["old"] else "",
        "new_html": new_html if item["new"] else "",
        "citations_only": item.get("citations_only", False),
        "set_by_hand": item.get("set_by_hand", False), "note": item.get("note"),
    }


def diff_page(conn: sqlite3.Connection, old: str, new: str, change: str | None = None,
              page: int = 1) -> Row | None:
    """The changes between two documents, a page at a time; None when one does not exist
    or the page is past the last."""
    old_doc, new_doc = document(conn, old), document(conn, new)
    if old_doc is None or new_doc is None:
        return None
    data = _cached(conn, "diff", old, new)
    if change:
        chosen = [c for c in data["changes"] if c["op"] == change]
    else:
        chosen = [c for c in data["changes"] if c["op"] not in HIDDEN_BY_DEFAULT]
    if page > 1 and (page - 1) * PAGE_SIZE >= len(chosen):
        return None
    shown = [shown_change(item, old, new)
             for item in chosen[(page - 1) * PAGE_SIZE: page * PAGE_SIZE]]
    base = f"/diff/{old}/{new}"
    query = f"?change={change}&" if change else "?"
    return {
        "old": old_doc, "new": new_doc, "counts": data["counts"], "changes": shown,
        "alignment": data["alignment"], "change": change, "total": len(chosen), "page": page,
        "prev_url": f"{base}{query}page={page - 1}" if page > 1 else None,
        "next_url": f"{base}{query}page={page + 1}" if page * PAGE_SIZE < len(chosen) else None,
        "filter_urls": {name: f"{base}?change={name}" for name in data["counts"]},
        "all_url": base, "hidden": [h for h in HIDDEN_BY_DEFAULT if h in data["counts"]],
        "renumbered_url": f"{base}/renumbered",
    }


def renumbered_page(conn: sqlite3.Connection, old: str, new: str) -> Row | None:
    """The rules `new` numbers otherwise than `old`, with their pages; None when a document
    does not exist."""
    old_doc, new_doc = document(conn, old), document(conn, new)
    if old_doc is None or new_doc is None:
        return None
    data = _cached(conn, "renumbered", old, new)
    moved = [{**item, "old_url": rule_url(old, item["old"]), "new_url": rule_url(new, item["new"])}
             for item in data["renumbered"]]
    base = f"/diff/{old}/{new}"
    return {"old": old_doc, "new": new_doc, "renumbered": moved, "alignment": data["alignment"],
            "diff_url": base, "csv_url": f"{base}/renumbered.csv",
            "json_url": f"{base}/renumbered.json", "data": data}


def diff_index(conn: sqlite3.Connection) -> Row:
    """The diff chooser: every document and the stored pairs."""
    return {"documents": documents(conn), "pairs": pairs(conn)}
