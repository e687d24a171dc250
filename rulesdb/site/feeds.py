"""Atom 1.0 feeds of the rules site: the releases (/changes.atom: an entry per CR edition with
what it changed and a link to its diff) and each rule's history
(/{doc}/{number}/history.atom: an entry per version that changed, as its history page shows).

Ids are `urn:uuid:` names derived from what an entry stands for (an edition, a version of a
rule), so they stay the same across rebuilds and wherever the site is served; links are
absolute, made from the request. The feed of releases is the same for every request to one
database file and address, so it is made once for each (feed readers poll it).
"""

from __future__ import annotations

import html
import sqlite3
import uuid
import xml.etree.ElementTree as ET
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from datasette.utils.asgi import NotFound, Response

from ..lineage import subtree
from ..lineage.changes import Step, steps
from ..lineage.fold import fold_history
from ..lineage.wordiff import render_inline_html
from ..lineage.words import change_words
from ..lookup.query import in_editions
from ..numbers import normalize_number, spoken
from . import diffs, histories, releases
from .render import rule_url

ATOM = "http://www.w3.org/2005/Atom"
CONTENT_TYPE = "application/atom+xml; charset=utf-8"
NAMES = uuid.UUID("7f1b8a52-3c55-5b0e-9d7e-2f2a0c4e6d11")  # the rules site's id namespace

ET.register_namespace("", ATOM)
Url = Callable[[str], str]


def atom_id(name: str) -> str:
    """The stable id of what `name` names ("edition/cr-2025-02-07")."""
    return f"urn:uuid:{uuid.uuid5(NAMES, name)}"


def timestamp(date: str | None) -> str:
    """An RFC 3339 time for an effective date (a year or month alone: its first day)."""
    parts = [*(date or "1970").split("-"), "01", "01"]
    return f"{parts[0]}-{parts[1]}-{parts[2]}T00:00:00Z"


def _add(parent: ET.Element, tag: str, text: str | None = None, **attributes: str) -> ET.Element:
    element = ET.SubElement(parent, f"{{{ATOM}}}{tag}", attributes)
    if text is not None:
        element.text = text
    return element


def _feed(name: str, title: str, self_url: str, page_url: str, updated: str) -> ET.Element:
    feed = ET.Element(f"{{{ATOM}}}feed")
    _add(feed, "id", atom_id(name))
    _add(feed, "title", title)
    _add(feed, "updated", updated)
    _add(feed, "link", rel="self", type="application/atom+xml", href=self_url)
    _add(feed, "link", rel="alternate", type="text/html", href=page_url)
    _add(_add(feed, "author"), "name", "rulesdb")
    _add(feed, "generator", "rulesdb")
    return feed


def _entry(feed: ET.Element, name: str, title: str, updated: str, link: str, summary: str,
           content: str) -> None:
    entry = _add(feed, "entry")
    _add(entry, "id", atom_id(name))
    _add(entry, "title", title)
    _add(entry, "updated", updated)
    _add(entry, "link", rel="alternate", type="text/html", href=link)
    _add(entry, "summary", summary)
    _add(entry, "content", content, type="html")


def _xml(feed: ET.Element) -> str:
    return ET.tostring(feed, encoding="unicode", xml_declaration=True) + "\n"


def changes_feed(conn: sqlite3.Connection, url: Url) -> str:
    """The feed of releases, newest first; `url` makes a site path absolute."""
    found = releases.editions(conn)
    feed = _feed("changes", "Comprehensive Rules releases", url("/changes.atom"), url("/"),
                 timestamp(found[0]["effective_date"] if found else None))
    for item in found:
        notes = item["notes"]
        if notes is None:
            summary = f"{item['rule_count']} rules: the first edition in this database"
            link, content = url(item["url"]), html.escape(summary)
        else:
            summary = f"Against {notes['previous']}: {notes['summary']}"
            link, content = url(notes["diff_url"]), _notes_html(notes, url)
        _entry(feed, f"edition/{item['id']}", item["title"] or item["id"],
               timestamp(item["effective_date"]), link, summary, content)
    return _xml(feed)


def _notes_html(notes: dict[str, Any], url: Url) -> str:
    """Release notes as HTML for a feed reader: counts and the largest edits, linked.
    (html.escape on every value: markupsafe's format took half the feed's time.)"""
    def href(path: str) -> str:
        return html.escape(url(path))

    parts = [f'<p>Against <a href="{href(notes["previous_url"])}">'
             f'{html.escape(notes["previous"])}</a>: {html.escape(notes["summary"])}. '
             f'<a href="{href(notes["diff_url"])}">Every change</a></p>']
    if notes["edits"]:
        parts.append("<p>Largest edits:</p><ul>")
        parts.extend(f'<li><a href="{href(edit["url"])}">{html.escape(edit["new_number"])}</a> '
                     f'{html.escape(edit["label"])} ({edit["words"]} words changed)</li>'
                     for edit in notes["edits"])
        parts.append("</ul>")
    return "".join(parts)


def history_feed(conn: sqlite3.Connection, doc: str, number: str, url: Url) -> str | None:
    """The feed of a rule's versions that changed (as its history page folds them), newest
    first; None without such a rule."""
    number = normalize_number(number)
    rule = histories.the_rule(conn, doc, number)
    if rule is None:
        return None
    found = subtree.complete_history(conn, rule)
    if found is None:
        return summary_feed(conn, rule, url)
    chain = [item for item in fold_history(histories.versions(rule, found))
             if item["change"] != "concept"]
    dates = dict(conn.execute("SELECT id, effective_date FROM documents").fetchall())
    path = f"{rule_url(doc, number)}/history"
    feed = _feed(f"history/{doc}/{number}", f"History of {number} ({doc})",
                 url(path + ".atom"), url(path),
                 timestamp(max((dates[v["doc"]] or "" for v in chain), default=None)))
    for step in reversed(list(steps(chain))):
        version = step.item
        title, content = _version(step)
        summary = _repeated(version["run"]) + (
            f" Set by hand: {version['note']}" if version.get("set_by_hand") else "")
        _entry(feed, f"version/{version['doc']}/{version['number']}", title,
               timestamp(dates[version["doc"]]), url(version["url"]),
               summary.strip() or title, content)
    return _xml(feed)


def summary_feed(conn: sqlite3.Connection, rule: dict[str, Any], url: Url) -> str:
    """The feed of a large subtree's history as its page sums it up (`rulesdb.lineage.subtree`):
    an entry per release in which something inside it changed, newest first, with the counts
    and the first rules named, linked to their histories and to the words of the step."""
    doc, number = rule["document"], rule["number"]
    dates = dict(conn.execute("SELECT id, effective_date FROM documents").fetchall())
    base = rule_url(doc, number)
    found = subtree.summary(conn, rule["id"])
    feed = _feed(f"history/{doc}/{number}", f"History of {number} ({doc}), summed up",
                 url(f"{base}/history.atom"), url(f"{base}/history"),
                 timestamp(max((dates[s["new_doc"]] or "" for s in found), default=None)))
    for step in reversed(found):
        where, page = step["new_doc"], url(rule_url(step["new_doc"], step["number"]))
        summary = f"Nothing changed inside it {in_editions(step['run'])}." if step["run"] else ""
        if step["old_doc"] is None:
            title = f"{spoken(step['number'])} in {where}: first version in this database"
            content = f"<p>{step['size']} rules.</p>"
        else:
            title = f"{spoken(step['number'])}: {subtree.described(step['counts'])} in {where}"
            words = url(f"{base}/history?step={where}")
            named = [_named(change, step, url) for change in step["changes"][:subtree.LISTED]]
            more = len(step["changes"]) - len(named)
            content = (f"<p>Against {html.escape(step['old_doc'])}: "
                       f"{html.escape(subtree.described(step['counts']))}. "
                       f'<a href="{html.escape(words)}">The words</a></p><ul>{"".join(named)}'
                       + (f'<li><a href="{html.escape(words)}">{more} more</a></li>'
                          if more else "") + "</ul>")
        _entry(feed, f"step/{where}/{step['number']}", title, timestamp(dates[where]), page,
               (summary or title), content)
    return _xml(feed)


def _named(change: dict[str, Any], step: dict[str, Any], url: Url) -> str:
    """A change of a summed-up step as a list item linked to the rule's history."""
    href = html.escape(url(rule_url(*subtree.placed(change, step)) + "/history"))
    return (f'<li><a href="{href}">{html.escape(subtree.named(change))}</a> '
            f'{html.escape(change_words(change["op"]))}</li>')


def _repeated(run: list[str]) -> str:
    """"Unchanged in 14 more editions, A … B." (the history page also says what its
    variants change: word diffs of every edition, too slow for a feed)."""
    if not run:
        return ""
    return f"Unchanged {in_editions(run)}."


def _version(step: Step) -> tuple[str, str]:
    """An entry's title and HTML: the first text whole, later ones as what changed."""
    version, before, comparison = step.item, step.before, step.comparison
    where = f"{version['doc']}"
    if before is None or comparison is None:
        text = html.escape(version["text"]).replace("\n", "<br>")
        return f"{version['number']} in {where}: first version in this database", f"<p>{text}</p>"
    parts = [f"<p>Against {html.escape(before['doc'])} {html.escape(before['number'])}:</p>"]
    if comparison.own:
        parts.append(f"<p>{render_inline_html(list(comparison.own))}</p>")
    if comparison.lines:
        parts.append("<ul>" + "".join(
            f"<li>{html.escape(line.new_number or line.old_number or '')} {line.kind}: "
            f"{render_inline_html(list(line.ops))}</li>" for line in comparison.lines) + "</ul>")
    if comparison.same:
        parts.append("<p>The same words (typography or the numbers of cited rules aside).</p>")
    return f"{step.number} {step.label} in {where}", "".join(parts)


def _absolute(datasette: Any, request: Any) -> Url:
    return lambda path: datasette.absolute_url(request, path)


_MADE: OrderedDict[tuple[Any, ...], str] = OrderedDict()
MADE_SIZE = 4


def cached_changes_feed(conn: sqlite3.Connection, url: Url) -> str:
    """`changes_feed`, made once per database file and site address."""
    key = (*diffs.database_key(conn), url("/"))
    if key not in _MADE:
        _MADE[key] = changes_feed(conn, url)
        while len(_MADE) > MADE_SIZE:
            _MADE.popitem(last=False)
    _MADE.move_to_end(key)
    return _MADE[key]


async def changes(datasette: Any, request: Any) -> Response:
    """/changes.atom"""
    url = _absolute(datasette, request)
    body = await datasette.get_database().execute_fn(
        lambda conn: cached_changes_feed(conn, url))
    return Response(body, content_type=CONTENT_TYPE)


async def history(datasette: Any, request: Any) -> Response:
    """/{doc}/{number}/history.atom"""
    doc, number = request.url_vars["doc"], request.url_vars["number"]
    url = _absolute(datasette, request)
    body = await datasette.get_database().execute_fn(
        lambda conn: history_feed(conn, doc, number, url))
    if body is None:
        raise NotFound("Not found")
    return Response(body, content_type=CONTENT_TYPE)
