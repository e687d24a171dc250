"""Rewriting renumbered citations to their current number, where the scanner found them.

A citation of one rule whose new number is known is rewritten in the form it was written:
"CR 502.9a" → "CR 702.19a", an anchor "#R5029a" → "#R70219a", an identifier "sba502_9a" →
"sba702_19a", an edition hint "20091005 - 502.9a" → "20260116 - 702.19a" (the date of the
edition checked, so that the number is read in it). A range is rewritten when every member
moved and the new numbers are again one range that the written form can hold: "727.2a–c"
→ "728.2a–c" (its dash, spacing and letters-only end kept), "502.28a - 502.28c" →
"702.4a - 702.4c", "502.20-22" → "702.32-34". Everything else that is stale is left as it
is, with the reason (`Untouched`): suspect and missing citations, a range whose members did
not all move or moved apart.
"""

from __future__ import annotations

import difflib
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..numbers import expand_range
from .cite import CANON, ITEM
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


@dataclass(frozen=True)
class Untouched:
    """A stale citation --fix leaves as it is (a range once, by its first member), and why."""

    citation: Citation
    status: str
    suggestion: str | None  # the members' new numbers, comma-separated, for a range
    reason: str


@dataclass
class Plan:
    """What --fix does: the rewrites by file (relative path, in file order) and the stale
    citations it leaves, in scan order."""

    edits: dict[str, list[Edit]]
    untouched: list[Untouched]


REASONS = {
    "missing": "no edition in the database says where this rule went",
    "malformed": "not a rule number",
    "suspect": "the rule exists; whether the code means another keyword's rule is a "
               "person's call",
    "renumbered": "its current number is unknown",
}


def plan(items: list[tuple[Citation, Checked]], effective: str) -> Plan:
    """The rewrites of the renumbered citations and the stale ones left with a reason;
    `effective` is the ISO date of the edition checked (for edition hints)."""
    groups: dict[tuple[str, int, int], list[tuple[Citation, Checked]]] = {}
    for citation, verdict in items:  # a range stands for several numbers at one span
        groups.setdefault((citation.file, citation.start, citation.end), []).append(
            (citation, verdict))
    result = Plan({}, [])
    for members in groups.values():
        citation = members[0][0]
        ranged = len(members) > 1 or _range_parts(citation.cited) is not None
        edit, untouched = (_range_edit(members, effective) if ranged
                           else _single_edit(*members[0], effective))
        if edit:
            result.edits.setdefault(citation.file, []).append(edit)
        elif untouched:
            result.untouched.append(untouched)
    for found in result.edits.values():
        found.sort(key=lambda edit: edit.start)
    return result


def _hint(citation: Citation, effective: str) -> tuple[str, str] | None:
    if citation.form == "hint" and citation.hint:
        return citation.hint.replace("-", ""), effective.replace("-", "")
    return None


def _single_edit(citation: Citation, verdict: Checked,
                 effective: str) -> tuple[Edit | None, Untouched | None]:
    if verdict.status not in REASONS:
        return None, None
    if verdict.status != "renumbered" or not verdict.suggestion:
        return None, Untouched(citation, verdict.status, verdict.suggestion,
                               REASONS[verdict.status])
    old = written(citation.form, citation.number)
    new = written(citation.form, verdict.suggestion) if CANON.fullmatch(
        verdict.suggestion) else None
    if old is None or new is None or citation.cited != old or citation.end <= citation.start:
        return None, Untouched(citation, verdict.status, verdict.suggestion,
                               f"--fix does not rewrite {citation.cited!r} in its form")
    return Edit(citation.start, citation.end, old, new, citation.line,
                _hint(citation, effective)), None


def _range_parts(cited: str) -> tuple[str, str, str] | None:
    """(start, what joins the ends, end) of a range as written; None when `cited` is one
    number."""
    item = ITEM.fullmatch(cited)
    if not item or not (item["end"] or item["end2"]):
        return None
    end = "end" if item["end"] else "end2"
    return item["start"], cited[item.end("start"):item.start(end)], item[end]


def _range_edit(members: list[tuple[Citation, Checked]],
                effective: str) -> tuple[Edit | None, Untouched | None]:
    """The rewrite of a range whose members all moved to one range, else why not."""
    stale = [(c, v) for c, v in members if v.status in REASONS]
    if not stale:
        return None, None
    citation = members[0][0]
    moved = [v.suggestion for _, v in members if v.status == "renumbered" and v.suggestion]
    shown = ", ".join(v.suggestion or "?" for _, v in members if v.status == "renumbered")
    status = stale[0][1].status
    if len(moved) < len(members):
        others = ", ".join(f"{c.number} {v.status}" for c, v in members
                           if v.status != "renumbered" or not v.suggestion)
        return None, Untouched(citation, status, shown or None,
                               f"a range whose members did not all move ({others})")
    parts = _range_parts(citation.cited)
    new_end = parts and _end_as_written(parts[2], moved)
    if not parts or parts[0] != citation.number or not new_end or not all(
            map(CANON.fullmatch, moved)) or expand_range(moved[0], new_end) != moved:
        return None, Untouched(citation, status, shown,
                               "its members moved apart: the new numbers are not one range "
                               "in the form it was written")
    new = f"{moved[0]}{parts[1]}{new_end}"
    return Edit(citation.start, citation.end, citation.cited, new, citation.line,
                _hint(citation, effective)), None


def _end_as_written(end: str, moved: list[str]) -> str | None:
    """The last of the `moved` numbers written as the range's `end` was: a letter alone
    ("c"), a rule number within the section ("22" of "502.20-22"), or whole."""
    last = moved[-1]
    if end.isalpha():
        return last[-1] if last[-1].isalpha() else None
    if "." not in end and "." in last:
        return last.split(".", 1)[1]
    return last


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
