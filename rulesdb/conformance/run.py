"""An engine played beside the reference: one scenario (`outcomes`), a seeded run of many
with its disagreements grouped into causes (`check`), and the export of scenarios and the
reference's outcomes for engines in other languages (`export`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..engine.outcome import outcome, run
from ..engine.registry import EDITION
from ..engine.scenario import load
from . import Unsupported
from .causes import Case, find_causes
from .choices import divisions, replay
from .compare import COMPARED, Difference, compare, engine_error
from .generate import scenario as generated
from .reading import Malformed, engine_steps

Engine = Callable[[dict[str, Any]], Any]
NO_OUTCOME = "the engine returned None"
NO_FIELD = "the outcome gives none of the fields compared"
AS_THE_GAME_ENDS = "state-based actions as the game ends"
# The life a player has in the probe of a death as the game ends: enough that no combat
# here brings it to 0.
SAFE_LIFE = 1000


@dataclass
class Result:
    """One scenario played by the reference and by the engine.

    `reference` is the outcome compared: the reference's, played again with the engine's
    own divisions when they differ from the scenario's policy (`own` is then the reference's
    outcome with its own divisions). `unsupported` says why the scenario was not compared
    (the engine raised Unsupported or returned None).
    """

    reference: dict[str, Any]
    engine: Any
    differences: list[Difference] = field(default_factory=list)
    own: dict[str, Any] | None = None
    unsupported: str | None = None

    @property
    def replayed(self) -> bool:
        """Whether the reference played the engine's divisions."""
        return self.own is not None


def outcomes(engine: Engine, data: dict[str, Any], probe: bool = True) -> Result:
    """The scenario `data` played by the reference and by `engine`, and their root
    differences. A death that differs in the step that ended the game is played again with
    the players' lives out of reach (`probe`): when the difference goes away, the end of the
    game is what the engine gets wrong, and 704.3 (all state-based actions at once) decides
    it."""
    scenario = load(data)
    evaluation = run(scenario)
    reference = outcome(evaluation)
    try:
        theirs = engine(json.loads(json.dumps(data)))
    except Unsupported as exc:
        return Result(reference, None, unsupported=str(exc) or type(exc).__name__)
    except Exception as exc:  # an engine's failure is a result to report
        failure = f"{type(exc).__name__}: {exc}"
        return Result(reference, {"raised": failure}, [engine_error(failure)])
    if theirs is None:
        return Result(reference, None, unsupported=NO_OUTCOME)
    if isinstance(theirs, dict) and not set(theirs) & set(COMPARED):
        return Result(reference, theirs, unsupported=NO_FIELD)
    illegal: tuple[Any, ...] = ()
    own = None
    try:
        chosen = divisions(theirs)
        if chosen is not None and chosen != divisions(reference):
            played = engine_steps(theirs, reference["steps"])
            evaluation, illegal = replay(scenario, chosen, played)
            own, reference = reference, outcome(evaluation)
    except (Malformed, TypeError, KeyError) as exc:
        return Result(reference, theirs, [engine_error(f"Malformed: {exc}")])
    differences = compare(evaluation, reference, theirs, illegal)
    if probe:
        differences = [_probed(engine, data, d, theirs) if d.game_ends else d
                       for d in differences]
    return Result(reference, theirs, differences, own)


def _probed(engine: Engine, data: dict[str, Any], difference: Difference,
            theirs: dict[str, Any]) -> Difference:
    """What state-based actions decide as the game ends (a death, the counters left on a
    permanent), played again with the game going on: when the difference goes away there,
    the engine skips the actions performed with the loss, and 704.3 (all at once) decides
    it. When the game ends there all the same (poison from infect), 704.3 decides it when
    the engine too has the game end in that step."""
    safe = json.loads(json.dumps(data))
    for player in safe["players"]:
        player["life"] = SAFE_LIFE
        player.pop("poison", None)
    result = outcomes(engine, safe, probe=False)
    if result.unsupported is not None or any(d.aspect == "engine error"
                                             for d in result.differences):
        return difference
    ending = result.reference["game_over"]
    step = difference.step or (ending or {}).get("step")
    if ending is not None and ending["step"] == step:
        losses = theirs.get("losses")
        ended = isinstance(losses, list) and any(
            isinstance(r, dict) and r.get("step") == step for r in losses)
        return _as_the_game_ends(difference) if ended else difference
    if any(d.aspect == difference.aspect and d.item == difference.item
           and d.step == difference.step for d in result.differences):
        return difference
    return _as_the_game_ends(difference)


def _as_the_game_ends(difference: Difference) -> Difference:
    """The difference as the state-based actions performed with a player's loss (704.3),
    what differs kept as its note."""
    return replace(difference, aspect=AS_THE_GAME_ENDS, rules=("704.3",),
                   note=difference.aspect)


def check(engine: Engine, count: int, seed: int = 0, budget: int = 3000,
          progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Run `engine` on `count` generated scenarios; the report (see docs/evaluator.md)."""
    cases: list[Case] = []
    agreed = replayed = 0
    unsupported: dict[str, list[int]] = {}
    returned: set[str] = set()
    for index in range(count):
        data = generated(seed, index)
        result = outcomes(engine, data)
        if progress:
            progress(index)
        if result.unsupported is not None:
            unsupported.setdefault(result.unsupported, []).append(index)
            continue
        if isinstance(result.engine, dict):
            returned |= set(result.engine)
        replayed += result.replayed
        if result.differences:
            cases.append(Case(index, data, result.differences))
        else:
            agreed += 1
    compared = count - sum(len(found) for found in unsupported.values())
    causes = find_causes(lambda data: outcomes(engine, data), cases, budget)
    return {
        "edition": EDITION,
        "seed": seed,
        "scenarios": count,
        "compared": compared,
        "agreed": agreed,
        "disagreed": len(cases),
        "replayed": replayed,
        "agreement": agreed / compared if compared else None,
        "compared_share": compared / count if count else 0.0,
        "not_compared": {
            "scenarios": count - compared,
            "reasons": [{"reason": reason, "scenarios": len(found), "cases": found}
                        for reason, found in sorted(unsupported.items(),
                                                    key=lambda item: (-len(item[1]), item[0]))],
        },
        "fields": {"compared": [f for f in COMPARED if f in returned],
                   "not_given": [f for f in COMPARED if f not in returned]},
        "causes": [cause.as_dict(number) for number, cause in enumerate(causes, 1)],
    }


def export(directory: Path, count: int, seed: int = 0) -> int:
    """Write `count` generated scenarios and the reference's outcomes as JSON files under
    `directory` (scenarios/NNNNN.json, outcomes/NNNNN.json, index.json, the two schemas);
    the number written."""
    package = Path(__file__).resolve().parent.parent / "engine"
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
