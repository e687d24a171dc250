"""A PDF's text from its pages read in shares (`pdf_text.pdf_part`, each share in a worker
process of its own: reading 200-300 pages takes PDFium and Python 0.3-0.5 s), joined and
checked as the pages read in order would be: the first page that cannot be read, the page
that takes the text past its limit, a scan's pages without text."""

from __future__ import annotations

from dataclasses import dataclass

from .model import ParseError
from .pdf_lines import PrintedLine, paragraphs

MAX_PAGES = 5000  # a release has 200-300 pages; beyond this a file is no rules document
# pages without text that make a PDF a scan, beyond any blank page a document may have
_SCAN_SHARE = 0.5
READ_WITH_PDFIUM = "text read from a PDF: its lines joined into paragraphs by their layout"


@dataclass(frozen=True)
class PdfPart:
    """What reading a share of a PDF's pages found (`pdf_text.pdf_part`), for `pdf_joined`."""

    count: int | None  # the document's pages (None: it did not open, `error` says why)
    pages: list[list[PrintedLine]]  # the lines of each page read, from the share's first
    error: str | None = None  # what stopped the reading, at the page after the last read
    locks: tuple[str, ...] = ()  # what its owner forbids (read with the first share only)


def pdf_joined(parts: list[PdfPart], max_bytes: int, notes: list[str] | None = None) -> str:
    """The text of a PDF from its shares of pages (`pdf_text.pdf_part`, in order), one
    paragraph a line; ParseError as `pdf_text.pdf_text` raises, for what a reading of the
    pages in order meets first."""
    first = parts[0]
    if first.count is None:
        raise ParseError(first.error or "", 0)
    if notes is not None:
        notes.extend(first.locks)
    count = first.count
    if count == 0:
        raise ParseError("a PDF document with no pages", 0)
    if count > MAX_PAGES:
        raise ParseError(f"a PDF document of {count} pages, more than the {MAX_PAGES} a "
                         "rules document could have: not read", 0)
    lines: list[PrintedLine] = []
    empty, size = 0, 0
    for part in parts:
        for page_lines in part.pages:
            empty += not page_lines
            size += sum(len(line.text) for line in page_lines)
            if size > max_bytes:
                raise ParseError(f"a PDF document whose text is larger than "
                                 f"{max_bytes / 1024 / 1024:.3g} MB, the most read (--max-mb)", 0)
            lines.extend(page_lines)
        if part.error is not None:
            raise ParseError(part.error, 0)
    if empty == count or empty > _SCAN_SHARE * count:
        what = "none of its" if empty == count else f"{empty} of its {count}"
        raise ParseError(f"a PDF document with no text layer on {what} pages: a scan (pictures "
                         "of pages) cannot be read; the release's .txt, .docx or a PDF with "
                         "text is needed", 0)
    if notes is not None:
        notes.append(READ_WITH_PDFIUM)
    return paragraphs(lines)
