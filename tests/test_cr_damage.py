"""Real releases damaged at random as copies of the rules get damaged (lines joined, line
breaks lost, lines doubled, the copy cut off), in both forms: each gives a clean error or
a parse whose fields and residue rebuild it exactly; never another exception, nor a hang.
(The same of the files of every other form a release is published in: test_forms_hostile.py.)"""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rulesdb.ingest import cr_any
from rulesdb.ingest.decode import decode
from rulesdb.ingest.lossless import lossless_mismatch
from rulesdb.ingest.model import ParseError

# one release of each numbering era, and the most recent
RELEASES = ["MagicCompRules-2003-03-15.txt", "MagicCompRules-2008-05-01.txt",
            "MagicCompRules-2013-02-01.txt", "MagicCompRules-2026-01-16.txt"]
_BREAK = re.compile(r"\s+")
SECONDS = 10  # far beyond any parse: a damaged copy that takes longer hangs


@pytest.fixture(scope="module")
def texts(archived: dict) -> dict[tuple[str, bool], str]:
    """Each release's text, with its line breaks and flattened."""
    out = {}
    for name in RELEASES:
        text = decode(archived[name].data)
        out[(name, False)] = text
        out[(name, True)] = " ".join(text.split())
    return out


@st.composite
def damage(draw: st.DrawFn, text: str) -> str:
    """`text` with a few breaks joined or lost, a stretch doubled, perhaps cut off."""
    for _ in range(draw(st.integers(1, 6))):
        # a cut is one damage in ten: most cut copies are refused before the glossary
        kind = draw(st.sampled_from(["join", "lose", "double"] * 3 + ["cut"]))
        at = draw(st.integers(0, len(text) - 1))
        if kind == "cut":
            text = text[: max(at, 1)]
            continue
        gap = _BREAK.search(text, at) or _BREAK.search(text)
        if gap is None:
            continue
        if kind in ("join", "lose"):
            text = text[: gap.start()] + (" " if kind == "join" else "") + text[gap.end() :]
        else:  # a line (or, flattened, a stretch of words) printed twice
            end = text.find("\n", gap.end())
            end = end if 0 <= end - gap.end() <= 2000 else min(len(text), gap.end() + 300)
            text = text[: end] + text[gap.start() : end] + text[end:]
    return text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.data_too_large])
@given(data=st.data())
def test_damage_gives_a_clean_error_or_a_lossless_parse(texts, data) -> None:
    name, flattened = data.draw(st.sampled_from(sorted(texts)), label="release")
    damaged = data.draw(damage(texts[(name, flattened)]), label="damage")
    started = time.perf_counter()
    try:
        doc = cr_any.parse_text(damaged)
    except ParseError as exc:
        assert exc.message and "\n" not in exc.message
        assert 0 <= exc.offset <= len(damaged)
        event(f"error: {exc.message[:40]}")
        return
    finally:
        assert time.perf_counter() - started < SECONDS
    event("parsed" + (" partial" if doc.meta.cut_off else ""))
    assert lossless_mismatch(doc) is None


@pytest.mark.parametrize(("name", "heading"), [
    # found by the test above: a glossary heading whose line break was lost runs into its
    # definition, and is set apart and rebuilt with nothing between them, as printed
    ("MagicCompRules-2003-03-15.txt", "First Strike\nFirst strike is a static"),
    ("MagicCompRules-2026-01-16.txt", "Trample\nA keyword ability"),
])
def test_a_heading_run_into_its_definition_rebuilds_as_printed(texts, name, heading) -> None:
    text = texts[(name, False)]
    at = text.index(heading) + heading.index("\n")
    doc = cr_any.parse_text(text[:at] + text[at + 1:])
    assert lossless_mismatch(doc) is None
