"""Combat scenarios as JSON: the corpus of the CR's own examples (506-511 and the combat
keywords) played and checked, malformed scenarios refused with the field named, the
published JSON Schemas agreeing with the reader, the damage-assignment policies."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesdb.conformance.generate import scenario as generated
from rulesdb.engine import combat
from rulesdb.engine.fields import ScenarioError
from rulesdb.engine.outcome import evaluate, run, unmet
from rulesdb.engine.policies import POLICIES
from rulesdb.engine.registry import EDITION, EXAMPLES_NOT_MODELLED
from rulesdb.engine.scenario import load
from rulesdb.engine.vocabulary import (
    CARD_TYPES,
    COLORS,
    COUNTERS,
    OUTCOME_FIELDS,
    SIMPLE_KEYWORDS,
    SUPERTYPES,
)

ENGINE = Path(__file__).resolve().parent.parent / "rulesdb" / "engine"
CORPUS = sorted((ENGINE / "corpus").glob("*.json"))
SCENARIO_SCHEMA = json.loads((ENGINE / "scenario.schema.json").read_text())
OUTCOME_SCHEMA = json.loads((ENGINE / "outcome.schema.json").read_text())
# The sections of 702 whose keywords change combat (modelled or not).
COMBAT_KEYWORDS = {"702.2", "702.3", "702.4", "702.7", "702.9", "702.12", "702.13", "702.14",
                   "702.15", "702.16", "702.17", "702.19", "702.22", "702.23", "702.25",
                   "702.28", "702.31", "702.36", "702.45", "702.80", "702.90", "702.111",
                   "702.118", "702.130", "702.164"}


def corpus(path: Path) -> dict:
    return json.loads(path.read_text())


# --- the corpus ---------------------------------------------------------------------------

@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_corpus_scenario_meets_its_expectation(path):
    data = corpus(path)
    expected = data["expect"]
    if "error" in expected:
        with pytest.raises(ScenarioError) as caught:
            evaluate(data)
        assert (caught.value.field, caught.value.rule) == (expected["error"]["field"],
                                                           expected["error"]["rule"])
    else:
        assert unmet(expected, evaluate(data)) == []


def examples_by_rule(archived) -> dict[str, int]:
    """How many examples each rule has in the release the evaluator cites."""
    text = archived[f"MagicCompRules-{EDITION.removeprefix('cr-')}.txt"].data.decode(
        "utf-8-sig")
    counts: dict[str, int] = {}
    current = None
    for line in text.splitlines():
        found = re.match(r"^(\d{3}\.\d+[a-z]?)\.? ", line)
        if found:
            current = found.group(1)
        elif line.startswith("Example:") and current:
            counts[current] = counts.get(current, 0) + 1
    return counts


def test_corpus_sources_resolve_in_the_cited_edition(archived):
    counts = examples_by_rule(archived)
    text = archived[f"MagicCompRules-{EDITION.removeprefix('cr-')}.txt"].data.decode(
        "utf-8-sig")
    numbers = set(re.findall(r"^(\d{3}\.\d+[a-z]?)\.? ", text, re.M))
    for path in CORPUS:
        source = corpus(path)["source"]
        assert source["rule"] in numbers, path.name
        if "example" in source:
            assert source["example"] <= counts.get(source["rule"], 0), path.name


def test_every_example_of_combat_and_its_keywords_is_in_the_corpus_or_not_modelled(archived):
    """Each example of 506-511 and of the combat keywords' rules is a scenario of the corpus
    (at least one file per example) or listed, with its reason, as not modelled."""
    wanted = set()
    for rule, count in examples_by_rule(archived).items():
        section = rule.rstrip("abcdefghijkmnpqrstuvwxyz")
        if rule[:3] in {"506", "507", "508", "509", "510", "511"} or section in COMBAT_KEYWORDS:
            wanted |= {(rule, n) for n in range(1, count + 1)}
    covered = {(corpus(p)["source"]["rule"], corpus(p)["source"].get("example"))
               for p in CORPUS}
    missing = {(rule, n) for rule, n in wanted
               if (rule, n) not in covered and rule not in EXAMPLES_NOT_MODELLED}
    assert missing == set()
    assert len(wanted) == 14
    assert all(EXAMPLES_NOT_MODELLED.values())


def test_corpus_files_follow_the_published_schema():
    validator = jsonschema.Draft202012Validator(SCENARIO_SCHEMA)
    for path in CORPUS:
        validator.validate(corpus(path))


# --- malformed scenarios: one error naming the field ----------------------------------------

BASE = {"players": [{"id": "A"}, {"id": "B"}],
        "permanents": [{"id": "a1", "controller": "A", "power": 2, "toughness": 2,
                        "keywords": ["first strike"]},
                       {"id": "b1", "controller": "B", "power": 1, "toughness": 1}],
        "attacks": [{"attacker": "a1", "target": "B"}],
        "blocks": [{"blocker": "b1", "attackers": ["a1"]}]}


def changed(path: str, value=None, delete: bool = False) -> dict:
    data = copy.deepcopy(BASE)
    *parents, last = [int(p) if p.isdigit() else p for p in path.split(".")]
    node = data
    for key in parents:
        node = node[key]
    if delete:
        del node[last]
    else:
        node[last] = value
    return data


MALFORMED = [
    # (what changes, field named, words in the message, whether the schema sees it too)
    (changed("permanents.0.keywords.0", "first_strike"), "permanents[0].keywords[0]",
     "unknown keyword 'first_strike' (did you mean 'first strike'?)", True),
    (changed("permanents.0.keywords.0", "protection from red"), "permanents[0].keywords[0]",
     'write {"protection": ["red"]}', True),
    (changed("permanents.0.keywords.0", {"toxic": 0}), "permanents[0].keywords[0].toxic",
     "must be at least 1", True),
    (changed("permanents.1.id", "a1"), "permanents[1].id", "id 'a1' is used twice", False),
    (changed("permanents.1.id", "B"), "permanents[1].id", "id 'B' is used twice", False),
    (changed("permanents.0.colour", ["red"]), "permanents[0].colour",
     "unknown field 'colour' (did you mean 'colors'?)", True),
    (changed("permanents.0.colors", ["reed"]), "permanents[0].colors[0]",
     "unknown color 'reed' (did you mean 'red'?)", True),
    (changed("permanents.0.power", "2"), "permanents[0].power", "expected an integer", True),
    (changed("permanents.0.toughness", delete=True), "permanents[0].toughness",
     "missing (a creature has power and toughness)", True),
    (changed("permanents.0.counters", {"+1+1": 1}), "permanents[0].counters.+1+1",
     "unknown field '+1+1'", True),
    (changed("permanents.1.damage", 1), "permanents[1]", "state-based action 704.5g", False),
    (changed("players.1.life", 0), "players[1]", "state-based action 704.5a", False),
    (changed("players", [{"id": "A"}]), "players", "exactly two players", True),
    (changed("attacks.0.attacker", "a2"), "attacks[0].attacker",
     "no player or permanent has id 'a2'", False),
    (changed("attacks.0.target", "b1"), "attacks[0].target",
     "only a player, a planeswalker or a battle can be attacked", False),
    (changed("attacks.0.attacker", "b1"), "attacks[0].attacker",
     "not controlled by the attacking player", False),
    (changed("blocks.0.attackers", ["b1"]), "blocks[0].attackers[0]", "b1 is not attacking",
     False),
    (changed("permanents.0.keywords", ["flying"]), "blocks[0].attackers[0]",
     "can't be blocked except by creatures with flying and/or reach (702.9b)", False),
    (changed("permanents.1.tapped", True), "blocks[0].blocker", "is tapped", False),
    (changed("damage_assignment", {"attackers": "kill_all"}), "damage_assignment.attackers",
     "unknown policy 'kill_all'", True),
    (changed("assignments", [{"source": "a1", "damage": {"B": 2}}]), "assignments[0].damage",
     "a1 can't assign damage to B in the first strike combat damage step (510.1c)", False),
    (changed("assignments", [{"source": "a1", "step": "first", "damage": {"b1": 2}}]),
     "assignments[0].step", "unknown step 'first'", True),
    (changed("attacks", [{"attacker": "a1", "target": "B", "blocked": False}]),
     "attacks[0].blocked", "a1 has blockers", False),
]


@pytest.mark.parametrize(("data", "field", "words", "schema_too"), MALFORMED)
def test_malformed_scenario_names_the_field(data, field, words, schema_too):
    with pytest.raises(ScenarioError) as caught:
        evaluate(data)
    assert caught.value.field == field
    assert words in str(caught.value)
    assert "\n" not in str(caught.value)
    schema_errors = list(jsonschema.Draft202012Validator(SCENARIO_SCHEMA).iter_errors(data))
    assert bool(schema_errors) is schema_too


def test_the_base_scenario_is_legal():
    assert evaluate(BASE)["deaths"][0]["permanent"] == "b1"


def mutations():
    """A generated scenario with one value replaced by another JSON value."""
    values = st.one_of(st.none(), st.booleans(), st.integers(-3, 12), st.text(max_size=6),
                       st.sampled_from(["flying", "first_strike", "red", "A", "b1"]),
                       st.lists(st.integers(0, 3), max_size=2), st.just({}))
    return st.tuples(st.integers(0, 400), st.integers(0, 10_000), values)


def _paths(node, prefix=()):
    if isinstance(node, dict):
        for key, value in node.items():
            yield (*prefix, key)
            yield from _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield (*prefix, index)
            yield from _paths(value, (*prefix, index))


@settings(max_examples=300, deadline=None)
@given(mutations())
def test_whatever_the_schema_refuses_the_reader_refuses(mutation):
    """The reader is at least as strict as the published schema."""
    index, where, value = mutation
    data = generated(5, index)
    paths = list(_paths(data))
    *parents, last = paths[where % len(paths)]
    node = data
    for key in parents:
        node = node[key]
    node[last] = value
    if list(jsonschema.Draft202012Validator(SCENARIO_SCHEMA).iter_errors(data)):
        with pytest.raises(ScenarioError):
            load(data)


def test_schemas_are_valid_and_name_the_closed_vocabularies():
    jsonschema.Draft202012Validator.check_schema(SCENARIO_SCHEMA)
    jsonschema.Draft202012Validator.check_schema(OUTCOME_SCHEMA)
    defs = SCENARIO_SCHEMA["$defs"]
    assert set(defs["keyword"]["oneOf"][0]["enum"]) == SIMPLE_KEYWORDS
    assert set(defs["permanent"]["properties"]["colors"]["items"]["enum"]) == COLORS
    assert set(defs["permanent"]["properties"]["types"]["items"]["enum"]) == CARD_TYPES
    assert set(defs["permanent"]["properties"]["supertypes"]["items"]["enum"]) == SUPERTYPES
    assert set(defs["permanent"]["properties"]["counters"]["propertyNames"]["enum"]) == COUNTERS
    assert set(defs["policy"]["enum"]) == set(POLICIES)
    assert set(SCENARIO_SCHEMA["properties"]["expect"]["propertyNames"]["enum"]) == \
        OUTCOME_FIELDS
    assert set(OUTCOME_SCHEMA["properties"]) == OUTCOME_FIELDS - {"error"}


@pytest.mark.parametrize("index", range(0, 400, 7))
def test_generated_scenarios_and_outcomes_follow_the_schemas(index):
    data = generated(11, index)
    jsonschema.Draft202012Validator(SCENARIO_SCHEMA).validate(data)
    jsonschema.Draft202012Validator(OUTCOME_SCHEMA).validate(evaluate(data))


# --- policies and explicit divisions ------------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(sorted(POLICIES)), st.sampled_from(sorted(POLICIES)))
def test_every_policy_makes_only_legal_assignments(index, attackers, blockers):
    """The evaluator checks the divisions a scenario gives; the policies' own are checked
    here, every one of them, on random scenarios."""
    data = {**generated(9, index), "damage_assignment": {"attackers": attackers,
                                                        "blockers": blockers}}
    scenario = load(data)
    attack_policy, block_policy = POLICIES[attackers][0], POLICIES[blockers][1]
    combat.resolve_combat(scenario.state, list(scenario.attacks), attack_policy, block_policy,
                          None, tuple(scenario.blocks))


def two_attackers_one_blocker(**extra) -> dict:
    return {"players": [{"id": "A"}, {"id": "B"}],
            "permanents": [{"id": "a1", "controller": "A", "power": 2, "toughness": 2},
                           {"id": "a2", "controller": "A", "power": 2, "toughness": 2},
                           {"id": "b1", "controller": "B", "power": 3, "toughness": 5,
                            "keywords": [{"can block additional creatures": 1}]}],
            "attacks": [{"attacker": "a1", "target": "B"}, {"attacker": "a2", "target": "B"}],
            "blocks": [{"blocker": "b1", "attackers": ["a2", "a1"]}], **extra}


def blocker_damage(outcome: dict) -> dict:
    return {r["target"]: r["amount"] for r in outcome["damage"] if r["source"] == "b1"}


@pytest.mark.parametrize(("extra", "split"), [
    ({}, {"a2": 2, "a1": 1}),  # lethal_in_order, in the blocker's order: a2 first
    ({"damage_assignment": {"blockers": "first_takes_all"}}, {"a2": 3}),
    ({"assignments": [{"source": "b1", "damage": {"a1": 3}}]}, {"a1": 3}),
    ({"assignments": [{"source": "b1", "damage": {"a1": 1, "a2": 2}}]}, {"a1": 1, "a2": 2}),
])
def test_a_blocker_facing_two_attackers_divides_its_damage(extra, split):
    assert blocker_damage(evaluate(two_attackers_one_blocker(**extra))) == split


def test_a_blocker_cannot_assign_more_than_its_power():
    data = two_attackers_one_blocker(assignments=[{"source": "b1", "damage": {"a1": 4}}])
    with pytest.raises(ScenarioError, match=r"assignments\[0\]\.damage: b1 must assign "
                                            r"exactly 3 damage"):
        evaluate(data)


def test_blocking_two_attackers_needs_the_ability():
    data = two_attackers_one_blocker()
    data["permanents"][2]["keywords"] = []
    with pytest.raises(ScenarioError) as caught:
        evaluate(data)
    assert (caught.value.field, caught.value.rule) == ("blocks[0].blocker", "509.1a")


def test_an_explicit_assignment_for_one_step_leaves_the_other_to_the_policy():
    data = {"players": [{"id": "A"}, {"id": "B"}],
            "permanents": [{"id": "a1", "controller": "A", "power": 3, "toughness": 3,
                            "keywords": ["double strike", "trample"]},
                           {"id": "b1", "controller": "B", "power": 0, "toughness": 5,
                            "keywords": ["indestructible"]}],
            "attacks": [{"attacker": "a1", "target": "B"}],
            "blocks": [{"blocker": "b1", "attackers": ["a1"]}],
            "assignments": [{"source": "a1", "step": "first strike", "damage": {"b1": 3}}]}
    damage = [(r["step"], r["target"], r["amount"]) for r in evaluate(data)["damage"]]
    # the second step's lethal counts the 3 damage already marked: 2 more, 1 tramples over
    assert damage == [("first strike", "b1", 3), ("regular", "b1", 2), ("regular", "B", 1)]


def test_no_attack_no_combat_damage_step():
    data = {**BASE, "attacks": [], "blocks": []}
    assert evaluate(data)["steps"] == []
    assert run(load(data)).reports == ()
