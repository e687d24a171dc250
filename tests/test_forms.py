"""The forms a release is published in besides text (.docx, .doc, .rtf, .pdf): told by their
bytes, each read into the text the one CR parser reads, construct by construct; a small
release read from each form gives what its text gives."""

from __future__ import annotations

import json

import pytest
import sqlite_utils
from click.testing import CliRunner

from rulesdb.cli import cli
from rulesdb.ingest import cr_any
from rulesdb.ingest.fidelity import agreement, typography
from rulesdb.ingest.forms import DOC, DOCX, PDF, RTF, TEXT, form_of, release_text

from conftest import SOURCES
from forms_helpers import docx, owner_locked_pdf, pdf, rtf
from test_add import release

HISTORY = SOURCES.parent / "history"


@pytest.mark.parametrize(("data", "form"), [
    (b"%PDF-1.7\n", PDF),
    (b"\r\n%PDF-1.4 after a line the header may follow", PDF),
    (b"PK\x03\x04rest", DOCX),
    (b"PK\x05\x06" + bytes(18), DOCX),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1rest", DOC),
    (b"{\\rtf1\\ansi hello}", RTF),
    (b"\xef\xbb\xbf{\\rtf1 hello}", RTF),
    (b"Magic: The Gathering Comprehensive Rules\r\n", TEXT),
    (b"The text mentions %PDF-1.7 inside a line", TEXT),
    (b"A release" + b" " * 2000 + b"\n%PDF-1.7 beyond the first kilobyte", TEXT),
    ("a release saved as UTF-16".encode("utf-16"), TEXT),
])
def test_the_form_is_told_by_the_bytes(data, form):
    assert form_of(data) == form


def body(*paragraphs: str) -> str:
    return "".join(paragraphs)


P = "<w:p>{}</w:p>"
R = '<w:r><w:t xml:space="preserve">{}</w:t></w:r>'
# (a construct of WordprocessingML, the text it prints)
DOCX_CONSTRUCTS = {
    "runs joined": (P.format(R.format("100.1. These ") + R.format("Magic") + R.format(" rules")),
                    "100.1. These Magic rules"),
    "an empty paragraph": (P.format(R.format("a")) + "<w:p/>" + P.format(R.format("b")),
                           "a\n\nb"),
    "a tab and a line break": (P.format(R.format("a") + "<w:r><w:tab/></w:r>" + R.format("b")
                                        + "<w:r><w:br/></w:r>" + R.format("c")), "a\tb\nc"),
    "a page break starting a paragraph": (
        P.format(R.format("Credits")) + P.format('<w:r><w:br w:type="page"/></w:r>'
                                                 + R.format("1. Game Concepts")),
        "Credits\n1. Game Concepts"),
    "hyphens": (P.format(R.format("turn") + "<w:r><w:noBreakHyphen/></w:r>" + R.format("based")
                         + R.format(" re") + "<w:r><w:softHyphen/></w:r>" + R.format("solve")),
                "turn-based resolve"),
    "revisions": (P.format(R.format("kept ") + '<w:del w:id="1"><w:r><w:delText>gone'
                           "</w:delText></w:r></w:del>" + '<w:ins w:id="2">'
                           + R.format("inserted") + "</w:ins>"), "kept inserted"),
    "hidden text": (P.format(R.format("shown") + '<w:r><w:rPr><w:vanish/></w:rPr><w:t>hidden'
                             "</w:t></w:r>" + '<w:r><w:rPr><w:vanish w:val="0"/></w:rPr>'
                             "<w:t>!</w:t></w:r>"), "shown!"),
    "a field: its result, not its instruction": (
        P.format('<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> HYPERLINK '
                 '"http://x" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/>'
                 "</w:r>" + R.format("Wizards.com") + '<w:r><w:fldChar w:fldCharType="end"/>'
                 "</w:r>"), "Wizards.com"),
    "a hyperlink and a simple field": (
        P.format('<w:hyperlink r:id="x" xmlns:r="r">' + R.format("link") + "</w:hyperlink>"
                 + '<w:fldSimple w:instr="PAGE">' + R.format(" 7") + "</w:fldSimple>"),
        "link 7"),
    "a table: a cell's paragraph a line": (
        "<w:tbl><w:tr><w:tc>" + P.format(R.format("cell one")) + "</w:tc><w:tc>"
        + P.format(R.format("cell two")) + "</w:tc></w:tr></w:tbl>", "cell one\ncell two"),
    "a symbol": (P.format('<w:r><w:sym w:font="Symbol" w:char="F0B7"/></w:r>' + R.format(" x")),
                 "· x"),
    "escaped characters": (P.format(R.format("{R/G} &amp; &lt;1&gt; “Magic™”")),
                           "{R/G} & <1> “Magic™”"),
    # a run's text holds no element: one there (no Word writes it) is stepped over, the
    # text after it kept (it was lost, and the rule with it)
    "an element inside a run's text": (
        P.format('<w:r><w:t xml:space="preserve" xmlns:x="urn:x">702.19. <x:y>no</x:y>Trample'
                 "</w:t></w:r>"), "702.19. Trample"),
}


@pytest.mark.parametrize("construct", list(DOCX_CONSTRUCTS))
def test_a_docx_construct_reads_as_printed(construct):
    xml, printed = DOCX_CONSTRUCTS[construct]
    assert release_text(docx(xml)) == (DOCX, printed)


def test_a_text_box_is_read_once_after_its_paragraph():
    box = (P.format(R.format("in the box")))
    anchored = P.format(
        R.format("before") + '<w:r><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats'
        '.org/markup-compatibility/2006"><mc:Choice Requires="wps"><w:drawing><w:txbxContent>'
        f"{box}</w:txbxContent></w:drawing></mc:Choice><mc:Fallback><w:pict><w:txbxContent>"
        f"{box}</w:txbxContent></w:pict></mc:Fallback></mc:AlternateContent></w:r>"
        + R.format(" after"))
    assert release_text(docx(anchored)) == (DOCX, "before after\nin the box")


def test_the_main_part_is_found_by_its_relationship():
    assert release_text(docx(["a release"], main="word/document2.xml")) == (DOCX, "a release")


RTF_CONSTRUCTS = {
    "paragraphs and a line break": (r"{\rtf1 a\par b\line c}", "a\nb\nc"),
    "escaped bytes in the code page": (r"{\rtf1\ansi\ansicpg1252 don\'92t \'93x\'94}",
                                       "don’t “x”"),
    "a Mac code page": (r"{\rtf1\mac don\d5t}".replace(r"\d5", r"\'d5"), "don’t"),
    "typographic words": (r"{\rtf1 a\emdash b\endash c\rquote s \ldblquote q\rdblquote}",
                          "a—b–c’s “q”"),
    "unicode and its fallback": (r"{\rtf1\uc1 x\u8212?y\uc2\u8482 TMz}", "x—y™z"),
    "destinations are not printed": (
        r"{\rtf1{\fonttbl{\f0 Times;}}{\colortbl;\red0;}{\*\generator Word;}{\info{\title T}}"
        r"{\header page head}{\footnote a note}text}", "text"),
    "a field: its result, not its instruction": (
        r'{\rtf1 at {\field{\*\fldinst{HYPERLINK "http://x"}}{\fldrslt{Wizards.com}}}.}',
        "at Wizards.com."),
    "hidden text": (r"{\rtf1 shown{\v hidden} again\v more\v0 !}", "shown again!"),
    "symbols": (r"{\rtf1 a\~b\-c\_d \{x\} \\}", "a\u00a0bc-d {x} \\"),
    "binary data is stepped over": (r"{\rtf1 a{\pict\bin4 {}\}b}c}", "ac"),
    "a page break": (r"{\rtf1 Credits\page 1. Game}", "Credits\n1. Game"),
    "the document ends with its group": (r"{\rtf1 kept}not kept", "kept"),
}


@pytest.mark.parametrize("construct", list(RTF_CONSTRUCTS))
def test_an_rtf_construct_reads_as_printed(construct):
    markup, printed = RTF_CONSTRUCTS[construct]
    assert release_text(markup.encode("latin-1")) == (RTF, printed)


def test_the_shipped_doc_reads_its_fields_by_their_results():
    form, text = release_text((HISTORY / "MagicCompRules-2003-06-01.doc").read_bytes())
    assert form == DOC
    assert text.startswith("Magic: The Gathering Comprehensive Rules\n\nThese rules are "
                           "current as of June 1, 2003.\n\nIntroduction\n")
    # a HYPERLINK field: its result only
    assert "They can be found at www.wizards.com/DCI/main.asp?x=UTR_Intro.\n" in text
    assert "HYPERLINK" not in text
    # a line break inside a paragraph (Shift+Enter) is a line break
    assert ("Announcements and payments can’t be altered after they’ve been made.\n     Some "
            "spells") in text


@pytest.mark.parametrize("form", ["docx", "rtf", "pdf"])
def test_a_small_release_reads_from_each_form_as_its_text(form):
    text = release()
    data = {"docx": lambda: docx(text.split("\n")), "rtf": lambda: rtf(text),
            "pdf": lambda: pdf(text, width=300, lines_per_page=14)}[form]()
    read = cr_any.parse_text(release_text(data)[1])
    figures = agreement(cr_any.parse_text(text), read)
    assert figures.figures() == dict.fromkeys(figures.figures(), 1.0)
    assert read.meta == cr_any.parse_text(text).meta


def test_a_pdf_locked_by_its_owner_against_copying_is_read_and_says_so():
    """It opens without a password: its text is the release's (docs/releases.md says why it
    is read), and a note says what the owner forbade."""
    notes: list[str] = []
    form, text = release_text(owner_locked_pdf(release()), notes)
    assert (form, text) == (PDF, release_text(pdf(release()))[1])
    assert notes[0] == ("an encrypted PDF whose owner forbids copying its text: it opens "
                        "without a password, and its text is read as the release's other "
                        "forms give it")
    allowed: list[str] = []
    release_text(owner_locked_pdf(release(), permissions=-4), allowed)  # copying allowed
    assert not any("encrypted" in note for note in allowed)


def test_typography_is_one_spelling_of_what_forms_print_otherwise():
    assert typography("the _Odyssey_ (TM) block, happens -- they; “x” <Wizards.com/Locator>") \
        == typography("the Odyssey™ block, happens—they; \"x\" Wizards.com/Locator")
    # the text releases of 2004-2006: a dash typed as a hyphen, a single quote as a double
    assert typography('"Creature - Goblin," happens-they; "intervening "if\' clause"') \
        == typography("“Creature—Goblin,” happens—they; “intervening ‘if’ clause”")
    assert typography("it's \"can't\" and the players' \"own\"") == \
        "it's \"can't\" and the players' \"own\""
    assert typography("one\n  paragraph,\tthen\nanother") == "one\nparagraph, then\nanother"
    assert typography("a\nb") != typography("a b")  # a rule's second paragraph is text


def test_add_takes_each_form_and_says_where_a_parse_error_is(tmp_path):
    files = {"r.docx": docx(release().split("\n")), "r.rtf": rtf(release(date="May 1, 2025")),
             "r.pdf": pdf(release(date="April 1, 2025"), width=300, lines_per_page=14)}
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    db_path = tmp_path / "rules.db"
    result = CliRunner().invoke(cli, ["add", str(tmp_path), "--db", str(db_path), "--json"])
    assert result.exit_code == 0, result.output
    documents = json.loads(result.output)["documents"]
    assert [(d["file"], d["id"], d["action"], d["rules"]) for d in documents] == [
        ("r.docx", "cr-2025-06-06", "added", 12), ("r.pdf", "cr-2025-04-01", "added", 12),
        ("r.rtf", "cr-2025-05-01", "added", 12)]
    rows = sqlite_utils.Database(db_path)["document_sources"].rows
    assert {row["name"]: row["data"] is not None for row in rows} == dict.fromkeys(files, True)
    (tmp_path / "bad.docx").write_bytes(docx(["Just some words."]))
    bad = CliRunner().invoke(cli, ["add", str(tmp_path / "bad.docx"), "--db", str(db_path)])
    assert bad.exit_code == 2
    assert bad.output == ("Error: bad.docx: line 1, column 1 of the text read from it (a Word "
                          "document (.docx)): no numbered rule found: not a Comprehensive "
                          "Rules text file\n").replace("bad.docx", str(tmp_path / "bad.docx"), 0)


def test_a_rebuild_keeps_an_edition_added_from_a_docx(tmp_path):
    path = tmp_path / "MagicCompRules.docx"
    path.write_bytes(docx(release().split("\n")))
    db_path = tmp_path / "rules.db"
    assert CliRunner().invoke(cli, ["add", str(path), "--db", str(db_path)]).exit_code == 0
    again = CliRunner().invoke(cli, ["add", str(path), "--db", str(db_path)])
    assert again.output.splitlines()[0] == ("cr-2025-06-06: already in the database with the "
                                            "same text; nothing done")
    result = CliRunner().invoke(cli, ["build", "--seeds-only", "--db", str(db_path), "--json"])
    assert result.exit_code == 0, result.output
    assert "cr-2025-06-06" in {d["id"] for d in json.loads(result.output)["documents"]}

