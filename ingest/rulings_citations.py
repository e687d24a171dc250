"""Bracketed sources of a rulings summary ("[D’Angelo 02/03/98]", "[Mirage, Page 29]").

A bracket names who or what a ruling comes from: a person or team with a date
("[WotC Rules Team 03/18/99]", "[Aahz 1994]", "[DCI Letter, Jan 1997]"), a printed
publication with a page ("[Duelist Magazine #18, Page 28]", "[Mirage, Page 2-4]"), or a
publication alone ("[Urza’s Saga Rule Page]"). Brackets that are part of quoted card
text ("you [may] do <something>") are not sources.
"""

from __future__ import annotations

import re

from .model import Citation

_BRACKET = re.compile(r"\[[^\[\]]*\]")
_WS = re.compile(r"\s+")

# The comma before "Page" is sometimes missing in print ("[PPG Page 57]").
_PAGED = re.compile(r"(?P<source>.+?),? Page (?P<page>\d+(?:-\d+)?)")
_DAY = re.compile(r"(?P<source>.+?),? (?P<month>\d{1,2})/(?P<day>\d{1,2})/(?P<year>\d{2}|\d{4})")
_MONTH = re.compile(
    r"(?P<source>.+?),? (?P<month>Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.? "
    r"(?P<year>\d{4})"
)
_YEAR = re.compile(r"(?P<source>.+?),? (?P<year>1[89]\d\d|20\d\d)")
# An undated, unpaged source is a capitalized name ("Legends Rulecards"); quoted card
# text in brackets is a lowercase word ("[may]").
_NAME_ONLY = re.compile(r"[A-Z][^\[\]]*")

_MONTHS = {
    name: number
    for number, name in enumerate(
        ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
        start=1,
    )
}


def _full_year(year: str) -> int:
    """A printed year as four digits; the summary's two-digit years are all 19xx."""
    return int(year) if len(year) == 4 else 1900 + int(year)


def parse_source(inner: str) -> tuple[str, str | None, str | None] | None:
    """(source, date, page) read from the text between the brackets, or None when the
    bracket is not a source. `inner` may contain line breaks from wrapping."""
    inner = _WS.sub(" ", inner).strip()
    paged = _PAGED.fullmatch(inner)
    if paged:
        return paged["source"], None, paged["page"]
    day = _DAY.fullmatch(inner)
    if day:
        month, dom = int(day["month"]), int(day["day"])
        if 1 <= month <= 12 and 1 <= dom <= 31:
            return day["source"], f"{_full_year(day['year']):04d}-{month:02d}-{dom:02d}", None
        return None
    month_year = _MONTH.fullmatch(inner)
    if month_year:
        month = _MONTHS[month_year["month"]]
        return month_year["source"], f"{month_year['year']}-{month:02d}", None
    year = _YEAR.fullmatch(inner)
    if year:
        return year["source"], year["year"], None
    if _NAME_ONLY.fullmatch(inner):
        return inner, None, None
    return None


def find_citations(text: str) -> tuple[tuple[Citation, ...], tuple[str, ...]]:
    """The citations in `text` (offsets into `text`), and the brackets that are not sources."""
    citations: list[Citation] = []
    others: list[str] = []
    for match in _BRACKET.finditer(text):
        parsed = parse_source(match.group(0)[1:-1])
        if parsed is None:
            others.append(match.group(0))
            continue
        source, date, page = parsed
        citations.append(
            Citation(source, date, page, match.group(0), match.start(), match.end())
        )
    return tuple(citations), tuple(others)
