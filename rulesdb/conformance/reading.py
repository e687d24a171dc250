"""Reading an engine's outcome: the shape each field must have (Malformed when it does not),
and its records by step, source and player in the forms `compare` and `choices` compare."""

from __future__ import annotations

from typing import Any

from ..engine.combat import STEPS

PER_STEP = ("damage", "life_gained", "deaths", "losses")


class Malformed(ValueError):
    """An engine's outcome that does not have the documented shape."""


def engine_steps(eng: dict[str, Any], ref_steps: list[str]) -> list[str]:
    """The steps an engine played: its `steps`; without them, the reference's and any other
    its records name (an engine that does not say which steps it played is not held to
    them, but a step it played after the reference's game was over shows in its records)."""
    if "steps" in eng:
        steps = eng["steps"]
        if not isinstance(steps, list) or any(s not in STEPS for s in steps):
            raise Malformed(f"steps: expected a list of {' and '.join(STEPS)}")
        return steps
    named = {step_of(r) for field in PER_STEP for r in records(eng.get(field, []))}
    return [s for s in STEPS if s in named or s in ref_steps]


def records(value: Any) -> list[dict[str, Any]]:
    """`value` as a list of records (objects)."""
    if not isinstance(value, list) or not all(isinstance(r, dict) for r in value):
        raise Malformed("expected a list of objects")
    return value


def step_of(record: dict[str, Any]) -> str:
    """The step a record names."""
    step = record.get("step")
    if step not in STEPS:
        raise Malformed(f"step: expected {' or '.join(STEPS)}, got {step!r}")
    return step


def text(value: Any) -> str:
    """`value` as a string."""
    if not isinstance(value, str):
        raise Malformed(f"expected a string, got {value!r}")
    return value


def number(value: Any) -> int:
    """`value` as an integer (a boolean is not one)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise Malformed(f"expected an integer, got {value!r}")
    return value


def damage(value: Any, step: str) -> dict[str, dict[str, tuple[int, int]]]:
    """source → target → (amount, prevented) of one step; records of one pair add up."""
    found: dict[str, dict[str, tuple[int, int]]] = {}
    for record in records(value):
        if step_of(record) != step:
            continue
        amount, prevented = number(record["amount"]), number(record.get("prevented", 0))
        if not amount:
            continue
        pairs = found.setdefault(text(record["source"]), {})
        old = pairs.get(text(record["target"]), (0, 0))
        pairs[record["target"]] = (old[0] + amount, old[1] + prevented)
    return found


def gains(value: Any, step: str) -> dict[str, list[int]]:
    """player → the amounts of life each lifelink source gained them in one step."""
    found: dict[str, list[int]] = {}
    for record in records(value):
        if step_of(record) == step and number(record["amount"]):
            found.setdefault(text(record["player"]), []).append(record["amount"])
    return {player: sorted(amounts) for player, amounts in found.items()}


def players(value: Any) -> dict[str, tuple[int, int]]:
    """player → (life, poison)."""
    if not isinstance(value, dict):
        raise Malformed("players: expected an object")
    return {player: (number(data["life"]), number(data.get("poison", 0)))
            for player, data in value.items()}


def permanents(value: Any) -> dict[str, tuple[int, tuple[tuple[str, int], ...]]]:
    """permanent → (damage marked, counters as sorted pairs)."""
    if not isinstance(value, dict):
        raise Malformed("permanents: expected an object")
    return {permanent: (number(data.get("damage", 0)),
                        tuple(sorted((k, number(n)) for k, n in
                                     data.get("counters", {}).items() if n)))
            for permanent, data in value.items()}


def permanent_json(value: tuple[int, tuple[tuple[str, int], ...]] | None
                    ) -> dict[str, Any] | None:
    return None if value is None else {"damage": value[0], "counters": dict(value[1])}


def ending(value: Any) -> tuple[str, tuple[str, ...]] | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise Malformed("game_over: expected an object or null")
    return (text(value["step"]), tuple(sorted(value.get("winners", []))))
