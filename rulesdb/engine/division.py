"""Legal divisions of one creature's combat damage (510.1a-e, 702.19b-f, 702.2c): who may
be assigned damage, how much is lethal, what the attacking player's creatures assign in the
same step counts for; and the records of a division (`Assignment`).

The rules leave the division itself to the players; `policies` makes one, a scenario or an
engine under test may give its own, and `step_problems` says which rule a division breaks.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from .model import Attack, GameState, Permanent
from .registry import enforces

TRAMPLE = frozenset({"trample", "trample over planeswalkers"})
Checked = Callable[[str, str], bool]


@dataclass(slots=True)
class Assignment:
    """`amount` combat damage assigned (or dealt) by `source` to `target`; `rules` say why
    it went there (not part of equality). Not frozen, for speed (thousands are made a
    second); nothing changes one once made."""

    source: str
    target: str
    amount: int
    rules: tuple[str, ...] = field(default=(), compare=False)


@dataclass
class Pending:
    """Damage the attacking player's creatures assign in one step, as the lethal-damage
    checks of trample (702.19b-c) and deathtouch (702.2c) count it: amounts by recipient,
    and the creatures a deathtouch source assigns damage to."""

    amounts: dict[str, int] = field(default_factory=dict)
    deathtouch: set[str] = field(default_factory=set)

    def add(self, source: Permanent, assignments: Iterable[Assignment]) -> None:
        """Count `assignments` made by `source`."""
        for a in assignments:
            self.amounts[a.target] = self.amounts.get(a.target, 0) + a.amount
            if a.amount and "deathtouch" in source.keywords:
                self.deathtouch.add(a.target)




class IllegalAssignment(ValueError):
    """A proposed combat damage assignment the rules do not allow; `rule` says which.

    Raised for the first illegal division of a step: `problems` holds every illegal division
    of that step (this one first), `reports` the steps played before it (`combat.StepReport`)
    and `state` the game as that step began.
    """

    def __init__(self, source: str, message: str, rule: str, step: str = "") -> None:
        super().__init__(message)
        self.source, self.rule, self.step = source, rule, step
        self.problems: tuple[IllegalAssignment, ...] = (self,)
        self.reports: tuple[object, ...] = ()
        self.state: GameState | None = None


@enforces("702.2c", "702.19b")
def lethal_damage(creature: Permanent, pending: Pending, deathtouch: bool) -> int:
    """Damage still needed to be lethal, counting marked damage and damage assigned this step.

    Any nonzero amount from a source with deathtouch counts as lethal, its own or another's
    assigned in the same step; prevention is ignored.
    """
    if creature.id in pending.deathtouch:
        return 0
    needed = max(0, creature.current_toughness - creature.damage
                 - pending.amounts.get(creature.id, 0))
    return min(needed, 1) if deathtouch else needed


def present_blockers(state: GameState, attack: Attack) -> list[str]:
    """The attacker's blockers still on the battlefield, in their order."""
    return [b for b in attack.blockers if state.permanent(b) is not None]


@enforces("510.1b", "702.19b", "702.19c", "702.19e", "702.19f")
def excess_targets(state: GameState, attack: Attack, attacker: Permanent) -> list[str]:
    """Where damage beyond lethal to the blockers may go (trample): what it attacks, and the
    planeswalker's controller for trample over planeswalkers; once the planeswalker or battle
    attacked is gone, nothing (trample over planeswalkers: the defending player)."""
    if not TRAMPLE & attacker.keywords:
        return []
    target = state.permanent(attack.target)
    over_walkers = "trample over planeswalkers" in attacker.keywords
    if target is None:
        if is_player(state, attack.target):
            return [attack.target]
        return [attack.defender] if over_walkers and attack.defender else []
    if over_walkers and target.is_("planeswalker"):
        return [attack.target, target.controller or target.owner]
    return [attack.target]


def is_player(state: GameState, object_id: str) -> bool:
    """Whether `object_id` names a player."""
    return any(p.id == object_id for p in state.players)


def assigned_power(state: GameState, attack: Attack, attacker: Permanent) -> int:
    """The combat damage the attacker assigns: its power (0 or less: none, 510.1a), none when
    it is attacking nothing (510.1b) or blocked with no blocker left and no trample (510.1c)."""
    power = max(0, attacker.current_power)
    if attack.is_blocked:
        if not present_blockers(state, attack) and not excess_targets(state, attack, attacker):
            return 0
    elif state.permanent(attack.target) is None and not is_player(state, attack.target):
        return power if excess_targets(state, attack, attacker) else 0
    return power


@enforces("510.1a", "510.1b", "510.1c", "702.19b", "702.19c", "702.19d", "702.19f", "702.2c")
def check_assignment(state: GameState, attack: Attack, proposed: list[Assignment],
                     pending: Pending) -> None:
    """Raise IllegalAssignment unless `proposed` is a legal assignment for the attacker.

    `pending` holds the damage the attacking player's other creatures assign in the same
    step (510.1e checks the total assignment).
    """
    attacker = _get(state, attack.attacker)
    blockers = present_blockers(state, attack)
    power = assigned_power(state, attack, attacker)
    if any(a.amount < 0 for a in proposed) or sum(a.amount for a in proposed) != power:
        raise IllegalAssignment(attacker.id, f"{attacker.id} must assign exactly {power} "
                                "damage", "510.1a")
    by_target: dict[str, int] = defaultdict(int)
    for a in proposed:
        by_target[a.target] += a.amount
    excess = excess_targets(state, attack, attacker)
    if attack.is_blocked:
        allowed, rule = {*blockers, *excess}, "510.1c"
    else:
        allowed, rule = {attack.target, *excess}, "510.1b"
    wrong = sorted(t for t, n in by_target.items() if n and t not in allowed)
    if wrong:
        raise IllegalAssignment(attacker.id, f"{attacker.id} can't assign damage to "
                                f"{', '.join(wrong)}", rule)
    beyond = sum(n for t, n in by_target.items() if t not in blockers)
    if attack.is_blocked and beyond:
        deathtouch = "deathtouch" in attacker.keywords
        short = [b for b in blockers if by_target.get(b, 0)
                 < lethal_damage(_get(state, b), pending, deathtouch)]
        if short:
            raise IllegalAssignment(attacker.id, f"{attacker.id} must assign lethal damage "
                                    f"to {', '.join(short)} first", "702.19b")
    walker = state.permanent(attack.target)
    player_share = sum(n for t, n in by_target.items()
                       if t not in blockers and t != attack.target)
    on_walker = by_target.get(attack.target, 0) + pending.amounts.get(attack.target, 0)
    if player_share and walker is not None and on_walker < walker.loyalty:
        raise IllegalAssignment(attacker.id, f"{attacker.id} must assign damage equal to "
                                f"{walker.id}'s loyalty first", "702.19c")


@enforces("510.1d")
def check_blocker_assignment(state: GameState, blocker: Permanent,
                             attackers: list[Permanent], proposed: list[Assignment]) -> None:
    """Raise IllegalAssignment unless `proposed` divides the blocker's power among the
    attackers it blocks that are still there."""
    power = max(0, blocker.current_power) if attackers else 0
    if any(a.amount < 0 for a in proposed) or sum(a.amount for a in proposed) != power:
        raise IllegalAssignment(blocker.id, f"{blocker.id} must assign exactly {power} damage",
                                "510.1a")
    allowed = {a.id for a in attackers}
    wrong = sorted({a.target for a in proposed if a.amount and a.target not in allowed})
    if wrong:
        raise IllegalAssignment(blocker.id, f"{blocker.id} can't assign damage to "
                                f"{', '.join(wrong)}", "510.1d")


def attacker_rules(state: GameState, attack: Attack, attacker: Permanent,
                   target: str) -> tuple[str, ...]:
    """The rules that send an attacker's damage to `target`."""
    blockers = present_blockers(state, attack)
    trample = bool(TRAMPLE & attacker.keywords)
    extra = ("702.2c",) if "deathtouch" in attacker.keywords and blockers else ()
    if target in blockers:
        return ("702.19b", *extra) if trample else ("510.1c",)
    walker = state.permanent(attack.target)
    if walker is None and target != attack.target:
        return ("702.19e",)
    if not attack.is_blocked:
        return ("510.1b",)
    if not blockers:
        return ("702.19d",)
    if target != attack.target or (walker is not None and walker.is_("planeswalker")
                                   and "trample over planeswalkers" in attacker.keywords):
        return ("702.19c", *extra)
    return ("702.19b", *extra)



Proposal = tuple[Permanent, list[Assignment]]


@enforces("510.1e")
def step_problems(state: GameState, attacks: list[tuple[Attack, Proposal]],
                  blocks: list[tuple[list[Permanent], Proposal]], step: str,
                  checked: Checked | None = None) -> list[IllegalAssignment]:
    """Every illegal division of one step: each attacker's checked with what the attacking
    player's other creatures assign in the step (510.1e checks the total assignment), each
    blocker's against the attackers it blocks that are still there. `checked(source, step)`
    says whose divisions to check; by default all."""
    problems = []
    for attack, (attacker, proposed) in attacks:
        if checked is not None and not checked(attacker.id, step):
            continue
        others = Pending()
        if TRAMPLE & attacker.keywords:  # only damage beyond the blockers looks at others'
            for _, (other, theirs) in attacks:
                if other.id != attacker.id:
                    others.add(other, theirs)
        try:
            check_assignment(state, attack, proposed, others)
        except IllegalAssignment as exc:
            exc.step = step
            problems.append(exc)
    for attackers, (blocker, proposed) in blocks:
        if checked is not None and not checked(blocker.id, step):
            continue
        try:
            check_blocker_assignment(state, blocker, attackers, proposed)
        except IllegalAssignment as exc:
            exc.step = step
            problems.append(exc)
    return problems


def _get(state: GameState, permanent_id: str) -> Permanent:
    permanent = state.permanent(permanent_id)
    if permanent is None:
        raise KeyError(f"no permanent {permanent_id} on the battlefield")
    return permanent
