"""Speed of the reference evaluator: scenarios a second on one core, the whole of
`rulesdb.engine.outcome.evaluate` (the scenario read and checked, blocks checked, the
combat played, the outcome object built) on seeded random scenarios, the same the
conformance harness plays.

Run: python benchmarks/evaluator_speed.py [--scenarios 2000] [--rounds 15] [--seed 0]
Target (issue 31): ≥ 2,000 scenarios/s on one core. Prints, for evaluate and for its parts
(reading and checking; playing and building the outcome), the rate of the best round in
process (CPU) time, which other work on the machine disturbs least, and the median round
in wall time; then the machine's load, since the figures move with it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

from rulesdb.conformance.generate import scenario
from rulesdb.engine.outcome import evaluate, outcome, run
from rulesdb.engine.scenario import load

TARGET = 2000


def rates(function: Callable[[Any], Any], items: list[Any], rounds: int) -> tuple[float, float]:
    """Items a second: the best round in CPU time, the median round in wall time."""
    cpu, wall = [], []
    for _ in range(rounds):
        started, clock = time.process_time(), time.perf_counter()
        for item in items:
            function(item)
        cpu.append(time.process_time() - started)
        wall.append(time.perf_counter() - clock)
    return len(items) / min(cpu), len(items) / statistics.median(wall)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenarios", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    scenarios = [scenario(args.seed, i) for i in range(args.scenarios)]
    loaded = [load(s) for s in scenarios]
    creatures = sum(len(s["permanents"]) for s in scenarios) / len(scenarios)
    print(f"{len(scenarios)} scenarios (seed {args.seed}), {creatures:.1f} permanents each, "
          f"{args.rounds} rounds, one process")
    measured = {}
    for label, function, items in [
        ("evaluate (read, check, play, outcome)", evaluate, scenarios),
        ("  read and check (scenario.load)", load, scenarios),
        ("  play and outcome", lambda s: outcome(run(s)), loaded),
    ]:
        cpu, wall = rates(function, items, args.rounds)
        measured[label] = cpu
        print(f"{label:40} {cpu:8,.0f} /s cpu (best round)  {wall:8,.0f} /s wall (median)")
    best = measured["evaluate (read, check, play, outcome)"]
    verdict = "meets" if best >= TARGET else "misses"
    print(f"target ≥ {TARGET:,} scenarios/s on one core: {verdict} it ({best:,.0f} /s)")
    print(f"load average: {', '.join(f'{x:.2f}' for x in os.getloadavg())} "
          f"on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
