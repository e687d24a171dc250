"""Alignment of rules across editions on synthetic trees: properties, citations, renumbering,
splits and merges, and the word-level rendering of edits."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesdb.lineage import wordiff
from rulesdb.lineage.align import Change, Coverage, RuleRec, align, mirror

LETTERS = "abcdefghijkmnpqrstuvwxyz"
VOCABULARY = ["creature", "player", "damage", "attacking", "blocking", "library", "graveyard",
              "token", "counter", "ability", "spell", "permanent", "controller", "target",
              "trample", "flying", "opponent", "battlefield", "exile", "sacrifice", "mana"]


SECTION_NAMES = {"701": "Keyword Actions", "702": "Keyword Abilities", "502": "Keyword Abilities",
                 "703": "Turn-Based Actions", "420": "State-Based Effects"}


def tree(sections: dict[str, dict[str, list[str]]]) -> list[RuleRec]:
    """Rule records from {section: {rule title: [subrule texts]}}, numbered in order."""
    rules = []
    for section, titled in sections.items():
        name = SECTION_NAMES[section]
        rules.append(RuleRec(section, "section", name, name))
        for index, (title, subrules) in enumerate(titled.items(), start=1):
            number = f"{section}.{index}"
            rules.append(RuleRec(number, "rule", title, title, section))
            rules.extend(RuleRec(f"{number}{LETTERS[k]}", "subrule", None, text, number)
                         for k, text in enumerate(subrules))
    return rules


def significant(changes: list[Change]) -> set[tuple[str, str | None, str | None]]:
    return {(c.op, c.old, c.new) for c in changes if c.op != "unchanged"}


sentences = st.lists(st.sampled_from(VOCABULARY), min_size=6, max_size=14).map(
    lambda words: " ".join(words).capitalize() + ".")
editions = st.dictionaries(
    st.sampled_from(["701", "702", "703"]),
    st.dictionaries(st.sampled_from(["Trample", "Flying", "Banding", "Scry", "Ward", "Reach"]),
                    st.lists(sentences, min_size=0, max_size=5), min_size=1, max_size=4),
    min_size=1, max_size=3,
).map(tree)


@settings(max_examples=60, deadline=None)
@given(editions)
def test_an_edition_against_itself_has_no_changes(rules):
    changes = align(rules, rules)
    assert significant(changes) == set()
    assert len(changes) == len(rules)


@settings(max_examples=80, deadline=None)
@given(editions, editions)
def test_diff_b_a_mirrors_diff_a_b(a, b):
    forward = align(a, b)
    backward = align(b, a)
    assert significant(backward) == significant([mirror(c) for c in forward])


def test_a_parent_matched_late_still_gives_its_vote_in_both_directions():
    """Found by the property above: 703.1 is matched by the votes of the new side's
    subrules, after its own section was looked at; its section is matched all the same, as
    in the other direction."""
    six = "Creature creature creature creature creature creature."
    seven = "Creature creature creature creature creature creature creature."
    a = tree({"703": {"Banding": [six, six, six, "Creature creature creature creature creature "
                                                  "player."]}})
    b = tree({"701": {"Trample": [six, seven], "Flying": [seven, seven]}})
    assert ("renumbered_edited", "703", "701") in significant(align(a, b))
    assert significant(align(b, a)) == significant([mirror(c) for c in align(a, b)])


@settings(max_examples=60, deadline=None)
@given(editions, st.data())
def test_inserting_a_subrule_shifts_the_letters_after_it(rules, data):
    parents = [r for r in rules if r.kind == "rule"]
    parent = data.draw(st.sampled_from(parents))
    children = [r for r in rules if r.parent == parent.number]
    at = data.draw(st.integers(0, len(children)))
    inserted_text = "Zephyr quintessence obliterates wombats entirely."
    new_children = [*children[:at], RuleRec("?", "subrule", None, inserted_text, parent.number),
                    *children[at:]]
    renamed = [RuleRec(f"{parent.number}{LETTERS[k]}", "subrule", None, child.text,
                       parent.number) for k, child in enumerate(new_children)]
    start = rules.index(parent) + 1
    new = [*rules[:start], *renamed, *rules[start + len(children):]]
    expected = {("added", None, renamed[at].number)}
    expected |= {("renumbered", old.number, moved.number)
                 for old, moved in zip(children[at:], renamed[at + 1:], strict=True)}
    if len({c.text for c in rules}) == len(rules):  # duplicated texts may trade places
        assert significant(align(rules, new)) == expected


CITATION_CASES = [
    # (old text, new text, mapping of other rules, expected op)
    ("See rule 502.9 for trample.", "See rule 702.19 for trample.", True, "unchanged"),
    ("See rule 502.9 for trample.", "See rule 702.20 for trample.", True, "edited"),
    ("See rule 502.9 for trample.", "See rule 702.19 for flying.", True, "edited"),
    ("Deal damage (see rule 310).", "Deal damage (see rule 510).", False, "unchanged"),
]


@pytest.mark.parametrize(("old_text", "new_text", "with_target", "op"), CITATION_CASES)
def test_a_change_of_cited_numbers_only_is_not_an_edit(old_text, new_text, with_target, op):
    old = [RuleRec("100.1", "rule", None, old_text)]
    new = [RuleRec("100.1", "rule", None, new_text)]
    if with_target:
        old.append(RuleRec("502.9", "rule", "Trample", "Trample"))
        new += [RuleRec("702.19", "rule", "Trample", "Trample"),
                RuleRec("702.20", "rule", "Vigilance", "Vigilance")]
    change = next(c for c in align(old, new) if c.old == "100.1")
    assert (change.op, change.new) == (op, "100.1")


def test_a_cited_range_that_follows_the_shift_is_not_an_edit():
    old = [RuleRec("608.2", "rule", None, "Rules 608.2c–k apply, then rule 608.2m."),
           RuleRec("608.2c", "subrule", None, "Alpha words are here.", "608.2"),
           RuleRec("608.2k", "subrule", None, "Kappa words are here.", "608.2"),
           RuleRec("608.2m", "subrule", None, "Mu words are here.", "608.2")]
    new = [RuleRec("608.2", "rule", None, "Rules 608.2c–m apply, then rule 608.2n."),
           RuleRec("608.2c", "subrule", None, "Alpha words are here.", "608.2"),
           RuleRec("608.2k", "subrule", None, "Brand new text about wombats.", "608.2"),
           RuleRec("608.2m", "subrule", None, "Kappa words are here.", "608.2"),
           RuleRec("608.2n", "subrule", None, "Mu words are here.", "608.2")]
    changes = align(old, new)
    assert [(c.op, c.old, c.new, c.citations_only) for c in changes] == [
        ("unchanged", "608.2", "608.2", True), ("unchanged", "608.2c", "608.2c", False),
        ("added", None, "608.2k", False), ("renumbered", "608.2k", "608.2m", False),
        ("renumbered", "608.2m", "608.2n", False)]


def test_renumbering_is_recognized_from_content_and_coverage_decides_removals():
    old = tree({"502": {"Flying": ["Flying is an evasion ability for creatures."],
                        "Trample": ["Trample lets excess combat damage reach the player."]},
                "420": {"State-Based Effects": ["A player with 0 or less life loses."]}})
    new = tree({"702": {"Deathtouch": ["Any nonzero damage from this source is lethal."],
                        "Flying": ["Flying is an evasion ability for creatures."],
                        "Trample": ["Trample lets excess combat damage reach the player."]}})
    chapter7 = Coverage.from_covers(True, ["700-731"])
    assert significant(align(old, new, None, chapter7)) == {
        ("renumbered", "502", "702"), ("renumbered", "502.1", "702.2"),
        ("renumbered", "502.1a", "702.2a"), ("renumbered", "502.2", "702.3"),
        ("renumbered", "502.2a", "702.3a"), ("added", None, "702.1"),
        ("added", None, "702.1a"), ("outside_coverage", "420", None),
        ("outside_coverage", "420.1", None), ("outside_coverage", "420.1a", None),
    }


def test_a_rule_cut_in_two_is_a_split_and_the_reverse_a_merge():
    whole = ("Banding is a static ability that modifies the rules for combat. A player whose "
             "creature has banding chooses how combat damage is assigned by blockers.")
    first = "Banding is a static ability that modifies the rules for combat."
    second = ("A player whose creature has banding chooses how combat damage is assigned by "
              "blockers.")
    old = [RuleRec("702.22", "rule", "Banding", "Banding"),
           RuleRec("702.22a", "subrule", None, whole, "702.22")]
    new = [RuleRec("702.22", "rule", "Banding", "Banding"),
           RuleRec("702.22a", "subrule", None, first, "702.22"),
           RuleRec("702.22b", "subrule", None, second, "702.22")]
    # the part keeping the number is the one-to-one match (a lineage goes on into it); the
    # other part is extra
    assert {(c.op, c.old, c.new, c.extra) for c in align(old, new) if c.op != "unchanged"} == {
        ("split", "702.22a", "702.22a", False), ("split", "702.22a", "702.22b", True)}
    assert {(c.op, c.old, c.new, c.extra) for c in align(new, old) if c.op != "unchanged"} == {
        ("merged", "702.22a", "702.22a", False), ("merged", "702.22b", "702.22a", True)}


WORDIFF_CASES = [
    ("a <b> c", "a <i> c", ("a [-<b>-] c", "a {+<i>+} c"), ("a ~~\\<b\\>~~ c", "a **\\<i\\>** c"),
     ("a <del>&lt;b&gt;</del> c", "a <ins>&lt;i&gt;</ins> c")),
    ("it's red", "it’s red", ("it's red", "it’s red"), ("it's red", "it’s red"),
     ("it&#x27;s red", "it’s red")),
]


@pytest.mark.parametrize(("old", "new", "text", "markdown", "html"), WORDIFF_CASES)
def test_word_level_rendering_marks_changed_words_and_escapes(old, new, text, markdown, html):
    ops = wordiff.opcodes(old, new)
    assert "".join(op["old"] for op in ops) == old
    assert "".join(op["new"] for op in ops) == new
    assert wordiff.render_text(ops) == text
    assert wordiff.render_markdown(ops) == markdown
    assert wordiff.render_html(ops) == html
