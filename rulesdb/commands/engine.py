"""Enforcement commands: trace (rule citations of an engine's source tree) and coverage."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import click

from ..errors import InputError
from .common import NotFound, db_option, echo_json, json_option, open_db, wrap


class Failing(click.ClickException):
    """`--fail-on` found citations of a failing status; exits with code 1."""

    exit_code = 1


@click.command()
@click.argument("path", type=click.Path(exists=True, path_type=Path))
@click.option("--engine", "engine_name", help="Name to store the results under "
              "[default: the folder's name].")
@click.option("--keep-path", is_flag=True,
              help="Store the tree's absolute path, so that `rulesdb build` traces it again "
                   "[default: only the folder's name, as the site shows it].")
@click.option("--edition", help="CR edition to check against [default: the newest full CR, "
              "else cr-2025-06-06].")
@click.option("--fail-on", "fail_on", metavar="STATUS[,STATUS…]",
              help="Exit 1 when a citation has one of these statuses (ok, missing, "
                   "renumbered, malformed, suspect, outside_coverage); the last line says why.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "sarif"]), default="text",
              show_default=True, help="sarif: a SARIF 2.1.0 log of the stale citations, for "
              "code-review tools.")
@click.option("--fix", is_flag=True, help="Print a unified diff rewriting each renumbered "
              "citation to its current number (a range whose members all moved to one range "
              "too), and list on stderr the stale citations it leaves, with why; with --json, "
              "both as JSON.")
@click.option("--write", is_flag=True, help="With --fix: apply the rewrite to the files.")
@click.option("--since", metavar="EDITION", help="List the citations whose rule changed "
              "between EDITION and the one checked, with the words that changed.")
@db_option
@json_option
def trace(path: Path, engine_name: str | None, keep_path: bool, edition: str | None,
          fail_on: str | None, fmt: str, fix: bool, write: bool, since: str | None,
          db_path: Path, as_json: bool) -> None:
    """Find the rule citations in a source tree, check each against an edition, store them.

    Each citation is linked to the function, method or class it sits in and gets a status:
    ok, missing, renumbered (with the current number when known), malformed, suspect (the
    code around it names another keyword) or outside_coverage. A re-scan of the same engine
    replaces its rows. The tree is stored by its folder's name; with --keep-path by its
    absolute path, and `rulesdb build` then traces it again. For CI: --fail-on, --format
    sarif; after a renumbering: --fix (--write); after a new release: --since.

    Example:

        rulesdb trace ~/src/forge --engine forge --keep-path --json

        rulesdb trace src --fail-on renumbered,missing --format sarif > trace.sarif

        rulesdb trace src --fix --write

        rulesdb trace src --since cr-2025-11-14
    """
    from ..db.writelock import writing
    from ..trace.report import parse_statuses
    from ..trace.run import trace_tree

    if write and not fix:
        raise click.UsageError("--write applies --fix: give both")
    try:
        failing_statuses = parse_statuses(fail_on) if fail_on else set()
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--fail-on") from None
    fmt = "json" if as_json and fmt == "text" else fmt
    open_db(db_path).close()
    with writing(db_path):  # an add meanwhile would put back the database without these rows
        _ensure_tables(db_path)
        conn = sqlite3.connect(db_path)
        traced = trace_tree(conn, path, engine_name, edition, keep_path)
    if not traced.items:
        raise NotFound(f"no rule citations under {path}")
    if fix:
        _fix(path, traced, write, _effective_date(db_path, traced.edition), fmt)
    elif since:
        _since(db_path, traced, since, fmt)
    else:
        _show(path, traced, fmt)
    if failing_statuses:
        from ..trace.report import failing

        why = failing(traced.items, failing_statuses)
        if why:
            raise Failing(f"{why}: failing as --fail-on {fail_on} asks")
        click.echo(f"no citation is {' or '.join(sorted(failing_statuses))}", err=True)


def _show(path: Path, traced: Any, fmt: str) -> None:
    """The citations as text, JSON or SARIF."""
    items, result, chosen = traced.items, traced.result, traced.edition
    if fmt == "sarif":
        from importlib.metadata import version

        from ..trace.report import sarif

        echo_json(sarif(items, path, chosen, version("rulesdb")))
        return
    rows = [{"file": c.file, "line": c.line, "column": c.column, "function": c.function,
             "cited": c.cited, "number": c.number, "rule": v.rule, "status": v.status,
             "suggestion": v.suggestion} for c, v in items]
    if fmt == "json":
        echo_json(rows)
        return
    for row in rows:
        hint = f"  → {row['suggestion']}" if row["suggestion"] else ""
        click.echo(f"{row['file']}:{row['line']}:{row['column']}  {row['function'] or '-'}  "
                   f"{row['number']}  {row['status']}{hint}")
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["status"]] = counts.get(row["status"], 0) + 1
    skipped = ", ".join(f"{n} {why}" for why, n in sorted(result.skipped.items()))
    click.echo(f"{len(rows)} citations in {result.files} files against {chosen}: "
               + ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
               + (f"; skipped {skipped}" if skipped else "")
               + f"; {result.bytes / 1e6 / max(traced.seconds, 1e-9):.1f} MB/s", err=True)


def _effective_date(db_path: Path, edition: str) -> str:
    """The ISO date an edition is effective from."""
    row = open_db(db_path).execute("SELECT effective_date FROM documents WHERE id = ?",
                                   [edition]).fetchone()
    return row[0] if row and row[0] else edition.removeprefix("cr-")[:10]


def _fix(path: Path, traced: Any, write: bool, effective: str, fmt: str) -> None:
    """Print (or, with `write`, apply) the rewrite of the renumbered citations; list the
    stale citations it does not touch, with the reason."""
    from ..trace.fix import plan, unified_diff
    from ..trace.fix import write as write_files

    fixing = plan(traced.items, effective)
    by_file = fixing.edits
    fixed = sum(len(found) for found in by_file.values())
    try:
        if write:
            files = write_files(path, by_file)
            click.echo(f"rewrote {fixed} renumbered citations in {files} files", err=True)
        diff = "" if write else unified_diff(path, by_file)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise InputError(f"{path}: {exc}") from None
    left = [{"file": u.citation.file, "line": u.citation.line, "column": u.citation.column,
             "cited": u.citation.cited, "status": u.status, "suggestion": u.suggestion,
             "reason": u.reason} for u in fixing.untouched]
    if fmt == "json":
        echo_json({"written": write, "rewritten": [
            {"file": file, "line": edit.line, "old": edit.old, "new": edit.new}
            for file, found in sorted(by_file.items()) for edit in found],
            "diff": diff, "not_touched": left})
        return
    click.echo(diff, nl=False)
    for row in left:
        hint = f" → {row['suggestion']}" if row["suggestion"] else ""
        click.echo(f"not touched: {row['file']}:{row['line']}:{row['column']} {row['cited']} "
                   f"{row['status']}{hint}: {row['reason']}", err=True)


def _since(db_path: Path, traced: Any, since: str, fmt: str) -> None:
    """The citations whose rule changed since `since`, as text or JSON."""
    from ..trace.since import changed_since

    rows = changed_since(open_db(db_path), traced.items, since, traced.edition)
    if fmt in ("json", "sarif"):
        echo_json(rows)
        return
    for row in rows:
        moved = (f"{row['old_number']} → {row['new_number']}"
                 if row["new_number"] and row["old_number"] != row["new_number"]
                 else row["old_number"])
        click.echo(click.style(f"{row['file']}:{row['line']}  {row['function'] or '-'}  "
                               f"{moved}  {row['change']}", bold=True))
        if row["words"]:
            click.echo(wrap(row["words"], "  "))
    click.echo(f"{len(rows)} citations cite a rule changed between {since} and "
               f"{traced.edition}", err=True)


def _ensure_tables(db_path: Path) -> None:
    import sqlite_utils

    from ..db.schema import ensure_schema

    db = sqlite_utils.Database(db_path)
    ensure_schema(db, ["engines", "engine_citations"])
    db.close()


@click.command()
@click.option("--engine", "engine_name", help="Engine to report [default: every engine].")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]),
              default="text", show_default=True,
              help="markdown: a pull-request comment (a table per engine, stale citations).")
@db_option
@json_option
def coverage(engine_name: str | None, fmt: str, db_path: Path, as_json: bool) -> None:
    """Requirements-traceability report: per-section coverage, uncovered rules, stale citations.

    Coverage of a section is the share of its rules with at least one citing function
    (status ok or suspect); stale citations are missing, renumbered, malformed or suspect.

    Example:

        rulesdb coverage --engine rulesdb

        rulesdb coverage --format markdown > coverage.md
    """
    from ..trace.coverage import engines, report

    conn = open_db(db_path)
    known = engines(conn) if conn.execute(
        "SELECT 1 FROM sqlite_master WHERE name = 'engines'").fetchone() else []
    chosen = [e for e in known if engine_name in (None, e["name"])]
    if not chosen:
        raise NotFound(f"no engine {engine_name}" if engine_name else "no engines stored; "
                       "run `rulesdb build` or `rulesdb trace PATH`")
    reports = [report(conn, e) for e in chosen]
    if as_json or fmt == "json":
        echo_json(reports)
        return
    if fmt == "markdown":
        click.echo("\n".join(_markdown(data) for data in reports), nl=False)
        return
    for data in reports:
        click.echo(click.style(f"{data['engine']} against {data['edition']}", bold=True))
        for s in data["sections"]:
            click.echo(f"  {s['section']:6} {s['covered']:4}/{s['rules']:<4} "
                       f"{100 * s['share']:5.1f}%  {s['title'] or ''}")
        total = data["total"]
        click.echo(f"  cited sections: {total['covered']}/{total['rules']} rules "
                   f"({100 * total['share']:.1f}%); whole edition "
                   f"{100 * data['all']['share']:.1f}%")
        if data["uncovered"]:
            shown = data["uncovered"][:UNCOVERED_SHOWN]
            more = len(data["uncovered"]) - len(shown)
            click.echo(f"  uncovered in those sections ({len(data['uncovered'])}): "
                       + ", ".join(shown) + (f" … and {more} more (--json lists all)"
                                             if more else ""))
        click.echo(f"  stale citations: {len(data['stale'])}")
        for row in data["stale"]:
            hint = f" → {row['suggestion']}" if row["suggestion"] else ""
            click.echo(f"    {row['file']}:{row['line']} {row['function'] or '-'} "
                       f"{row['number']} {row['status']}{hint}")


UNCOVERED_SHOWN = 60


def _markdown(data: dict[str, Any]) -> str:
    """One engine's coverage as a pull-request comment."""
    total = data["total"]
    lines = [f"### Rules coverage of `{data['engine']}` against {data['edition']}", "",
             f"Cited sections: **{total['covered']}/{total['rules']}** rules "
             f"({100 * total['share']:.1f}%); whole edition {100 * data['all']['share']:.1f}%.",
             "", "| section | covered | rules | share | title |", "|---|---:|---:|---:|---|"]
    lines += [f"| {s['section']} | {s['covered']} | {s['rules']} | {100 * s['share']:.1f}% | "
              f"{(s['title'] or '').replace('|', '/')} |" for s in data["sections"]]
    stale = data["stale"]
    lines += ["", f"**Stale citations: {len(stale)}**" + ("" if stale else " ✓"), ""]
    if stale:
        lines += ["| file | line | function | cites | status | now |", "|---|---:|---|---|---|---|"]
        lines += [f"| `{r['file']}` | {r['line']} | `{r['function'] or '-'}` | {r['number']} | "
                  f"{r['status']} | {r['suggestion'] or ''} |" for r in stale]
    if data["uncovered"]:
        shown = data["uncovered"][:UNCOVERED_SHOWN]
        more = len(data["uncovered"]) - len(shown)
        lines += ["", f"<details><summary>{len(data['uncovered'])} uncovered rules in the cited "
                      "sections</summary>", "", ", ".join(shown)
                  + (f" … and {more} more" if more else ""), "", "</details>"]
    return "\n".join(lines) + "\n"

COMMANDS = [trace, coverage]
