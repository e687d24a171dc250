"""One Comprehensive Rules release as `rulesdb add` takes it: its bytes and where they come
from (a file, standard input, a download), parsed, its edition id, what adding it would do
to the edition already stored (`decision`), and its rows (`store_release`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
import stat
import sys
import zlib
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path

import sqlite_utils

from ..db.readonly import read_only
from ..db.store import CatalogEntry, StoredCounts, save_document
from ..errors import InputError, position
from ..ingest import any_text
from ..ingest.forms import NAMES, PDF, TEXT, form_of, release_text
from ..ingest.model import GLOSSARY_CUT_OFF, Document, ParseError
from .early import EarlyText, read_pdf
from .limits import MAX_MB, check_item_sizes, megabytes, read_at_most

LICENSE = ("© Wizards of the Coast LLC; reproduced for reference under the Wizards of the Coast "
           "Fan Content Policy")
_ID = re.compile(r"([a-z]+)-(\d{4}-\d{2}-\d{2})")
_NAME_DATE = re.compile(r"(?<!\d)(\d{4})-?(\d{2})-?(\d{2})(?!\d)")
_SPAN = re.compile(r"(\d{3})-(\d{3})")
_ITALICS = re.compile(r"(?<!\w)_([^_]+)_(?!\w)")
_MARKS = re.compile(r"[™®]|\((?:TM|R)\)")


@dataclass(frozen=True)
class Source:
    """The bytes of one release and where they come from (a path or a URL); `early`, its
    text being read already (rulesdb.sources.early)."""

    name: str
    data: bytes
    origin: str
    early: EarlyText | None = field(default=None, compare=False, repr=False)


def file_date(name: str) -> str | None:
    """The ISO date a file name carries ("MagicCompRules 20250606.txt" → "2025-06-06")."""
    for match in _NAME_DATE.finditer(name):
        try:
            return date(int(match[1]), int(match[2]), int(match[3])).isoformat()
        except ValueError:
            continue
    return None


STDIN = "(standard input)"  # the name of a release read from "-"


def read_source(path: Path, max_bytes: int = megabytes(MAX_MB),
                keep_path: bool = False) -> Source:
    """The bytes of a file given on the command line ("-" for standard input, as in
    `curl … | rulesdb add -`), from its name (its absolute path with `keep_path`: the
    database shows where it was read); InputError when it cannot be read or is longer
    than `max_bytes`."""
    if str(path) == "-":
        return Source(STDIN, read_at_most(sys.stdin.buffer, STDIN, max_bytes), "standard input")
    shown = printable(str(path))
    try:
        # a named pipe is opened without waiting for a writer (open() would wait for one
        # forever), then read as any file; with no writer it holds nothing
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb") as stream:
            data = read_at_most(stream, shown, max_bytes)
            pipe = stat.S_ISFIFO(os.fstat(stream.fileno()).st_mode)
    except OSError as exc:
        raise InputError(f"{shown}: cannot read: {exc.strerror}") from None
    if pipe and not data:
        raise InputError(f"{shown}: a named pipe that nothing was written to (no program "
                         "writes to it): nothing to read")
    name = printable(path.name)
    return Source(name, data, printable(str(path.resolve())) if keep_path else name)


def printable(name: str) -> str:
    """`name` with the bytes of a file name that are no UTF-8 (Python keeps them as lone
    surrogates) written as \\xNN: the database, the terminal and JSON take UTF-8 only."""
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def parse_release(source: Source, max_bytes: int = megabytes(MAX_MB)) -> Document:
    """The parsed release, of any form (text, .docx, .doc, .rtf, .pdf: told by its bytes) and
    of any document (a CR, the Magic Tournament Rules, the Infraction Procedure Guide: told
    by its text); InputError naming the file and position when it is none of them, or holds
    more than `max_bytes` once read (a small compressed file may hold far more)."""
    notes: list[str] = []
    try:
        read = source.early.result(source.data) if source.early is not None else None
        if read is None and form_of(source.data) == PDF:
            read = read_pdf(source.data, max_bytes)  # C code: in a bounded worker
        if read is None:
            form, text = release_text(source.data, notes, max_bytes)
        else:
            form, text, notes = read
    except ParseError as exc:
        # a reader's offset is a byte of a text file, or of a RTF document's markup
        where = f"byte {exc.offset}: " if exc.offset or form_of(source.data) == TEXT else ""
        raise InputError(f"{source.name}: {where}{exc.message}") from None
    try:
        doc = any_text.parse_text(text)
    except ParseError as exc:
        where = position(text, exc.offset)
        if form != TEXT:
            where += f" of the text read from it ({NAMES[form]})"
        raise InputError(f"{source.name}: {where}: {exc.message}") from None
    check_item_sizes(doc, source.name)
    return replace(doc, warnings=(*notes, *doc.warnings)) if notes else doc


def edition_id(doc: Document, source: Source, override: str | None = None) -> str:
    """`cr-YYYY-MM-DD` (`mtr-`, `ipg-` for the judges' documents): `override`, else the
    printed effective date, else the file name's."""
    prefix = any_text.PREFIXES[doc.meta.kind]
    form = f"{prefix}-YYYY-MM-DD"
    if override is not None:
        match = _ID.fullmatch(override)
        if not match or match[1] != prefix or not _valid(match[2]):
            raise InputError(f"--id {override}: expected {form}"
                             + (f" (the file is a {any_text.NAMES[doc.meta.kind]})"
                                if match and match[1] != prefix else ""))
        return override
    if doc.meta.effective_date is None and doc.meta.date_text is not None:
        at = doc.text.find(doc.meta.date_text)
        where = f"{position(doc.text, at)}: " if at >= 0 else ""
        raise InputError(f"{source.name}: {where}the effective date printed, "
                         f"{doc.meta.date_text!r}, is not a date; give the id with "
                         f"--id {form}")
    found = doc.meta.effective_date or file_date(source.name)
    if found is None:
        raise InputError(f"{source.name}: no effective date printed in the file nor in its "
                         f"name; give the id with --id {form}")
    return f"{prefix}-{found}"


def _valid(iso: str) -> bool:
    try:
        date.fromisoformat(iso)
    except ValueError:
        return False
    return True


def plain_title(title: str) -> str:
    """A printed title without typography: "_Magic_™ Rules" → "Magic Rules"."""
    title = _ITALICS.sub(r"\1", title)
    return " ".join(_MARKS.sub("", title).split())


def is_partial(doc: Document) -> bool:
    """True unless the release has the whole rule tree from 100 on and a whole glossary (a
    judges' document: unless it lists what it covers, as a transcription of part of it)."""
    covers = doc.meta.covers
    if doc.meta.kind != "comprehensive_rules":
        return bool(covers) or doc.meta.cut_off is not None
    whole = doc.glossary and len(covers) == 1 and covers[0].startswith("100-")
    return doc.meta.cut_off is not None or not whole


def _coverage(covers: list[str] | tuple[str, ...], glossary: bool) -> tuple[set[int], int]:
    """The sections covered, and the glossary: 0 none, 1 cut off inside, 2 whole."""
    sections: set[int] = set()
    for span in covers:
        match = _SPAN.fullmatch(span)
        if match:
            sections.update(range(int(match[1]), int(match[2]) + 1))
    if any(span.startswith(GLOSSARY_CUT_OFF) for span in covers):
        return sections, 1
    return sections, 2 if glossary or "glossary" in covers else 0


def decision(db: sqlite_utils.Database, doc_id: str, source: Source, doc: Document,
              replace: bool) -> tuple[str, str]:
    """(action, message) for a source whose edition may already be in the database."""
    old = next(db["documents"].rows_where("id = ?", [doc_id]), None)
    if old is None:
        return "added", f"{doc_id}: added from {source.name}"
    stored = next(db["document_sources"].rows_where("document = ?", [doc_id]), None)
    same_bytes = old["sha256"] == hashlib.sha256(source.data).hexdigest()
    text = None if same_bytes or stored is None else _stored_text(zlib.decompress(stored["data"]))
    if same_bytes or text == doc.text:
        return "unchanged", f"{doc_id}: already in the database with the same text; nothing done"
    if text is not None and _same_content(text, doc):
        return "unchanged", (f"{doc_id}: already in the database with the same rules and "
                             "glossary (only the layout of the file differs); nothing done")
    old_sections, old_glossary = _coverage(json.loads(old["covers"] or "[]"),
                                           bool(old["glossary_count"]))
    new_sections, new_glossary = _coverage(doc.meta.covers, bool(doc.glossary))
    contains = new_sections >= old_sections and new_glossary >= old_glossary
    wider = (new_sections, new_glossary) != (old_sections, old_glossary)
    # A whole release also beats a partial document of the same extent (the flattened 2009 text).
    if old["partial"] and contains and (wider or not is_partial(doc)):
        covered = ", ".join(json.loads(old["covers"] or "[]")) or "part of the rules"
        return "replaced", (f"{doc_id}: replaced the partial edition ({covered}, from "
                            f"{old['file']}) with the more complete {source.name}")
    if replace:
        return "replaced", f"{doc_id}: replaced (--replace) with {source.name}"
    raise InputError(
        f"{source.name}: {doc_id} is already in the database from {old['file']} with different "
        f"content; use --replace to replace it, or --id to store it under another id"
    )


def _stored_text(data: bytes) -> str | None:
    """The text of an edition's stored source, read as it was when added; None when it no
    longer reads (stored by an older reader)."""
    try:
        return release_text(data)[1]
    except ParseError:
        return None


def _same_content(stored: str, doc: Document) -> bool:
    """Whether the stored source text of an edition says what `doc` says."""
    try:
        return any_text.parse_text(stored).content() == doc.content()
    except ParseError:  # stored by an older parser that took what this one refuses
        return False


def store_release(db: sqlite_utils.Database, doc_id: str, source: Source,
                  doc: Document, keep_source: bool = True) -> StoredCounts:
    """Store a parsed release under `doc_id` with its documents row and, with `keep_source`
    (a release added by hand, which a rebuild must add again), its source bytes (a stored
    copy of the edition is replaced)."""
    effective = doc_id.split("-", 1)[1]
    partial = is_partial(doc)
    day = date.fromisoformat(effective)
    title = f"{plain_title(doc.meta.title)} ({day:%B} {day.day}, {day.year})"
    if doc.meta.cut_off:
        title += f", {doc.meta.cut_off}"
    elif partial:
        title += f", rules {', '.join(doc.meta.covers)}"
    printed = doc.meta.date_text or "no effective date printed"
    entry = CatalogEntry(
        id=doc_id, kind=doc.meta.kind, title=title, file=source.name,
        sha256=hashlib.sha256(source.data).hexdigest(), parser=any_text.parser_for(doc.text),
        effective_date=effective,
        partial=partial, covers=doc.meta.covers, license=LICENSE,
        source=f"Wizards of the Coast, {any_text.NAMES[doc.meta.kind]} ({printed}); "
               f"{'added from' if keep_source else 'from'} {source.origin}",
    )
    counts = save_document(db, entry, doc)
    db["documents"].update(doc_id, {"file_date": file_date(source.name)})
    if not keep_source:
        return counts
    db["document_sources"].insert({
        "document": doc_id, "name": source.name, "origin": source.origin,
        "sha256": entry.sha256, "size": len(source.data), "data": zlib.compress(source.data, 1),
    })
    return counts


def previous_sources(db_path: Path, whole: bool = False) -> list[tuple[str, Source]]:
    """(id, source) of every document added to the database at `db_path`; [] when none.
    With `whole`, every page of the database is read first (PRAGMA quick_check, about a
    second at full history): damage elsewhere than in the added sources also makes it
    UnreadableDatabase, so that a rebuild keeps the damaged file aside rather than drop it."""
    if not db_path.is_file():
        return []
    try:
        conn = read_only(db_path)
        try:
            if whole and (found := conn.execute("PRAGMA quick_check(1)").fetchone()[0]) != "ok":
                raise sqlite3.DatabaseError(found.splitlines()[-1].strip())
            rows = conn.execute(
                "SELECT document, name, origin, data FROM document_sources ORDER BY document"
            ).fetchall()
        finally:
            conn.close()
    except sqlite3.OperationalError as exc:
        if "no such table" in str(exc):  # a database nothing was ever added to
            return []
        raise _unreadable(db_path, exc) from None
    except sqlite3.DatabaseError as exc:  # damaged: what was added to it cannot be kept
        raise _unreadable(db_path, exc) from None
    try:
        return [(doc_id, Source(name, zlib.decompress(data), origin))
                for doc_id, name, origin, data in rows]
    except zlib.error as exc:
        raise _unreadable(db_path, exc) from None


class UnreadableDatabase(InputError):
    """The database being rebuilt cannot be read: what was added to it cannot be kept."""


def _unreadable(db_path: Path, exc: Exception) -> UnreadableDatabase:
    return UnreadableDatabase(f"{db_path}: cannot read the editions added to it ({exc})")
