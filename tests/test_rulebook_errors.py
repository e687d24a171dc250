"""Prose-rulebook parsers on bad input: empty, binary, other formats, truncated documents."""

from __future__ import annotations

import pytest

from rulesdb.ingest import rulebook_print, rulebook_web
from rulesdb.ingest.model import ParseError

from rulebook_helpers import NAV_BOTTOM, print_doc

# --- bad input ----------------------------------------------------------------------------

@pytest.mark.parametrize("parser", [rulebook_print.parse, rulebook_web.parse])
@pytest.mark.parametrize("data", [b"", b"   \n", b"\x00\x01\x02binary\x00"])
def test_empty_or_binary_input(parser, data: bytes) -> None:
    with pytest.raises(ParseError):
        parser(data)


@pytest.mark.parametrize(("parser", "other"), [
    (rulebook_print.parse, "rulebook-1995"),
    (rulebook_print.parse, "cr-2025-06-06-chapter7"),
    (rulebook_web.parse, "rulebook-2005"),
    (rulebook_web.parse, "rulings-1999-04"),
])
def test_wrong_format(parser, other: str, source_bytes: dict[str, bytes]) -> None:
    with pytest.raises(ParseError):
        parser(source_bytes[other])


def test_print_truncated_before_credits(source_bytes: dict[str, bytes]) -> None:
    data = source_bytes["rulebook-2005"]
    with pytest.raises(ParseError, match="truncated"):
        rulebook_print.parse(data[: data.index(b"\nCREDITS")])


def test_print_glossary_entry_without_definition() -> None:
    with pytest.raises(ParseError, match="no definition"):
        rulebook_print.parse(print_doc("SECTION 7: GLOSSARY\n\nAttack\n\nHow.\n\nBlock"))


def test_web_truncated(source_bytes: dict[str, bytes]) -> None:
    data = source_bytes["rulebook-1995"]
    with pytest.raises(ParseError, match="truncated"):
        rulebook_web.parse(data[: data.index(b"Nothing can be done")])
    cut = data[: data.index(b"in which case he loses")] + b"\n\n" + NAV_BOTTOM.encode()
    with pytest.raises(ParseError, match="mid-sentence"):
        rulebook_web.parse(cut)
