"""An engine's own divisions of combat damage are its choices: a legal one is replayed by
the reference and agrees, an illegal one is a disagreement decided by the rule it breaks
(checked with the other divisions of its step), and the rest of the outcome is compared
against the replay."""

from __future__ import annotations

import json
import random

import pytest

from rulesdb.conformance.choices import divisions
from rulesdb.conformance.run import AS_THE_GAME_ENDS, check, outcomes
from rulesdb.engine.fields import ScenarioError
from rulesdb.engine.outcome import evaluate

from conformance_engine import make, own_choices


def test_an_engine_choosing_its_own_legal_divisions_agrees_on_every_scenario():
    report = check(own_choices, 2000, seed=0)
    assert (report["compared"], report["agreed"], report["causes"]) == (2000, 2000, [])
    assert report["replayed"] >= 200  # its divisions do differ from the scenarios' policy


def first_takes_all(scenario: dict) -> dict:
    """The reference dividing damage by the other policy: all to the first blocker."""
    policy = {"attackers": "first_takes_all", "blockers": "first_takes_all"}
    return evaluate({**scenario, "damage_assignment": policy})


def random_legal(seed: int):
    """An engine making random divisions, kept when the rules allow them."""
    rng = random.Random(seed)

    def engine(scenario: dict) -> dict:
        attacks = scenario["attacks"]
        power = {p["id"]: p["power"] + p.get("counters", {}).get("+1/+1", 0)
                 - p.get("counters", {}).get("-1/-1", 0) for p in scenario["permanents"]
                 if "power" in p}
        chosen = []
        for attack in attacks:
            blockers = [b["blocker"] for b in scenario.get("blocks", [])
                        if attack["attacker"] in b["attackers"]]
            targets = [*blockers, attack["target"]]
            division: dict[str, int] = {}
            for _ in range(max(0, power[attack["attacker"]])):
                target = rng.choice(targets)
                division[target] = division.get(target, 0) + 1
            chosen.append({"source": attack["attacker"], "step": "regular",
                           "damage": division})
        try:
            return evaluate({**scenario, "assignments": chosen})
        except ScenarioError:  # an illegal division, or one for a step it doesn't deal in
            return evaluate(scenario)

    return engine


@pytest.mark.parametrize("engine", [first_takes_all, random_legal(7)],
                         ids=["first takes all", "random legal divisions"])
def test_other_legal_divisions_agree(engine):
    report = check(engine, 1000, seed=4)
    assert (report["agreed"], report["causes"]) == (1000, [])
    assert report["replayed"] >= 50  # its divisions do differ from the scenarios' policy


def test_faults_are_still_found_in_an_engine_making_its_own_choices():
    report = check(make("no_prevention", "survivors", divide="own"), 2000, seed=0)
    assert sorted((c["aspect"], c["rules"]) for c in report["causes"]) == [
        ("damage prevented", ["702.16e"]), (AS_THE_GAME_ENDS, ["704.3"])]


def scenario(*permanents: dict, blocks=(), attacks=None, life=20) -> dict:
    return {"players": [{"id": "A"}, {"id": "B", "life": life}],
            "permanents": list(permanents),
            "attacks": attacks or [{"attacker": p["id"], "target": "B"}
                                   for p in permanents if p["controller"] == "A"
                                   and "types" not in p],
            "blocks": [{"blocker": b, "attackers": a} for b, a in blocks]}


def creature(name: str, power: int, toughness: int, *keywords, side: str = "A", **more):
    found = {"id": name, "controller": side, "power": power, "toughness": toughness, **more}
    if keywords:
        found["keywords"] = list(keywords)
    return found


WALKER = {"id": "pw", "controller": "B", "types": ["planeswalker"], "counters": {"loyalty": 3}}

# (scenario, the engine's damage records in the regular step, source, rules, message)
ILLEGAL = [
    (scenario(creature("a1", 2, 2)), [("a1", "B", 3)], "a1", ["510.1a"],
     "a1 must assign exactly 2 damage"),
    (scenario(creature("a1", 2, 2), creature("b1", 0, 2, side="B")), [("a1", "b1", 2)],
     "a1", ["510.1b"], "a1 can't assign damage to b1"),
    (scenario(creature("a1", 2, 2), creature("b1", 0, 2, side="B"),
              blocks=[("b1", ["a1"])]), [("a1", "B", 2)], "a1", ["510.1c"],
     "a1 can't assign damage to B"),
    (scenario(creature("a1", 3, 3, "trample"), creature("b1", 0, 2, side="B"),
              blocks=[("b1", ["a1"])]), [("a1", "b1", 1), ("a1", "B", 2)], "a1",
     ["702.19b"], "a1 must assign lethal damage to b1 first"),
    (scenario(creature("a1", 1, 1, "trample", "deathtouch"),
              creature("b1", 0, 2, side="B", damage=1), blocks=[("b1", ["a1"])]),
     [("a1", "B", 1)], "a1", ["702.19b", "702.2c"], "a1 must assign lethal damage to b1 first"),
    (scenario(creature("a1", 4, 4, "trample over planeswalkers"), WALKER,
              attacks=[{"attacker": "a1", "target": "pw"}]), [("a1", "pw", 1), ("a1", "B", 3)],
     "a1", ["702.19c"], "a1 must assign damage equal to pw's loyalty first"),
    (scenario(creature("a1", 1, 3), creature("a2", 1, 3), creature("b1", 2, 2, side="B")
              | {"keywords": [{"can block additional creatures": 1}]},
              blocks=[("b1", ["a1"])]), [("a1", "b1", 1), ("a2", "B", 1), ("b1", "a2", 2)],
     "b1", ["510.1d"], "b1 can't assign damage to a2"),
]


@pytest.mark.parametrize(("data", "records", "source", "rules", "note"), ILLEGAL,
                         ids=[case[3][0] + f" #{i}" for i, case in enumerate(ILLEGAL)])
def test_an_illegal_division_is_decided_by_the_rule_it_breaks(data, records, source, rules,
                                                               note):
    def engine(scenario):
        return {"damage": [{"step": "regular", "source": s, "target": t, "amount": n}
                           for s, t, n in records]}

    (difference,) = outcomes(engine, data).differences
    assert (difference.aspect, difference.item, list(difference.rules), difference.note) == (
        "division", source, rules, note)


def test_lethal_damage_counts_what_the_other_attackers_assign():
    """702.19b example 1 (two attackers share lethal damage to one blocker): the trampler's
    1 to the wall is lethal only with the other attacker's 1, and legal; given without it
    (the other attacker assigns its damage to the other blocker), it is not."""
    data = scenario(creature("small", 1, 1), creature("tr", 3, 3, "trample"),
                    creature("wall", 0, 2, side="B"), creature("post", 0, 4, side="B"),
                    blocks=[("wall", ["small", "tr"]), ("post", ["small"])])
    data["permanents"][2]["keywords"] = [{"can block additional creatures": 1}]
    shared = [("small", "wall", 1), ("tr", "wall", 1), ("tr", "B", 2)]
    apart = [("small", "post", 1), ("tr", "wall", 1), ("tr", "B", 2)]

    def engine(records):
        return lambda s: {"damage": [{"step": "regular", "source": a, "target": t,
                                      "amount": n} for a, t, n in records]}

    assert outcomes(engine(shared), data).differences == []
    (difference,) = outcomes(engine(apart), data).differences
    assert (difference.item, difference.rules) == ("tr", ("702.19b",))


def test_the_rest_of_the_outcome_is_compared_against_the_replay():
    """The trampler's excess onto its blocker is a legal choice: the reference replays it,
    and the engine's life for B, as if the excess had gone to B, is what differs."""
    data = scenario(creature("a1", 4, 4, "trample"), creature("b1", 0, 2, side="B"),
                    blocks=[("b1", ["a1"])])

    def engine(s):
        result = evaluate(s)
        result["damage"] = [{"step": "regular", "source": "a1", "target": "b1", "amount": 4,
                             "prevented": 0}]
        return result

    found = outcomes(engine, data)
    assert found.replayed and found.own == evaluate(data)
    assert found.reference["players"]["B"]["life"] == 20
    (difference,) = found.differences
    assert (difference.aspect, difference.item, difference.rules) == (
        "life and poison", "B", ("120.3a",))


def test_divisions_add_up_records_and_refuse_a_wrong_shape():
    outcome = {"damage": [{"step": "regular", "source": "a1", "target": "b1", "amount": 1},
                          {"step": "regular", "source": "a1", "target": "b1", "amount": 2},
                          {"step": "first strike", "source": "a1", "target": "B", "amount": 0}]}
    assert divisions(outcome) == {("regular", "a1"): {"b1": 3}}
    assert divisions({"deaths": []}) is None
    for bad in ({"damage": [{"step": "third", "source": "a1", "target": "b1", "amount": 1}]},
                {"damage": [{"step": "regular", "source": "a1", "target": "b1",
                             "amount": -1}]}):
        (difference,) = outcomes(lambda s, bad=bad: json.loads(json.dumps(bad)),
                                 scenario(creature("a1", 1, 1))).differences
        assert difference.cause.detail == "Malformed"


def test_what_follows_an_illegal_division_is_compared_with_the_engines_own_damage():
    """An illegal division is played as given when its damage goes to players and
    permanents there, so a fault after it is not hidden: here a1 loses its excess damage
    (510.1a) and b1, dying as B loses, is spared (704.3)."""
    data = scenario(creature("a1", 2, 1), creature("a2", 1, 1),
                    creature("b1", 0, 1, side="B"), blocks=[("b1", ["a1"])], life=1)
    division, death = outcomes(make("excess_lost", "survivors"), data).differences
    assert (division.aspect, division.item, division.rules) == ("division", "a1", ("510.1a",))
    assert (death.aspect, death.item, death.rules) == (AS_THE_GAME_ENDS, "b1", ("704.3",))
    (alone,) = outcomes(make("excess_lost"), data).differences
    assert alone == division


def test_an_illegal_division_to_what_is_not_there_stops_the_play():
    data = scenario(creature("a1", 2, 2), creature("b1", 0, 2, side="B"),
                    blocks=[("b1", ["a1"])])
    found = outcomes(lambda s: {"damage": [{"step": "regular", "source": "a1",
                                            "target": "nobody", "amount": 2}],
                                "players": {"A": {"life": 20}, "B": {"life": 20}}}, data)
    (difference,) = found.differences
    assert (difference.aspect, difference.rules) == ("division", ("510.1c",))
    assert found.reference["steps"] == []
