"""Differential testing of a combat engine against the reference evaluator.

An engine is any function taking a scenario (a JSON value, see scenario.schema.json) and
returning an outcome (outcome.schema.json). `check` runs it on seeded random scenarios
beside the reference, compares the outcomes where they first part (`compare`), groups the
disagreements by cause (what differs first and the rules deciding it), shrinks one case of
each group to a smallest scenario that still shows that cause, and folds a group into
another when its smallest scenario also shows the other's cause with fewer creatures
(a consequence, not a second fault). `export` writes scenarios and reference outcomes for
engines in other languages.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .compare import COMPARED, Cause, Difference, compare
from .generate import scenario as generated
from .outcome import outcome, run
from .registry import EDITION
from .scenario import load
from .shrink import shrink, size

Engine = Callable[[dict[str, Any]], Any]
KEPT_CASES = 20  # failing scenarios kept per cause, the smallest shrunk


@dataclass
class Group:
    """Scenarios disagreeing for one cause, and the smallest scenario found to show it."""

    cause: Cause
    cases: list[int] = field(default_factory=list)
    kept: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    minimal: dict[str, Any] | None = None
    reference: dict[str, Any] | None = None
    engine: Any = None
    differences: list[Difference] = field(default_factory=list)
    folded: list[Cause] = field(default_factory=list)
    tried: int = 0


def outcomes(engine: Engine, data: dict[str, Any]
             ) -> tuple[dict[str, Any], Any, list[Difference]]:
    """The reference's outcome, the engine's (or the error it raised), the root differences."""
    evaluation = run(load(data))
    reference = outcome(evaluation)
    try:
        theirs = engine(json.loads(json.dumps(data)))
    except Exception as exc:  # an engine's failure is a result to report
        failure = f"{type(exc).__name__}: {exc}"
        return reference, {"raised": failure}, [Difference(
            "engine error", None, "engine", None, failure, (type(exc).__name__,))]
    return reference, theirs, compare(evaluation, reference, theirs)


def check(engine: Engine, count: int, seed: int = 0, budget: int = 3000,
          progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Run `engine` on `count` generated scenarios; the report (see docs/evaluator.md)."""
    groups: dict[Cause, Group] = {}
    agreed = 0
    returned: set[str] = set()
    for index in range(count):
        data = generated(seed, index)
        _, theirs, differences = outcomes(engine, data)
        if isinstance(theirs, dict):
            returned |= set(theirs)
        if progress:
            progress(index)
        if not differences:
            agreed += 1
            continue
        for cause in dict.fromkeys(d.cause for d in differences):
            group = groups.setdefault(cause, Group(cause))
            group.cases.append(index)
            if len(group.kept) < KEPT_CASES:
                group.kept.append((index, data))
    for group in groups.values():
        _shrink(engine, group, budget)
    kept = _fold(list(groups.values()))
    return {
        "edition": EDITION,
        "seed": seed,
        "scenarios": count,
        "agreed": agreed,
        "agreement": agreed / count if count else 1.0,
        "compared": [f for f in COMPARED if f in returned],
        "not_compared": [f for f in COMPARED if f not in returned],
        "groups": [_group_report(g) for g in kept],
    }


def _shrink(engine: Engine, group: Group, budget: int) -> None:
    def fails(candidate: dict[str, Any]) -> bool:
        return group.cause in {d.cause for d in outcomes(engine, candidate)[2]}

    index, smallest = min(group.kept, key=lambda item: size(item[1]))
    group.minimal, group.tried = shrink(smallest, fails, budget)
    group.reference, group.engine, group.differences = outcomes(engine, group.minimal)
    group.kept = [(index, smallest)]


def _fold(groups: list[Group]) -> list[Group]:
    """Groups kept after folding each into a smaller one whose cause its minimal scenario
    also shows."""
    kept: list[Group] = []
    for group in sorted(groups, key=lambda g: (size(g.minimal or {}), -len(g.cases))):
        shown = {d.cause for d in group.differences}
        home = next((k for k in kept if k.cause in shown), None)
        if home is None:
            kept.append(group)
        else:
            home.folded.append(group.cause)
            home.cases = sorted(set(home.cases) | set(group.cases))
    return sorted(kept, key=lambda g: -len(g.cases))


def _group_report(group: Group) -> dict[str, Any]:
    aspect, rules = group.cause
    return {
        "cause": {"aspect": aspect, "rules": list(rules)},
        "scenarios": len(group.cases),
        "cases": group.cases[:20],
        "folded": [{"aspect": a, "rules": list(r)} for a, r in group.folded],
        "minimal": group.minimal,
        "creatures": sum(1 for p in (group.minimal or {}).get("permanents", [])
                         if "creature" in p.get("types", ["creature"])),
        "reference": group.reference,
        "engine": group.engine,
        "differences": [d.as_dict() for d in group.differences],
        "shrink_steps": group.tried,
    }


def export(directory: Path, count: int, seed: int = 0) -> int:
    """Write `count` generated scenarios and the reference's outcomes as JSON files under
    `directory` (scenarios/NNNNN.json, outcomes/NNNNN.json, index.json, the two schemas);
    the number written."""
    package = Path(__file__).resolve().parent
    (directory / "scenarios").mkdir(parents=True, exist_ok=True)
    (directory / "outcomes").mkdir(exist_ok=True)
    width = max(5, len(str(count - 1)))
    for index in range(count):
        data = generated(seed, index)
        name = f"{index:0{width}d}.json"
        _write(directory / "scenarios" / name, data)
        _write(directory / "outcomes" / name, outcome(run(load(data))))
    for schema in ("scenario.schema.json", "outcome.schema.json"):
        (directory / schema).write_bytes((package / schema).read_bytes())
    _write(directory / "index.json", {"edition": EDITION, "seed": seed, "scenarios": count,
                                      "files": f"scenarios/{'N' * width}.json → "
                                               f"outcomes/{'N' * width}.json"})
    return count


def _write(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
