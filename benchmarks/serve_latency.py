"""Latency and load of the rules site over loopback HTTP.

Starts `rulesdb serve` on a free port of 127.0.0.1 (or targets --url), then prints:
- p50/p95/p99 of rule pages, searches, history pages and Datasette table pages (and, without
  target, glossary and diff pages, the rest of the load's mix), requested one at a time
  (targets, issue 18: rule page p50 <= 50 ms, search p50 <= 100 ms, history page p50 <= 100
  ms, table page p50 <= 300 ms), and of the Atom feeds and the editions' pages
  with their release notes (issue 22: /changes.atom and /{doc}/{number}/history.atom
  p95 <= 100 ms, edition page p50 <= 50 ms), with the slowest request of each, and the
  first request of /changes.atom alone (the feed is made then and kept for the database file);
- a bounded load: --requests requests (default 2,000) over --concurrency connections
  (default 50) mixing rule pages, searches, glossary entries, history, diff and table pages;
  every response must be 200 (errors are counted and make the script exit 1; target p99
  <= 1 s).
Without --db or --url the server builds the default database (seeds and whole history).

Usage:
    python benchmarks/serve_latency.py [--url http://127.0.0.1:8001] [--db PATH]
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote, urlsplit

ROOT = Path(__file__).resolve().parent.parent
WORDS = ["trample", "combat damage", "first strike", "mana ability", "sacrifice", "token",
         "legend rule", "planeswalker", "counter target spell", "upkeep", "phasing",
         "protection", "regenerate", "banding", "split second", "copy", "storm"]

# Pages timed one at a time: name -> (kind of URL, rounds multiplier, percentile, target in ms
# or None: a page of the load's mix without a target of its own)
ONE_AT_A_TIME: dict[str, tuple[str, int, str, int | None]] = {
    "rule_page": ("rule", 1, "p50", 50), "search": ("search", 4, "p50", 100),
    "history_page": ("history", 1, "p50", 100), "table_page": ("table", 4, "p50", 300),
    "changes_feed": ("changes_feed", 20, "p95", 100),
    "history_feed": ("history_feed", 1, "p95", 100), "edition_page": ("edition", 1, "p50", 50),
    "glossary_page": ("glossary", 1, "p50", None), "diff_page": ("diff", 1, "p50", None),
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(db: Path, extra: list[str] | None = None) -> tuple[subprocess.Popen, str]:
    """`rulesdb serve` of `db` (with the options `extra`) on a free port, once it answers."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "rulesdb", "serve", "--db", str(db), "--port", str(port),
         "--sources", str(ROOT / "data" / "sources"), *(extra or [])],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        if process.poll() is not None:
            raise SystemExit("rulesdb serve exited early")
        try:
            with urllib.request.urlopen(base + "/robots.txt", timeout=2):
                return process, base
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                raise SystemExit("rulesdb serve did not answer in 120 s") from None
            time.sleep(0.2)


def paths(db: Path, seed: int = 7) -> dict[str, list[str]]:
    """Sample URLs of each page type, read from the database the server uses."""
    rng = random.Random(seed)
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    rules = [f"/{d}/{n}" for d, n in conn.execute(
        "SELECT document, number FROM rules WHERE document LIKE 'cr-%' AND kind IN "
        "('rule', 'subrule')")]
    terms = [f"/{d}/glossary/{slug}" for d, slug in conn.execute(
        "SELECT document, lower(replace(replace(term, ' ', '-'), ',', '')) FROM glossary "
        "WHERE term NOT GLOB '*[^A-Za-z ]*'")]
    pairs = [f"/diff/{a}/{b}" for a, b in conn.execute(
        "SELECT DISTINCT old_doc, new_doc FROM alignments")]
    editions = [f"/{d}" for (d,) in conn.execute(
        "SELECT id FROM documents WHERE kind = 'comprehensive_rules' ORDER BY effective_date")]
    conn.close()
    history = [p + "/history" for p in rng.sample(rules, min(50, len(rules)))]
    return {
        "rule": rng.sample(rules, min(200, len(rules))),
        "search": [f"/search?q={quote(w)}" for w in WORDS],
        "glossary": rng.sample(terms, min(50, len(terms))),
        "history": history,
        "diff": pairs,
        "changes_feed": ["/changes.atom"],
        "history_feed": [p + ".atom" for p in history],
        "edition": editions,
        "table": ["/rules/rules", "/rules/rule_rows", "/rules/glossary", "/rules/term_mentions",
                  "/rules/references", "/rules/alignments", "/rules/rules?_search=trample",
                  "/rules/rules?document=cr-2026-01-16"],
    }


def fetch(conn: http.client.HTTPConnection, path: str) -> tuple[int, float]:
    t0 = time.perf_counter()
    conn.request("GET", path)
    response = conn.getresponse()
    response.read()
    return response.status, time.perf_counter() - t0


def first_request(base: str, path: str) -> float:
    """Milliseconds of one request on a fresh connection."""
    conn = http.client.HTTPConnection(urlsplit(base).netloc, timeout=30)
    _, seconds = fetch(conn, path)
    conn.close()
    return seconds * 1000


def percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    cut = statistics.quantiles(ordered, n=100, method="inclusive")
    return {"p50": cut[49] * 1000, "p95": cut[94] * 1000, "p99": cut[98] * 1000,
            "max": ordered[-1] * 1000, "n": len(ordered)}


def sequential(base: str, urls: list[str], rounds: int) -> tuple[dict[str, float], int]:
    netloc = urlsplit(base).netloc
    conn = http.client.HTTPConnection(netloc, timeout=30)
    for url in urls[:5]:  # warm-up: first requests pay template compilation
        fetch(conn, url)
    times, errors = [], 0
    for _ in range(rounds):
        for url in urls:
            status, seconds = fetch(conn, url)
            errors += status != 200
            times.append(seconds)
    conn.close()
    return percentiles(times), errors


def send(base: str, next_url: Callable[[], str | None], times: list[float],
         errors: list[str], lock: threading.Lock) -> None:
    """Request the URLs `next_url` gives over one connection until it gives None, adding the
    time of each answer to `times` and what is not a 200 to `errors`."""
    netloc = urlsplit(base).netloc
    conn = http.client.HTTPConnection(netloc, timeout=60)
    while (url := next_url()) is not None:
        try:
            status, seconds = fetch(conn, url)
        except (OSError, http.client.HTTPException) as exc:
            conn.close()
            conn = http.client.HTTPConnection(netloc, timeout=60)
            with lock:
                errors.append(f"{url}: {exc!r}")
            continue
        with lock:
            times.append(seconds)
            if status != 200:
                errors.append(f"{url}: HTTP {status}")
    conn.close()


def load(base: str, urls: list[str], total: int, concurrency: int) -> dict:
    lock = threading.Lock()
    queue = iter(range(total))
    times: list[float] = []
    errors: list[str] = []

    def next_url() -> str | None:
        with lock:
            index = next(queue, None)
        return None if index is None else urls[index % len(urls)]

    started = time.perf_counter()
    threads = [threading.Thread(target=send, args=(base, next_url, times, errors, lock))
               for _ in range(concurrency)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    return {**percentiles(times), "errors": len(errors), "first_errors": errors[:5],
            "seconds": elapsed, "per_second": total / elapsed}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", help="target a running server instead of starting one")
    parser.add_argument("--db", type=Path, help="the database the server uses "
                        "[default: a fresh build in a temporary folder]")
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "rules.db"
        process = None
        base = args.url
        if base is None:
            process, base = start_server(db)
        elif not db.is_file():
            raise SystemExit("--url needs --db (the database the server uses) to pick URLs")
        try:
            sample = paths(db)
            feed_first = first_request(base, "/changes.atom")
            alone = {name: sequential(base, sample[kind], args.rounds * repeat)
                     for name, (kind, repeat, _, _) in ONE_AT_A_TIME.items()}
            mixed = [u for kind in ("rule", "search", "glossary", "history", "diff", "table",
                                    "changes_feed", "history_feed", "edition")
                     for u in sample[kind]]
            random.Random(1).shuffle(mixed)
            loaded = load(base, mixed, args.requests, args.concurrency)
        finally:
            if process is not None:
                process.terminate()
                process.wait(timeout=10)
    result = {name: {**stats, "errors": errors} for name, (stats, errors) in alone.items()}
    result["changes_feed"]["first"] = feed_first
    result["load"] = {**loaded, "requests": args.requests, "concurrency": args.concurrency}
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for name, (_, _, key, target) in ONE_AT_A_TIME.items():
            s = result[name]
            verdict = (f"target {key} <= {target} ms: {'met' if s[key] <= target else 'MISSED'}"
                       if target else "no target; in the load's mix")
            print(f"{name:12} n={s['n']:5}  p50 {s['p50']:6.1f} ms  p95 {s['p95']:6.1f} ms  "
                  f"p99 {s['p99']:6.1f} ms  max {s['max']:6.1f} ms  errors {s['errors']}  "
                  f"({verdict})")
        print(f"changes_feed first request (the feed is made then, and kept for this database "
              f"file): {result['changes_feed']['first']:.1f} ms")
        s = result["load"]
        print(f"load       {args.requests} requests, {args.concurrency} connections: "
              f"{s['seconds']:.1f} s, {s['per_second']:.0f} req/s, p50 {s['p50']:.1f} ms  "
              f"p95 {s['p95']:.1f} ms  p99 {s['p99']:.1f} ms  errors {s['errors']}  "
              f"(target 0 errors, p99 <= 1000 ms)")
        for line in s["first_errors"]:
            print(f"  error: {line}")
    failed = (result["load"]["errors"] or result["load"]["p99"] > 1000
              or any(result[name]["errors"] or (target and result[name][key] > target)
                     for name, (_, _, key, target) in ONE_AT_A_TIME.items()))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
