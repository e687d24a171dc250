"""`rulesdb history` in a terminal: the folded history (`rulesdb.lineage.fold`), each later
version as the words that changed from the version shown before it, in context."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..lineage import subtree
from ..lineage.changes import LineChange, alike, steps
from ..lineage.fold import fold_history, run_note
from ..lineage.wordiff import CONTEXT, render_inline
from ..lineage.words import change_words, method_words
from ..lookup.query import in_editions
from .plain import line_width, style, wrap

TYPE_CHECKING = False  # typing.TYPE_CHECKING: a lookup does not import typing
if TYPE_CHECKING:
    from typing import Any

Row = dict[str, "Any"]
LINES_PER_CHANGE = 3  # wrapped lines of one changed line, then "…"
LINES_PER_VERSION = 8  # lines under one version, then how many more there are
REWRITTEN = 0.5  # a text keeping fewer of its words is shown whole, not word by word


def history_lines(entries: Iterable[Row], every: bool = False) -> Iterator[str]:
    """The lines to print: every edition whole with `every` (each line of a heading's
    subtree, as printed: wrapping 17 MB of a chapter's versions took seconds), else the
    folded history."""
    if every:
        for step in steps(entries):
            yield _head(step.item, step.number, step.label)
            yield from ("  " + line for line in step.item["text"].split("\n"))
        return
    entries = list(entries)
    items = fold_history(entries)
    if len(items) < len(entries):
        yield style(f"{len(entries)} versions and related texts in "
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


def summary_lines(rule: Row, summed: list[Row]) -> Iterator[str]:
    """A large subtree's history summed up (`rulesdb.lineage.subtree.summary`): a line per
    release in which something inside it changed, with the counts, and a line naming the
    first rules of each kind of change."""
    releases = sum(1 + len(step["run"]) for step in summed)
    yield style(f"{rule['number']} holds more than {subtree.SUMMARY_AFTER} rules: what "
                f"changed inside it, release by release ({releases} releases; "
                "--step RELEASE: the words of one, --all: every version whole)", dim=True)
    for step in summed:
        number = subtree.named({"old": step["old_number"], "new": step["number"]})
        run = f"; nothing changed inside {in_editions(step['run'])}" if step["run"] else ""
        if step["old_doc"] is None:
            yield style(f"{step['new_doc']}  {number}  [first]", bold=True) \
                + f"  {step['size']} rules{run}"
            continue
        yield style(f"{step['new_doc']}  {number}", bold=True) \
            + f"  {subtree.described(step['counts'])}{run}"
        yield _fitted(_named(step["changes"]), "  ")


def _named(changes: list[Row]) -> list[str]:
    """"edited: 500.1 500.4", "renumbered: 502.3c → 502.3b", … in the diff's order."""
    parts = []
    for op in subtree.NAMED:
        numbers = [subtree.named(change) for change in changes if change["op"] == op]
        if numbers:
            parts.append(f"{change_words(op)}: {' '.join(numbers)}")
    return parts


def _fitted(parts: list[str], indent: str) -> str:
    """`parts` joined with "; " on one line of the terminal's width, cut with "…"."""
    width = line_width() - len(indent)
    line = "; ".join(parts)
    if len(line) <= width:
        return indent + line
    return indent + line[:width - 2].rsplit(" ", 1)[0] + " …"


def _head(entry: Row, number: str, change: str) -> str:
    extra = (f" (score {entry['score']:.2f}, {method_words(entry['method'])})"
             if "score" in entry else "")
    if entry.get("set_by_hand"):
        extra += " (set by hand" + (f": {entry['note']})" if entry.get("note") else ")")
    return style(f"{entry['doc']}  {number}  [{change}]{extra}", bold=True)


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
