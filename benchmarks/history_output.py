"""How history and diff read at full history (issue 18, points 4 and 5; issue 33).

For a few long-lived rules, a chapter and a section: lines of `rulesdb history N` (folded or
summed up; and with --all) and its time (a fresh process, median of 3), bytes and latency of
the site's history page; for a one-word edit in a long rule (205.3m, the creature types,
between 2025-11-14 and 2026-01-16): the characters `rulesdb diff` prints for it, folded and
--full. Targets: 702.19 ≤ 80 lines, its page ≤ 150 KB and ≤ 100 ms; `history 7` (summed up)
≤ 1 s, its page ≤ 1 MB and ≤ 1 s.
Run: python benchmarks/history_output.py [--db FULL.db]
(without --db the default database is built first, into a temporary folder)
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serve_latency import start_server

SOURCES = Path(__file__).resolve().parent.parent / "data" / "sources"
RULES = ["702.19", "601.2", "100.1", "704.5a", "Banding", "205.3", "702", "7"]


def timed(args: list[str], db: Path) -> tuple[str, float]:
    """What `rulesdb ARGS --db DB` prints, and the median time of three runs."""
    times = []
    for _ in range(3):
        started = time.perf_counter()
        printed = output(args, db)
        times.append(time.perf_counter() - started)
    return printed, statistics.median(times)


def output(args: list[str], db: Path) -> str:
    """What `rulesdb ARGS --db DB` prints."""
    return subprocess.run([sys.executable, "-m", "rulesdb", *args, "--db", str(db)],
                          check=True, capture_output=True, text=True).stdout


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "full.db"
        if not args.db:
            subprocess.run([sys.executable, "-m", "rulesdb", "build", "--db", str(db),
                            "--sources", str(SOURCES), "--json"], check=True,
                           capture_output=True)
        process, base = start_server(db)
        try:
            print(f"{'rule':10} {'lines':>6} {'cli s':>6} {'--all':>6} {'page KB':>8} "
                  f"{'page ms':>8}")
            for rule in RULES:
                printed, seconds = timed(["history", rule], db)
                folded = len(printed.splitlines())
                every = len(output(["history", rule, "--all"], db).splitlines())
                url = f"{base}/cr-2026-01-16/{rule}/history"
                times, size = [], 0
                for _ in range(7):
                    started = time.perf_counter()
                    try:
                        with urllib.request.urlopen(url) as response:
                            size = len(response.read())
                    except OSError:
                        size = 0
                        break
                    times.append(time.perf_counter() - started)
                page = (f"{size / 1024:8.1f} {statistics.median(times) * 1000:8.1f}" if times
                        else f"{'-':>8} {'-':>8}")
                print(f"{rule:10} {folded:6} {seconds:6.2f} {every:6} {page}")
        finally:
            process.terminate()
            process.wait(timeout=10)
        diff = ["diff", "cr-2025-11-14", "cr-2026-01-16", "--section", "205.3m"]
        folded, full = output(diff, db), output([*diff, "--full"], db)
        print(f"\ndiff of 205.3m (one word added to 400): {len(folded)} characters "
              f"folded, {len(full)} with --full")
        print("targets: 702.19 ≤ 80 lines, its page ≤ 150 KB and ≤ 100 ms; 7 (summed up) "
              "≤ 1 s, its page ≤ 1 MB and ≤ 1 s")


if __name__ == "__main__":
    main()
