"""HTML for the rules site: texts with their links, search snippets, URLs and slugs.

Every character of a stored text goes through `markupsafe.escape`; only the tags built here
are markup, so a rule text holding `<script>` shows as text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import quote

from markupsafe import Markup, escape

from ..ingest.policy_names import SUB_HEADINGS


def slug(term: str) -> str:
    """The URL form of a glossary term: lower case, runs of other characters become '-';
    a term without a letter or digit of a-z0-9 ("★/★") is spelled by its code points
    ("u2605-u002f-u2605")."""
    found = re.sub(r"[^a-z0-9]+", "-", term.lower()).strip("-")
    return found or "-".join(f"u{ord(c):04x}" for c in term if not c.isspace())


def rule_url(doc: str, number: str) -> str:
    """The page of rule `number` of document `doc`: /cr-2025-06-06/702.19b."""
    return f"/{quote(doc)}/{quote(number)}"


def glossary_url(doc: str, term: str) -> str:
    """The page of a glossary entry: /cr-2009-02-01/glossary/active-player."""
    return f"/{quote(doc)}/glossary/{slug(term)}"


@dataclass(frozen=True)
class Span:
    """A stretch of a text rendered as a link (href) or as marked text with a title; `entry`
    is the row id of the glossary entry a term mention links to."""

    start: int
    end: int
    href: str | None
    title: str
    css: str
    entry: int | None = None


def linked(text: str, spans: list[Span], used: set[int] | None = None) -> Markup:
    """`text` escaped, with each span as a link; spans overlapping an earlier one are dropped.

    Earlier spans in the list win: callers put references before term mentions. A term's
    first link (in text order, among the spans kept) gets the class "first" unless `used`
    (the entries met earlier in the same rule, updated here) holds it: only that one is
    underlined, the others show theirs on hover and focus.
    """
    used = set() if used is None else used
    taken: list[tuple[int, int]] = []
    chosen: list[Span] = []
    for span in spans:
        if not (0 <= span.start < span.end <= len(text)):
            continue
        if any(span.start < hi and lo < span.end for lo, hi in taken):
            continue
        taken.append((span.start, span.end))
        chosen.append(span)
    parts: list[str] = []
    cursor = 0
    for span in sorted(chosen, key=lambda s: s.start):
        parts.append(_plain(text[cursor:span.start]))
        inner = _plain(text[span.start:span.end])
        css = span.css
        if span.entry is not None and span.entry not in used:
            used.add(span.entry)
            css += " first"
        if span.href:
            parts.append(f'<a class="{css}" href="{escape(span.href)}" '
                         f'title="{escape(span.title)}">{inner}</a>')
        else:
            parts.append(f'<span class="{css}" title="{escape(span.title)}">{inner}</span>')
        cursor = span.end
    parts.append(_plain(text[cursor:]))
    return Markup(_laid_out("".join(parts)))


def _plain(text: str) -> str:
    return str(escape(text)).replace("\n", "<br>\n")


# the sub-headings the judges' documents print above a part of a section ("Definition")
_PARTS = frozenset(heading for headings in SUB_HEADINGS.values() for heading in headings)


def _laid_out(html: str) -> str:
    """A text's lines laid out: a run of bulleted lines ("• …", as the judges' documents
    print their lists) as a list, a sub-heading standing alone on its line in bold, the
    other lines a line break apart."""
    if "•" not in html and not any(part in html for part in _PARTS):
        return html
    out: list[str] = []
    items: list[str] = []
    for line in html.split("<br>\n"):
        if line.startswith("• "):
            items.append(f"<li>{line[2:]}</li>")
            continue
        if items:
            out.append(f'<ul class="items">{"".join(items)}</ul>')
            items = []
        out.append(f'<strong class="part">{line}</strong>' if line in _PARTS else line)
    if items:
        out.append(f'<ul class="items">{"".join(items)}</ul>')
    return "<br>\n".join(out).replace("</ul><br>\n", "</ul>\n").replace(
        "<br>\n<ul", "\n<ul")


def reference_spans(rows: list[dict], number_of: dict[int, tuple[str, str]],
                    term_of: dict[int, tuple[str, str]]) -> list[Span]:
    """Spans for the `references` rows of one text (a range has one row per rule it spans).

    `number_of` maps a rule id to (document, number), `term_of` a glossary id to
    (document, term). A range links to its first rule; its title names the whole range.
    """
    groups: dict[tuple[int, int], list[dict]] = {}
    for row in rows:
        groups.setdefault((row["start"], row["end"]), []).append(row)
    spans = []
    for (start, end), group in groups.items():
        resolved = [r for r in group if r["status"] == "resolved"]
        if resolved:
            first = resolved[0]
            if first["target_rule_id"] in number_of:
                doc, number = number_of[first["target_rule_id"]]
                href = rule_url(doc, number)
            elif first["target_glossary_id"] in term_of:
                doc, term = term_of[first["target_glossary_id"]]
                href = glossary_url(doc, term)
            elif first.get("target_doc") and first["target_rule_id"] is None:
                href = f"/{quote(first['target_doc'])}"  # a whole document
            else:
                continue
            if len(group) > 1:
                title = f"rules {group[0]['target_number']}–{group[-1]['target_number']}"
            else:
                title = first["target_number"] or first["cited"]
            if first.get("target_doc"):
                title = f"{first['target_doc']} {title}" if first["target_number"] \
                    else first["target_doc"]
            spans.append(Span(start, end, href, title, "ref"))
        else:
            reason = group[0]["reason"] or group[0]["status"]
            spans.append(Span(start, end, None, reason, f"ref-{group[0]['status']}"))
    return spans


def mention_spans(rows: list[dict]) -> list[Span]:
    """Spans for `term_mentions` rows joined with their entry's document and term."""
    return [Span(r["start"], r["end"], glossary_url(r["g_document"], r["term"]),
                 f"glossary: {r['term']}", "term", r["glossary_id"]) for r in rows]


def highlight(snippet: str, open_mark: str = "⟦", close_mark: str = "⟧") -> Markup:
    """An FTS snippet escaped, its match markers turned into <mark>."""
    text = str(escape(snippet))
    return Markup(text.replace(open_mark, "<mark>").replace(close_mark, "</mark>"))
