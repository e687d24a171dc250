"""The rules that decide a difference between the reference and an engine: why a creature
deals no damage in a step (or does), why a creature or player stays, why a player's life or
poison or a permanent's damage and counters are what the reference says.

Each function reads the reference's evaluation (the state before each step and what the
step did) and names the rules of cr-2025-06-06 that decided it, as the reference applied
them; `compare` attaches them to its differences.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..engine.combat import FIRST_STRIKE, STRIKERS, StepReport, dealers
from ..engine.division import Assignment, assigned_power, present_blockers
from ..engine.model import Permanent
from ..engine.outcome import Evaluation

# Why a creature deals no combat damage in a step of the other kind than its own.
NOT_DEALING = ("510.4", "702.7b", "702.4b")


def silence(evaluation: Evaluation, step: str, source: str) -> tuple[str, ...]:
    """The rules by which `source` assigns no combat damage in `step` of the evaluation."""
    report = _report(evaluation, step)
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
    kind = _kind(evaluation, step)
    strikers = frozenset(dealers(evaluation.before, attacks, "first"))
    if source not in dealers(state, attacks, kind, strikers):
        return NOT_DEALING
    if permanent.current_power <= 0:
        return ("510.1a",)
    if attack is not None:
        if not assigned_power(state, attack, permanent):
            return ("510.1c",) if attack.is_blocked else ("510.1b",)
        return ("510.1",)
    if not any(state.permanent(a.attacker) for a in blocking):
        return ("510.1d",)
    return ("510.1",) if any(present_blockers(state, a) for a in blocking) else ("510.1d",)


def step_rules(evaluation: Evaluation, step: str) -> tuple[str, ...]:
    """Why the reference plays `step` (or, for a step it does not play, why not)."""
    played = any(r.step == step for r in evaluation.reports)
    if step == FIRST_STRIKE:
        keywords = {k for p in evaluation.before.battlefield if p.id in _fighters(evaluation)
                    for k in p.keywords & STRIKERS}
        found = tuple(rule for keyword, rule in (("first strike", "702.7b"),
                                                 ("double strike", "702.4b"))
                      if keyword in keywords)
        return ("510.4", *found) if played else ("510.4",)
    return ("510.4",)


def survival(evaluation: Evaluation, step: str, item: str) -> tuple[str, ...]:
    """The rules by which `item` (a permanent or a player) is still there after `step` in the
    evaluation: what kept each state-based action that removes it from applying."""
    if any(p.id == item for p in evaluation.before.players):
        return ("704.5a", "704.5c")
    report = _report(evaluation, step)
    permanent = evaluation.before.permanent(item)
    if permanent is not None and permanent.is_("planeswalker"):
        return ("704.5i",)
    rules: list[str] = []
    if permanent is not None and "indestructible" in permanent.keywords:
        rules.append("702.12b")
    if report is not None:
        if any(a.target == item for a in report.prevented):
            rules.append("702.16e")
        dealt = [a for a in report.dealt if a.target == item and a.amount]
        if dealt:
            rules.append("704.5g")
        if any("deathtouch" in _keywords(evaluation, a.source) for a in dealt):
            rules.append("704.5h")
        if any({"infect", "wither"} & _keywords(evaluation, a.source) for a in dealt):
            rules.append("704.5f")
    return tuple(sorted(set(rules), key=rule_order)) or ("704.5f", "704.5g", "704.5h")


def player_rules(evaluation: Evaluation, player: str, life: bool, poison: int,
                 upto: str | None = None) -> tuple[str, ...]:
    """The rules deciding a player's life (when `life`) and poison (when `poison` is not 0:
    positive when the engine gives more poison, negative when it gives less, 2 when it is
    not known) after the steps up to `upto` (all by default).

    Poison comes from infect (702.90b) and toxic (702.164c), both only for combat damage
    dealt: more poison than the reference gives is told by the creatures with infect or
    toxic that dealt that player none (and why they dealt none), less by those that did."""
    rules: list[str] = []
    dealt = list(_dealt_to(evaluation, player, upto))
    if life:
        rules += ["702.90b" if "infect" in _keywords(evaluation, a.source) else "120.3a"
                  for a in dealt]
        rules += ["702.15b" for report in _reports(evaluation, upto)
                  for gainer, _, _ in report.life_gained if gainer == player]
        rules = rules or ["120.3a"]
    if poison:
        dealing_ids = {a.source for a in dealt}
        found = []
        for attack in evaluation.scenario.attacks:
            source = evaluation.before.permanent(attack.attacker)
            if source is None or not (source.toxic or "infect" in source.keywords):
                continue
            named = (["702.164c"] if source.toxic else []) + (
                ["702.90b"] if "infect" in source.keywords else [])
            if source.id in dealing_ids and poison != 1:
                found += named
            elif source.id not in dealing_ids and poison != -1:
                found += [*named, *_kept_from(evaluation, source, player, upto)]
        rules += found or ["702.90b"]
    return tuple(sorted(set(rules), key=rule_order))


def permanent_rules(evaluation: Evaluation, item: str, reference: object,
                    engine: object) -> tuple[str, ...]:
    """The rules deciding a permanent's marked damage and counters after combat."""
    ref_damage, ref_counters = reference if isinstance(reference, tuple) else (0, ())
    eng_damage, eng_counters = engine if isinstance(engine, tuple) else (0, ())
    sources = {a.source for report in evaluation.reports for a in report.dealt
               if a.target == item and a.amount}
    counters_from = [("702.90c", "infect"), ("702.80a", "wither")]
    rules = []
    if ref_damage != eng_damage:
        rules.append("120.3e")
        rules += [rule for rule, keyword in counters_from
                  if any(keyword in _keywords(evaluation, s) for s in sources)]
    for kind in {k for k, _ in (*ref_counters, *eng_counters)}:
        if dict(ref_counters).get(kind) == dict(eng_counters).get(kind):
            continue
        if kind == "-1/-1":
            rules += [rule for rule, keyword in counters_from
                      if any(keyword in _keywords(evaluation, s) for s in sources)] or [
                          "704.5q"]
        elif kind == "+1/+1":
            rules.append("704.5q")
        else:
            rules.append({"loyalty": "120.3c", "defense": "120.3h"}.get(kind, "120.3"))
    return tuple(sorted(set(rules), key=rule_order)) or ("120.3e",)


def rule_order(rule: str) -> tuple[int, ...]:
    """A rule number's place in the rules: 120.3a before 510.1a before 702.2c before 702.19b."""
    number, _, sub = rule.partition(".")
    digits = "".join(c for c in sub if c.isdigit())
    letters = sub[len(digits):]
    return (int(number), int(digits or 0), *(ord(c) for c in letters))


def _kept_from(evaluation: Evaluation, source: Permanent, player: str,
               upto: str | None) -> list[str]:
    """Why `source` dealt `player` no combat damage: prevented, or assigned none to them."""
    if any(a.source == source.id and a.target == player
           for report in _reports(evaluation, upto) for a in report.prevented):
        return ["702.16e"]
    reports = list(_reports(evaluation, upto))
    if not reports:
        return list(silence(evaluation, "regular", source.id))
    found: list[str] = []
    for report in reports:
        assigned = [a for a in report.assigned if a.source == source.id]
        why = silence(evaluation, report.step, source.id) if not assigned else tuple(
            _elsewhere(assigned))
        if why != NOT_DEALING:  # a step it takes no part in says nothing of it
            found += why
    return found


def _elsewhere(assigned: list[Assignment]) -> list[str]:
    """The rules that sent a creature's damage to what it was assigned to."""
    return [rule for a in assigned for rule in a.rules]


def _dealt_to(evaluation: Evaluation, target: str, upto: str | None) -> Iterator[Assignment]:
    for report in _reports(evaluation, upto):
        yield from (a for a in report.dealt if a.target == target and a.amount)


def _reports(evaluation: Evaluation, upto: str | None) -> Iterator[StepReport]:
    for report in evaluation.reports:
        yield report
        if report.step == upto:
            return


def _report(evaluation: Evaluation, step: str) -> StepReport | None:
    return next((r for r in evaluation.reports if r.step == step), None)


def _kind(evaluation: Evaluation, step: str) -> str:
    """The step as `dealers` names it: first, second or only."""
    two_steps = bool(evaluation.reports) and evaluation.reports[0].step == FIRST_STRIKE
    return "first" if step == FIRST_STRIKE else "second" if two_steps else "only"


def _keywords(evaluation: Evaluation, permanent_id: str) -> frozenset[str]:
    permanent = evaluation.before.permanent(permanent_id)
    return permanent.keywords if permanent is not None else frozenset()


def _fighters(evaluation: Evaluation) -> set[str]:
    return {i for a in evaluation.scenario.attacks for i in (a.attacker, *a.blockers)}
