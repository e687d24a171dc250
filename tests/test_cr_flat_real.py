"""Golden tests of the flattened Comprehensive Rules parser on the real source
cr-2009-02-01-flattened."""

from __future__ import annotations

import re
from collections import Counter
from itertools import pairwise

import pytest

from rulesdb.ingest.cr_flat import parse
from rulesdb.ingest.lossless import lossless_mismatch
from rulesdb.ingest.model import DocumentMeta, Example, GlossaryEntry, Rule
from rulesdb.numbers import LETTERS

from conftest import SOURCE_FILES

SEED = "cr-2009-02-01-flattened"

# --- the real document ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def doc(source_bytes: dict[str, bytes]):
    return parse(source_bytes[SEED])


@pytest.fixture(scope="module")
def text() -> str:
    return SOURCE_FILES[SEED].read_text(encoding="utf-8")


def span_of(text: str, printed: str) -> tuple[int, int]:
    """The span of the one occurrence of `printed` in `text`."""
    assert text.count(printed) == 1, printed
    start = text.index(printed)
    return (start, start + len(printed))


def test_real_counts(doc) -> None:
    assert Counter(r.kind for r in doc.rules) == {
        "chapter": 6,
        "section": 85,
        "rule": 489,
        "subrule": 694,
    }
    assert len(doc.rules) == 1274
    assert sum(len(r.examples) for r in doc.rules) == 166
    # 401 entries by blank lines in the structured release, and "Floor Rules", which it
    # prints with no blank line before it (see test_the_seed_glossary_is_the_releases)
    assert len(doc.glossary) == 402
    assert sum(len(g.examples) for g in doc.glossary) == 8
    assert sum(g.obsolete for g in doc.glossary) == 22


def test_real_counts_match_independent_grep(doc, text: str) -> None:
    body = text[text.index("Questions? 1. The Game") : text.index(" Glossary Ability ")]
    assert body.count("Example: ") == sum(len(r.examples) for r in doc.rules)
    # Subrule markers printed at a sentence start, cited numbers excluded by their lead word.
    printed = re.findall(
        r"(?<=[^,(\-] )(?<!\brule )(?<!\brules )(?<!\band )(?<!\bsee )(?<!\bof )(?<!\bto )"
        r"(\d{3}\.\d+[a-z])\.? (?=[A-Z\[\"_{(]|\d)",
        body,
    )
    assert len(set(printed)) == sum(r.kind == "subrule" for r in doc.rules)


def test_real_meta_and_parts(doc) -> None:
    assert doc.meta == DocumentMeta(
        kind="comprehensive_rules",
        title="Magic: The Gathering Comprehensive Rules",
        effective_date="2009-02-01",
        date_text="These rules are current as of February 1, 2009.",
        covers=("100-609",),
    )
    assert [p.name for p in doc.parts] == [
        "title",
        "introduction",
        "contents",
        "glossary",
        "credits",
    ]
    assert doc.parts[0].text == ("Magic: The Gathering Comprehensive Rules These rules are "
                                 "current as of February 1, 2009.")
    assert doc.parts[2].text.endswith("609. Teams Variant Glossary Credits Questions?")
    assert doc.parts[4].text.endswith("Visit our website: magicthegathering.com")


def test_real_warnings(doc) -> None:
    """The misprinted markers, the glossary's order slips, a section the contents lack;
    warnings of one kind past the third are counted."""
    assert doc.warnings == (
        "subrule 212.1b is printed with a period",
        "rule 216.4 is printed without its period",
        "subrule 600.4a is printed with a period",
        "subrule 600.4b is printed with a period",
        "rule 600.5 is printed without its period",
        "rule 609.6 is printed without its period",
        "glossary entry 'Basic Land Type' is out of alphabetical order",
        "glossary entry 'Characteristic-Defining Ability' is out of alphabetical order",
        "glossary entry 'Continuous Artifact (Obsolete)' is out of alphabetical order",
        "the glossary entry before 'Cumulative Upkeep' has no period",
        "the glossary entry before 'Landwalk' has no period",
        "211 is in the body but not in the contents",
        "3 more like: subrule 212.1b is printed with a period",
        "4 more like: glossary entry 'Basic Land Type' is out of alphabetical order",
    )


def test_real_chosen_rules(doc, text: str) -> None:
    by_number = {r.number: r for r in doc.rules}
    chapter_start = span_of(text, "Questions? 1. The Game 100. General 100.1.")[0] + 11
    assert by_number["1"] == Rule(
        number="1",
        parent=None,
        kind="chapter",
        text="The Game",
        marker="1.",
        title="The Game",
        span=(chapter_start, chapter_start + len("1. The Game")),
    )
    a = "100.1a A two-player game is a game that begins with only two players."
    assert by_number["100.1a"] == Rule(
        number="100.1a",
        parent="100.1",
        kind="subrule",
        text="A two-player game is a game that begins with only two players.",
        marker="100.1a",
        span=span_of(text, a),
    )
    assert by_number["502.9"] == Rule(
        number="502.9",
        parent="502",
        kind="rule",
        text="Trample",
        marker="502.9.",
        title="Trample",
        span=span_of(text, "502.9. Trample"),
    )
    rule = "609.3. At the start of the game, players are seated so that no one is next to a teammate and each team is equally spaced out."  # noqa: E501
    example = "In a Teams game with three teams, A, B, and C, the seating around the table at the start of the game is A1, B1, C1, A2, B2, C2, A3, B3, C3, and so on."  # noqa: E501
    start = span_of(text, rule)[0]
    example_start = span_of(text, "Example: " + example)[0]
    assert by_number["609.3"] == Rule(
        number="609.3",
        parent="609",
        kind="rule",
        text=rule.removeprefix("609.3. "),
        marker="609.3.",
        examples=(
            Example(
                text=example,
                span=(example_start, example_start + len("Example: " + example)),
            ),
        ),
        span=(start, example_start + len("Example: " + example)),
    )
    last = "609.6 In the Teams variant, a team's resources (cards in hand, mana, and so on) are not shared. Teammates can't review each other's hands unless they are sitting next to each other. Teammates may discuss strategies at any time. Teammates can't manipulate each other's cards or permanents."  # noqa: E501
    assert doc.rules[-1] == Rule(
        number="609.6",
        parent="609",
        kind="rule",
        text=last.removeprefix("609.6 "),
        marker="609.6",
        span=span_of(text, last),
    )
    blank = "211. [This section has been intentionally left blank to preserve the ordering of other rules.]"  # noqa: E501
    assert by_number["211"] == Rule(
        number="211",
        parent="2",
        kind="section",
        text=blank.removeprefix("211. "),
        marker="211.",
        title=blank.removeprefix("211. "),
        span=span_of(text, blank),
    )


def test_real_chapter_and_section_titles(doc) -> None:
    assert [(r.number, r.title) for r in doc.rules if r.kind == "chapter"] == [
        ("1", "The Game"),
        ("2", "Parts of the Game"),
        ("3", "Turn Structure"),
        ("4", "Spells, Abilities, and Effects"),
        ("5", "Additional Rules"),
        ("6", "Multiplayer Rules"),
    ]
    sections = [r for r in doc.rules if r.kind == "section"]
    assert [r.number for r in sections[:6]] == ["100", "101", "102", "103", "104", "200"]
    assert sections[-1].title == "Teams Variant"
    assert {r.number for r in doc.rules if r.kind == "rule" and r.title} >= {
        "205.2",
        "212.9",
        "217.9",
        "408.1",
        "419.9",
        "501.10",
        "502.2",
        "502.84",
        "606.6",
    }


def test_real_chosen_glossary_entries(doc, text: str) -> None:
    by_heading = {g.heading: g for g in doc.glossary}
    apnap = "APNAP Order See Active Player, Nonactive Player Order."
    assert by_heading["APNAP Order"] == GlossaryEntry(
        term="APNAP Order",
        definition="See Active Player, Nonactive Player Order.",
        heading="APNAP Order",
        see=("Active Player, Nonactive Player Order",),
        span=span_of(text, apnap),
    )
    order = 'Active Player, Nonactive Player Order Whenever multiple players are instructed to make choices at the same time, the active player makes all his or her choices first, then the nonactive players do so in turn order. This is called the "Active Player, Nonactive Player order" rule, or "APNAP order" rule. See rule 103.4. This rule is modified for Two-Headed Giant play; see rule 606.6d.'  # noqa: E501
    assert by_heading["Active Player, Nonactive Player Order"] == GlossaryEntry(
        term="Active Player, Nonactive Player Order",
        definition=order.removeprefix("Active Player, Nonactive Player Order "),
        heading="Active Player, Nonactive Player Order",
        span=span_of(text, order),
    )
    ante = "Ante (Obsolete) Earlier versions of the _Magic_ rules included an ante rule"
    ante_entry = by_heading["Ante (Obsolete)"]
    assert (ante_entry.term, ante_entry.obsolete, ante_entry.aliases) == ("Ante", True, ())
    assert ante_entry.span[0] == span_of(text, ante)[0]
    assert text[ante_entry.span[1] - 16 : ante_entry.span[1]] == 'rule 217.9, "Ante."'[-16:]
    cost = 'Activation Cost The activation cost of an activated ability is everything that appears before the colon in that ability\'s text. It must be paid to play the ability. See rule 403, "Activated Abilities."'  # noqa: E501
    example = 'The activation cost of an ability that reads "{2}, {T}: You gain 1 life" is two mana of any color plus tapping the permanent.'  # noqa: E501
    example_span = span_of(text, "Example: " + example)
    assert by_heading["Activation Cost"] == GlossaryEntry(
        term="Activation Cost",
        definition=cost.removeprefix("Activation Cost "),
        heading="Activation Cost",
        examples=(Example(text=example, span=example_span),),
        span=(span_of(text, cost)[0], example_span[1]),
    )
    control = by_heading["Control, Controller"]
    assert (control.term, control.aliases) == ("Control, Controller", ("Control", "Controller"))
    you = by_heading["You, Your"]
    assert (you.aliases, you.see) == (("You", "Your"), ("Controller", "Owner"))
    upkeep = by_heading["Cumulative Upkeep"]
    assert upkeep.definition.startswith("Cumulative upkeep is a triggered ability")
    assert by_heading["Creature Type"].definition.endswith("Zombie, Zubera")
    assert doc.glossary[0].heading == "Ability"
    assert doc.glossary[-1].heading == "Zone-Change Triggers"


def test_real_numbering_is_strictly_sequential(doc) -> None:
    """Each item is the successor of the one before it, by an independent rule."""

    def parts(number: str) -> tuple[int, int, int, str]:
        match = re.fullmatch(r"(\d+)(?:\.(\d+)([a-z]?))?", number)
        assert match, number
        head = int(match.group(1))
        if match.group(2) is None:
            return (head, 0, 0, "") if head < 10 else (head // 100, head, 0, "")
        return (head // 100, head, int(match.group(2)), match.group(3))

    previous = None
    for rule in doc.rules:
        current = parts(rule.number)
        if previous is None:
            assert rule.number == "1"
        elif rule.kind == "chapter":
            assert current[0] == previous[0] + 1
        elif rule.kind == "section":
            assert current[1] == (previous[1] + 1 if previous[1] else current[0] * 100)
        elif rule.kind == "rule":
            assert current[1] == previous[1]
            assert current[2] == previous[2] + 1
        else:
            assert current[:3] == previous[:3]
            expected = LETTERS[LETTERS.find(previous[3]) + 1] if previous[3] else "a"
            assert current[3] == expected
        previous = current


# Lowercase: a cited number follows "rule", "see", ...; headings end in "Rules", "Phase".
CITING = {"rule", "rules", "see", "and", "or", "of", "to", "in", "section", "sections", "by"}


def test_real_no_item_starts_inside_a_sentence(doc, text: str) -> None:
    for rule in doc.rules[1:]:
        before = text[: rule.span[0]].rstrip()
        last_word = before.rsplit(None, 1)[-1]
        assert last_word.strip('"(') not in CITING, rule.number
        assert not before.endswith((",", "(", "-")), rule.number


def test_real_spans_ordered_and_lossless(doc) -> None:
    spans = [item.span for item in doc.items()]
    assert all(a[1] <= b[0] for a, b in pairwise(spans))
    assert lossless_mismatch(doc) is None
    for rule in doc.rules:
        assert doc.text[rule.span[0] : rule.span[1]].startswith(rule.marker)


def test_real_glossary_is_mostly_alphabetical(doc) -> None:
    keys = [g.term.lower() for g in doc.glossary]
    ordered = sum(a < b for a, b in pairwise(keys))
    assert ordered >= len(keys) - 12
    assert all(
        g.definition and g.definition[0] in 'ABCDEFGHIJKLMNOPQRSTUVWXYZ"([_' for g in doc.glossary
    )
