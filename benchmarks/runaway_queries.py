"""Queries that try to run away with the rules site, and the rule pages meanwhile.

Starts `rulesdb serve` on a free port of 127.0.0.1 over --db (or targets --url), then prints:
- each runaway query of RUNAWAY alone, as a visitor sends it to /rules?sql=: its status and
  time (target, issue 20: an answer, or an error page (400), in <= 2 s);
- rule pages requested one at a time, alone, then while four connections send runaway queries
  without pause: the printf and randomblob queries of the issue, then the heaviest of
  RUNAWAY (targets: p95 <= 200 ms under both loads; the maximum is printed too).
The script exits 1 when a target is missed.

Usage:
    python benchmarks/runaway_queries.py --db /tmp/i20/full.db [--url http://127.0.0.1:8001]
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import random
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode, urlsplit

from serve_latency import fetch, paths, percentiles, start_server

from rulesdb.site.bounds import MAX_VALUE

M = MAX_VALUE - 1000  # just under the site's longest value
COUNT_TO = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {})"
RUNAWAY = {
    # the two of the issue: one call each, 7.5 s and a gigabyte before
    "printf": "select length(printf('%.*c', 1000000000, 'x'))",
    "randomblob": "select length(randomblob(1e9))",
    "zeroblob": "select length(zeroblob(1e9))",
    # time growing with the product of the arguments' lengths
    "instr": f"select instr(printf('%.*c', {M}, 'a'), printf('%.*c', {M // 2}, 'a') || 'b')",
    "replace": f"select length(replace(printf('%.*c', {M}, 'a'), printf('%.*c', {M // 2}, 'a')"
               " || 'b', 'c'))",
    "json_patch": f"select length(json_patch((select json_group_object(i, i) from "
                  f"({COUNT_TO.format(40000)} select i from n)), (select "
                  f"json_group_object(-i, i) from ({COUNT_TO.format(40000)} select i from n))))",
    # memory: a thousand rows of a megabyte
    "rows": f"{COUNT_TO.format(1000)} select printf('%.*c', {M}, 'x') from n",
    # one row of 600 calls on a megabyte each, evaluated without a pause
    "straight": f"with t(a) as (select printf('%.*c', {M}, 'a')) select "
                + ", ".join(["length(quote(quote(quote(a))))"] * 199) + " from t",
    # long queries the time limit stops
    "cross join": "select count(*) from rule_rows a, rule_rows b",
    "fts prefixes": "select count(*) from rules_fts where rules_fts match (" + COUNT_TO.format(3000)
                    + " select group_concat(char(97 + i % 26) || '*', ' OR ') from n)",
    # prepared in one step, in a time growing faster than its words (3.4 s for 130,000)
    "fts words": "select count(*) from rules_fts where rules_fts match (" + COUNT_TO.format(
        M // 2) + " select group_concat(char(97 + i % 26), ' ') from n)",
}
ISSUE = ["printf", "randomblob"]
HEAVIEST = ["straight", "cross join", "fts prefixes", "fts words", "json_patch", "rows"]


def query_path(sql: str) -> str:
    return "/rules?" + urlencode({"sql": sql})


def alone(base: str) -> dict[str, tuple[int, float]]:
    netloc = urlsplit(base).netloc
    conn = http.client.HTTPConnection(netloc, timeout=120)
    found = {}
    for name, sql in RUNAWAY.items():
        found[name] = fetch(conn, query_path(sql))
    conn.close()
    return found


def rule_pages(base: str, urls: list[str]) -> list[float]:
    conn = http.client.HTTPConnection(urlsplit(base).netloc, timeout=120)
    times = []
    for url in urls:
        status, seconds = fetch(conn, url)
        if status != 200:
            raise SystemExit(f"{url}: HTTP {status}")
        times.append(seconds)
    conn.close()
    return times


def under_load(base: str, urls: list[str], names: list[str], senders: int = 4
               ) -> tuple[list[float], int]:
    """Rule page times while `senders` connections send the queries `names` in turn."""
    stop = threading.Event()
    sent = []

    def sender(offset: int) -> None:
        conn = http.client.HTTPConnection(urlsplit(base).netloc, timeout=120)
        for name in itertools.islice(itertools.cycle(names), offset, None):
            if stop.is_set():
                break
            fetch(conn, query_path(RUNAWAY[name]))
            sent.append(name)
        conn.close()

    threads = [threading.Thread(target=sender, args=(i,)) for i in range(senders)]
    for thread in threads:
        thread.start()
    time.sleep(1.0)  # every sender has a query running
    try:
        return rule_pages(base, urls), len(sent)
    finally:
        stop.set()
        for thread in threads:
            thread.join()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, required=True,
                        help="the database the server serves (the full history)")
    parser.add_argument("--url", help="target a running server over --db instead")
    parser.add_argument("--pages", type=int, default=100, help="rule pages per measure")
    args = parser.parse_args()
    process, base = (None, args.url) if args.url else start_server(args.db)
    failed = False
    try:
        urls = random.Random(3).sample(paths(args.db)["rule"], args.pages)
        rule_pages(base, urls[:10])  # warm-up
        for name, (status, seconds) in alone(base).items():
            met = status in (200, 400) and seconds <= 2.0
            failed |= not met
            print(f"{name:13} HTTP {status}  {seconds:6.3f} s  (target: an answer or an error "
                  f"page in <= 2 s: {'met' if met else 'MISSED'})")
        for label, load in (("alone", None), ("4 x printf/randomblob", ISSUE),
                            ("4 x heaviest", HEAVIEST)):
            if load is None:
                times, sent = rule_pages(base, urls), 0
            else:
                times, sent = under_load(base, urls, load)
            s = percentiles(times)
            met = load is None or s["p95"] <= 200
            failed |= not met
            print(f"rule pages, {label:22} p50 {s['p50']:6.1f} ms  p95 {s['p95']:6.1f} ms  "
                  f"max {max(times) * 1000:6.1f} ms  ({sent} runaway queries meanwhile"
                  + ("" if load is None else
                     f"; target p95 <= 200 ms: {'met' if met else 'MISSED'}") + ")")
    finally:
        if process is not None:
            process.terminate()
            process.wait(timeout=10)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
