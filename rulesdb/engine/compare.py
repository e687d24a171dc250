"""Two outcomes of one scenario compared where they first part, with the rules deciding it.

Combat runs in causal order: in each damage step, what is assigned, then what is prevented,
then life gained, then the state-based actions; after the steps, the end of the game and
the final life, poison, damage and counters. A difference downstream of another is a
consequence, so `compare` returns only the root differences: those at the earliest point
where the outcomes part. Each carries the rules the reference applied there (the rules of
its damage records, of its state-based actions, or why a creature dealt no damage), and
`(aspect, rules)` is its cause: disagreements with one cause share a fault.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .combat import FIRST_STRIKE, STEPS, dealers
from .division import assigned_power, present_blockers
from .outcome import Evaluation

COMPARED = ("steps", "damage", "life_gained", "deaths", "losses", "players", "permanents",
            "game_over")
Cause = tuple[str, tuple[str, ...]]


@dataclass(frozen=True)
class Difference:
    """One root difference: what differs, where, both values, the rules that decide it."""

    aspect: str
    step: str | None
    item: str
    reference: Any
    engine: Any
    rules: tuple[str, ...]

    @property
    def cause(self) -> Cause:
        """What groups it with others: the aspect and the deciding rules."""
        return (self.aspect, self.rules)

    def as_dict(self) -> dict[str, Any]:
        """The difference as JSON."""
        return {"aspect": self.aspect, "step": self.step, "item": self.item,
                "reference": self.reference, "engine": self.engine, "rules": list(self.rules)}


class Malformed(ValueError):
    """An engine's outcome that does not have the documented shape."""


def compare(evaluation: Evaluation, reference: dict[str, Any], engine: Any) -> list[Difference]:
    """The root differences between the reference's outcome and an engine's (empty when
    they agree on every field the engine gives)."""
    if not isinstance(engine, dict):
        return [Difference("engine error", None, "outcome", "an object",
                           type(engine).__name__, ("outcome shape",))]
    try:
        return list(_roots(evaluation, reference, engine))
    except (Malformed, TypeError, KeyError, AttributeError, ValueError) as exc:
        return [Difference("engine error", None, "outcome", "the documented shape",
                           f"{type(exc).__name__}: {exc}", ("outcome shape",))]


def _roots(evaluation: Evaluation, ref: dict[str, Any], eng: dict[str, Any]
           ) -> Iterator[Difference]:
    if "steps" in eng and list(eng["steps"]) != ref["steps"]:
        over = ref["game_over"] and len(eng["steps"]) > len(ref["steps"])
        yield Difference("steps", None, "steps", ref["steps"], eng["steps"],
                         ("104.2a",) if over else ("510.4",))
        return
    steps = _ordered({*ref["steps"], *_steps_of(eng)})
    for step in steps:
        found = list(_step_roots(evaluation, ref, eng, step))
        if found:
            yield from found
            return
    if "game_over" in eng and _ending(eng["game_over"]) != _ending(ref["game_over"]):
        yield Difference("game over", None, "game", ref["game_over"], eng["game_over"],
                         ("104.2a",))
        return
    if "players" in eng:
        ref_players, eng_players = _players(ref["players"]), _players(eng["players"])
        for player in sorted(set(ref_players) | set(eng_players)):
            mine, theirs = ref_players.get(player), eng_players.get(player)
            if mine != theirs:
                life = mine is None or theirs is None or mine[0] != theirs[0]
                yield Difference("life and poison", None, player, mine, theirs,
                                 ("120.3a",) if life else ("120.3b",))
    if "permanents" in eng:
        ref_perm, eng_perm = _permanents(ref["permanents"]), _permanents(eng["permanents"])
        for permanent in sorted(set(ref_perm) | set(eng_perm)):
            if ref_perm.get(permanent) != eng_perm.get(permanent):
                yield Difference("permanents", None, permanent, ref_perm.get(permanent),
                                 eng_perm.get(permanent), ("120.3d", "120.3e"))


def _step_roots(evaluation: Evaluation, ref: dict[str, Any], eng: dict[str, Any],
                step: str) -> Iterator[Difference]:
    """Differences in one step, at its first level that has any."""
    if "damage" in eng:
        ref_damage, eng_damage = _damage(ref["damage"], step), _damage(eng["damage"], step)
        found = False
        for source in sorted(set(ref_damage) | set(eng_damage)):
            mine = {t: n for t, (n, _) in ref_damage.get(source, {}).items()}
            theirs = {t: n for t, (n, _) in eng_damage.get(source, {}).items()}
            if mine != theirs:
                found = True
                differing = {t for t in {*mine, *theirs} if mine.get(t) != theirs.get(t)}
                yield Difference("damage assigned", step, source, mine, theirs,
                                 _assignment_rules(evaluation, ref, step, source, differing))
        if found:
            return
        for source in sorted(ref_damage):
            for target, (_, prevented) in sorted(ref_damage[source].items()):
                other = eng_damage[source][target][1]
                if other != prevented:
                    found = True
                    yield Difference("damage prevented", step, f"{source} → {target}",
                                     prevented, other, ("702.16e",))
        if found:
            return
    if "life_gained" in eng:
        mine, theirs = _gains(ref["life_gained"], step), _gains(eng["life_gained"], step)
        if mine != theirs:
            for player in sorted(set(mine) | set(theirs)):
                if mine.get(player) != theirs.get(player):
                    yield Difference("life gained", step, player, mine.get(player),
                                     theirs.get(player), ("702.15b", "702.15e"))
            return
    for field, aspect, key in (("deaths", "deaths", "permanent"),
                               ("losses", "losses", "player")):
        if field not in eng:
            continue
        mine = {r[key]: r["rules"] for r in ref[field] if r["step"] == step}
        theirs = {_text(r[key]) for r in _records(eng[field]) if r.get("step") == step}
        for item in sorted(set(mine) ^ theirs):
            rules = tuple(mine[item]) if item in mine else _survival_rules(evaluation, item)
            yield Difference(aspect, step, item, item in mine, item in theirs, rules)


def _assignment_rules(evaluation: Evaluation, ref: dict[str, Any], step: str, source: str,
                      differing: set[str]) -> tuple[str, ...]:
    """The rules of the first of the reference's records for `source` in `step` whose amount
    differs (a division is decided in order: lethal damage to blockers, then the excess), else
    of all its records (the engine sent damage where the reference sent none), else why it
    dealt none."""
    records = [r for r in ref["damage"] if r["step"] == step and r["source"] == source]
    first = next((r for r in records if r["target"] in differing), None)
    chosen = [first] if first is not None else records
    rules = dict.fromkeys(rule for r in chosen for rule in r["rules"] if rule != "702.16e")
    return tuple(rules) or silence(evaluation, step, source)


def silence(evaluation: Evaluation, step: str, source: str) -> tuple[str, ...]:
    """The rules by which `source` assigns no combat damage in `step` of the evaluation."""
    report = next((r for r in evaluation.reports if r.step == step), None)
    if report is None or report.before is None:
        return ("104.2a",) if evaluation.reports and any(
            p.lost for p in evaluation.after.players) else ("510.4",)
    state, attacks = report.before, list(evaluation.scenario.attacks)
    permanent = state.permanent(source)
    attack = next((a for a in attacks if a.attacker == source), None)
    blocking = [a for a in attacks if source in a.blockers]
    if permanent is None:
        return ("506.4",) if attack or blocking else ("510.1",)
    if not attack and not blocking:
        return ("510.1",)
    two_steps = evaluation.reports[0].step == FIRST_STRIKE
    kind = "first" if step == FIRST_STRIKE else "second" if two_steps else "only"
    strikers = frozenset(dealers(evaluation.before, attacks, "first"))
    if source not in dealers(state, attacks, kind, strikers):
        return ("510.4", "702.7b", "702.4b")
    if permanent.current_power <= 0:
        return ("510.1a",)
    if attack is not None:
        if not assigned_power(state, attack, permanent):
            return ("510.1c",) if attack.is_blocked else ("510.1b",)
        return ("510.1",)
    if not any(state.permanent(a.attacker) for a in blocking):
        return ("510.1d",)
    return ("510.1",) if any(present_blockers(state, a) for a in blocking) else ("510.1d",)


def _survival_rules(evaluation: Evaluation, item: str) -> tuple[str, ...]:
    """The rules that would have removed `item` (a permanent or a player) had they applied."""
    if any(p.id == item for p in evaluation.before.players):
        return ("704.5a", "704.5c")
    permanent = evaluation.before.permanent(item)
    if permanent is not None and permanent.is_("planeswalker"):
        return ("704.5i",)
    rules = ("704.5f", "704.5g", "704.5h")
    return (*rules, "702.12b") if permanent and "indestructible" in permanent.keywords else rules


def _ordered(steps: set[str]) -> list[str]:
    return sorted(steps, key=lambda s: (STEPS.index(s) if s in STEPS else len(STEPS), s))


def _steps_of(outcome: dict[str, Any]) -> set[str]:
    found = set(outcome.get("steps", []))
    for field in ("damage", "life_gained", "deaths", "losses"):
        found |= {_text(r["step"]) for r in _records(outcome.get(field, []))}
    return found


def _records(value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, list) or not all(isinstance(r, dict) for r in value):
        raise Malformed("expected a list of objects")
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise Malformed(f"expected a string, got {value!r}")
    return value


def _number(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise Malformed(f"expected an integer, got {value!r}")
    return value


def _damage(records: Any, step: str) -> dict[str, dict[str, tuple[int, int]]]:
    """source → target → (amount, prevented) of one step; records of one pair add up."""
    found: dict[str, dict[str, tuple[int, int]]] = {}
    for record in _records(records):
        if record.get("step") != step:
            continue
        amount, prevented = _number(record["amount"]), _number(record.get("prevented", 0))
        if not amount:
            continue
        pairs = found.setdefault(_text(record["source"]), {})
        old = pairs.get(_text(record["target"]), (0, 0))
        pairs[record["target"]] = (old[0] + amount, old[1] + prevented)
    return found


def _gains(records: Any, step: str) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for record in _records(records):
        if record.get("step") == step and _number(record["amount"]):
            found.setdefault(_text(record["player"]), []).append(record["amount"])
    return {player: sorted(amounts) for player, amounts in found.items()}


def _players(value: Any) -> dict[str, tuple[int, int]]:
    if not isinstance(value, dict):
        raise Malformed("players: expected an object")
    return {player: (_number(data["life"]), _number(data.get("poison", 0)))
            for player, data in value.items()}


def _permanents(value: Any) -> dict[str, tuple[int, tuple[tuple[str, int], ...]]]:
    if not isinstance(value, dict):
        raise Malformed("permanents: expected an object")
    return {permanent: (_number(data.get("damage", 0)),
                        tuple(sorted((k, _number(n)) for k, n in
                                     data.get("counters", {}).items() if n)))
            for permanent, data in value.items()}


def _ending(value: Any) -> tuple[str, tuple[str, ...]] | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise Malformed("game_over: expected an object or null")
    return (_text(value["step"]), tuple(sorted(value.get("winners", []))))
