"""Comprehensive Rules text parser on bad input: empty, binary, prose, other formats and
truncated documents."""

from __future__ import annotations

import pytest

from rulesdb.ingest.cr_text import parse
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


def test_truncated_before_credits() -> None:
    with pytest.raises(ParseError) as info:
        parse_text(WHOLE[: WHOLE.index("\nCredits\n\nGame")])
    assert info.value.message == "the Credits listed in the contents is missing"
