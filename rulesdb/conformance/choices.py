"""An engine's own choices: the divisions of combat damage its outcome gives, replayed.

Where the rules leave a choice to a player (how an attacker divides its damage among its
blockers, 510.1c-d; how much excess a trampler assigns, 702.19b-c; how a blocker divides its
damage among the attackers it blocks), an engine may choose otherwise than the scenario's
policy. Its divisions are taken from its `damage` records and the reference plays the
scenario again with them: each is checked against 510.1a-e and 702.19b-f with the others of
its step, a legal one is played as given, an illegal one is a difference of its own (and,
when its damage goes to players and permanents there, played as given all the same).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..engine.division import Assignment, IllegalAssignment
from ..engine.model import GameState
from ..engine.outcome import Evaluation, run
from ..engine.scenario import Scenario
from .reading import Malformed, number, records, step_of, text

# (step, source) → target → amount
Divisions = dict[tuple[str, str], dict[str, int]]


def divisions(outcome: Any) -> Divisions | None:
    """The divisions an outcome gives (its damage records, amounts of one source to one
    target in one step added up), or None when it gives no `damage`; Malformed when the
    records do not have the documented shape."""
    if not isinstance(outcome, dict) or "damage" not in outcome:
        return None
    found: Divisions = {}
    for record in records(outcome["damage"]):
        amount = number(record["amount"])
        if amount < 0:
            raise Malformed(f"amount: expected at least 0, got {amount}")
        if amount:
            division = found.setdefault((step_of(record), text(record["source"])), {})
            target = text(record["target"])
            division[target] = division.get(target, 0) + amount
    return found


def replay(scenario: Scenario, chosen: Divisions, played: Iterable[str]
           ) -> tuple[Evaluation, tuple[IllegalAssignment, ...]]:
    """The scenario played by the reference with the engine's divisions in the steps the
    engine played (a creature the engine gives no division there assigns none), and the
    illegal ones. An illegal division sending damage only to players and permanents there
    is played as given, so that what follows is compared with the engine's own damage; one
    sending it elsewhere stops the play as its step begins."""
    steps = frozenset(played)
    illegal: list[IllegalAssignment] = []

    def given(source: str, step: str) -> list[Assignment] | None:
        if step not in steps:
            return None
        return [Assignment(source, target, amount)
                for target, amount in chosen.get((step, source), {}).items()]

    def tolerate(state: GameState, problems: list[IllegalAssignment]) -> bool:
        there = {p.id for p in state.players} | {p.id for p in state.battlefield}
        if any(target not in there for problem in problems
               for target in chosen.get((problem.step, problem.source), {})):
            return False
        illegal.extend(problems)
        return True

    try:
        return run(scenario, given, tolerate), tuple(illegal)
    except IllegalAssignment as exc:
        assert exc.state is not None
        return (Evaluation(scenario, scenario.state, exc.state, exc.reports),
                (*illegal, *exc.problems))
