"""Rulings-summary parser on bad input: empty, binary, other formats and truncated documents."""

from __future__ import annotations

import pytest

from rulesdb.ingest.model import ParseError
from rulesdb.ingest.rulings import parse

from rulings_helpers import DOC_ID, HEAD, UNDERLINE

# --- bad input -----------------------------------------------------------------------

@pytest.mark.parametrize(
    "data",
    [
        pytest.param(b"", id="empty"),
        pytest.param(b"   \n\n", id="blank"),
        pytest.param(b"\x00\x01\x02\x03binary\x00\x00", id="binary"),
        pytest.param(b"100. General\n100.1. These Magic rules apply.\n", id="cr-text"),
        pytest.param((HEAD + "  A.1.1 - This stops in the middle of a\n").encode(), id="truncated"),
        pytest.param(HEAD.encode(), id="heading-without-entries"),
        pytest.param(b"A - Abilities\n" + UNDERLINE.encode() + b"\n", id="section-only"),
        pytest.param(b"A - Abilities\n  Note - Before any topic.\n", id="item-before-topic"),
    ],
)
def test_bad_input(data: bytes) -> None:
    with pytest.raises(ParseError):
        parse(data)


@pytest.mark.parametrize(
    "doc_id", ["cr-2009-02-01-flattened", "cr-2025-06-06-chapter7", "rulebook-2005",
               "rulebook-1995"]
)
def test_other_bundled_documents_are_rejected(source_bytes: dict[str, bytes], doc_id: str) -> None:
    with pytest.raises(ParseError):
        parse(source_bytes[doc_id])


def test_real_document_cut_short_is_rejected(source_bytes: dict[str, bytes]) -> None:
    data = source_bytes[DOC_ID]
    with pytest.raises(ParseError, match="stops mid-sentence"):
        parse(data[: data.index(b"territories are considered")])
