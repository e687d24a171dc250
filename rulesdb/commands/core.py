"""Core commands: build, docs, rule, export."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from ..lookup import query
from . import answers
from .common import (
    TEXT,
    NotFound,
    ProgressBar,
    db_option,
    default_sources,
    echo_json,
    format_option,
    json_option,
    leave_quickly,
    open_db,
    overrides_file,
    overrides_option,
    sources_option,
    user_releases,
)
from .render import output_format


@click.command()
@db_option
@sources_option
@click.option("--seeds-only", is_flag=True,
              help="Only the bundled documents (five seeds and the judges' three), not the "
                   "history of 115 CR releases (seconds instead of half a minute: for quick "
                   "work).")
@overrides_option
@json_option
def build(db_path: Path, sources: Path | None, seeds_only: bool, overrides_path: Path | None,
          as_json: bool) -> None:
    """Build the database from the catalogued sources, atomically: the bundled documents (the
    seeds, and the judges' Magic Tournament Rules and Infraction Procedure Guide) and every
    Comprehensive Rules release of the history (the text archive, and the releases that
    survive only as .docx or .doc), all shipped with rulesdb.

    The first command run builds the default database by itself; run `build` to build it
    again, or another one. A failed or interrupted build leaves the previous database
    untouched. On a terminal a progress bar shows the steps; `--json` or a pipe keeps it
    quiet. The editions added to the previous database are kept (and, for the default
    database, the releases added to it, kept in the user data folder). The alignments set
    by hand that rulesdb ships are applied, and yours (`rulesdb align`) on top; without
    either file, those of the previous database are kept.

    Example:

        rulesdb build --db /tmp/rules.db

        rulesdb build --seeds-only --db /tmp/small.db
    """
    from ..sources.build import build as run_build

    leave_quickly()
    bar = ProgressBar() if not as_json and sys.stderr.isatty() else None

    def show(doc: Any) -> None:
        if bar is None and not as_json:
            c = doc.counts
            click.echo(f"{doc.id:18} {c.rules:5} rules {c.examples:4} examples "
                       f"{c.glossary:4} glossary {c.citations:5} citations "
                       f"{c.residue:3} residue  {doc.seconds * 1000:6.0f} ms"
                       + (f"  (kept: added from {doc.added_from})" if doc.added_from else ""))
            for warning in doc.warnings:
                click.echo(f"  warning: {warning}")

    try:
        report = run_build(db_path, sources or default_sources(), on_document=show,
                           seeds_only=seeds_only, on_step=bar.step if bar else None,
                           overrides=overrides_file(overrides_path),
                           releases=user_releases(db_path))
        assert report is not None  # nothing asked whether to build
    finally:
        if bar:
            bar.close()
    if as_json:
        echo_json({
            "db": str(db_path), "seconds": round(report.seconds, 3),
            "documents": [{"id": d.id, **vars(d.counts), "seconds": round(d.seconds, 3),
                           "warnings": list(d.warnings)} for d in report.documents],
            "layers": report.layers,
            "layer_seconds": {k: round(v, 3) for k, v in report.layer_seconds.items()},
            "notes": report.notes,
        })
        return
    if bar is None:
        for name, summary in report.layers.items():
            click.echo(f"{name}: {summary}  ({report.layer_seconds[name] * 1000:.0f} ms)")
    for note in report.notes:
        click.echo(note)
    warned = sum(bool(doc.warnings) for doc in report.documents)
    click.echo(f"built {db_path}: {len(report.documents)} documents in {report.seconds:.1f} s"
               + (f" ({warned} with warnings: see `--json`)"
                  if bar and warned else ""))


@click.command()
@db_option
@json_option
def docs(db_path: Path, as_json: bool) -> None:
    """List the documents in the database with their counts.

    Example:

        rulesdb docs --json
    """
    rows = query.documents(open_db(db_path))
    if as_json:
        echo_json(rows)
        return
    width = max((len(row["id"]) for row in rows), default=0)
    kinds = max((len(row["kind"]) for row in rows), default=0)
    for row in rows:
        covers = ""
        if row["partial"] and "cut off" not in row["title"]:
            covers = f" covers {', '.join(row['covers'])}"
        if row.get("superseded_by"):
            covers += f"; the whole release is {row['superseded_by']}"
        click.echo(f"{row['id']:{width}} {row['kind']:{kinds}} {row['rule_count']:5} rules "
                   f"{row['glossary_count']:4} glossary  {row['title']}{covers}")


@click.command()
@click.argument("number", type=TEXT)
@click.option("--doc", "doc_id", type=TEXT,
              help="Document id, or cr, mtr, ipg for the newest edition of "
                   "that kind [default: the newest that has the rule].")
@click.option("--tree", is_flag=True, help="The whole subtree, not only the direct subrules.")
@click.option("--examples/--no-examples", default=True, show_default=True,
              help="Show the examples.")
@db_option
@format_option
@json_option
def rule(number: str, doc_id: str | None, tree: bool, examples: bool, db_path: Path,
         fmt: str, as_json: bool) -> None:
    """Show a rule with its subrules and examples, glossary terms marked, references listed.

    Terms are underlined (text) or _emphasized_ (Markdown) and defined after the rule, with
    what each reference points to. The judges' documents are read the same way: a section
    of the Magic Tournament Rules (`4.2 --doc mtr`) or an infraction of the Infraction
    Procedure Guide with its penalty (`2.1 --doc ipg`).

    Example:

        rulesdb rule 702.19 --doc cr-2025-06-06
        rulesdb rule 702 --tree --no-examples --format markdown
        rulesdb rule 4.2 --doc mtr
    """
    answers.rule(open_db(db_path), number, doc_id, tree, examples, output_format(fmt, as_json))


@click.command()
@click.argument("doc_id", type=TEXT, metavar="ID")
@db_option
@json_option
def export(doc_id: str, db_path: Path, as_json: bool) -> None:
    """Export a whole document: JSON with --json, else its rules as plain text.

    Example:

        rulesdb export cr-2025-06-06 --json > cr-2025-06-06.json
    """
    data = query.export_document(open_db(db_path), doc_id)
    if data is None:
        raise NotFound(f"no document {doc_id}; see `rulesdb docs`")
    if as_json:
        echo_json(data)
        return
    for item in data["rules"]:
        click.echo(f"{item['number']} {item['text']}")
        for example in item["examples"]:
            click.echo(f"  Example: {example}")
    for entry in data["glossary"]:
        click.echo(f"{entry['term']}\n  {entry['definition']}")



COMMANDS = [build, docs, rule, export]
