"""Bad and hostile files in the forms besides text: a zip bomb, a ZIP that is no Word
document, a damaged or encrypted PDF, a scan, a cut-short .doc, markup nested without end:
each is one line naming the file, exit code 2, nothing added; and the files of each form
damaged at random give a clean error or a parse, never a traceback nor a hang."""

from __future__ import annotations

import io
import subprocess
import sys
import time
import zipfile

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rulesdb.ingest.forms import release_text
from rulesdb.ingest.model import ParseError

from conftest import SOURCES
from forms_helpers import ENCRYPTED_PDF, damaged, docx, pdf, rtf
from test_add import release

HISTORY = SOURCES.parent / "history"
DOC = (HISTORY / "MagicCompRules-2003-06-01.doc").read_bytes()


def zip_bomb() -> bytes:
    """A .docx whose document part is 64 MB of zeros, 64 KB compressed."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("word/document.xml", bytes(64 * 1024 * 1024))
    return buffer.getvalue()


def lying_zip_bomb() -> bytes:
    """A zip bomb whose entry claims a small size (what is inflated is counted)."""
    data = bytearray(zip_bomb())
    name = b"word/document.xml"
    local = data.index(name) - 30  # its local header, then its entry in the directory
    central = data.index(name, data.index(b"PK\x01\x02")) - 46
    data[local + 22:local + 26] = (1000).to_bytes(4, "little")
    data[central + 24:central + 28] = (1000).to_bytes(4, "little")
    return bytes(data)


def spreadsheet() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("xl/workbook.xml", "<workbook/>")
    return buffer.getvalue()


def dtd() -> bytes:
    laughs = ('<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa">'
              '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><d>&b;</d>')
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("word/document.xml", laughs)
    return buffer.getvalue()


# name of the case: (file name, bytes, the error after "Error: FILE: ")
HOSTILE = {
    "zip bomb": ("bomb.docx", zip_bomb, "a Word document (.docx) whose word/document.xml is "
                 "67108864 bytes uncompressed, more than 20 MB, the most read (--max-mb): not "
                 "inflated"),
    # zipfile inflates no more than the entry claims, then finds the checksum wrong
    "zip bomb that lies about its size": (
        "liar.docx", lying_zip_bomb, "a damaged Word document: word/document.xml cannot be "
        "read (Bad CRC-32 for file 'word/document.xml')"),
    "zip that is no Word document": (
        "book.docx", spreadsheet, "a ZIP archive that is not a Word document (no "
        "word/document.xml; it holds [Content_Types].xml, xl/workbook.xml)"),
    "XML with a DTD (entity expansion)": (
        "laughs.docx", dtd, "a Word document (.docx) whose XML declares a DTD (Word never "
        "writes one): not read"),
    "XInclude in a .docx's text": (
        "include.docx", lambda: docx('<w:p><w:r><w:t xmlns:xi="http://www.w3.org/2001/XInclude">'
                                     '<xi:include href="file:///etc/passwd"/>702.19. Trample'
                                     "</w:t></w:r></w:p>"),
        "a Word document (.docx) whose text holds an XInclude (<xi:include>, which Word never "
        "writes: it would take text from outside the document): not read"),
    "damaged ZIP": ("cut.docx", lambda: docx(["a release"])[:60],
                    "a damaged ZIP archive (File is not a zip file), not a readable Word "
                    "document"),
    "damaged PDF": ("cut.pdf", lambda: pdf(release())[:400],
                    "a damaged PDF document: it cannot be opened (PDFium: Data format error)"),
    "encrypted PDF": ("locked.pdf", lambda: ENCRYPTED_PDF,
                      "an encrypted PDF document: a password is needed to open it"),
    "scan: PDF without a text layer": (
        "scan.pdf", lambda: pdf("", scan_pages=3),
        "a PDF document with no text layer on none of its pages: a scan (pictures of pages) "
        "cannot be read; the release's .txt, .docx or a PDF with text is needed"),
    "PDF mostly without a text layer": (
        "half.pdf", lambda: pdf(release(), lines_per_page=60, scan_pages=3),
        "a PDF document with no text layer on 3 of its 4 pages: a scan (pictures of pages) "
        "cannot be read; the release's .txt, .docx or a PDF with text is needed"),
    "truncated .doc": ("cut.doc", lambda: DOC[:100_000],
                       "a damaged Word document: its container cannot be read (incomplete OLE "
                       "sector)"),
    "OLE2 file that is no Word document": (
        "sheet.doc", lambda: DOC.replace("WordDocument".encode("utf-16-le"),
                                         "WordDocumenX".encode("utf-16-le")),
        "an Office (OLE2) file that is not a Word document (no WordDocument stream)"),
    "RTF nested without end": ("deep.rtf", lambda: b"{\\rtf1 " + b"{" * 5000 + b"x",
                               "byte 1006: an RTF document whose groups nest deeper than 1000: "
                               "not read"),
    "RTF with no text": ("empty.rtf", lambda: b"{\\rtf1{\\fonttbl{\\f0 Times;}}}",
                         "an RTF document with no text"),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_file_is_one_line_exit_2_and_nothing_added(tmp_path, case):
    name, make, message = HOSTILE[case]
    path = tmp_path / name
    path.write_bytes(make())
    db_path = tmp_path / "rules.db"
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "rulesdb", "add", str(path), "--db",
                           str(db_path)], capture_output=True, text=True, check=False,
                          timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"Error: {name}: {message}\n")
    assert not db_path.exists()
    assert time.perf_counter() - started < 60


def test_max_mb_bounds_what_a_docx_inflates_to(tmp_path):
    path = tmp_path / "r.docx"
    path.write_bytes(docx(release().split("\n")))
    small = subprocess.run([sys.executable, "-m", "rulesdb", "add", str(path), "--db",
                            str(tmp_path / "rules.db"), "--max-mb", "0.002"],
                           capture_output=True, text=True, check=False)
    assert small.returncode == 2
    assert small.stderr.startswith("Error: r.docx: a Word document (.docx) whose "
                                   "word/document.xml is ")
    assert small.stderr.endswith("more than 0.002 MB, the most read (--max-mb): not "
                                 "inflated\n")


# small releases in each form, to damage
FORMS = {"docx": docx(release().split("\n")), "rtf": rtf(release()),
         "pdf": pdf(release(), lines_per_page=20), "doc": DOC}
SECONDS = 20  # far beyond any read: a damaged file that takes longer hangs


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.data_too_large])
@given(data=st.data())
def test_damage_to_any_form_gives_a_clean_error_or_a_text(data) -> None:
    form = data.draw(st.sampled_from(sorted(FORMS)), label="form")
    file = data.draw(damaged(FORMS[form]), label="damage")
    started = time.perf_counter()
    try:
        read, text = release_text(file)
    except ParseError as exc:
        assert exc.message and "\n" not in exc.message
        event(f"{form}: error: {exc.message[:30]}")
        return
    finally:
        assert time.perf_counter() - started < SECONDS
    event(f"{form}: read as {read}")
    assert isinstance(text, str) and text.strip()
