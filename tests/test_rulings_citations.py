"""Rulings-summary bodies and citations: joining wrapped body lines (join_body) and reading
the bracketed sources (ingest/rulings_citations.py)."""

from __future__ import annotations

import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesdb.ingest.lossless import normalize_ws
from rulesdb.ingest.model import Citation
from rulesdb.ingest.rulings import join_body
from rulesdb.ingest.rulings_citations import find_citations, parse_source

from rulings_helpers import HEAD, rules

# --- join_body -----------------------------------------------------------------------

@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        ([(4, "a")], "a"),
        ([(4, "a"), (4, "b")], "a b"),
        ([(4, "a:"), (4, "1. x"), (6, "y"), (4, "2. z")], "a:\n1. x y\n2. z"),
        ([(4, "a:"), (8, "col1,   col2"), (8, "col3")], "a:\ncol1,   col2\ncol3"),
        ([(4, "a:"), (8, "row"), (4, "after")], "a:\nrow\nafter"),
        ([(4, "a:"), (4, "1. item."), (4, "[Mirage, Page 3]")], "a:\n1. item.\n[Mirage, Page 3]"),
        ([(4, "X = one and"), (4, "two.")], "X = one and two."),
        ([(4, "a"), (5, "b"), (7, "c")], "a b c"),
    ],
)
def test_join_body(lines: list[tuple[int, str]], expected: str) -> None:
    assert join_body(lines) == expected


words = st.text(alphabet="abcdefghij,.", min_size=1, max_size=8)


@given(st.lists(st.tuples(st.integers(4, 10), words), min_size=1, max_size=20))
def test_join_body_keeps_every_word(lines: list[tuple[int, str]]) -> None:
    joined = join_body(lines)
    assert normalize_ws(joined) == " ".join(content for _, content in lines)
    assert "\n\n" not in joined and "  " not in joined


# --- citations -----------------------------------------------------------------------

@pytest.mark.parametrize(
    ("inner", "expected"),
    [
        ("D’Angelo 02/03/98", ("D’Angelo", "1998-02-03", None)),
        ("WotC Rules Team 03/18/99", ("WotC Rules Team", "1999-03-18", None)),
        ("bethmo 1994", ("bethmo", "1994", None)),
        ("Aahz 1994", ("Aahz", "1994", None)),
        ("Mirage, Page 29", ("Mirage", None, "29")),
        ("Duelist Magazine #18, Page 28", ("Duelist Magazine #18", None, "28")),
        ("Duelist Magazine, Page 26", ("Duelist Magazine", None, "26")),
        ("Mirage, Page 2-4", ("Mirage", None, "2-4")),
        ("PPG Page 57", ("PPG", None, "57")),
        ("Fifth Edition Page 47", ("Fifth Edition", None, "47")),
        ("DCI Letter, Jan 1997", ("DCI Letter", "1997-01", None)),
        ("DCI Letter Jan 1997", ("DCI Letter", "1997-01", None)),
        ("Urza’s Saga Rule Page", ("Urza’s Saga Rule Page", None, None)),
        ("Legends Rulecards", ("Legends Rulecards", None, None)),
        ("Tourney Updated 12/08/98", ("Tourney Updated", "1998-12-08", None)),
        ("Duelist Magazine #20,\n    Page 35", ("Duelist Magazine #20", None, "35")),
        ("WotC Rules\n    Team 08/05/97", ("WotC Rules Team", "1997-08-05", None)),
        ("may", None),
        ("Aahz 13/45/97", None),
        ("", None),
    ],
)
def test_parse_source(inner: str, expected: tuple[str, str | None, str | None] | None) -> None:
    assert parse_source(inner) == expected


def test_find_citations_offsets() -> None:
    text = "One. [bethmo 02/21/97]  Two, you [may] do it. [Mirage, Page 29]"
    citations, others = find_citations(text)
    assert citations == (
        Citation("bethmo", "1997-02-21", None, "[bethmo 02/21/97]", 5, 22),
        Citation("Mirage", None, "29", "[Mirage, Page 29]", 46, 63),
    )
    assert others == ("[may]",)


def test_citation_wrapped_across_lines() -> None:
    (rule,) = rules(HEAD + "  A.1.1 - Said so. [Duelist Magazine #20,\n    Page 35]  More.\n")[2:]
    assert rule.text == "Said so. [Duelist Magazine #20, Page 35]  More."
    assert rule.citations == (
        Citation("Duelist Magazine #20", None, "35", "[Duelist Magazine #20, Page 35]", 9, 40),
    )


sources = st.from_regex(r"[A-Z][a-z’]{1,8}( [A-Z][a-z]{1,8})?", fullmatch=True)


@given(sources, st.dates(min_value=datetime.date(1990, 1, 1),
                         max_value=datetime.date(1999, 12, 31)))
def test_parse_source_dates_round_trip(source: str, day: datetime.date) -> None:
    printed = f"{source} {day:%m/%d/%y}"
    assert parse_source(printed) == (source, day.isoformat(), None)
