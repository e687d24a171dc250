"""How a found item is told, apart from how it is found: the snippet highlight markers, the
editions that say the same, how a query was read. The lookups' output imports only this,
not the search (whose modules a rule or a glossary lookup does not need)."""

from __future__ import annotations

from .query import Row, in_editions

__all__ = ["HIT_END", "HIT_START", "also_in", "describe", "oldest"]

HIT_START, HIT_END = "\x02", "\x03"  # snippet highlight markers, rendered per output format


def oldest(docs: list[str]) -> str:
    """The oldest of document ids: CR ids sort by their date; another kind comes last."""
    return min(docs, key=lambda doc: (not doc.startswith("cr-"), doc))


def also_in(hit: Row) -> str:
    """"; the same in 47 more editions, cr-2003-03-15 … cr-2025-11-14" for a folded hit."""
    others = hit.get("also_in") or []
    same = f"; the same {in_editions(others[::-1])}" if others else ""  # newest first
    wordings = hit.get("other_wordings") or []
    if wordings:
        docs = [doc for wording in wordings for doc in wording]
        same += (f"; {len(wordings)} other wording{'s' if len(wordings) > 1 else ''} "
                 f"back to {oldest(docs)}")
    if hit.get("last_in"):
        same += "; not in the current rules"
    return same


def describe(result: Row) -> list[str]:
    """How the query was read, in sentences: what its words were read as, what only older
    editions say, and the words it left out."""
    lines = []
    for read in result["read_as"]:
        if read["source"] == "obsolete term":
            now = f", now {read['replaced_by']}" if read["replaced_by"] else ""
            lines.append(f"{read['words']}: an obsolete term{now}")
        else:
            lines.append(f"{read['words']}: read as {' + '.join(read['as'])}")
    for old in result["old"]:
        now = (f"; now {old['replaced_by']}" if old["replaced_by"]
               else "; the glossary names no successor" if old["glossary"] else "")
        numbers = ", ".join(old["numbers"][:5]) + (", …" if len(old["numbers"]) > 5 else "")
        lines.append(f"{old['words']}: not in the rules of {result['scope']}; last in "
                     f"{old['last_in']} ({numbers}){now}")
    if result["ignored"]:
        lines.append(f"left out: {', '.join(dict.fromkeys(result['ignored']))}")
    return lines + list(result["notes"])
