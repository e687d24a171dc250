"""Seeded random combat scenarios for conformance runs.

Scenario `index` of seed `seed` is always the same (its own random stream), so one case of
a run can be rebuilt alone. Each is a legal two-player combat: 1-4 attackers, 0-3 blockers
each (sometimes one blocker facing two attackers), power 0-6 and toughness 1-6, keywords
drawn from the combat keywords (strikes, deathtouch, trample, lifelink, infect, wither,
toxic, indestructible, protection from a color, the evasion abilities), some creatures
already damaged or carrying +1/+1 or -1/-1 counters, sometimes a planeswalker attacked,
sometimes players low on life or high on poison. Blocks an evasion ability forbids are
left out, so every scenario passes `scenario.load`.
"""

from __future__ import annotations

import random
from typing import Any

from ..engine.blocking import block_restriction
from ..engine.scenario import load
from ..engine.vocabulary import COLORS

# (keyword as a scenario writes it, probability a creature has it)
KEYWORD_ODDS: tuple[tuple[Any, float], ...] = (
    ("first strike", 0.10), ("double strike", 0.07), ("deathtouch", 0.12),
    ("trample", 0.15), ("lifelink", 0.10), ("infect", 0.05), ("wither", 0.05),
    ("indestructible", 0.06), ("flying", 0.12), ("reach", 0.08), ("menace", 0.06),
    ("fear", 0.03), ("intimidate", 0.03), ("shadow", 0.02), ("horsemanship", 0.02),
    ("skulk", 0.03), ("can't block", 0.02), ("trample over planeswalkers", 0.03),
)
PROTECTION_ODDS = 0.10
TOXIC_ODDS = 0.05
SORTED_COLORS = sorted(COLORS)


def scenario(seed: int, index: int) -> dict[str, Any]:
    """Scenario `index` of the run seeded `seed`."""
    rng = random.Random(seed * 1_000_003 + index)
    players = [_player(rng, "A"), _player(rng, "B")]
    attackers = [_creature(rng, f"a{i + 1}", "A") for i in range(rng.randint(1, 4))]
    walker = None
    if rng.random() < 0.15:
        walker = {"id": "pw", "controller": "B", "types": ["planeswalker"],
                  "counters": {"loyalty": rng.randint(1, 5)}}
    blockers, wanted = [], []
    for attacker in attackers:
        for _ in range(rng.choice((0, 0, 1, 1, 1, 2, 3))):
            blocker = _creature(rng, f"b{len(blockers) + 1}", "B")
            blockers.append(blocker)
            wanted.append((blocker["id"], [attacker["id"]]))
    if len(attackers) > 1 and blockers and rng.random() < 0.10:
        blocker_id, chosen = wanted[rng.randrange(len(wanted))]
        extra = rng.choice([a["id"] for a in attackers if a["id"] not in chosen])
        chosen.append(extra)
        next(b for b in blockers if b["id"] == blocker_id)["keywords"].append(
            {"can block additional creatures": 1})
    attacks = [{"attacker": a["id"],
                "target": "pw" if walker and rng.random() < 0.5 else "B"} for a in attackers]
    data = {"players": players,
            "permanents": attackers + blockers + ([walker] if walker else []),
            "attacks": attacks, "blocks": []}
    data["blocks"] = _legal_blocks(data, wanted)
    for permanent in data["permanents"]:
        if not permanent.get("keywords", True):
            del permanent["keywords"]
    load(data)  # every generated scenario is a legal one
    return data


def _player(rng: random.Random, player_id: str) -> dict[str, Any]:
    player: dict[str, Any] = {"id": player_id}
    if rng.random() < 0.15:
        player["life"] = rng.randint(1, 5)
    if rng.random() < 0.08:
        player["poison"] = rng.randint(5, 9)
    return player


def _creature(rng: random.Random, creature_id: str, controller: str) -> dict[str, Any]:
    keywords: list[Any] = [k for k, odds in KEYWORD_ODDS if rng.random() < odds]
    if rng.random() < PROTECTION_ODDS:
        keywords.append({"protection": [rng.choice(SORTED_COLORS)]})
    if rng.random() < TOXIC_ODDS:
        keywords.append({"toxic": rng.randint(1, 3)})
    creature: dict[str, Any] = {"id": creature_id, "controller": controller,
                                "power": rng.randint(0, 6), "toughness": rng.randint(1, 6),
                                "keywords": keywords}
    colors = rng.sample(SORTED_COLORS, rng.choice((0, 1, 1, 1, 2)))
    if colors:
        creature["colors"] = sorted(colors)
    if rng.random() < 0.10:
        creature["counters"] = {"+1/+1": rng.randint(1, 2)}
    elif rng.random() < 0.10 and creature["toughness"] > 1:
        creature["counters"] = {"-1/-1": rng.randint(1, creature["toughness"] - 1)}
    toughness = creature["toughness"] + sum(
        n if kind == "+1/+1" else -n for kind, n in creature.get("counters", {}).items())
    indestructible = "indestructible" in keywords
    if rng.random() < 0.20 and (toughness > 1 or indestructible):
        most = toughness + 2 if indestructible else toughness - 1
        creature["damage"] = rng.randint(1, most)
    return creature


def _legal_blocks(data: dict[str, Any], wanted: list[tuple[str, list[str]]]
                  ) -> list[dict[str, Any]]:
    """The wanted blocks less those a restriction forbids, and less lone blocks of an
    attacker with menace."""
    state = load({**data, "blocks": []}).state
    kept: list[tuple[str, list[str]]] = []
    for blocker_id, chosen in wanted:
        blocker = state.permanent(blocker_id)
        assert blocker is not None
        allowed = [a for a in chosen
                   if block_restriction(state, blocker, _get(state, a), "B") is None]
        if allowed:
            kept.append((blocker_id, allowed))
    for attacker_id in {a for _, chosen in kept for a in chosen}:
        if "menace" in _get(state, attacker_id).keywords:
            blockers = [b for b, chosen in kept if attacker_id in chosen]
            if len(blockers) == 1:
                kept = [(b, [a for a in chosen if a != attacker_id]) for b, chosen in kept]
    return [{"blocker": b, "attackers": chosen} for b, chosen in kept if chosen]


def _get(state: Any, permanent_id: str) -> Any:
    permanent = state.permanent(permanent_id)
    assert permanent is not None
    return permanent
