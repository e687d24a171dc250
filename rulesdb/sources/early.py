"""The text of release files whose reading takes long (PDF: 0.3-0.55 s, .docx: 0.15 s), read
in a worker process from the moment `rulesdb add` starts, while the modules the add needs are
imported (0.2 s): a PDF's add takes 0.08-0.1 s less, a .docx's 0.04 s. A PDF's pages are read
by PDF_PARTS workers, each its share (rulesdb.ingest.pdf_parts joins them): one worker
outlasted the imports by 0.1-0.25 s. A .doc or .rtf file, read in 0.01-0.02 s, is not worth
the worker. `parse_release` takes the text from the worker
(rulesdb.sources.release); without a worker (see rulesdb.background), or when the worker
failed, the text is read when it is needed.

A PDF is read by PDFium, C code that inflates a page's content stream whole (a 2 MB file can
hold a page of 2 GB): it is always read in a worker bounded to PDF_MEMORY bytes of memory
more than the add's own (a release takes 35 MB), wherever a worker can be forked, even
with RULESDB_WORKERS=0; a worker that dies is one line saying why, never a crash of the add.
"""

from __future__ import annotations

import signal
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..background import Background, WorkerDied, can_fork
from ..ingest.forms import DOCX, PDF, form_of, read_as_text, release_text
from ..ingest.model import ParseError

if TYPE_CHECKING:  # the workers are forked before the readers load
    from ..ingest.pdf_parts import PdfPart

SLOW = (PDF, DOCX)  # the forms whose text is read early
PDF_MEMORY = 512 * 1024 * 1024  # bytes a PDF's reader may take beyond the add's own
PDF_PARTS = 2  # workers reading a PDF, each its share of the pages


def read_text(data: bytes, max_bytes: int) -> tuple[str, str, list[str]] | tuple[str, int]:
    """(form, text, notes) of a release file of any form, as `release_text` reads it, or
    (message, offset) of the ParseError it raised (handed over from a worker whole)."""
    notes: list[str] = []
    try:
        form, text = release_text(data, notes, max_bytes)
    except ParseError as exc:
        return exc.message, exc.offset
    except MemoryError:  # Python's part of the reading, in a bounded worker
        return _too_large(), 0
    return form, text, notes


def read_pdf_part(data: bytes, max_bytes: int, part: int, parts: int) -> PdfPart:
    """`pdf_text.pdf_part` of a PDF, in a bounded worker (whose Python may run out of
    memory)."""
    from ..ingest.pdf_parts import PdfPart
    from ..ingest.pdf_text import pdf_part

    try:
        return pdf_part(data, max_bytes, part, parts)
    except MemoryError:
        return PdfPart(None, [], _too_large())


def _too_large() -> str:
    return (f"a PDF document that takes more than {PDF_MEMORY // 1024 // 1024} MB of memory "
            "to read (a page whose content inflates past it; a release takes 35 MB): not read")


class EarlyText:
    """The text of one file's bytes, being read by a worker (a PDF's by PDF_PARTS bounded
    ones, each reading its share of the pages)."""

    def __init__(self, data: bytes, max_bytes: int) -> None:
        self.data = data
        self.max_bytes = max_bytes
        self.pdf = form_of(data) == PDF
        self.workers = [Background(memory=PDF_MEMORY if self.pdf else None)
                        for _ in range(PDF_PARTS if self.pdf else 1)]
        for part, worker in enumerate(self.workers):
            worker.submit(partial(read_pdf_part, max_bytes=max_bytes, part=part,
                                  parts=PDF_PARTS) if self.pdf
                          else partial(read_text, max_bytes=max_bytes), data)

    def result(self, data: bytes) -> tuple[str, str, list[str]] | None:
        """What the workers read, when they read these very bytes (else None); ParseError
        when the file cannot be read, or a bounded reader died."""
        if data != self.data:
            self.cancel()
            return None
        read = [self._value(worker) for worker in self.workers]
        if self.pdf:
            from ..ingest.pdf_parts import pdf_joined

            notes: list[str] = []
            text = pdf_joined(read, self.max_bytes, notes)
            return PDF, read_as_text(PDF, text, notes, self.max_bytes), notes
        if len(read[0]) == 2:
            message, offset = read[0]
            raise ParseError(message, offset)
        return read[0]

    @staticmethod
    def _value(worker: Background) -> Any:
        try:
            return worker.result()
        except WorkerDied as exc:
            # out of memory, PDFium aborts (and the system's killer sends SIGKILL)
            if exc.signal in (signal.SIGABRT, signal.SIGKILL):
                raise ParseError(_too_large(), 0) from None
            raise ParseError(f"a PDF document PDFium could not read: its reader {exc}",
                             0) from None

    def cancel(self) -> None:
        """Stop the workers (their text is not wanted)."""
        for worker in self.workers:
            worker.cancel()


def read_early(paths: list[Path], max_bytes: int) -> dict[Path, EarlyText]:
    """A worker reading each file of `paths` that is a PDF or a .docx (none when workers
    cannot be forked), by the file's resolved path; what is not a regular file, cannot be
    read or holds more than `max_bytes` is left to the add (which says why)."""
    early: dict[Path, EarlyText] = {}
    if not can_fork():
        return early
    for path in paths:
        if str(path) == "-":
            continue
        try:
            if not path.is_file():  # a device or a pipe: read once, by the add
                continue
            with path.open("rb") as stream:
                data = stream.read(max_bytes + 1)
        except OSError:
            continue
        if len(data) > max_bytes:
            continue
        if form_of(data) in SLOW:
            early[path.resolve()] = EarlyText(data, max_bytes)
    return early


def read_pdf(data: bytes, max_bytes: int) -> tuple[str, str, list[str]]:
    """(form, text, notes) of a PDF read now, by a bounded worker where one can be forked
    (see the module's docstring); ParseError as `EarlyText.result`."""
    read = EarlyText(data, max_bytes).result(data)
    assert read is not None
    return read
