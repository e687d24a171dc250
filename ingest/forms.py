"""The forms Wizards publishes a Comprehensive Rules release in, told from a file's bytes
(never its name), and the text the CR parser reads made from each: a text file decoded; a
Word document (.docx, or Word 97-2003 .doc), an RTF document or a PDF read by its own reader.

Every reader gives text as a text release lays it out: one paragraph a line, an empty
paragraph an empty line. What a reader reads from inside a file (a .docx's XML, a PDF's
text) is limited to `max_bytes`, as the file itself is: a small compressed file may hold
far more.
"""

from __future__ import annotations

import re

from .decode import decode
from .model import ParseError

TEXT, DOCX, DOC, RTF, PDF = "text", "docx", "doc", "rtf", "pdf"
# what each form is called in messages
NAMES = {TEXT: "a text file", DOCX: "a Word document (.docx)",
         DOC: "a Word 97-2003 document (.doc)", RTF: "an RTF document", PDF: "a PDF document"}
DEFAULT_MAX_BYTES = 20 * 1024 * 1024  # rulesdb.sources.limits.MAX_MB

# a ZIP archive opens with a file's local header, or is empty: its end record alone
ZIP = (b"PK\x03\x04", b"PK\x05\x06")
OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
# a PDF's header ("%PDF-1.7") may follow other lines within its first kilobyte (PDF 32000-1,
# annex H.3)
_PDF_HEADER = re.compile(rb"(?:^|[\r\n])%PDF-\d\.\d")
_PDF_HEADER_WITHIN = 1024
_RTF = b"{\\rtf"
_CONTROL = re.compile("[\\x00-\\x08\\x0e-\\x1f\\x7f]")


def form_of(data: bytes) -> str:
    """The form of a release file told by its first bytes: PDF, DOCX (any ZIP archive: its
    reader says when it is not a Word document), DOC (any OLE2 container), RTF or TEXT."""
    if data.startswith(ZIP):
        return DOCX
    if data.startswith(OLE2):
        return DOC
    if data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(_RTF):
        return RTF
    if _PDF_HEADER.search(data[:_PDF_HEADER_WITHIN]):
        return PDF
    return TEXT


def release_text(data: bytes, notes: list[str] | None = None,
                 max_bytes: int = DEFAULT_MAX_BYTES) -> tuple[str, str]:
    """(form, text) of a release file of any form; ParseError (offset: a byte offset in
    `data`) when it cannot be read. What was mended is told in `notes`."""
    form = form_of(data)
    if form == TEXT:
        return form, decode(data, notes)
    # imported here: reading a text file, the common case, loads none of the readers
    if form == DOCX:
        from .docx_text import docx_text
        text = docx_text(data, max_bytes)
    elif form == DOC:
        from .doc_text import doc_text
        text = doc_text(data)
    elif form == RTF:
        from .rtf_text import rtf_text
        text = rtf_text(data)
    else:
        from .pdf_text import pdf_text
        text = pdf_text(data, max_bytes, notes)
    return form, read_as_text(form, text, notes, max_bytes)


def read_as_text(form: str, text: str, notes: list[str] | None = None,
                 max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """The `text` a reader read from a file of `form`, checked and read as a text file's is;
    ParseError when it is empty or larger than `max_bytes`."""
    if not text.strip():
        raise ParseError(f"{NAMES[form]} with no text", 0)
    if len(text) > max_bytes:
        raise ParseError(f"{NAMES[form]} whose text is larger than "
                         f"{max_bytes / 1024 / 1024:.3g} MB, the most read (--max-mb)", 0)
    # no invisible characters, line breaks as "\n"; a control character left (a PDF font's
    # glyph mapped to none) is no text
    return decode(_CONTROL.sub("", text).encode("utf-8"), notes)
