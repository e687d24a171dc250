"""Commands that bring in new sources: add (CR releases in any form), fetch (download one),
and take them out again: remove."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import click

from ..sources.limits import MAX_MB, megabytes
from .common import (
    TEXT,
    InputError,
    db_option,
    echo_json,
    json_option,
    leave_quickly,
    overrides_file,
    overrides_option,
    ready,
    user_releases,
)

# Beyond this many files `add` shows a progress bar (on stderr, when it is a terminal).
PROGRESS_FROM = 4

replace_option = click.option(
    "--replace", is_flag=True,
    help="Replace an edition already in the database even when its content differs.")
dry_run_option = click.option(
    "--dry-run", is_flag=True,
    help="Say what adding would do (added, replaced, unchanged, refused); write nothing.")
id_option = click.option(
    "--id", "doc_id", metavar="cr-YYYY-MM-DD",
    help="Store under this id instead of the one from the printed effective date (needed "
         "when that date cannot be read).")


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@db_option
@replace_option
@id_option
@click.option("--keep-going", is_flag=True,
              help="Add the files that can be added, and list the others (exit code 2).")
@click.option("--max-mb", type=click.FloatRange(min=0.001), default=MAX_MB, show_default=True,
              help="Largest file read, in MB (a longer one is refused unread); also the most "
                   "read from inside a .docx or a PDF.")
@click.option("--keep-path", is_flag=True,
              help="Record each file's absolute path as where it came from (shown by the "
                   "site), not only its name.")
@dry_run_option
@overrides_option
@json_option
def add(files: tuple[Path, ...], db_path: Path, replace: bool, doc_id: str | None,
        keep_going: bool, max_mb: float, keep_path: bool, dry_run: bool,
        overrides_path: Path | None, as_json: bool) -> None:
    """Add official Comprehensive Rules releases to the database: text files, or the Word
    (.docx, .doc), RTF and PDF documents Wizards also publishes them as; and editions of the
    judges' Magic Tournament Rules and Infraction Procedure Guide (their PDF, or its text).

    A file's form is told by its content, not its name, and so is its document (by its
    title line). Each file becomes the edition cr-YYYY-MM-DD (mtr-YYYY-MM-DD,
    ipg-YYYY-MM-DD) of the effective date printed in it. The same text again does nothing; a
    more complete source of an edition replaces a partial one; other differences need
    --replace. All files are added in one transaction: any error leaves the database as it
    was, unless --keep-going: then the files that do not parse or are refused are listed
    and left out, and the others are added. The database is created when missing. A folder
    stands for the release files directly in it (.txt, .docx, .doc, .rtf, .pdf), "-" for
    standard input. Added to the default database, each release is kept as a file in the
    user data folder too, so that a rebuild (after an upgrade) adds it again. A copy with
    its line breaks lost (pasted from a web page, whitespace collapsed) is recognized and
    read as the release. The alignments set by hand in the overrides file (`rulesdb align`)
    are applied, as `build` applies them. A file longer than --max-mb (or holding more once
    read: a .docx, a PDF), a PDF without a text layer (a scan), a document that needs a
    password to open or is damaged, or one rule, example or glossary entry longer than
    64 KB, is refused.

    Example:

        rulesdb add MagicCompRules-2023-10-13.txt "MagicCompRules 20250606.txt"

        rulesdb add MTG_MTR_2026_Feb27_EN.pdf

        rulesdb add ../shared/corpus/cr/

        rulesdb add MagicCompRules-2014-05-01.docx MagicCompRules-2023-02-03.pdf

        curl -s "$RELEASE_URL" | rulesdb add -
    """
    from ..sources.early import read_early

    leave_quickly()
    paths = release_files(files)
    if not dry_run:
        ready(db_path)
    # a PDF's or a Word document's text is read while the add's modules are imported
    early = read_early(paths, megabytes(max_mb))
    try:
        from ..sources.add import add_files

        with _progress(len(paths), as_json) as step:
            report = add_files(db_path, paths, replace=replace, doc_id=doc_id, on_step=step,
                               keep_going=keep_going, dry_run=dry_run,
                               max_bytes=megabytes(max_mb), keep_path=keep_path,
                               overrides=overrides_file(overrides_path), early=early,
                               releases=user_releases(db_path))
    finally:
        for text in early.values():
            text.cancel()
    _show(report, db_path, as_json, dry_run=dry_run)
    if report.skipped:
        raise click.exceptions.Exit(2)


@click.command()
@click.option("--date", "day", type=click.DateTime(["%Y-%m-%d"]),
              help="The date in the release's file name (MagicCompRules YYYYMMDD.txt); older "
                   "releases are looked for where Wizards put them then.")
@click.option("--latest", is_flag=True,
              help="The release linked from the rules page (the default).")
@click.option("--url", metavar="URL",
              help="The release at this address, in any form (a file named otherwise, or a "
                   "mirror).")
@db_option
@replace_option
@id_option
@click.option("--media-url", envvar="RULESDB_MEDIA_URL", show_default=True,
              default="https://media.wizards.com",
              help="Where release files live (or set RULESDB_MEDIA_URL).")
@click.option("--rules-page", envvar="RULESDB_RULES_PAGE", show_default=True,
              default="https://magic.wizards.com/en/rules",
              help="The page linking the current release (or set RULESDB_RULES_PAGE).")
@click.option("--timeout", type=click.FloatRange(min=0.1), default=30.0, show_default=True,
              help="Seconds a download may take in all.")
@click.option("--max-mb", type=click.FloatRange(min=0.001), default=10.0, show_default=True,
              help="Largest download accepted, in MB.")
@dry_run_option
@overrides_option
@json_option
def fetch(day: Any, latest: bool, url: str | None, db_path: Path, replace: bool,
          doc_id: str | None, media_url: str, rules_page: str, timeout: float, max_mb: float,
          dry_run: bool, overrides_path: Path | None, as_json: bool) -> None:
    """Download a Comprehensive Rules release from Wizards of the Coast and add it.

    The text file is taken first; where a release has none, the form Wizards published it
    in (.docx, .doc, .rtf, .pdf, in that order). Nothing is written unless the download
    reads as a CR.

    Example:

        rulesdb fetch --date 2025-06-06

        rulesdb fetch --url https://media.wizards.com/2016/docs/MagicCompRules_CN2_Update_20160826.txt
    """
    from ..sources.fetch import Limits
    from ..sources.fetch import fetch as run_fetch

    leave_quickly()
    if sum(map(bool, (day, latest, url))) > 1:
        raise InputError("give one of --date, --latest and --url")
    limits = Limits(timeout=timeout, max_bytes=int(max_mb * 1024 * 1024))
    when: date | None = day.date() if day else None
    if not dry_run:
        ready(db_path)
    url, report = run_fetch(db_path, when, media_url=media_url, rules_page=rules_page,
                            limits=limits, replace=replace, doc_id=doc_id, url=url,
                            dry_run=dry_run, overrides=overrides_file(overrides_path),
                            releases=user_releases(db_path))
    if not as_json:
        click.echo(f"downloaded {url}")
    _show(report, db_path, as_json, url, dry_run=dry_run)


@click.command()
@click.argument("doc_ids", type=TEXT, nargs=-1, required=True, metavar="ID...")
@db_option
@json_option
def remove(doc_ids: tuple[str, ...], db_path: Path, as_json: bool) -> None:
    """Remove editions added with `rulesdb add` or `fetch`, as if they were never added.

    The layers are mended as adding mends them: the editions on either side are aligned
    with each other, documents linked to a removed glossary are linked to the nearest one
    left. All or none; exit code 1 for an id the database lacks, 2 for a bundled document
    (the catalogue's documents come back at every build).

    Example:

        rulesdb remove cr-2099-01-01
    """
    from ..sources.remove import remove_documents

    leave_quickly()
    report = remove_documents(db_path, list(doc_ids), releases=user_releases(db_path))
    if as_json:
        echo_json({"db": str(db_path), "removed": report.removed, "layers": report.layers,
                   "notes": report.notes, "seconds": round(report.seconds, 3)})
        return
    for doc_id in report.removed:
        click.echo(f"{doc_id}: removed")
    for name, summary in report.layers.items():
        click.echo(f"{name}: {summary}")
    for note in report.notes:
        click.echo(note)
    click.echo(f"updated {db_path} in {report.seconds:.2f} s")


# the names of the files a folder given to `add` stands for (each file's form is then told
# by its content)
RELEASE_SUFFIXES = (".txt", ".docx", ".doc", ".rtf", ".pdf")


def release_files(paths: tuple[Path, ...]) -> list[Path]:
    """The files named, a folder standing for the release files directly in it (by name);
    InputError for a folder with none."""
    files = []
    for path in paths:
        if not path.is_dir():
            files.append(path)
            continue
        found = sorted(p for p in path.iterdir()
                       if p.suffix.lower() in RELEASE_SUFFIXES and p.is_file())
        if not found:
            raise InputError(f"{path}: no release file ({', '.join(RELEASE_SUFFIXES)}) in "
                             "this folder")
        files.extend(found)
    return files


@contextlib.contextmanager
def _progress(files: int, as_json: bool) -> Iterator[Any]:
    """A step callback advancing a progress bar, or doing nothing for a few files."""
    if files < PROGRESS_FROM or as_json or not sys.stderr.isatty():
        yield None
        return
    from ..layers import LAYERS

    steps = 2 * files + len(LAYERS) + 1  # parse and store each file, each layer, the index
    with click.progressbar(length=steps, label="adding", file=sys.stderr,
                           item_show_func=lambda label: label) as bar:
        yield lambda label: bar.update(1, label)


def _show(report: Any, db_path: Path, as_json: bool, url: str | None = None,
          dry_run: bool = False) -> None:
    if as_json:
        echo_json({
            "db": str(db_path), "created": report.created and not dry_run, "url": url,
            "dry_run": dry_run,
            "seconds": round(report.seconds, 3),
            "documents": [
                {"id": a.id, "file": a.name, "action": a.action, "message": a.message,
                 **(vars(a.counts) if a.counts else {}), "seconds": round(a.seconds, 3),
                 "warnings": list(a.warnings)}
                for a in report.added
            ],
            "layers": report.layers,
            "skipped": report.skipped,
        })
        return
    for added in report.added:
        if added.counts is None:
            click.echo(added.message)
            continue
        c = added.counts
        click.echo(f"{added.message}: {c.rules} rules, {c.examples} examples, "
                   f"{c.glossary} glossary entries")
        for warning in added.warnings:
            click.echo(f"  warning: {warning}")
    for name, summary in report.layers.items():
        click.echo(f"{name}: {summary}")
    if dry_run:
        click.echo(f"dry run: nothing written to {db_path}")
    elif report.added and any(a.action != "unchanged" for a in report.added):
        made = "created" if report.created else "updated"
        click.echo(f"{made} {db_path} in {report.seconds:.2f} s")
    for why in report.skipped:
        click.echo(f"skipped {why}", err=True)


COMMANDS = [add, fetch, remove]
