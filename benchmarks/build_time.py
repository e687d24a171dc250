"""Time `rulesdb build` of the bundled documents, each run a fresh process (as a user runs it).

Prints the wall time of every run, and for the median run the parse + store time per
document and the time per layer (from `rulesdb build --json`).
Run: python benchmarks/build_time.py [--runs N]
Target (issue 2): the whole build ≤ 3 s on the project machine (2 cores).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SOURCES = Path(__file__).resolve().parent.parent / "data" / "sources"


def run_once(db_path: Path) -> tuple[float, dict]:
    """Wall seconds of one `rulesdb build --json` process and its report."""
    started = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-m", "rulesdb", "build", "--db", str(db_path),
         "--sources", str(SOURCES), "--json"],
        check=True, capture_output=True, text=True, env={**os.environ, "COLUMNS": "100"},
    ).stdout
    return time.perf_counter() - started, json.loads(out)


def main() -> None:
    """Build N times into a temporary folder and print the timings."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(runs):
            wall, report = run_once(Path(tmp) / f"rules-{run}.db")
            results.append((wall, report))
            print(f"run {run + 1}: {wall:.3f} s wall (build itself {report['seconds']:.3f} s)")
    walls = sorted(results, key=lambda r: r[0])
    wall, report = walls[len(walls) // 2]
    print("\nmedian run, per document (parse + store):")
    for doc in report["documents"]:
        print(f"  {doc['id']:18} {doc['seconds'] * 1000:7.1f} ms")
    print("median run, per layer:")
    for name, seconds in report["layer_seconds"].items():
        print(f"  {name:18} {seconds * 1000:7.1f} ms")
    print(f"\nwall time, fresh process (median of {runs}): "
          f"{statistics.median(w for w, _ in results):.3f} s  (target ≤ 3 s)")


if __name__ == "__main__":
    main()
