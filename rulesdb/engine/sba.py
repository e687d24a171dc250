"""State-based actions (rule 704): every one of 704.5 the model can express.

`check` finds every applicable action in one snapshot and performs them all as one event
(704.3); `perform` repeats checks until none applies. Actions that move a permanent record
its last known information, taken before any of the simultaneous actions (704.8).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from .model import Card, GameState, Permanent, Player, changed, counters_of, protected_from
from .registry import enforces

Choose = Callable[[str, tuple[Permanent, ...]], Permanent]
MAX_ROUNDS = 1000


@dataclass(frozen=True)
class Action:
    """One state-based action: what happens to which object, and the rule that says so."""

    rule: str
    # lose | graveyard | destroy | sacrifice | cease | unattach | counters | protector | speed
    kind: str
    object: str
    value: object = None


@dataclass(frozen=True)
class Event:
    """What one check did to one object; every rule that led to it (704.7), its last known info."""

    kind: str
    object: str
    rules: tuple[str, ...]
    last_known: Permanent | Player | Card | None = None
    value: object = None


def newest(_player: str, candidates: tuple[Permanent, ...]) -> Permanent:
    """Default choice for the legend rule: keep the permanent with the latest timestamp."""
    return max(candidates, key=lambda p: (p.timestamp, p.id))


@enforces("704.5a", "704.5b", "704.5c")
def player_losses(state: GameState) -> list[Action]:
    """Players at 0 or less life, who drew from an empty library, or with ten poison counters."""
    actions = []
    for player in state.players:
        if player.lost:
            continue
        if player.life <= 0:
            actions.append(Action("704.5a", "lose", player.id))
        if player.drew_from_empty_library:
            actions.append(Action("704.5b", "lose", player.id))
        if player.poison >= 10:
            actions.append(Action("704.5c", "lose", player.id))
    return actions


@enforces("704.5d", "704.5e")
def phantom_objects(state: GameState) -> list[Action]:
    """Tokens off the battlefield, copies of spells off the stack, copies of cards elsewhere."""
    actions = []
    for card in state.cards:
        if card.token:
            actions.append(Action("704.5d", "cease", card.id))
        elif (card.copy_of_spell and card.zone != "stack") or (
            card.copy_of_card and card.zone != "stack"
        ):
            actions.append(Action("704.5e", "cease", card.id))
    return actions


@enforces("704.5f", "704.5g", "704.5h", "702.2b", "702.12b")
def creature_deaths(state: GameState) -> list[Action]:
    """Toughness 0 or less; lethal damage; deathtouch damage (indestructible ignores those two)."""
    actions = []
    for creature in state.battlefield:
        if not creature.is_("creature"):
            continue
        toughness = creature.current_toughness
        if toughness <= 0:
            actions.append(Action("704.5f", "graveyard", creature.id))
            continue
        if "indestructible" in creature.keywords:
            continue
        if creature.damage >= toughness:
            actions.append(Action("704.5g", "destroy", creature.id))
        if creature.deathtouch_damage:
            actions.append(Action("704.5h", "destroy", creature.id))
    return actions


@enforces("704.5i", "704.5v")
def zero_loyalty_or_defense(state: GameState) -> list[Action]:
    """Planeswalkers with loyalty 0; battles with defense 0 not the source of a waiting ability."""
    actions = []
    for permanent in state.battlefield:
        if permanent.is_("planeswalker") and permanent.loyalty == 0:
            actions.append(Action("704.5i", "graveyard", permanent.id))
        if permanent.is_("battle") and permanent.defense == 0 and not permanent.ability_on_stack:
            actions.append(Action("704.5v", "graveyard", permanent.id))
    return actions


@enforces("704.5j")
def legend_rule(state: GameState, choose: Choose = newest) -> list[Action]:
    """Legendary permanents with one name and one controller: the controller keeps one."""
    groups: dict[tuple[str, str], list[Permanent]] = defaultdict(list)
    for permanent in state.battlefield:
        if "legendary" in permanent.supertypes:
            groups[(permanent.controller or permanent.owner, permanent.name)].append(permanent)
    actions = []
    for (controller, _name), group in groups.items():
        if len(group) > 1:
            kept = choose(controller, tuple(group))
            actions += [Action("704.5j", "graveyard", p.id) for p in group if p.id != kept.id]
    return actions


@enforces("704.5k")
def world_rule(state: GameState) -> list[Action]:
    """All world permanents but the newest world; on a tie for newest, all of them."""
    worlds = [p for p in state.battlefield if "world" in p.supertypes]
    if len(worlds) < 2:
        return []
    stamp = lambda p: p.world_timestamp if p.world_timestamp is not None else p.timestamp  # noqa: E731
    latest = max(stamp(p) for p in worlds)
    keep = [p for p in worlds if stamp(p) == latest]
    return [Action("704.5k", "graveyard", p.id) for p in worlds
            if len(keep) > 1 or p.id != keep[0].id]


def _aura_is_legal(state: GameState, aura: Permanent) -> bool:
    if aura.attached_to is None:
        return False
    target = state.permanent(aura.attached_to)
    if target is None:
        player = next((p for p in state.players if p.id == aura.attached_to), None)
        return (player is not None and not player.lost and aura.enchant == "player"
                and not protected_from(player.protection, aura))
    if aura.enchant == "player" or target.id == aura.id:
        return False
    if aura.enchant not in (None, "permanent") and not target.is_(aura.enchant):
        return False
    return not protected_from(target.protection, aura)


@enforces("704.5m", "702.16c")
def illegal_auras(state: GameState) -> list[Action]:
    """Auras attached to an illegal object or player (protection included), or to nothing."""
    return [Action("704.5m", "graveyard", p.id) for p in state.battlefield
            if p.is_("Aura") and not _aura_is_legal(state, p)]


@enforces("704.5n", "704.5p", "702.16d")
def illegal_attachments(state: GameState) -> list[Action]:
    """Equipment or Fortifications attached illegally; attached creatures, battles and others."""
    actions = []
    for permanent in state.battlefield:
        if permanent.attached_to is None or permanent.is_("Aura"):
            continue
        target = state.permanent(permanent.attached_to)
        if permanent.is_("creature") or permanent.is_("battle"):
            actions.append(Action("704.5p", "unattach", permanent.id))
        elif permanent.is_("Equipment") or permanent.is_("Fortification"):
            needed = "creature" if permanent.is_("Equipment") else "land"
            if (target is None or not target.is_(needed)
                    or protected_from(target.protection, permanent)):
                actions.append(Action("704.5n", "unattach", permanent.id))
        else:
            actions.append(Action("704.5p", "unattach", permanent.id))
    return actions


@enforces("704.5q", "704.5r")
def counter_limits(state: GameState) -> list[Action]:
    """+1/+1 and -1/-1 counters annihilate; counters above a stated maximum are removed."""
    actions = []
    for permanent in state.battlefield:
        plus, minus = permanent.count("+1/+1"), permanent.count("-1/-1")
        if plus and minus:
            values = dict(permanent.counters)
            values["+1/+1"], values["-1/-1"] = plus - min(plus, minus), minus - min(plus, minus)
            actions.append(Action("704.5q", "counters", permanent.id, counters_of(values)))
        for kind, limit in permanent.counter_limits:
            if permanent.count(kind) > limit:
                values = dict(permanent.counters)
                values[kind] = limit
                actions.append(Action("704.5r", "counters", permanent.id, counters_of(values)))
    return actions


@enforces("704.5s")
def finished_sagas(state: GameState) -> list[Action]:
    """Sagas with lore counters at or past their final chapter and no chapter ability waiting."""
    return [Action("704.5s", "sacrifice", p.id) for p in state.battlefield
            if p.is_("Saga") and p.final_chapter and p.count("lore") >= p.final_chapter
            and not p.ability_on_stack]


@enforces("704.5w", "704.5x")
def battle_protectors(state: GameState) -> list[Action]:
    """Battles without a protector, or Sieges protected by their controller, get an opponent."""
    actions = []
    for battle in state.battlefield:
        if not battle.is_("battle"):
            continue
        controller = battle.controller or battle.owner
        if battle.protector is None and not battle.attacked:
            rule = "704.5w"
        elif battle.is_("Siege") and battle.protector == controller:
            rule = "704.5x"
        else:
            continue
        # A Siege's protector is an opponent of its controller (310.11b); the first in turn order.
        opponents = state.opponents(controller)
        if opponents:
            actions.append(Action(rule, "protector", battle.id, opponents[0].id))
        else:
            actions.append(Action(rule, "graveyard", battle.id))
    return actions


@enforces("704.5y")
def extra_roles(state: GameState) -> list[Action]:
    """Of several Roles one player controls on one permanent, all but the newest go."""
    groups: dict[tuple[str, str], list[Permanent]] = defaultdict(list)
    for role in state.battlefield:
        if role.is_("Role") and role.attached_to is not None:
            groups[(role.attached_to, role.controller or role.owner)].append(role)
    actions = []
    for group in groups.values():
        keep = max(group, key=lambda p: (p.timestamp, p.id))
        actions += [Action("704.5y", "graveyard", p.id) for p in group if p.id != keep.id]
    return actions


@enforces("704.5z")
def engine_speed(state: GameState) -> list[Action]:
    """A player with start your engines! and no speed gets speed 1."""
    starters = {p.controller for p in state.battlefield if "start your engines!" in p.keywords}
    return [Action("704.5z", "speed", player.id, 1) for player in state.players
            if player.id in starters and player.speed is None and not player.lost]


def find_actions(state: GameState, choose: Choose = newest) -> list[Action]:
    """Every state-based action that applies to `state`, in rule order."""
    actions = player_losses(state)
    if state.cards:
        actions += phantom_objects(state)
    actions += creature_deaths(state)
    # The other checks only find something on a permanent with one of these traits; a
    # battlefield of plain creatures (most combats) skips them.
    if any(p.supertypes or p.subtypes or p.counter_limits or p.attached_to is not None
           or not p.types <= CREATURE or p.keywords & ENGINES
           or (p.counters and p.count("+1/+1") and p.count("-1/-1"))
           for p in state.battlefield):
        actions += [
            *zero_loyalty_or_defense(state), *legend_rule(state, choose), *world_rule(state),
            *illegal_auras(state), *illegal_attachments(state), *counter_limits(state),
            *finished_sagas(state), *battle_protectors(state), *extra_roles(state),
            *engine_speed(state),
        ]
    return actions


CREATURE = frozenset({"creature"})
ENGINES = frozenset({"start your engines!"})


LEAVING = ("graveyard", "destroy", "sacrifice")


@enforces("704.3", "704.7", "704.8")
def check(state: GameState, choose: Choose = newest) -> tuple[GameState, list[Event]]:
    """One check: all applicable actions performed simultaneously as a single event."""
    actions = find_actions(state, choose)
    if not actions:
        return forget_marks(state), []
    grouped: dict[tuple[str, str], list[Action]] = defaultdict(list)
    for action in actions:
        kind = "leave" if action.kind in LEAVING else action.kind
        grouped[(kind, action.object)].append(action)
    leaving = {obj for kind, obj in grouped if kind == "leave"}
    losers = {obj for kind, obj in grouped if kind == "lose"}
    ceasing = {obj for kind, obj in grouped if kind == "cease"}
    events: list[Event] = []
    for (kind, obj), group in grouped.items():
        rules = tuple(a.rule for a in group)
        before: Permanent | Player | Card | None = (
            state.permanent(obj) or next((p for p in state.players if p.id == obj), None)
            or next((c for c in state.cards if c.id == obj), None))
        value = group[0].value
        if kind == "leave":
            kind = "sacrifice" if group[0].kind == "sacrifice" else "graveyard"
        if kind == "counters":
            value = counters_of({k: min(dict(a.value).get(k, 0) for a in group)
                                 for k, _ in state.permanent(obj).counters})
        events.append(Event(kind, obj, rules, before, value))
    changes = {(e.kind, e.object): e.value for e in events}
    battlefield = []
    for permanent in state.battlefield:
        if permanent.id in leaving:
            continue
        if ("unattach", permanent.id) in changes:
            permanent = permanent.changed(attached_to=None)
        if ("counters", permanent.id) in changes:
            permanent = permanent.changed(counters=changes[("counters", permanent.id)])
        if ("protector", permanent.id) in changes:
            permanent = permanent.changed(protector=changes[("protector", permanent.id)])
        battlefield.append(permanent)
    graveyard = tuple(
        Card(p.id, p.name, p.owner, "graveyard", token=p.token)
        for p in state.battlefield if p.id in leaving)
    players = tuple(
        changed(p, lost=p.lost or p.id in losers, speed=changes.get(("speed", p.id), p.speed))
        if p.id in losers or ("speed", p.id) in changes else p
        for p in state.players)
    cards = tuple(c for c in state.cards if c.id not in ceasing) + graveyard
    return forget_marks(GameState(players, tuple(battlefield), cards)), events


@enforces("704.5b", "704.5h")
def forget_marks(state: GameState) -> GameState:
    """The state once a check is over: marks that last only "since the last time state-based
    actions were checked" (a draw from an empty library, damage from a deathtouch source)
    are gone, so a later check does not act on them again."""
    if not any(p.drew_from_empty_library for p in state.players) and not any(
            p.deathtouch_damage for p in state.battlefield):
        return state
    return GameState(
        tuple(changed(p, drew_from_empty_library=False) if p.drew_from_empty_library else p
              for p in state.players),
        tuple(p.changed(deathtouch_damage=False) if p.deathtouch_damage else p
              for p in state.battlefield),
        state.cards)


@enforces("704.3")
def perform(state: GameState, choose: Choose = newest) -> tuple[GameState, list[list[Event]]]:
    """Check and perform state-based actions until a check performs none; the events per check."""
    rounds: list[list[Event]] = []
    for _ in range(MAX_ROUNDS):
        state, events = check(state, choose)
        if not events:
            return state, rounds
        rounds.append(events)
    raise RuntimeError(f"state-based actions did not settle after {MAX_ROUNDS} checks")
