"""Losslessness check: a document's fields and residue rebuild its source text."""

from __future__ import annotations

import re
from dataclasses import replace

from .model import Document, reconstruct_document

_WS = re.compile(r"\s+")
# whitespace after a hyphen or a dash: where a hard-wrapped release broke "State-⏎Based",
# which its parse joins as the other forms print it ("State-Based")
_AFTER_DASH = re.compile(r"(?<=[-‐‑‒–—])\s+")


def normalize_ws(text: str) -> str:
    """`text` with every run of whitespace turned into one space, none after a hyphen or
    a dash, ends stripped."""
    return _AFTER_DASH.sub("", _WS.sub(" ", text)).strip()


def lossless_mismatch(doc: Document, spacing: bool = True) -> str | None:
    """None when fields + residue rebuild the source; else a description of the first difference.

    Residue standing inside another item (a page number inside a paragraph) is left out of
    both sides. Without `spacing`, all whitespace is left out: a text whose lines a parser
    joined without a space (a word hyphenated at a line's end) rebuilds as its characters.
    """
    source_text = doc.text
    inner = [r for r in doc.residue if any(
        item.span[0] < r.span[0] and r.span[1] <= item.span[1]
        for item in (*doc.rules, *doc.glossary, *doc.parts))]
    if inner:
        for residue in sorted(inner, key=lambda r: r.span, reverse=True):
            source_text = source_text[:residue.span[0]] + " " + source_text[residue.span[1]:]
        doc = replace(doc, residue=tuple(r for r in doc.residue if r not in inner))
    rebuilt = normalize_ws(reconstruct_document(doc))
    source = normalize_ws(source_text)
    if not spacing:
        rebuilt, source = rebuilt.replace(" ", ""), source.replace(" ", "")
    if rebuilt == source:
        return None
    at = next(
        (i for i, (a, b) in enumerate(zip(rebuilt, source, strict=False)) if a != b),
        min(len(rebuilt), len(source)),
    )
    return (
        f"differs at normalized offset {at}: rebuilt {rebuilt[max(0, at - 60):at + 60]!r} "
        f"vs source {source[max(0, at - 60):at + 60]!r}"
    )
