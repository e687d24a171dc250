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


def detect_encoding(data: bytes) -> str:
    """The encoding of `data`: from a byte-order mark, else UTF-16 by its zero bytes,
    else UTF-8 when it decodes, else cp1252."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return encoding
    sample = data[:4096]
    if len(sample) >= 4:
        even_zeros = sample[0::2].count(0)
        odd_zeros = sample[1::2].count(0)
        half = len(sample) // 2
        if odd_zeros > half * 0.4 and even_zeros < half * 0.05:
            return "utf-16-le"
        if even_zeros > half * 0.4 and odd_zeros < half * 0.05:
            return "utf-16-be"
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
    encoding = detect_encoding(data)
    bom = next((b for b, e in _BOMS if e == encoding and data.startswith(b)), b"")
    try:
        text = data[len(bom) :].decode(encoding)
    except UnicodeDecodeError as exc:
        raise ParseError(f"cannot decode as {encoding}: {exc.reason}", exc.start) from None
    binary = _CONTROL.search(text)
    if binary:
        raise ParseError("binary content (control character) in a text document", binary.start())
    return text.replace("\r\n", "\n").replace("\r", "\n")
