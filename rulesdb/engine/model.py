"""A small immutable game-state model: players, permanents on the battlefield, other zones.

Everything is a frozen dataclass; rules return new states (`dataclasses.replace`).
Counters are kept as a sorted tuple of (kind, count) pairs so states stay hashable.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TypeVar

Counters = tuple[tuple[str, int], ...]


def counters_of(values: Mapping[str, int] | Iterable[tuple[str, int]] | None) -> Counters:
    """Counters as stored: sorted (kind, count) pairs, zero counts dropped."""
    items = dict(values or ())
    return tuple(sorted((kind, count) for kind, count in items.items() if count > 0))


T = TypeVar("T")


def changed(thing: T, **changes: object) -> T:
    """A copy of a frozen dataclass with `changes` to fields already in their stored form,
    made without running its constructor again (a tenth of `dataclasses.replace`'s time)."""
    copy = object.__new__(type(thing))
    copy.__dict__.update(thing.__dict__)
    copy.__dict__.update(changes)
    return copy


@dataclass(frozen=True)
class Player:
    """A player: life, poison counters and what state-based actions look at."""

    id: str
    life: int = 20
    poison: int = 0
    drew_from_empty_library: bool = False
    speed: int | None = None
    lost: bool = False
    protection: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Permanent:
    """An object on the battlefield with the characteristics the rules here read.

    `power`/`toughness` are the values before counters; `counters` holds +1/+1, -1/-1,
    loyalty, lore, defense and any other kind. `attached_to` names a permanent or player id.
    `enchant` is what an Aura may be attached to ("creature", "permanent", "player", ...).
    Keywords with a parameter have their own fields: `protection` (qualities), `toxic` (the
    total toxic value), `landwalk` (land descriptions such as "Island" or "snow Forest") and
    `additional_blocks` (how many more creatures it can block; None: any number).
    """

    id: str
    name: str
    owner: str
    controller: str | None = None
    types: frozenset[str] = frozenset({"creature"})
    subtypes: frozenset[str] = frozenset()
    supertypes: frozenset[str] = frozenset()
    colors: frozenset[str] = frozenset()
    power: int | None = None
    toughness: int | None = None
    keywords: frozenset[str] = frozenset()
    protection: frozenset[str] = frozenset()
    counters: Counters = ()
    counter_limits: Counters = ()
    damage: int = 0
    deathtouch_damage: bool = False
    attached_to: str | None = None
    enchant: str | None = None
    timestamp: int = 0
    world_timestamp: int | None = None
    final_chapter: int | None = None
    ability_on_stack: bool = False
    protector: str | None = None
    attacked: bool = False
    token: bool = False
    tapped: bool = False
    toxic: int = 0
    landwalk: tuple[str, ...] = ()
    additional_blocks: int | None = 0

    def __post_init__(self) -> None:
        if self.counters:
            object.__setattr__(self, "counters", counters_of(self.counters))
        if self.counter_limits:
            object.__setattr__(self, "counter_limits", counters_of(self.counter_limits))
        if self.controller is None:
            object.__setattr__(self, "controller", self.owner)

    def count(self, kind: str) -> int:
        """How many counters of `kind` are on it."""
        for name, number in self.counters:
            if name == kind:
                return number
        return 0

    @classmethod
    def assemble(cls, **fields: object) -> Permanent:
        """A permanent from fields already in their stored form (frozensets, counters as
        `counters_of` returns them, a controller): the constructor without its checks, a
        tenth of its time, for reading scenarios in bulk."""
        permanent = object.__new__(cls)
        permanent.__dict__.update(_DEFAULTS)
        permanent.__dict__.update(fields)
        return permanent

    def changed(self, **changes: object) -> Permanent:
        """A copy with `changes` to fields already in their stored form (counters as
        `counters_of` returns them): `dataclasses.replace` without checking them again,
        for the evaluator's inner loops."""
        return changed(self, **changes)

    def with_counters(self, **changes: int) -> Permanent:
        """A copy with counters added (positive) or removed (negative), never below zero."""
        values = dict(self.counters)
        for key, delta in changes.items():
            kind = COUNTER_NAMES.get(key, key)
            values[kind] = max(0, values.get(kind, 0) + delta)
        return self.changed(counters=counters_of(values))

    def is_(self, card_type: str) -> bool:
        """Whether it has the card type (or subtype) `card_type`."""
        return card_type in self.types or card_type in self.subtypes

    @property
    def current_power(self) -> int:
        """Power with +1/+1 and -1/-1 counters applied (0 for a non-creature)."""
        return (self.power or 0) + self.count("+1/+1") - self.count("-1/-1")

    @property
    def current_toughness(self) -> int:
        """Toughness with +1/+1 and -1/-1 counters applied."""
        return (self.toughness or 0) + self.count("+1/+1") - self.count("-1/-1")

    @property
    def loyalty(self) -> int:
        """Loyalty of a planeswalker: its loyalty counters."""
        return self.count("loyalty")

    @property
    def defense(self) -> int:
        """Defense of a battle: its defense counters."""
        return self.count("defense")


_DEFAULTS = {name: value for name, value in Permanent("", "", "").__dict__.items()}

# Keyword-argument spellings of counter kinds for `with_counters(plus1=1, minus1=3)`.
COUNTER_NAMES = {"plus1": "+1/+1", "minus1": "-1/-1"}


@dataclass(frozen=True)
class Card:
    """An object in a zone other than the battlefield (a token or copy may briefly be one)."""

    id: str
    name: str
    owner: str
    zone: str
    token: bool = False
    copy_of_card: bool = False
    copy_of_spell: bool = False


@dataclass(frozen=True)
class GameState:
    """Players in turn order, the battlefield, and objects in the other zones."""

    players: tuple[Player, ...]
    battlefield: tuple[Permanent, ...] = ()
    cards: tuple[Card, ...] = field(default=())

    def player(self, player_id: str) -> Player:
        """The player with `player_id` (KeyError when absent)."""
        for player in self.players:
            if player.id == player_id:
                return player
        raise KeyError(player_id)

    def permanent(self, permanent_id: str) -> Permanent | None:
        """The permanent with `permanent_id`, or None when it is not on the battlefield."""
        return self._by_id.get(permanent_id)

    @cached_property
    def _by_id(self) -> dict[str, Permanent]:
        return {permanent.id: permanent for permanent in self.battlefield}

    def zone(self, name: str) -> tuple[Card, ...]:
        """Objects in zone `name` (graveyard, exile, hand, library, stack)."""
        return tuple(card for card in self.cards if card.zone == name)

    def opponents(self, player_id: str) -> tuple[Player, ...]:
        """Players still in the game other than `player_id`, in turn order."""
        return tuple(p for p in self.players if p.id != player_id and not p.lost)


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


def protected_from(protection: frozenset[str], source: Permanent) -> bool:
    """Whether protection qualities (colors, types, a player id, "everything") cover `source`."""
    if not protection:
        return False
    if "everything" in protection:
        return True
    qualities = source.colors | source.types | source.subtypes | {source.controller or ""}
    return bool(protection & qualities)
