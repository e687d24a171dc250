"""Text and Markdown rendering of lookups: rules with their terms marked, search hits,
glossary entries, keywords and references. JSON is printed as the lookups return it."""

from __future__ import annotations

import re

from ..lookup.display import HIT_END, HIT_START, also_in, describe, oldest
from .plain import style, wrap

TYPE_CHECKING = False  # typing.TYPE_CHECKING: a lookup does not import typing
if TYPE_CHECKING:
    from typing import Any

Row = dict[str, "Any"]


def output_format(fmt: str, as_json: bool) -> str:
    """`--json` wins over `--format`."""
    return "json" if as_json else fmt


def highlight(snippet: str, fmt: str) -> str:
    """A search snippet with its matched words **strong** (Markdown, JSON) or bold and wrapped
    (text)."""
    if fmt != "text":
        return snippet.replace(HIT_START, "**").replace(HIT_END, "**")
    plain, spans = "", []
    for i, part in enumerate(snippet.split(HIT_START)):
        hit, _, rest = part.partition(HIT_END) if i else ("", "", part)
        spans.append({"start": len(plain), "end": len(plain) + len(hit)})
        plain += hit + rest
    return wrap_marked(plain, [m for m in spans if m["end"] > m["start"]], "  ", bold=True)


def mark_terms(text: str, mentions: list[Row], fmt: str, bold: bool = False) -> str:
    """`text` with its glossary-term mentions underlined (text; bold if `bold`) or
    _emphasized_ (Markdown)."""
    out, last = [], 0
    for m in mentions:
        out.append(text[last:m["start"]])
        word = text[m["start"]:m["end"]]
        styled = style(word, bold=True) if bold else style(word, underline=True)
        out.append(styled if fmt == "text" else f"_{word}_")
        last = m["end"]
    return "".join(out) + text[last:]


def wrap_marked(text: str, mentions: list[Row], indent: str = "", bold: bool = False) -> str:
    """`text` wrapped to the terminal like common.wrap, its mentions underlined; the width
    is measured on the plain text, so styling never shortens a line."""
    width = len(wrap("x " * 200, "").split("\n")[0]) + 1
    spans = [(m["start"], m["end"]) for m in mentions]
    lines: list[str] = []
    offset = 0
    for paragraph in text.split("\n"):
        line, length = indent, len(indent)
        for word in re.finditer(r"\S+", paragraph):
            start, end = offset + word.start(), offset + word.end()
            if length > len(indent) and length + 1 + (end - start) > width:
                lines.append(line)
                line, length = indent, len(indent)
            piece = mark_terms(text[start:end], [
                {"start": max(a, start) - start, "end": min(b, end) - start}
                for a, b in spans if a < end and start < b], "text", bold)
            line += (" " if length > len(indent) else "") + piece
            length += (1 if length > len(indent) else 0) + end - start
        lines.append(line)
        offset += len(paragraph) + 1
    return "\n".join(lines)


def rule_lines(view: Row, fmt: str, examples: bool = True) -> list[str]:
    """A rule view (query.rule_view plus terms and references) as text or Markdown lines."""
    lines: list[str] = []
    md = fmt == "markdown"
    for item in [view, *view["subrules"]]:
        text = item["text"] or ""
        # a heading whose text is its body (a section of the judges' documents) shows it
        label = (f"{item['number']} {item['title']}" if item.get("title")
                 and item["title"] != text else item["number"])
        if item is view:
            head = f"{label} ({view['document']})"
            lines.append(f"**{head}**" if md else style(head, bold=True))
        elif md:
            lines.append(f"**{label}**")
        else:
            lines.append(style(label, bold=True))
        if item.get("infraction"):
            penalty = f"Penalty: {item['infraction']['penalty']}"
            lines.append(f"_{penalty}_" if md else f"  {penalty}")
        lines.append(mark_terms(text, item.get("terms", []), fmt) if md
                     else wrap_marked(text, item.get("terms", []), "  "))
        for example in item["examples"] if examples else []:
            lines.append(f"> _Example:_ {example}" if md else wrap(f"Example: {example}", "      "))
        if md:
            lines.append("")
    refs = [(item["number"], ref) for item in [view, *view["subrules"]]
            for ref in item.get("references", []) if ref["kind"] != "term"]
    if refs:
        lines.append("**References**" if md else style("References:", bold=True))
        for number, ref in refs:
            target = ref["target"] or ref["cited"]
            line = f"{number} → {target}"
            if ref["target_text"]:
                line += f" ({ref['target_document']}): {ref['target_text']}"
            elif ref["status"] != "resolved":
                line += f" — {ref['status'].replace('_', ' ')}: {ref['reason'] or ''}".rstrip(": ")
            lines.append(f"- {line}" if md else wrap(line, "  "))
    defined = _defined_terms(view)
    if defined:
        lines.append("**Defined terms**" if md else style("Defined terms:", bold=True))
        for ref in defined:
            line = (f"{ref['cited']} → {ref['target']} ({ref['target_document']}): "
                    f"{ref['target_text']}")
            lines.append(f"- {line}" if md else wrap(line, "  "))
    terms = _distinct_terms(view)
    if terms:
        if md:
            lines.append("")
        lines.append("**Glossary terms**" if md else style("Glossary terms:", bold=True))
        for term in terms:
            line = f"{term['term']} ({term['glossary']}): {term['definition']}"
            lines.append(f"- {line}" if md else wrap(line, "  "))
    return lines


def _defined_terms(view: Row) -> list[Row]:
    """The terms a judges' document defines that a view's texts use, each once (by the
    paragraph that defines it)."""
    seen: dict[tuple, Row] = {}
    for item in [view, *view["subrules"]]:
        for ref in item.get("references", []):
            if ref["kind"] == "term" and ref["target"]:
                seen.setdefault((ref["target_document"], ref["target"]), ref)
    return list(seen.values())


def _distinct_terms(view: Row) -> list[Row]:
    seen: dict[tuple[str, str], Row] = {}
    for item in [view, *view["subrules"]]:
        for m in item.get("terms", []):
            seen.setdefault((m["glossary"], m["term"]), m)
    return sorted(seen.values(), key=lambda m: m["term"].lower())


def search_lines(result: Row, fmt: str, chosen: bool = False) -> list[str]:
    """Search hits, best first, after how the query was read: each hit's kind, label and
    edition, and its snippet. `chosen`: the document searched was asked for."""
    md = fmt == "markdown"
    hits = result["hits"]
    scope = result["scope"]
    docs = result.get("documents") or ([scope] if scope else [])
    where = (f" in {', '.join(docs)}" + ("" if chosen else
                                         ", the current documents (--doc cr|mtr|ipg: one; "
                                         "--all-editions: every edition)")
             if docs else "")
    count = f"{len(hits)} hit{'s' if len(hits) != 1 else ''}"
    lines = [f"**Search:** {result['query']} ({count}{where})" if md
             else f"{count} for {result['query']!r}{where}"]
    lines += [f"_{line}_" if md else style(line, dim=True)
              for line in describe(result)]
    for hit in hits:
        label = hit.get("number") or hit.get("term")
        title = f" {hit['title']}" if hit.get("title") else ""
        head = f"{hit['kind']} {label}{title} ({hit['document']}{also_in(hit)})"
        snippet = highlight(hit["snippet"].replace("\n", " "), fmt)
        why = "; ".join(hit.get("why") or [])
        if md:
            lines.append(f"- {head}: {snippet}" + (f" _({why})_" if why else ""))
        else:
            lines.append(style(head, bold=True))
            lines.append(snippet)
            if why:
                lines.append(style(wrap(f"why: {why}", "  "), dim=True))
    return lines


def glossary_lines(result: Row, fmt: str, every: bool = False) -> list[str]:
    """Glossary entries with how each matched the query: the newest wording of each term
    with a line on its earlier ones, or (`every`) each wording."""
    md = fmt == "markdown"
    groups: dict[tuple[str, str], list[Row]] = {}
    for match in result["matches"]:
        key = (match["term"].lower(), match["matched"])
        groups.setdefault(key if not every else (key, len(groups)), []).append(match)
    lines = []
    for match, *older in groups.values():
        head = f"{match['term']}{' (obsolete)' if match['obsolete'] else ''}"
        note = f"{match['document']}" + (
            f", {match['matched']}" if match["matched"] != "exact" else "") + also_in(match)
        lines.append(f"**{head}** ({note})" if md else style(head, bold=True)
                     + f" ({note})")
        lines.append(match["definition"] if md else wrap(match["definition"] or "", "  "))
        if older:
            docs = [doc for hit in older for doc in (hit["document"], *hit.get("also_in", []))]
            lines.append(f"{'' if md else '  '}earlier: {len(older)} other wording"
                         f"{'s' if len(older) > 1 else ''} in {len(docs)} document"
                         f"{'s' if len(docs) > 1 else ''}, back to {oldest(docs)} "
                         "(--all shows each)")
        if md:
            lines.append("")
    return lines


def keyword_lines(result: Row, fmt: str) -> list[str]:
    """Keywords with their rule numbers and first words."""
    md = fmt == "markdown"
    lines = [f"**Keywords of {result['document']}**" if md
             else f"{len(result['keywords'])} keywords in {result['document']}"]
    for k in result["keywords"]:
        kind = k["kind"].replace("_", " ")
        if md:
            lines.append(f"- **{k['keyword']}** ({kind}, {k['number']}): {k['summary']}")
        else:
            lines.append(f"{k['number']:10} {k['keyword']:24} {kind:12} {k['summary']}")
    return lines


def infraction_lines(found: list[Row], fmt: str) -> list[str]:
    """Infractions with their numbers and penalties, a line each."""
    md = fmt == "markdown"
    lines = [f"**{len(found)} infractions of {found[0]['document']}**" if md
             else f"{len(found)} infractions in {found[0]['document']}"]
    for item in found:
        name = f"{item['category']} — {item['name']}" if item["category"] else item["name"]
        lines.append(f"- **{item['number']}** {name}: {item['penalty']}" if md
                     else f"{item['number']:5} {name:60} {item['penalty']}")
    return lines


def refs_lines(result: Row, fmt: str) -> list[str]:
    """What a rule cites and what cites it."""
    md = fmt == "markdown"
    lines = [f"**{result['number']}** ({result['document']})" if md
             else style(f"{result['number']} ({result['document']})", bold=True)]
    lines.append("**Cites**" if md else "Cites:")
    for ref in result["cites"]:
        line = f"{ref['raw']} → {ref['target'] or ref['cited']}"
        line += (f": {ref['target_text']}" if ref["target_text"]
                 else f" ({ref['status'].replace('_', ' ')})")
        lines.append(f"- {line}" if md else wrap(line, "  "))
    if not result["cites"]:
        lines.append("- nothing" if md else "  nothing")
    lines.append("**Cited by**" if md else "Cited by:")
    for ref in result["cited_by"]:
        label = ref["number"] if ref["source"] != "glossary" else f"glossary {ref['term']}"
        line = f"{ref['source'] if ref['source'] != 'glossary' else ''} {label} "\
               f"({ref['document']}): {ref['text']}".strip()
        lines.append(f"- {line}" if md else wrap(line, "  "))
    if not result["cited_by"]:
        lines.append("- nothing" if md else "  nothing")
    return lines
