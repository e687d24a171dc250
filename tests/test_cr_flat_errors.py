"""Flattened Comprehensive Rules parser on bad input: empty, binary, missing parts, other
formats and truncated documents."""

from __future__ import annotations

import pytest

from rulesdb.ingest.cr_flat import parse
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
    pytest.param(make_doc(f"{START} 100.1. One.")[: -len(TAIL) - 10], id="truncated-glossary"),
    pytest.param(make_doc(f"{START} 100.1. One rule that stops"), id="rule-mid-sentence"),
    pytest.param(HEAD.encode() + b"1. The Game 100. General Glossary Credits", id="no-rules"),
]


@pytest.mark.parametrize("data", BAD_INPUTS)
def test_bad_input_raises(data: bytes) -> None:
    with pytest.raises(ParseError):
        parse(data)


@pytest.mark.parametrize("other", ["cr-2025-06-06-chapter7", "rulings-1999-04", "rulebook-2005"])
def test_other_formats_raise(source_bytes: dict[str, bytes], other: str) -> None:
    with pytest.raises(ParseError):
        parse(source_bytes[other])


@pytest.mark.parametrize("cut", [0.1, 0.5, 0.7, 0.9, 0.99])
def test_truncated_real_document_raises(source_bytes: dict[str, bytes], cut: float) -> None:
    data = source_bytes[SEED]
    with pytest.raises(ParseError):
        parse(data[: int(len(data) * cut)])
