"""Lookup latency at full size: each of the issue's five commands (and lookups of the judges'
documents, issue 39), each run a fresh process
(interpreter start and imports included, as a user runs it), on the default database (the
seeds and the whole history) and, for comparison, on the seeds alone.

Prints the median and the slowest of --runs runs per command and database, against the
target (≤ 150 ms median on the full-history database, issue 18).
Run: python benchmarks/lookups.py [--db FULL.db] [--runs N]
(without --db, both databases are built first, into a temporary folder)
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from add_corpus import installed_env

SOURCES = Path(__file__).resolve().parent.parent / "data" / "sources"
COMMANDS = [["rule", "702.19"], ["glossary", "tapped"], ["refs", "702.19b"],
            ["history", "702.19"], ["search", "trample"],
            # the judges' documents: a kind's newest edition, an infraction with its parts
            ["rule", "4.2", "--doc", "mtr"], ["rule", "2.1", "--doc", "ipg"],
            ["infractions", "--penalty", "game loss"]]
TARGET = 0.150


def timed(args: list[str], db: Path) -> float:
    """Wall seconds of one `rulesdb ARGS --db DB` process (its output read and dropped)."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "rulesdb", *args, "--db", str(db)], check=True,
                   capture_output=True, env=installed_env())
    return time.perf_counter() - started


def build(db: Path, seeds_only: bool) -> None:
    """`rulesdb build` into `db`."""
    subprocess.run([sys.executable, "-m", "rulesdb", "build", "--db", str(db), "--sources",
                    str(SOURCES), "--json", *(["--seeds-only"] if seeds_only else [])],
                   check=True, capture_output=True)


def main() -> None:
    """Time every command on each database and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", type=Path, help="a full-history database already built")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        full = args.db or Path(tmp) / "full.db"
        seeds = Path(tmp) / "seeds.db"
        if not args.db:
            build(full, seeds_only=False)
        build(seeds, seeds_only=True)
        print(f"{'command':40} {'full history':>22} {'seeds only':>16}   target")
        worst = 0.0
        for command in COMMANDS:
            figures = []
            for db in (full, seeds):
                timed(command, db)  # the page cache warm, as for a user's second lookup
                runs = [timed(command, db) for _ in range(args.runs)]
                figures.append((statistics.median(runs), max(runs)))
            (full_median, full_max), (seeds_median, _) = figures
            worst = max(worst, full_median)
            verdict = "ok" if full_median <= TARGET else "OVER"
            print(f"rulesdb {' '.join(command):32} {full_median * 1000:8.0f} ms "
                  f"(max {full_max * 1000:4.0f}) {seeds_median * 1000:10.0f} ms   "
                  f"≤ {TARGET * 1000:.0f} ms {verdict}")
        print(f"\nslowest median on the full history: {worst * 1000:.0f} ms "
              f"(target ≤ {TARGET * 1000:.0f} ms, fresh process, median of {args.runs})")


if __name__ == "__main__":
    main()
