"""Alignments set by hand: the overrides file, and its pairs applied to an automatic alignment.

An override says that a rule of an older edition and a rule of a newer one are the same rule
(`=`, a link) or are not (`!=`, an unlink). The file holds one per line:

    cr-2009-07-11 502.2 = cr-2009-10-01 702.2   # why: what a reader checked

(`#` alone starts a comment line; after the five fields, the rest of the line is the note).
`apply` makes an alignment of two editions agree with the overrides of that pair: a link
replaces every change naming either rule by one change between them; an unlink drops the
change between the two. A rule left without a counterpart by either is added or removed.
Changes made so carry the override's note (`HandChange`).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError
from .align import PAIR_OPS, Change, RuleRec, pair_change
from .text import normalize

LINE = re.compile(r"(?P<old_doc>\S+)\s+(?P<old>\S+)\s+(?P<op>!?=)\s+(?P<new_doc>\S+)\s+"
                  r"(?P<new>\S+)(?:\s+#\s?(?P<note>.*?))?\s*")
DOC_ID = re.compile(r"[a-z]+(?:-[a-z0-9]+)*")
NUMBER = re.compile(r"[0-9A-Za-z]+(?:[.-][0-9A-Za-z]+)*")
FORMAT = "OLD_DOC OLD_NUMBER = NEW_DOC NEW_NUMBER  # note  (or != for rules that differ)"


@dataclass(frozen=True)
class Override:
    """Two rules of two editions set the same (`link`) or not the same by hand."""

    old_doc: str
    old_number: str
    new_doc: str
    new_number: str
    link: bool
    note: str = ""
    line: int | None = None  # its line in the overrides file
    file: str | None = field(default=None, compare=False)  # that file (errors name it)

    @property
    def key(self) -> tuple[str, str, str, str]:
        """The two rules it names."""
        return (self.old_doc, self.old_number, self.new_doc, self.new_number)

    @property
    def pair(self) -> tuple[str, str]:
        """The two editions it names."""
        return (self.old_doc, self.new_doc)

    def clashes(self, other: Override) -> bool:
        """Whether the two cannot both hold: the same two rules, or two links of one pair
        that share a rule (a rule has one counterpart)."""
        if self.key == other.key:
            return True
        return (self.link and other.link and self.pair == other.pair
                and (self.old_number == other.old_number or self.new_number == other.new_number))

    def describe(self) -> str:
        """One line: `cr-A 502.2 = cr-B 702.2`."""
        return (f"{self.old_doc} {self.old_number} {'=' if self.link else '!='} "
                f"{self.new_doc} {self.new_number}")


@dataclass(frozen=True)
class HandChange(Change):
    """A change of an alignment made by an override, with the override's note."""

    note: str = ""


def format_line(override: Override) -> str:
    """The override as a line of the overrides file."""
    return override.describe() + (f"  # {override.note}" if override.note else "")


def parse(text: str, path: Path | str) -> list[Override]:
    """The overrides of a file's text; InputError naming the file and line of a bad one
    or of one that contradicts an earlier line."""
    found: list[Override] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        match = LINE.fullmatch(line)
        where = f"{path}, line {number}"
        if not match:
            raise InputError(f"{where}: expected {FORMAT}")
        for name in ("old_doc", "new_doc"):
            if not DOC_ID.fullmatch(match[name]):
                raise InputError(f"{where}: {match[name]!r} is not a document id")
        for name in ("old", "new"):
            if not NUMBER.fullmatch(match[name].rstrip(".")):
                raise InputError(f"{where}: {match[name]!r} is not a rule number")
        override = _from_match(match, number, str(path))
        if override.old_doc == override.new_doc:
            raise InputError(f"{where}: both rules are in {override.old_doc}")
        earlier = next((o for o in found if o.clashes(override)), None)
        if earlier is not None:
            raise InputError(f"{where}: contradicts line {earlier.line} "
                             f"({earlier.describe()})")
        found.append(override)
    return found


def _from_match(match: re.Match[str], line: int | None = None,
                file: str | None = None) -> Override:
    return Override(match["old_doc"], match["old"].rstrip("."), match["new_doc"],
                    match["new"].rstrip("."), match["op"] == "=", (match["note"] or "").strip(),
                    line, file)


def layered(files: Iterable[list[Override]]) -> list[Override]:
    """The overrides of several files, each file's on top of the earlier ones': a line that
    clashes with an earlier file's replaces it (the user's own over those rulesdb ships)."""
    result: list[Override] = []
    for overrides in files:
        result = [o for o in result if not any(o.clashes(n) for n in overrides)] + overrides
    return result


def read(path: Path) -> list[Override] | None:
    """The overrides of a file, or None when there is no such file."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise InputError(f"{path}: cannot read it ({exc.strerror})") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: byte {exc.start}: not UTF-8") from None
    return parse(text, path)


def edited_text(text: str, override: Override, remove: bool = False) -> str:
    """A file's text with `override` put in (in place of the lines it clashes with, else at
    the end), or with the lines naming its two rules taken out when `remove`."""
    lines = text.splitlines()
    kept: list[str] = []
    placed = remove
    for line in lines:
        stripped = line.strip()
        match = LINE.fullmatch(stripped) if stripped and not stripped.startswith("#") else None
        if match:
            other = _from_match(match)
            if (other.key == override.key if remove else other.clashes(override)):
                if not placed:
                    kept.append(format_line(override))
                    placed = True
                continue
        kept.append(line)
    if not placed:
        kept.append(format_line(override))
    return "\n".join(kept) + "\n"


def apply(changes: list[Change], overrides: Iterable[Override],
          old_rules: Mapping[str, RuleRec], new_rules: Mapping[str, RuleRec]) -> list[Change]:
    """`changes` (an alignment of two editions) made to agree with their overrides; the
    rules of both editions by number give the texts of the pairs set by hand."""
    out = list(changes)
    mapping = _matched(out)
    for override in sorted(overrides, key=lambda o: o.link):  # unlinks first
        x, y = override.old_number, override.new_number
        if override.link:  # every change naming either rule
            touched = [c for c in out if c.old == x or c.new == y]
        else:  # the change between the two, if any
            touched = [c for c in out if c.old == x and c.new == y]
            if not touched:
                continue
        gone = {id(c) for c in touched}
        at = next((k for k, c in enumerate(out) if id(c) in gone), len(out))
        out = [c for c in out if id(c) not in gone]
        if override.link:
            mapping[x] = y
        elif mapping.get(x) == y:
            del mapping[x]
        made = [_pair(old_rules[x], new_rules[y], override.note, mapping)] if override.link \
            else []
        out[at:at] = made + _alone(touched, out, override)
    return _lone_parts(out, old_rules, new_rules)


def _matched(changes: list[Change]) -> dict[str, str]:
    """Old number → new number of the one-to-one matches of an alignment."""
    return {c.old: c.new for c in changes if c.op in PAIR_OPS and c.old and c.new}


def _alone(touched: list[Change], rest: list[Change], override: Override) -> list[Change]:
    """The rules `touched` named, but for the two of a link, that no change of `rest` names
    any more: removed (old) or added (new); an unlink's carry its note."""
    olds = {c.old for c in touched if c.old} - {c.old for c in rest}
    news = {c.new for c in touched if c.new} - {c.new for c in rest}
    if override.link:
        olds.discard(override.old_number)
        news.discard(override.new_number)
    made = [Change("removed", number, None, 0.0) for number in sorted(olds)]
    made += [Change("added", None, number, 0.0) for number in sorted(news)]
    if override.link:
        return made
    return [HandChange(c.op, c.old, c.new, c.similarity, note=override.note) for c in made]


def _lone_parts(changes: list[Change], old_rules: Mapping[str, RuleRec],
                new_rules: Mapping[str, RuleRec]) -> list[Change]:
    """A split or merge left with one part is a one-to-one change again."""
    olds: dict[str, int] = {}
    news: dict[str, int] = {}
    for change in changes:
        if change.old:
            olds[change.old] = olds.get(change.old, 0) + 1
        if change.new:
            news[change.new] = news.get(change.new, 0) + 1
    lone = [c.op in ("split", "merged") and c.old and c.new and olds[c.old] == news[c.new] == 1
            for c in changes]
    if not any(lone):
        return changes
    mapping = {**_matched(changes), **{c.old: c.new for c, one in zip(changes, lone, strict=True)
                                       if one}}
    return [_pair(old_rules[c.old], new_rules[c.new], None, mapping) if one else c
            for c, one in zip(changes, lone, strict=True)]


def _pair(a: RuleRec, b: RuleRec, note: str | None, mapping: Mapping[str, str]) -> Change:
    """The change from `a` to `b` as the aligner tells it (`mapping`: the old numbers of the
    pair's other matches to their new ones), set by hand with its note unless `note` is None."""
    change = pair_change(a, b, normalize(a.text), normalize(b.text), mapping)
    if note is None:
        return change
    return HandChange(change.op, change.old, change.new, change.similarity,
                      change.citations_only, note=note)


def stored(conn: sqlite3.Connection, old_doc: str | None = None,
           new_doc: str | None = None) -> list[Override]:
    """The overrides the database holds (of one pair of editions when both are given)."""
    columns = "old_doc, old_number, new_doc, new_number, link, note, line"
    where = "WHERE ? IS NULL OR (old_doc = ? AND new_doc = ?) ORDER BY id"
    try:
        try:
            cursor = conn.execute(f"SELECT {columns}, file FROM alignment_overrides {where}",
                                  [old_doc, old_doc, new_doc])
        except sqlite3.OperationalError:  # made before the files were recorded
            cursor = conn.execute(f"SELECT {columns}, NULL FROM alignment_overrides {where}",
                                  [old_doc, old_doc, new_doc])
    except sqlite3.OperationalError:  # a database made before overrides existed
        return []
    return [Override(a, b, c, d, bool(link), note or "", line, file)
            for a, b, c, d, link, note, line, file in cursor]
