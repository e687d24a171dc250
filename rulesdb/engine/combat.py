"""Combat damage: who deals damage in which step, legal assignments, and what damage does.

Covers first strike and double strike (two combat damage steps), deathtouch, trample (with
deathtouch and over planeswalkers), lifelink, infect, wither, toxic, indestructible (through
the state-based actions) and protection's damage prevention. Damage assignment order is gone
from the rules: the attacking player divides damage freely within the limits checked here,
and the choices themselves come from `policies` (named policies) or from a scenario.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from . import sba
from .damage import deal_damage
from .model import GameState, Permanent
from .registry import enforces

FIRST_STRIKE, REGULAR = "first strike", "regular"
STEPS = (FIRST_STRIKE, REGULAR)


@dataclass(frozen=True)
class Attack:
    """An attacking creature, what it attacks (player, planeswalker or battle), its blockers.

    `defender` is the defending player (the player attacked, the planeswalker's controller,
    the battle's protector); `blocked` is set when it stays blocked without blockers.
    """

    attacker: str
    target: str
    blockers: tuple[str, ...] = ()
    blocked: bool | None = None
    defender: str | None = None

    @property
    def is_blocked(self) -> bool:
        """Blocked stays true after its blockers are gone (509.1h)."""
        return bool(self.blockers) if self.blocked is None else self.blocked


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


@dataclass(frozen=True)
class StepReport:
    """One combat damage step: assignments, damage dealt and prevented, life gained (player,
    amount, source), the state-based actions performed after it (one tuple per check)."""

    step: str
    assigned: tuple[Assignment, ...]
    dealt: tuple[Assignment, ...]
    prevented: tuple[Assignment, ...]
    life_gained: tuple[tuple[str, int, str], ...]
    events: tuple[tuple[sba.Event, ...], ...] = field(default=())
    before: GameState | None = field(default=None, compare=False, repr=False)


class IllegalAssignment(ValueError):
    """A proposed combat damage assignment the rules do not allow; `rule` says which."""

    def __init__(self, source: str, message: str, rule: str, step: str = "") -> None:
        super().__init__(message)
        self.source, self.rule, self.step = source, rule, step


Checked = Callable[[str, str], bool]
AttackerChooser = Callable[[GameState, str, Attack, Pending], list[Assignment]]
BlockerChooser = Callable[[GameState, str, Permanent, list[Permanent], Pending],
                          list[Assignment]]

STRIKERS = frozenset({"first strike", "double strike"})
TRAMPLE = frozenset({"trample", "trample over planeswalkers"})


@enforces("702.7b", "702.4b", "510.4")
def has_first_strike_step(state: GameState, attacks: Iterable[Attack]) -> bool:
    """Whether any attacking or blocking creature has first strike or double strike."""
    return any(STRIKERS & c.keywords for c in combatants(state, attacks))


@enforces("702.4b", "702.4c", "702.4d", "702.7b", "702.7c")
def dealers(state: GameState, attacks: Iterable[Attack], step: str,
            first_step_strikers: frozenset[str] = frozenset()) -> set[str]:
    """Ids of the creatures that assign combat damage in `step` (first, second or only).

    The second step has those that had neither first strike nor double strike as the first
    step began (`first_step_strikers` holds the ids that had one) and those with double
    strike now.
    """
    found = combatants(state, attacks)
    if step == "first":
        return {c.id for c in found if STRIKERS & c.keywords}
    if step == "second":
        return {c.id for c in found
                if c.id not in first_step_strikers or "double strike" in c.keywords}
    return {c.id for c in found}


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


@enforces("510.1", "510.1e")
def assign_step(state: GameState, attacks: list[Attack], active: set[str], step: str,
                attacker_choice: AttackerChooser, blocker_choice: BlockerChooser,
                checked: Checked | None = None,
                blocker_order: tuple[str, ...] = ()) -> list[Assignment]:
    """Every assignment of one step: the attacking player's (checked as a whole), then the
    defending player's, each with the rules that sent the damage where it goes. Attackers
    choose in the order of `attacks`, blockers in `blocker_order` (by default as they first
    appear among the attacks' blockers).

    `checked(source, step)` says whose choices to check; by default all. (A scenario's
    evaluation checks the divisions it gives; the policies are legal by construction, which
    the tests check.)
    """
    pending = Pending()
    proposals: list[tuple[Attack, Permanent, list[Assignment]]] = []
    for attack in attacks:
        attacker = state.permanent(attack.attacker)
        if attacker is None or attacker.id not in active:
            continue
        proposed = [a for a in attacker_choice(state, step, attack, pending) if a.amount]
        pending.add(attacker, proposed)
        proposals.append((attack, attacker, proposed))
    assignments: list[Assignment] = []
    for attack, attacker, proposed in proposals:
        if checked is None or checked(attacker.id, step):
            others = Pending()
            if TRAMPLE & attacker.keywords:  # only damage beyond the blockers looks at others'
                for _, other, theirs in proposals:
                    if other.id != attacker.id:
                        others.add(other, theirs)
            try:
                check_assignment(state, attack, proposed, others)
            except IllegalAssignment as exc:
                exc.step = step
                raise
        assignments += [Assignment(a.source, a.target, a.amount,
                                   attacker_rules(state, attack, attacker, a.target))
                        for a in proposed]
    blocked_by: dict[str, list[Permanent]] = defaultdict(list)
    for attack in attacks:
        attacker = state.permanent(attack.attacker)
        for blocker_id in attack.blockers:
            if attacker is not None and blocker_id in active and state.permanent(blocker_id):
                blocked_by[blocker_id].append(attacker)
    defending = Pending()
    ordered = sorted(blocked_by.items(), key=lambda item: blocker_order.index(item[0])
                     ) if blocker_order else blocked_by.items()
    for blocker_id, attackers in ordered:
        blocker = _get(state, blocker_id)
        proposed = [a for a in blocker_choice(state, step, blocker, attackers, defending)
                    if a.amount]
        if checked is None or checked(blocker.id, step):
            try:
                check_blocker_assignment(state, blocker, attackers, proposed)
            except IllegalAssignment as exc:
                exc.step = step
                raise
        defending.add(blocker, proposed)
        assignments += [Assignment(a.source, a.target, a.amount, ("510.1d",))
                        for a in proposed]
    return assignments


@enforces("510.4", "508.8", "104.2a", "104.4a")
def resolve_combat(state: GameState, attacks: list[Attack],
                   attacker_choice: AttackerChooser | None = None,
                   blocker_choice: BlockerChooser | None = None,
                   checked: Checked | None = None, blocker_order: tuple[str, ...] = ()
                   ) -> tuple[GameState, list[StepReport]]:
    """Both combat damage steps as needed, state-based actions performed after each; no step
    is played once the game is over (a player lost in a two-player game)."""
    from .policies import blocker_lethal_in_order, lethal_in_order

    if not attacks:
        return state, []  # 508.8: no attackers, no combat damage step
    attacks = Fighters(attacks)
    attacker_choice = attacker_choice or lethal_in_order
    blocker_choice = blocker_choice or blocker_lethal_in_order
    reports = []
    two_steps = has_first_strike_step(state, attacks)
    steps = [("first", FIRST_STRIKE), ("second", REGULAR)] if two_steps else [("only", REGULAR)]
    strikers = frozenset(dealers(state, attacks, "first"))
    for kind, name in steps:
        before = state
        active = dealers(state, attacks, kind, strikers)
        assigned = assign_step(state, attacks, active, name, attacker_choice, blocker_choice,
                               checked, blocker_order)
        state, dealt, prevented, gained = deal_damage(state, assigned)
        state, rounds = sba.perform(state)
        reports.append(StepReport(name, tuple(assigned), dealt, prevented, gained,
                                  tuple(tuple(r) for r in rounds), before))
        if game_over(state):
            break
    return state, reports


def game_over(state: GameState) -> bool:
    """Whether the game has ended: at most one player is left in it (104.2a, 104.4a)."""
    return sum(1 for p in state.players if not p.lost) < min(2, len(state.players))


def combatants(state: GameState, attacks: Iterable[Attack]) -> list[Permanent]:
    """The attacking and blocking creatures still on the battlefield, each once."""
    found = []
    for i in fighter_ids(attacks):
        permanent = state.permanent(i)
        if permanent is not None:
            found.append(permanent)
    return found


def fighter_ids(attacks: Iterable[Attack]) -> tuple[str, ...]:
    """The ids of the attacking and blocking creatures, each once."""
    if isinstance(attacks, Fighters):
        return attacks.ids
    ids: dict[str, None] = {}
    for attack in attacks:
        ids[attack.attacker] = None
        ids.update(dict.fromkeys(attack.blockers))
    return tuple(ids)


class Fighters(list):
    """A list of attacks that knows its combatants' ids (a combat reads them each step)."""

    def __init__(self, attacks: Iterable[Attack]) -> None:
        super().__init__(attacks)
        self.ids = fighter_ids(list(self))


def _get(state: GameState, permanent_id: str) -> Permanent:
    permanent = state.permanent(permanent_id)
    if permanent is None:
        raise KeyError(f"no permanent {permanent_id} on the battlefield")
    return permanent
