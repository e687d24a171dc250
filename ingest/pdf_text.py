"""The text of a PDF release: its text layer read with PDFium (pypdfium2), each line with
where it stands on its page, laid out again as paragraphs (`pdf_lines`).

A PDF that cannot be opened (damaged, or encrypted with a password) or has no text layer
(a scan: pictures of pages) is refused with one line saying so. One that opens without a
password although encrypted, its owner password forbidding copying its text, is read, and
a note says so (docs/releases.md says why).
"""

from __future__ import annotations

import ctypes
import re
from collections.abc import Callable, Iterator

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from .model import ParseError
from .pdf_lines import HYPHEN_JOINED, PrintedLine
from .pdf_parts import MAX_PAGES, PdfPart, pdf_joined

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
# where a line's first word ends: at a space, or after a hyphen (a line may wrap there; a
# dash is not taken for a place every typesetter wraps at)
_WORD_END = re.compile(r"[ \t]|(?<=[-\ufffe])")
# share of its font's height a line's characters stand off its baseline at the most: a
# superscript is raised a third of it, the next line set a whole height and more below
_SAME_BASELINE = 0.5
_MAY_COPY = 1 << 4  # the permission (bit 5) to copy or extract a PDF's text


def pdf_text(data: bytes, max_bytes: int, notes: list[str] | None = None) -> str:
    """The text of the PDF `data`, one paragraph a line; ParseError with one line when it
    cannot be read, has no text layer, or its text passes `max_bytes`."""
    return pdf_joined([pdf_part(data, max_bytes)], max_bytes, notes)


def pdf_part(data: bytes, max_bytes: int, part: int = 0, parts: int = 1) -> PdfPart:
    """The lines of the `part`-th of `parts` equal shares of the PDF's pages (by their order),
    read up to the first page that cannot be read, or that takes the share's text past
    `max_bytes`: the shares read apart (in worker processes) join as the whole read at once
    would (`pdf_joined`)."""
    try:
        document = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        return PdfPart(None, [], _unopened(str(exc)))
    try:
        locks = tuple(_locks(document)) if part == 0 else ()
        count = len(document)
        pages: list[list[PrintedLine]] = []
        if count > MAX_PAGES:
            return PdfPart(count, pages, locks=locks)
        size = 0
        for index in range(count * part // parts, count * (part + 1) // parts):
            try:
                page_lines = _page_lines(document, index)
            except ParseError as exc:
                return PdfPart(count, pages, exc.message, locks)
            pages.append(page_lines)
            size += sum(len(line.text) for line in page_lines)
            if size > max_bytes:  # the whole is larger still: `pdf_joined` refuses it
                break
        return PdfPart(count, pages, locks=locks)
    finally:
        document.close()


def _locks(document: pdfium.PdfDocument) -> list[str]:
    """What an owner password that did not keep the PDF from opening forbids, said for a
    user: an owner may forbid copying text, which a viewer honours; the text is the
    release's all the same, read as its .txt and .docx give it."""
    if pdfium_c.FPDF_GetSecurityHandlerRevision(document.raw) < 0:
        return []  # not encrypted
    if pdfium_c.FPDF_GetDocPermissions(document.raw) & _MAY_COPY:
        return []
    return ["an encrypted PDF whose owner forbids copying its text: it opens without a "
            "password, and its text is read as the release's other forms give it"]


def _unopened(reason: str) -> str:
    """Why PDFium could not open a PDF, said for a user."""
    if "password" in reason.lower():
        return "an encrypted PDF document: a password is needed to open it"
    detail = reason.removeprefix("Failed to load document").strip(" .()") or reason
    return f"a damaged PDF document: it cannot be opened ({detail})"


def _page_lines(document: pdfium.PdfDocument, index: int) -> list[PrintedLine]:
    """The lines of page `index` that hold text, with their places."""
    try:
        page = document[index]
    except pdfium.PdfiumError:
        raise ParseError(f"a damaged PDF document: its page {index + 1} cannot be read",
                         0) from None
    try:
        textpage = page.get_textpage()
        try:
            return list(_lines(textpage, index))
        finally:
            textpage.close()
    finally:
        page.close()


def _lines(textpage: pdfium.PdfTextPage, page: int) -> Iterator[PrintedLine]:
    """Each line of a text page with text on it, as a PrintedLine."""
    text = textpage.get_text_range()
    raw = textpage.raw
    rect = pdfium_c.FS_RECTF()
    x, y = ctypes.c_double(), ctypes.c_double()
    # the text's characters are the page's, one for one, unless PDFium left some out
    same = textpage.count_chars() == len(text)

    def char(at: int) -> int:
        """The page's index of the character at text index `at`."""
        return at if same else pdfium_c.FPDFText_GetCharIndexFromTextIndex(raw, at)

    def box(at: int) -> tuple[float, float, float]:
        """(left, right, height) of the character at text index `at`: of its advance, not
        its ink (a glyph's side bearings are part of the width a line is set in)."""
        pdfium_c.FPDFText_GetLooseCharBox(raw, char(at), rect)
        return rect.left, rect.right, rect.top - rect.bottom

    def baseline(at: int) -> float:
        """The baseline of the character at text index `at`."""
        pdfium_c.FPDFText_GetCharOrigin(raw, char(at), x, y)
        return y.value

    def height(at: int) -> float:
        """The height of the character at text index `at`."""
        return box(at)[2]

    for start, end in _baseline_lines(text, _physical_lines(text), baseline, height):
        line = text[start:end]
        if not line.strip():
            continue
        first = start + len(line) - len(line.lstrip())
        last = start + len(line.rstrip()) - 1
        word_end = _WORD_END.search(line, first - start + 1)
        last_of_word = start + word_end.start() - 1 if word_end else last
        pdfium_c.FPDFText_GetCharOrigin(raw, char(first), x, y)
        line_left, _, size = box(first)
        _, line_right, _ = box(last)
        _, word_right, _ = box(min(last_of_word, last))
        yield PrintedLine(page, line, line_left, line_right, y.value, size,
                          word_right - line_left)


def _baseline_lines(text: str, bounds: list[tuple[int, int]],
                    baseline: Callable[[int], float], height: Callable[[int], float]
                    ) -> Iterator[tuple[int, int]]:
    """`bounds` with each line split where its characters move to another baseline:
    PDFium runs a line into the next one at times (a numbered paragraph's first line
    after a sentence's end, "… in the Magic game. 1. A player draws …"). Only a line
    whose first and last characters stand on different baselines is looked at."""
    for start, end in bounds:
        line = text[start:end]
        first = start + len(line) - len(line.lstrip())
        last = start + len(line.rstrip()) - 1
        if last <= first:
            yield start, end
            continue
        off = _SAME_BASELINE * height(first)
        if abs(baseline(first) - baseline(last)) < off:
            yield start, end
            continue
        at, level = start, baseline(first)
        for index in range(first + 1, last + 1):
            if text[index].isspace():
                continue
            here = baseline(index)
            if abs(here - level) >= off:
                yield at, index
                at, level = index, here
        yield at, end


def _physical_lines(text: str) -> list[tuple[int, int]]:
    """(start, end) of each line of a page's text as printed: PDFium's lines, each split
    after a hyphen PDFium took for a word broken over two lines (U+FFFE), whose line break
    it dropped."""
    bounds = []
    start = 0
    for match in (*_LINE_BREAK.finditer(text), None):
        end = match.start() if match else len(text)
        hyphen = text.find(HYPHEN_JOINED, start, end)
        while hyphen != -1:
            bounds.append((start, hyphen + 1))
            start = hyphen + 1
            hyphen = text.find(HYPHEN_JOINED, start, end)
        bounds.append((start, end))
        if match:
            start = match.end()
    return bounds
