"""Time the alignment of every consecutive pair of CR editions of a built database: the part
of the lineage layer that rulesdb.lineage.align does (reading the rules and storing the
changes apart), as `rulesdb build` runs it (each edition prepared once for both its pairs).

Run: python benchmarks/lineage_align_time.py [--db PATH] [--runs 3]
(without --db, the user's database: rulesdb.places.user, built first when missing)
Prints per run the CPU and wall seconds of the alignments in all, and the median of the
runs; the slowest pairs of the median run. CPU time is the steadier figure on a busy machine.
Compare two versions of the aligner by running it on each (git stash) in turn.
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import time
from itertools import pairwise
from pathlib import Path

from add_corpus import user_database

from rulesdb.lineage.align import align
from rulesdb.lineage.query import edition
from rulesdb.lineage.side import Side
from rulesdb.lineage.text import clear_caches


def run_once(conn: sqlite3.Connection, editions: list[str]) -> tuple[float, float, list]:
    """CPU and wall seconds of aligning each consecutive pair, and the time of each pair."""
    clear_caches()
    records = {doc: edition(conn, doc) for doc in editions}
    sides: dict[str, Side] = {}
    per_pair = []
    cpu_total = wall_total = 0.0
    for old, new in pairwise(editions):
        cpu, wall = time.process_time(), time.perf_counter()
        old_side = sides.pop(old, None) or Side(records[old][0])
        new_side = sides[new] = Side(records[new][0])
        align(old_side, new_side, records[old][1], records[new][1])
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        cpu_total += cpu
        wall_total += wall
        per_pair.append((cpu, old, new))
    return cpu_total, wall_total, per_pair


def main() -> None:
    """Align the history `--runs` times and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    conn = sqlite3.connect(args.db or user_database())
    editions = [doc for (doc,) in conn.execute(
        "SELECT id FROM documents WHERE kind = 'comprehensive_rules' AND superseded_by IS NULL "
        "ORDER BY effective_date, id")]
    runs = []
    for run in range(args.runs):
        cpu, wall, per_pair = run_once(conn, editions)
        runs.append((cpu, wall, per_pair))
        print(f"run {run + 1}: {len(editions) - 1} pairs aligned in {cpu:.2f} s CPU "
              f"({wall:.2f} s wall)")
    cpu, wall, per_pair = sorted(runs)[len(runs) // 2]
    print(f"median of {args.runs}: {statistics.median(r[0] for r in runs):.2f} s CPU, "
          f"{statistics.median(r[1] for r in runs):.2f} s wall; slowest pairs of that run:")
    for seconds, old, new in sorted(per_pair, reverse=True)[:5]:
        print(f"  {old} → {new}: {seconds:.2f} s CPU")


if __name__ == "__main__":
    main()
