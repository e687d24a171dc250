"""Tests of source decoding (ingest/decode.py): encoding choice, line endings, bad input."""

from __future__ import annotations

import pytest

from rulesdb.ingest.decode import decode, detect_encoding
from rulesdb.ingest.model import ParseError

TEXT = "700.1. Café “quoted”\r\nExample: A.\rEnd.\n"
NORMALIZED = "700.1. Café “quoted”\nExample: A.\nEnd.\n"


@pytest.mark.parametrize(
    ("data", "encoding", "text"),
    [
        pytest.param(b"a\r\nb\rc\nd", "utf-8", "a\nb\nc\nd", id="ascii-mixed-endings"),
        pytest.param(b"a\r\r\nb", "utf-8", "a\n\nb", id="cr-before-crlf"),
        pytest.param(TEXT.encode("utf-8"), "utf-8", NORMALIZED, id="utf-8"),
        pytest.param(TEXT.encode("utf-8-sig"), "utf-8", NORMALIZED, id="utf-8-bom"),
        pytest.param(TEXT.encode("utf-16-le"), "utf-16-le", NORMALIZED, id="utf-16-le-no-bom"),
        pytest.param(TEXT.encode("utf-16-be"), "utf-16-be", NORMALIZED, id="utf-16-be-no-bom"),
        pytest.param(b"\xff\xfe" + TEXT.encode("utf-16-le"), "utf-16-le", NORMALIZED,
                     id="utf-16-le-bom"),
        pytest.param(b"\xfe\xff" + TEXT.encode("utf-16-be"), "utf-16-be", NORMALIZED,
                     id="utf-16-be-bom"),
        pytest.param(TEXT.encode("cp1252"), "cp1252", NORMALIZED, id="cp1252"),
    ],
)
def test_decode(data: bytes, encoding: str, text: str) -> None:
    assert detect_encoding(data) == encoding
    assert decode(data) == text


@pytest.mark.parametrize(
    ("data", "message", "offset"),
    [
        pytest.param(b"", "file is empty", 0, id="empty"),
        pytest.param(b" \r\n\t", "file is empty", 0, id="blank"),
        pytest.param(b"\xef\xbb\xbfab\xff", "cannot decode as utf-8: invalid start byte", 2,
                     id="bad-utf-8-after-bom"),
        pytest.param(b"ab\x81", "cannot decode as cp1252: character maps to <undefined>", 2,
                     id="bad-cp1252"),
        # The offset counts characters before line endings are normalized.
        pytest.param(b"a\r\nb\x01", "binary content (control character) in a text document", 4,
                     id="control-after-crlf"),
        pytest.param("é\x7f".encode("cp1252"),
                     "binary content (control character) in a text document", 1,
                     id="control-in-cp1252"),
    ],
)
def test_decode_rejects(data: bytes, message: str, offset: int) -> None:
    with pytest.raises(ParseError) as info:
        decode(data)
    assert (info.value.message, info.value.offset) == (message, offset)
