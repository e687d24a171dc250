"""Every bundled source is parsed losslessly: fields and residue rebuild its text."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from rulesdb.ingest.lossless import lossless_mismatch, normalize_ws
from rulesdb.ingest.model import Document
from rulesdb.sources.catalog import load_catalog

from conftest import SOURCES

ENTRIES = load_catalog(SOURCES / "catalog.toml")


def parse(entry) -> Document:
    module = importlib.import_module(f"rulesdb.ingest.{entry.parser}")
    return module.parse((SOURCES / entry.file).read_bytes())


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.id)
def test_fields_and_residue_rebuild_the_source(entry):
    doc = parse(entry)
    assert lossless_mismatch(doc) is None


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.id)
def test_spans_are_ordered_disjoint_and_hold_what_the_item_rebuilds(entry):
    doc = parse(entry)
    previous_end = 0
    for item in doc.items():
        start, end = item.span
        assert previous_end <= start <= end, item
        assert doc.text[previous_end:start].strip() == "", (previous_end, start)
        assert normalize_ws(doc.text[start:end]) == normalize_ws(item.reconstruct()), item
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
    assert all(Path(SOURCES / entry.file).is_file() for entry in ENTRIES)
