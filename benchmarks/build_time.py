"""Time `rulesdb build`, each run a fresh process (as a user runs it): the default build
(the eight bundled documents, five seeds and the judges' three, and the 115 releases of the
history: the archive's 110 and the five shipped as .docx and .doc) and, for
comparison, `--seeds-only`.

Prints the wall time of every run; for the median run of each: parse + store time of the
documents (in all, and the five slowest), the time per layer and the database size.
Run: python benchmarks/build_time.py [--runs N]
Targets: the default build ≤ 45 s (issue 18), `--seeds-only` ≤ 3 s (issue 2), on the
project machine (2 cores).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from add_corpus import installed_env

SOURCES = Path(__file__).resolve().parent.parent / "data" / "sources"
TARGETS = {"default (seeds + history)": 45.0, "--seeds-only": 3.0}


def run_once(db_path: Path, seeds_only: bool) -> tuple[float, dict]:
    """Wall seconds of one `rulesdb build --json` process and its report."""
    started = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-m", "rulesdb", "build", "--db", str(db_path),
         "--sources", str(SOURCES), "--json", *(["--seeds-only"] if seeds_only else [])],
        check=True, capture_output=True, text=True, env=installed_env(COLUMNS="100"),
    ).stdout
    return time.perf_counter() - started, json.loads(out)


def measure(name: str, runs: int, tmp: Path) -> None:
    """Build `runs` times and print the figures of the median run."""
    seeds_only = name == "--seeds-only"
    results = []
    for run in range(runs):
        db_path = tmp / f"rules-{run}.db"
        wall, report = run_once(db_path, seeds_only)
        results.append((wall, report, db_path.stat().st_size))
        db_path.unlink()
        print(f"{name}, run {run + 1}: {wall:.2f} s wall (build itself {report['seconds']:.2f} s)")
    wall, report, size = sorted(results, key=lambda r: r[0])[len(results) // 2]
    docs = report["documents"]
    print(f"median run: {len(docs)} documents, parse + store "
          f"{sum(d['seconds'] for d in docs):.2f} s in all; slowest:")
    for doc in sorted(docs, key=lambda d: -d["seconds"])[:5]:
        print(f"  {doc['id']:24} {doc['seconds'] * 1000:7.1f} ms")
    print("per layer:")
    for layer, seconds in report["layer_seconds"].items():
        print(f"  {layer:24} {seconds:7.2f} s")
    print(f"database: {size / 1e6:.1f} MB")
    median = statistics.median(w for w, _, _ in results)
    print(f"{name}: wall time, fresh process (median of {runs}): {median:.2f} s "
          f"(target ≤ {TARGETS[name]:g} s)\n")


def main() -> None:
    """Build each way N times into a temporary folder and print the timings."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as tmp:
        for name in TARGETS:
            measure(name, runs, Path(tmp))


if __name__ == "__main__":
    main()
