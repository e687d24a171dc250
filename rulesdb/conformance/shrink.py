"""Shrinking a failing scenario to a smallest one that still fails, as QuickCheck and
Hypothesis do: try simpler variants (an attack, a block or a creature removed, a keyword
dropped, a number lowered, an optional field left out), keep the first that is still a
legal scenario and still fails, and start again until no variant does."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from ..engine.fields import ScenarioError
from ..engine.scenario import load

Scenario = dict[str, Any]
# Lowest value a number may shrink to, by field.
FLOORS = {"toughness": 1, "loyalty": 1, "defense": 1, "toxic": 1}
# A keyword and the simpler one it extends, tried in its place.
SIMPLER_KEYWORDS = {"trample over planeswalkers": "trample", "double strike": "first strike"}


def shrink(scenario: Scenario, fails: Callable[[Scenario], bool],
           budget: int = 3000) -> tuple[Scenario, int]:
    """A smallest variant of `scenario` for which `fails` holds, and the number of variants
    tried (at most `budget`). Its ids are kept (`canonical` renames them)."""
    current, tried = scenario, 0
    progress = True
    while progress and tried < budget:
        progress = False
        for candidate in variants(current):
            if tried >= budget:
                break
            if not legal(candidate):
                continue
            tried += 1
            if fails(candidate):
                current, progress = candidate, True
                break
    return current, tried


def size(scenario: Scenario) -> tuple[int, int, int, int]:
    """How big a scenario is: permanents, keywords, the sum of its numbers, its JSON length."""
    permanents = scenario.get("permanents", [])
    keywords = sum(len(p.get("keywords", [])) for p in permanents)
    numbers = sum(abs(n) for n in _numbers(scenario))
    return (len(permanents), keywords, numbers, len(json.dumps(scenario)))


def variants(s: Scenario) -> Iterator[Scenario]:
    """Simpler scenarios than `s`, the biggest simplifications first."""
    attacks, blocks = s.get("attacks", []), s.get("blocks", [])
    for attack in attacks:
        yield _without(s, {attack["attacker"]})
    for index, block in enumerate(blocks):
        yield _without(s, {block["blocker"]})
        yield _edit(s, lambda c, i=index: c["blocks"].pop(i))
    used = {a["attacker"] for a in attacks} | {b["blocker"] for b in blocks} | {
        a["target"] for a in attacks}
    for permanent in s.get("permanents", []):
        if permanent["id"] not in used:
            yield _without(s, {permanent["id"]})
    for index, block in enumerate(blocks):
        for position in range(len(block["attackers"])):
            if len(block["attackers"]) > 1:
                yield _edit(s, lambda c, i=index, p=position: c["blocks"][i]["attackers"].pop(p))
    for index, attack in enumerate(attacks):
        if any(p["id"] == attack["target"] for p in s["permanents"]):
            yield _edit(s, lambda c, i=index: c["attacks"][i].update(
                target=next(p["id"] for p in c["players"] if p["id"] != _active(c))))
    for key in ("assignments", "damage_assignment", "expect", "name", "description"):
        if key in s:
            yield _edit(s, lambda c, k=key: c.pop(k))
    for index, permanent in enumerate(s.get("permanents", [])):
        yield from _simpler_permanent(s, index, permanent)
    for index, player in enumerate(s.get("players", [])):
        for key in ("life", "poison", "protection"):
            if key in player:
                yield _edit(s, lambda c, i=index, k=key: c["players"][i].pop(k))
        if "life" in player:
            for value in _lower(player["life"], 1):
                yield _edit(s, lambda c, i=index, v=value: c["players"][i].update(life=v))
        if "poison" in player:
            for value in _lower(player["poison"], 0):
                yield _edit(s, lambda c, i=index, v=value: c["players"][i].update(poison=v))


def _simpler_permanent(s: Scenario, index: int, permanent: dict[str, Any]
                       ) -> Iterator[Scenario]:
    keywords = permanent.get("keywords", [])
    for position in range(len(keywords)):
        yield _edit(s, lambda c, i=index, k=position: c["permanents"][i]["keywords"].pop(k))
    for position, keyword in enumerate(keywords):
        if isinstance(keyword, str) and keyword in SIMPLER_KEYWORDS:
            yield _edit(s, lambda c, i=index, k=position, w=SIMPLER_KEYWORDS[keyword]:
                        c["permanents"][i]["keywords"].__setitem__(k, w))
        if isinstance(keyword, dict) and "protection" in keyword and len(
                keyword["protection"]) > 1:
            for quality in range(len(keyword["protection"])):
                yield _edit(s, lambda c, i=index, k=position, q=quality:
                            c["permanents"][i]["keywords"][k]["protection"].pop(q))
        if isinstance(keyword, dict) and isinstance(keyword.get("toxic"), int):
            for value in _lower(keyword["toxic"], 1):
                yield _edit(s, lambda c, i=index, k=position, v=value:
                            c["permanents"][i]["keywords"][k].update(toxic=v))
    for position in range(len(permanent.get("colors", []))):
        yield _edit(s, lambda c, i=index, k=position: c["permanents"][i]["colors"].pop(k))
    counters = permanent.get("counters", {})
    if isinstance(permanent.get("power"), int) and isinstance(permanent.get("toughness"), int):
        for kind, sign in (("+1/+1", 1), ("-1/-1", -1)):
            if isinstance(counters.get(kind), int) and counters[kind]:
                yield _edit(s, lambda c, i=index, k=kind, n=sign * counters[kind]:
                            _fold_counters(c["permanents"][i], k, n))
    for key in ("damage", "counters", "name", "tapped", "keywords", "colors", "types"):
        if key in permanent:
            yield _edit(s, lambda c, i=index, k=key: c["permanents"][i].pop(k))
    for key in ("power", "toughness", "damage"):
        if isinstance(permanent.get(key), int):
            for value in _lower(permanent[key], FLOORS.get(key, 0)):
                yield _edit(s, lambda c, i=index, k=key, v=value:
                            c["permanents"][i].update({k: v}))
    for kind, count in permanent.get("counters", {}).items():
        if isinstance(count, int):
            for value in _lower(count, FLOORS.get(kind, 0)):
                yield _edit(s, lambda c, i=index, k=kind, v=value:
                            c["permanents"][i]["counters"].update({k: v}))


def _fold_counters(permanent: dict[str, Any], kind: str, change: int) -> None:
    """The same creature with its `kind` counters written into its power and toughness."""
    del permanent["counters"][kind]
    if not permanent["counters"]:
        del permanent["counters"]
    permanent["power"] += change
    permanent["toughness"] += change


def canonical(s: Scenario) -> Scenario:
    """`s` with its permanents renamed a1, a2 … (attacking player's), b1, b2 … (the
    other's), in the order listed, when their ids are not already those."""
    active = _active(s)
    counts = {"a": 0, "b": 0}
    names: dict[str, str] = {}
    taken = {p["id"] for p in s.get("players", [])}
    for permanent in s.get("permanents", []):
        side = "a" if permanent.get("controller") == active else "b"
        counts[side] += 1
        names[permanent["id"]] = f"{side}{counts[side]}"
    if set(names.values()) & taken or all(k == v for k, v in names.items()):
        return s
    return json.loads(json.dumps(s), object_hook=lambda o: _renamed(o, names))


def _renamed(node: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    result = {}
    for key, value in node.items():
        key = names.get(key, key)
        if key in ("id", "attacker", "blocker", "target", "source") and value in names:
            value = names[value]
        elif key == "attackers" and isinstance(value, list):
            value = [names.get(v, v) for v in value]
        result[key] = value
    return result


def _without(s: Scenario, ids: set[str]) -> Scenario:
    """`s` without the permanents `ids` and every mention of them."""
    copy = _copy(s)
    copy["permanents"] = [p for p in copy["permanents"] if p["id"] not in ids]
    copy["attacks"] = [a for a in copy["attacks"] if a["attacker"] not in ids]
    blocks = []
    for block in copy.get("blocks", []):
        if block["blocker"] in ids:
            continue
        block["attackers"] = [a for a in block["attackers"] if a not in ids]
        if block["attackers"]:
            blocks.append(block)
    if "blocks" in copy:
        copy["blocks"] = blocks
    if "assignments" in copy:
        copy["assignments"] = [
            {**a, "damage": {t: n for t, n in a["damage"].items() if t not in ids}}
            for a in copy["assignments"] if a.get("source") not in ids]
    return copy


def _edit(s: Scenario, change: Callable[[Scenario], Any]) -> Scenario:
    copy = _copy(s)
    change(copy)
    return copy


def _copy(s: Scenario) -> Scenario:
    return json.loads(json.dumps(s))


def _lower(value: int, floor: int) -> list[int]:
    """Smaller values to try, the smallest first: the floor, then halfway, then one less."""
    if value <= floor:
        return []
    return sorted({floor, (floor + value) // 2, value - 1} - {value})


def legal(s: Scenario) -> bool:
    """Whether `s` is a scenario the reader accepts."""
    try:
        load(s)
    except ScenarioError:
        return False
    return True


def _active(s: Scenario) -> str | None:
    players = s.get("players") or [{}]
    return s.get("active", players[0].get("id"))


def _numbers(node: Any) -> Iterator[int]:
    if isinstance(node, bool):
        return
    if isinstance(node, int):
        yield node
    elif isinstance(node, dict):
        for key, value in node.items():
            if key != "life":
                yield from _numbers(value)
    elif isinstance(node, list):
        for value in node:
            yield from _numbers(value)
