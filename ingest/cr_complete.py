"""Whether a Comprehensive Rules text is whole: a copy that stops inside its rules is refused,
one cut off inside its glossary keeps what it has as a partial document."""

from __future__ import annotations

import re

from .model import GLOSSARY_CUT_OFF, GlossaryEntry, ParseError, Residue, Rule

_COMPLETE_END = re.compile(r"[.!?)\]”\"’]$")


def check_complete(
    text: str, rules: list[Rule], last_end: int, listed: frozenset[str] | None,
    found: dict[str, bool]
) -> None:
    """Raise ParseError when the document visibly stops early. `listed` holds the headings
    the contents list (None without contents), `found` whether Glossary and Credits are."""
    if listed is not None:
        for part in ("Glossary", "Credits"):
            if part in listed and not found[part]:
                raise ParseError(f"the {part} listed in the contents is missing", len(text))
    if found["Credits"] or found["Glossary"]:
        return
    last = rules[-1]
    tail = last.examples[-1].text if last.examples else last.text
    if last.title is not None or not _COMPLETE_END.search(tail):
        raise ParseError(f"the document stops inside {last.kind} {last.number}", last_end)


def cut_glossary(text: str, entries: list[GlossaryEntry], residue: list[Residue],
                  listed: frozenset[str] | None, warnings: list[str]) -> str | None:
    """What is left of a glossary the copy stops inside, or None when it is whole.

    A copy cut off inside its glossary (2013-02-01 survives so) keeps its rules and the
    entries before the cut: an entry left unfinished goes to the residue, and the document
    is partial. Without Credits, the glossary is whole when its last entry ends a sentence
    and the contents (if any) do not list Credits.
    """
    credits_listed = listed is not None and "Credits" in listed
    unfinished = None
    if entries:
        last = entries[-1]
        tail = last.examples[-1].text if last.examples else last.definition
        if not _COMPLETE_END.search(tail):
            unfinished = entries.pop()
            start, end = unfinished.span
            residue.append(Residue(text[start:end], "cut off: the copy stops inside this "
                                   "glossary entry", unfinished.span))
    if unfinished is None and not credits_listed:
        return None
    where = f"after {entries[-1].term}" if entries else "at its start"
    inside = f" inside entry {unfinished.term!r}" if unfinished else ""
    missing = " (the Credits listed in the contents are missing)" if credits_listed else ""
    warnings.append(f"the copy stops{inside} in the glossary{missing}: stored as a partial "
                    f"edition with the rules and {len(entries)} glossary entries, up to "
                    f"{entries[-1].term if entries else 'none'}")
    return f"{GLOSSARY_CUT_OFF} {where}"


def settle_end(text: str, rules: list[Rule], entries: list[GlossaryEntry],
               residue: list[Residue], listed: frozenset[str] | None, glossary: bool,
               credits: bool, warnings: list[str]) -> str | None:
    """Where a copy that stops inside its glossary is cut off (`cut_glossary`), None when
    it is whole; ParseError when it stops inside its rules (`check_complete`)."""
    cut_off = cut_glossary(text, entries, residue, listed, warnings) \
        if glossary and not credits else None
    last_end = entries[-1].span[1] if entries else rules[-1].span[1]
    check_complete(text, rules, last_end, listed,
                   {"Glossary": glossary, "Credits": credits or bool(cut_off)})
    return cut_off
