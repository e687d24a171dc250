"""A Comprehensive Rules text in whichever form it comes: one rule per line as Wizards
publishes it (`cr_text`), or with its line breaks lost, pasted from a web page or a PDF
or with its whitespace collapsed (`cr_flat`); told apart by where its rule numbers stand."""

from __future__ import annotations

import re

from . import cr_flat, cr_text
from .decode import decode
from .model import Document

# a rule number opening a line, and one after the end of a sentence inside a line
_AT_LINE_START = re.compile(r"^[^\S\n]*\d{3}\.\d+[a-z]?\.?[^\S\n]", re.MULTILINE)
_INSIDE_LINE = re.compile(r"[.!?\"”)\]][^\S\n]+\d{3}\.\d+[a-z]?\.?[^\S\n]+\S")
# enough of a release to hold hundreds of rules, so that the test costs little
_SAMPLE = 200_000


def parser_for(text: str) -> str:
    """The name of the parser for a decoded CR text: "cr_flat" when more of its rules
    start inside a line than at a line's start, else "cr_text"."""
    sample = text[:_SAMPLE]
    inside = sum(1 for _ in _INSIDE_LINE.finditer(sample))
    if inside and inside >= sum(1 for _ in _AT_LINE_START.finditer(sample)):
        return "cr_flat"
    return "cr_text"


def parse_text(text: str) -> Document:
    """The Document of a decoded CR text, read by the parser its form needs."""
    if parser_for(text) == "cr_flat":
        return cr_flat.parse_text(text)
    return cr_text.parse_text(text)


def parse(data: bytes) -> Document:
    """The Document of a CR text file in either form."""
    return parse_text(decode(data))
