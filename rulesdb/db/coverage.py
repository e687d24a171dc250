"""What a partial document covers: the three-digit sections it holds (from `documents.covers`),
or, for a judges' document, its chapters and appendices ("1-10", "A-F")."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property


@dataclass(frozen=True)
class Coverage:
    """What a document covers: every rule, or (partial) these three-digit sections, or these
    top-level numbers and letters (chapters 1-10, appendices A-F of a judges' document)."""

    partial: bool = False
    sections: frozenset[int] = field(default_factory=frozenset)
    heads: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def from_covers(cls, partial: bool, covers: Sequence[str]) -> Coverage:
        """From a document's `covers` list ("700-731", "100-609", "glossary"; "1-10", "A-F")."""
        sections: set[int] = set()
        heads: set[str] = set()
        for span in covers:
            match = re.fullmatch(r"(\d{3})-(\d{3})", span)
            if match:
                sections.update(range(int(match[1]), int(match[2]) + 1))
            elif match := re.fullmatch(r"(\d{1,2})-(\d{1,2})", span):
                heads.update(str(n) for n in range(int(match[1]), int(match[2]) + 1))
            elif match := re.fullmatch(r"([A-Z])-([A-Z])", span):
                heads.update(chr(c) for c in range(ord(match[1]), ord(match[2]) + 1))
        return cls(partial, frozenset(sections), frozenset(heads))

    def contains(self, number: str) -> bool:
        """Whether a rule with this number would be in the document."""
        if self.partial and self.heads:
            return number.split(".")[0] in self.heads
        if not self.partial or not self.sections:
            return True
        head = number.split(".")[0]
        if not head.isdigit():
            return False
        if len(head) == 1:
            return int(head) in self.chapters
        return int(head) in self.sections

    @cached_property
    def chapters(self) -> frozenset[int]:
        """The one-digit chapters the covered sections lie in."""
        return frozenset(section // 100 for section in self.sections)
