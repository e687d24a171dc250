"""A crawler of the rules site: from the home page (and a few seed URLs), every internal link
followed breadth first, up to a number of pages of each kind, each answer checked: no server
error, no link to a missing page, each answer within a time and a size.

The site is reached through a `fetch(path) -> Answer` function (rulesdb.site.fuzz.Answer), in
process (tests) or over HTTP (benchmarks/crawl.py). Pages are sorted into kinds by their URL
(`kind`), so that a crawl can cover every kind without walking every rule of every edition:
the documents named in `focus` get every chapter and section page, history and feed.

The rules site's pages and feeds are also read as a reader sees them (their text, not their
markup, URLs or class names) for a raw label of the lineage ("renumbered_edited",
rulesdb.lineage.words.RAW_LABELS): they print words. Datasette's own pages of the tables show
the data as stored, raw labels included, and are not read so.
"""

from __future__ import annotations

import html
import re
from collections import Counter, deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from html.parser import HTMLParser

from ..lineage.words import RAW_LABELS
from .fuzz import Answer, Fetch

DOC = r"[a-z]+(?:-[a-z]+)*-\d{4}(?:-\d{2}){0,2}(?:-[a-z][a-z0-9]*)?"
# (kind, pattern of the path and query); the first that matches names a URL's kind
KINDS: list[tuple[str, str]] = [
    ("home", r"/"), ("robots", r"/robots\.txt"), ("search", r"/search(\?.*)?"),
    ("releases feed", r"/changes\.atom"), ("diff chooser", r"/diff(\?.*)?"),
    ("renumbered list", rf"/diff/{DOC}/{DOC}/renumbered(\.csv|\.json)?"),
    ("diff page", rf"/diff/{DOC}/{DOC}\?.*"), ("diff", rf"/diff/{DOC}/{DOC}"),
    ("contents", rf"/{DOC}"), ("glossary", rf"/{DOC}/glossary"),
    ("glossary entry", rf"/{DOC}/glossary/[^/]+"),
    ("history step", rf"/{DOC}/[^/?]+/history\?.*step=.*"),
    ("history page", rf"/{DOC}/[^/?]+/history\?.*"),
    ("chapter history", rf"/{DOC}/\d/history"), ("section history", rf"/{DOC}/\d{{3}}/history"),
    ("history", rf"/{DOC}/[^/?]+/history"),
    ("chapter feed", rf"/{DOC}/\d/history\.atom"),
    ("section feed", rf"/{DOC}/\d{{3}}/history\.atom"),
    ("history feed", rf"/{DOC}/[^/?]+/history\.atom"),
    ("chapter", rf"/{DOC}/\d"), ("section", rf"/{DOC}/\d{{3}}"),
    ("rule", rf"/{DOC}/\d{{3}}\.\d+"), ("subrule", rf"/{DOC}/\d{{3}}\.\d+[a-z]"),
    ("rulings or rulebook item", rf"/{DOC}/[^/?]+"),
    ("static file", r"/-/static.*"), ("datasette meta", r"/-/.*"),
    ("database download", r"/rules\.db.*"), ("database", r"/rules(\.json|\.csv)?(\?.*)?"),
    ("csv stream", r"/rules/.*_stream=(on|1|true).*"),
    ("table json", r"/rules/[^/?]+\.json(\?.*)?"), ("table csv", r"/rules/[^/?]+\.csv(\?.*)?"),
    ("table", r"/rules/[^/?]+(\?.*)?"), ("row", r"/rules/[^/?]+/[^?]+"),
]
_KINDS = [(name, re.compile(pattern)) for name, pattern in KINDS]
# downloads are not pages: the database file (240 MB at full history) is served as a file
NOT_FETCHED = {"database download"}
# Datasette's pages of the data as stored (not read for raw labels)
DATA_KINDS = {"static file", "datasette meta", "database download", "database", "csv stream",
              "table json", "table csv", "table", "row"}
_RAW = re.compile(r"\b(?:" + "|".join(sorted(RAW_LABELS)) + r")\b")
# kinds whose pages of the focus documents are all crawled
FOCUSED = {"chapter", "section", "chapter history", "section history", "chapter feed",
           "section feed", "contents", "glossary"}


def kind(path: str) -> str:
    """The kind of page a site path (with its query) is."""
    for name, pattern in _KINDS:
        if pattern.fullmatch(path):
            return name
    return "other"


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href")
        if tag in ("a", "link") and href:
            self.found.append(href)


class _Text(HTMLParser):
    """The text of an HTML page as a reader sees it, tooltips included (scripts and styles
    left out)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._hidden += 1
        # what the reader sees of a tag: a tooltip, an image's text, a field's hint
        self.parts.extend(value for name, value in attrs
                          if name in ("title", "alt", "aria-label", "placeholder") and value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._hidden:
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


def shown_text(answer: Answer) -> str:
    """What a reader reads of an HTML page or an Atom feed: its text, an entry's HTML content
    read as a page in turn; "" for anything else."""
    kind_of = answer.content_type.split(";")[0].strip().lower()
    text = answer.body.decode("utf-8", "replace")
    if kind_of.endswith("xml"):  # the feed's elements' text, its escaped HTML unescaped
        text = html.unescape(re.sub(r"<[^>]*>", " ", text))
    elif kind_of != "text/html":
        return ""
    parser = _Text()
    parser.feed(text)
    return " ".join(parser.parts)


def raw_labels(answer: Answer) -> list[str]:
    """The raw labels a page or feed shows its reader, in order."""
    return _RAW.findall(shown_text(answer))


def links(answer: Answer, origin: str = "http://localhost") -> list[str]:
    """The site paths an HTML page or Atom feed links to (without their #fragment)."""
    kind_of = answer.content_type.split(";")[0].strip().lower()
    text = answer.body.decode("utf-8", "replace")
    if kind_of == "text/html":
        parser = _Links()
        parser.feed(text)
        hrefs = parser.found
    elif kind_of.endswith("xml"):
        hrefs = [html.unescape(h) for h in re.findall(r'<(?:[a-z]+:)?link [^>]*href="([^"]+)"',
                                                     text)]
    else:
        return []
    found = []
    for href in hrefs:
        href = href.split("#")[0]
        if href.startswith(origin):
            href = href[len(origin):] or "/"
        if href.startswith("/") and not href.startswith("//"):
            found.append(href)
    return found


@dataclass
class Page:
    """One page the crawl fetched."""

    path: str
    kind: str
    status: int
    seconds: float
    size: int
    referrer: str | None


@dataclass
class Crawl:
    """A crawl's pages and what is wrong with them."""

    pages: list[Page] = field(default_factory=list)
    skipped: Counter = field(default_factory=Counter)  # links left, by kind
    downloads: set[str] = field(default_factory=set)
    raw: dict[str, list[str]] = field(default_factory=dict)  # the raw labels a page shows

    def errors(self) -> list[Page]:
        """Pages answered with a server error."""
        return [p for p in self.pages if p.status >= 500]

    def broken(self) -> list[Page]:
        """Links the site printed that lead to no page (4xx)."""
        return [p for p in self.pages if 400 <= p.status < 500 and p.referrer is not None]

    def slow(self, seconds: float) -> list[Page]:
        return [p for p in self.pages if p.seconds > seconds]

    def large(self, size: int) -> list[Page]:
        return [p for p in self.pages if p.size > size]

    def kinds(self) -> Counter:
        """Pages fetched, by kind."""
        return Counter(p.kind for p in self.pages)


def crawl(fetch: Fetch, seeds: Iterable[str] = ("/",), per_kind: int = 50,
          limits: dict[str, int] | None = None, focus: Iterable[str] = (),
          most: int = 5000) -> Crawl:
    """Walk the site breadth first from `seeds`, fetching at most `per_kind` pages of each
    kind (or `limits[kind]`), every page of the FOCUSED kinds of the documents in `focus`,
    and `most` pages in all."""
    limits = limits or {}
    focused = tuple(f"/{doc}/" for doc in focus) + tuple(f"/{doc}" for doc in focus)
    result = Crawl()
    taken: Counter = Counter()
    queue: deque[tuple[str, str | None]] = deque((seed, None) for seed in seeds)
    seen = {seed for seed in seeds}
    while queue and len(result.pages) < most:
        path, referrer = queue.popleft()
        what = kind(path)
        if what in NOT_FETCHED:
            result.downloads.add(path)
            continue
        in_focus = what in FOCUSED and (path in focused or path.startswith(focused))
        if not in_focus and taken[what] >= limits.get(what, per_kind):
            result.skipped[what] += 1
            continue
        taken[what] += 1
        answer = fetch(path)
        result.pages.append(Page(path, what, answer.status, answer.seconds, len(answer.body),
                                 referrer))
        if answer.status != 200:
            continue
        if what not in DATA_KINDS and (shown := raw_labels(answer)):
            result.raw[path] = shown
        for link in links(answer):
            if link not in seen:
                seen.add(link)
                queue.append((link, path))
    return result

