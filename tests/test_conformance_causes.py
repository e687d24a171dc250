"""One fault, one cause: the engine of conformance_engine.py with eight faults planted gives
exactly eight causes for three seeds, each shown by a smallest scenario that the engine
with that fault alone gets wrong and the faultless engine gets right.

The faults are chosen to defeat grouping by rule alone: `excess_lost` and
`blocker_excess_lost` break the same rule (510.1a), the second rare and hidden behind the
first when one case of a group is shrunk; `survivors` shows under several rules of 704.5
(and as the counters 704.5q leaves), `deathtouch_counters` under one of them (704.5h);
`toxic_unpowered` under several lists of rules and, when its poison ends the game, as a
loss; `plays_on` after the game is over."""

from __future__ import annotations

import pytest

from rulesdb.conformance.run import AS_THE_GAME_ENDS, check, outcomes

from conformance_engine import FAULTS, correct, make, planted

# Each planted fault, the cause it must come out as: aspect, rules, whose division.
KINDS = {
    "excess_lost": ("division", ["510.1a"], "attacker"),
    "blocker_excess_lost": ("division", ["510.1a"], "blocker"),
    "deathtouch_marked": ("division", ["702.19b", "702.2c"], "attacker"),
    "no_prevention": ("damage prevented", ["702.16e"], ""),
    "survivors": (AS_THE_GAME_ENDS, ["704.3"], ""),
    "deathtouch_counters": ("deaths", ["704.5h"], ""),
    "toxic_unpowered": ("life and poison", ["510.1a", "702.164c"], ""),
    "plays_on": ("steps", ["104.2a"], ""),
}
SEEDS = (0, 1, 2)


def kind(cause: dict) -> tuple:
    return (cause["aspect"], cause["rules"], cause["side"])


@pytest.fixture(scope="module", params=SEEDS, ids=[f"seed {s}" for s in SEEDS])
def report(request):
    return check(planted, 2000, seed=request.param)


def test_each_planted_fault_is_exactly_one_cause(report):
    assert sorted(kind(c) for c in report["causes"]) == sorted(KINDS.values())
    assert all(c["folded"] == [] for c in report["causes"])
    for cause in report["causes"]:  # the rules named are those deciding its smallest case
        assert cause["rules"] in [d["rules"] for d in cause["differences"]]
    assert report["disagreed"] == len({i for c in report["causes"] for i in c["cases"]})


@pytest.mark.parametrize("fault", FAULTS)
def test_each_cause_is_its_fault(report, fault):
    """The smallest scenario of the cause shows that fault alone: the engine with only it
    planted disagrees there for that cause, the faultless engine agrees."""
    (cause,) = [c for c in report["causes"] if kind(c) == KINDS[fault]]
    minimal = cause["smallest"]["scenario"]
    alone = outcomes(make(fault), minimal).differences
    assert [(d.aspect, list(d.rules)) for d in alone if not d.after_end or d.independent] == [
        KINDS[fault][:2]]
    assert outcomes(correct, minimal).differences == []
    assert cause["smallest"]["creatures"] <= 3


def test_a_rule_two_faults_break_is_split_by_whose_division_it_is(report):
    """Both divisions break 510.1a, first grouped together, then split."""
    attacker, blocker = (next(c for c in report["causes"] if kind(c) == KINDS[fault])
                         for fault in ("excess_lost", "blocker_excess_lost"))
    first = [{"aspect": "division", "rules": ["510.1a"], "detail": ""}]
    assert [{k: g[k] for k in ("aspect", "rules", "detail")} for g in attacker["groups"]] == first
    assert [{k: g[k] for k in ("aspect", "rules", "detail")} for g in blocker["groups"]] == first
    assert blocker["scenarios"] < attacker["scenarios"] / 10


def test_several_cases_of_a_group_are_shrunk(report):
    (cause,) = [c for c in report["causes"] if kind(c) == KINDS["excess_lost"]]
    assert len(cause["shrunk"]) >= 3
    assert cause["smallest"]["case"] in [s["case"] for s in cause["shrunk"]]


def test_groups_whose_smallest_cases_coincide_are_one_cause():
    """Poison from an unpowered toxic creature is first told by different lists of rules
    (other creatures with toxic or infect, a first-strike step, …): narrowed on shrinking,
    they come out as one cause."""
    report = check(make("toxic_unpowered"), 2000, seed=0)
    (cause,) = report["causes"]
    assert kind(cause) == KINDS["toxic_unpowered"]
    assert len(cause["groups"]) >= 2
    assert sum(g["scenarios"] for g in cause["groups"]) == cause["scenarios"]


@pytest.mark.parametrize("fault", FAULTS)
def test_one_fault_alone_is_one_cause(fault):
    report = check(make(fault), 2000, seed=3)
    assert [kind(c) for c in report["causes"]] == [KINDS[fault]]
