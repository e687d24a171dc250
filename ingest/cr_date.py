"""The effective date a Comprehensive Rules text prints ("These rules are effective as of
February 7, 2025."), read strictly: a misprinted or impossible date is kept as printed,
with no ISO date, for the caller to refuse or to override."""

from __future__ import annotations

import re
from datetime import datetime

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
