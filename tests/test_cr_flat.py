"""Tests of the flattened Comprehensive Rules parser (ingest/cr_flat.py, cr_flat_glossary.py)."""

from __future__ import annotations

import re
from collections import Counter
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesdb.ingest.cr_flat import parse
from rulesdb.ingest.lossless import lossless_mismatch
from rulesdb.ingest.model import DocumentMeta, Example, GlossaryEntry, ParseError, Part, Rule

from conftest import SOURCE_FILES

SEED = "cr-2009-02-01"
HEAD = (
    "Magic: The Gathering Comprehensive Rules These rules are current as of February 1, 2009. "
    "Introduction Read this first. Contents 1. The Game 100. General Glossary Credits Questions? "
)
GLOSSARY = "Absorb Absorb is a static ability that prevents damage."
TAIL = "Credits Editing: Del Laugel. Questions? Contact the office nearest you."


def make_doc(body: str, glossary: str = GLOSSARY, tail: str = TAIL) -> bytes:
    """A small flattened CR: head, `body`, the glossary and the credits on one line."""
    return f"{HEAD}{body} Glossary {glossary} {tail}".encode()


def brief(doc) -> list[tuple]:
    """(kind, number, parent, marker, text, title, example texts) per rule."""
    return [
        (r.kind, r.number, r.parent, r.marker, r.text, r.title, [e.text for e in r.examples])
        for r in doc.rules
    ]


def glossary_brief(doc) -> list[tuple]:
    """(heading, term, aliases, obsolete, definition, see, example texts) per entry."""
    return [
        (
            g.heading,
            g.term,
            g.aliases,
            g.obsolete,
            g.definition,
            g.see,
            [e.text for e in g.examples],
        )
        for g in doc.glossary
    ]


START = "1. The Game 100. General"
CH1 = ("chapter", "1", None, "1.", "The Game", "The Game", [])
SEC100 = ("section", "100", "1", "100.", "General", "General", [])

# --- synthetic documents: each construct and each quirk -----------------------------------

RULE_CASES = [
    pytest.param(
        f"{START} 100.1. Rules apply. 100.1a Two players. 100.1b More players.",
        [
            CH1,
            SEC100,
            ("rule", "100.1", "100", "100.1.", "Rules apply.", None, []),
            ("subrule", "100.1a", "100.1", "100.1a", "Two players.", None, []),
            ("subrule", "100.1b", "100.1", "100.1b", "More players.", None, []),
        ],
        [],
        id="chapter-section-rule-subrule",
    ),
    pytest.param(
        f"{START} 100.1. See rule 100.2. 100.1a See rules 100.1b-100.1c and 100.2. "
        "100.1b As in 100.2, stop. 100.2. Two.",
        [
            CH1,
            SEC100,
            ("rule", "100.1", "100", "100.1.", "See rule 100.2.", None, []),
            (
                "subrule",
                "100.1a",
                "100.1",
                "100.1a",
                "See rules 100.1b-100.1c and 100.2.",
                None,
                [],
            ),
            ("subrule", "100.1b", "100.1", "100.1b", "As in 100.2, stop.", None, []),
            ("rule", "100.2", "100", "100.2.", "Two.", None, []),
        ],
        [],
        id="numbers-inside-sentences",
    ),
    pytest.param(
        f"{START} 100.1. Refer to 100.3. 100.3. Is not next. 100.2. Is next.",
        [
            CH1,
            SEC100,
            ("rule", "100.1", "100", "100.1.", "Refer to 100.3. 100.3. Is not next.", None, []),
            ("rule", "100.2", "100", "100.2.", "Is next.", None, []),
        ],
        [],
        id="only-the-successor-starts-an-item",
    ),
    pytest.param(
        f"{START} 100.1. Letters. " + " ".join(f"100.1{c} Item {c}." for c in "abcdefghijkmnp"),
        [CH1, SEC100, ("rule", "100.1", "100", "100.1.", "Letters.", None, [])]
        + [
            ("subrule", f"100.1{c}", "100.1", f"100.1{c}", f"Item {c}.", None, [])
            for c in "abcdefghijkmnp"
        ],
        [],
        id="letters-skip-l-and-o",
    ),
    pytest.param(
        f"{START} 100.1. One. 100.1a. Dotted. 100.2 Undotted.",
        [
            CH1,
            SEC100,
            ("rule", "100.1", "100", "100.1.", "One.", None, []),
            ("subrule", "100.1a", "100.1", "100.1a.", "Dotted.", None, []),
            ("rule", "100.2", "100", "100.2", "Undotted.", None, []),
        ],
        ["subrule 100.1a is printed as '100.1a.'", "rule 100.2 is printed as '100.2'"],
        id="misprinted-markers",
    ),
    pytest.param(
        f"{START} 100.1. Trample 100.1a Trample is static. Example: A 2/2 blocks. "
        "Example: Another. 101. Starting 101.1. Shuffle.",
        [
            CH1,
            SEC100,
            ("rule", "100.1", "100", "100.1.", "Trample", "Trample", []),
            (
                "subrule",
                "100.1a",
                "100.1",
                "100.1a",
                "Trample is static.",
                None,
                ["A 2/2 blocks.", "Another."],
            ),
            ("section", "101", "1", "101.", "Starting", "Starting", []),
            ("rule", "101.1", "101", "101.1.", "Shuffle.", None, []),
        ],
        ["101 is in the body but not in the contents"],
        id="heading-rule-examples-next-section",
    ),
    pytest.param(
        f"{START} 100.1. One. 101. [This section has been left blank.] 102. Winning "
        "102.1. Win. 2. Parts 200. General 200.1. Cards.",
        [
            CH1,
            SEC100,
            ("rule", "100.1", "100", "100.1.", "One.", None, []),
            (
                "section",
                "101",
                "1",
                "101.",
                "[This section has been left blank.]",
                "[This section has been left blank.]",
                [],
            ),
            ("section", "102", "1", "102.", "Winning", "Winning", []),
            ("rule", "102.1", "102", "102.1.", "Win.", None, []),
            ("chapter", "2", None, "2.", "Parts", "Parts", []),
            ("section", "200", "2", "200.", "General", "General", []),
            ("rule", "200.1", "200", "200.1.", "Cards.", None, []),
        ],
        [f"{n} is in the body but not in the contents" for n in ("2", "101", "102", "200")],
        id="empty-section-and-next-chapter",
    ),
    pytest.param(
        f"{START} 100.1. Players choose 1. 2. or more. 100.2. Done.",
        [
            CH1,
            SEC100,
            ("rule", "100.1", "100", "100.1.", "Players choose 1. 2. or more.", None, []),
            ("rule", "100.2", "100", "100.2.", "Done.", None, []),
        ],
        [],
        id="small-numbers-are-not-chapters-mid-section",
    ),
]


@pytest.mark.parametrize(("body", "expected", "warnings"), RULE_CASES)
def test_rule_constructs(body: str, expected: list[tuple], warnings: list[str]) -> None:
    doc = parse(make_doc(body))
    assert brief(doc) == expected
    assert [w for w in doc.warnings if "contents" in w or "printed" in w] == warnings
    assert lossless_mismatch(doc) is None


GLOSSARY_CASES = [
    pytest.param(
        "Absorb Absorb is static. Active Player The active player acts. "
        'Active Player, Nonactive Player Order The "Active Player, Nonactive Player order" '
        "rule. APNAP Order See Active Player, Nonactive Player Order.",
        [
            ("Absorb", "Absorb", (), False, "Absorb is static.", (), []),
            ("Active Player", "Active Player", (), False, "The active player acts.", (), []),
            (
                "Active Player, Nonactive Player Order",
                "Active Player, Nonactive Player Order",
                (),
                False,
                'The "Active Player, Nonactive Player order" rule.',
                (),
                [],
            ),
            (
                "APNAP Order",
                "APNAP Order",
                (),
                False,
                "See Active Player, Nonactive Player Order.",
                ("Active Player, Nonactive Player Order",),
                [],
            ),
        ],
        id="repeated-heading-article-see",
    ),
    pytest.param(
        "Ante (Obsolete) Earlier rules had ante. Control, Controller A permanent's controller "
        "plays it. Owner The owner started with it. See also Control, Owner.",
        [
            ("Ante (Obsolete)", "Ante", (), True, "Earlier rules had ante.", (), []),
            (
                "Control, Controller",
                "Control, Controller",
                ("Control", "Controller"),
                False,
                "A permanent's controller plays it.",
                (),
                [],
            ),
            (
                "Owner",
                "Owner",
                (),
                False,
                "The owner started with it. See also Control, Owner.",
                ("Control", "Owner"),
                [],
            ),
        ],
        id="obsolete-aliases-see-also",
    ),
    pytest.param(
        "Sacrifice To sacrifice a permanent, move it. Sacrificing a permanent doesn't destroy "
        "it. Scry To scry, look. Example: You scry 2. Shadow Shadow is evasion.",
        [
            (
                "Sacrifice",
                "Sacrifice",
                (),
                False,
                "To sacrifice a permanent, move it. Sacrificing a permanent doesn't destroy it.",
                (),
                [],
            ),
            ("Scry", "Scry", (), False, "To scry, look.", (), ["You scry 2."]),
            ("Shadow", "Shadow", (), False, "Shadow is evasion.", (), []),
        ],
        id="sentence-in-definition-is-not-a-heading",
    ),
    pytest.param(
        "Creature Type The list: Wall, Zombie, Zubera Cumulative Upkeep Cumulative upkeep "
        "is a cost. Depend On An effect depends. The Grand Melee variant is big. Zone A zone.",
        [
            ("Creature Type", "Creature Type", (), False, "The list: Wall, Zombie, Zubera", (), []),
            (
                "Cumulative Upkeep",
                "Cumulative Upkeep",
                (),
                False,
                "Cumulative upkeep is a cost.",
                (),
                [],
            ),
            (
                "Depend On",
                "Depend On",
                (),
                False,
                "An effect depends. The Grand Melee variant is big.",
                (),
                [],
            ),
            ("Zone", "Zone", (), False, "A zone.", (), []),
        ],
        id="unterminated-list-particle-heading",
    ),
]


@pytest.mark.parametrize(("glossary", "expected"), GLOSSARY_CASES)
def test_glossary_constructs(glossary: str, expected: list[tuple]) -> None:
    doc = parse(make_doc(f"{START} 100.1. One.", glossary=glossary))
    assert glossary_brief(doc) == expected
    assert lossless_mismatch(doc) is None


def test_synthetic_parts_and_meta() -> None:
    doc = parse(make_doc(f"{START} 100.1. One."))
    assert doc.meta == DocumentMeta(
        kind="comprehensive_rules",
        title="Magic: The Gathering Comprehensive Rules",
        effective_date="2009-02-01",
        date_text="These rules are current as of February 1, 2009.",
        covers=("100-100",),
    )
    assert [(p.name, p.text) for p in doc.parts] == [
        ("title", "Magic: The Gathering Comprehensive Rules"),
        ("date", "These rules are current as of February 1, 2009."),
        ("introduction", "Introduction Read this first."),
        ("contents", "Contents 1. The Game 100. General Glossary Credits Questions?"),
        ("glossary", "Glossary"),
        ("credits", "Credits Editing: Del Laugel."),
        ("questions", "Questions? Contact the office nearest you."),
    ]


# --- bad input ------------------------------------------------------------------------------

BAD_INPUTS = [
    pytest.param(b"", id="empty"),
    pytest.param(b"\x00\x01\x02\x03binary\x00", id="binary"),
    pytest.param(b"Just some text. 1. A list 2. of things.", id="no-title"),
    pytest.param(b"Magic: The Gathering Comprehensive Rules Introduction text.", id="no-date"),
    pytest.param(
        make_doc(f"{START} 100.1. One.")[: -len(TAIL) - len(GLOSSARY) - 20], id="no-glossary"
    ),
    pytest.param(make_doc(f"{START} 100.1. One.")[: -len(TAIL) - 10], id="truncated-glossary"),
    pytest.param(make_doc(f"{START} 100.1. One rule that stops"), id="rule-mid-sentence"),
    pytest.param(HEAD.encode() + b"1. The Game 100. General Glossary Credits", id="no-rules"),
]


@pytest.mark.parametrize("data", BAD_INPUTS)
def test_bad_input_raises(data: bytes) -> None:
    with pytest.raises(ParseError):
        parse(data)


@pytest.mark.parametrize("other", ["cr-2025-06-06", "rulings-1999-04", "rulebook-2005"])
def test_other_formats_raise(source_bytes: dict[str, bytes], other: str) -> None:
    with pytest.raises(ParseError):
        parse(source_bytes[other])


@pytest.mark.parametrize("cut", [0.1, 0.5, 0.7, 0.9, 0.99])
def test_truncated_real_document_raises(source_bytes: dict[str, bytes], cut: float) -> None:
    data = source_bytes[SEED]
    with pytest.raises(ParseError):
        parse(data[: int(len(data) * cut)])


# --- property: generated documents parse back to their structure -------------------------

LETTERS = "abcdefghijkmnpqrstuvwxyz"
SENTENCES = st.sampled_from(
    [
        "Players act.",
        "See rule {ref}.",
        "This follows rules {ref} and {ref}.",
        "As described in {ref}, nothing happens.",
        "It is an exception to rule {ref}.",
        'See rule {ref}, "Heading."',
    ]
)


@st.composite
def documents(draw) -> tuple[str, list[tuple[str, str]]]:
    """A generated body and its (number, kind) items, citing numbers everywhere."""
    items: list[tuple[str, str]] = []
    for chapter in range(1, draw(st.integers(1, 3)) + 1):
        items.append((str(chapter), "chapter"))
        for section in range(chapter * 100, chapter * 100 + draw(st.integers(1, 3))):
            items.append((str(section), "section"))
            for rule in range(1, draw(st.integers(1, 4)) + 1):
                items.append((f"{section}.{rule}", "rule"))
                for letter in LETTERS[: draw(st.integers(0, 13))]:
                    items.append((f"{section}.{rule}{letter}", "subrule"))
    numbers = [n for n, _ in items]
    parts = []
    for number, kind in items:
        if kind in ("chapter", "section"):
            title = "The Game" if number == "1" else ("General" if number == "100" else "Title")
            parts.append(f"{number}. {title}")
            continue
        marker = f"{number}." if kind == "rule" else number
        text = " ".join(
            draw(SENTENCES).replace("{ref}", draw(st.sampled_from(numbers)))
            for _ in range(draw(st.integers(1, 3)))
        )
        parts.append(f"{marker} {text}")
    return " ".join(parts), items


@settings(max_examples=60, deadline=None)
@given(documents())
def test_generated_documents_parse_back(generated: tuple[str, list[tuple[str, str]]]) -> None:
    body, items = generated
    doc = parse(make_doc(body))
    assert [(r.number, r.kind) for r in doc.rules] == items
    spans = [item.span for item in doc.items()]
    assert all(a[1] <= b[0] for a, b in pairwise(spans))
    for rule in doc.rules:
        assert rule.parent is None or rule.number.startswith(rule.parent)
    assert lossless_mismatch(doc) is None


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
    assert len(doc.glossary) == 397
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
        "date",
        "introduction",
        "contents",
        "glossary",
        "credits",
        "questions",
    ]
    assert doc.parts[3].text.endswith("609. Teams Variant Glossary Credits Questions?")
    assert doc.parts[5].text.endswith("U.S. Pat. No. RE 37,957.")


def test_real_warnings(doc) -> None:
    assert doc.warnings == (
        "subrule 212.1b is printed as '212.1b.'",
        "rule 216.4 is printed as '216.4'",
        "subrule 600.4a is printed as '600.4a.'",
        "subrule 600.4b is printed as '600.4b.'",
        "rule 600.5 is printed as '600.5'",
        "subrule 606.4b is printed as '606.4b.'",
        "subrule 606.6b is printed as '606.6b.'",
        "subrule 606.7b is printed as '606.7b.'",
        "rule 609.6 is printed as '609.6'",
        "211 is in the body but not in the contents",
        "glossary entry 'Basic Landcycling' is out of alphabetical order",
        "glossary entry 'Characteristics' is out of alphabetical order",
        "glossary entry 'Continuous Effect' is out of alphabetical order",
        "glossary entry 'Frenzy' is out of alphabetical order",
        "glossary entry 'Reach' is out of alphabetical order",
        "glossary entry 'Snow-Covered (Obsolete)' is out of alphabetical order",
        "glossary entry 'Type Line' is out of alphabetical order",
        "the glossary entry before 'Cumulative Upkeep' has no period",
        "the glossary entry before 'Landwalk' has no period",
        "the glossary entry before 'Toughness' has no period",
        "glossary entry 'One-Shot Effect': unresolved 'See Continuous Effects'",
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




def test_real_parts_are_parts(doc) -> None:
    assert all(isinstance(p, Part) for p in doc.parts)
    assert doc.parts[0].text == "Magic: The Gathering Comprehensive Rules"
