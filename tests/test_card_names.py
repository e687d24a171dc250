"""Names in running text (rulesdb.layers.card_names): the runs of capitalized words that name a
card, a token or a product, so that a glossary term inside one is not linked (issue 41)."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesdb.layers.card_names import names, outside_names


@pytest.mark.parametrize(("text", "expected"), [
    # cards mid-sentence, in parentheses and quotes, joined by "of" / "of the"
    ("A player casts Lightning Bolt, an instant.", ["Lightning Bolt"]),
    ("One card (Power Play) states that its controller is the starting player.",
     ["Power Play"]),
    ("Library of Alexandria, Magnetic Mountain, Merchant Ship", ["Library of Alexandria",
                                                                 "Magnetic Mountain",
                                                                 "Merchant Ship"]),
    ("a Mesa Pegasus banded with Lord of the Pit", ["Mesa Pegasus", "Lord of the Pit"]),
    ("Urza’s Power Plant and Snow-Covered Forest", ["Urza’s Power Plant",
                                                    "Snow-Covered Forest"]),
    ('a 1/1 creature named “Phyrexian Token.”', ["Phyrexian Token"]),
    ("boosters from Commander Legends: Battle for Baldur’s Gate", ["Commander Legends",
                                                                   "Baldur’s Gate"]),
    # a card's name may begin a sentence
    ("Lightning Bolt deals 3 damage to any target.", ["Lightning Bolt"]),
    ("Example: Grizzly Bears attacks.", ["Grizzly Bears"]),
    # a sentence's first word capitalized by its place: a function word or an -ing form
    ("An Aura can’t enchant itself.", []),
    ("If an Aura is attached to an illegal object, it is put into its owner’s graveyard.", []),
    ("In a Commander game, each player’s starting life total is 40.", []),
    ("Each Vehicle has a printed power and toughness.", []),
    ("called the “equipped creature.” The Equipment is attached to it.", []),
    ("See rule 704.) An Equipment can’t equip more than one creature.", []),
    ("The Ring has “Your Ring-bearer is legendary.”", []),
    ("Having Flying more than once gives no additional benefit.", []),
    ("Playing Magic games for ante is now considered an optional variation.", []),
    # single capitalized words, lower-case words between, a line break between
    ("Forest and Island are basic land types.", []),
    ("the subtypes Aura and Equipment", []),
    ("a Commander game", []),
    ("Wall\nof Spears", []),
    ("the Magic: The Gathering Tournament Rules", ["Gathering Tournament Rules"]),
])
def test_names(text, expected):
    assert [text[n.start:n.end] for n in names(text)] == expected


def _mention(text: str, words: str, entry: int = 1) -> tuple[int, int, int]:
    start = text.index(words)
    return start, start + len(words), entry


@pytest.mark.parametrize(("text", "terms", "kept"), [
    # a term inside a name, or across its edge, is dropped
    ("One card (Power Play) states", ["Power", "Play"], []),
    ("boosters from Commander Legends, and", ["Commander"], []),
    ("becomes enchanted by Witness Protection, an Aura", ["Protection", "Aura"], ["Aura"]),
    # the name is the term: kept
    ("a Two-Headed Giant game", ["Two-Headed Giant"], ["Two-Headed Giant"]),
    ("the Grand Melee variant", ["Grand Melee"], ["Grand Melee"]),
    # terms side by side, each word of the run a term: not a name, unless enclosed
    ("a colorless Aura Role enchantment token", ["Aura", "Role"], ["Aura", "Role"]),
    ("In Grand Melee Planechase games", ["Grand Melee", "Planechase"],
     ["Grand Melee", "Planechase"]),
    ("the type line “Kindred Enchantment — Merfolk.”", ["Kindred", "Enchantment"], []),
    # a word of the run that is no term makes it a name
    ("a 1/1 creature named Phyrexian Token", ["Token"], []),
])
def test_terms_inside_names_are_dropped(text, terms, kept):
    mentions = sorted(_mention(text, words, n) for n, words in enumerate(terms))
    assert [text[s:e] for s, e, _ in outside_names(mentions, names(text))] == kept


@given(st.text(alphabet=st.sampled_from("abcdefgh ,.;:()“”'-\n"), max_size=80))
def test_text_without_capitals_holds_no_name(text):
    assert names(text) == []


@given(st.text(alphabet=st.sampled_from("AaBbCc oftheOF,.()“”\n"), max_size=60),
       st.lists(st.tuples(st.integers(0, 60), st.integers(1, 8)), max_size=6))
def test_names_are_runs_of_capitalized_words_and_the_kept_mentions_a_subset(text, picks):
    found = names(text)
    for name in found:
        assert len(name.words) >= 2
        assert all(text[s].isupper() for s, _ in name.words)
        assert (name.start, name.end) == (name.words[0][0], name.words[-1][1])
    mentions = sorted({(s, min(s + n, len(text)), 1) for s, n in picks if s < len(text)})
    kept = outside_names(mentions, found)
    assert set(kept) <= set(mentions)


def test_at_full_history_card_names_hold_no_link_and_subtypes_keep_theirs(history_db):
    """cr-2026-01-16: "One card (Power Play)" links neither word, "Commander Legends" not
    Commander, "A Cursed Role token is a colorless Aura Role enchantment token" the first Role
    (a token's name) but the subtypes side by side; "An Aura can’t enchant itself" and "In a
    Commander game" keep theirs, and so does a heading ("Casting Spells")."""
    conn = sqlite3.connect(history_db)

    def linked(number: str) -> list[str]:
        return [row[0] for row in conn.execute(
            "SELECT m.text FROM term_mentions m JOIN rules r ON r.id = m.rule_id "
            "WHERE r.document = 'cr-2026-01-16' AND r.number = ? AND m.example_id IS NULL "
            "ORDER BY m.start", [number])]

    assert linked("103.1c") == ["card", "controller", "starting player", "effect"]
    assert "Aura" in linked("303.4d")
    assert "Commander" in linked("103.4c")
    assert linked("601") == ["Casting", "Spells"]
    cursed = linked("111.10j")
    assert cursed.count("Role") == 1 and cursed[cursed.index("Role") - 1] == "Aura"
    legends = conn.execute(
        "SELECT r.number FROM rules r WHERE r.document = 'cr-2026-01-16' "
        "AND r.text LIKE '%Commander Legends%'").fetchall()
    assert legends
    for (number,) in legends:
        text = conn.execute("SELECT text FROM rules WHERE document = 'cr-2026-01-16' AND "
                            "number = ?", [number]).fetchone()[0]
        at = text.index("Commander Legends")
        starts = [row[0] for row in conn.execute(
            "SELECT m.start FROM term_mentions m JOIN rules r ON r.id = m.rule_id "
            "WHERE r.document = 'cr-2026-01-16' AND r.number = ? AND m.example_id IS NULL",
            [number])]
        assert at not in starts
