"""The answers of the lookups people run most (rule, glossary, refs, history, search,
infractions), given an open database: the click commands and the quick path
(rulesdb.commands.quick) both print them, so the two print the same. Nothing here needs
click."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

from ..errors import InputError
from ..lookup import lookup, query
from .plain import NotFound, check_document, echo, echo_json, find_rule_or_fail, not_found
from .render import (
    glossary_lines,
    highlight,
    infraction_lines,
    refs_lines,
    rule_lines,
    search_lines,
)

TYPE_CHECKING = False  # typing.TYPE_CHECKING: a lookup does not import typing
if TYPE_CHECKING:
    from typing import Any


def rule(conn: sqlite3.Connection, number: str, doc_id: str | None, tree: bool,
         examples: bool, fmt: str) -> None:
    """Print a rule with its subrules (`tree`: all of them), examples, terms and references."""
    found = find_rule_or_fail(conn, number, doc_id)
    view = lookup.rule_view(conn, found, tree=tree, examples=examples)
    if fmt == "json":
        echo_json(view)
        return
    echo("\n".join(rule_lines(view, fmt, examples)).rstrip("\n"))


def glossary(conn: sqlite3.Connection, term: str, doc_id: str | None, every: bool,
             fmt: str) -> None:
    """Print the glossary entries a term names (`every`: each wording)."""
    doc_id = check_document(conn, doc_id)
    result = lookup.glossary(conn, term, doc_id)
    for match in result["matches"]:
        del match["id"]
    if fmt == "json":
        echo_json(result)
    if not result["matches"]:
        near = result["suggestions"]
        hint = f"; did you mean {', '.join(near)}?" if near else ""
        raise NotFound(f"no glossary term {term!r}{' for ' + doc_id if doc_id else ''}{hint}")
    if fmt != "json":
        echo("\n".join(glossary_lines(result, fmt, every)).rstrip("\n"))


def refs(conn: sqlite3.Connection, number: str, doc_id: str | None, fmt: str) -> None:
    """Print what a rule cites and what cites it, with the first words of each."""
    found = find_rule_or_fail(conn, number, doc_id)
    result = {"document": found["document"], "number": found["number"],
              "cites": lookup.references_from(conn, [found["id"]])[found["id"]],
              "cited_by": lookup.references_to(conn, found["id"])}
    if fmt == "json":
        echo_json(result)
        return
    echo("\n".join(refs_lines(result, fmt)))


def infractions(conn: sqlite3.Connection, penalty: str | None, doc_id: str, fmt: str) -> None:
    """Print the infractions of an Infraction Procedure Guide (those with `penalty` when
    given) with their penalties."""
    doc_id = check_document(conn, doc_id)
    found = query.infractions(conn, doc_id=doc_id, penalty=penalty)
    for item in found:
        del item["rule_id"]
    if fmt == "json":
        echo_json(found)
    if not found:
        raise NotFound(f"no infraction{' with the penalty ' + penalty if penalty else ''} "
                       f"in {doc_id}")
    if fmt != "json":
        echo("\n".join(infraction_lines(found, fmt)))


def history_rule(conn: sqlite3.Connection, number: str, doc_id: str | None) -> dict:
    """The rule, keyword or heading whose history is asked for; NotFound with suggestions."""
    from ..lineage import versions

    found = versions.history_rule(conn, number, doc_id)
    if found is None:
        raise not_found(conn, number, doc_id, "rule or keyword")
    return found


def history(conn: sqlite3.Connection, number: str, doc_id: str | None, every: bool,
            as_json: bool) -> None:
    """Print every version of a rule: folded, summed up for a large subtree, or (`every`)
    each whole; JSON streamed."""
    from ..lineage import subtree, versions
    from .history_text import history_lines, summary_lines

    found = history_rule(conn, number, check_document(conn, doc_id))
    if as_json:
        _stream_json(versions.streamed_history(conn, found))
        return
    if every:
        lines = history_lines(versions.streamed_history(conn, found), every=True)
    else:
        entries = subtree.complete_history(conn, found)
        if entries is None:
            lines = summary_lines(found, subtree.summary(conn, found["id"]))
        else:
            lines = history_lines(entries)
    for line in lines:
        echo(line)


def _stream_json(entries: Iterator[dict[str, Any]]) -> None:
    """A JSON array of `entries` written as they come, as `echo_json` writes a list."""
    import json
    opened = False
    for entry in entries:
        text = json.dumps(entry, indent=2, ensure_ascii=False).replace("\n", "\n  ")
        echo(("," if opened else "[") + "\n  " + text, nl=False)
        opened = True
    echo("\n]" if opened else "[]")


def search(conn: sqlite3.Connection, text: str, doc_id: str | None, all_editions: bool,
           limit: int, fmt: str) -> None:
    """Print what a search finds, best first (a rule number: that rule)."""
    from ..lookup import search as full_text  # the other lookups do without it

    doc_id = check_document(conn, doc_id)
    if full_text.looks_like_rule_number(text):
        found = query.find_rule(conn, text, doc_id)
        if found is not None:
            view = lookup.rule_view(conn, found)
            if fmt == "json":
                echo_json({"query": text, "rule": view, "hits": []})
            else:
                echo("\n".join(rule_lines(view, fmt)))
            return
    result = full_text.search(conn, text, doc_id, limit, all_editions)
    if not result["hits"] and not full_text.read_query(conn, text, doc_id).concepts:
        left = ", ".join(dict.fromkeys(result["ignored"]))
        raise InputError(f"nothing to search for in {_shown(text)!r}"
                         + (f" ({left}: words that do not decide a search)" if left else "")
                         + ": give a word of the rules or a rule number")
    for hit in result["hits"]:
        del hit["id"]
    if fmt == "json":
        for hit in result["hits"]:
            hit["snippet"] = highlight(hit["snippet"], "json")
        echo_json({**result, "rule": None})
    if not result["hits"]:
        where = f" in {result['scope']}" if result["scope"] else ""
        raise NotFound(f"nothing matches {_shown(text)!r}{where}")
    if fmt != "json":
        echo("\n".join(search_lines(result, fmt, all_editions or bool(doc_id))))


def _shown(text: str, most: int = 80) -> str:
    """A query as an error quotes it: its first characters."""
    return text if len(text) <= most else text[:most] + "…"
