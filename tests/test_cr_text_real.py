"""Golden checks of the Comprehensive Rules text parser on the bundled chapter-7 seed and, when
../shared/corpus/cr is present, on the real releases."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from rulesdb.ingest.cr_text import parse
from rulesdb.ingest.lossless import lossless_mismatch
from rulesdb.ingest.model import DocumentMeta, Example, Rule

from conftest import SOURCE_FILES, corpus_files, needs_corpus
from cr_text_helpers import SEED, read_seed

# --- the bundled chapter-7 seed ------------------------------------------------------------

# Verified independently with grep on the source file:
#   grep -cE '^[0-9]{3}\. '            -> 32 sections
#   grep -cE '^[0-9]{3}\.[0-9]+\. '    -> 433 rules
#   grep -cE '^[0-9]{3}\.[0-9]+[a-z] ' -> 1004 subrules
#   grep -cE '^[0-9]'                  -> 1469 numbered lines in all (1437 without sections)
#   grep -c  '^Example: '              -> 91 examples
SEED_COUNTS = {"section": 32, "rule": 433, "subrule": 1004}


@pytest.fixture(scope="module")
def seed_text() -> str:
    return read_seed()


@pytest.fixture(scope="module")
def seed_doc():
    return parse(SOURCE_FILES[SEED].read_bytes())


def test_seed_counts(seed_doc) -> None:
    assert Counter(r.kind for r in seed_doc.rules) == SEED_COUNTS
    assert len(seed_doc.rules) == 1469
    assert sum(r.kind in ("rule", "subrule") for r in seed_doc.rules) == 1437
    assert sum(len(r.examples) for r in seed_doc.rules) == 91
    assert seed_doc.glossary == ()
    assert seed_doc.parts == ()
    assert seed_doc.residue == ()
    assert seed_doc.warnings == ()


def test_seed_meta(seed_doc) -> None:
    assert seed_doc.meta == DocumentMeta(
        kind="comprehensive_rules",
        title="Magic: The Gathering Comprehensive Rules",
        effective_date=None,
        date_text=None,
        covers=("700-731",),
    )


def test_seed_lossless(seed_doc) -> None:
    assert lossless_mismatch(seed_doc) is None


def _line_at(text: str, prefix: str) -> tuple[int, str]:
    start = text.index("\n" + prefix) + 1
    return start, text[start : text.index("\n", start)]


def test_seed_chosen_items(seed_doc, seed_text: str) -> None:
    by_number = {r.number: r for r in seed_doc.rules}
    start, line = _line_at(seed_text, "702.19. Trample")
    assert by_number["702.19"] == Rule(
        number="702.19",
        parent="702",
        kind="rule",
        text="Trample",
        marker="702.19.",
        title="Trample",
        span=(start, start + len(line)),
    )
    start, line = _line_at(seed_text, "702.19b ")
    ex1_start, ex1 = _line_at(seed_text, "Example: A 2/2 creature that can block")
    ex2_start, ex2 = _line_at(seed_text, "Example: A 6/6 green creature")
    assert by_number["702.19b"] == Rule(
        number="702.19b",
        parent="702.19",
        kind="subrule",
        text=line.removeprefix("702.19b "),
        marker="702.19b",
        examples=(
            Example(ex1.removeprefix("Example: "), "Example:", (ex1_start, ex1_start + len(ex1))),
            Example(ex2.removeprefix("Example: "), "Example:", (ex2_start, ex2_start + len(ex2))),
        ),
        span=(start, ex2_start + len(ex2)),
    )
    assert seed_text.startswith("700. General\n")
    assert seed_doc.rules[0] == Rule(
        number="700",
        parent=None,
        kind="section",
        text="General",
        marker="700.",
        title="General",
        span=(0, len("700. General")),
    )
    assert [r.number for r in seed_doc.rules if r.kind == "section"] == [
        str(n) for n in range(700, 732)
    ]


def test_seed_tree_invariants(seed_doc) -> None:
    numbers = set()
    previous_end = -1
    for rule in seed_doc.rules:
        assert rule.span[0] >= previous_end
        previous_end = rule.span[1]
        assert rule.parent is None or (
            rule.parent in numbers and rule.number.startswith(rule.parent)
        )
        assert "." not in rule.text[:1]
        numbers.add(rule.number)


# --- the real releases in ../shared/corpus/cr (skipped when absent) -------------------------

# Verified independently with awk over the body (from the second occurrence of the first
# chapter heading to the second "Glossary" line) and over the glossary blocks.
CORPUS_COUNTS = {
    "MagicCompRules-2004-10-01.txt": (5, 71, 332, 396, 103, 319),
    "MagicCompRules-2009-10-01.txt": (9, 114, 714, 886, 195, 424),
    "MagicCompRules-2016-08-26.txt": (9, 129, 904, 1228, 238, 519),
    "MagicCompRules-2019-01-25.txt": (9, 130, 941, 1387, 243, 554),
    "MagicCompRules-2023-10-13.txt": (9, 142, 1097, 1791, 276, 664),
    "MagicCompRules-2025-02-07.txt": (9, 144, 1127, 1895, 274, 703),
}


@needs_corpus
@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_corpus_release(path: Path) -> None:
    data = path.read_bytes()
    doc = parse(data)
    kinds = Counter(r.kind for r in doc.rules)
    examples = sum(len(r.examples) for r in doc.rules)
    got = (
        kinds["chapter"],
        kinds["section"],
        kinds["rule"],
        kinds["subrule"],
        examples,
        len(doc.glossary),
    )
    assert got == CORPUS_COUNTS[path.name]
    assert doc.meta.effective_date == path.stem.removeprefix("MagicCompRules-")
    assert [p.name for p in doc.parts] == [
        "title",
        "introduction",
        "contents",
        "glossary",
        "credits",
    ]
    assert lossless_mismatch(doc) is None
