"""Tests of source decoding (ingest/decode.py): encoding choice, line endings, bad input."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

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
        pytest.param(TEXT.encode("mac_roman"), "mac_roman", NORMALIZED, id="mac-roman"),
        pytest.param("Ça dépend — “façade”\r".encode("mac_roman"), "mac_roman",
                     "Ça dépend — “façade”\n", id="mac-roman-bytes-cp1252-lacks"),
        # a byte cp1252 leaves unused (every byte is a Mac OS Roman character)
        pytest.param(b"ab\x81", "mac_roman", "abÅ", id="byte-cp1252-lacks"),
        # no curly quote nor dash to tell them apart: the Windows reading
        pytest.param("Dandân Café\n".encode("cp1252"), "cp1252", "Dandân Café\n",
                     id="cp1252-letters-only"),
        pytest.param(b"\xff\xfe\x00\x00" + TEXT.encode("utf-32-le"), "utf-32-le", NORMALIZED,
                     id="utf-32-le-bom"),
        pytest.param(b"\x00\x00\xfe\xff" + TEXT.encode("utf-32-be"), "utf-32-be", NORMALIZED,
                     id="utf-32-be-bom"),
        pytest.param(b"a\r\nb\r\n\x1a", "utf-8", "a\nb\n", id="dos-end-of-file-mark"),
        pytest.param(b"a\x1a\x1a", "utf-8", "a", id="dos-end-of-file-marks"),
        pytest.param(b"a\r\n\x0cb\x0bc\x0c\r\nd", "utf-8", "a\nb\nc\nd", id="page-breaks"),
        pytest.param(b"a\n\x0c\nb\n\n\x0c\x0b\nc", "utf-8", "a\nb\n\nc",
                     id="lines-of-page-breaks"),
    ],
)
def test_decode(data: bytes, encoding: str, text: str) -> None:
    assert detect_encoding(data) == encoding
    assert decode(data) == text


# TEXT's UTF-8 bytes read as cp1252 (0x9D, unused there, as U+009D) and saved as UTF-8
DOUBLE = "".join(chr(b) if b == 0x9D else bytes([b]).decode("cp1252")
                 for b in TEXT.encode("utf-8-sig")).encode("utf-8")


@pytest.mark.parametrize(("data", "text", "note"), [
    pytest.param(DOUBLE, NORMALIZED, "the file is UTF-8 that was read as cp1252",
                 id="utf-8-encoded-twice"),
    pytest.param(TEXT.encode("utf-8"), NORMALIZED, None, id="utf-8"),
    # the marks of a double encoding beside a character it cannot hold: as written
    pytest.param("Â® and Ã© beside ’\n".encode(), "Â® and Ã© beside ’\n", None, id="marks-alone"),
    pytest.param(b"plain ASCII\n", "plain ASCII\n", None, id="ascii"),
    # a copy pieced together: one line encoded twice, one with a real curly quote
    pytest.param("Itâ€™s here\r\nIt’s there\r\n".encode(), "It’s here\nIt’s there\n",
                 "lines that were UTF-8 read as cp1252 and saved again (“â€™” for “’”) read as "
                 "they were meant: 1", id="utf-8-encoded-twice-in-part"),
    pytest.param(TEXT.encode("mac_roman"), NORMALIZED, "the file is in Mac OS Roman",
                 id="mac-roman"),
    pytest.param(TEXT.encode("cp1252"), NORMALIZED, None, id="cp1252"),
    pytest.param("Tram\u00adple\u200b and\ufeff\u2060 more\n".encode("utf-8-sig"),
                 "Trample and more\n",
                 "invisible characters (zero-width spaces, soft hyphens) removed: 4",
                 id="invisible-characters"),
])
def test_what_is_mended_is_told(data: bytes, text: str, note: str | None) -> None:
    notes: list[str] = []
    assert decode(data, notes) == text
    assert [n[:len(note)] for n in notes] == ([note] if note else [])


@pytest.mark.parametrize(
    ("data", "message", "offset"),
    [
        pytest.param(b"", "file is empty", 0, id="empty"),
        pytest.param(b" \r\n\t", "file is empty", 0, id="blank"),
        # offsets count bytes of the file, its byte-order mark included
        pytest.param(b"\xef\xbb\xbfab\xff", "cannot decode as utf-8: invalid start byte", 5,
                     id="bad-utf-8-after-bom"),
        pytest.param(b"a\r\nb\x01", "binary content (control character 0x01 at line 2, "
                     "column 2) in a text document", 4, id="control-after-crlf"),
        pytest.param("é\x7f".encode("cp1252"), "binary content (control character 0x7F at "
                     "line 1, column 2) in a text document", 1, id="control-in-cp1252"),
        pytest.param("aé\x01".encode(), "binary content (control character 0x01 at line 1, "
                     "column 3) in a text document", 3, id="control-after-utf-8"),
        pytest.param(b"\xff\xfe" + "a\rb\x02".encode("utf-16-le"), "binary content (control "
                     "character 0x02 at line 2, column 2) in a text document", 8,
                     id="control-in-utf-16"),
        # only at the very end is Ctrl-Z an end-of-file mark
        pytest.param(b"a\x1ab", "binary content (control character 0x1A at line 1, column 2) "
                     "in a text document", 1, id="ctrl-z-inside"),
    ],
)
def test_decode_rejects(data: bytes, message: str, offset: int) -> None:
    with pytest.raises(ParseError) as info:
        decode(data)
    assert (info.value.message, info.value.offset) == (message, offset)


# rules-like text: ASCII words and what the rules print beyond ASCII
_PLAIN = st.text(st.sampled_from("abcXYZ 019.,()[]:'\"\n-éâ"), max_size=40)
_MARK = st.sampled_from("’‘“”–—™®…•")


@given(_PLAIN, _MARK, _PLAIN, st.sampled_from(["cp1252", "mac_roman"]))
def test_a_single_byte_file_with_a_typographic_mark_reads_as_written(before, mark, after,
                                                                    encoding):
    text = f"{before}{mark}{after}"
    data = text.encode(encoding)
    try:  # bytes that happen to be UTF-8 ("é™™" in cp1252) are read as UTF-8, by design
        data.decode("utf-8")
    except UnicodeDecodeError:
        assert detect_encoding(data) == encoding
        assert decode(data) == text
