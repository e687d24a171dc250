"""The text of release files whose reading takes long (PDF: 0.3-0.45 s, .docx: 0.15 s), read
in a worker process from the moment `rulesdb add` starts, while the modules the add needs are
imported (0.2 s): a PDF's add takes 0.08-0.1 s less, a .docx's 0.04 s. A .doc or .rtf file,
read in 0.01-0.02 s, is not worth the worker. `parse_release` takes the text from the worker
(rulesdb.sources.release); without a worker (see rulesdb.background), or when the worker
failed, the text is read when it is needed.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from ..background import Background, can_fork
from ..ingest.forms import DOCX, PDF, form_of, release_text

SLOW = (PDF, DOCX)  # the forms whose text is read early


def read_text(data: bytes, max_bytes: int) -> tuple[str, str, list[str]]:
    """(form, text, notes) of a release file of any form, as `release_text` reads it."""
    notes: list[str] = []
    form, text = release_text(data, notes, max_bytes)
    return form, text, notes


class EarlyText:
    """The text of one file's bytes, being read by a worker."""

    def __init__(self, data: bytes, max_bytes: int) -> None:
        self.data = data
        self.worker = Background()
        self.worker.submit(partial(read_text, max_bytes=max_bytes), data)

    def result(self, data: bytes) -> tuple[str, str, list[str]] | None:
        """What the worker read, when it read these very bytes (else None)."""
        if data != self.data:
            self.cancel()
            return None
        return self.worker.result()

    def cancel(self) -> None:
        """Stop the worker (its text is not wanted)."""
        self.worker.cancel()


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
