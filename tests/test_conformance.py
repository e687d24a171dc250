"""The conformance harness: the reference and a second, independent engine agree; the
comparison step by step (root differences only, a step played after the game is over last
and marked, the rules deciding each); the shrinker and the export."""

from __future__ import annotations

import json

import jsonschema
import pytest

from rulesdb.conformance.compare import compare
from rulesdb.conformance.generate import scenario as generated
from rulesdb.conformance.run import AS_THE_GAME_ENDS, check, export, outcomes
from rulesdb.conformance.shrink import canonical, shrink, size
from rulesdb.engine.outcome import evaluate, outcome, run
from rulesdb.engine.scenario import load

from conformance_engine import correct, make


def test_the_reference_agrees_with_itself():
    report = check(evaluate, 1000, seed=1)
    assert (report["compared"], report["agreed"], report["causes"]) == (1000, 1000, [])


def test_an_engine_written_from_the_formats_agrees_with_the_reference():
    report = check(correct, 1000, seed=2)
    assert (report["compared"], report["agreed"], report["causes"]) == (1000, 1000, [])


# --- comparing ---------------------------------------------------------------------------

def blocked_case() -> dict:
    return {"players": [{"id": "A"}, {"id": "B"}],
            "permanents": [{"id": "a1", "controller": "A", "power": 2, "toughness": 1},
                           {"id": "b1", "controller": "B", "power": 0, "toughness": 1}],
            "attacks": [{"attacker": "a1", "target": "B"}],
            "blocks": [{"blocker": "b1", "attackers": ["a1"]}]}


def test_only_the_fields_an_engine_returns_are_compared():
    data = blocked_case()
    evaluation = run(load(data))
    reference = outcome(evaluation)
    partial = {"deaths": reference["deaths"], "players": reference["players"]}
    assert compare(evaluation, reference, partial) == []
    wrong = {**partial, "players": {"A": {"life": 20}, "B": {"life": 19}}}
    (difference,) = compare(evaluation, reference, wrong)
    assert (difference.aspect, difference.item, difference.rules) == (
        "life and poison", "B", ("120.3a",))


def test_an_engine_without_steps_is_not_held_to_them():
    """An engine giving deaths alone, for a combat of two steps with deaths in the second."""
    data = {"players": [{"id": "A"}, {"id": "B"}],
            "permanents": [{"id": "a1", "controller": "A", "power": 1, "toughness": 1,
                            "keywords": ["first strike"]},
                           {"id": "a2", "controller": "A", "power": 2, "toughness": 2},
                           {"id": "b1", "controller": "B", "power": 0, "toughness": 2}],
            "attacks": [{"attacker": "a1", "target": "B"}, {"attacker": "a2", "target": "B"}],
            "blocks": [{"blocker": "b1", "attackers": ["a2"]}]}
    reference = evaluate(data)
    assert [d["step"] for d in reference["deaths"]] == ["regular"]
    assert outcomes(lambda s: {"deaths": evaluate(s)["deaths"]}, data).differences == []


def test_a_downstream_difference_is_not_a_root():
    """The engine loses a point of damage: its division is illegal, and that alone is
    reported (what it leads to is not)."""
    (difference,) = outcomes(make("excess_lost"), blocked_case()).differences
    assert difference.as_dict() == {
        "aspect": "division", "step": "regular", "item": "a1", "reference": None,
        "engine": {"b1": 1}, "rules": ["510.1a"], "note": "a1 must assign exactly 2 damage",
        "side": "attacker"}


def test_an_engine_dealing_damage_in_the_wrong_step_is_told_why_not():
    data = {"players": [{"id": "A"}, {"id": "B"}],
            "permanents": [{"id": "a1", "controller": "A", "power": 2, "toughness": 2,
                            "keywords": ["first strike"]}],
            "attacks": [{"attacker": "a1", "target": "B"}]}

    def twice(scenario):  # a first striker dealing damage in the regular step as well
        result = evaluate(scenario)
        result["damage"].append({**result["damage"][0], "step": "regular"})
        return result

    (difference,) = outcomes(twice, data).differences
    assert (difference.aspect, difference.rules) == ("division", ("510.4", "702.7b", "702.4b"))
    (difference,) = outcomes(lambda s: {**evaluate(s), "steps": ["regular"]}, data).differences
    assert (difference.aspect, difference.rules) == ("steps", ("510.4", "702.7b"))
    del data["permanents"][0]["keywords"]
    (difference,) = outcomes(lambda s: {"damage": [], "steps": ["regular"]}, data).differences
    assert (difference.aspect, difference.rules, difference.note) == (
        "division", ("510.1a",), "a1 must assign exactly 2 damage")


def first_strike_kill() -> dict:
    """B at 2 life: a1's first-strike damage ends the game before a2 deals any."""
    return {"players": [{"id": "A"}, {"id": "B", "life": 2}],
            "permanents": [{"id": "a1", "controller": "A", "power": 2, "toughness": 2,
                            "keywords": ["first strike"]},
                           {"id": "a2", "controller": "A", "power": 3, "toughness": 3},
                           {"id": "b1", "controller": "B", "power": 1, "toughness": 3}],
            "attacks": [{"attacker": "a1", "target": "B"}, {"attacker": "a2", "target": "B"}],
            "blocks": [{"blocker": "b1", "attackers": ["a2"]}]}


def test_an_earlier_difference_is_not_hidden_by_a_step_played_after_the_end():
    """Issue 40, point 4: an engine that plays the regular step after the game ended in the
    first-strike step, and whose first-strike damage differs too: both are reported, the
    first-strike one first, the step played after the end last and marked."""
    def engine(scenario):
        result = evaluate(scenario)
        result["damage"][0]["prevented"] = 1  # a difference in the first-strike step
        result["steps"] = ["first strike", "regular"]
        result["damage"].append({"step": "regular", "source": "a2", "target": "b1",
                                 "amount": 3, "prevented": 0})
        return result

    first, late = outcomes(engine, first_strike_kill()).differences
    assert (first.aspect, first.step, first.rules, first.after_end) == (
        "damage prevented", "first strike", ("702.16e",), False)
    assert (late.aspect, late.step, late.rules, late.after_end, late.independent) == (
        "steps", "regular", ("104.2a",), True, True)
    assert late.as_dict()["after_end"] is True


def test_a_step_after_the_end_is_a_consequence_when_the_engine_never_ended_the_game():
    """The engine misses B's loss in the first-strike step and so plays on: the missing loss
    is the root, and the step after the end only its consequence."""
    def engine(scenario):
        result = evaluate(scenario)
        result["losses"], result["game_over"] = [], None
        result["steps"] = ["first strike", "regular"]
        return result

    first, late = outcomes(engine, first_strike_kill()).differences
    assert (first.aspect, first.item, late.after_end, late.independent) == (
        "losses", "B", True, False)


def test_poison_from_an_unpowered_toxic_creature_is_decided_by_510_1a_and_702_164c():
    """Issue 40, point 5: not by 120.3a/120.3b."""
    data = {"players": [{"id": "A"}, {"id": "B"}],
            "permanents": [{"id": "a1", "controller": "A", "power": 0, "toughness": 1,
                            "keywords": [{"toxic": 1}]}],
            "attacks": [{"attacker": "a1", "target": "B"}]}
    (difference,) = outcomes(make("toxic_unpowered"), data).differences
    assert difference.as_dict() == {
        "aspect": "life and poison", "step": None, "item": "B",
        "reference": {"life": 20, "poison": 0}, "engine": {"life": 20, "poison": 1},
        "rules": ["510.1a", "702.164c"]}
    data["players"][1]["poison"] = 9  # the engine's poison ends the game: still the poison
    (difference,) = outcomes(make("toxic_unpowered"), data).differences
    assert (difference.aspect, difference.step, difference.rules) == (
        "life and poison", "regular", ("510.1a", "702.164c"))


def test_a_death_as_the_game_ends_is_decided_by_704_3_when_the_end_is_the_fault():
    """A trampler kills b1 and B at once: an engine that spares the creatures of a player
    who loses is wrong by 704.3 (all at once), one that spares creatures dealt deathtouch
    damage as -1/-1 counters by 704.5h, the game ending or not."""
    data = {"players": [{"id": "A"}, {"id": "B", "life": 1}],
            "permanents": [{"id": "a1", "controller": "A", "power": 2, "toughness": 1,
                            "keywords": ["trample", "deathtouch", "wither"]},
                           {"id": "b1", "controller": "B", "power": 0, "toughness": 2}],
            "attacks": [{"attacker": "a1", "target": "B"}],
            "blocks": [{"blocker": "b1", "attackers": ["a1"]}]}
    (survivor,) = outcomes(make("survivors"), data).differences
    (countered,) = outcomes(make("deathtouch_counters"), data).differences
    assert (survivor.aspect, survivor.item, survivor.rules, survivor.note) == (
        AS_THE_GAME_ENDS, "b1", ("704.3",), "deaths")
    assert (countered.aspect, countered.item, countered.rules) == ("deaths", "b1", ("704.5h",))


@pytest.mark.parametrize(("engine", "detail"), [
    (lambda s: 1 / 0, "ZeroDivisionError"),
    (lambda s: [], "Malformed"),
    (lambda s: {"damage": "lots"}, "Malformed"),
    (lambda s: {"steps": ["third"]}, "Malformed"),
])
def test_an_engine_that_fails_is_reported_not_fatal(engine, detail):
    (difference,) = outcomes(engine, blocked_case()).differences
    assert (difference.aspect, difference.cause.detail, difference.rules) == (
        "engine error", detail, ())


def test_the_engine_cannot_change_the_scenario_the_reference_plays():
    def vandal(scenario):
        scenario["permanents"].clear()
        return evaluate(blocked_case())

    data = blocked_case()
    assert outcomes(vandal, data).differences == []
    assert data == blocked_case()


# --- shrinking ---------------------------------------------------------------------------

def test_shrinking_removes_what_the_failure_does_not_need():
    data = generated(0, 1)
    wanted = max(p["power"] for p in data["permanents"] if p["id"].startswith("a"))
    assert wanted >= 3

    def fails(candidate):  # some attacker has power 3 or more
        return any(p.get("power", 0) >= 3 for p in candidate["permanents"]
                   if any(a["attacker"] == p["id"] for a in candidate["attacks"]))

    smallest, tried = shrink(data, fails)
    assert canonical(smallest) == {"players": [{"id": "A"}, {"id": "B"}],
                                   "permanents": [{"id": "a1", "controller": "A", "power": 3,
                                                   "toughness": 1}],
                                   "attacks": [{"attacker": "a1", "target": "B"}],
                                   "blocks": []}
    assert 0 < tried <= 3000
    assert size(smallest) < size(data)


def test_canonical_names_follow_the_sides():
    data = {"players": [{"id": "A"}, {"id": "B"}],
            "permanents": [{"id": "x", "controller": "B", "power": 1, "toughness": 1},
                           {"id": "y", "controller": "A", "power": 1, "toughness": 1}],
            "attacks": [{"attacker": "y", "target": "B"}],
            "blocks": [{"blocker": "x", "attackers": ["y"]}],
            "assignments": [{"source": "y", "damage": {"x": 1}}]}
    renamed = canonical(data)
    assert [p["id"] for p in renamed["permanents"]] == ["b1", "a1"]
    assert renamed["blocks"] == [{"blocker": "b1", "attackers": ["a1"]}]
    assert renamed["assignments"] == [{"source": "a1", "damage": {"b1": 1}}]


# --- generating and exporting ------------------------------------------------------------

def test_scenarios_are_the_same_for_the_same_seed_and_index():
    assert generated(4, 17) == generated(4, 17)
    assert generated(4, 17) != generated(5, 17)


def test_export_writes_scenarios_outcomes_and_schemas(tmp_path):
    assert export(tmp_path, 12, seed=6) == 12
    validator = jsonschema.Draft202012Validator(
        json.loads((tmp_path / "outcome.schema.json").read_text()))
    for index in range(12):
        data = json.loads((tmp_path / "scenarios" / f"{index:05d}.json").read_text())
        assert data == generated(6, index)
        result = json.loads((tmp_path / "outcomes" / f"{index:05d}.json").read_text())
        assert result == evaluate(data)
        validator.validate(result)
    assert json.loads((tmp_path / "index.json").read_text())["scenarios"] == 12
