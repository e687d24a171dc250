"""Combat damage steps: who deals damage in which step, each step's divisions, what damage
does, and the state-based actions after it, until the game is over.

Covers first strike and double strike (two combat damage steps), deathtouch, trample (with
deathtouch and over planeswalkers), lifelink, infect, wither, toxic, indestructible (through
the state-based actions) and protection's damage prevention. Damage assignment order is gone
from the rules: the attacking player divides damage freely within the limits `division`
checks, and the choices themselves come from `policies` (named policies), from a scenario or
from an engine under test.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from . import sba
from .damage import deal_damage
from .division import (
    Assignment,
    Checked,
    IllegalAssignment,
    Pending,
    attacker_rules,
    step_problems,
)
from .model import Attack, GameState, Permanent
from .registry import enforces

FIRST_STRIKE, REGULAR = "first strike", "regular"
STEPS = (FIRST_STRIKE, REGULAR)


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


AttackerChooser = Callable[[GameState, str, Attack, Pending], list[Assignment]]
Tolerate = Callable[[GameState, list[IllegalAssignment]], bool]
BlockerChooser = Callable[[GameState, str, Permanent, list[Permanent], Pending],
                          list[Assignment]]

STRIKERS = frozenset({"first strike", "double strike"})


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


@enforces("510.1", "510.1e")
def assign_step(state: GameState, attacks: list[Attack], active: set[str], step: str,
                attacker_choice: AttackerChooser, blocker_choice: BlockerChooser,
                checked: Checked | None = None, blocker_order: tuple[str, ...] = (),
                tolerate: Tolerate | None = None) -> list[Assignment]:
    """Every assignment of one step: the attacking player's (checked as a whole), then the
    defending player's, each with the rules that sent the damage where it goes. Attackers
    choose in the order of `attacks`, blockers in `blocker_order` (by default as they first
    appear among the attacks' blockers).

    `checked(source, step)` says whose choices to check; by default all. (A scenario's
    evaluation checks the divisions it gives; the policies are legal by construction, which
    the tests check.) Illegal divisions raise IllegalAssignment, unless
    `tolerate(state, problems)` lets the step go on with them as given (an engine's, whose
    consequences are still compared).
    """
    pending = Pending()
    proposals: list[tuple[Attack, tuple[Permanent, list[Assignment]]]] = []
    for attack in attacks:
        attacker = state.permanent(attack.attacker)
        if attacker is None or attacker.id not in active:
            continue
        proposed = [a for a in attacker_choice(state, step, attack, pending) if a.amount]
        pending.add(attacker, proposed)
        proposals.append((attack, (attacker, proposed)))
    blocked_by: dict[str, list[Permanent]] = defaultdict(list)
    for attack in attacks:
        attacker = state.permanent(attack.attacker)
        for blocker_id in attack.blockers:
            if attacker is not None and blocker_id in active and state.permanent(blocker_id):
                blocked_by[blocker_id].append(attacker)
    defending = Pending()
    ordered = sorted(blocked_by.items(), key=lambda item: blocker_order.index(item[0])
                     ) if blocker_order else blocked_by.items()
    blocks: list[tuple[list[Permanent], tuple[Permanent, list[Assignment]]]] = []
    for blocker_id, attackers in ordered:
        blocker = _get(state, blocker_id)
        proposed = [a for a in blocker_choice(state, step, blocker, attackers, defending)
                    if a.amount]
        defending.add(blocker, proposed)
        blocks.append((attackers, (blocker, proposed)))
    problems = step_problems(state, proposals, blocks, step, checked)
    if problems and not (tolerate is not None and tolerate(state, problems)):
        problems[0].problems = tuple(problems)
        raise problems[0]
    assignments = [Assignment(a.source, a.target, a.amount,
                              attacker_rules(state, attack, attacker, a.target))
                   for attack, (attacker, proposed) in proposals for a in proposed]
    return assignments + [Assignment(a.source, a.target, a.amount, ("510.1d",))
                          for _, (_, proposed) in blocks for a in proposed]


@enforces("510.4", "508.8", "104.2a", "104.4a")
def resolve_combat(state: GameState, attacks: list[Attack],
                   attacker_choice: AttackerChooser | None = None,
                   blocker_choice: BlockerChooser | None = None,
                   checked: Checked | None = None, blocker_order: tuple[str, ...] = (),
                   tolerate: Tolerate | None = None) -> tuple[GameState, list[StepReport]]:
    """Both combat damage steps as needed, state-based actions performed after each; no step
    is played once the game is over (a player lost in a two-player game). `checked` and
    `tolerate` are assign_step's."""
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
        try:
            assigned = assign_step(state, attacks, active, name, attacker_choice,
                                   blocker_choice, checked, blocker_order, tolerate)
        except IllegalAssignment as exc:
            exc.reports, exc.state = tuple(reports), state
            raise
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
