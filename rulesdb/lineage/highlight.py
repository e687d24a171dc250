"""One edited rule as the diff notebook shows it: changed words marked in HTML or plain text.

The word operations and their HTML and text renderings are the project's own
(`rulesdb.lineage.wordiff`, as `rulesdb diff --json` carries them in "words").
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

from . import wordiff

WordOps = Sequence[dict[str, str]]

STYLE = ("<style>.rulesdb-edit del{background:#ffd7d5;color:#82071e}"
         ".rulesdb-edit ins{background:#ccffd8;color:#055d20;text-decoration:none}"
         ".rulesdb-edit td{text-align:left;vertical-align:top;white-space:pre-wrap}</style>")


def changed_words(ops: WordOps) -> int:
    """Words removed plus words added."""
    return sum(len(op["old"].split()) + len(op["new"].split())
               for op in ops if op["op"] != "equal")


@dataclass(frozen=True)
class Edit:
    """An edit that renders as HTML in Jupyter and in git's word-diff notation as text."""

    old_number: str
    new_number: str
    change: str
    similarity: float | None
    ops: tuple[dict[str, str], ...]

    def heading(self) -> str:
        """'502.9 → 702.19 (renumbered_edited, similarity 0.81, 12 words changed)'."""
        numbers = (self.old_number if self.old_number == self.new_number
                   else f"{self.old_number} → {self.new_number}")
        similarity = "" if self.similarity is None else f", similarity {self.similarity:.2f}"
        return f"{numbers} ({self.change}{similarity}, {changed_words(self.ops)} words changed)"

    def _repr_html_(self) -> str:
        old, new = wordiff.render_html(list(self.ops))
        return (f'{STYLE}<div class="rulesdb-edit"><p><b>{html.escape(self.heading())}</b></p>'
                f"<table><tr><th>old</th><td>{old}</td></tr>"
                f"<tr><th>new</th><td>{new}</td></tr></table></div>")

    def __str__(self) -> str:
        old, new = wordiff.render_text(list(self.ops))
        return f"{self.heading()}\n  old: {old}\n  new: {new}"

    __repr__ = __str__
