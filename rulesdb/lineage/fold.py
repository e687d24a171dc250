"""A rule's history folded for reading: each version that changed, with the run of editions
that repeat it unchanged, and each related text (a glossary entry, a ruling) once with the
editions that repeat it. Nothing is dropped: every edition stays named in a run.
"""

from __future__ import annotations

from typing import Any

Row = dict[str, Any]


def fold_history(entries: list[Row]) -> list[Row]:
    """`entries` (lineage.query.history, oldest first) as items to show, oldest first.

    A rule version whose change is "unchanged" and whose number and shown words (a heading's
    with its subtree; spacing aside) are those of the version before it joins that version's
    run: `run`
    lists the editions of the run after the first. A concept entry with the number or term
    and text of one shown before joins that entry's run.
    """
    items: list[Row] = []
    last_version: Row | None = None
    concepts: dict[tuple[str, str], Row] = {}
    for entry in entries:
        if entry["change"] == "concept":
            key = (entry["number"], _words(entry["text"]))
            if key in concepts:
                concepts[key]["run"].append(entry["doc"])
                continue
            item = {**entry, "run": []}
            concepts[key] = item
            items.append(item)
            continue
        if entry["change"] == "unchanged" and last_version is not None \
                and (last_version["number"], _words(last_version["text"])) == (
                    entry["number"], _words(entry["text"])):
            last_version["run"].append(entry["doc"])
            continue
        last_version = {**entry, "run": []}
        items.append(last_version)
    return items


def _words(text: str) -> str:
    """The text with its spacing and line breaks made single spaces (hard-wrapped releases
    break the same words differently)."""
    return " ".join(text.split())


def run_note(item: Row) -> str:
    """"; unchanged in 14 more editions, cr-2003-07-01 … cr-2009-05-01" for a folded item."""
    run = item.get("run") or []
    if not run:
        return ""
    verb = "the same" if item["change"] == "concept" else "unchanged"
    if len(run) == 1:
        return f"; {verb} in {run[0]}"
    return f"; {verb} in {len(run)} more editions, {run[0]} … {run[-1]}"


def unfold(items: list[Row]) -> list[tuple[str, str, str]]:
    """(document, number, text) of every edition the folded items stand for, in item order."""
    return [(doc, item["number"], item["text"]) for item in items
            for doc in (item["doc"], *item.get("run", []))]
