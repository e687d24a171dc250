"""In-process search latency: 100 queries through rulesdb.lookup.search.search on a built database.

Run: python benchmarks/search_latency.py [--db PATH] [--limit N]
Target (issue 7): p50 ≤ 20 ms. The queries mix single words, phrases, multi-word queries
that fall back to any-word matching, and queries restricted to one document.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from rulesdb.lookup.query import connect
from rulesdb.lookup.search import search
from rulesdb.sources.build import build

SOURCES = Path(__file__).resolve().parent.parent / "data" / "sources"
WORDS = ["trample", "combat damage", "first strike", "banding", "regenerate", "mana burn",
         "state-based actions", "protection from red", "declare blockers", "phasing",
         "copy of a spell", "legendary rule", "cumulative upkeep", "lethal damage",
         '"end of turn"', "untap step", "interrupt", "flying reach", "the stack resolves",
         "counter target spell"]
DOCS = [None, "cr-2025-06-06-chapter7", "cr-2009-02-01-flattened", "rulings-1999-04",
        "rulebook-2005"]


def main() -> None:
    """Run each of 100 (query, document) pairs once after a warm-up; print p50/p95/max."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--limit", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db
        if db is None:
            db = Path(tmp) / "rules.db"
            build(db, SOURCES, seeds_only=True)
        conn = connect(db)
        queries = [(q, d) for d in DOCS for q in WORDS]
        for q, d in queries[:10]:
            search(conn, q, d, args.limit)
        times, empty = [], 0
        for q, d in queries:
            started = time.perf_counter()
            hits = search(conn, q, d, args.limit)
            times.append((time.perf_counter() - started) * 1000)
            empty += not hits
        conn.close()
    times.sort()
    p50 = statistics.median(times)
    print(f"{len(times)} queries, {empty} without hits")
    print(f"p50 {p50:.2f} ms  p95 {times[int(0.95 * (len(times) - 1))]:.2f} ms  "
          f"max {times[-1]:.2f} ms")
    print(f"target p50 ≤ 20 ms: {'met' if p50 <= 20 else 'NOT met'} "
          f"(p50 is {p50 / 20:.2f}x the target)")


if __name__ == "__main__":
    main()
