"""Lookup commands a judge runs at the table: search, glossary, keywords, refs."""

from __future__ import annotations

from pathlib import Path

import click

from ..ingest.policy_names import PENALTIES
from ..lookup import lookup
from . import answers
from .common import (
    TEXT,
    NotFound,
    check_document,
    db_option,
    echo_json,
    format_option,
    json_option,
    open_db,
)
from .render import (
    keyword_lines,
    output_format,
)

KINDS = {"ability": "ability", "action": "action", "ability-word": "ability_word"}



@click.command()
@click.argument("text", type=TEXT, metavar="QUERY")
@click.option("--doc", "doc_id", type=TEXT, help="Search one document: cr, mtr or ipg (its newest "
                                      "edition) or a document id [default: the current "
                                      "documents, the newest CR, MTR and IPG].")
@click.option("--all-editions", is_flag=True,
              help="After the current documents, every other edition and document.")
@click.option("--limit", type=click.IntRange(1, 500), default=10, show_default=True,
              help="At most this many hits.")
@db_option
@format_option
@json_option
def search(text: str, doc_id: str | None, all_editions: bool, limit: int, db_path: Path,
           fmt: str, as_json: bool) -> None:
    """Find the rules and paragraphs a question is about, the current documents first.

    QUERY is a question in plain words, players' words or the documents' own: "can a
    tapped creature block", "etb trigger", "penalty for looking at an extra card". Filler
    words are left out, every other word counts (blocks, blocked and blocking are one
    word), and what answers more of the question comes first; players' and judges' words
    (etb, cmc, fizzle, GRV, DQ) and obsolete terms (mana burn, in play) are read as the
    documents' words, and the output says how. "Quoted words" match as a phrase. A query
    that is a rule number shows that rule.

    Without --doc the current documents are searched together, each hit labelled with
    its document: the newest Comprehensive Rules (rules and glossary), Magic Tournament
    Rules and Infraction Procedure Guide. --doc cr, mtr or ipg searches one of them; a
    concept only older CR editions have is answered from the last edition that had it.

    Example:

        rulesdb search "what happens if both players lose at the same time"

        rulesdb search "can I use my phone between games" --doc mtr
    """
    answers.search(open_db(db_path), text, doc_id, all_editions, limit,
                   output_format(fmt, as_json))


@click.command()
@click.argument("term", type=TEXT)
@click.option("--doc", "doc_id", type=TEXT,
              help="The glossary that applies to this document [default: every glossary].")
@click.option("--all", "every", is_flag=True,
              help="Every wording of each entry across the editions, not only the newest "
                   "(--json always has them all).")
@db_option
@format_option
@json_option
def glossary(term: str, doc_id: str | None, every: bool, db_path: Path, fmt: str,
             as_json: bool) -> None:
    """Look up a glossary term: by name, alias or inflected form, with suggestions for typos.

    "tapped" and "taps" find Tap; "blockers" finds Blocker and the entry it points to,
    Blocking Creature. A document without a glossary (cr-2025-06-06-chapter7) uses the
    glossary its terms are linked to. Without --doc, each entry is shown in its newest
    wording, with the editions that say the same and a line on its earlier wordings.

    Example:

        rulesdb glossary trample --doc cr-2025-06-06
    """
    answers.glossary(open_db(db_path), term, doc_id, every, output_format(fmt, as_json))


@click.command()
@click.option("--doc", "doc_id", type=TEXT,
              help="Document [default: the newest that has such keywords].")
@click.option("--kind", type=click.Choice(list(KINDS)), help="Only this kind of keyword.")
@db_option
@format_option
@json_option
def keywords(doc_id: str | None, kind: str | None, db_path: Path, fmt: str,
             as_json: bool) -> None:
    """List keyword abilities, keyword actions and ability words with their rules.

    Example:

        rulesdb keywords --kind action --doc cr-2025-06-06
    """
    fmt = output_format(fmt, as_json)
    conn = open_db(db_path)
    doc_id = check_document(conn, doc_id)
    result = lookup.keywords(conn, doc_id, KINDS.get(kind or ""))
    if fmt == "json":
        echo_json(result)
    if not result["keywords"]:
        what = f"{kind} keywords" if kind else "keywords"
        raise NotFound(f"no {what}{' in ' + doc_id if doc_id else ''}")
    if fmt != "json":
        click.echo("\n".join(keyword_lines(result, fmt)))


@click.command()
@click.argument("number", type=TEXT)
@click.option("--doc", "doc_id", type=TEXT,
              help="Document id, or cr, mtr, ipg for the newest edition of "
                   "that kind [default: the newest that has the rule].")
@db_option
@format_option
@json_option
def refs(number: str, doc_id: str | None, db_path: Path, fmt: str, as_json: bool) -> None:
    """Show what a rule cites and what cites it, with the first words of each.

    Example:

        rulesdb refs 702.19c
    """
    answers.refs(open_db(db_path), number, doc_id, output_format(fmt, as_json))


@click.command()
@click.option("--penalty", type=click.Choice(PENALTIES, case_sensitive=False),
              help="Only the infractions with this penalty.")
@click.option("--doc", "doc_id", type=TEXT, default="ipg", show_default=True,
              help="The Infraction Procedure Guide edition (ipg: the newest).")
@db_option
@format_option
@json_option
def infractions(penalty: str | None, doc_id: str, db_path: Path, fmt: str,
                as_json: bool) -> None:
    """List the infractions of the Infraction Procedure Guide with their penalties: every
    one, or those with one penalty.

    --json gives each infraction's parts: definition, examples, philosophy, additional
    remedy, upgrade and downgrade (`rulesdb rule 2.2 --doc ipg` shows one whole).

    Example:

        rulesdb infractions --penalty "game loss"
    """
    answers.infractions(open_db(db_path), penalty, doc_id, output_format(fmt, as_json))


COMMANDS = [search, glossary, keywords, refs, infractions]
