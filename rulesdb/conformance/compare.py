"""Two outcomes of one scenario compared where they first part, with the rules deciding it.

Combat runs in causal order: in each damage step, the divisions of damage, then what is
prevented, then life gained, then the state-based actions; after the steps, the end of the
game and the final life, poison, damage and counters. A difference downstream of another is
a consequence, so `compare` returns the root differences: those at the earliest point where
the outcomes part before the reference's game is over, then (marked `after_end`) a step the
engine played after it. Each carries the rules that decide it (`reasons`).

The reference's evaluation compared is the one replayed with the engine's own divisions
(`choices`): a division is compared by its legality. Its illegal ones (`illegal`) are roots
of their own; where the replay played them as given, what follows them is compared too.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..engine.combat import STEPS
from ..engine.division import IllegalAssignment
from ..engine.outcome import Evaluation
from . import reading, reasons
from .reading import Malformed, engine_steps

COMPARED = ("steps", "damage", "life_gained", "deaths", "losses", "players", "permanents",
            "game_over")


class Cause(NamedTuple):
    """What groups differences: the aspect that differs and the rules that decide it (for an
    engine's exception, its class as `detail`)."""

    aspect: str
    rules: tuple[str, ...]
    detail: str = ""


@dataclass(frozen=True)
class Difference:
    """One root difference: what differs, where, both values, the rules that decide it.

    `side` is the attacking or the defending player's for a division; `note` says in words
    what a division breaks; `after_end` marks a step the engine played after the reference's
    game was over, `independent` whether that is a fault of its own (the engine's outcome
    itself has the game over before it) rather than a consequence of an earlier difference;
    `game_ends` marks what state-based actions decide in the step that ended the game (a
    death then, the damage and counters left on a permanent).
    """

    aspect: str
    step: str | None
    item: str
    reference: Any
    engine: Any
    rules: tuple[str, ...]
    note: str = ""
    side: str = ""
    after_end: bool = False
    independent: bool = True
    game_ends: bool = False

    @property
    def cause(self) -> Cause:
        """What groups it with others: the aspect and the deciding rules."""
        return Cause(self.aspect, self.rules,
                     str(self.item) if self.aspect == "engine error" else "")

    def as_dict(self) -> dict[str, Any]:
        """The difference as JSON."""
        found = {"aspect": self.aspect, "step": self.step, "item": self.item,
                 "reference": self.reference, "engine": self.engine, "rules": list(self.rules)}
        if self.note:
            found["note"] = self.note
        if self.side:
            found["side"] = self.side
        if self.after_end:
            found["after_end"] = True
        return found


def engine_error(failure: str, rules: tuple[str, ...] = ()) -> Difference:
    """The difference of an engine that raised (`failure`: "Class: message") or returned
    something that is not an outcome."""
    kind, _, message = failure.partition(": ")
    return Difference("engine error", None, kind, None, message or failure, rules)


def compare(evaluation: Evaluation, reference: dict[str, Any], engine: Any,
            illegal: Sequence[IllegalAssignment] = ()) -> list[Difference]:
    """The root differences between the reference's outcome and an engine's (empty when
    they agree on every field the engine gives), the differences after the reference's game
    was over last."""
    if not isinstance(engine, dict):
        return [engine_error(f"Malformed: the outcome is {type(engine).__name__}, not an "
                             "object")]
    try:
        return list(_roots(evaluation, reference, engine, illegal))
    except (Malformed, TypeError, KeyError, AttributeError, ValueError) as exc:
        return [engine_error(f"Malformed: {type(exc).__name__}: {exc}")]


def _roots(evaluation: Evaluation, ref: dict[str, Any], eng: dict[str, Any],
           illegal: Sequence[IllegalAssignment]) -> Iterator[Difference]:
    halted = next((p.step for p in illegal if p.step not in ref["steps"]), None)
    ref_steps = [*ref["steps"], *([halted] if halted else [])]
    eng_steps = engine_steps(eng, ref_steps)
    ended = ref["game_over"]["step"] if ref["game_over"] else None
    divisions: list[Difference] = []  # illegal ones: each a root, the play went on after it
    found: list[Difference] = []
    for step in STEPS:
        in_ref, in_eng = step in ref_steps, step in eng_steps
        if (ended is not None and not in_ref) or not (in_ref or in_eng):
            continue
        if in_ref != in_eng:
            found.append(Difference("steps", step, step, ref["steps"], eng_steps,
                                    reasons.step_rules(evaluation, step)))
            break
        divisions += [_illegal(evaluation, eng, p) for p in illegal if p.step == step]
        if step == halted:
            break
        found += _step_roots(evaluation, ref, eng, step, eng_steps)
        if found:
            break
    late = _after_end(eng, eng_steps, ref_steps, ended, bool(found or divisions))
    if not found and late is None and halted is None:
        found = list(_final(evaluation, ref, eng))
    yield from divisions
    yield from found
    if late is not None:
        yield late


def _after_end(eng: dict[str, Any], eng_steps: list[str], ref_steps: list[str],
               ended: str | None, earlier: bool) -> Difference | None:
    """The first step the engine played after the reference's game was over, if any."""
    if ended is None:
        return None
    late = [s for s in eng_steps if s not in ref_steps]
    if not late:
        return None
    own_end = {reading.step_of(r) for r in reading.records(eng.get("losses", []))}
    if isinstance(eng.get("game_over"), dict) and eng["game_over"].get("step") in STEPS:
        own_end.add(eng["game_over"]["step"])
    knew = any(STEPS.index(s) < STEPS.index(late[0]) for s in own_end)
    return Difference("steps", late[0], late[0], ref_steps, eng_steps, ("104.2a",),
                      note=f"the game was over after the {ended} step", after_end=True,
                      independent=knew or not earlier)


def _illegal(evaluation: Evaluation, eng: dict[str, Any],
             problem: IllegalAssignment) -> Difference:
    """An illegal division of the engine's, decided by the rule it breaks."""
    step, source = problem.step, problem.source
    division = {reading.text(r["target"]): reading.number(r["amount"])
                for r in reading.records(eng["damage"])
                if r.get("step") == step and r.get("source") == source
                and reading.number(r["amount"])}
    rules: tuple[str, ...] = (problem.rule,)
    attacker = evaluation.before.permanent(source)
    if problem.rule in ("702.19b", "702.19c") and attacker and "deathtouch" in attacker.keywords:
        rules = (problem.rule, "702.2c")  # deathtouch's lethal damage
    return Difference("division", step, source, None, division, rules, note=str(problem),
                      side=_side(evaluation, source))


def _side(evaluation: Evaluation, source: str) -> str:
    if any(a.attacker == source for a in evaluation.scenario.attacks):
        return "attacker"
    return "blocker" if any(source in a.blockers for a in evaluation.scenario.attacks) else ""


def _step_roots(evaluation: Evaluation, ref: dict[str, Any], eng: dict[str, Any],
                step: str, eng_steps: list[str]) -> Iterator[Difference]:
    """Differences in one step both played, at its first level that has any."""
    if "damage" in eng:
        ref_damage = reading.damage(ref["damage"], step)
        eng_damage = reading.damage(eng["damage"], step)
        found = False
        for source in sorted(set(ref_damage) | set(eng_damage)):
            mine = {t: n for t, (n, _) in ref_damage.get(source, {}).items()}
            theirs = {t: n for t, (n, _) in eng_damage.get(source, {}).items()}
            if mine != theirs:
                found = True
                rules = (reasons.silence(evaluation, step, source) if not mine
                         else _assignment_rules(ref, step, source, mine, theirs))
                yield Difference("division", step, source, mine, theirs, rules,
                                 side=_side(evaluation, source))
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
        mine = reading.gains(ref["life_gained"], step)
        theirs = reading.gains(eng["life_gained"], step)
        if mine != theirs:
            for player in sorted(set(mine) | set(theirs)):
                if mine.get(player) != theirs.get(player):
                    yield Difference("life gained", step, player, mine.get(player),
                                     theirs.get(player), ("702.15b", "702.15e"))
            return
    ending = any(r["step"] == step for r in ref["losses"])
    sba: list[Difference] = []
    changed: list[Difference] = []
    for field, aspect, key in (("deaths", "deaths", "permanent"),
                               ("losses", "losses", "player")):
        if field not in eng:
            continue
        mine = {r[key]: r["rules"] for r in ref[field] if r["step"] == step}
        theirs = {reading.text(r[key]) for r in reading.records(eng[field])
                  if r.get("step") == step}
        for item in sorted(set(mine) ^ theirs):
            if aspect == "losses" and eng_steps[-1:] == [step] and "players" in eng:
                player = _changed_player(evaluation, eng, step, item)
                if player is not None:
                    changed.append(player)
                    continue
            rules = (tuple(mine[item]) if item in mine
                     else reasons.survival(evaluation, step, item))
            sba.append(Difference(aspect, step, item, item in mine, item in theirs, rules,
                                  game_ends=ending and aspect == "deaths"))
    # a loss the engine's life or poison explains comes before the state-based actions
    yield from changed or sba


def _changed_player(evaluation: Evaluation, eng: dict[str, Any], step: str,
                    player: str) -> Difference | None:
    """A player's loss told apart by their life or poison: the engine's as its game ended in
    `step` against the reference's after that step, when they differ."""
    reports = list(evaluation.reports)
    index = next((i for i, r in enumerate(reports) if r.step == step), len(reports))
    following = reports[index + 1].before if index + 1 < len(reports) else None
    state = following or evaluation.after
    mine = next(((p.life, p.poison) for p in state.players if p.id == player), None)
    theirs = reading.players(eng["players"]).get(player)
    if mine is None or theirs is None or mine == theirs:
        return None
    return _player_difference(evaluation, player, mine, theirs, step)


def _player_difference(evaluation: Evaluation, player: str, mine: Any, theirs: Any,
                       upto: str | None = None) -> Difference:
    life = mine is None or theirs is None or mine[0] != theirs[0]
    poison = 0
    if mine is None or theirs is None:
        poison = 2
    elif mine[1] != theirs[1]:
        poison = 1 if theirs[1] > mine[1] else -1
    return Difference("life and poison", upto, player,
                      None if mine is None else {"life": mine[0], "poison": mine[1]},
                      None if theirs is None else {"life": theirs[0], "poison": theirs[1]},
                      reasons.player_rules(evaluation, player, life, poison, upto))


def _final(evaluation: Evaluation, ref: dict[str, Any], eng: dict[str, Any]
           ) -> Iterator[Difference]:
    """Differences in the end of the game and the final life, poison, damage, counters."""
    if "game_over" in eng and reading.ending(eng["game_over"]) != reading.ending(ref["game_over"]):
        yield Difference("game over", None, "game", ref["game_over"], eng["game_over"],
                         ("104.2a",))
        return
    if "players" in eng:
        ref_players, eng_players = reading.players(ref["players"]), reading.players(eng["players"])
        for player in sorted(set(ref_players) | set(eng_players)):
            mine, theirs = ref_players.get(player), eng_players.get(player)
            if mine != theirs:
                yield _player_difference(evaluation, player, mine, theirs)
    if "permanents" in eng:
        ref_perm = reading.permanents(ref["permanents"])
        eng_perm = reading.permanents(eng["permanents"])
        for permanent in sorted(set(ref_perm) | set(eng_perm)):
            mine, theirs = ref_perm.get(permanent), eng_perm.get(permanent)
            if mine != theirs:
                yield Difference("permanents", None, permanent,
                                 reading.permanent_json(mine), reading.permanent_json(theirs),
                                 reasons.permanent_rules(evaluation, permanent, mine, theirs),
                                 game_ends=ref["game_over"] is not None)


def _assignment_rules(ref: dict[str, Any], step: str, source: str, mine: dict[str, int],
                      theirs: dict[str, int]) -> tuple[str, ...]:
    """The rules of the first of the reference's records for `source` in `step` whose amount
    differs (a division is decided in order: lethal damage to blockers, then the excess), else
    of all its records (a scenario's own division, compared without a replay)."""
    differing = {t for t in {*mine, *theirs} if mine.get(t) != theirs.get(t)}
    records = [r for r in ref["damage"] if r["step"] == step and r["source"] == source]
    first = next((r for r in records if r["target"] in differing), None)
    chosen = [first] if first is not None else records
    return tuple(dict.fromkeys(rule for r in chosen for rule in r["rules"]
                               if rule != "702.16e"))
