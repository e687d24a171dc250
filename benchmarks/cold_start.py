"""Cold start of a lookup: `rulesdb rule 702.19` as a fresh process, against `python -c pass`.

Run: python benchmarks/cold_start.py [--runs N] [--db PATH]
Target (issue 7): median wall time ≤ 150 ms on the project machine. Without --db the
database is built into a temporary folder first (not timed).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rulesdb.sources.build import build

SOURCES = Path(__file__).resolve().parent.parent / "data" / "sources"


def wall(argv: list[str], runs: int) -> list[float]:
    """Wall-clock seconds of `runs` runs of `argv`, output discarded; fails on a non-zero exit."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    """Time both commands N times (after one warm-up each) and print medians and the ratio."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--db", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db
        if db is None:
            db = Path(tmp) / "rules.db"
            build(db, SOURCES, seeds_only=True)
        script = Path(sys.executable).with_name("rulesdb")
        rule = [str(script), "rule", "702.19", "--db", str(db)]
        baseline = [sys.executable, "-c", "pass"]
        wall(rule, 1), wall(baseline, 1)
        rule_times, base_times = wall(rule, args.runs), wall(baseline, args.runs)
    rule_ms = statistics.median(rule_times) * 1000
    base_ms = statistics.median(base_times) * 1000
    print(f"python -c pass          median {base_ms:6.1f} ms  (of {args.runs})")
    print(f"rulesdb rule 702.19     median {rule_ms:6.1f} ms  (of {args.runs}), "
          f"p90 {sorted(rule_times)[int(0.9 * (args.runs - 1))] * 1000:6.1f} ms")
    print(f"ratio rule / python     {rule_ms / base_ms:6.2f}x")
    print(f"target ≤ 150 ms: {'met' if rule_ms <= 150 else 'NOT met'}")


if __name__ == "__main__":
    main()
