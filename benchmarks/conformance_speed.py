"""Speed of a conformance run: `rulesdb.conformance.run.check` on 2,000 seeded scenarios
against the reference itself (each scenario generated, played by the reference, passed
through JSON to the engine, its divisions read and compared, the outcomes compared), and,
for scale, against the engine of tests/conformance_engine.py with its eight faults planted
(the disagreements grouped into causes, several cases of each shrunk).

Run: python benchmarks/conformance_speed.py [--scenarios 2000] [--rounds 5] [--seed 0]
Target (issue 40): 2,000 scenarios against the reference itself in ≤ 10 s. Prints, for each
engine, the best round in process (CPU) time on one core, which other work on the machine
disturbs least, and the median round in wall time; the run against the reference as a
multiple of the reference evaluating the same scenarios alone (a ratio the machine's speed
moves less); then the machine check (add_corpus.py) and the machine's load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from add_corpus import machine_check
from evaluator_speed import rates

from rulesdb.conformance.generate import scenario
from rulesdb.conformance.run import check
from rulesdb.engine.outcome import evaluate

TARGET = 10.0
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))


def timed(engine: Callable[[Any], Any], count: int, seed: int, rounds: int
          ) -> tuple[float, float, dict[str, Any]]:
    """Seconds of the best round in CPU time, of the median round in wall time, the report."""
    cpu, wall, report = [], [], {}
    for _ in range(rounds):
        started, clock = time.process_time(), time.perf_counter()
        report = check(engine, count, seed)
        cpu.append(time.process_time() - started)
        wall.append(time.perf_counter() - clock)
    return min(cpu), statistics.median(wall), report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenarios", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    from conformance_engine import planted

    print(f"{args.scenarios} scenarios (seed {args.seed}), {args.rounds} rounds, one process")
    scenarios = [scenario(args.seed, i) for i in range(args.scenarios)]
    alone = len(scenarios) / rates(evaluate, scenarios, args.rounds)[0]
    print(f"{'the reference evaluating them alone':40} {alone:6.2f} s cpu (best round)")
    cpu, wall, report = timed(evaluate, args.scenarios, args.seed, args.rounds)
    print(f"{'against the reference itself':40} {cpu:6.2f} s cpu (best round)  "
          f"{wall:6.2f} s wall (median)  {report['agreed']} agree; "
          f"{cpu / alone:.1f}× the reference alone")
    verdict = "meets" if cpu <= TARGET else "misses"
    print(f"target ≤ {TARGET:.0f} s for {args.scenarios:,} scenarios: {verdict} it "
          f"({cpu:.2f} s, {args.scenarios / cpu:,.0f} scenarios/s)")
    cpu, wall, report = timed(planted, args.scenarios, args.seed, max(1, args.rounds // 2))
    shrunk = sum(len(c["shrunk"]) for c in report["causes"])
    print(f"{'against the planted engine':40} {cpu:6.2f} s cpu (best round)  "
          f"{wall:6.2f} s wall (median)  {report['disagreed']} disagree, "
          f"{len(report['causes'])} causes, {shrunk} cases shrunk")
    machine_check()
    print(f"load average: {', '.join(f'{x:.2f}' for x in os.getloadavg())} "
          f"on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
