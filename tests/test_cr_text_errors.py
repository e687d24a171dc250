"""Comprehensive Rules text parser on bad input: empty, binary, prose, other formats and
truncated documents."""

from __future__ import annotations

import pytest

from rulesdb.ingest.cr_text import parse
from rulesdb.ingest.lossless import lossless_mismatch
from rulesdb.ingest.model import ParseError

from conftest import SOURCE_FILES
from cr_text_helpers import SEED, WHOLE, parse_text, read_seed


@pytest.fixture(scope="module")
def seed_text() -> str:
    return read_seed()


# --- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(b"", id="empty"),
        pytest.param(b"   \n\n", id="blank"),
        pytest.param(b"\x00\x01\x02binary\xff\xfe\x00", id="binary"),
        pytest.param(b"Just some prose.\nNo rules here.\n", id="prose"),
        pytest.param(b"1. A list\n2. Another item\n", id="list-not-rules"),
    ],
)
def test_bad_input(data: bytes) -> None:
    with pytest.raises(ParseError):
        parse(data)


@pytest.mark.parametrize("doc_id", [d for d in SOURCE_FILES if d != SEED])
def test_other_formats_rejected(doc_id: str, source_bytes: dict[str, bytes]) -> None:
    with pytest.raises(ParseError):
        parse(source_bytes[doc_id])


@pytest.mark.parametrize("fraction", [0.13, 0.5, 0.77, 0.999])
def test_truncated_seed(fraction: float, seed_text: str) -> None:
    cut = int(len(seed_text) * fraction)
    while seed_text[cut - 1] in ".”\n ":  # cut inside a sentence, not at its end
        cut += 1
    with pytest.raises(ParseError) as info:
        parse_text(seed_text[:cut])
    assert info.value.message.startswith("the document stops inside")


def test_truncated_heading() -> None:
    with pytest.raises(ParseError):
        parse_text("700. General\n\n700.1. A rule.\n\n701. Keyword Actions\n")


def test_truncated_before_glossary() -> None:
    with pytest.raises(ParseError) as info:
        parse_text(WHOLE[: WHOLE.index("\nGlossary\n\nControl")])
    assert info.value.message == "the Glossary listed in the contents is missing"


def test_cut_off_before_credits_keeps_a_partial_document() -> None:
    doc = parse_text(WHOLE[: WHOLE.index("\nCredits\n\nGame")])
    assert [entry.term for entry in doc.glossary] == [
        "Control, Controller", "Active Player, Nonactive Player Order", "Bury"]
    assert doc.meta.cut_off == "glossary cut off after Bury"
    assert doc.meta.covers == ("100-100", "glossary cut off after Bury")
    assert doc.warnings[-1] == (
        "the copy stops in the glossary (the Credits listed in the contents are missing): "
        "stored as a partial edition with the rules and 3 glossary entries, up to Bury")
    assert lossless_mismatch(doc) is None


def test_cut_off_inside_a_glossary_entry_keeps_the_entries_before_it() -> None:
    text = WHOLE[: WHOLE.index("A system. See rule")] + "A sys"
    doc = parse_text(text)
    assert [entry.term for entry in doc.glossary] == ["Control, Controller"]
    assert doc.meta.cut_off == "glossary cut off after Control, Controller"
    assert doc.residue[-1].text == "Active Player, Nonactive Player Order\nA sys"
    assert doc.residue[-1].reason == "cut off: the copy stops inside this glossary entry"
    assert "inside entry 'Active Player, Nonactive Player Order'" in doc.warnings[-1]
    assert lossless_mismatch(doc) is None


def test_a_whole_glossary_without_credits_is_whole() -> None:
    text = WHOLE.replace("\nCredits\n\n1. Game", "\n1. Game")
    doc = parse_text(text[: text.index("\nCredits\n\nGame")])
    assert doc.meta.cut_off is None
    assert len(doc.glossary) == 3


def test_contents_naming_the_first_chapter_otherwise() -> None:
    # 2009-07-11 lists "1. Game Concepts" and prints "1. The Game"; its contents also list
    # an entry after "Credits" ("Questions?").
    text = WHOLE.replace("Credits\n\n1. Game Concepts\n\n100.",
                         "Credits\n\nQuestions?\n\n1. The Game\n\n100.")
    doc = parse_text(text)
    assert [(rule.number, rule.text) for rule in doc.rules[:2]] == [
        ("1", "The Game"), ("100", "General")]
    assert len(doc.glossary) == 3
    assert lossless_mismatch(doc) is None
