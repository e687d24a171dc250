"""`rulesdb history` in a terminal: the folded history (`rulesdb.lineage.fold`), each later
version as the words that changed from the version shown before it, in context."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import click

from ..lineage.changes import LineChange, alike, steps
from ..lineage.fold import fold_history, run_note
from ..lineage.wordiff import CONTEXT, render_inline
from .common import wrap

Row = dict[str, Any]
LINES_PER_CHANGE = 3  # wrapped lines of one changed line, then "…"
LINES_PER_VERSION = 8  # lines under one version, then how many more there are
REWRITTEN = 0.5  # a text keeping fewer of its words is shown whole, not word by word


def history_lines(entries: list[Row], every: bool = False) -> Iterator[str]:
    """The lines to print: every edition whole with `every`, else the folded history."""
    if every:
        for entry in entries:
            yield _head(entry, entry["number"], entry["change"])
            yield from _whole(entry["text"])
        return
    items = fold_history(entries)
    if len(items) < len(entries):
        yield click.style(f"{len(entries)} versions and related texts in "
                          f"{len({e['doc'] for e in entries})} documents, {len(items)} shown "
                          "(runs of editions that repeat one folded; --all: every edition)",
                          dim=True)
    for step in steps(items):
        item, before, comparison = step.item, step.before, step.comparison
        yield _head(item, step.number, step.label) + run_note(item)
        if before is None or comparison is None:
            yield from _whole(item["text"])
            continue
        body: list[str] = []
        if comparison.own and alike(comparison.own) < REWRITTEN:
            body += _capped(wrap("rewritten: " + item["text"].split("\n")[0], "  "))
        elif comparison.own:
            body += _capped(wrap(render_inline(list(comparison.own), CONTEXT), "  "))
        heading = (before["number"], item["number"])
        for line in comparison.lines:
            body += _capped(wrap(_line_change(line, heading), "  "))
        if len(body) > LINES_PER_VERSION:
            more = len(body) - LINES_PER_VERSION + 1
            body = [*body[:LINES_PER_VERSION - 1], f"  … {more} more line(s) of changes "
                    "(--all: every version whole)"]
        yield from body


def _head(entry: Row, number: str, change: str) -> str:
    extra = f" (score {entry['score']:.2f}, {entry['method']})" if "score" in entry else ""
    if entry.get("set_by_hand"):
        extra += " (set by hand" + (f": {entry['note']})" if entry.get("note") else ")")
    return click.style(f"{entry['doc']}  {number}  [{change}]{extra}", bold=True)


def _whole(text: str) -> Iterator[str]:
    first, *rest = text.split("\n")
    yield wrap(first, "  ")
    if rest:
        yield f"  … {len(rest)} more line(s)"


def _line_change(line: LineChange, heading: tuple[str, str]) -> str:
    """"702.19c: … {+words+} …", "702.19e added: …", "502.9d removed: …"."""
    ops = list(line.ops)
    if line.kind == "edited":
        old_suffix = (line.old_number or "").removeprefix(heading[0])
        new_suffix = (line.new_number or "").removeprefix(heading[1])
        was = f" (was {line.old_number})" if old_suffix != new_suffix else ""
        return f"{line.new_number or 'line'}{was}: {render_inline(ops, CONTEXT)}"
    text = "".join(op["new"] or op["old"] for op in ops).split()
    words = " ".join(text[:2 * CONTEXT]) + (" …" if len(text) > 2 * CONTEXT else "")
    number = line.new_number if line.kind == "added" else line.old_number
    return f"{number + ' ' if number else ''}{line.kind}: {words}"


def _capped(text: str) -> list[str]:
    lines = text.split("\n")
    if len(lines) <= LINES_PER_CHANGE:
        return lines
    return [*lines[:LINES_PER_CHANGE - 1], lines[LINES_PER_CHANGE - 1].rstrip() + " …"]
