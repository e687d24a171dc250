"""What combat damage does once assigned (120.3, 510.2): prevented by protection, marked,
turned into counters by wither and infect, life lost or poison given, life gained."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .model import GameState, Permanent, changed, protected_from
from .registry import enforces

if TYPE_CHECKING:
    from .division import Assignment


@enforces("702.16e", "702.15b", "702.15e", "702.80a", "702.90b", "702.90c", "702.2b",
          "702.164c", "120.3a", "120.3c", "120.3e", "120.3h", "510.2")
def deal_damage(state: GameState, assignments: list[Assignment]
                ) -> tuple[GameState, tuple[Assignment, ...], tuple[Assignment, ...],
                           tuple[tuple[str, int, str], ...]]:
    """Deal all assigned damage at once: the new state, damage dealt, prevented, life gained.

    Protection prevents damage from sources of its quality. Damage from infect or wither
    to a creature becomes -1/-1 counters; infect damage to a player becomes poison counters,
    and combat damage from a creature with toxic adds its toxic value; deathtouch marks the
    creature for 704.5h; each lifelink source is one life-gain event.
    """
    sources = {p.id: p for p in state.battlefield}
    permanents = dict(sources)
    players = {p.id: p for p in state.players}
    dealt, prevented = [], []
    for a in assignments:
        source = sources[a.source]
        target = permanents.get(a.target)
        protection = target.protection if target is not None else players[a.target].protection
        (prevented if protected_from(protection, source) else dealt).append(a)
    gains: dict[str, int] = {}
    for a in dealt:
        if not a.amount:
            continue
        source = sources[a.source]
        if a.target in permanents:
            permanents[a.target] = _damage_permanent(permanents[a.target], source, a.amount)
        else:
            player = players[a.target]
            poison = player.poison + source.toxic
            players[a.target] = (changed(player, poison=poison + a.amount)
                                 if "infect" in source.keywords
                                 else changed(player, life=player.life - a.amount,
                                              poison=poison))
        if "lifelink" in source.keywords:
            gains[source.id] = gains.get(source.id, 0) + a.amount
    life_gained = []
    for source_id, amount in gains.items():
        source = sources[source_id]
        gainer = source.controller or source.owner
        players[gainer] = changed(players[gainer], life=players[gainer].life + amount)
        life_gained.append((gainer, amount, source_id))
    new_state = GameState(tuple(players[p.id] for p in state.players),
                          tuple(permanents[p.id] for p in state.battlefield), state.cards)
    return new_state, tuple(dealt), tuple(prevented), tuple(life_gained)


def _damage_permanent(target: Permanent, source: Permanent, amount: int) -> Permanent:
    if target.is_("creature"):
        if {"infect", "wither"} & source.keywords:
            target = target.with_counters(minus1=amount)
        else:
            target = target.changed(damage=target.damage + amount)
        if "deathtouch" in source.keywords:
            target = target.changed(deathtouch_damage=True)
    if target.is_("planeswalker"):
        target = target.with_counters(loyalty=-amount)
    if target.is_("battle"):
        target = target.with_counters(defense=-amount)
    return target
