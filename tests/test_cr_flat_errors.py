"""Flattened Comprehensive Rules parser on bad input: empty, binary, missing parts, other
formats, and documents cut off (an error inside the rules, a partial edition inside the
glossary, as the one-rule-per-line parser does)."""

from __future__ import annotations

import pytest

from rulesdb.ingest import cr_text
from rulesdb.ingest.cr_flat import parse
from rulesdb.ingest.lossless import lossless_mismatch
from rulesdb.ingest.model import ParseError

from cr_flat_helpers import GLOSSARY, HEAD, START, TAIL, make_doc

SEED = "cr-2009-02-01-flattened"


# --- bad input ------------------------------------------------------------------------------

BAD_INPUTS = [
    pytest.param(b"", id="empty"),
    pytest.param(b"\x00\x01\x02\x03binary\x00", id="binary"),
    pytest.param(b"Just some text. 1. A list 2. of things.", id="no-title"),
    pytest.param(b"Magic: The Gathering Comprehensive Rules Introduction text.", id="no-date"),
    pytest.param(
        make_doc(f"{START} 100.1. One.")[: -len(TAIL) - len(GLOSSARY) - 20], id="no-glossary"
    ),
    pytest.param(make_doc(f"{START} 100.1. One rule that stops"), id="rule-mid-sentence"),
    pytest.param(HEAD.encode() + b"1. The Game 100. General Glossary Credits", id="no-rules"),
]


@pytest.mark.parametrize("data", BAD_INPUTS)
def test_bad_input_raises(data: bytes) -> None:
    with pytest.raises(ParseError):
        parse(data)


@pytest.mark.parametrize("other", ["rulings-1999-04", "rulebook-2005"])
def test_other_formats_raise(source_bytes: dict[str, bytes], other: str) -> None:
    with pytest.raises(ParseError):
        parse(source_bytes[other])


def test_a_fragment_with_its_line_breaks_reads_as_the_line_parser_reads_it(
        source_bytes: dict[str, bytes]) -> None:
    data = source_bytes["cr-2025-06-06-chapter7"]
    flat, lines = parse(data), cr_text.parse(data)
    assert [(r.number, " ".join(r.text.split())) for r in flat.rules] == \
        [(r.number, " ".join(r.text.split())) for r in lines.rules]
    assert flat.meta == lines.meta


def test_a_glossary_cut_off_keeps_what_it_has() -> None:
    doc = parse(make_doc(f"{START} 100.1. One.", glossary=f"{GLOSSARY} Zone A zone is",
                         tail=""))
    assert doc.meta.cut_off == "glossary cut off after Absorb"
    assert [g.heading for g in doc.glossary] == ["Absorb"]
    assert [(r.text, r.reason) for r in doc.residue] == [
        ("Zone A zone is", "cut off: the copy stops inside this glossary entry")]


@pytest.mark.parametrize("cut", [0.1, 0.5, 0.68])
def test_real_document_cut_off_in_its_rules_raises(source_bytes: dict[str, bytes],
                                                   cut: float) -> None:
    data = source_bytes[SEED]
    with pytest.raises(ParseError, match="Glossary listed in the contents is missing"):
        parse(data[: int(len(data) * cut)])


@pytest.mark.parametrize("cut", [0.7, 0.9, 0.99])
def test_real_document_cut_off_in_its_glossary_is_partial(source_bytes: dict[str, bytes],
                                                          cut: float) -> None:
    data = source_bytes[SEED]
    doc = parse(data[: int(len(data) * cut)])
    assert doc.meta.cut_off is not None
    assert doc.meta.cut_off.startswith("glossary cut off after ")
    assert 0 < len(doc.glossary) < 402
    assert len(doc.rules) == 1274


def test_a_fragment_may_open_with_its_title_and_date() -> None:
    doc = parse(b"Magic: The Gathering Comprehensive Rules These rules are effective as of "
                b"June 6, 2025. 702. Keyword Abilities 702.1. Most abilities describe what "
                b"they do. 702.2. Deathtouch 702.2a Deathtouch is a static ability.")
    assert [r.number for r in doc.rules] == ["702", "702.1", "702.2", "702.2a"]
    assert (doc.meta.effective_date, doc.meta.covers) == ("2025-06-06", ("702-702",))
    assert [(p.name, p.text) for p in doc.parts] == [
        ("title", "Magic: The Gathering Comprehensive Rules These rules are effective as of "
                  "June 6, 2025.")]
    assert lossless_mismatch(doc) is None
