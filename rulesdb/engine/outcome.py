"""The reference evaluator as one function: a scenario (a JSON value) in, its outcome out.

`evaluate(scenario)` returns the outcome object every engine is compared on (see
`outcome.schema.json`): the combat damage steps played; each division of damage (source,
target, amount, how much of it was prevented); life gained; deaths and losses, each with
the step it happened in; the players' life and poison with their changes; the permanents
whose damage or counters changed; and who won when the game ended. The `rules` lists name
the rules of cr-2025-06-06 that decided each item; engines need not give them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .combat import StepReport, Tolerate, resolve_combat
from .division import Assignment, IllegalAssignment, Pending
from .fields import ScenarioError
from .model import Attack, GameState, Permanent
from .policies import POLICIES
from .scenario import Scenario, load

# An engine's division for (source, step), or None to leave it to the scenario.
Chosen = Callable[[str, str], list[Assignment] | None]


@dataclass(frozen=True)
class Evaluation:
    """A scenario played by the reference: the states before and after, one report a step."""

    scenario: Scenario
    before: GameState
    after: GameState
    reports: tuple[StepReport, ...]


def evaluate(scenario: Any) -> dict[str, Any]:
    """The outcome of a scenario's combat damage; ScenarioError when it is malformed."""
    return outcome(run(load(scenario)))


def run(scenario: Scenario, chosen: Chosen | None = None,
        tolerate: Tolerate | None = None) -> Evaluation:
    """Play the combat damage steps of a checked scenario. `chosen(source, step)` may give a
    division of its own (an engine's, replayed), checked like one a scenario gives; None
    leaves it to the scenario. An illegal division of the scenario's is a ScenarioError, one
    `chosen` gives an IllegalAssignment (with the steps played before it) unless `tolerate`
    lets the step go on with it (see `combat.assign_step`)."""
    attack_policy, block_policy = (POLICIES[scenario.policies[0]][0],
                                   POLICIES[scenario.policies[1]][1])
    explicit = scenario.explicit
    overridden: set[tuple[str, str]] = set()

    def given(source: str, step: str) -> list[Assignment] | None:
        if chosen is not None:
            division = chosen(source, step)
            if division is not None:
                overridden.add((source, step))
                return division
        entry = explicit.get((source, step)) or explicit.get((source, None))
        if entry is None:
            return None
        return [Assignment(source, target, amount) for target, amount in entry.damage]

    def attacker_choice(state: GameState, step: str, attack: Attack,
                        pending: Pending) -> list[Assignment]:
        division = given(attack.attacker, step) if explicit or chosen else None
        return attack_policy(state, step, attack, pending) if division is None else division

    def blocker_choice(state: GameState, step: str, blocker: Permanent,
                       attackers: list[Permanent], pending: Pending) -> list[Assignment]:
        division = given(blocker.id, step) if explicit or chosen else None
        if division is not None:
            return division
        if len(attackers) > 1:  # in the order the scenario lists them
            order = scenario.blocks[blocker.id]
            attackers = sorted(attackers, key=lambda a: order.index(a.id))
        return block_policy(state, step, blocker, attackers, pending)

    def checked(source: str, step: str) -> bool:
        return ((source, step) in overridden or (source, step) in explicit
                or (source, None) in explicit)

    try:
        after, reports = resolve_combat(scenario.state, list(scenario.attacks),
                                        attacker_choice, blocker_choice, checked,
                                        tuple(scenario.blocks), tolerate)
    except IllegalAssignment as exc:
        entry = explicit.get((exc.source, exc.step)) or explicit.get((exc.source, None))
        if entry is None or (exc.source, exc.step) in overridden:
            raise
        raise ScenarioError(f"assignments[{entry.index}].damage",
                            f"{exc} in the {exc.step} combat damage step ({exc.rule})",
                            exc.rule) from None
    return Evaluation(scenario, scenario.state, after, tuple(reports))


def outcome(evaluation: Evaluation) -> dict[str, Any]:
    """The outcome object of an evaluation."""
    damage, life_gained, deaths, losses = [], [], [], []
    for report in evaluation.reports:
        step = report.step
        prevented = {(a.source, a.target) for a in report.prevented}
        for a in report.assigned:
            damage.append({"step": step, "source": a.source, "target": a.target,
                           "amount": a.amount,
                           "prevented": a.amount if (a.source, a.target) in prevented else 0,
                           "rules": list(a.rules) + (["702.16e"] if (a.source, a.target)
                                                     in prevented else [])})
        for player, amount, source in report.life_gained:
            life_gained.append({"step": step, "player": player, "amount": amount,
                                "source": source, "rules": ["702.15b"]})
        for events in report.events:
            for event in events:
                if event.kind == "lose":
                    losses.append({"step": step, "player": event.object,
                                   "rules": list(event.rules)})
                elif event.kind in ("graveyard", "sacrifice") and isinstance(
                        event.last_known, Permanent):
                    deaths.append({"step": step, "permanent": event.object,
                                   "rules": list(event.rules)})
    before, after = evaluation.before, evaluation.after
    return {
        "steps": [report.step for report in evaluation.reports],
        "damage": damage,
        "life_gained": life_gained,
        "deaths": deaths,
        "losses": losses,
        "players": {p.id: _player(before.player(p.id), p) for p in after.players},
        "permanents": _changed(before, after),
        "game_over": _game_over(after, evaluation.reports),
    }


def _player(before: Any, after: Any) -> dict[str, Any]:
    return {"life": after.life, "life_change": after.life - before.life,
            "poison": after.poison, "poison_change": after.poison - before.poison,
            "lost": after.lost}


def _changed(before: GameState, after: GameState) -> dict[str, Any]:
    """Permanents still on the battlefield whose marked damage or counters changed."""
    old = {p.id: p for p in before.battlefield}
    changed = {}
    for permanent in after.battlefield:
        was = old.get(permanent.id)
        if was is None or (was.damage, was.counters) != (permanent.damage, permanent.counters):
            changed[permanent.id] = {"damage": permanent.damage,
                                     "counters": dict(permanent.counters)}
    return changed


def _game_over(after: GameState, reports: tuple[StepReport, ...]) -> dict[str, Any] | None:
    losers = [p.id for p in after.players if p.lost]
    if not losers:
        return None
    winners = [p.id for p in after.players if not p.lost]
    return {"step": reports[-1].step, "winners": winners, "losers": losers,
            "rules": ["104.2a"] if winners else ["104.4a"]}


def unmet(expected: Any, actual: Any, where: str = "") -> list[str]:
    """Where `actual` falls short of `expected` (a scenario's `expect`): objects match on
    the keys expected gives, lists item for item in any order, other values equal."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{where or 'outcome'}: expected an object, got {actual!r}"]
        problems = []
        for key, value in expected.items():
            if key not in actual:
                problems.append(f"{where}{key}: missing")
            else:
                problems += unmet(value, actual[key], f"{where}{key}.")
        return problems
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{where.rstrip('.')}: expected {len(expected)} items, got "
                    f"{len(actual) if isinstance(actual, list) else actual!r}"]
        left = list(actual)
        for item in expected:
            match = next((a for a in left if not unmet(item, a)), None)
            if match is None:
                return [f"{where.rstrip('.')}: no item matches {item!r}"]
            left.remove(match)
        return []
    return [] if expected == actual else [f"{where.rstrip('.')}: expected {expected!r}, got "
                                          f"{actual!r}"]
