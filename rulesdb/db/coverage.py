"""What a partial document covers: the three-digit sections it holds (from `documents.covers`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property


@dataclass(frozen=True)
class Coverage:
    """What a document covers: every rule, or (partial) these three-digit sections."""

    partial: bool = False
    sections: frozenset[int] = field(default_factory=frozenset)

    @classmethod
    def from_covers(cls, partial: bool, covers: Sequence[str]) -> Coverage:
        """From a document's `covers` list ("700-731", "100-609", "glossary")."""
        sections: set[int] = set()
        for span in covers:
            match = re.fullmatch(r"(\d{3})-(\d{3})", span)
            if match:
                sections.update(range(int(match[1]), int(match[2]) + 1))
        return cls(partial, frozenset(sections))

    def contains(self, number: str) -> bool:
        """Whether a rule with this number would be in the document."""
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
