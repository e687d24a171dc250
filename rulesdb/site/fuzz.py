"""A seeded fuzzer of the rules site: random URLs over every route (the rules pages and
Datasette's own) with hostile path segments and parameters, each answer checked: no server
error (500), no answer slower than a bound, and no input echoed unescaped in HTML or XML.

The site is reached through a `fetch(path) -> Answer` function, in-process (tests) or over
HTTP (benchmarks/crawl.py --fuzz); the vocabulary of real ids comes from the database file.
"""

from __future__ import annotations

import asyncio
import random
import re
import sqlite3
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import yaml

MARK = "fz"  # every hostile markup carries <x-fzN>, N the URL's number


@dataclass(frozen=True)
class Answer:
    """What the site answered to one GET."""

    status: int
    content_type: str
    body: bytes
    seconds: float


Fetch = Callable[[str], Answer]


def in_process(datasette: Any) -> Fetch:
    """A fetch of the site of `datasette` in this process (its startup run first), timed
    on the clock."""
    loop = asyncio.new_event_loop()
    loop.run_until_complete(datasette.invoke_startup())

    def fetch(path: str) -> Answer:
        started = time.perf_counter()
        response = loop.run_until_complete(datasette.client.get(path))
        return Answer(response.status_code, response.headers.get("content-type", ""),
                      response.content, time.perf_counter() - started)

    return fetch


@dataclass
class Vocabulary:
    """The real names of a database that URLs are made of: documents, rule numbers,
    glossary slugs, tables with their columns, canned queries with their parameters."""

    documents: list[str]
    numbers: list[str]
    slugs: list[str]
    tables: dict[str, list[str]]
    queries: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def read(cls, db_path: Path, metadata: dict | None = None) -> Vocabulary:
        """The vocabulary of the database at `db_path` (and the canned queries of
        `metadata`, the site's metadata)."""
        conn = sqlite3.connect(f"file:{quote(str(db_path))}?mode=ro", uri=True)
        try:
            documents = [row[0] for row in conn.execute("SELECT id FROM documents ORDER BY id")]
            numbers = [row[0] for row in conn.execute(
                "SELECT number FROM rule_rows WHERE id % 97 = 0 OR depth <= 1 LIMIT 400")]
            slugs = [re.sub(r"[^a-z0-9]+", "-", row[0].lower()).strip("-") for row in
                     conn.execute("SELECT term FROM glossary WHERE id % 53 = 0 LIMIT 100")]
            tables = {name: [row[1] for row in conn.execute(f"PRAGMA table_info([{name}])")]
                      for (name,) in conn.execute(
                          "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') "
                          "AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%_fts_%'")}
        finally:
            conn.close()
        queries = {}
        for name, canned in ((metadata or {}).get("databases", {}).get("rules", {})
                             .get("queries", {}) or {}).items():
            queries[name] = sorted(set(re.findall(r":(\w+)", canned.get("sql", ""))))
        return cls(documents, numbers, slugs, tables, queries)


# values a visitor can type, by what they try
HOSTILE = [
    "", " ", "0", "-1", "1e309", "NaN", "99999999999999999999999999", "-99999999999999",
    "1.5", "0x10", "٣", "１２", "%", "%25", "%zz", "%ff%fe", "..", "../../etc/passwd", "/",
    "\u202etxt", "e\u0301", "😀", "\ud7ff", "日本語", "\x00", "\x1f", "\x7f", "tab\there",
    "line\nbreak", "'", '"', "`", "';--", "\" OR 1=1 --", "1; DROP TABLE rules",
    "<script>alert(1)</script>", "javascript:alert(1)", "{{7*7}}", "${7*7}",
    '"unterminated', "NEAR(", "NEAR(a b, -1)", "*", "a*", "^trample", "trample AND", "OR",
    "NOT NOT", "text:trample", "rules_fts:x", "(((", ")", "-", "+", "a\"b", "\\", "[", "]",
    "x" * 5000, "trample " * 300, "A" * 20_000,
]
# Datasette's table parameters, and filters on a column
TABLE_PARAMS = ["_sort", "_sort_desc", "_size", "_facet", "_facet_array", "_facet_date",
                "_search", "_searchmode", "_col", "_nocol", "_next", "_labels", "_shape",
                "_json", "_through", "_where", "_timelimit", "_nocount", "_nofacet",
                "_trace", "_fts_table", "_fts_pk", "_sort_by_desc", "_filter_column",
                "_filter_op", "_filter_value", "_stream", "_dl", "_hash", "_nl"]
OPS = ["exact", "not", "contains", "endswith", "startswith", "gt", "gte", "lt", "lte",
       "like", "notlike", "glob", "in", "notin", "arraycontains", "arraynotcontains", "date",
       "isnull", "notnull", "isblank", "notblank", "bogus"]
FORMATS = ["", ".json", ".csv", ".atom", ".xml", ".txt", ".JSON"]


class Fuzzer:
    """Random URLs over the site's routes, made from a seeded generator."""

    def __init__(self, vocabulary: Vocabulary, seed: int = 0) -> None:
        self.words = vocabulary
        self.random = random.Random(seed)

    def value(self, real: list[str], n: int) -> str:
        """A value for a path segment or parameter: real, hostile, or markup with a mark."""
        roll = self.random.random()
        if roll < 0.3 and real:
            return self.random.choice(real)
        if roll < 0.55:
            return f"'\"><x-{MARK}{n}>" + self.random.choice(["", "trample", "702.19"])
        return self.random.choice(HOSTILE)

    def urls(self, count: int) -> Iterator[str]:
        """`count` URLs, each a route with hostile parts."""
        routes = [self._rules_page, self._datasette_page, self._table_page, self._query_page,
                  self._sql_page]
        for n in range(count):
            yield self.random.choice(routes)(n)

    def _seg(self, real: list[str], n: int) -> str:
        return quote(self.value(real, n), safe="")

    def _params(self, names: list[str], n: int, most: int = 4) -> str:
        chosen = [self.random.choice(names) for _ in range(self.random.randint(0, most))]
        pairs = [f"{quote(name, safe='')}={quote(self.value(self._real(name), n), safe='')}"
                 for name in chosen]
        if self.random.random() < 0.1:  # a percent sign that decodes to nothing
            pairs.append(self.random.choice(["%zz=1", "q=%ff%fe", "page=%", "%00=%00"]))
        return ("?" + "&".join(pairs)) if pairs else ""

    def _real(self, name: str) -> list[str]:
        """Real values for a parameter of this name."""
        columns = sorted({c for cols in self.words.tables.values() for c in cols})
        return {"doc": self.words.documents, "old": self.words.documents,
                "new": self.words.documents, "step": self.words.documents,
                "edition": self.words.documents, "number": self.words.numbers,
                "change": ["edited", "added", "renumbered", "outside_coverage"],
                "page": ["1", "2", "3", "40"], "q": ["trample", "first strike", "702.19"],
                "_sort": columns, "_sort_desc": columns, "_facet": columns, "_col": columns,
                "_nocol": columns, "_size": ["1", "10", "max", "1000", "1001"],
                "_shape": ["array", "objects", "arrayfirst", "object", "bogus"],
                "_searchmode": ["raw", "escaped"]}.get(name, [])

    def _rules_page(self, n: int) -> str:
        doc, number = self._seg(self.words.documents, n), self._seg(self.words.numbers, n)
        docs = self.words.documents
        path = self.random.choice([
            "/", "/search", "/diff", f"/diff/{doc}/{self._seg(docs, n)}",
            f"/diff/{doc}/{self._seg(docs, n)}/renumbered"
            + self.random.choice(["", ".csv", ".json"]),
            f"/{doc}", f"/{doc}/{number}", f"/{doc}/{number}/history",
            f"/{doc}/{number}/history.atom", f"/{doc}/glossary",
            f"/{doc}/glossary/{self._seg(self.words.slugs, n)}", "/changes.atom",
            "/robots.txt", f"/{self._seg([], n)}", f"/{doc}/{number}/{self._seg([], n)}"])
        return path + self._params(["q", "doc", "page", "change", "step", "old", "new"], n)

    def _datasette_page(self, n: int) -> str:
        path = self.random.choice([
            "/rules", "/rules.json", "/-/versions", "/-/plugins", "/-/settings",
            "/-/metadata", "/-/databases", "/-/threads", "/-/actor", "/-/config",
            "/-/static/app.css", f"/-/static/{self._seg([], n)}", "/-/permissions",
            "/-/messages", "/-/patterns", "/-/allow-debug", f"/-/{self._seg([], n)}",
            f"/rules/{self._seg([], n)}", f"/{self._seg([], n)}.json"])
        return path + self._params(["_shape", "_json", "_trace", "_timelimit", "sql", "q"], n)

    def _table_page(self, n: int) -> str:
        table = self.random.choice([*self.words.tables, self.value([], n)])
        columns = self.words.tables.get(table, ["id"])
        names = TABLE_PARAMS + [f"{c}__{self.random.choice(OPS)}" for c in columns] + columns \
            + [f"_search_{self.random.choice(columns)}"]
        fmt = self.random.choice(FORMATS)
        row = self.random.choice(["", f"/{self._seg(['1', '2', '100000'], n)}"])
        return f"/rules/{quote(table, safe='')}{row}{fmt}" + self._params(names, n, most=6)

    def _query_page(self, n: int) -> str:
        name = self.random.choice([*self.words.queries, "no_such_query"])
        params = [*self.words.queries.get(name, ["q"]), "_shape", "_json", "_size"]
        return f"/rules/{name}{self.random.choice(FORMATS)}" + self._params(params, n, most=5)

    def _sql_page(self, n: int) -> str:
        table = self.random.choice(list(self.words.tables) or ["rules"])
        value = self.value([], n).replace("'", "''")
        sql = self.random.choice([
            f"select * from [{table}] where rowid = '{value}'",
            f"select '{value}' as echo",
            f"select * from rules_fts where rules_fts match '{value}'",
            f"select count(*) from [{table}] group by '{value}'",
            value])
        return "/rules" + self.random.choice(["", ".json"]) + "?sql=" + quote(sql, safe="") \
            + self._params(["_shape", "_json", "_timelimit", "p0"], n, most=2).replace("?", "&")


@dataclass
class Finding:
    """One thing wrong with one answer."""

    path: str
    problem: str
    status: int
    seconds: float


def echoed(answer: Answer, path: str) -> bool:
    """Whether an HTML or XML answer holds markup of the URL unescaped (<x-fzN)."""
    kind = answer.content_type.split(";")[0].strip().lower()
    if not (kind.endswith("html") or kind.endswith("xml")):
        return False
    marks = set(re.findall(rf"x-{MARK}\d+", path))
    body = answer.body.decode("utf-8", "replace")
    return any(f"<{mark}" in body for mark in marks)


def check(path: str, answer: Answer, max_seconds: float) -> list[Finding]:
    """What is wrong with one answer: a server error, too slow, input echoed unescaped."""
    found = []
    if answer.status >= 500:
        found.append(Finding(path, f"server error {answer.status}", answer.status,
                             answer.seconds))
    if answer.seconds > max_seconds:
        found.append(Finding(path, f"slower than {max_seconds} s", answer.status,
                             answer.seconds))
    if echoed(answer, path):
        found.append(Finding(path, "input echoed unescaped", answer.status, answer.seconds))
    return found


@dataclass
class Report:
    """What a fuzzing run found."""

    urls: int = 0
    statuses: Counter = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)
    slowest: list[tuple[float, str, int]] = field(default_factory=list)

    def problems(self, kind: str) -> list[Finding]:
        """The findings whose problem starts with `kind`."""
        return [f for f in self.findings if f.problem.startswith(kind)]


def run(fetch: Fetch, vocabulary: Vocabulary, count: int, seed: int = 0,
        max_seconds: float = 2.0) -> Report:
    """Fetch `count` fuzzed URLs and check each answer."""
    report = Report()
    for path in Fuzzer(vocabulary, seed).urls(count):
        answer = fetch(path)
        report.urls += 1
        report.statuses[answer.status] += 1
        report.findings.extend(check(path, answer, max_seconds))
        report.slowest.append((answer.seconds, path, answer.status))
        report.slowest = sorted(report.slowest, reverse=True)[:10]
    return report


def load_metadata(path: Path) -> dict:
    """The site's metadata (for the canned queries)."""
    return yaml.safe_load(path.read_text(encoding="utf-8"))
