"""Lineage commands: diff between two editions, history of a rule across the documents."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from . import answers
from .common import (
    TEXT,
    NotFound,
    check_document,
    db_option,
    echo_json,
    json_option,
    open_db,
    wrap,
)

COMPACT = ("renumbered", "added", "removed", "outside_coverage")


@click.command()
@click.argument("old", type=TEXT)
@click.argument("new", type=TEXT)
@click.option("--section", help="Only changes under this number on either side (702, 702.19).")
@click.option("--renumbered", is_flag=True,
              help="Only the list of renumbered rules (edited or not): old number → new "
                   "number, in number order.")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "html", "csv"]),
              default="text", show_default=True, help="Output format without --json.")
@click.option("--context", type=click.IntRange(0), default=12, show_default=True,
              help="Unchanged words kept on each side of a change; the rest shows as '…'.")
@click.option("--full", is_flag=True, help="Both whole texts of each edit, nothing cut.")
@db_option
@json_option
def diff(old: str, new: str, section: str | None, renumbered: bool, fmt: str, context: int,
         full: bool, db_path: Path, as_json: bool) -> None:
    """What changed between two documents: edits word by word, renumberings, additions.

    Works for any two stored documents; consecutive CR editions use the alignment stored
    at build time, other pairs are aligned on the fly. In a long rule only the changed
    words and a dozen words around them are shown (--context, --full); --json has both
    whole texts; --format csv one line per change. Pairs set by hand (`rulesdb align`) are
    marked "set by hand" with their note. --renumbered lists the rules whose number
    changed, old → new, for updating notes that cite them.

    Example:

        rulesdb diff cr-2009-02-01 cr-2025-06-06 --section 702

        rulesdb diff cr-2023-10-13 cr-2025-02-07 --renumbered --format csv
    """
    from ..lineage import query as lineage_query
    from ..lineage.renumbered import csv_text
    from ..lineage.renumbered import renumbered as renumbered_rules

    conn = open_db(db_path)
    old, new = (check_document(conn, doc_id) or doc_id for doc_id in (old, new))
    if renumbered:
        moved = renumbered_rules(conn, old, new, section)
        if as_json:
            echo_json(moved)
        else:
            click.echo(renumbered_formats[fmt](moved), nl=fmt != "csv")
        return
    result = lineage_query.diff(conn, old, new, section)
    if as_json:
        echo_json(result)
        return
    if fmt == "csv":
        click.echo(csv_text(["op", "old", "new", "similarity", "set_by_hand", "note"], (
            [c["op"], c["old"], c["new"], c["similarity"], _yes(c), c.get("note", "")]
            for c in result["changes"])), nl=False)
        return
    click.echo({"text": _text, "markdown": _markdown, "html": _html}[fmt](
        result, None if full else context))


def _summary(result: dict[str, Any]) -> str:
    counts = ", ".join(f"{n} {op}" for op, n in result["counts"].items()) or "no changes"
    return f"{result['old']} → {result['new']}: {counts}"


def _compact(result: dict[str, Any], op: str) -> list[str]:
    """Numbers of one change type; renumbered subrules that follow their parent are folded."""
    items = [c for c in result["changes"] if c["op"] == op]
    if op != "renumbered":
        return [(c["old"] or c["new"]) + _in_brackets(c) for c in items]
    moved = {c["old"]: c["new"] for c in items}
    out = []
    folded: dict[str, int] = {}
    for change in items:
        parent = change.get("old_parent")
        if (parent in moved and change["new"].startswith(moved[parent])
                and change["old"][len(parent):] == change["new"][len(moved[parent]):]):
            root = parent
            while moved.get(root) and _parent_of(result, root) in moved:
                root = _parent_of(result, root)
            folded[root] = folded.get(root, 0) + 1
            continue
        out.append(change["old"])
    marks = {c["old"]: _in_brackets(c) for c in items}
    return [f"{old} → {moved[old]}" + (f" (+{folded[old]} under it)" if old in folded else "")
            + marks.get(old, "") for old in out]


def _parent_of(result: dict[str, Any], number: str) -> str | None:
    return next((c.get("old_parent") for c in result["changes"]
                 if c["op"] == "renumbered" and c["old"] == number), None)


def _label(change: dict[str, Any]) -> str:
    if change["old"] == change["new"]:
        return change["new"]
    return f"{change['old']} → {change['new']}"


def _by_hand(change: dict[str, Any]) -> str:
    """"set by hand: note" for a change an override made, else ""."""
    if not change.get("set_by_hand"):
        return ""
    return "set by hand" + (f": {change['note']}" if change.get("note") else "")


def _hand(change: dict[str, Any]) -> str:
    """", set by hand: note" for a change an override made, else ""."""
    return f", {_by_hand(change)}" if change.get("set_by_hand") else ""


def _in_brackets(change: dict[str, Any]) -> str:
    """" (set by hand: note)" for a change an override made, else ""."""
    return f" ({_by_hand(change)})" if change.get("set_by_hand") else ""


def _yes(change: dict[str, Any]) -> str:
    return "yes" if change.get("set_by_hand") else ""


def _renumbered_text(moved: dict[str, Any]) -> str:
    lines = [f"{moved['old']} → {moved['new']}: {len(moved['renumbered'])} renumbered"]
    lines += [f"{c['old']} → {c['new']}" + (" (edited)" if c["edited"] else "")
              + _in_brackets(c)
              for c in moved["renumbered"]]
    return "\n".join(lines)


def _renumbered_markdown(moved: dict[str, Any]) -> str:
    lines = [f"# {moved['old']} → {moved['new']}: {len(moved['renumbered'])} renumbered", "",
             "| old | new | edited |", "|---|---|---|"]
    lines += [f"| {c['old']} | {c['new']} | {'yes' if c['edited'] else ''}"
              f"{_in_brackets(c)} |"
              for c in moved["renumbered"]]
    return "\n".join(lines)


def _renumbered_html(moved: dict[str, Any]) -> str:
    from html import escape

    out = [f"<h1>{escape(moved['old'])} → {escape(moved['new'])}: "
           f"{len(moved['renumbered'])} renumbered</h1>",
           "<table>\n<tr><th>old</th><th>new</th><th>edited</th></tr>"]
    out += [f"<tr><td>{escape(c['old'])}</td><td>{escape(c['new'])}</td>"
            f"<td>{'yes' if c['edited'] else ''}{escape(_hand(c))}</td></tr>"
            for c in moved["renumbered"]]
    out.append("</table>")
    return "\n".join(out)


def _renumbered_csv(moved: dict[str, Any]) -> str:
    from ..lineage.renumbered import as_csv  # not at start: the lookups start without it

    return as_csv(moved)


renumbered_formats = {"text": _renumbered_text, "markdown": _renumbered_markdown,
                      "html": _renumbered_html, "csv": _renumbered_csv}


def _text(result: dict[str, Any], context: int | None = 12) -> str:
    from ..lineage.wordiff import render_text

    lines = [_summary(result)]
    for change in result["changes"]:
        if "words" in change:
            old_side, new_side = render_text(change["words"], context)
            lines.append(click.style(f"\n{change['op']} {_label(change)} "
                                     f"(similarity {change['similarity']:.2f}{_hand(change)})",
                                     bold=True))
            lines.append(wrap(f"- {old_side}", "  "))
            lines.append(wrap(f"+ {new_side}", "  "))
    for op in COMPACT:
        numbers = _compact(result, op)
        if numbers:
            lines.append(click.style(f"\n{op} ({len(numbers)}):", bold=True))
            lines.append(wrap(", ".join(numbers), "  "))
    return "\n".join(lines)


def _markdown(result: dict[str, Any], context: int | None = 12) -> str:
    from ..lineage.wordiff import render_markdown

    lines = [f"# {_summary(result)}", ""]
    lines.append("| change | count |\n|---|---|")
    lines.extend(f"| {op} | {n} |" for op, n in result["counts"].items())
    for change in result["changes"]:
        if "words" in change:
            old_side, new_side = render_markdown(change["words"], context)
            lines += ["", f"## {change['op']} {_label(change)} "
                      f"(similarity {change['similarity']:.2f}{_hand(change)})", "",
                      f"- old: {old_side}", f"- new: {new_side}"]
    for op in COMPACT:
        numbers = _compact(result, op)
        if numbers:
            lines += ["", f"## {op} ({len(numbers)})", "", ", ".join(numbers)]
    return "\n".join(lines)


def _html(result: dict[str, Any], context: int | None = 12) -> str:
    from html import escape

    from ..lineage.wordiff import render_html

    out = [f"<h1>{escape(_summary(result))}</h1>", "<table class=\"counts\">"]
    out.extend(f"<tr><td>{escape(op)}</td><td>{n}</td></tr>"
               for op, n in result["counts"].items())
    out.append("</table>\n<table class=\"diff\">\n<tr><th>change</th><th>old</th><th>new</th></tr>")
    for change in result["changes"]:
        if "words" in change:
            old_side, new_side = render_html(change["words"], context)
            out.append(f"<tr><td>{escape(change['op'])} {escape(_label(change))}"
                       f"{escape(_hand(change))}</td>"
                       f"<td>{old_side}</td><td>{new_side}</td></tr>")
    out.append("</table>")
    for op in COMPACT:
        numbers = _compact(result, op)
        if numbers:
            out.append(f"<h2>{escape(op)} ({len(numbers)})</h2>")
            out.append(f"<p>{escape(', '.join(numbers))}</p>")
    return "\n".join(out)


@click.command()
@click.argument("number", type=TEXT)
@click.option("--doc", "doc_id", type=TEXT,
              help="Document the number is read in (cr, mtr, ipg: the newest "
                   "edition of that kind) [default: the newest that has it].")
@db_option
@click.option("--all", "every", is_flag=True,
              help="Every version whole, each edition on its own lines (streamed), not runs "
                   "of unchanged editions folded nor a large subtree summed up.")
@click.option("--step", "step", metavar="RELEASE",
              help="Only what changed inside the rule (its subrules included) from the "
                   "release before RELEASE to RELEASE, word by word.")
@json_option
def history(number: str, doc_id: str | None, db_path: Path, every: bool, step: str | None,
            as_json: bool) -> None:
    """Every version of a rule across the documents, oldest first, with what changed.

    Each version that changed is shown once, with the words that changed in context and
    the run of editions that repeat it ("unchanged in 14 more editions, …"; editions that
    differ only in typography or in the numbers of the rules they cite join the run); a
    renumbering shows as "502.9 → 702.17"; each related glossary entry or ruling is shown
    once per run of editions that repeat it.

    A chapter or section holding more than 20 rules is summed up instead: per release,
    what changed inside it (counts of rules edited, renumbered, added, removed, and their
    numbers); --step RELEASE gives the words of one release's changes. --all shows every
    version whole, as it is read; --json has every version (streamed as well).

    NUMBER is a rule number, or a keyword or heading ("Banding"): then the path of the
    concept through rulebooks, rulings and CR editions is shown.

    Example:

        rulesdb history 702.19
        rulesdb history 7
        rulesdb history 7 --step cr-2026-01-16
        rulesdb history Banding --json
    """
    from ..lineage import subtree

    conn = open_db(db_path)
    if not step:
        answers.history(conn, number, doc_id, every, as_json)
        return
    doc_id = check_document(conn, doc_id)
    step = check_document(conn, step)
    rule = answers.history_rule(conn, number, doc_id)
    found = subtree.step_diff(conn, rule["id"], step)
    if found is None:
        raise NotFound(f"nothing changed inside {rule['number']} in {step}, or it is "
                       "not in that release; `rulesdb history` lists the releases "
                       "that changed it")
    if as_json:
        echo_json({k: v for k, v in found.items() if k != "step"})
    else:
        click.echo(_text(found))


COMMANDS = [diff, history]
