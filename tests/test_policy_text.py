"""The judges' policy documents read from the text layer of their PDF (rulesdb.ingest.
policy_text, policy_lines, policy_infractions): constructs, errors, the shipped MTR and IPG
against their own tables of contents, and paragraphs read back whatever the page breaks."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesdb.ingest import policy_lines, policy_text
from rulesdb.ingest.lossless import lossless_mismatch
from rulesdb.ingest.model import ParseError
from rulesdb.ingest.policy_infractions import infraction
from rulesdb.ingest.policy_lines import fold

from policy_helpers import IPG, MTR, contents, parsed

HEAD = "\n\n1 \n \n\nMAGIC INFRACTION PROCEDURE GUIDE \nEffective September 23, 2024 \n\n"
CONTENTS = ("CONTENTS \n\n1.   General Philosophy ........ 3 \n\n"
            "2.  Game Play Errors ........ 7 \n"
            "2.1.      Game Play Error — Missed Trigger ....... 7 \n\n"
            "Appendix A — Penalty Quick Reference ........ 30 \n \n 2 \n \n\n")


def rules_of(body: str, contents: str = CONTENTS, head: str = HEAD) -> list[tuple]:
    """(number, kind, parent, title, text) of each rule of a small IPG made of `body`."""
    doc = policy_text.parse_text(head + contents + body)
    return [(r.number, r.kind, r.parent, r.title, r.text) for r in doc.rules]


CONSTRUCTS = [
    ("a heading with no body is its title, as a CR section",
     "1.   GENERAL PHILOSOPHY \n\n2.  GAME PLAY ERRORS \n",
     [("1", "chapter", None, "General Philosophy", "GENERAL PHILOSOPHY"),
      ("2", "chapter", None, "Game Play Errors", "GAME PLAY ERRORS")]),
    ("a hard-wrapped paragraph joined; a page number inside it left out",
     "1.   GENERAL PHILOSOPHY \nJudges are neutral arbiters. If a player \nmay need to \n\n"
     "3 \n \n acknowledge that ability’s existence, \nthey do. \n",
     [("1", "chapter", None, "General Philosophy",
       "Judges are neutral arbiters. If a player may need to acknowledge that ability’s "
       "existence, they do.")]),
    ("a page turn after the end of a sentence starts a paragraph",
     "1.   GENERAL PHILOSOPHY \nThe first paragraph ends here. \n 3 \n \n Only the Head "
     "Judge may authorize a backup. \n",
     [("1", "chapter", None, "General Philosophy",
       "The first paragraph ends here.\nOnly the Head Judge may authorize a backup.")]),
    ("a hyphen ending a line joins without a space, a spaced dash keeps it, an ordinal's "
     "suffix set on its own line joins its number",
     "1.   GENERAL PHILOSOPHY \nany DCI-\nsanctioned tournament is Game Play Error —\n"
     "Looking at Extra Cards, seeded from 1st through 8\nth. \n",
     [("1", "chapter", None, "General Philosophy",
       "any DCI-sanctioned tournament is Game Play Error — Looking at Extra Cards, seeded "
       "from 1st through 8th.")]),
    ("bullets and lettered examples are lines of their own; a wrapped one is joined",
     "1.   GENERAL PHILOSOPHY \nStatus information consists of: \n\n•  Life total. \n"
     "•  Continuous effects with no defined expiration within the game that apply to that \n"
     "player. \nExamples \nA.  A player draws four cards. \nB.  A player scries two \ncards. \n",
     [("1", "chapter", None, "General Philosophy",
       "Status information consists of:\n• Life total.\n• Continuous effects with no "
       "defined expiration within the game that apply to that player.\nExamples\n"
       "A. A player draws four cards.\nB. A player scries two cards.")]),
    ("an infraction's heading prints its penalty; its sub-headings stand above their text",
     "2.  GAME PLAY ERRORS \n\n2.1.      Game Play Error — Missed Trigger  No Penalty \n\n"
     "Definition \nA triggered ability triggers. \n  Upgrade: If the triggered ability is \n"
     "detrimental, the penalty is a Warning. \n",
     [("2", "chapter", None, "Game Play Errors", "GAME PLAY ERRORS"),
      ("2.1", "infraction", "2", "Game Play Error — Missed Trigger",
       "Definition\nA triggered ability triggers.\nUpgrade: If the triggered ability is "
       "detrimental, the penalty is a Warning.")]),
    ("a table's rows keep their cells apart (a tab); the credits are no appendix's text",
     "APPENDIX A — PENALTY QUICK REFERENCE \n\nInfraction  Penalty \n\nMissed Trigger  None \n"
     "Looking at Extra Cards  Warning \n \n  All trademarks are property of Wizards. ©2024 \n",
     [("A", "appendix", None, "Penalty Quick Reference",
       "Infraction\tPenalty\nMissed Trigger\tNone\nLooking at Extra Cards\tWarning")]),
    ("a line looking like a heading but not in the contents is text",
     "1.   GENERAL PHILOSOPHY \n\n1.  Match points \n2.  Opponents’ match-win percentage \n",
     [("1", "chapter", None, "General Philosophy",
       "1. Match points\n2. Opponents’ match-win percentage")]),
]


@pytest.mark.parametrize(("body", "expected"), [c[1:] for c in CONSTRUCTS],
                         ids=[c[0] for c in CONSTRUCTS])
def test_constructs(body: str, expected: list[tuple]) -> None:
    assert rules_of(body) == expected


def test_without_contents_headings_are_read_as_printed() -> None:
    body = ("Introduction \n\nThis document is the rules. \n\n1.  Tournament Fundamentals \n\n"
            "1.1  Tournament Types \n\nThere are two types. \n\n1.  Match points \n\n"
            "Appendix A—Changes From Previous Versions \n\nNone. \n")
    head = "MAGIC: THE GATHERING® TOURNAMENT RULES \nEffective February 27, 2026 \n\n"
    assert rules_of(body, contents="", head=head) == [
        ("introduction", "preface", None, "Introduction", "This document is the rules."),
        ("1", "chapter", None, "Tournament Fundamentals", "Tournament Fundamentals"),
        ("1.1", "section", "1", "Tournament Types", "There are two types.\n1. Match points"),
        ("A", "appendix", None, "Changes From Previous Versions", "None.")]


@pytest.mark.parametrize(("head", "kind", "effective", "warning"), [
    ("MAGIC: THE GATHERING® TOURNAMENT RULES \nEffective February 27, 2026",
     "tournament_rules", "2026-02-27", None),
    ("\n\n1 \n \nMAGIC INFRACTION PROCEDURE GUIDE \nEffective September 23, 2024",
     "infraction_procedure_guide", "2024-09-23", None),
    ("MAGIC INFRACTION PROCEDURE GUIDE \nEffective Febuary 30, 2024",
     "infraction_procedure_guide", None, "the printed date cannot be read: "
     "'Effective Febuary 30, 2024'"),
    ("Magic: The Gathering Tournament Rules\nno date here", "tournament_rules", None, None),
])
def test_kind_and_date_from_the_title_and_effective_lines(head, kind, effective,
                                                           warning) -> None:
    doc = policy_text.parse_text(head + "\n\nIntroduction\n\nText.\n")
    assert (doc.meta.kind, doc.meta.effective_date) == (kind, effective)
    assert list(doc.warnings) == ([warning] if warning else [])


@pytest.mark.parametrize("text", [
    "", "Magic: The Gathering Comprehensive Rules\n\n100. General\n",
    "See the Magic: The Gathering Tournament Rules (found at WPN) for more.\n"])
def test_a_text_without_a_policy_title_line_is_refused(text: str) -> None:
    with pytest.raises(ParseError, match="not a Magic Tournament Rules nor an Infraction"):
        policy_text.parse_text(text)
    assert policy_text.kind_of(text) is None


# -- the shipped documents ---------------------------------------------------------------


def _label(rule) -> str:
    """A rule's entry as the contents print it, folded."""
    if rule.kind == "preface":
        return fold(rule.title)
    if rule.kind == "appendix":
        return fold(f"appendix {rule.number}—{rule.title}")
    return fold(f"{rule.number} {rule.title}")


@pytest.mark.parametrize("path", [MTR, IPG], ids=["mtr", "ipg"])
def test_every_heading_of_the_contents_is_found_in_order(path) -> None:
    doc = parsed(path)
    listed = [fold(re.sub(r"^(\d+(?:\.\d+)?)\.(?=\s)", r"\1", label)) for label in contents(path)]
    headings = [_label(rule) for rule in doc.rules]
    # the contents' other entries are the sub-headings of appendices: lines of their text
    sub = [label for label in listed if label not in headings]
    assert [label for label in listed if label in headings] == headings
    texts = {fold(line) for rule in doc.rules if rule.kind == "appendix"
             for line in rule.text.split("\n")}
    assert sub == [label for label in sub if label in texts]
    assert len(headings) == {MTR: 104, IPG: 36}[path]
    assert doc.warnings == ()


@pytest.mark.parametrize("path", [MTR, IPG], ids=["mtr", "ipg"])
def test_no_page_number_or_contents_line_survives_in_a_text(path) -> None:
    doc = parsed(path)
    pages = [r.text for r in doc.residue if r.reason == "page number"]
    assert pages == [str(n) for n in range(1, len(pages) + 1)]
    assert len(pages) == {MTR: 56, IPG: 31}[path]
    for rule in doc.rules:
        for line in rule.text.split("\n"):
            assert not re.fullmatch(r"\d{1,2}", line.strip()), (rule.number, line)
            assert not policy_lines.LEADERS.search(line), (rule.number, line)
    assert lossless_mismatch(doc, spacing=False) is None


def test_paragraphs_broken_by_a_page_read_whole() -> None:
    ipg = {rule.number: rule.text for rule in parsed(IPG).rules}
    assert ("that player may need to acknowledge that ability’s existence before its "
            "controller does.") in ipg["2.1"]
    assert "Other instances of theft not involving tournament materials" in ipg["4.6"]
    mtr = {rule.number: rule.text for rule in parsed(MTR).rules}
    assert "• Tournament Organizers may choose to age restrict any Regular REL" in mtr["1.4"]
    assert "seeded in order from 1st through 8th. Seeding is determined by:" in mtr["10.4"]


def test_every_infraction_has_its_penalty_as_the_quick_reference_gives_it() -> None:
    doc = parsed(IPG)
    found = [infraction(rule) for rule in doc.rules if rule.kind == "infraction"]
    assert len(found) == 23
    table = dict(line.split("\t") for line in next(
        r for r in doc.rules if r.number == "A").text.split("\n") if "\t" in line)
    for item in found:
        assert item is not None and item.penalty is not None
        listed = table.get(item.name) or table[f"{item.category} — {item.name}"]
        assert item.penalty == {"None": "No Penalty"}.get(listed, listed), item.number


def test_an_infraction_read_into_its_parts() -> None:
    rule = next(r for r in parsed(IPG).rules if r.number == "3.1")
    item = infraction(rule)
    assert item is not None
    assert (item.category, item.name, item.penalty) == ("Tournament Error", "Tardiness",
                                                       "Game Loss")
    assert item.definition.startswith("A player is not in their seat at the beginning")
    assert item.examples[0] == "A player arrives to their seat 5 minutes after the round begins."
    assert len(item.examples) == 4
    assert item.philosophy.startswith("Players are responsible for being on time")
    assert item.additional_remedy == ("The players are given a time extension corresponding "
                                      "to the length of the tardiness.")
    assert item.upgrade.startswith("A player not in their seat 10 minutes into the round")
    assert item.downgrade == ("A player who arrives at their seat before 1 minute has elapsed "
                              "in the round receives a Warning.")
    several = infraction(next(r for r in parsed(IPG).rules if r.number == "3.5"))
    assert several is not None and several.upgrade.count("\n") == 3  # three upgrades, one
    assert infraction(next(r for r in parsed(IPG).rules if r.number == "1.1")) is None


# -- paragraphs read back whatever the page breaks ----------------------------------------

_WORD = st.text(alphabet="abcdefghij", min_size=1, max_size=8)


@st.composite
def _documents(draw) -> tuple[list[str], str]:
    """Paragraphs (a sentence each, some of them bullets) and a text layer of them:
    hard-wrapped at a drawn width, page numbers set between lines at drawn places."""
    paragraphs = []
    for _ in range(draw(st.integers(1, 8))):
        words = draw(st.lists(_WORD, min_size=1, max_size=40))
        text = " ".join(words) + "."
        paragraphs.append(("• " if draw(st.booleans()) else "") + text)
    width = draw(st.integers(20, 90))
    lines: list[str] = []
    for paragraph in paragraphs:
        line = ""
        for word in paragraph.replace("• ", "•  ").split(" "):
            if line and len(line) + 1 + len(word) > width:
                lines.append(line + " ")
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(line + " ")
        lines.append("")
    page = 1
    out = []
    for line in lines:
        out.append(line)
        if draw(st.integers(0, 5)) == 0:
            page += 1
            out += [f" {page} ", " "]
            if out[-3] == "":  # a paragraph ended: the next page's first line stands lower
                out.append("")
    return paragraphs, "\n".join(out)


@settings(max_examples=200, deadline=None)
@given(_documents())
def test_paragraphs_are_read_back_from_any_wrapping_and_page_breaks(drawn) -> None:
    paragraphs, text = drawn
    lines = policy_lines.source_lines(" 1 \n \n" + text)
    pages = policy_lines.page_numbers(lines)
    found = policy_lines.paragraphs(lines, pages, lambda line: False)
    assert [p.text for p in found] == paragraphs
