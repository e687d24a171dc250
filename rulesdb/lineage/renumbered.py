"""The rules a release renumbered: old number → new number, edited or not, in number order,
for a judge updating notes that cite them; as rows, and as CSV."""

from __future__ import annotations

import csv
import io
import sqlite3
from collections.abc import Iterable
from typing import Any

from ..numbers import natural_key
from .query import Row, alignment, hand_mark, in_section

RENUMBERED = ("renumbered", "renumbered_edited")


def renumbered(conn: sqlite3.Connection, old_doc: str, new_doc: str,
               section: str | None = None) -> Row:
    """Every rule that `new_doc` numbers otherwise than `old_doc` (edited or not), in the old
    numbers' order: {"old", "new", "alignment", "renumbered": [{"old", "new", "edited"}]}."""
    changes, source = alignment(conn, old_doc, new_doc)
    moved = [c for c in changes if c.op in RENUMBERED and c.old and c.new
             and (not section or in_section(c.old, section) or in_section(c.new, section))]
    moved.sort(key=lambda c: natural_key(c.old or ""))
    return {"old": old_doc, "new": new_doc, "alignment": source, "renumbered": [
        {"old": c.old, "new": c.new, "edited": c.op == "renumbered_edited", **hand_mark(c)}
        for c in moved]}


def as_csv(moved: Row) -> str:
    """The list as CSV: old, new, edited, set_by_hand, note (a header line first)."""
    return csv_text(["old", "new", "edited", "set_by_hand", "note"], (
        [c["old"], c["new"], "yes" if c["edited"] else "", "yes" if c.get("set_by_hand") else "",
         c.get("note", "")] for c in moved["renumbered"]))


def csv_text(header: list[str], rows: Iterable[list[Any]]) -> str:
    """CSV with a header line, lines ending in LF."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()
