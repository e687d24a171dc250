"""Golden checks of the prose-rulebook parsers on the real bundled rulebooks (1995 and 2005):
counts, chosen items, glossary entries, glyphs, tree invariants and stable labels."""

from __future__ import annotations

import re
from collections import Counter
from itertools import pairwise

import pytest

from rulesdb.ingest import rulebook_print, rulebook_web
from rulesdb.ingest.lossless import lossless_mismatch
from rulesdb.ingest.model import DocumentMeta, GlossaryEntry, Glyph, Residue, Rule

from conftest import SOURCE_FILES
from rulebook_helpers import NAV_BOTTOM, NAV_TOP, S2, check_tree

COST_TAP = "a cost symbol in a passage about tapping or summoning sickness"
COLOR_AFTER = "the color is named right after the symbol"


# --- the real documents -------------------------------------------------------------------

@pytest.fixture(scope="module")
def doc95():
    return rulebook_web.parse(SOURCE_FILES["rulebook-1995"].read_bytes())


@pytest.fixture(scope="module")
def doc05():
    return rulebook_print.parse(SOURCE_FILES["rulebook-2005"].read_bytes())


def test_1995_meta_and_counts(doc95) -> None:
    assert doc95.meta == DocumentMeta(kind="rulebook",
                                      title="Section II: Expanding Your Knowledge",
                                      covers=("section-II",))
    assert Counter(r.kind for r in doc95.rules) == {
        "section": 1, "heading": 27, "keyword": 15, "paragraph": 90, "list_item": 8,
        "lost_example": 25}
    assert doc95.glossary == () and doc95.parts == ()
    assert doc95.warnings == (
        "a symbol seems lost at offset 11261: \"e a casting cost, even if it's . Look in the "
        "upper\"",)
    assert [(r.text, r.reason) for r in doc95.residue] == [
        (NAV_TOP, "web page navigation links"), (NAV_BOTTOM, "web page navigation links")]


def test_1995_counts_agree_with_plain_line_counts(doc95) -> None:
    """The same counts found by simple line patterns, independently of the parser."""
    lines = doc95.text.split("\n")
    count = Counter(r.kind for r in doc95.rules)
    assert count["lost_example"] == sum(line == "EXAMPLE" for line in lines)
    assert count["list_item"] == sum(bool(re.match(r"\s+(•|\d+\.) ", ln)) for ln in lines)
    assert count["keyword"] == sum(bool(re.match(r"[A-Z][A-Za-z -]+: [A-Z]", ln))
                                   for ln in lines if not ln.startswith("Section "))
    # A heading is a line with text right below it, other than a list line.
    assert count["heading"] == sum(bool(a.strip() and b.strip() and not a.startswith(" "))
                                   for a, b in pairwise(lines))


def test_1995_golden_items(doc95) -> None:
    text = doc95.text
    by_label = {r.number: r for r in doc95.rules}
    heading = f"{S2}.advanced-creature-abilities"
    start = text.index("Banding: Banding is")
    banding_text = ("Banding is an ability with two distinct features. The first allows you to "
                    "group creatures so that they can attack your opponent with their combined "
                    "power. The second gives you control over the distribution of combat "
                    "damage.")
    assert by_label[f"{heading}.banding"] == Rule(
        number=f"{heading}.banding", parent=heading, kind="keyword", text=banding_text,
        marker="Banding:", title="Banding", span=(start, start + len("Banding: ") +
                                                  len(banding_text)))
    item = 'Check all players for mana burn (see "Mana Burn").'
    start = text.index("4. " + item)
    assert by_label[f"{S2}.phase-structure.i4"] == Rule(
        number=f"{S2}.phase-structure.i4", parent=f"{S2}.phase-structure", kind="list_item",
        text=item, marker="4.", span=(start, start + 3 + len(item)))
    start = text.index("\nEXAMPLE\n") + 1
    assert by_label[f"{S2}.color.ex1"] == Rule(
        number=f"{S2}.color.ex1", parent=f"{S2}.color", kind="lost_example", text="",
        marker="EXAMPLE", span=(start, start + 7))
    assert [r.number for r in doc95.rules if r.parent == f"{heading}.banding"] == [
        f"{heading}.banding.p1", f"{heading}.banding.ex1", f"{heading}.banding.p2",
        f"{heading}.banding.p3", f"{heading}.banding.p4", f"{heading}.banding.ex2"]


def test_2005_meta_and_counts(doc05) -> None:
    assert doc05.meta == DocumentMeta(kind="rulebook", title="MAGIC The Gathering® RULEBOOK",
                                      effective_date="2005", date_text="©2005",
                                      covers=("section-1", "section-7"))
    assert Counter(r.kind for r in doc05.rules) == {
        "section": 7, "heading": 58, "keyword": 24, "paragraph": 132, "list_item": 23}
    assert len(doc05.glossary) == 189
    assert [p.name for p in doc05.parts] == ["cover", "introduction", "contents",
                                             "learning to play", "credits", "questions",
                                             "back cover"]
    assert doc05.residue == ()
    assert len(doc05.warnings) == 14
    assert sum(w.startswith("a symbol seems lost") for w in doc05.warnings) == 12


def test_2005_counts_agree_with_plain_line_counts(doc05) -> None:
    text = doc05.text
    rules_part = text[text.index("SECTION 1:"):text.index("SECTION 7:")]
    lines = [ln for ln in rules_part.split("\n") if ln.strip()]
    count = Counter(r.kind for r in doc05.rules)
    assert count["section"] == len(re.findall(r"^SECTION \d+: ", text, re.M))
    assert count["list_item"] == sum(bool(re.match(r"(- |\d\. [A-Z][a-z])", ln))
                                     for ln in lines)
    glossary_part = text[text.index("SECTION 7:"):text.index("\nCREDITS")]
    blocks = [b.strip() for b in re.split(r"\n\s*\n", glossary_part)[1:] if b.strip()]
    headings = [b for b in blocks if "\n" not in b and len(b.split()) <= 6
                and not re.search(r"[.:;,!?)\"]$", b) and not b.startswith(("See", "Compare"))]
    assert len(doc05.glossary) == len(headings)
    assert [g.heading for g in doc05.glossary] == headings


def test_2005_golden_glossary_entries(doc05) -> None:
    by_term = {g.term: g for g in doc05.glossary}
    text = doc05.text
    definition = (
        'The stuff before the colon (":") in an activated ability. If an activation cost '
        "includes {T}, you can pay it only if the permanent with the ability is untapped. That "
        "means you can usually pay it only once each turn. If the activation cost doesn't "
        "include {T}, you can pay it as many times as you want. You'll get the ability each "
        "time.\nSee also Activated ability, Tap.")
    start = text.index("\nActivation cost\n") + 1
    end = text.index("See also Activated ability, Tap.", start) + len(
        "See also Activated ability, Tap.")
    first = definition.index("{T}")
    assert by_term["Activation cost"] == GlossaryEntry(
        term="Activation cost", definition=definition, heading="Activation cost",
        see=("Activated ability", "Tap"),
        glyphs=(Glyph("♣", "{T}", first, COST_TAP),
                Glyph("♣", "{T}", definition.index("{T}", first + 1), COST_TAP)),
        span=(start, end))
    start = text.index("\nAttacker\n") + 1
    assert by_term["Attacker"] == GlossaryEntry(
        term="Attacker", definition="See Attacking creature.", heading="Attacker",
        see=("Attacking creature",), span=(start, text.index("creature.", start) + 9))
    assert by_term["Control"].see == ("Controller", "Owner")
    assert by_term["{T} Tap"].definition.count("{T}") == 2
    assert by_term["Multicolored card"].definition.startswith(
        "A card with more than one color of mana in its mana cost. For example, a card with "
        "the mana cost {2}{B}{R} is both black and red.")


def test_2005_golden_glyph_paragraph(doc05) -> None:
    label = "s1-the-basics.key-terms-and-symbols.mana.p2"
    rule = next(r for r in doc05.rules if r.number == label)
    printed = ("Each mana can either be one of the five **Magic** colors or colorless. When a "
               "cost requires colored mana, you'll see colored mana symbols (* for white, ♠ "
               "for blue, ♣ for black, ♡ for red, ♠ for green). When any kind of mana can be "
               "used to pay the cost, you'll see a symbol with a number in it (like 2).")
    text = printed
    for glyph, symbol in [("* for", "{W} for"), ("♠ for blue", "{U} for blue"),
                          ("♣", "{B}"), ("♡", "{R}"), ("♠ for green", "{G} for green")]:
        text = text.replace(glyph, symbol, 1)
    start = doc05.text.index(printed)
    assert rule == Rule(
        number=label, parent="s1-the-basics.key-terms-and-symbols.mana", kind="paragraph",
        text=text,
        glyphs=tuple(Glyph(o, s, text.index(s + " for"), COLOR_AFTER) for o, s in [
            ("*", "{W}"), ("♠", "{U}"), ("♣", "{B}"), ("♡", "{R}"), ("♠", "{G}")]),
        span=(start, start + len(printed)))
    assert rule.reconstruct() == printed


def test_2005_glyph_totals(doc05) -> None:
    glyphs = [g for item in (*doc05.rules, *doc05.glossary) for g in item.glyphs]
    assert sum(g.symbol is not None for g in glyphs) == 45
    undecided = Counter(g.original for g in glyphs if g.symbol is None)
    assert undecided == {"♣": 7, "☞": 1, "☉": 1, "☿": 1, "♠": 1, "☠": 1, "**C**": 1}
    # No mangled glyph is left in any text without a record.
    records = Counter(g.original for g in glyphs if g.symbol is None)
    left = Counter(ch for item in (*doc05.rules, *doc05.glossary)
                   for ch in getattr(item, "text", getattr(item, "definition", ""))
                   if ch in "♣♠☞☿☉♡☀🌊🏔🌲🌿☠")
    assert left == {k: v for k, v in records.items() if len(k) == 1}


@pytest.mark.parametrize("doc_id", ["rulebook-1995", "rulebook-2005"])
def test_real_documents_tree_and_lossless(doc_id: str, doc95, doc05) -> None:
    doc = doc95 if doc_id == "rulebook-1995" else doc05
    assert lossless_mismatch(doc) is None
    check_tree(doc)
    assert all(isinstance(r, Residue) for r in doc.residue)


def test_labels_stable_when_other_headings_change(source_bytes: dict[str, bytes]) -> None:
    data = source_bytes["rulebook-1995"].decode()
    edited = data.replace("Color\nEvery card in Magic", "Color\nNew text.\n\nEvery card in Magic")
    before = {r.number for r in rulebook_web.parse(data.encode()).rules}
    after = {r.number for r in rulebook_web.parse(edited.encode()).rules}
    assert after - before == {f"{S2}.color.p2"}
    assert before <= after
