"""The `align` command: alignments of two editions set by hand, and the list of them."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

import click

from .common import (
    TEXT,
    NotFound,
    db_option,
    echo_json,
    json_option,
    open_db,
    overrides_file,
    overrides_option,
    ready,
)


@click.command()
@click.argument("rules", type=TEXT, nargs=-1, metavar="[OLD_DOC OLD_NUMBER NEW_DOC NEW_NUMBER]")
@click.option("--unlink", is_flag=True, help="Record that the two rules are NOT the same rule.")
@click.option("--remove", is_flag=True,
              help="Take out the override of the two rules: automatic alignment again.")
@click.option("--note", default="", help="Why: what you checked (kept with the override).")
@click.option("--list", "listing", is_flag=True, help="List the overrides of the database.")
@overrides_option
@db_option
@json_option
def align(rules: tuple[str, ...], unlink: bool, remove: bool, note: str, listing: bool,
          overrides_path: Path | None, db_path: Path, as_json: bool) -> None:
    """Set by hand that a rule of an older edition and one of a newer edition are the same
    rule (or, with --unlink, are not), when the automatic alignment gets them wrong.

    The override is written to your overrides file (alignment-overrides.txt in the user data
    folder unless --overrides names another; `build` and `add` apply it on top of the
    alignments rulesdb ships, which stay read-only) and applied to the database at once: the
    alignment of the two editions is redone and the lineages recomputed, atomically, under
    the database's write lock. `diff`, `history` and the site mark the pair "set by hand"
    with its note. The two editions need not be consecutive: an override then holds for
    their diff, and a link joins the two rules' histories when one ends before the other
    begins. A rule number its edition lacks is an input error (exit code 2).

    Example:

        rulesdb align cr-2016-08-26 508.3 cr-2016-09-30 508.2 --note "priority"

        rulesdb align --unlink cr-2005-02-01 100.1 cr-2005-08-01 600.3

        rulesdb align --list
    """
    if listing:
        if rules or unlink or remove or note:
            raise click.UsageError("--list takes no rules, --unlink, --remove or --note")
        _list(db_path, as_json)
        return
    if len(rules) != 4:
        raise click.UsageError("give OLD_DOC OLD_NUMBER NEW_DOC NEW_NUMBER (or --list)")
    if unlink and remove:
        raise click.UsageError("give --unlink or --remove, not both")
    if "\n" in note or "\r" in note:
        raise click.UsageError("--note is one line")
    from ..lineage.overrides import Override
    from ..sources.align import set_override

    old_doc, old_number, new_doc, new_number = rules
    override = Override(old_doc, old_number.rstrip("."), new_doc, new_number.rstrip("."),
                        not unlink, note.strip())
    path = overrides_file(overrides_path)
    ready(db_path)
    report = set_override(db_path, override, path, remove=remove)
    if as_json:
        echo_json({"override": asdict(override), "removed": report.removed,
                   "replaced": [asdict(o) for o in report.replaced],
                   "before": report.before, "after": report.after, "status": report.status,
                   "file": str(path), "db": str(db_path), "seconds": round(report.seconds, 3)})
        return
    if remove:
        click.echo(f"override of {override.old_doc} {override.old_number} and "
                   f"{override.new_doc} {override.new_number}: removed")
    else:
        click.echo(f"{override.describe()}: set by hand"
                   + (f" ({override.note})" if override.note else ""))
    for replaced in report.replaced:
        if replaced.key != override.key or replaced.link != override.link:
            click.echo(f"  replaces {replaced.describe()}")
    click.echo(f"  before: {_changes(report.before)}")
    click.echo(f"  after:  {_changes(report.after)}")
    click.echo(f"  status: {report.status}")
    click.echo(f"wrote {path} and {db_path} in {report.seconds:.1f} s")


def _list(db_path: Path, as_json: bool) -> None:
    from ..lineage.overrides import format_line, stored

    conn = open_db(db_path)
    found = stored(conn)
    statuses = [row[0] for row in conn.execute(
        "SELECT status FROM alignment_overrides ORDER BY id")] if found else []
    if as_json:
        echo_json([{**asdict(o), "status": status}
                   for o, status in zip(found, statuses, strict=True)])
    else:
        for override, status in zip(found, statuses, strict=True):
            click.echo(format_line(override))
            click.echo(f"  {status}" + (f" (line {override.line} of {override.file or 'its file'})"
                                        if override.line else ""))
    if not found:
        raise NotFound(f"no alignment set by hand in {db_path}")




def _changes(changes: list[dict[str, Any]]) -> str:
    parts = []
    for change in changes:
        label = " → ".join(n for n in (change["old"], change["new"]) if n)
        extra = f" {change['similarity']:.2f}" if change["old"] and change["new"] else ""
        parts.append(f"{change['op']} {label}{extra}"
                     + (" (set by hand)" if change.get("set_by_hand") else ""))
    return "; ".join(parts) or "nothing"


COMMANDS = [align]
