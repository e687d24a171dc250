"""Fidelity of the readers on real releases published in several forms
(../shared/corpus/formats: skipped when absent): each PDF gives what its .docx twin gives,
rule by rule and entry by entry (typography aside), and an early PDF (2004, 2006) what the
text release of its date gives; the 2003 .doc and .rtf give the same rules and glossary
entries."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesdb.ingest import cr_any
from rulesdb.ingest.fidelity import agreement, typography
from rulesdb.ingest.forms import DOC, DOCX, PDF, RTF, release_text

from conftest import ROOT

FORMATS = ROOT.parent / "shared" / "corpus" / "formats"
TWINS = ["2014-05-01", "2014-06-01", "2014-07-18", "2023-02-03"]
needs_formats = pytest.mark.skipif(not FORMATS.is_dir(), reason=f"{FORMATS} is absent")


def read(path: Path, form: str):
    found, text = release_text(path.read_bytes())
    assert found == form
    return cr_any.parse_text(text)


@needs_formats
@pytest.mark.parametrize("day", TWINS)
def test_a_pdf_gives_what_its_docx_twin_gives(day):
    docx = read(FORMATS / f"MagicCompRules-{day}.docx", DOCX)
    pdf = read(FORMATS / f"MagicCompRules-{day}.pdf", PDF)
    figures = agreement(docx, pdf)
    assert (figures.rule_recall, figures.rule_precision, figures.text_agreement) == (1, 1, 1), \
        figures.differing
    assert min(figures.glossary_recall, figures.glossary_precision) >= 0.995
    assert pdf.meta == docx.meta
    front = ("title", "introduction")  # the credits' spacing and odd glyphs aside
    assert [(p.name, typography(p.text)) for p in pdf.parts if p.name in front] == \
        [(p.name, typography(p.text)) for p in docx.parts if p.name in front]


def twin(day: str, archived: dict):
    """The reading a PDF of `day` is measured against: its .docx twin, or the text release
    of the same date in the history archive."""
    docx = FORMATS / f"MagicCompRules-{day}.docx"
    if docx.is_file():
        return read(docx, DOCX)
    return cr_any.parse(archived[f"MagicCompRules-{day}.txt"].data)


@needs_formats
@pytest.mark.parametrize("day", ["2004-02-01", "2006-02-01"])
def test_an_early_pdf_gives_what_its_text_twin_gives(day, archived):
    """The PDFs of 2003-2006 are laid out otherwise than the later ones (first-line
    indents, headings at a page's foot, lines PDFium runs together): read as their text
    releases, typography aside (those write a dash as a hyphen, ‘ as ")."""
    pdf = read(FORMATS / f"MagicCompRules-{day}.pdf", PDF)
    text = twin(day, archived)
    figures = agreement(text, pdf)
    assert (figures.rule_recall, figures.rule_precision) == (1, 1)
    assert min(figures.text_agreement, figures.glossary_recall,
               figures.glossary_precision) >= 0.995, figures
    assert pdf.meta == text.meta
    # no entry of either has a sentence for a heading (a definition taken for one)
    assert all(not entry.term.endswith(".") for entry in pdf.glossary)


@pytest.mark.skipif(not FORMATS.is_dir(), reason=f"{FORMATS} is absent")
@pytest.mark.parametrize("path", sorted(FORMATS.glob("*.pdf")) if FORMATS.is_dir() else [],
                         ids=lambda path: path.stem)
def test_the_glossary_of_every_pdf_is_its_twins(path, archived):
    day = path.stem.removeprefix("MagicCompRules-")
    figures = agreement(twin(day, archived), read(path, PDF))
    assert (figures.glossary_recall, figures.glossary_precision) == (1, 1), figures


@needs_formats
def test_the_2003_doc_and_rtf_give_the_same_document():
    doc = read(FORMATS / "MagicCompRules-2003-06-01.doc", DOC)
    rtf = read(FORMATS / "MagicCompRules-2003-06-01.rtf", RTF)
    figures = agreement(doc, rtf)
    assert (figures.rules, figures.rule_recall, figures.rule_precision,
            figures.text_agreement) == (589, 1, 1, 1)
    assert rtf.meta == doc.meta
    # the .rtf lost paragraph marks ("… in play.FlankingFlanking is a triggered ability …"):
    # the glossary parser sets those entries apart again, so both give the same 221 entries;
    # spaces aside (a table in "Expansion Symbol" lost a line break: "[symbol]Promotional")
    def entries(document) -> list[tuple[str, bool, str]]:
        return [(entry.term, entry.obsolete, "".join(typography(entry.definition).split()))
                for entry in document.glossary]

    assert len(doc.glossary) == 221
    assert entries(rtf) == entries(doc)
