"""A combat scenario read from its JSON form: checked field by field, then built into the
evaluator's model (`load`). The format is published as `scenario.schema.json` beside this
module; this reader also checks what a schema cannot (ids used once and referred to
correctly, legal attacks and blocks, no state-based action pending before combat damage).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import blocking, sba
from .combat import FIRST_STRIKE, STEPS, STRIKERS
from .fields import (
    ScenarioError,
    array,
    boolean,
    integer,
    obj,
    reference,
    text,
    words,
)
from .keywords import parse_keywords
from .model import Attack, GameState, Permanent, Player, counters_of
from .policies import DEFAULT, POLICIES
from .vocabulary import (
    ASSIGNMENT_FIELDS,
    ATTACK_FIELDS,
    BLOCK_FIELDS,
    CARD_TYPES,
    COLORS,
    COUNTERS,
    OUTCOME_FIELDS,
    PERMANENT_FIELDS,
    PLAYER_FIELDS,
    POLICY_FIELDS,
    SCENARIO_FIELDS,
    SOURCE_FIELDS,
    SUPERTYPES,
    suggestion,
)


@dataclass(frozen=True)
class Explicit:
    """A division of one creature's combat damage given by the scenario (`assignments[i]`)."""

    index: int
    source: str
    step: str | None
    damage: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Scenario:
    """A checked scenario: the game state, the attacks with their blockers, the choices."""

    state: GameState
    attacks: tuple[Attack, ...]
    blocks: dict[str, list[str]]
    active: str
    defender: str
    policies: tuple[str, str]
    explicit: dict[tuple[str, str | None], Explicit]
    expect: dict[str, Any] | None


def load(data: Any) -> Scenario:
    """Check a scenario's JSON value and build it; ScenarioError names the first bad field."""
    top = obj(data, "", SCENARIO_FIELDS, ("players", "permanents", "attacks"))
    for key in ("name", "description"):
        if key in top:
            text(top[key], key)
    if "source" in top:
        source = obj(top["source"], "source", SOURCE_FIELDS, ("rule",))
        text(source["rule"], "source.rule")
        if "example" in source:
            integer(source["example"], "source.example", 1)
    ids = _ids(top)
    players = _players(top["players"], ids)
    player_ids = [p.id for p in players]
    permanents = [_permanent(item, f"permanents[{i}]", ids, player_ids)
                  for i, item in enumerate(top["permanents"])]
    active = reference(top.get("active", player_ids[0]), "active", ids, "player")
    defender = next(p for p in player_ids if p != active)
    state = GameState(tuple(players), tuple(permanents))
    _no_pending_actions(state, top)
    attack_rows = _attacks(top["attacks"], ids)
    _check_attacks(state, attack_rows, active, defender)
    blocks, block_rows = _blocks(top.get("blocks", []), ids, attack_rows)
    attacks = tuple(_attack(state, row, blocks, defender) for row in attack_rows)
    for index, attack in enumerate(attacks):
        if attack.blocked is False and attack.blockers:
            raise ScenarioError(f"attacks[{index}].blocked", f"{attack.attacker} has blockers")
    _check_blocks(state, blocks, block_rows, [a.attacker for a in attacks], defender)
    policies = _policies(top.get("damage_assignment", {}))
    explicit = _explicit(top.get("assignments", []), ids, state, attacks, blocks)
    expect = None
    if "expect" in top:
        expect = obj(top["expect"], "expect", OUTCOME_FIELDS)
        if "error" in expect:
            obj(expect["error"], "expect.error", frozenset({"field", "rule"}), ("field",))
    return Scenario(state, attacks, blocks, active, defender, policies, explicit, expect)


def _ids(top: dict[str, Any]) -> dict[str, str]:
    """Every id, player or permanent, each used once."""
    ids: dict[str, str] = {}
    players = array(top["players"], "players")
    if len(players) != 2:
        raise ScenarioError("players", f"a scenario has exactly two players (multiplayer "
                            f"is not modelled), got {len(players)}")
    permanents = array(top["permanents"], "permanents")
    named = [("players", "player", players), ("permanents", "permanent", permanents)]
    for field, what, items in named:
        for index, item in enumerate(items):
            where = f"{field}[{index}]"
            if not isinstance(item, dict) or "id" not in item:
                obj(item, where, frozenset({"id"}), ("id",))
            name = text(item["id"], f"{where}.id")
            if name in ids:
                raise ScenarioError(f"{where}.id", f"id {name!r} is used twice (players and "
                                    "permanents share one set of ids)")
            ids[name] = what
    return ids


def _players(items: list[Any], ids: dict[str, str]) -> list[Player]:
    players = []
    player_ids = frozenset(i for i, what in ids.items() if what == "player")
    for index, item in enumerate(items):
        where = f"players[{index}]"
        obj(item, where, PLAYER_FIELDS, ("id",))
        protection = words(item.get("protection", []), f"{where}.protection",
                           COLORS | CARD_TYPES | {"everything"} | player_ids, "quality")
        players.append(Player(item["id"], life=integer(item.get("life", 20), f"{where}.life"),
                              poison=integer(item.get("poison", 0), f"{where}.poison", 0),
                              protection=protection))
    return players


def _permanent(item: Any, where: str, ids: dict[str, str], players: list[str]) -> Permanent:
    obj(item, where, PERMANENT_FIELDS, ("id", "controller"))
    controller = _player_ref(item["controller"], where, "controller", ids)
    owner = _player_ref(item.get("owner", controller), where, "owner", ids)
    types = (words(item["types"], f"{where}.types", CARD_TYPES, "card type")
             if "types" in item else CREATURE)
    creature = "creature" in types
    for key in ("power", "toughness"):
        if creature and key not in item:
            raise ScenarioError(f"{where}.{key}", "missing (a creature has power and "
                                "toughness)")
    counters = obj(item.get("counters", {}), f"{where}.counters", COUNTERS)
    for kind, count in counters.items():
        integer(count, f"{where}.counters.{kind}", 0)
    if "protector" in item and "battle" not in types:
        raise ScenarioError(f"{where}.protector", "only a battle has a protector")
    traits = (parse_keywords(item["keywords"], f"{where}.keywords", frozenset(players))
              if "keywords" in item else {})
    name = text(item["name"], f"{where}.name") if "name" in item else item["id"]
    return Permanent.assemble(
        id=item["id"], name=name, owner=owner, controller=controller,
        types=types, subtypes=_words(item, "subtypes", where, None, "subtype"),
        supertypes=_words(item, "supertypes", where, SUPERTYPES, "supertype"),
        colors=_words(item, "colors", where, COLORS, "color"),
        power=_integer(item, "power", where, None, None),
        toughness=_integer(item, "toughness", where, None, None),
        counters=counters_of(counters) if counters else (),
        damage=_integer(item, "damage", where, 0, 0),
        tapped=boolean(item["tapped"], f"{where}.tapped") if "tapped" in item else False,
        protector=(_player_ref(item["protector"], where, "protector", ids)
                   if "protector" in item else None),
        **traits)


# The readers below check the common, well-formed case inline and leave the message naming
# the field to the general checks (fields.py) when it is not: a scenario of five creatures is
# read in a few dozen microseconds.

def _integer(item: dict[str, Any], key: str, where: str, low: int | None,
             default: int | None) -> int | None:
    if key not in item:
        return default
    value = item[key]
    if type(value) is int and (low is None or value >= low):
        return value
    return integer(value, f"{where}.{key}", low)


def _player_ref(value: Any, where: str, key: str, ids: dict[str, str]) -> str:
    if type(value) is str and ids.get(value) == "player":
        return value
    return reference(value, f"{where}.{key}", ids, "player")


CREATURE = frozenset({"creature"})


def _words(item: dict[str, Any], key: str, where: str, known: frozenset[str] | None,
           what: str) -> frozenset[str]:
    return words(item[key], f"{where}.{key}", known, what) if key in item else frozenset()


def _no_pending_actions(state: GameState, top: dict[str, Any]) -> None:
    """A snapshot taken as combat damage begins has no state-based action left to perform."""
    actions = sba.find_actions(state)
    if not actions:
        return
    action = actions[0]
    where = next((f"players[{i}]" for i, p in enumerate(top["players"])
                  if p["id"] == action.object), None) or next(
        f"permanents[{i}]" for i, p in enumerate(top["permanents"]) if p["id"] == action.object)
    raise ScenarioError(where, f"state-based action {action.rule} applies to {action.object} "
                        "before combat damage (its life, toughness, damage, counters or "
                        "protector can't be those of a game in progress)", action.rule)


def _attacks(items: Any, ids: dict[str, str]) -> list[dict[str, Any]]:
    rows, seen = [], set()
    for index, item in enumerate(array(items, "attacks")):
        where = f"attacks[{index}]"
        obj(item, where, ATTACK_FIELDS, ("attacker", "target"))
        attacker = reference(item["attacker"], f"{where}.attacker", ids, "permanent")
        if attacker in seen:
            raise ScenarioError(f"{where}.attacker", f"{attacker} attacks twice")
        seen.add(attacker)
        reference(item["target"], f"{where}.target", ids)
        if "blocked" in item:
            boolean(item["blocked"], f"{where}.blocked")
        rows.append(item)
    return rows


def _check_attacks(state: GameState, rows: list[dict[str, Any]], active: str,
                   defender: str) -> None:
    pairs = [(row["attacker"], row["target"]) for row in rows]
    for problem in blocking.attack_problems(state, pairs, active, defender):
        index = next(i for i, row in enumerate(rows) if row["attacker"] == problem.creature)
        part = "target" if problem.other is not None else "attacker"
        raise ScenarioError(f"attacks[{index}].{part}", f"{problem.message} ({problem.rule})",
                            problem.rule)


def _blocks(items: Any, ids: dict[str, str], attack_rows: list[dict[str, Any]]
            ) -> tuple[dict[str, list[str]], list[dict[str, Any]]]:
    attacking = {row["attacker"] for row in attack_rows}
    blocks: dict[str, list[str]] = {}
    rows = array(items, "blocks")
    for index, item in enumerate(rows):
        where = f"blocks[{index}]"
        obj(item, where, BLOCK_FIELDS, ("blocker", "attackers"))
        blocker = reference(item["blocker"], f"{where}.blocker", ids, "permanent")
        if blocker in blocks:
            raise ScenarioError(f"{where}.blocker", f"{blocker} is declared as a blocker twice "
                                "(list every attacker it blocks in one entry)")
        chosen = array(item["attackers"], f"{where}.attackers")
        if not chosen:
            raise ScenarioError(f"{where}.attackers", "a blocker blocks at least one attacker")
        names: list[str] = []
        for position, value in enumerate(chosen):
            field = f"{where}.attackers[{position}]"
            name = reference(value, field, ids, "permanent")
            if name not in attacking:
                raise ScenarioError(field, f"{name} is not attacking (509.1a)", "509.1a")
            if name in names:
                raise ScenarioError(field, f"{name} is listed twice")
            names.append(name)
        blocks[blocker] = names
    return blocks, rows


def _attack(state: GameState, row: dict[str, Any], blocks: dict[str, list[str]],
            defender: str) -> Attack:
    attacker = row["attacker"]
    blockers = tuple(b for b, chosen in blocks.items() if attacker in chosen)
    return Attack(attacker, row["target"], blockers, row.get("blocked"), defender)


def _check_blocks(state: GameState, blocks: dict[str, list[str]], rows: list[dict[str, Any]],
                  attackers: list[str], defender: str) -> None:
    order = {row["blocker"]: index for index, row in enumerate(rows)}
    for problem in blocking.declaration_problems(state, blocks, defender):
        index = order[problem.creature]
        field = f"blocks[{index}].blocker"
        if problem.other is not None:
            field = f"blocks[{index}].attackers[{blocks[problem.creature].index(problem.other)}]"
        raise ScenarioError(field, f"{problem.message} ({problem.rule})", problem.rule)
    problem = blocking.requirement_problem(state, blocks, attackers, defender)
    if problem is not None:
        raise ScenarioError("blocks", f"{problem.message} ({problem.rule})", problem.rule)


def _policies(value: Any) -> tuple[str, str]:
    chosen = obj(value, "damage_assignment", POLICY_FIELDS)
    names = []
    for side in ("attackers", "blockers"):
        name = chosen.get(side, DEFAULT)
        if not isinstance(name, str) or name not in POLICIES:
            raise ScenarioError(f"damage_assignment.{side}", f"unknown policy {name!r}"
                                f"{suggestion(str(name), set(POLICIES))}; the policies are "
                                + ", ".join(sorted(POLICIES)))
        names.append(name)
    return names[0], names[1]


def _explicit(items: Any, ids: dict[str, str], state: GameState, attacks: tuple[Attack, ...],
              blocks: dict[str, list[str]]) -> dict[tuple[str, str | None], Explicit]:
    fighting = {a.attacker for a in attacks} | set(blocks)
    two_steps = any(STRIKERS & p.keywords for p in state.battlefield if p.id in fighting)
    found: dict[tuple[str, str | None], Explicit] = {}
    for index, item in enumerate(array(items, "assignments")):
        where = f"assignments[{index}]"
        obj(item, where, ASSIGNMENT_FIELDS, ("source", "damage"))
        source = reference(item["source"], f"{where}.source", ids, "permanent")
        if source not in fighting:
            raise ScenarioError(f"{where}.source", f"{source} is neither attacking nor "
                                "blocking")
        step = item.get("step")
        if step is not None and step not in STEPS:
            raise ScenarioError(f"{where}.step", f"unknown step {step!r}"
                                f"{suggestion(str(step), set(STEPS))}; the steps are "
                                + " and ".join(repr(s) for s in STEPS))
        if step == FIRST_STRIKE and not two_steps:
            raise ScenarioError(f"{where}.step", "no attacking or blocking creature has first "
                                "strike or double strike: there is no first-strike step "
                                "(510.4)", "510.4")
        damage = item["damage"]
        if not isinstance(damage, dict):
            raise ScenarioError(f"{where}.damage", "expected an object of target id → amount")
        for target, amount in damage.items():
            reference(target, f"{where}.damage.{target}", ids)
            integer(amount, f"{where}.damage.{target}", 0)
        if (source, step) in found:
            raise ScenarioError(where, f"{source} already has an assignment for "
                                f"{'that step' if step else 'every step'}")
        found[(source, step)] = Explicit(index, source, step, tuple(damage.items()))
    return found
