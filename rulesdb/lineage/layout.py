"""Changes that are only a document's layout, not its words: between two editions of a
judges' document read from different forms (a PDF's text layer, an app's transcription that
ran paragraphs together, kept printed line breaks or read a table's cells in another order),
a section whose words are the same, in the same order or not, did not change.

Only the judges' documents are compared so (the Comprehensive Rules' editions all come from
Wizards' own files, where words that move are an edit). Pure: no database.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from .align import Change, RuleRec
from .overrides import HandChange

POLICY_KINDS = frozenset({"tournament_rules", "infraction_procedure_guide"})
# what becomes of an edit that only moved words in the layout
SETTLED = {"edited": "unchanged", "renumbered_edited": "renumbered"}


def layout_only(old: str, new: str) -> bool:
    """Whether two texts hold the same words, in whatever order and spacing."""
    return "".join(old.split()) == "".join(new.split()) or Counter(old.split()) == Counter(
        new.split())


def settle(changes: list[Change], old_rules: Mapping[str, RuleRec],
           new_rules: Mapping[str, RuleRec]) -> tuple[list[Change], int]:
    """`changes` with each edit that only moved words in the layout made no edit (its
    similarity 1.0), and how many were."""
    settled, count = [], 0
    for change in changes:
        old, new = old_rules.get(change.old or ""), new_rules.get(change.new or "")
        if (change.op in SETTLED and old and new and not isinstance(change, HandChange)
                and layout_only(old.text or "", new.text or "")):
            change = Change(SETTLED[change.op], change.old, change.new, 1.0)
            count += 1
        settled.append(change)
    return settled, count
