"""The conformance harness: the reference and a second, independent engine agree; three
faults planted in that engine are each found as their own cause with a two-creature
scenario; the comparison, the shrinker and the export."""

from __future__ import annotations

import json

import jsonschema
import pytest

from rulesdb.engine.compare import compare
from rulesdb.engine.conformance import check, export, outcomes
from rulesdb.engine.generate import scenario as generated
from rulesdb.engine.outcome import evaluate, outcome, run
from rulesdb.engine.scenario import load
from rulesdb.engine.shrink import canonical, shrink, size

from conformance_engine import FAULTS, correct, make, planted

# Each planted fault, the cause it must be reported under.
CAUSES = {
    "excess_lost": {"aspect": "damage assigned", "rules": ["510.1c"]},
    "deathtouch_marked": {"aspect": "damage assigned", "rules": ["702.19b", "702.2c"]},
    "no_prevention": {"aspect": "damage prevented", "rules": ["702.16e"]},
}


def test_the_reference_agrees_with_itself():
    report = check(evaluate, 1000, seed=1)
    assert (report["agreed"], report["groups"]) == (1000, [])


def test_an_engine_written_from_the_formats_agrees_with_the_reference():
    report = check(correct, 1000, seed=2)
    assert (report["agreed"], report["groups"]) == (1000, [])


@pytest.fixture(scope="module")
def planted_report():
    return check(planted, 2000, seed=0)


def test_three_planted_faults_are_three_causes(planted_report):
    assert sorted(json.dumps(g["cause"]) for g in planted_report["groups"]) == sorted(
        json.dumps(cause) for cause in CAUSES.values())
    assert all(g["folded"] == [] for g in planted_report["groups"])
    assert planted_report["agreed"] < 2000


@pytest.mark.parametrize("fault", FAULTS)
def test_each_fault_has_a_smallest_scenario_of_at_most_two_creatures(planted_report, fault):
    (group,) = [g for g in planted_report["groups"] if g["cause"] == CAUSES[fault]]
    minimal = group["minimal"]
    assert group["creatures"] <= 2
    assert len(minimal["permanents"]) <= 2
    # the scenario shows this fault alone: the engine with only it planted disagrees for
    # that cause, the engine without faults agrees
    _, _, differences = outcomes(make(fault), minimal)
    assert [d.cause for d in differences] == [(CAUSES[fault]["aspect"],
                                               tuple(CAUSES[fault]["rules"]))]
    assert outcomes(correct, minimal)[2] == []


@pytest.mark.parametrize("fault", FAULTS)
def test_one_fault_alone_is_one_group(fault):
    report = check(make(fault), 1000, seed=3)
    assert [g["cause"] for g in report["groups"]] == [CAUSES[fault]]


def test_the_report_carries_both_outcomes_and_the_differences(planted_report):
    group = planted_report["groups"][0]
    assert group["reference"] == evaluate(group["minimal"])
    assert group["engine"] == planted(group["minimal"])
    assert group["differences"] and all(d["rules"] == group["cause"]["rules"]
                                        for d in group["differences"])


# --- comparing ---------------------------------------------------------------------------

def planted_case() -> dict:
    return {"players": [{"id": "A"}, {"id": "B"}],
            "permanents": [{"id": "a1", "controller": "A", "power": 2, "toughness": 1},
                           {"id": "b1", "controller": "B", "power": 0, "toughness": 1}],
            "attacks": [{"attacker": "a1", "target": "B"}],
            "blocks": [{"blocker": "b1", "attackers": ["a1"]}]}


def test_only_the_fields_an_engine_returns_are_compared():
    data = planted_case()
    evaluation = run(load(data))
    reference = outcome(evaluation)
    partial = {"deaths": reference["deaths"], "players": reference["players"]}
    assert compare(evaluation, reference, partial) == []
    wrong = {**partial, "players": {"A": {"life": 20}, "B": {"life": 19}}}
    (difference,) = compare(evaluation, reference, wrong)
    assert (difference.aspect, difference.item, difference.rules) == (
        "life and poison", "B", ("120.3a",))


def test_a_downstream_difference_is_not_a_root():
    """The engine loses a point of damage: deaths and life agree here, but the damage
    assigned differs, and that alone is reported (its consequences are not)."""
    data = planted_case()
    (difference,) = outcomes(planted, data)[2]
    assert difference.as_dict() == {"aspect": "damage assigned", "step": "regular",
                                    "item": "a1", "reference": {"b1": 2},
                                    "engine": {"b1": 1}, "rules": ["510.1c"]}


def test_an_engine_dealing_damage_in_the_wrong_step_is_told_why_not():
    data = {"players": [{"id": "A"}, {"id": "B"}],
            "permanents": [{"id": "a1", "controller": "A", "power": 2, "toughness": 2,
                            "keywords": ["first strike"]}],
            "attacks": [{"attacker": "a1", "target": "B"}]}

    def twice(scenario):  # a first striker dealing damage in the regular step as well
        result = evaluate(scenario)
        result["damage"].append({**result["damage"][0], "step": "regular"})
        return result

    (difference,) = outcomes(twice, data)[2]
    assert difference.cause == ("damage assigned", ("510.4", "702.7b", "702.4b"))
    (difference,) = outcomes(lambda s: {**evaluate(s), "steps": ["regular"]}, data)[2]
    assert difference.cause == ("steps", ("510.4",))
    del data["permanents"][0]["keywords"]
    (difference,) = outcomes(lambda s: {"damage": [], "steps": ["regular"]}, data)[2]
    assert difference.cause == ("damage assigned", ("510.1b",))


@pytest.mark.parametrize(("engine", "cause"), [
    (lambda s: 1 / 0, ("engine error", ("ZeroDivisionError",))),
    (lambda s: [], ("engine error", ("outcome shape",))),
    (lambda s: {"damage": "lots"}, ("engine error", ("outcome shape",))),
])
def test_an_engine_that_fails_is_reported_not_fatal(engine, cause):
    (difference,) = outcomes(engine, planted_case())[2]
    assert difference.cause == cause


def test_the_engine_cannot_change_the_scenario_the_reference_plays():
    def vandal(scenario):
        scenario["permanents"].clear()
        return evaluate(planted_case())

    data = planted_case()
    assert outcomes(vandal, data)[2] == []
    assert data == planted_case()


# --- shrinking ---------------------------------------------------------------------------

def test_shrinking_removes_what_the_failure_does_not_need():
    data = generated(0, 1)
    wanted = max(p["power"] for p in data["permanents"] if p["id"].startswith("a"))
    assert wanted >= 3

    def fails(candidate):  # some attacker has power 3 or more
        return any(p.get("power", 0) >= 3 for p in candidate["permanents"]
                   if any(a["attacker"] == p["id"] for a in candidate["attacks"]))

    smallest, tried = shrink(data, fails)
    assert smallest == {"players": [{"id": "A"}, {"id": "B"}],
                        "permanents": [{"id": "a1", "controller": "A", "power": 3,
                                        "toughness": 1}],
                        "attacks": [{"attacker": "a1", "target": "B"}], "blocks": []}
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
