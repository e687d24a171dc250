"""Search latency at full history: `rulesdb search` in fresh processes, and the site's page.

Run: python benchmarks/search_latency.py [--db PATH] [--runs N] [--site-requests N]

- Scale: the machine check (add_corpus.py) and `rulesdb rule 702.19` cold, beside which each
  search is given as a ratio (the machine's speed varies by days; the ratio does not).
- Cold: each query of a mix (one word, slang, a keyword pair, an obsolete term, a 15-word
  question, --all-editions, --doc) runs as `rulesdb search QUERY` in a fresh process, as a
  user runs it, --runs times (median and worst), with Python's bytecode cached (the first
  run of each writes it). Target (issue 29): every search ≤ 150 ms.
- In process: the questions of tests/data/search_questions.tsv through
  rulesdb.lookup.search.search on one connection (p50, p95, max).
- Site: `rulesdb serve` on 127.0.0.1, /search?q=… for the same questions, one request at a
  time (p50, p95). Target: p50 ≤ 50 ms.
Without --db the user's database is used (rulesdb.places.user), built first when missing.
"""

from __future__ import annotations

import argparse
import http.client
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from add_corpus import installed_env, machine_check, user_database  # noqa: E402
from search_quality import load_questions  # noqa: E402
from serve_latency import start_server  # noqa: E402

COLD = [
    ("one word", ["trample"]),
    ("slang", ["etb trigger"]),
    ("keyword pair", ["deathtouch trample"]),
    ("obsolete term", ["mana burn"]),
    ("15-word question", ["what happens if both players go to zero life at the same time in "
                          "a two headed giant game"]),
    ("every edition", ["banding", "--all-editions"]),
    ("one document", ["combat damage", "--doc", "cr-2009-02-01-flattened"]),
]
COLD_TARGET_MS = 150
SITE_TARGET_MS = 50


def cold(db: Path, args: list[str], runs: int, command: str = "search",
         first: str | None = None) -> list[float]:
    """Milliseconds of `rulesdb search ARGS` (or another command) in fresh processes (the
    first run, which may write bytecode, not counted)."""
    command_line = [sys.executable, "-m", "rulesdb", command, *([first] if first else []),
                    *args, "--db", str(db), *(["--limit", "10"] if command == "search" else [])]
    env = installed_env(COLUMNS="100")
    subprocess.run(command_line, capture_output=True, env=env, check=False)
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command_line, capture_output=True, env=env, check=False)
        times.append((time.perf_counter() - started) * 1000)
    return times


def in_process(db: Path, queries: list[str]) -> list[float]:
    from rulesdb.lookup.query import connect
    from rulesdb.lookup.search import search

    conn = connect(db)
    search(conn, "warm up", None, 10)
    times = []
    for query in queries:
        started = time.perf_counter()
        search(conn, query, None, 10)
        times.append((time.perf_counter() - started) * 1000)
    conn.close()
    return times


def site(db: Path, queries: list[str]) -> list[float]:
    process, base = start_server(db)
    try:
        parts = urlsplit(base)
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        conn.request("GET", "/search?q=warm+up")
        conn.getresponse().read()
        times = []
        for query in queries:
            started = time.perf_counter()
            conn.request("GET", f"/search?q={quote(query)}")
            response = conn.getresponse()
            response.read()
            times.append((time.perf_counter() - started) * 1000)
            if response.status != 200:
                raise SystemExit(f"/search?q={query}: {response.status}")
        return times
    finally:
        process.terminate()
        process.wait()


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    return (f"p50 {statistics.median(ordered):.1f} ms  p95 "
            f"{ordered[int(0.95 * (len(ordered) - 1))]:.1f} ms  max {ordered[-1]:.1f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", type=Path, default=None,
                        help="a full-history database [default: the user's, built when missing]")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--site-requests", type=int, default=169)
    args = parser.parse_args()
    if args.db is None:
        args.db = user_database()
    failed = 0
    machine_check()
    base = cold(args.db, [], args.runs, command="rule", first="702.19")
    print(f"`rulesdb rule 702.19` alone, for scale: median {statistics.median(base):.1f} ms")
    print(f"cold `rulesdb search` in fresh processes, {args.runs} runs each "
          f"(target ≤ {COLD_TARGET_MS} ms):")
    for name, query in COLD:
        times = cold(args.db, query, args.runs)
        worst = max(times)
        failed += worst > COLD_TARGET_MS
        print(f"  {name:<17} median {statistics.median(times):6.1f} ms  worst {worst:6.1f} ms"
              f"  ({statistics.median(times) / statistics.median(base):.2f}x `rule`)"
              f"  {'met' if worst <= COLD_TARGET_MS else 'NOT met'}")
    queries = [question.query for question in load_questions()]
    print(f"in process, {len(queries)} questions: {summary(in_process(args.db, queries))}")
    times = site(args.db, queries[:args.site_requests])
    p50 = statistics.median(times)
    failed += p50 > SITE_TARGET_MS
    print(f"site /search, {len(times)} requests one at a time: {summary(times)}  "
          f"(target p50 ≤ {SITE_TARGET_MS} ms: {'met' if p50 <= SITE_TARGET_MS else 'NOT met'})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
