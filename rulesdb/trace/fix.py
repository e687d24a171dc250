"""Rewriting renumbered citations to their current number, where the scanner found them.

Only a citation of one rule (not a range or a list item standing for several) whose new
number is known is rewritten, in the form it was written: "CR 502.9a" → "CR 702.19a",
an anchor "#R5029a" → "#R70219a", an identifier "sba502_9a" → "sba702_19a", an edition
hint "20091005 - 502.9a" → "20260116 - 702.19a" (the date of the edition checked, so that
the number is read in it). Suspect and missing citations are never touched.
"""

from __future__ import annotations

import difflib
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .cite import CANON
from .scan import Citation
from .status import Checked

NUMBER = re.compile(r"(?P<section>[1-9]\d{2})\.(?P<rule>[1-9]\d{0,2})(?P<letter>[a-z]?)")


@dataclass(frozen=True)
class Edit:
    """One rewrite: characters start:end of a file, the cited text there and its new form."""

    start: int
    end: int
    old: str
    new: str
    line: int
    hint: tuple[str, str] | None = None  # the date before the number, and the new one


def written(form: str, number: str) -> str | None:
    """`number` ("702.19a") as a citation of `form` writes it; None for a form not rewritten."""
    match = NUMBER.fullmatch(number)
    if not match:
        return None
    if form == "anchor":
        return f"#R{match['section']}{match['rule']}{match['letter']}"
    if form == "identifier":
        return f"{match['section']}_{match['rule']}{match['letter']}"
    return number


def edits(items: list[tuple[Citation, Checked]], effective: str) -> dict[str, list[Edit]]:
    """By file (relative path): the rewrites of its renumbered citations, in file order;
    `effective` is the ISO date of the edition checked (for edition hints)."""
    by_file: dict[str, list[Edit]] = {}
    spans: dict[tuple[str, int, int], int] = {}
    for citation, _ in items:  # a range stands for several numbers at one span
        spans[(citation.file, citation.start, citation.end)] = spans.get(
            (citation.file, citation.start, citation.end), 0) + 1
    for citation, verdict in items:
        if verdict.status != "renumbered" or not verdict.suggestion:
            continue
        if not CANON.fullmatch(verdict.suggestion) or citation.end <= citation.start:
            continue
        if spans[(citation.file, citation.start, citation.end)] > 1:
            continue
        old = written(citation.form, citation.number)
        new = written(citation.form, verdict.suggestion)
        if old is None or new is None or citation.cited != old:
            continue
        hint = None
        if citation.form == "hint" and citation.hint:
            hint = (citation.hint.replace("-", ""), effective.replace("-", ""))
        by_file.setdefault(citation.file, []).append(
            Edit(citation.start, citation.end, old, new, citation.line, hint))
    for found in by_file.values():
        found.sort(key=lambda edit: edit.start)
    return by_file


def rewritten(text: str, found: list[Edit]) -> str:
    """`text` with the edits made; ValueError when a span no longer holds what was cited."""
    parts, at = [], 0
    for edit in found:
        if text[edit.start:edit.end] != edit.old:
            raise ValueError(f"line {edit.line}: expected {edit.old!r}, found "
                             f"{text[edit.start:edit.end]!r}: the file changed since the scan")
        if edit.hint:
            date = text.rfind(edit.hint[0], max(at, edit.start - 16), edit.start)
            if date < 0:
                raise ValueError(f"line {edit.line}: the date {edit.hint[0]} before "
                                 f"{edit.old!r} is gone: the file changed since the scan")
            parts.append(text[at:date])
            parts.append(edit.hint[1])
            at = date + len(edit.hint[0])
        parts.append(text[at:edit.start])
        parts.append(edit.new)
        at = edit.end
    parts.append(text[at:])
    return "".join(parts)


def read_text(path: Path) -> str:
    """The file as the scanner read it (UTF-8, line endings kept)."""
    return path.read_bytes().decode("utf-8")


def unified_diff(root: Path, by_file: dict[str, list[Edit]]) -> str:
    """The rewrites as one unified diff (paths a/FILE, b/FILE relative to `root`)."""
    base = root if root.is_dir() else root.parent
    out = []
    for file, found in sorted(by_file.items()):
        before = read_text(base / file)
        after = rewritten(before, found)
        out.extend(difflib.unified_diff(before.splitlines(keepends=True),
                                        after.splitlines(keepends=True),
                                        f"a/{file}", f"b/{file}"))
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                   for line in out)


def write(root: Path, by_file: dict[str, list[Edit]]) -> int:
    """Apply the rewrites in place, each file replaced whole (its mode kept); files written."""
    base = root if root.is_dir() else root.parent
    for file, found in sorted(by_file.items()):
        path = base / file
        after = rewritten(read_text(path), found).encode("utf-8")
        handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(after)
            os.chmod(temp, path.stat().st_mode & 0o7777)
            os.replace(temp, path)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
    return len(by_file)
