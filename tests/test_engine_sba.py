"""The reference evaluator's state-based actions (704): the CR's own examples as scenarios,
rule by rule, and the invariant that performing them twice equals once.

Each scenario names the rule (and example) of cr-2025-06-06-chapter7 chapter 7 it encodes.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesdb.engine import damage, sba
from rulesdb.engine.division import Assignment
from rulesdb.engine.model import Card, GameState, Permanent, Player

from engine_helpers import creature, game


def rules_of(events) -> list[tuple[str, str, tuple[str, ...]]]:
    return sorted((e.kind, e.object, e.rules) for e in events)


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


def cr_rule_text(archived, number: str) -> str:
    """The text of rule `number` in the release the evaluator cites (cr-2025-06-06)."""
    from rulesdb.engine.registry import EDITION

    text = archived[f"MagicCompRules-{EDITION.removeprefix('cr-')}.txt"].data.decode("utf-8-sig")
    (line,) = re.findall(rf"^{re.escape(number)}\.? (.+)$", text, re.M)
    return line


def test_704_5h_deathtouch_damage_counts_only_until_the_next_check(archived):
    """704.5h: destroyed if "it's been dealt damage by a source with deathtouch since the last
    time state-based actions were checked". An indestructible creature survives the check that
    follows the damage; once it loses indestructible, a later check finds no such damage."""
    assert "since the last time state-based actions were checked" in cr_rule_text(
        archived, "704.5h")
    state = game(creature("dt", 1, 1, keywords={"deathtouch"}),
                 creature("wall", 0, 4, owner="B", keywords={"indestructible"}))
    struck, _, _, _ = damage.deal_damage(state, [Assignment("dt", "wall", 1)])
    checked, events = sba.check(struck)
    assert events == [] and checked.permanent("wall").damage == 1
    mortal = replace(checked.permanent("wall"), keywords=frozenset())
    later = replace(checked, battlefield=tuple(mortal if p.id == "wall" else p
                                               for p in checked.battlefield))
    assert sba.check(later)[1] == []
    # the same loss of indestructible before any check: 704.5h applies
    unchecked = replace(struck, battlefield=tuple(
        replace(p, keywords=frozenset()) if p.id == "wall" else p for p in struck.battlefield))
    assert rules_of(sba.check(unchecked)[1]) == [("graveyard", "wall", ("704.5h",))]


def test_704_5b_a_draw_from_an_empty_library_counts_only_until_the_next_check(archived):
    """704.5b reads "since the last time state-based actions were checked" too: the attempt is
    acted on at one check and forgotten by it."""
    assert "since the last time state-based actions were checked" in cr_rule_text(
        archived, "704.5b")
    after, events = sba.check(GameState((Player("A", drew_from_empty_library=True),
                                         Player("B"))))
    assert rules_of(events) == [("lose", "A", ("704.5b",))]
    assert after.player("A").drew_from_empty_library is False


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


# --- properties -------------------------------------------------------------------------


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
