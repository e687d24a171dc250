"""Shared helpers of the reference-evaluator tests: permanents and game states to build
scenarios from."""

from __future__ import annotations

from rulesdb.engine.model import GameState, Permanent, Player


def creature(pid, power, toughness, owner="A", **kw) -> Permanent:
    if "keywords" in kw:
        kw["keywords"] = frozenset(kw["keywords"])
    for key in ("colors", "protection", "supertypes", "subtypes", "types"):
        if key in kw:
            kw[key] = frozenset(kw[key])
    return Permanent(pid, kw.pop("name", pid), owner, power=power, toughness=toughness, **kw)


def game(*permanents, players=("A", "B"), cards=()) -> GameState:
    return GameState(tuple(Player(p) for p in players), tuple(permanents), tuple(cards))
