"""The references layer: finding cross-references in text and expanding ranges."""

from __future__ import annotations

import re

import pytest
import sqlite_utils
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rulesdb.layers import LAYERS, references
from rulesdb.layers.references import (
    CR_BARE,
    SEE_GLOSSARY,
    find_cr_references,
    find_glossary_see,
    find_quoted_headings,
    find_rulings_references,
)
from rulesdb.numbers import LETTERS, expand_range
from rulesdb.sources.add import add_files


def refs(found):
    return [(f.raw, f.cited, f.kind, list(f.targets)) for f in found]


CR_CASES = [
    ("See rule 601.2b.", [("See rule 601.2b", "601.2b", "rule", ["601.2b"])]),
    ("(see rule 420.5)", [("see rule 420.5", "420.5", "rule", ["420.5"])]),
    ("rules 418.5b-418.5g apply",
     [("rules 418.5b-418.5g", "418.5b-418.5g", "range",
       ["418.5b", "418.5c", "418.5d", "418.5e", "418.5f", "418.5g"])]),
    ("in rules 601.2b and 601.2f–h.",
     [("rules 601.2b", "601.2b", "rule", ["601.2b"]),
      ("601.2f–h", "601.2f–h", "range", ["601.2f", "601.2g", "601.2h"])]),
    ("(see rules 119.9–10)", [("see rules 119.9–10", "119.9–10", "range", ["119.9", "119.10"])]),
    ("rules 306-311.", [("rules 306-311", "306-311", "range",
                         ["306", "307", "308", "309", "310", "311"])]),
    ("rules 903.6–903.8", [("rules 903.6–903.8", "903.6–903.8", "range",
                            ["903.6", "903.7", "903.8"])]),
    ("rules 110.2 and 112.2", [("rules 110.2", "110.2", "rule", ["110.2"]),
                               ("112.2", "112.2", "rule", ["112.2"])]),
    ('See section 6, "Multiplayer Rules."', [("See section 6", "6", "section", ["6"])]),
    ('rule 309, "Declare Blockers Step," rule 502.',
     [("rule 309", "309", "rule", ["309"]), ("rule 502", "502", "rule", ["502"])]),
    ("This is an exception to 613.10. See also rule 613.",
     [("613.10", "613.10", "bare", ["613.10"]), ("See also rule 613", "613", "rule", ["613"])]),
    ("subrules 702.19k-m skip letters",
     [("702.19k-m", "702.19k-m", "range", ["702.19k", "702.19m"])]),
    ("See 718, “Prototype Cards.”", [("See 718", "718", "rule", ["718"])]),
    ("version 1.0, 100.0 dollars, 10.0.0.1 and 2009.02.01 are not rules", []),
    # the longest marker, and one glued to a word (no word boundary: only "rule 601.2" counts)
    ("Also, See also sections 6 and 7.",
     [("See also sections 6", "6", "section", ["6"]), ("7", "7", "section", ["7"])]),
    ("xSee rule 601.2", [("rule 601.2", "601.2", "rule", ["601.2"])]),
]


@pytest.mark.parametrize(("text", "expected"), CR_CASES)
def test_find_cr_references(text, expected):
    assert refs(find_cr_references(text)) == expected


RULINGS_CASES = [
    ("(see Rule K.25).", [("see Rule K.25", "K.25", "rule", ["K.25"])]),
    ("See Rule G.6.Ruling.2 and Rule A.1.4.",
     [("See Rule G.6.Ruling.2", "G.6.Ruling.2", "rule", ["G.6.Ruling.2"]),
      ("A.1.4", "A.1.4", "rule", ["A.1.4"])]),
    ("Also see Rule A.5.7, Rule A.8.11, and Rule A.8.12.",
     [("see Rule A.5.7", "A.5.7", "rule", ["A.5.7"]), ("A.8.11", "A.8.11", "rule", ["A.8.11"]),
      ("A.8.12", "A.8.12", "rule", ["A.8.12"])]),
    ("See Rule C.3.Rulings.1", [("See Rule C.3.Rulings.1", "C.3.Rulings.1", "rule",
                                 ["C.3.Ruling.1"])]),
    ("[WotC Rules Team 03/31/98]", []),
    ("the Rule Effect (see below)", []),
]


@pytest.mark.parametrize(("text", "expected"), RULINGS_CASES)
def test_find_rulings_references(text, expected):
    assert refs(find_rulings_references(text)) == expected


NAMES = sorted(["active player, nonactive player order", "active player", "haste",
                "activated ability", "tap"], key=len, reverse=True)


@pytest.mark.parametrize(("text", "expected"), [
    ("See Active Player, Nonactive Player Order.",
     [("See Active Player, Nonactive Player Order", "Active Player, Nonactive Player Order",
       "glossary", ["active player, nonactive player order"])]),
    ("Some text. See also Activated ability, Haste.",
     [("See also Activated ability", "Activated ability", "glossary", ["activated ability"]),
      ("Haste", "Haste", "glossary", ["haste"])]),
    ("See Tapped.", []),
    ("You may see tap here.", []),
])
def test_find_glossary_see(text, expected):
    assert refs(find_glossary_see(text, NAMES)) == expected


def test_find_quoted_headings():
    found = find_quoted_headings('consider the power 0 (see "New Math").')
    assert refs(found) == [('see "New Math"', "New Math", "heading", ["new math"])]


@pytest.mark.parametrize(("start", "end", "expected"), [
    ("601.2f", "h", ["601.2f", "601.2g", "601.2h"]),
    ("702.19k", "m", ["702.19k", "702.19m"]),
    ("418.5b", "418.5g", ["418.5b", "418.5c", "418.5d", "418.5e", "418.5f", "418.5g"]),
    ("119.9", "10", ["119.9", "119.10"]),
    ("306", "308", ["306", "307", "308"]),
    ("601.2f", "602.1", []),
    ("601.2", "h", []),
])
def test_expand_range(start, end, expected):
    assert expand_range(start, end) == expected


@given(st.integers(100, 999), st.integers(1, 30),
       st.sampled_from(LETTERS), st.sampled_from(LETTERS))
def test_letter_ranges_never_contain_l_or_o(section, rule, first, last):
    expanded = expand_range(f"{section}.{rule}{first}", last)
    letters = [number[-1] for number in expanded]
    assert "l" not in letters and "o" not in letters
    assert len(expanded) == max(0, LETTERS.index(last) - LETTERS.index(first) + 1)


# The look-behinds of CR_BARE and SEE_GLOSSARY come after the first characters (so that re can
# skip ahead to them); they must match exactly where the plain forms, looking back first, do.
PLAIN_BARE = re.compile(r"(?<![\w.])\d{3}\.[1-9]\d*[a-z]?"
                        r"(?:\s?[-–]\s?(?:\d{1,3}(?:\.\d+[a-z]?)?|[a-z]\b))?(?![\w]|\.\d)")
PLAIN_SEE = re.compile(r"(?:^|(?<=[.!?]\s)|(?<=\n))(?P<marker>See(?:\salso)?)\s")
PIECES = ["1", "23", "613", "613.10", ".", ",", "-", "–", " ", "\n", "a", "x", "_", "!", "?",
          ";", "See", "See also", "rule "]


@given(st.lists(st.sampled_from(PIECES), max_size=30).map("".join))
@example(".613.10 x613.1 _613.1 1613.1, 613.1")
@example("See x. See also a? See b! See c ;See d\nSee  See")
@settings(max_examples=300)
def test_look_behinds_placed_late_match_as_the_plain_forms(text):
    assert [m.span() for m in CR_BARE.finditer(text)] == \
        [m.span() for m in PLAIN_BARE.finditer(text)]
    assert [m.span("marker") for m in SEE_GLOSSARY.finditer(text)] == \
        [m.span("marker") for m in PLAIN_SEE.finditer(text)]


MINI_RELEASE = """\
Magic: The Gathering Comprehensive Rules

These rules are effective as of {date}.

Contents

7. Additional Rules
Glossary
Credits

7. Additional Rules

702. Keyword Abilities

702.1. Most abilities describe exactly what they do. See rule 702.19a.

{number}. Trample

{number}a Trample is a static ability.

Glossary

Trample
A keyword ability. See rule 702.19.

Credits

Magic: The Gathering Original Game Design: Richard Garfield
"""


@pytest.fixture
def references_only():
    """LAYERS holding only the references layer (the others' work would slow the test), then
    all of them again in their order: the order is the order they run in."""
    kept = dict(LAYERS)
    LAYERS.clear()
    LAYERS["references"] = kept["references"]
    yield
    LAYERS.clear()
    LAYERS.update(kept)


def test_a_text_repeated_across_editions_resolves_in_each_one(tmp_path, references_only):
    paths = []
    for date, number in (("June 6, 2025", "702.19"), ("July 6, 2025", "702.20")):
        path = tmp_path / f"MagicCompRules {date.replace(' ', '').replace(',', '')}.txt"
        path.write_text(MINI_RELEASE.format(date=date, number=number), encoding="utf-8")
        paths.append(path)
    db_path = tmp_path / "rules.db"
    add_files(db_path, paths)
    db = sqlite_utils.Database(db_path)
    query = ("SELECT document, source_table, raw, target_number, target_rule_id IS NOT NULL, "
             "status, reason FROM [references] ORDER BY id")
    stored = db.execute(query).fetchall()
    assert stored == [
        ("cr-2025-06-06", "rules", "See rule 702.19a", "702.19a", 1, "resolved", None),
        ("cr-2025-06-06", "glossary", "See rule 702.19", "702.19", 1, "resolved", None),
        ("cr-2025-07-06", "rules", "See rule 702.19a", "702.19a", 0, "unresolved",
         "no 702.19a in cr-2025-07-06"),
        ("cr-2025-07-06", "glossary", "See rule 702.19", "702.19", 0, "unresolved",
         "no 702.19 in cr-2025-07-06"),
    ]
    # computed again, one edition at a time and in the other order: the same rows
    references.compute(db, ["cr-2025-07-06"])
    references.compute(db, ["cr-2025-06-06"])
    assert sorted(db.execute(query).fetchall()) == sorted(stored)
