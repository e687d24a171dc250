"""Losslessness check: a document's fields and residue rebuild its source text."""

from __future__ import annotations

import re

from .model import Document, reconstruct_document

_WS = re.compile(r"\s+")
# whitespace after a hyphen or a dash: where a hard-wrapped release broke "State-⏎Based",
# which its parse joins as the other forms print it ("State-Based")
_AFTER_DASH = re.compile(r"(?<=[-‐‑‒–—])\s+")


def normalize_ws(text: str) -> str:
    """`text` with every run of whitespace turned into one space, none after a hyphen or
    a dash, ends stripped."""
    return _AFTER_DASH.sub("", _WS.sub(" ", text)).strip()


def lossless_mismatch(doc: Document) -> str | None:
    """None when fields + residue rebuild the source; else a description of the first difference."""
    rebuilt = normalize_ws(reconstruct_document(doc))
    source = normalize_ws(doc.text)
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
