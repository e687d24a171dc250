"""Word-level differences between two rule texts, shown as HTML marks or git-style text.

The words are compared with difflib; each token keeps its surrounding whitespace, so the
`equal` and `insert` parts rebuild the new text exactly, and `equal` and `delete` the old one
up to whitespace.
"""

from __future__ import annotations

import difflib
import html
import re
from collections.abc import Sequence
from dataclasses import dataclass

WordOp = tuple[str, str]  # ("equal" | "delete" | "insert", text)

TOKEN = re.compile(r"\s*\S+\s*|\s+")
DELETE_STYLE = "background:#ffd7d5;color:#82071e;text-decoration:line-through"
INSERT_STYLE = "background:#ccffd8;color:#055d20"


def _tokens(text: str) -> list[str]:
    return TOKEN.findall(text)


def word_diff(old: str, new: str) -> list[WordOp]:
    """The word operations turning `old` into `new`, adjacent operations of a kind merged."""
    a, b = _tokens(old), _tokens(new)
    matcher = difflib.SequenceMatcher(None, [t.strip() for t in a], [t.strip() for t in b],
                                      autojunk=False)
    ops: list[WordOp] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            # whitespace may differ inside equal words; keep the new text's spacing
            ops.append(("equal", "".join(b[j1:j2])))
            continue
        if i2 > i1:
            ops.append(("delete", "".join(a[i1:i2])))
        if j2 > j1:
            ops.append(("insert", "".join(b[j1:j2])))
    merged: list[WordOp] = []
    for op, text in ops:
        if merged and merged[-1][0] == op:
            merged[-1] = (op, merged[-1][1] + text)
        else:
            merged.append((op, text))
    return merged


def changed_words(ops: Sequence[WordOp]) -> int:
    """Words deleted plus words inserted."""
    return sum(len(text.split()) for op, text in ops if op != "equal")


def to_html(ops: Sequence[WordOp]) -> str:
    """The operations as escaped HTML: deletions struck out in red, insertions in green."""
    parts = []
    for op, text in ops:
        escaped = html.escape(text)
        if op == "delete":
            parts.append(f'<del style="{DELETE_STYLE}">{escaped}</del>')
        elif op == "insert":
            parts.append(f'<ins style="{INSERT_STYLE}">{escaped}</ins>')
        else:
            parts.append(escaped)
    return "".join(parts)


def to_text(ops: Sequence[WordOp]) -> str:
    """The operations in git's word-diff notation: [-deleted-]{+inserted+}."""
    marks = {"delete": "[-{}-]", "insert": "{{+{}+}}", "equal": "{}"}
    return "".join(marks[op].format(text) for op, text in ops)


@dataclass(frozen=True)
class Edit:
    """One edited rule as a notebook shows it: HTML in Jupyter, git word-diff as plain text."""

    old_number: str
    new_number: str
    change: str
    similarity: float | None
    ops: tuple[WordOp, ...]

    def heading(self) -> str:
        """'502.9 → 702.19 (renumbered_edited, similarity 0.81, 12 words changed)'."""
        numbers = (self.old_number if self.old_number == self.new_number
                   else f"{self.old_number} → {self.new_number}")
        similarity = "" if self.similarity is None else f", similarity {self.similarity:.2f}"
        return f"{numbers} ({self.change}{similarity}, {changed_words(self.ops)} words changed)"

    def _repr_html_(self) -> str:
        return (f"<p><b>{html.escape(self.heading())}</b></p>"
                f'<p style="white-space:pre-wrap">{to_html(self.ops)}</p>')

    def __str__(self) -> str:
        return f"{self.heading()}\n{to_text(self.ops)}"

    __repr__ = __str__
