"""The effective date a Comprehensive Rules text prints ("These rules are effective as of
February 7, 2025."), read strictly: a misprinted or impossible date is kept as printed,
with no ISO date, for the caller to refuse or to override; and the metadata both CR
parsers make of it."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime

from .cr_order import covers
from .model import DocumentMeta, Rule

DEFAULT_TITLE = "Magic: The Gathering Comprehensive Rules"

# The date itself is any month-like word, day and year, so that a misprint ("Febuary 7,
# 2025", "February 30, 2025") is found and reported rather than taken for no date at all.
DATE = re.compile(
    r"These\s+rules\s+are\s+(?:effective|current)\s+as\s+of\s+"
    r"((?P<month>[A-Za-z]+)\.?\s+(?P<day>\d{1,2})(?:st|nd|rd|th)?,?\s*(?P<year>\d{4}))(?!\d)\.?")


def read_date(match: re.Match[str]) -> str | None:
    """The ISO date of a `DATE` match, or None when the printed date is not a real one."""
    printed = f"{match['month']} {match['day']} {match['year']}"
    for form in ("%B %d %Y", "%b %d %Y"):  # "February 7 2025", "Feb 7 2025"
        try:
            return datetime.strptime(printed, form).date().isoformat()
        except ValueError:
            continue
    return None


def unreadable(date_text: str) -> str:
    """The warning for a printed date that `read_date` cannot read."""
    return f"the printed date cannot be read: {date_text!r}"


def cr_meta(title: str | None, date: re.Match[str] | None, rules: Iterable[Rule],
            warnings: list[str], cut_off: str | None = None) -> DocumentMeta:
    """The metadata of a CR text: its title (the usual one when none is printed), its
    printed date read strictly (warned when it cannot be), the sections it covers and
    where a copy cut off in its glossary stops."""
    effective = read_date(date) if date else None
    if date is not None and effective is None:
        warnings.append(unreadable(date.group(0)))
    return DocumentMeta(
        kind="comprehensive_rules",
        title=title or DEFAULT_TITLE,
        effective_date=effective,
        date_text=date.group(0) if date else None,
        covers=(*covers(rules), *([cut_off] if cut_off else [])),
        cut_off=cut_off,
    )
