"""Enforcement commands: trace (rule citations of an engine's source tree) and coverage."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import click

from .common import NotFound, db_option, echo_json, json_option, open_db


@click.command()
@click.argument("path", type=click.Path(exists=True, path_type=Path))
@click.option("--engine", "engine_name", help="Name to store the results under "
              "[default: the folder's name].")
@click.option("--edition", help="CR edition to check against [default: the newest full CR, "
              "else cr-2025-06-06].")
@db_option
@json_option
def trace(path: Path, engine_name: str | None, edition: str | None, db_path: Path,
          as_json: bool) -> None:
    """Find the rule citations in a source tree, check each against an edition, store them.

    Each citation is linked to the function, method or class it sits in and gets a status:
    ok, missing, renumbered (with the current number when known), malformed, suspect (the
    code around it names another keyword) or outside_coverage. A re-scan of the same engine
    replaces its rows.

    Example:

        rulesdb trace ~/src/forge --engine forge --json
    """
    from ..db.writelock import writing
    from ..trace.run import trace_tree

    open_db(db_path).close()
    with writing(db_path):  # an add meanwhile would put back the database without these rows
        _ensure_tables(db_path)
        conn = sqlite3.connect(db_path)
        traced = trace_tree(conn, path, engine_name, edition)
    items, result, chosen, seconds = traced.items, traced.result, traced.edition, traced.seconds
    rows = [{"file": c.file, "line": c.line, "function": c.function, "cited": c.cited,
             "number": c.number, "rule": v.rule, "status": v.status, "suggestion": v.suggestion}
            for c, v in items]
    if as_json:
        echo_json(rows)
    else:
        for row in rows:
            hint = f"  → {row['suggestion']}" if row["suggestion"] else ""
            click.echo(f"{row['file']}:{row['line']}  {row['function'] or '-'}  "
                       f"{row['number']}  {row['status']}{hint}")
        counts: dict[str, int] = {}
        for row in rows:
            counts[row["status"]] = counts.get(row["status"], 0) + 1
        skipped = ", ".join(f"{n} {why}" for why, n in sorted(result.skipped.items()))
        click.echo(f"{len(rows)} citations in {result.files} files against {chosen}: "
                   + ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
                   + (f"; skipped {skipped}" if skipped else "")
                   + f"; {result.bytes / 1e6 / max(seconds, 1e-9):.1f} MB/s", err=True)
    if not rows:
        raise NotFound(f"no rule citations under {path}")


def _ensure_tables(db_path: Path) -> None:
    import sqlite_utils

    from ..db.schema import ensure_schema

    db = sqlite_utils.Database(db_path)
    ensure_schema(db, ["engines", "engine_citations"])
    db.close()


@click.command()
@click.option("--engine", "engine_name", help="Engine to report [default: every engine].")
@db_option
@json_option
def coverage(engine_name: str | None, db_path: Path, as_json: bool) -> None:
    """Requirements-traceability report: per-section coverage, uncovered rules, stale citations.

    Coverage of a section is the share of its rules with at least one citing function
    (status ok or suspect); stale citations are missing, renumbered, malformed or suspect.

    Example:

        rulesdb coverage --engine rulesdb
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
    if as_json:
        echo_json(reports)
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

COMMANDS = [trace, coverage]
