"""The reference evaluator's combat damage (702.2, 702.4, 702.7, 702.15, 702.16, 702.19,
702.80, 702.90): the CR's own examples as scenarios and invariants of damage totals.

Each scenario names the rule (and example) of cr-2025-06-06-chapter7 chapter 7 it encodes.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesdb.engine import combat, division
from rulesdb.engine.division import Assignment, IllegalAssignment, Pending
from rulesdb.engine.model import Attack, Permanent, Player
from rulesdb.engine.policies import blocker_lethal_in_order, lethal_in_order

from engine_helpers import creature, game

# --- combat damage: 702.2, 702.4, 702.7, 702.15, 702.16, 702.19, 702.80, 702.90 --------

def total(assignments, source=None, target=None) -> int:
    return sum(a.amount for a in assignments
               if source in (None, a.source) and target in (None, a.target))


def test_702_19b_example_1_two_attackers_share_lethal_damage_to_one_blocker():
    """702.19b example 1: a 2/2 blocks a 1/1 and a 3/3 trampler; 1 + 1 is lethal, 2 go over."""
    state = game(creature("small", 1, 1), creature("tr", 3, 3, keywords={"trample"}),
                 creature("wall", 2, 2, owner="B"))
    attacks = [Attack("small", "B", ("wall",)), Attack("tr", "B", ("wall",))]
    after, [step] = combat.resolve_combat(state, attacks)
    assert (total(step.assigned, "tr", "wall"), total(step.assigned, "tr", "B")) == (1, 2)
    assert after.player("B").life == 18
    assert after.permanent("wall") is None


def test_702_19b_example_2_lethal_to_a_protected_blocker_counts_though_prevented():
    """702.19b example 2: a 6/6 green trampler must assign 2 to a 2/2 with protection from green."""
    state = game(creature("g", 6, 6, keywords={"trample"}, colors={"green"}),
                 creature("pro", 2, 2, owner="B", protection={"green"}))
    attack = Attack("g", "B", ("pro",))
    with pytest.raises(IllegalAssignment, match="lethal"):
        division.check_assignment(state, attack, [Assignment("g", "pro", 1),
                                                Assignment("g", "B", 5)], Pending())
    division.check_assignment(state, attack, [Assignment("g", "pro", 3),
                                            Assignment("g", "B", 3)], Pending())
    after, [step] = combat.resolve_combat(state, [attack])
    assert step.prevented == (Assignment("g", "pro", 2),)  # 702.16e
    assert after.player("B").life == 16
    assert after.permanent("pro").damage == 0


def test_702_19c_example_trample_over_planeswalkers():
    """702.19c example: 1 from a 1/1 and 2 from a 7/7 to a 3-loyalty planeswalker, 5 to its
    controller."""
    walker = Permanent("pw", "Walker", "B", types=frozenset({"planeswalker"}),
                       counters={"loyalty": 3})
    state = game(creature("one", 1, 1), creature("big", 7, 7,
                                                 keywords={"trample over planeswalkers"}),
                 walker)
    attacks = [Attack("one", "pw"), Attack("big", "pw")]
    proposed = [Assignment("big", "pw", 2), Assignment("big", "B", 5)]
    division.check_assignment(state, attacks[1], proposed, Pending({"pw": 1}))
    with pytest.raises(IllegalAssignment, match="loyalty"):
        division.check_assignment(state, Attack("big", "pw", (), blocked=True),
                                [Assignment("big", "pw", 1), Assignment("big", "B", 6)], Pending())
    after, [step] = combat.resolve_combat(state, attacks)
    assert (total(step.assigned, "big", "pw"), total(step.assigned, "big", "B")) == (2, 5)
    assert after.player("B").life == 15
    assert after.permanent("pw") is None  # 704.5i


def test_702_19f_without_trample_over_planeswalkers_nothing_reaches_the_player():
    walker = Permanent("pw", "Walker", "B", types=frozenset({"planeswalker"}),
                       counters={"loyalty": 1})
    state = game(creature("tr", 5, 5, keywords={"trample"}), walker)
    with pytest.raises(IllegalAssignment):
        division.check_assignment(state, Attack("tr", "pw", (), blocked=True),
                                [Assignment("tr", "pw", 1), Assignment("tr", "B", 4)], Pending())


@pytest.mark.parametrize(("keywords", "life"), [({"trample"}, 17), (set(), 20)])
def test_702_19d_blocked_with_no_blockers_left(keywords, life):
    state = game(creature("a", 3, 3, keywords=keywords))
    after, _ = combat.resolve_combat(state, [Attack("a", "B", (), blocked=True)])
    assert after.player("B").life == life


def test_702_2c_and_702_19b_deathtouch_trample_needs_only_1_per_blocker():
    state = game(creature("dt", 5, 5, keywords={"deathtouch", "trample"}),
                 creature("big", 4, 4, owner="B"))
    after, [step] = combat.resolve_combat(state, [Attack("dt", "B", ("big",))])
    assert (total(step.assigned, "dt", "big"), total(step.assigned, "dt", "B")) == (1, 4)
    assert after.permanent("big") is None  # 704.5h via 702.2b
    assert [e.rules for e in step.events[0] if e.object == "big"] == [("704.5h",)]


def test_702_7b_first_strike_kills_the_blocker_before_it_deals_damage():
    state = game(creature("fs", 2, 2, keywords={"first strike"}), creature("b", 2, 2, owner="B"))
    after, steps = combat.resolve_combat(state, [Attack("fs", "B", ("b",))])
    assert [s.step for s in steps] == ["first strike", "regular"]
    assert total(steps[1].assigned) == 0
    assert after.permanent("fs").damage == 0 and after.permanent("b") is None


def test_702_4b_double_strike_deals_damage_in_both_steps():
    state = game(creature("ds", 2, 2, keywords={"double strike", "lifelink"}))
    after, steps = combat.resolve_combat(state, [Attack("ds", "B")])
    assert [total(s.dealt) for s in steps] == [2, 2]
    assert (after.player("B").life, after.player("A").life) == (16, 24)


def test_702_7c_702_4c_702_4d_who_deals_damage_in_the_second_step():
    plain, fs = creature("p", 1, 1), creature("f", 1, 1, keywords={"first strike"})
    state = game(plain, fs)
    attacks = [Attack("p", "B"), Attack("f", "B")]
    strikers = frozenset(combat.dealers(state, attacks, "first"))
    assert strikers == {"f"}
    gained_fs = game(replace(plain, keywords=frozenset({"first strike"})), fs)
    assert combat.dealers(gained_fs, attacks, "second", strikers) == {"p"}  # 702.7c
    gained_ds = game(plain, replace(fs, keywords=frozenset({"double strike"})))
    assert combat.dealers(gained_ds, attacks, "second", strikers) == {"p", "f"}  # 702.4d
    ds_state = game(creature("d", 1, 1, keywords={"double strike"}))
    ds_strikers = frozenset({"d"})
    removed = game(creature("d", 1, 1))
    assert combat.dealers(removed, [Attack("d", "B")], "second", ds_strikers) == set()  # 702.4c
    assert combat.dealers(ds_state, [Attack("d", "B")], "second", ds_strikers) == {"d"}


def test_702_15e_example_two_lifelink_sources_are_two_life_gain_events():
    """702.15e example: two lifelinkers dealing combat damage at once gain life separately
    (Ajani's Pridemate would trigger twice)."""
    state = game(creature("l1", 2, 2, keywords={"lifelink"}),
                 creature("l2", 3, 3, keywords={"lifelink"}))
    after, [step] = combat.resolve_combat(state, [Attack("l1", "B"), Attack("l2", "B")])
    assert step.life_gained == (("A", 2, "l1"), ("A", 3, "l2"))
    assert after.player("A").life == 25


def test_702_15b_lifelink_gains_only_damage_actually_dealt():
    state = game(creature("l", 3, 3, keywords={"lifelink"}, colors={"white"}),
                 creature("pro", 1, 4, owner="B", protection={"white"}))
    after, [step] = combat.resolve_combat(state, [Attack("l", "B", ("pro",))])
    assert after.player("A").life == 20 and step.life_gained == ()


def test_702_90b_infect_gives_poison_counters_instead_of_life_loss():
    state = game(creature("inf", 4, 4, keywords={"infect"}), players=("A", "B"))
    state = replace(state, players=(Player("A"), Player("B", poison=6)))
    after, [step] = combat.resolve_combat(state, [Attack("inf", "B")])
    assert (after.player("B").life, after.player("B").poison, after.player("B").lost) == (
        20, 10, True)  # 704.5c
    assert [e.rules for e in step.events[0]] == [("704.5c",)]


@pytest.mark.parametrize("keyword", ["infect", "wither"])
def test_702_90c_and_702_80a_damage_to_creatures_becomes_minus_counters(keyword):
    state = game(creature("w", 2, 2, keywords={keyword}), creature("b", 1, 3, owner="B"))
    after, _ = combat.resolve_combat(state, [Attack("w", "B", ("b",))])
    blocker = after.permanent("b")
    assert (blocker.damage, blocker.count("-1/-1"), blocker.current_toughness) == (0, 2, 1)


def test_702_12b_indestructible_blocker_survives_lethal_combat_damage():
    state = game(creature("a", 5, 5), creature("ind", 1, 1, owner="B",
                                                keywords={"indestructible"}))
    after, _ = combat.resolve_combat(state, [Attack("a", "B", ("ind",))])
    assert after.permanent("ind").damage == 5


# --- properties -------------------------------------------------------------------------

KEYWORDS = ["deathtouch", "trample", "lifelink", "infect", "wither", "indestructible",
            "first strike", "double strike"]


@st.composite
def battles(draw):
    attackers, blockers = [], []
    for i in range(draw(st.integers(1, 4))):
        attackers.append(creature(
            f"a{i}", draw(st.integers(0, 6)), draw(st.integers(1, 6)),
            keywords=draw(st.sets(st.sampled_from(KEYWORDS), max_size=3)),
            colors=draw(st.sets(st.sampled_from(["green", "red"]), max_size=1))))
    for i in range(draw(st.integers(0, 4))):
        blockers.append(creature(
            f"b{i}", draw(st.integers(0, 6)), draw(st.integers(1, 6)), owner="B",
            keywords=draw(st.sets(st.sampled_from(KEYWORDS), max_size=3)),
            protection=draw(st.sets(st.sampled_from(["green", "red"]), max_size=1))))
    attacks = []
    for a in attackers:
        mine = tuple(b.id for b in blockers if draw(st.booleans()))
        attacks.append(Attack(a.id, "B", mine))
    return game(*attackers, *blockers), attacks


@settings(max_examples=150, deadline=None)
@given(battles())
def test_combat_damage_totals_are_conserved(case):
    state, attacks = case
    _, steps = combat.resolve_combat(state, attacks)
    for step in steps:
        assert total(step.dealt) + total(step.prevented) == total(step.assigned)
        for attack in attacks:
            attacker = state.permanent(attack.attacker)
            dealt_by_it = total(step.assigned, attack.attacker)
            assert dealt_by_it <= max(0, attacker.current_power)


@settings(max_examples=150, deadline=None)
@given(battles())
def test_each_attacker_assigns_exactly_its_power_when_it_deals_damage(case):
    state, attacks = case
    strikers = frozenset(combat.dealers(state, attacks, "first"))
    step = "first" if strikers else "only"
    active = combat.dealers(state, attacks, step, strikers)
    assigned = combat.assign_step(state, attacks, active, "regular", lethal_in_order,
                                  blocker_lethal_in_order)
    for attack in attacks:
        attacker = state.permanent(attack.attacker)
        if attacker.id in active and (attack.blockers or not attack.is_blocked):
            assert total(assigned, attacker.id) == attacker.current_power
