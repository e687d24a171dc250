"""A rule's history folded for reading: each version that changed, with the run of editions
that repeat it, and each related text (a glossary entry, a ruling) once per run of editions
that repeat it. Nothing is dropped: every edition stays named in a run, and the exact text of
every edition that repeats a version only in its typography or its cross-references is kept.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise

from ..lookup.query import in_editions
from . import wordiff
from .text import CITED, normalize

TYPE_CHECKING = False  # typing.TYPE_CHECKING: a lookup does not import typing
if TYPE_CHECKING:
    from typing import Any

Row = dict[str, "Any"]

# What a reader does not count as a change: quote styles (and the "?" a lossy conversion put
# in their place in some releases), dash styles, a space before punctuation.
QUOTE_LIKE = "\"?"  # read as '
DASHES = "‐‑–—"  # read as -
SPACE_BEFORE = re.compile(r"\s+([.,;:)])")
PUNCTUATION = " .,;:()\"'“”‘’?"


def same_key(text: str) -> str:
    """The words of a text as a run compares them: case, spacing, typography and the numbers
    of cited rules aside (the numbering of the subrules under a heading included)."""
    return _cached_key(text) if len(text) <= CACHED_UP_TO else _key(text)


# most editions of a rule print the lines of the one before; a heading's whole subtree
# (702's: 136,000 characters, another each edition) is left out of the cache, which the
# site's long-running process would otherwise fill with hundreds of megabytes
CACHED_UP_TO = 4000


@lru_cache(maxsize=2048)
def _cached_key(text: str) -> str:
    return _key(text)


def _key(text: str) -> str:
    key = _as(QUOTE_LIKE, "'", normalize(text))
    return SPACE_BEFORE.sub(r"\1", _as(DASHES, "-", key))


def _as(characters: str, plain: str, text: str) -> str:
    """`text` with each of `characters` replaced by `plain` (str.replace: a pattern's compiling
    costs a lookup more than its use, str.translate is slow on long texts)."""
    for character in characters:
        if character in text:
            text = text.replace(character, plain)
    return text


def fold_history(entries: list[Row]) -> list[Row]:
    """`entries` (lineage.versions.history, oldest first) as items to show, oldest first.

    A rule version with the number and `same_key` of the version shown before it joins that
    version's run; a related text (change "concept") joins the run of the last item shown for
    its number or term in documents of its kind (`related_key`) when their keys agree. Each
    item gets "run" (the editions of the run after the first) and "variants" ({edition:
    {"number", "text"}} for those that print either differently: a term's quotes, say).
    """
    items: list[Row] = []
    last_version: Row | None = None
    last_concept: dict[tuple[str, str], Row] = {}
    for entry in entries:
        concept = entry["change"] == "concept"
        last = last_concept.get(related_key(entry)) if concept else last_version
        key = same_key(entry["text"])
        if last is not None and (concept or last["number"] == entry["number"]) \
                and last["_key"] == key:
            last["run"].append(entry["doc"])
            if (entry["number"], entry["text"]) != (last["number"], last["text"]):
                last["variants"][entry["doc"]] = {"number": entry["number"],
                                                  "text": entry["text"]}
            continue
        item = {**entry, "run": [], "variants": {}, "_key": key}
        items.append(item)
        if concept:
            last_concept[related_key(entry)] = item
        else:
            last_version = item
    for item in items:
        del item["_key"]
    return items


def related_key(entry: Row) -> tuple[str, str]:
    """What makes two related texts versions of one: the kind of document ("cr", "rulebook",
    "rulings": the first part of its id) and the number or term (typography aside)."""
    return entry["doc"].split("-")[0], same_key(entry["number"])


def unfold(items: list[Row]) -> list[tuple[str, str, str]]:
    """(document, number, text) of every edition the folded items stand for, in item order."""
    out = []
    for item in items:
        for doc in (item["doc"], *item["run"]):
            printed = item["variants"].get(doc, item)
            out.append((doc, printed["number"], printed["text"]))
    return out


def run_note(item: Row) -> str:
    """"; unchanged in 14 more editions, cr-2003-07-01 … cr-2009-05-01" for a folded item, and
    what its variants change: "(cross-references renumbered: rule 721 → 722 → 723;
    typography in 2)". Empty without a run."""
    run = item.get("run") or []
    if not run:
        return ""
    verb = "the same" if item["change"] == "concept" else "unchanged"
    return f"; {verb} {in_editions(run)}" + variants_note(item)


def variants_note(item: Row) -> str:
    """" (cross-references renumbered: rule 721 → 722; typography in 2)" for the editions of a
    run whose text is not the item's; empty when every edition prints the same text."""
    if not item.get("variants"):
        return ""
    printed = [item["variants"].get(doc, item) for doc in (item["doc"], *item["run"])]
    chains: list[list[str]] = []
    typography = 0
    uncited: dict[str, str] = {}  # a text without its citations: most texts are in two pairs
    for one, other in pairwise(printed):
        before, after = one["text"], other["text"]
        if before == after:  # most editions of a run: the same text, nothing to note
            typography += one["number"] != other["number"]
            continue
        if one["number"] != other["number"]:
            typography += 1
        else:
            for text in (before, after):
                if text not in uncited:
                    uncited[text] = CITED.sub("§", text)
            typography += uncited[before] != uncited[after]
        for op in wordiff.opcodes(before, after):
            old, new = op["old"].strip(PUNCTUATION), op["new"].strip(PUNCTUATION)
            if op["op"] != "equal" and _as(DASHES, "-", old) != _as(DASHES, "-", new) \
                    and CITED.fullmatch(old) and CITED.fullmatch(new):
                _chain(chains, old, new)
    parts = []
    if chains:
        parts.append("cross-references renumbered: "
                     + "; ".join(" → ".join(chain) for chain in chains[:3])
                     + ("; …" if len(chains) > 3 else ""))
    if typography:
        parts.append(f"typography in {typography}")
    return f" ({'; '.join(parts)})" if parts else ""


def _chain(chains: list[list[str]], old: str, new: str) -> None:
    """Add old → new to the chain that ends in `old`, or start one."""
    for chain in chains:
        if chain[-1] == old:
            chain.append(new)
            return
    chains.append([old, new])
