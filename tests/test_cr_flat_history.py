"""Every release of the history archive, its line breaks lost (whitespace collapsed, as the
bundled 2009 document is): recognized as flattened by itself, it gives the release's own
rules, examples, glossary, parts and metadata, losslessly.

The archive ships in data/history, so these run without ../shared (benchmarks/flattened.py
prints the same comparison as figures, with the parse times)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulesdb.ingest import cr_any
from rulesdb.ingest.decode import decode
from rulesdb.ingest.lossless import lossless_mismatch
from rulesdb.ingest.model import Document
from rulesdb.sources.history import parse_sums
from rulesdb.sources.release import Source, parse_release

from conftest import SOURCES

_AFTER_HYPHEN = re.compile(r"(?<=[-–—]) ")
SUMS = SOURCES.parent / "history" / "SHA256SUMS"
RELEASES = sorted(parse_sums(SUMS.read_text(encoding="utf-8"), SUMS))


def spaced(text: str) -> str:
    """`text` as it reads, spacing aside: a flattened copy of a hard-wrapped release
    (2003-10-01 … 2004-02-01) has a space where a line broke after a hyphen, which the
    release's own parse joins ("State-⏎Based" is "State-Based", and "State- Based" in
    the copy), so no space after a hyphen or a dash counts either."""
    return _AFTER_HYPHEN.sub("", " ".join(text.split()))


def rules(doc: Document) -> list[tuple]:
    """Each rule as it reads, spacing aside."""
    return [(r.number, r.kind, r.parent, spaced(r.marker), spaced(r.text),
             r.title and spaced(r.title), r.glued,
             [(e.label, spaced(e.text)) for e in r.examples]) for r in doc.rules]


def glossary(doc: Document) -> list[tuple]:
    """Each glossary entry as it reads, spacing aside."""
    return [(g.heading, g.term, g.aliases, g.obsolete, g.see, g.glued, spaced(g.definition),
             [(e.label, spaced(e.text)) for e in g.examples]) for g in doc.glossary]


def test_the_archive_lists_110_releases() -> None:
    assert len(RELEASES) == 110


@pytest.mark.parametrize("name", RELEASES)
def test_a_flattened_release_reads_as_the_release(archived: dict[str, Source],
                                                  name: str) -> None:
    source = archived[name]
    release = parse_release(source)
    flat = " ".join(decode(source.data).split())
    assert "\n" not in flat
    assert cr_any.parser_for(flat) == "cr_flat"
    doc = cr_any.parse_text(flat)
    assert rules(doc) == rules(release)
    assert glossary(doc) == glossary(release)
    assert doc.meta == release.meta
    assert [(p.name, spaced(p.text)) for p in doc.parts] == \
        [(p.name, spaced(p.text)) for p in release.parts]
    assert [(r.reason, spaced(r.text)) for r in doc.residue] == \
        [(r.reason, spaced(r.text)) for r in release.residue]
    assert lossless_mismatch(doc) is None
    assert lossless_mismatch(release) is None


def test_the_bundled_seed_is_the_2009_release_flattened(archived: dict[str, Source],
                                                        source_bytes: dict[str, bytes]) -> None:
    """Its glossary is the release's: 402 entries, each with its own definition (the
    release prints "Floor Rules" with no blank line before it: 401 blank-line blocks)."""
    release = parse_release(archived["MagicCompRules-2009-02-01.txt"])
    seed = source_bytes["cr-2009-02-01-flattened"].decode("utf-8")
    assert seed == " ".join(release.text.split())
    doc = cr_any.parse_text(seed)
    assert len(doc.glossary) == 402
    assert glossary(doc) == glossary(release)
    floor = next(g for g in doc.glossary if g.heading == "Floor Rules")
    assert floor.definition.startswith("The current DCI _Magic: The Gathering_ Floor Rules")
    flip = next(g for g in doc.glossary if g.heading == "Flip Cards")
    assert "Floor Rules" not in flip.definition


def test_a_text_with_its_line_breaks_is_read_line_by_line(archived: dict[str, Source]) -> None:
    text = decode(archived["MagicCompRules-2025-02-07.txt"].data)
    assert cr_any.parser_for(text) == "cr_text"
    assert cr_any.parser_for(Path(SOURCES / "cr-2025-06-06-chapter7.txt").read_text()) \
        == "cr_text"
