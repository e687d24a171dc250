"""Crawl and fuzz the rules site over loopback HTTP: no page unbounded, no visitor's mistake a
server error (issue 33).

Starts `rulesdb serve` on a free port of 127.0.0.1 (or targets --url), then
- crawls from the home page (rulesdb.site.crawl): every internal link followed breadth first,
  up to --per-kind pages of each kind of page, every chapter and section page, history and
  feed of the --focus editions (default: the newest whole CR edition), and the diffs of the
  oldest and newest CR editions and of --distant random pairs of editions as further seeds;
  prints the pages fetched by kind, the slowest and the largest ten, every server error,
  broken link, page over --max-seconds (1 s) or --max-bytes (1 MB), and every page of the
  rules site showing its reader a raw label of the lineage (renumbered_edited: pages print
  words, rulesdb.lineage.words);
- fuzzes (rulesdb.site.fuzz): --fuzz seeded random URLs (default 2,000) over every route
  with hostile parameters; prints the answers by status, the slowest ten, every server error,
  answer over --fuzz-seconds (2 s) and input echoed unescaped.
Exits 1 when anything is wrong. Without --db or --url the server builds the default database
(seeds and whole history). Timings are on the clock, one request at a time: note the load of
the machine (printed) beside them.

Usage:
    python benchmarks/crawl.py [--url http://127.0.0.1:8001] [--db PATH] [--fuzz 2000]
        [--per-kind 60] [--seed 0] [--no-crawl] [--no-fuzz]
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

from serve_latency import start_server

from rulesdb.site import crawl, fuzz
from rulesdb.site.serve import load_metadata

ROOT = Path(__file__).resolve().parent.parent


def http_fetch(base: str, timeout: float = 60.0) -> fuzz.Fetch:
    """A fetch over one kept-alive HTTP connection to `base` (opened again after an error)."""
    parts = urlsplit(base)
    state: dict[str, http.client.HTTPConnection] = {}

    def fetch(path: str) -> fuzz.Answer:
        for attempt in range(2):
            conn = state.get("conn") or http.client.HTTPConnection(
                parts.hostname, parts.port, timeout=timeout)
            state["conn"] = conn
            started = time.perf_counter()
            try:
                conn.request("GET", path)
                response = conn.getresponse()
                body = response.read()
            except (OSError, http.client.HTTPException):
                conn.close()
                state.pop("conn", None)
                if attempt:
                    raise
                continue
            seconds = time.perf_counter() - started
            if response.getheader("connection", "").lower() == "close":
                conn.close()
                state.pop("conn", None)
            return fuzz.Answer(response.status, response.getheader("content-type", ""), body,
                               seconds)
        raise AssertionError("unreachable")

    return fetch


def editions(db: Path) -> list[str]:
    """The whole CR editions of the database, oldest first."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return [row[0] for row in conn.execute(
            "SELECT id FROM documents WHERE kind = 'comprehensive_rules' AND partial = 0 "
            "AND superseded_by IS NULL ORDER BY effective_date")]
    finally:
        conn.close()


def seeds(found: list[str], distant: int, seed: int) -> list[str]:
    """The home page, the diffs of the oldest and newest editions (both ways) and of
    `distant` random pairs at least ten editions apart."""
    chosen = ["/", "/search?q=trample+damage", "/search?q=702.19"]
    if len(found) >= 2:
        chosen += [f"/diff/{found[0]}/{found[-1]}", f"/diff/{found[-1]}/{found[0]}"]
    pick = random.Random(seed)
    for _ in range(distant if len(found) > 10 else 0):
        old = pick.randrange(len(found) - 10)
        new = pick.randrange(old + 10, len(found))
        chosen.append(f"/diff/{found[old]}/{found[new]}")
    return chosen


def show(title: str, pages: list[tuple[float, str, int]], unit: str) -> None:
    print(f"\n{title}")
    for value, path, status in pages:
        shown = f"{value:8.3f} s" if unit == "s" else f"{value / 1e6:8.3f} MB"
        print(f"  {shown}  {status}  {path[:150]}")


def run_crawl(fetch: fuzz.Fetch, db: Path, args: argparse.Namespace) -> int:
    found = editions(db)
    focus = args.focus or found[-1:]
    started = time.perf_counter()
    result = crawl.crawl(fetch, seeds(found, args.distant, args.seed), per_kind=args.per_kind,
                         focus=focus, most=args.most)
    took = time.perf_counter() - started
    print(f"crawl: {len(result.pages)} pages in {took:.0f} s, focus {', '.join(focus)}")
    for what, n in sorted(result.kinds().items()):
        print(f"  {what:26} {n:5}  (links left: {result.skipped[what]})")
    if result.downloads:
        print(f"  downloads, not fetched: {', '.join(sorted(result.downloads))}")
    show("slowest ten", sorted(((p.seconds, p.path, p.status) for p in result.pages),
                               reverse=True)[:10], "s")
    show("largest ten", sorted(((p.size, p.path, p.status) for p in result.pages),
                               reverse=True)[:10], "MB")
    wrong = 0
    for label, pages in (("server errors", result.errors()), ("broken links", result.broken()),
                         (f"over {args.max_seconds} s", result.slow(args.max_seconds)),
                         (f"over {args.max_bytes / 1e6:g} MB", result.large(args.max_bytes))):
        print(f"\n{label}: {len(pages)}")
        for page in pages[:20]:
            print(f"  {page.status} {page.seconds:.3f} s {page.size / 1e6:.3f} MB {page.path} "
                  f"(linked from {page.referrer})")
        wrong += len(pages)
    print(f"\npages showing a raw label (renumbered_edited, …) to their reader: {len(result.raw)}")
    for path, labels in list(result.raw.items())[:20]:
        print(f"  {path}: {', '.join(sorted(set(labels)))}")
    return wrong + len(result.raw)


def run_fuzz(fetch: fuzz.Fetch, db: Path, args: argparse.Namespace) -> int:
    vocabulary = fuzz.Vocabulary.read(db, load_metadata())
    started = time.perf_counter()
    report = fuzz.run(fetch, vocabulary, args.fuzz, seed=args.seed,
                      max_seconds=args.fuzz_seconds)
    took = time.perf_counter() - started
    print(f"\nfuzz: {report.urls} URLs (seed {args.seed}) in {took:.0f} s; answers by status: "
          + ", ".join(f"{status}: {n}" for status, n in sorted(report.statuses.items())))
    show("slowest ten", report.slowest, "s")
    wrong = 0
    for label in ("server error", "slower than", "input echoed"):
        found = report.problems(label)
        print(f"\n{label}: {len(found)}")
        for finding in found[:20]:
            print(f"  {finding.status} {finding.seconds:.3f} s {finding.path[:200]}")
        wrong += len(found)
    return wrong


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="A running site (default: start one).")
    parser.add_argument("--db", type=Path, help="Database (default: build the full history).")
    parser.add_argument("--per-kind", type=int, default=60)
    parser.add_argument("--most", type=int, default=6000, help="Pages of the crawl at most.")
    parser.add_argument("--focus", action="append", help="Editions crawled whole (repeat).")
    parser.add_argument("--distant", type=int, default=4, help="Random distant diffs.")
    parser.add_argument("--fuzz", type=int, default=2000, help="Fuzzed URLs.")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-seconds", type=float, default=1.0)
    parser.add_argument("--max-bytes", type=int, default=1_000_000)
    parser.add_argument("--fuzz-seconds", type=float, default=2.0)
    parser.add_argument("--no-crawl", action="store_true")
    parser.add_argument("--no-fuzz", action="store_true")
    args = parser.parse_args()
    if args.url and not args.db:
        parser.error("--url needs --db: the database the site serves (its ids and tables)")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as scratch:
        db = args.db or Path(scratch) / "rules.db"
        process = None
        if args.url:
            base = args.url.rstrip("/")
        else:
            process, base = start_server(db)
        try:
            fetch = http_fetch(base)
            fetch("/")  # the first request starts the site's caches
            wrong = 0 if args.no_crawl else run_crawl(fetch, db, args)
            wrong += 0 if args.no_fuzz else run_fuzz(fetch, db, args)
        finally:
            if process is not None:
                process.terminate()
                process.wait()
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
