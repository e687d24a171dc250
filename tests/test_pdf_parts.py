"""A PDF's pages read in shares (rulesdb.ingest.pdf_text.pdf_part, each in a worker of
`rulesdb add`) join as the pages read in order (rulesdb.ingest.pdf_parts): the same text and
notes, or the same error, whatever the number of shares, the limit on the text, or the
damage done to the file."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesdb.ingest.model import ParseError
from rulesdb.ingest.pdf_parts import pdf_joined
from rulesdb.ingest.pdf_text import pdf_part, pdf_text

from forms_helpers import damaged, owner_locked_pdf, pdf
from test_add import release

RELEASE = pdf(release(), lines_per_page=7)  # 9 pages, 1,324 characters of text
PDFS = {"release": RELEASE, "one page": pdf(release(), lines_per_page=200),
        "mostly scan": pdf(release(), lines_per_page=7, scan_pages=11),
        "some blank pages": pdf(release(), lines_per_page=7, scan_pages=3),
        "scan": pdf("", scan_pages=4), "owner-locked": owner_locked_pdf(release()),
        "cut": RELEASE[:400], "not a PDF": b"%PDF-1.4\n1 0 obj garbage"}


def outcome(read, *args) -> tuple[str, ...]:
    """(text, notes...) that `read(*args, notes)` gives, or ("error", message)."""
    notes: list[str] = []
    try:
        return read(*args, notes), *notes
    except ParseError as exc:
        assert exc.offset == 0
        return "error", exc.message


def joined(data: bytes, max_bytes: int, parts: int, notes: list[str]) -> str:
    shares = [pdf_part(data, max_bytes, part, parts) for part in range(parts)]
    return pdf_joined(shares, max_bytes, notes)


@pytest.mark.parametrize("name", sorted(PDFS))
@pytest.mark.parametrize("max_bytes", [10_000_000, 1000, 500, 1])
@pytest.mark.parametrize("parts", [1, 2, 3, 5, 40])
def test_shares_join_as_the_whole(name, max_bytes, parts):
    whole = outcome(pdf_text, PDFS[name], max_bytes)
    assert outcome(joined, PDFS[name], max_bytes, parts) == whole
    if name == "release" and max_bytes == 10_000_000:
        assert whole[0] != "error"  # the case that reads the text is read


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.data_too_large])
@given(data=st.data())
def test_shares_of_a_damaged_pdf_join_as_the_whole(data):
    file = data.draw(damaged(RELEASE), label="damage")
    parts = data.draw(st.integers(2, 4), label="parts")
    max_bytes = data.draw(st.sampled_from([10_000_000, 900]), label="max_bytes")
    assert outcome(joined, file, max_bytes, parts) == outcome(pdf_text, file, max_bytes)
