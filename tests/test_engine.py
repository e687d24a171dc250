"""The reference evaluator: the CR's own examples as scenarios, rule by rule, and invariants.

Each scenario names the rule (and example) of cr-2025-06-06 chapter 7 it encodes.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesdb.engine import combat, sba
from rulesdb.engine.combat import Assignment, Attack, IllegalAssignment
from rulesdb.engine.model import Card, GameState, Permanent, Player
from rulesdb.engine.registry import EDITION, NOT_MODELLED, registry

from conftest import SOURCE_FILES


def creature(pid, power, toughness, owner="A", **kw) -> Permanent:
    if "keywords" in kw:
        kw["keywords"] = frozenset(kw["keywords"])
    for key in ("colors", "protection", "supertypes", "subtypes", "types"):
        if key in kw:
            kw[key] = frozenset(kw[key])
    return Permanent(pid, kw.pop("name", pid), owner, power=power, toughness=toughness, **kw)


def game(*permanents, players=("A", "B"), cards=()) -> GameState:
    return GameState(tuple(Player(p) for p in players), tuple(permanents), tuple(cards))


def rules_of(events) -> list[tuple[str, str, tuple[str, ...]]]:
    return sorted((e.kind, e.object, e.rules) for e in events)


# --- registry ---------------------------------------------------------------------------

def cr_numbers() -> set[str]:
    text = SOURCE_FILES[EDITION].read_text(encoding="utf-8")
    return set(re.findall(r"^(\d{3}\.\d+[a-z]?)\.? ", text, re.M))


def test_every_enforces_id_resolves_in_cr_2025_06_06():
    numbers = cr_numbers()
    missing = sorted({e.rule for e in registry()} - numbers)
    assert missing == []


def test_every_rule_of_704_5_is_enforced_or_listed_as_not_modelled():
    subrules = {n for n in cr_numbers() if re.fullmatch(r"704\.5[a-z]", n)}
    enforced = {e.rule for e in registry()}
    assert len(subrules) == 24
    assert subrules - enforced - set(NOT_MODELLED) == set()
    assert set(NOT_MODELLED) & enforced == set()
    assert all(NOT_MODELLED.values())


# --- 704.5: state-based actions, one scenario per rule ---------------------------------

@pytest.mark.parametrize(("rule", "player", "lost"), [
    ("704.5a", Player("A", life=0), True),
    ("704.5a", Player("A", life=-3), True),
    ("704.5a", Player("A", life=1), False),
    ("704.5b", Player("A", drew_from_empty_library=True), True),
    ("704.5c", Player("A", poison=10), True),
    ("704.5c", Player("A", poison=9), False),
])
def test_704_5abc_players_lose(rule, player, lost):
    state = GameState((player, Player("B")))
    after, rounds = sba.perform(state)
    assert after.player("A").lost is lost
    assert (rules_of(rounds[0]) if rounds else []) == ([("lose", "A", (rule,))] if lost else [])


def test_704_7_example_lichs_mirror_one_loss_for_704_5a_and_704_5b():
    """704.7 example: 704.5a and 704.5b at once are a single game loss (one event)."""
    state = GameState((Player("A", life=-1, drew_from_empty_library=True), Player("B")))
    _, events = sba.check(state)
    assert rules_of(events) == [("lose", "A", ("704.5a", "704.5b"))]


def test_704_5d_token_off_the_battlefield_ceases_to_exist():
    token = creature("t", 1, 0, token=True)
    after, rounds = sba.perform(game(token))
    assert [rules_of(r) for r in rounds] == [[("graveyard", "t", ("704.5f",))],
                                             [("cease", "t", ("704.5d",))]]
    assert after.cards == ()


def test_704_5e_copies_outside_their_zone_cease_to_exist():
    cards = (Card("s", "Copy", "A", "graveyard", copy_of_spell=True),
             Card("c", "Card copy", "A", "exile", copy_of_card=True),
             Card("k", "Spell copy", "A", "stack", copy_of_spell=True))
    after, _ = sba.perform(game(cards=cards))
    assert [c.id for c in after.cards] == ["k"]


@pytest.mark.parametrize(("permanent", "rule", "kind"), [
    (creature("c", 2, 0), "704.5f", "graveyard"),
    (creature("c", 2, 3).with_counters(minus1=3), "704.5f", "graveyard"),
    (replace(creature("c", 2, 3), damage=3), "704.5g", "destroy"),
    (replace(creature("c", 2, 3), deathtouch_damage=True), "704.5h", "destroy"),
])
def test_704_5fgh_creatures_die(permanent, rule, kind):
    _, events = sba.check(game(permanent))
    assert [(e.kind, e.rules) for e in events] == [("graveyard", (rule,))]


@pytest.mark.parametrize("damage", [{"damage": 5}, {"deathtouch_damage": True}])
def test_702_12b_indestructible_ignores_lethal_and_deathtouch_damage(damage):
    tough = replace(creature("c", 2, 3, keywords={"indestructible"}), **damage)
    assert sba.check(game(tough))[1] == []


def test_702_12b_indestructible_still_dies_to_toughness_0_by_704_5f():
    weak = creature("c", 2, 1, keywords={"indestructible"}).with_counters(minus1=1)
    assert [e.rules for e in sba.check(game(weak))[1]] == [("704.5f",)]


def test_704_4_example_maro_survives_with_toughness_back_to_7():
    """704.4 example: only the state when SBAs are checked matters (Maro back at toughness 7)."""
    maro = creature("maro", 7, 7, name="Maro")
    assert sba.check(game(maro))[1] == []


def test_704_5i_planeswalker_with_0_loyalty():
    walker = Permanent("pw", "Walker", "A", types=frozenset({"planeswalker"}),
                       counters={"loyalty": 0})
    assert rules_of(sba.check(game(walker))[1]) == [("graveyard", "pw", ("704.5i",))]


def test_704_5j_legend_rule_controller_keeps_one():
    old = Permanent("l1", "Isamaru", "A", supertypes=frozenset({"legendary"}), power=2,
                    toughness=1, timestamp=1)
    new = replace(old, id="l2", timestamp=2)
    theirs = replace(old, id="l3", owner="B", controller="B")
    _, events = sba.check(game(old, new, theirs))
    assert rules_of(events) == [("graveyard", "l1", ("704.5j",))]
    _, events = sba.check(game(old, new), choose=lambda _p, c: c[0])
    assert rules_of(events) == [("graveyard", "l2", ("704.5j",))]


@pytest.mark.parametrize(("stamps", "gone"), [((1, 2, 3), ["w1", "w2"]),
                                              ((1, 3, 3), ["w1", "w2", "w3"])])
def test_704_5k_world_rule_newest_stays_tie_all_go(stamps, gone):
    worlds = [Permanent(f"w{i + 1}", f"World {i}", "A", types=frozenset({"enchantment"}),
                        supertypes=frozenset({"world"}), world_timestamp=s)
              for i, s in enumerate(stamps)]
    _, events = sba.check(game(*worlds))
    assert sorted(e.object for e in events) == gone


def aura(target, **kw) -> Permanent:
    return Permanent("aura", "Pacifism", "A", types=frozenset({"enchantment"}),
                     subtypes=frozenset({"Aura"}), attached_to=target,
                     enchant=kw.pop("enchant", "creature"), colors=frozenset({"white"}), **kw)


@pytest.mark.parametrize(("target", "ok"), [
    (creature("c", 1, 1), True),
    (creature("c", 1, 1, protection={"white"}), False),  # 702.16c
    (Permanent("c", "Land", "B", types=frozenset({"land"})), False),
    (None, False),
])
def test_704_5m_aura_attached_illegally_or_to_nothing(target, ok):
    state = game(*([target] if target else []), aura("c" if target else None))
    events = sba.check(state)[1]
    assert (events == []) is ok
    if not ok:
        assert rules_of(events) == [("graveyard", "aura", ("704.5m",))]


def test_704_5n_equipment_on_a_noncreature_or_protected_creature_becomes_unattached():
    sword = Permanent("eq", "Sword", "A", types=frozenset({"artifact"}),
                      subtypes=frozenset({"Equipment"}), attached_to="land",
                      colors=frozenset({"black"}))
    land = Permanent("land", "Forest", "A", types=frozenset({"land"}))
    after, events = sba.check(game(sword, land))
    assert rules_of(events) == [("unattach", "eq", ("704.5n",))]
    assert after.permanent("eq").attached_to is None
    pro_black = creature("c", 1, 1, protection={"black"})
    assert rules_of(sba.check(game(replace(sword, attached_to="c"), pro_black))[1]) == [
        ("unattach", "eq", ("704.5n",))]


def test_704_5p_attached_creature_becomes_unattached():
    bonded = creature("c", 1, 1, attached_to="d")
    assert rules_of(sba.check(game(bonded, creature("d", 1, 1)))[1]) == [
        ("unattach", "c", ("704.5p",))]


def test_704_8_example_young_wolf_counters_and_last_known_information():
    """704.8 example: a 1/1 with one +1/+1 and three -1/-1 counters dies; its last known
    information still has the +1/+1 counter (so undying would not trigger)."""
    wolf = creature("wolf", 1, 1, name="Young Wolf", keywords={"undying"}).with_counters(
        plus1=1, minus1=3)
    after, events = sba.check(game(wolf))
    assert rules_of(events) == [("counters", "wolf", ("704.5q",)),
                                ("graveyard", "wolf", ("704.5f",))]
    dying = next(e for e in events if e.kind == "graveyard")
    assert dying.last_known.count("+1/+1") == 1
    assert [c.id for c in after.zone("graveyard")] == ["wolf"]


def test_704_5q_counters_annihilate():
    bear = creature("b", 2, 2).with_counters(plus1=3, minus1=1)
    after, _ = sba.perform(game(bear))
    assert after.permanent("b").counters == (("+1/+1", 2),)


def test_704_5r_counters_above_the_stated_maximum_are_removed():
    capped = replace(creature("c", 1, 1), counters={"charge": 5}, counter_limits={"charge": 3})
    after, _ = sba.perform(game(capped))
    assert after.permanent("c").count("charge") == 3


@pytest.mark.parametrize(("lore", "waiting", "sacrificed"), [
    (3, False, True), (2, False, False), (3, True, False)])
def test_704_5s_saga_past_its_final_chapter_is_sacrificed(lore, waiting, sacrificed):
    saga = Permanent("s", "Saga", "A", types=frozenset({"enchantment"}),
                     subtypes=frozenset({"Saga"}), counters={"lore": lore}, final_chapter=3,
                     ability_on_stack=waiting)
    events = sba.check(game(saga))[1]
    assert rules_of(events) == ([("sacrifice", "s", ("704.5s",))] if sacrificed else [])


def battle(**kw) -> Permanent:
    return Permanent("bt", "Invasion", "A", types=frozenset({"battle"}),
                     subtypes=frozenset({"Siege"}), **kw)


def test_704_5v_battle_with_defense_0_goes_to_the_graveyard():
    assert rules_of(sba.check(game(battle(protector="B")))[1]) == [
        ("graveyard", "bt", ("704.5v",))]


def test_704_5w_and_704_5x_battle_protectors():
    _, events = sba.check(game(battle(counters={"defense": 3})))
    assert [(e.kind, e.rules, e.value) for e in events] == [("protector", ("704.5w",), "B")]
    _, events = sba.check(game(battle(counters={"defense": 3}, protector="A")))
    assert [(e.kind, e.rules, e.value) for e in events] == [("protector", ("704.5x",), "B")]
    _, events = sba.check(game(battle(counters={"defense": 3}), players=("A",)))
    assert rules_of(events) == [("graveyard", "bt", ("704.5w",))]


def test_704_5y_only_the_newest_role_stays():
    roles = [Permanent(f"r{i}", "Role", "A", types=frozenset({"enchantment"}),
                       subtypes=frozenset({"Aura", "Role"}), attached_to="c", timestamp=i)
             for i in (1, 2)]
    _, events = sba.check(game(creature("c", 1, 1), *roles))
    assert rules_of(events) == [("graveyard", "r1", ("704.5y",))]


def test_704_5z_start_your_engines_gives_speed_1():
    racer = creature("c", 1, 1, keywords={"start your engines!"})
    after, _ = sba.perform(game(racer))
    assert (after.player("A").speed, after.player("B").speed) == (1, None)


def test_704_3_checks_repeat_until_none_apply():
    """A creature dies (704.5g); its Aura is then attached to nothing (704.5m) next check."""
    state = game(replace(creature("c", 1, 1), damage=1), aura("c"))
    after, rounds = sba.perform(state)
    assert [rules_of(r) for r in rounds] == [[("graveyard", "c", ("704.5g",))],
                                             [("graveyard", "aura", ("704.5m",))]]
    assert after.battlefield == ()


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
        combat.check_assignment(state, attack, [Assignment("g", "pro", 1),
                                                Assignment("g", "B", 5)], {})
    combat.check_assignment(state, attack, [Assignment("g", "pro", 3),
                                            Assignment("g", "B", 3)], {})
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
    combat.check_assignment(state, attacks[1], proposed, {"pw": 1})
    with pytest.raises(IllegalAssignment, match="loyalty"):
        combat.check_assignment(state, Attack("big", "pw", (), blocked=True),
                                [Assignment("big", "pw", 1), Assignment("big", "B", 6)], {})
    after, [step] = combat.resolve_combat(state, attacks)
    assert (total(step.assigned, "big", "pw"), total(step.assigned, "big", "B")) == (2, 5)
    assert after.player("B").life == 15
    assert after.permanent("pw") is None  # 704.5i


def test_702_19f_without_trample_over_planeswalkers_nothing_reaches_the_player():
    walker = Permanent("pw", "Walker", "B", types=frozenset({"planeswalker"}),
                       counters={"loyalty": 1})
    state = game(creature("tr", 5, 5, keywords={"trample"}), walker)
    with pytest.raises(IllegalAssignment):
        combat.check_assignment(state, Attack("tr", "pw", (), blocked=True),
                                [Assignment("tr", "pw", 1), Assignment("tr", "B", 4)], {})


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
    assert [s.step for s in steps] == ["first", "second"]
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
    assert step.life_gained == (("A", 2), ("A", 3))
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
    assigned = combat.assign_step(state, attacks, active)
    for attack in attacks:
        attacker = state.permanent(attack.attacker)
        if attacker.id in active and (attack.blockers or not attack.is_blocked):
            assert total(assigned, attacker.id) == attacker.current_power


@st.composite
def states(draw):
    players = tuple(Player(p, life=draw(st.integers(-2, 3)), poison=draw(st.integers(8, 11)),
                           drew_from_empty_library=draw(st.booleans())) for p in ("A", "B"))
    permanents = []
    for i in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["creature", "legend", "aura", "walker", "equipment"]))
        owner = draw(st.sampled_from(["A", "B"]))
        if kind in ("creature", "legend"):
            p = creature(f"p{i}", 1, draw(st.integers(0, 3)), owner=owner,
                         keywords=draw(st.sets(st.sampled_from(["indestructible"]))),
                         supertypes={"legendary"} if kind == "legend" else set(),
                         name="Legend" if kind == "legend" else f"p{i}",
                         damage=draw(st.integers(0, 3)), deathtouch_damage=draw(st.booleans()),
                         timestamp=i)
            p = p.with_counters(plus1=draw(st.integers(0, 2)), minus1=draw(st.integers(0, 2)))
        elif kind == "aura":
            p = replace(aura(draw(st.sampled_from([None, "p0", "p1", "A"]))), id=f"p{i}")
        elif kind == "walker":
            p = Permanent(f"p{i}", "W", owner, types=frozenset({"planeswalker"}),
                          counters={"loyalty": draw(st.integers(0, 2))})
        else:
            p = Permanent(f"p{i}", "Eq", owner, types=frozenset({"artifact"}),
                          subtypes=frozenset({"Equipment"}),
                          attached_to=draw(st.sampled_from([None, "p0", "A"])))
        permanents.append(p)
    return GameState(players, tuple(permanents))


@settings(max_examples=200, deadline=None)
@given(states())
def test_performing_state_based_actions_twice_equals_once(state):
    once, _ = sba.perform(state)
    twice, rounds = sba.perform(once)
    assert twice == once and rounds == []
