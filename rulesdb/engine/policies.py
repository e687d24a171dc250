"""Damage-assignment policies: named, legal ways for a player to divide combat damage.

The rules leave the division to the players (510.1c-d, 702.19b-c); a scenario names the
policy each side follows, or gives the division itself. Every policy here only makes legal
assignments, whatever the others assign in the same step.

- `lethal_in_order` (default): the creatures it faces, in the order the scenario lists
  them (an attacker's blockers in the order of `blocks`, a blocker's `attackers`), each get
  lethal damage in turn: toughness less damage already marked and damage assigned to it
  earlier in the step (attackers choose in the order of `attacks`, blockers in the order of
  `blocks`), 1 from a source with deathtouch, none once a deathtouch source has assigned it
  damage this step. What remains goes, for an attacker with trample, to what it attacks
  (with trample over planeswalkers: the planeswalker's loyalty first, then its controller);
  otherwise onto the last creature.
- `first_takes_all`: all the damage to the first creature it faces (an unblocked attacker:
  to what it attacks; a blocked trampler whose blockers are all gone: to what it attacks).
"""

from __future__ import annotations

from .combat import AttackerChooser, BlockerChooser
from .division import (
    Assignment,
    Pending,
    assigned_power,
    excess_targets,
    lethal_damage,
    present_blockers,
)
from .model import Attack, GameState, Permanent

DEFAULT = "lethal_in_order"


def lethal_in_order(state: GameState, step: str, attack: Attack,
                    pending: Pending) -> list[Assignment]:
    """An attacker's damage: lethal to each blocker in turn, the rest beyond them when it
    tramples, else onto the last blocker."""
    attacker = state.permanent(attack.attacker)
    assert attacker is not None
    power = assigned_power(state, attack, attacker)
    if not power:
        return []
    excess = excess_targets(state, attack, attacker)
    blockers = present_blockers(state, attack) if attack.is_blocked else []
    if not attack.is_blocked and len(excess) < 2:
        return [Assignment(attacker.id, excess[0] if excess else attack.target, power)]
    deathtouch = "deathtouch" in attacker.keywords
    left, result = power, []
    for blocker_id in blockers:
        blocker = state.permanent(blocker_id)
        assert blocker is not None
        amount = min(left, lethal_damage(blocker, pending, deathtouch))
        result.append(Assignment(attacker.id, blocker_id, amount))
        left -= amount
    if excess and left:
        walker = state.permanent(attack.target)
        if len(excess) == 2 and walker is not None:
            to_walker = min(left, max(0, walker.loyalty - pending.amounts.get(walker.id, 0)))
            result.append(Assignment(attacker.id, walker.id, to_walker))
            left -= to_walker
        result.append(Assignment(attacker.id, excess[-1], left))
    elif left and blockers:
        result.append(Assignment(attacker.id, blockers[-1], left))
    return _merged(attacker.id, result)


def first_takes_all(state: GameState, step: str, attack: Attack,
                    pending: Pending) -> list[Assignment]:
    """An attacker's damage: all of it to its first blocker still there, or to what it
    attacks when unblocked (or blocked, trampling, with no blocker left)."""
    attacker = state.permanent(attack.attacker)
    assert attacker is not None
    power = assigned_power(state, attack, attacker)
    if not power:
        return []
    blockers = present_blockers(state, attack) if attack.is_blocked else []
    if blockers:
        return [Assignment(attacker.id, blockers[0], power)]
    excess = excess_targets(state, attack, attacker)
    if attack.is_blocked:
        return [Assignment(attacker.id, excess[-1], power)]
    if len(excess) == 2:
        return lethal_in_order(state, step, attack, pending)  # the planeswalker's loyalty first
    return [Assignment(attacker.id, excess[0] if excess else attack.target, power)]


def blocker_lethal_in_order(state: GameState, step: str, blocker: Permanent,
                            attackers: list[Permanent], pending: Pending) -> list[Assignment]:
    """A blocker's damage: lethal to each attacker it blocks in turn, the rest to the last."""
    left = max(0, blocker.current_power)
    deathtouch = "deathtouch" in blocker.keywords
    result = []
    for index, attacker in enumerate(attackers):
        last = index == len(attackers) - 1
        amount = left if last else min(left, lethal_damage(attacker, pending, deathtouch))
        result.append(Assignment(blocker.id, attacker.id, amount))
        left -= amount
    return _merged(blocker.id, result)


def blocker_first_takes_all(state: GameState, step: str, blocker: Permanent,
                            attackers: list[Permanent], pending: Pending) -> list[Assignment]:
    """A blocker's damage: all of it to the first attacker it blocks that is still there."""
    power = max(0, blocker.current_power)
    return [Assignment(blocker.id, attackers[0].id, power)] if power and attackers else []


POLICIES: dict[str, tuple[AttackerChooser, BlockerChooser]] = {
    "lethal_in_order": (lethal_in_order, blocker_lethal_in_order),
    "first_takes_all": (first_takes_all, blocker_first_takes_all),
}


def _merged(source: str, assignments: list[Assignment]) -> list[Assignment]:
    totals: dict[str, int] = {}
    for a in assignments:
        totals[a.target] = totals.get(a.target, 0) + a.amount
    return [Assignment(source, target, amount) for target, amount in totals.items() if amount]
