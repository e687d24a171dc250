"""The Datasette plugin of the rules site: routes for rule, glossary, search, diff and history
pages, the templates folder, a slug SQL function and links in canned-query results.

URL scheme (stable; documented in README.md):
    /                                   home: documents, search, diffs, canned queries
    /search?q=WORDS[&doc=ID]            search across rules, rulings, examples, glossary
    /{doc}                              table of contents of a document
    /{doc}/{number}                     a rule (or rulings entry, rulebook paragraph)
    /{doc}/{number}/history             the rule across editions
    /{doc}/{number}/history.atom        its versions that changed, as an Atom feed
    /{doc}/glossary                     the glossary of a document
    /{doc}/glossary/{term-slug}         a glossary entry
    /diff, /diff/{old}/{new}            changes between two documents
    /diff/{old}/{new}/renumbered[.csv|.json]  the rules renumbered, old → new
    /changes.atom                       the CR releases, newest first, as an Atom feed
Document ids always hold a year (cr-2025-06-06, rulings-1999-04, rulebook-2005,
cr-2025-06-06-chapter7), so these
routes never shadow Datasette's own /{database} pages.

The routes are registered only when the metadata configures the plugin
(`plugins: rulesdb: {site: true}`), so another Datasette in the same environment is unchanged.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from datasette import hookimpl
from datasette.utils.asgi import NotFound, Response
from jinja2 import ChoiceLoader, FileSystemLoader
from markupsafe import Markup, escape

from ..lineage.query import OP_ORDER
from ..lineage.renumbered import as_csv
from ..lineage.words import change_words, method_words
from ..lookup import query
from ..lookup import search as full_text
from ..lookup.search import HIT_END, HIT_START, also_in
from . import (
    bounds,
    caching,
    diffs,
    feeds,
    guard,
    histories,
    lanes,
    mistakes,
    pages,
    params,
    releases,
)
from .render import glossary_url, highlight, rule_url, slug

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
DOC_ID = r"[a-z]+(?:-[a-z]+)*-\d{4}(?:-\d{2}){0,2}(?:-[a-z][a-z0-9]*)?"
DOC = rf"(?P<doc>{DOC_ID})"
ROBOTS_BLOCKED = "User-agent: *\nDisallow: /\n"


def enabled(datasette: Any) -> bool:
    """Whether the metadata turns the rules site on."""
    config = datasette.plugin_config("rulesdb") or {}
    return bool(config.get("site"))


def _db(datasette: Any) -> Any:
    return datasette.get_database()


async def _page(datasette: Any, request: Any, template: str, context: dict | None,
                status: int = 200) -> Response:
    if context is None:
        raise NotFound("Not found")
    context = {**context, "database_name": _db(datasette).name}
    html = await datasette.render_template([template], context, request=request)
    return Response.html(html, status=status)


async def home(datasette: Any, request: Any) -> Response:
    """Documents, the diff pairs and the canned queries."""
    db = _db(datasette)
    context = {
        "documents": await db.execute_fn(pages.documents),
        "pairs": await db.execute_fn(diffs.pairs),
        "samples": await db.execute_fn(pages.samples),
        "queries": [
            {"name": name, "title": query.get("title") or name,
             "url": datasette.urls.query(db.name, name)}
            for name, query in (await datasette.get_canned_queries(db.name, None)).items()
        ],
    }
    return await _page(datasette, request, "rulesdb_home.html", context)


async def contents(datasette: Any, request: Any) -> Response:
    """A document's contents, and for a CR edition what it changed (release notes)."""
    doc = request.url_vars["doc"]

    def load(conn: Any) -> dict | None:
        data = pages.contents(conn, doc)
        if data is not None:
            data["release_notes"] = releases.release_notes(conn, doc)
        return data

    data = await _db(datasette).execute_fn(load)
    return await _page(datasette, request, "rulesdb_contents.html", data)


async def rule(datasette: Any, request: Any) -> Response:
    doc, number = request.url_vars["doc"], request.url_vars["number"]

    def load(conn: Any) -> dict | None:
        data = pages.rule_page(conn, doc, number)
        if data is not None:
            data["history"] = histories.rule_history(conn, doc, data["rule"]["number"])
        return data

    data = await _db(datasette).execute_fn(load)
    return await _page(datasette, request, "rulesdb_rule.html", data)


async def history(datasette: Any, request: Any) -> Response:
    doc, number = request.url_vars["doc"], request.url_vars["number"]
    page, step = params.page(request), params.document(request, "step")
    data = await _db(datasette).execute_fn(
        lambda conn: histories.history_page(conn, doc, number, page, step))
    template = data["template"] if data else "rulesdb_history.html"
    return await _page(datasette, request, template, data)


async def glossary_index(datasette: Any, request: Any) -> Response:
    doc = request.url_vars["doc"]
    data = await _db(datasette).execute_fn(lambda conn: pages.glossary_index(conn, doc))
    return await _page(datasette, request, "rulesdb_glossary_index.html", data)


async def glossary_entry(datasette: Any, request: Any) -> Response:
    doc, term = request.url_vars["doc"], request.url_vars["slug"]
    data = await _db(datasette).execute_fn(lambda conn: pages.glossary_entry(conn, doc, term))
    return await _page(datasette, request, "rulesdb_glossary.html", data)


async def diff_index(datasette: Any, request: Any) -> Response:
    old, new = params.document(request, "old"), params.document(request, "new")
    if old and new:
        return Response.redirect(f"/diff/{old}/{new}")
    data = await _db(datasette).execute_fn(diffs.diff_index)
    return await _page(datasette, request, "rulesdb_diff_index.html", data)


async def diff(datasette: Any, request: Any) -> Response:
    old, new = request.url_vars["old"], request.url_vars["new"]
    change, page = params.choice(request, "change", OP_ORDER), params.page(request)
    data = await _db(datasette).execute_fn(
        lambda conn: diffs.diff_page(conn, old, new, change, page))
    return await _page(datasette, request, "rulesdb_diff.html", data)


async def renumbered(datasette: Any, request: Any) -> Response:
    """The renumbering list of a diff, as a page, CSV or JSON."""
    old, new = request.url_vars["old"], request.url_vars["new"]
    data = await _db(datasette).execute_fn(lambda conn: diffs.renumbered_page(conn, old, new))
    fmt = request.url_vars.get("format")
    if data is None or fmt is None:
        return await _page(datasette, request, "rulesdb_renumbered.html", data)
    if fmt == "csv":
        return Response(as_csv(data["data"]), content_type="text/csv; charset=utf-8")
    return Response.json(data["data"])


SEARCH_LIMIT = 50
# the search filter's choices before the documents themselves: one current document each
SEARCH_KINDS = (("cr", "the current Comprehensive Rules"),
                ("mtr", "the current Magic Tournament Rules"),
                ("ipg", "the current Infraction Procedure Guide"))


async def search(datasette: Any, request: Any) -> Response:
    """Search as `rulesdb search` does, with the same ranking and the same first hits: the
    current CR, MTR and IPG together (`all=1`: every other edition after them; `doc=`: one
    document, `cr`, `mtr` or `ipg` its newest edition), how the query was read, a rule number
    taken to its rule. The canned query `search` stays for SQL, one row per edition."""
    db = _db(datasette)
    q = params.text(request, "q")
    doc = (request.args.get("doc") or "").lower()
    if doc not in query.KIND_NAMES:
        doc = params.document(request, "doc") or ""
    every = request.args.get("all") == "1"

    def find(conn: Any) -> Any:
        doc_id = query.resolve_document(conn, doc) if doc else None
        if doc and doc_id is None:
            return {"error": f"There is no document {doc}.", "hits": []}
        if full_text.looks_like_rule_number(q):
            rule = query.find_rule(conn, q, doc_id)
            if rule is not None:
                return rule_url(rule["document"], rule["number"])
        result = full_text.search(conn, q, doc_id, SEARCH_LIMIT, every)
        result["reading"] = full_text.describe(result)
        result["hits"] = [dict(hit, html=highlight(hit["snippet"], HIT_START, HIT_END),
                               note=also_in(hit).lstrip("; "),
                               url=(glossary_url(hit["document"], hit["term"])
                                    if hit["kind"] == "glossary"
                                    else rule_url(hit["document"], hit["number"])))
                          for hit in result["hits"]]
        return result

    found = await db.execute_fn(find) if q else {"hits": []}
    if isinstance(found, str):
        return Response.redirect(found)
    context = {"q": q, "doc": doc, "all": every, "results": found["hits"],
               "scope": found.get("scope"), "searched": found.get("documents", []),
               "kinds": SEARCH_KINDS, "reading": found.get("reading", []),
               "error": found.get("error"), "limit": SEARCH_LIMIT,
               "documents": await db.execute_fn(pages.documents)}
    return await _page(datasette, request, "rulesdb_search.html", context,
                       status=404 if found.get("error") else 200)


async def robots(datasette: Any) -> Response:
    """Robots are turned away unless the metadata sets `robots: true`."""
    allowed = (datasette.plugin_config("rulesdb") or {}).get("robots")
    return Response.text("User-agent: *\nAllow: /\n" if allowed else ROBOTS_BLOCKED)


@hookimpl
def register_routes(datasette: Any) -> list[tuple[str, Any]]:
    if not enabled(datasette):
        return []
    return [
        (r"^/$", home),
        (r"^/robots\.txt$", robots),
        (r"^/changes\.atom$", feeds.changes),
        (r"^/-/databases(?:\.json)?$", guard.databases),
        (r"^/search$", search),
        (r"^/diff$", diff_index),
        (rf"^/diff/(?P<old>{DOC_ID})/(?P<new>{DOC_ID})$", diff),
        (rf"^/diff/(?P<old>{DOC_ID})/(?P<new>{DOC_ID})/renumbered(?:\.(?P<format>csv|json))?$",
         renumbered),
        (rf"^/{DOC}$", contents),
        (rf"^/{DOC}/glossary$", glossary_index),
        (rf"^/{DOC}/glossary/(?P<slug>[a-z0-9-]+)$", glossary_entry),
        (rf"^/{DOC}/(?P<number>[^/]+)/history$", history),
        (rf"^/{DOC}/(?P<number>[^/]+)/history\.atom$", feeds.history),
        (rf"^/{DOC}/(?P<number>[^/]+)$", rule),
    ]


# Views too large to count on every page view (term_mentions expands 2.3 million mentions
# at full history: 0.9 s for the count alone; rules_fts every rule of every edition through
# its index); their table pages skip the count.
UNCOUNTED = re.compile(r"^/rules/(?:term_mentions|rules_fts)(?:\.\w+)?$")


@hookimpl
def asgi_wrapper(datasette: Any) -> Any:
    """Add `_nocount=1` to the table pages of the UNCOUNTED views; send the SQL of
    Datasette's own pages to their lane (rulesdb.site.lanes), whatever server runs the site;
    answer GET and HEAD only, with security headers (rulesdb.site.guard), and with the
    caching headers of an immutable database (rulesdb.site.caching)."""
    def wrap(app: Any) -> Any:
        async def uncounted(scope: dict, receive: Any, send: Any) -> None:
            query = scope.get("query_string", b"")
            if (scope["type"] == "http" and UNCOUNTED.match(scope.get("path", ""))
                    and b"_nocount=" not in query):
                scope = {**scope, "query_string": query + (b"&" if query else b"")
                         + b"_nocount=1"}
            if scope["type"] == "http" and lanes.datasette_page(scope.get("path", ""),
                                                                _db(datasette).name):
                lane = lanes.QUERY_LANE.set(True)
                try:
                    await app(scope, receive, send)
                finally:
                    lanes.QUERY_LANE.reset(lane)
                return
            await app(scope, receive, send)
        return (guard.guarded(caching.cached(datasette, uncounted)) if enabled(datasette)
                else uncounted)
    return wrap


@hookimpl
def prepare_jinja2_environment(env: Any, datasette: Any) -> None:
    """The site's templates first, and the filters that word the lineage's labels
    (`{{ op|change_words }}`: a page prints no raw label)."""
    if enabled(datasette):
        env.loader = ChoiceLoader([FileSystemLoader(str(TEMPLATES)), env.loader])
        env.filters["change_words"] = change_words
        env.filters["method_words"] = method_words


@hookimpl
def prepare_connection(conn: Any, datasette: Any) -> None:
    conn.create_function("rulesdb_slug", 1, slug, deterministic=True)
    if enabled(datasette):
        bounds.bound(conn, budgets=not lanes.page_thread())


@hookimpl
def handle_exception(datasette: Any, request: Any, exception: BaseException) -> Any:
    """A damaged database, a query past the site's bounds, or a visitor's mistake that
    Datasette takes for a server error: a page that says so."""
    if not enabled(datasette):
        return None
    return (guard.failure_page(datasette, request, exception)
            or mistakes.bad_request(datasette, request, exception))


@hookimpl
def render_cell(value: Any, column: str, table: str | None, datasette: Any) -> Markup | None:
    """A canned query's `url` column becomes a link to the page it names."""
    if (table is None and column == "url" and isinstance(value, str)
            and value.startswith("/") and enabled(datasette)):
        return Markup(f'<a href="{escape(value)}">{escape(value)}</a>')
    return None


@hookimpl
def extra_template_vars(request: Any, datasette: Any) -> dict[str, Any]:
    q = request.args.get("q", "") if request is not None else ""
    return {"rulesdb_search_q": q if isinstance(q, str) else ""}


@hookimpl
def startup(datasette: Any) -> None:
    """Datasette prints a traceback with every local variable for every error, a visitor's
    404 included, when `rich` is installed (spaCy installs it): the rules site has it print
    only real failures (500, not a visitor's mistake: rulesdb.site.mistakes), as a plain
    traceback. The ETag of the pages is worked out."""
    if enabled(datasette):
        from datasette import handle_exception

        handle_exception.rich = None
        mistakes.quiet_tracebacks()
        caching.prepare(datasette)
