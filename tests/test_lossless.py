"""Every bundled source is parsed losslessly: fields and residue rebuild its text."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesdb.ingest.lossless import lossless_mismatch, normalize_ws
from rulesdb.ingest.model import Document, Residue
from rulesdb.sources.build import parse_source
from rulesdb.sources.catalog import load_catalog, read_verified

from conftest import SOURCES

ENTRIES = load_catalog(SOURCES / "catalog.toml")
# parsers that join hard-wrapped lines again (no space after a hyphen that ended a line) and
# leave page numbers inside the paragraphs they interrupt out of them: compared without
# whitespace, the page numbers inside an item set aside
JOINS_LINES = {"policy_text", "policy_json"}


def parse(entry) -> Document:
    return parse_source(entry, read_verified(entry, SOURCES), entry.file)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.id)
def test_fields_and_residue_rebuild_the_source(entry):
    doc = parse(entry)
    assert lossless_mismatch(doc, spacing=entry.parser not in JOINS_LINES) is None


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.id)
def test_spans_are_ordered_disjoint_and_hold_what_the_item_rebuilds(entry):
    doc = parse(entry)
    joined = entry.parser in JOINS_LINES
    items = [item for item in doc.items() if not (joined and isinstance(item, Residue) and any(
        other.span[0] < item.span[0] and item.span[1] <= other.span[1]
        for other in doc.rules))]
    inside = [item for item in doc.residue if item not in items]

    def plain(text: str) -> str:
        return normalize_ws(text).replace(" ", "") if joined else normalize_ws(text)

    previous_end = 0
    for item in items:
        start, end = item.span
        assert previous_end <= start <= end, item
        assert doc.text[previous_end:start].strip() == "", (previous_end, start)
        source = doc.text[start:end]
        for residue in sorted(inside, key=lambda r: r.span, reverse=True):
            if start < residue.span[0] and residue.span[1] <= end:
                source = (source[:residue.span[0] - start] + " "
                          + source[residue.span[1] - start:])
        assert plain(source) == plain(item.reconstruct()), item
        previous_end = end
    assert doc.text[previous_end:].strip() == ""


def test_lossless_check_detects_a_lost_character():
    entry = next(e for e in ENTRIES if e.id == "cr-2025-06-06-chapter7")
    doc = parse(entry)
    first = doc.rules[5]
    damaged = type(first)(**{**first.__dict__, "text": first.text[:-1]})
    rules = (*doc.rules[:5], damaged, *doc.rules[6:])
    assert lossless_mismatch(Document(doc.meta, doc.text, rules)) is not None


def test_every_catalogued_file_exists():
    assert all(Path(SOURCES / entry.file).is_file() or (SOURCES / entry.file / "SHA256SUMS")
               .is_file() for entry in ENTRIES)
