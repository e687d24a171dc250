"""Time `rulesdb build` of the bundled documents: per document and in total.

Run: python benchmarks/build_time.py [--runs N]
Target (issue 2): the whole build ≤ 3 s on the project machine (2 cores).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from rulesdb.build import build

SOURCES = Path(__file__).resolve().parent.parent / "data" / "sources"


def main() -> None:
    """Build N times into a temporary folder and print the timings."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    totals: list[float] = []
    per_doc: dict[str, list[float]] = {}
    for run in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            started = time.perf_counter()
            report = build(Path(tmp) / "rules.db", SOURCES)
            totals.append(time.perf_counter() - started)
        for doc in report.documents:
            per_doc.setdefault(doc.id, []).append(doc.seconds)
        print(f"run {run + 1}: {totals[-1]:.3f} s")
    print("\nper document (parse + store, median):")
    for doc_id, seconds in per_doc.items():
        print(f"  {doc_id:18} {statistics.median(seconds) * 1000:7.1f} ms")
    print("\nlayers + indexes + FTS: the rest of the total")
    print(f"total build (median of {runs}): {statistics.median(totals):.3f} s  (target ≤ 3 s)")


if __name__ == "__main__":
    main()
