"""Decoding of source bytes: encoding detected from the bytes, line endings normalized."""

from __future__ import annotations

import re

from .model import ParseError

_CONTROL = re.compile("[\\x00-\\x08\\x0e-\\x1f\\x7f]")

_BOMS = (
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)


def _sniff(data: bytes) -> tuple[str, bytes] | None:
    """(encoding, byte-order mark) told by a byte-order mark or by UTF-16's zero bytes
    (mark b"" then), else None: the choice is left to whether the bytes decode as UTF-8."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return encoding, bom
    sample = data[:4096]
    if len(sample) >= 4:
        even_zeros = sample[0::2].count(0)
        odd_zeros = sample[1::2].count(0)
        half = len(sample) // 2
        if odd_zeros > half * 0.4 and even_zeros < half * 0.05:
            return "utf-16-le", b""
        if even_zeros > half * 0.4 and odd_zeros < half * 0.05:
            return "utf-16-be", b""
    return None


def detect_encoding(data: bytes) -> str:
    """The encoding of `data`: from a byte-order mark, else UTF-16 by its zero bytes,
    else UTF-8 when it decodes, else cp1252."""
    sniffed = _sniff(data)
    if sniffed is not None:
        return sniffed[0]
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return "cp1252"
    return "utf-8"


def decode(data: bytes) -> str:
    """Text of `data` with any byte-order mark dropped and CRLF / CR turned into LF.

    Raises ParseError for empty or binary input.
    """
    if not data.strip():
        raise ParseError("file is empty", 0)
    # Same choice as detect_encoding, but the UTF-8 trial decode is kept as the result
    # rather than done a second time.
    sniffed = _sniff(data)
    if sniffed is None:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            sniffed = ("cp1252", b"")
    if sniffed is not None:
        encoding, bom = sniffed
        try:
            text = data[len(bom) :].decode(encoding)
        except UnicodeDecodeError as exc:
            raise ParseError(f"cannot decode as {encoding}: {exc.reason}", exc.start) from None
    binary = _CONTROL.search(text)
    if binary:
        raise ParseError("binary content (control character) in a text document", binary.start())
    if "\r" not in text:  # one scan instead of the two replaces' scans
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")
