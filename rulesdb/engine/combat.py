"""Combat damage: who deals damage in which step, legal assignments, and what damage does.

Covers first strike and double strike (two combat damage steps), deathtouch, trample (with
deathtouch and over planeswalkers), lifelink, infect, wither, indestructible (through the
state-based actions) and protection's damage prevention. Damage assignment order is gone
from the rules; the attacking player divides damage freely within the limits checked here.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from . import sba
from .model import GameState, Permanent, protected_from
from .registry import enforces


@dataclass(frozen=True)
class Attack:
    """An attacking creature, what it attacks (player, planeswalker or battle), its blockers."""

    attacker: str
    target: str
    blockers: tuple[str, ...] = ()
    blocked: bool | None = None

    @property
    def is_blocked(self) -> bool:
        """Blocked stays true after its blockers are gone (509.1h)."""
        return bool(self.blockers) if self.blocked is None else self.blocked


@dataclass(frozen=True)
class Assignment:
    """`amount` combat damage assigned (or dealt) by `source` to `target`."""

    source: str
    target: str
    amount: int


@dataclass(frozen=True)
class StepReport:
    """One combat damage step: assignments, damage dealt and prevented, life gained, events."""

    step: str
    assigned: tuple[Assignment, ...]
    dealt: tuple[Assignment, ...]
    prevented: tuple[Assignment, ...]
    life_gained: tuple[tuple[str, int], ...]
    events: tuple[tuple[sba.Event, ...], ...] = field(default=())


class IllegalAssignment(ValueError):
    """A proposed combat damage assignment the rules do not allow."""


Chooser = Callable[[GameState, Attack, int, dict[str, int]], list[Assignment]]

STRIKERS = frozenset({"first strike", "double strike"})


@enforces("702.7b", "702.4b")
def has_first_strike_step(state: GameState, attacks: Iterable[Attack]) -> bool:
    """Whether any attacking or blocking creature has first strike or double strike."""
    return any(STRIKERS & c.keywords for c in _combatants(state, attacks))


@enforces("702.4b", "702.4c", "702.4d", "702.7b", "702.7c")
def dealers(state: GameState, attacks: Iterable[Attack], step: str,
            first_step_strikers: frozenset[str] = frozenset()) -> set[str]:
    """Ids of the creatures that assign combat damage in `step` (first, second or only).

    The second step has those that had neither first strike nor double strike as the first
    step began (`first_step_strikers` holds the ids that had one) and those with double
    strike now.
    """
    combatants = _combatants(state, attacks)
    if step == "first":
        return {c.id for c in combatants if STRIKERS & c.keywords}
    if step == "second":
        return {c.id for c in combatants
                if c.id not in first_step_strikers or "double strike" in c.keywords}
    return {c.id for c in combatants}


@enforces("702.2c", "702.19b")
def lethal_damage(creature: Permanent, pending: int, deathtouch: bool) -> int:
    """Damage still needed to be lethal, counting marked damage and damage assigned this step.

    Any nonzero amount from a source with deathtouch counts as lethal; prevention is ignored.
    """
    needed = max(0, creature.current_toughness - creature.damage - pending)
    return min(needed, 1) if deathtouch else needed


@enforces("702.19b", "702.19c", "702.19d", "702.19f", "702.2c")
def check_assignment(state: GameState, attack: Attack, proposed: list[Assignment],
                     pending: dict[str, int]) -> None:
    """Raise IllegalAssignment unless `proposed` is a legal assignment for the attacker.

    `pending` holds damage other creatures assign to each blocker in the same step.
    """
    attacker = _get(state, attack.attacker)
    blockers = [b for b in attack.blockers if state.permanent(b)]
    power = max(0, attacker.current_power)
    if attack.is_blocked and not blockers and not _excess_targets(state, attack, attacker):
        power = 0  # blocked, its blockers gone, no trample: it assigns no combat damage
    if sum(a.amount for a in proposed) != power or any(a.amount < 0 for a in proposed):
        raise IllegalAssignment(f"{attacker.id} must assign exactly {power} damage")
    by_target: dict[str, int] = defaultdict(int)
    for a in proposed:
        by_target[a.target] += a.amount
    excess = _excess_targets(state, attack, attacker)
    allowed = {*blockers, *excess} if attack.is_blocked else {attack.target, *excess}
    if set(by_target) - allowed:
        raise IllegalAssignment(f"{attacker.id} can't assign damage to "
                                f"{sorted(set(by_target) - allowed)}")
    beyond = sum(n for t, n in by_target.items() if t not in blockers)
    if attack.is_blocked and beyond:
        deathtouch = "deathtouch" in attacker.keywords
        short = [b for b in blockers if by_target.get(b, 0)
                 < lethal_damage(_get(state, b), pending.get(b, 0), deathtouch)]
        if short:
            raise IllegalAssignment(f"{attacker.id} must assign lethal damage to {short} first")
    walker = state.permanent(attack.target)
    player_share = sum(n for t, n in by_target.items()
                       if t not in blockers and t != attack.target)
    on_walker = by_target.get(attack.target, 0) + pending.get(attack.target, 0)
    if player_share and walker and on_walker < walker.loyalty:
        raise IllegalAssignment(f"{attacker.id} must assign damage equal to "
                                f"{walker.id}'s loyalty first")


def _excess_targets(state: GameState, attack: Attack, attacker: Permanent) -> list[str]:
    """Where damage beyond lethal to the blockers may go (702.19b-c, 702.19f)."""
    if "trample over planeswalkers" in attacker.keywords:
        walker = state.permanent(attack.target)
        if walker is not None and walker.is_("planeswalker"):
            return [attack.target, walker.controller or walker.owner]
        return [attack.target]
    if "trample" in attacker.keywords:
        return [attack.target]
    return []


def default_assignment(state: GameState, attack: Attack, power: int,
                       pending: dict[str, int]) -> list[Assignment]:
    """A legal assignment: lethal to each blocker in turn, the rest beyond them if allowed."""
    attacker = _get(state, attack.attacker)
    excess = _excess_targets(state, attack, attacker)
    if not attack.is_blocked and len(excess) < 2:
        return [Assignment(attacker.id, attack.target, power)] if power else []
    blockers = [b for b in attack.blockers if state.permanent(b)] if attack.is_blocked else []
    if not blockers and not excess:
        return []
    deathtouch = "deathtouch" in attacker.keywords
    left, result = power, []
    for blocker in blockers:
        amount = min(left, lethal_damage(_get(state, blocker), pending.get(blocker, 0),
                                         deathtouch))
        result.append(Assignment(attacker.id, blocker, amount))
        left -= amount
    if excess and left:
        walker = state.permanent(attack.target)
        if len(excess) == 2 and walker is not None:
            to_walker = min(left, max(0, walker.loyalty - pending.get(attack.target, 0)))
            result.append(Assignment(attacker.id, attack.target, to_walker))
            left -= to_walker
        result.append(Assignment(attacker.id, excess[-1], left))
    elif left and blockers:
        result.append(Assignment(attacker.id, blockers[-1], left))
    merged: dict[str, int] = defaultdict(int)
    for a in result:
        merged[a.target] += a.amount
    return [Assignment(attacker.id, t, n) for t, n in merged.items() if n]


def blocker_assignment(state: GameState, blocker: Permanent,
                       attackers: list[Permanent]) -> list[Assignment]:
    """A blocker's damage: lethal to each attacker it blocks in turn, the rest to the last."""
    left, result = max(0, blocker.current_power), []
    deathtouch = "deathtouch" in blocker.keywords
    for index, attacker in enumerate(attackers):
        amount = left if index == len(attackers) - 1 else min(
            left, lethal_damage(attacker, 0, deathtouch))
        if amount:
            result.append(Assignment(blocker.id, attacker.id, amount))
        left -= amount
    return result


@enforces("702.16e", "702.15b", "702.15e", "702.80a", "702.90b", "702.90c", "702.2b")
def deal_damage(state: GameState, assignments: list[Assignment]
                ) -> tuple[GameState, tuple[Assignment, ...], tuple[Assignment, ...],
                           tuple[tuple[str, int], ...]]:
    """Deal all assigned damage at once: the new state, damage dealt, prevented, life gained.

    Protection prevents damage from sources of its quality. Damage from infect or wither
    to a creature becomes -1/-1 counters; infect damage to a player becomes poison counters;
    deathtouch marks the creature for 704.5h; each lifelink source is one life-gain event.
    """
    dealt, prevented = [], []
    for a in assignments:
        source = _get(state, a.source)
        target = state.permanent(a.target)
        protection = (target.protection if target else state.player(a.target).protection)
        (prevented if protected_from(protection, source) else dealt).append(a)
    permanents = {p.id: p for p in state.battlefield}
    players = {p.id: p for p in state.players}
    gains: dict[str, int] = {}
    for a in dealt:
        if not a.amount:
            continue
        source = _get(state, a.source)
        if a.target in permanents:
            permanents[a.target] = _damage_permanent(permanents[a.target], source, a.amount)
        else:
            player = players[a.target]
            players[a.target] = (replace(player, poison=player.poison + a.amount)
                                 if "infect" in source.keywords
                                 else replace(player, life=player.life - a.amount))
        if "lifelink" in source.keywords:
            gains[source.id] = gains.get(source.id, 0) + a.amount
    life_gained = []
    for source_id, amount in gains.items():
        source = _get(state, source_id)
        gainer = source.controller or source.owner
        players[gainer] = replace(players[gainer], life=players[gainer].life + amount)
        life_gained.append((gainer, amount))
    new_state = replace(state, players=tuple(players[p.id] for p in state.players),
                        battlefield=tuple(permanents[p.id] for p in state.battlefield))
    return new_state, tuple(dealt), tuple(prevented), tuple(life_gained)


def _damage_permanent(target: Permanent, source: Permanent, amount: int) -> Permanent:
    if target.is_("creature"):
        if {"infect", "wither"} & source.keywords:
            target = target.with_counters(minus1=amount)
        else:
            target = replace(target, damage=target.damage + amount)
        if "deathtouch" in source.keywords:
            target = replace(target, deathtouch_damage=True)
    if target.is_("planeswalker"):
        target = target.with_counters(loyalty=-amount)
    if target.is_("battle"):
        target = target.with_counters(defense=-amount)
    return target


def assign_step(state: GameState, attacks: list[Attack], active: set[str],
                choose: Chooser = default_assignment) -> list[Assignment]:
    """Every assignment of one step: attackers first (checked), then blockers."""
    pending: dict[str, int] = defaultdict(int)
    assignments: list[Assignment] = []
    for attack in attacks:
        attacker = state.permanent(attack.attacker)
        if attacker is None or attacker.id not in active:
            continue
        proposed = choose(state, attack, max(0, attacker.current_power), dict(pending))
        check_assignment(state, attack, proposed, dict(pending))
        for a in proposed:
            pending[a.target] += a.amount
        assignments += proposed
    blocked_by: dict[str, list[Permanent]] = defaultdict(list)
    for attack in attacks:
        attacker = state.permanent(attack.attacker)
        for blocker_id in attack.blockers:
            if attacker is not None and blocker_id in active and state.permanent(blocker_id):
                blocked_by[blocker_id].append(attacker)
    for blocker_id, attackers in blocked_by.items():
        assignments += blocker_assignment(state, _get(state, blocker_id), attackers)
    return assignments


def resolve_combat(state: GameState, attacks: list[Attack],
                   choose: Chooser = default_assignment) -> tuple[GameState, list[StepReport]]:
    """Both combat damage steps as needed, state-based actions performed after each."""
    reports = []
    steps = ["first", "second"] if has_first_strike_step(state, attacks) else ["only"]
    strikers = frozenset(dealers(state, attacks, "first"))
    for step in steps:
        active = dealers(state, attacks, step, strikers)
        assigned = assign_step(state, attacks, active, choose)
        state, dealt, prevented, gained = deal_damage(state, assigned)
        state, rounds = sba.perform(state)
        reports.append(StepReport(step, tuple(assigned), dealt, prevented, gained,
                                  tuple(tuple(r) for r in rounds)))
    return state, reports


def _combatants(state: GameState, attacks: Iterable[Attack]) -> list[Permanent]:
    ids = []
    for attack in attacks:
        ids += [attack.attacker, *attack.blockers]
    return [p for p in (state.permanent(i) for i in dict.fromkeys(ids)) if p is not None]


def _get(state: GameState, permanent_id: str) -> Permanent:
    permanent = state.permanent(permanent_id)
    if permanent is None:
        raise KeyError(f"no permanent {permanent_id} on the battlefield")
    return permanent
