"""Walk a source tree and collect rule citations with the function each one sits in.

Files that cannot be scanned (unreadable, binary, not UTF-8, huge) and symlink loops are
skipped and counted, never fatal. Files without a rule-shaped number are dismissed on their
raw bytes; large trees are scanned by a process pool. Python files are read by tokenize/ast
(python_source.py), other languages and unparsable Python by the regex lexers (lexers.py).
"""

from __future__ import annotations

import contextlib
import os
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from ..db.batch import collector_paused
from . import cite
from .lexers import LANGUAGES, Source
from .python_source import PythonSource, python_source

MAX_BYTES = 8 * 1024 * 1024
ABOUT = 100  # characters of the comment or string either side that say what code is about
BATCH_BYTES = 4 * 1024 * 1024  # work unit of the process pool
SKIP_DIRS = {".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", ".tox"}
ACCEPTED = {
    # where a citation stands → the forms that count there
    "comment": {"marker", "bare", "anchor", "hint"},
    "string": {"marker", "bare", "anchor", "hint"},
    "code": {"identifier"},
}


class Citation(NamedTuple):
    """A rule number cited at one place of one file (a tuple: cheap to make and to pickle)."""

    file: str
    line: int
    function: str | None
    cited: str
    number: str
    form: str
    malformed: bool
    hint: str | None
    context: str
    about: str
    column: int = 0  # of the cited text in its line, from 1
    start: int = 0  # the cited text's characters in the file: text[start:end]
    end: int = 0


@dataclass
class ScanResult:
    """What a scan found: citations, files scanned, files skipped by reason, bytes read."""

    citations: list[Citation] = field(default_factory=list)
    files: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    bytes: int = 0


def source_files(root: Path, result: ScanResult) -> Iterator[Path]:
    """Source files under `root` (or `root` itself), following symlinks, each directory once."""
    if root.is_file():
        yield root
        return
    seen: set[tuple[int, int]] = set()
    for directory, dirs, files in os.walk(root, followlinks=True):
        try:
            info = os.stat(directory)
        except OSError:
            result.skipped["unreadable"] += 1
            dirs[:] = []
            continue
        key = (info.st_dev, info.st_ino)
        if key in seen:
            result.skipped["symlink loop"] += 1
            dirs[:] = []
            continue
        seen.add(key)
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        for name in sorted(files):
            suffix = os.path.splitext(name)[1].lower()
            if suffix in LANGUAGES:
                yield Path(directory, name)


def scan_file(path: Path, relative: str, known: frozenset[str] | None,
              max_bytes: int = MAX_BYTES) -> tuple[list[Citation], str | None, int]:
    """Citations of one file, the reason it was skipped (or None), and its size."""
    try:
        size = path.stat().st_size
        if size > max_bytes:
            return [], "huge", size
        data = path.read_bytes()
    except OSError:
        return [], "unreadable", 0
    if b"\0" in data[:8192]:
        return [], "binary", len(data)
    if not cite.has_candidates(data):
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            return [], "not UTF-8", len(data)
        return [], None, len(data)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return [], "not UTF-8", len(data)
    language = LANGUAGES[path.suffix.lower()]
    source: Source | PythonSource | None = None
    if language == "python":
        source = python_source(text)  # None when tokenize/ast reject it: regex lexer then
    source = source or Source(text, language)
    return list(_citations(text, source, relative, known)), None, len(data)


def _citations(text: str, source: Source | PythonSource, relative: str,
               known: frozenset[str] | None) -> Iterator[Citation]:
    is_known = known.__contains__ if known is not None else None
    consumed = 0
    line, line_offset = 1, 0
    done_lines: set[int] = set()
    for candidate in cite.CANDIDATES.finditer(text):
        line_start = text.rfind("\n", 0, candidate.start()) + 1
        if line_start in done_lines:
            continue
        done_lines.add(line_start)
        line_end = text.find("\n", candidate.start())
        line_end = len(text) if line_end < 0 else line_end
        for head in cite.heads(text, line_start, line_end):
            if head.start() < consumed:
                continue
            where, span_start, span_end = source.where(head.start())
            found = [f for f in cite.read(text, head, is_known) if f.form in ACCEPTED[where]]
            if not found:
                continue
            consumed = max(f.end for f in found)
            line += text.count("\n", line_offset, head.start())
            line_offset = head.start()
            context = text[line_start:line_end].strip()[:160]
            function = source.function_at(head.start(), (span_start, span_end)
                                          if where != "code" else None, where == "comment")
            about = " ".join([function or "", text[max(span_start, head.start() - ABOUT):
                                                    min(span_end, head.start() + ABOUT)]])
            for f in found:
                at_line = line + text.count("\n", head.start(), f.start)
                column = f.start - text.rfind("\n", 0, f.start)
                yield Citation(relative, at_line, function, f.cited, f.number, f.form,
                               f.malformed, f.hint, context, about, column, f.start, f.end)


def _scan_batch(args: tuple[list[tuple[str, str]], frozenset[str] | None, int]
                ) -> tuple[list[Citation], Counter[str], int, int]:
    paths, known, max_bytes = args
    citations: list[Citation] = []
    skipped: Counter[str] = Counter()
    files = total = 0
    for path, relative in paths:
        found, reason, size = scan_file(Path(path), relative, known, max_bytes)
        total += size
        if reason:
            skipped[reason] += 1
        else:
            files += 1
            citations += found
    return citations, skipped, files, total


def scan(root: Path, known: frozenset[str] | None = None, workers: int | None = None,
         max_bytes: int = MAX_BYTES) -> ScanResult:
    """Scan every source file under `root`; `known` holds the rule numbers bare citations need."""
    result = ScanResult()
    base = root if root.is_dir() else root.parent
    paths = [(str(p), p.relative_to(base).as_posix()) for p in source_files(root, result)]
    workers = workers or min(os.cpu_count() or 1, 8)
    batches: list[list[tuple[str, str]]] = [[]]
    filled = 0
    for path, relative in paths:
        with contextlib.suppress(OSError):  # an unreadable file is counted when scanned
            filled += os.path.getsize(path)
        batches[-1].append((path, relative))
        if filled >= BATCH_BYTES:
            batches.append([])
            filled = 0
    with collector_paused():  # the pool's processes, forked here, inherit the pause
        if workers > 1 and len(batches) > 1:
            with ProcessPoolExecutor(workers) as pool:
                parts = list(pool.map(_scan_batch,
                                      [(b, known, max_bytes) for b in batches if b]))
        else:
            parts = [_scan_batch((b, known, max_bytes)) for b in batches]
    for citations, skipped, files, total in parts:
        result.citations += citations
        result.skipped.update(skipped)
        result.files += files
        result.bytes += total
    return result
