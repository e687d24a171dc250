"""Glossary of a Comprehensive Rules text file: entries, aliases, obsolete flags, "See" links.

An entry is a block of lines between blank lines: the first line is the term heading, the
following lines are definition paragraphs (joined with "\\n") and "Example:" lines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from .cr_lines import EXAMPLE, Line, clean
from .cr_wraps import Wrapping
from .model import Example, GlossaryEntry

_SUFFIX = re.compile(r"\s*\((Obsolete)\)\s*$")
_OBSOLETE = "(Obsolete)"
_OBSOLETE_LINE = _OBSOLETE + " "
# a heading run into its first numbered sense: "Ability1. Text on an object ..."
_GLUED_SENSE = re.compile(r"(\s*\S.*?[a-z])(1\.\s+\S.*)$")
# a line that can only be a heading: a few capitalized words (small ones lowercase), no
# sentence punctuation; the line after it opens a sentence
_HEADING_LINE = re.compile(
    r"[A-Z][\w’'-]*(?: (?:[A-Z][\w’'-]*|of|the|and|to|a|an|in|from|with|as|on|for|or|at|by))"
    r"{0,6}[ \t]*$")
_SENTENCE_END = re.compile(r"[.!?][”\"’')\]]*[ \t]*$")
HEADING_WORDS = 8  # words of a glossary heading at the most (the longest have five)
_DEFINITION_LINE = re.compile(r"[A-Z0-9“\"]\S* \S")
_QUALIFIER = re.compile(r"\s*\([^()]*\)\s*$")
_QUOTES = "\"“”'‘’"
_SEE = re.compile(r"\bSee\s+(?:also\s+)?([A-Z“\"][^.]*?)\.(?=[\s”\"]|$)")
_NOT_A_TERM = re.compile(r"^(?:rules?|sections?|the|Rules?|Sections?|The|X)\b")
# Where a file lost its paragraph marks (the 2003-06-01 .rtf: "… in play.FlankingFlanking is
# a triggered ability …"), an entry starts right after the sentence before it ends, and its
# heading runs into its definition. Neither happens in print: a sentence's end is followed
# by a space or a line break, and a heading by a line break.
# Where an entry may start glued to the sentence before (the match ends there); each match
# opens with the sentence's end or a "]", so most places of a line fail at once.
_GLUED_ENTRY = re.compile(r"(?<=[a-z0-9)”’\]])[.!?](?=[A-Z])|[.!?][”\"’)\]]{1,2}(?=[A-Z“])"
                          r"|\](?=[A-Z][a-z])|[.!?][”\"’)\]]? (?=[A-Z])")
# A heading (capitalized words, small ones lowercase, commas, a qualifier in parentheses) and
# the definition after it, met where a lowercase letter or ")" meets a capital or an opening
# quote, or a run of capitals meets a capitalized word ("LIFOAn acronym …"); the
# definition's first word a word ("MagicTheGathering.com" is no heading and definition).
_HEAD_WORDS = (r"[A-Z][\w’'-]*?(?:,? (?:[A-Z][\w’'-]*?|of|the|and|to|a|an|in|from|with|as|"
               r"on|for|or|at|by))*?(?: \([A-Z][a-z]+\))?")
_GLUED_HEADING = re.compile(
    rf"({_HEAD_WORDS})(?:(?<=[a-z)])(?=[A-Z“\"])|(?<=[A-Z])(?=[A-Z][a-z]))"
    r"(?=[“\"]?[A-Z][a-z’'-]*[”\"]?[,:;]? \S)")
# What either needs somewhere in a line (a heading's seam, or a sentence's end glued to a
# capital): the few glossary lines that have it are looked at, the others pass as printed.
_MAY_BE_GLUED = re.compile(r"[a-z)][A-Z“\"]|[A-Z][A-Z][a-z]|[.!?\]][”\"’)\]]{0,2}[A-Z“]")


def split_aliases(term: str) -> tuple[str, ...]:
    """The separate names a glossary heading lists, or () when it names one thing.

    "Control, Controller" lists two names. "Active Player, Nonactive Player Order" names one
    rule: its last piece, less its final word, is a counterpart of the first piece (same
    length, same last word, different words), so the final word governs the whole phrase.
    Quotes and a trailing qualifier such as "(Informal)" are dropped from the names.
    """
    if "," not in term:  # one piece: the usual case, decided without the regexes
        return ()
    bare = _QUALIFIER.sub("", term)
    pieces = [piece.strip().strip(_QUOTES).strip() for piece in bare.split(",")]
    if len(pieces) < 2 or not all(pieces):
        return ()
    first = pieces[0].split()
    last_head = pieces[-1].split()[:-1]
    if len(last_head) == len(first) and last_head[-1:] == first[-1:] and last_head != first:
        return ()
    return tuple(pieces)


def see_targets(definition: str, terms: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """The entry names given by "See X." / "See also A, B, and C." in a definition.

    A target that is itself one of `terms` (e.g. "Active Player, Nonactive Player Order")
    stays whole; otherwise it is split at commas and "and".
    """
    if "See" not in definition:  # most definitions have no link; spare the regex
        return ()
    names: list[str] = []
    for match in _SEE.finditer(definition):
        target = " ".join(match.group(1).split())  # a name may run over a line break
        if _NOT_A_TERM.match(target):
            continue
        whole = target.strip().strip(_QUOTES + ",").strip()
        pieces = [whole] if whole in terms else re.split(r",\s*(?:and\s+)?|\s+and\s+", target)
        for piece in pieces:
            name = piece.strip().strip(_QUOTES + ",").strip()
            if name and name not in names:
                names.append(name)
    return tuple(names)


def parse_entry(block: Sequence[Line], warnings: list[str], wraps: Wrapping | None = None
                ) -> GlossaryEntry:
    """One glossary entry from its lines (offset, line) — heading first, no blank lines;
    a hard-wrapped file's (`wraps`) wrapped lines joined into their paragraphs."""
    fields = _entry_fields(block, warnings, wraps)
    return GlossaryEntry(**fields, see=see_targets(fields["definition"]))


def _entry_fields(block: Sequence[Line], warnings: list[str], wraps: Wrapping | None = None
                  ) -> dict[str, Any]:
    """The fields of `parse_entry`'s entry but `see`, which depends on the other terms."""
    head_offset, head_line = block[0]
    body = list(block[1:])
    # a definition that starts where its heading ends in the source: a lost line break
    # (`_unglued` set them apart, "First StrikeFirst strike is …"), rebuilt as printed
    run_in = bool(body) and body[0][0] == head_offset + len(head_line)
    glued = _GLUED_SENSE.match(head_line)
    if glued:  # "Ability1. Text on an object ..." (2021-06-09): the first sense on its line
        warnings.append(f"glossary heading {glued[1].strip()!r} runs into its definition "
                        f"(offset {head_offset})")
        body.insert(0, (head_offset + glued.start(2), head_line[glued.start(2) :]))
        head_line = head_line[: glued.end(1)]
    if body and body[0][1].lstrip().startswith(_OBSOLETE_LINE) and _OBSOLETE not in head_line:
        # "Placed" over "(Obsolete) Some spells ...": the mark belongs to the heading
        offset, line = body[0]
        cut = line.index(_OBSOLETE) + len(_OBSOLETE)
        head_line = f"{head_line.rstrip()} {_OBSOLETE}"
        body[0] = (offset + cut, line[cut:])
    heading = head_line.strip()
    head_start = head_offset + len(head_line) - len(head_line.lstrip())
    # The suffix regex scans the heading; most headings lack its literal text.
    obsolete = _OBSOLETE in heading and _SUFFIX.search(heading) is not None
    term = _SUFFIX.sub("", heading) if obsolete else heading
    paragraphs: list[str] = []
    examples: list[list] = []  # [label, lines, start, end]
    end = head_start + len(heading)
    before = ""  # the line before, as printed: a wrapped one continues into this one
    for offset, line in body:
        line_end = offset + len(line.rstrip())
        end = line_end
        example = EXAMPLE.match(line)
        if example:
            start = offset + example.start(1)
            text = clean(line[example.end() :], offset, warnings, "glossary line")
            examples.append([example.group(1), [text], start, line_end])
        else:
            # A paragraph after an example continues the example, which keeps printed order.
            lines = examples[-1][1] if examples else paragraphs
            if examples:
                examples[-1][3] = line_end
            joint = wraps.join(before, line) if wraps and before else None
            if joint is None:
                lines.append(clean(line, offset, warnings, "glossary line"))
            else:
                lines[-1] += joint + clean(line, offset, warnings, "glossary line")
        before = line
    return {
        "term": term,
        "definition": "\n".join(paragraphs),
        "heading": heading,
        "aliases": split_aliases(term),
        "obsolete": obsolete,
        "examples": tuple(
            Example(text="\n".join(lines), label=label, span=(start, stop))
            for label, lines, start, stop in examples
        ),
        "glued": glued is not None or run_in,
        "span": (head_start, end),
    }


def parse_glossary(lines: Sequence[Line], warnings: list[str], wraps: Wrapping | None = None
                   ) -> list[GlossaryEntry]:
    """The entries of the glossary body (the lines after its "Glossary" heading); a
    hard-wrapped file's (`wraps`) wrapped lines joined into their paragraphs."""
    blocks = _headed(_reheaded(_split_unspaced(_blocks(_unglued(lines, warnings), warnings),
                                               warnings), warnings), warnings)
    found = [_entry_fields(block, warnings, wraps) for block in blocks]
    terms = frozenset(fields["term"] for fields in found)
    # "See" targets are settled once every term is known, so a term with a comma stays whole.
    return [
        GlossaryEntry(**fields, see=see_targets(fields["definition"], terms)) for fields in found
    ]


def _unglued(lines: Sequence[Line], warnings: list[str]) -> list[Line]:
    """`lines` with the entries a lost paragraph mark ran together set apart again: a blank
    line before an entry glued to the sentence before it, its heading on a line of its own
    (done only where a heading was due: after a sentence's end or a blank line)."""
    out: list[Line] = []
    mended: list[int] = []
    due = True  # a heading is due: at the start, and after a blank line
    for offset, line in lines:
        if not line.strip():
            out.append((offset, line))
            due = True
            continue
        if not _MAY_BE_GLUED.search(line):
            out.append((offset, line))
            due = _SENTENCE_END.search(line) is not None
            continue
        # a cut where an entry starts: its heading, run into its definition, must follow
        # (or a heading alone ends the line, its definition on the next)
        cuts = [at for match in _GLUED_ENTRY.finditer(line)
                if _GLUED_HEADING.match(line, at := match.end())
                or (line[at - 1] != " " and _HEADING_LINE.fullmatch(line, at))]
        starts = [0, *cuts]
        for index, start in enumerate(starts):
            end = starts[index + 1] if index + 1 < len(starts) else len(line)
            heading = None
            if index:
                out.append((offset + start, ""))  # the paragraph mark that was lost
                heading = _GLUED_HEADING.match(line, start, end)
            elif due and not _HEADING_LINE.match(line):
                heading = _GLUED_HEADING.match(line, 0, end)
            if heading:
                cut = heading.end(1)
                out += [(offset + start, line[start:cut]), (offset + cut, line[cut:end])]
                mended.append(offset + start)
            else:
                out.append((offset + start, line[start:end]))
                if index:
                    mended.append(offset + start)
        # a heading may be due on the next line too: after a sentence's end
        due = _SENTENCE_END.search(line) is not None
    if mended:
        warnings.append(f"{len(mended)} glossary entries ran into the text before them or "
                        f"their headings into their definitions (paragraph marks lost in the "
                        f"source), set apart again (offsets {', '.join(map(str, mended[:5]))}"
                        f"{', …' if len(mended) > 5 else ''})")
    return out


def _split_unspaced(blocks: list[list[Line]], warnings: list[str]) -> list[list[Line]]:
    """`blocks` with a block split before each heading printed with no blank line before
    it: a short Title Case line after a sentence end, a definition after it ("... See rule
    716, "Adventurer Cards."" then "Affinity" then "A keyword ability that ...")."""
    out = []
    for block in blocks:
        start = 0
        for index in range(2, len(block)):
            if _HEADING_LINE.match(block[index][1]) and _SENTENCE_END.search(block[index - 1][1]) \
                    and index + 1 < len(block) and _DEFINITION_LINE.match(block[index + 1][1]):
                warnings.append(f"glossary entry {block[index][1].strip()!r} has no blank line "
                                f"before it (offset {block[index][0]})")
                out.append(block[start:index])
                start = index
        out.append(block[start:])
    return out


def _reheaded(blocks: list[list[Line]], warnings: list[str]) -> list[list[Line]]:
    """`blocks` with a heading set apart from its definition set back at its start: a
    block that opens with a sentence has lost its heading, and a short line with no
    sentence's end that ends the block before (after a sentence) or stands alone before
    it is that heading (a PDF whose page turn fell between a heading and its definition:
    otherwise the definition's first paragraph is stored as a heading, the 2005 PDF's
    "Some enchantments have the subtype "Aura." …"); with no such line, the block is a
    paragraph of the entry before, set apart by an empty line a PDF's page turn made."""
    out: list[list[Line]] = []
    for block in blocks:
        previous = out[-1] if out else []
        if not previous or not _reads_as_sentence(block[0][1]):
            out.append(block)
            continue
        offset = block[0][0]
        if len(previous) == 1 and _reads_as_heading(previous[0][1]):
            # the heading alone, an empty line between it and its definition
            out[-1] = [*previous, *block]
            said = f"heading {previous[0][1].strip()!r} stands apart from its definition"
        elif len(previous) > 2 and _reads_as_heading(previous[-1][1]) \
                and _SENTENCE_END.search(previous[-2][1]):
            out.append([previous.pop(), *block])
            said = f"heading {out[-1][0][1].strip()!r} ends the entry before its definition"
        else:  # no heading: a paragraph of the entry before, an empty line before it
            previous.extend(block)
            said = f"paragraph with no heading kept in the entry {previous[0][1].strip()!r}"
        warnings.append(f"glossary {said} (offset {offset})")
    return out


def _reads_as_sentence(line: str) -> bool:
    """Whether `line` reads as a sentence rather than a heading: it ends a sentence and
    has more words than a glossary heading (and is no heading run into its first sense,
    "Ability1. Text on an object …")."""
    return _SENTENCE_END.search(line) is not None and len(line.split()) > HEADING_WORDS \
        and _GLUED_SENSE.match(line) is None


def _reads_as_heading(line: str) -> bool:
    """Whether `line` could be a glossary heading: a few words ending no sentence."""
    return len(line.split()) <= HEADING_WORDS and not _SENTENCE_END.search(line)


def _headed(blocks: list[list[Line]], warnings: list[str]) -> list[list[Line]]:
    """`blocks` with each lone line between them joined to the block before it: a heading
    with no definition is a row of a table inside the definition before it (2003-03-15
    lists the expansion symbols so), not an entry."""
    out: list[list[Line]] = []
    extended = -1
    for index, block in enumerate(blocks):
        if out and len(block) == 1 and index + 1 < len(blocks):
            if extended != len(out):
                warnings.append(f"glossary lines with no definition kept in the entry "
                                f"{out[-1][0][1].strip()!r} (offset {block[0][0]})")
                extended = len(out)
            out[-1] = [*out[-1], *block]
        else:
            out.append(block)
    return out


def _blocks(lines: Sequence[Line], warnings: list[str]) -> list[list[Line]]:
    """The lines of each entry: a run of lines between blank ones.

    In a double-spaced glossary (a blank line after every line, as a file whose lines end
    in CR CR LF reads), no run has two lines; there the runs apart by the fewest blank
    lines are one entry's, and the entries are apart by more.
    """
    runs: list[list[Line]] = []
    gaps: list[int] = []  # blank lines before each run
    blank = 0
    for offset, line in lines:
        if line and not line.isspace():  # same test as `line.strip()`, without the copy
            if blank or not runs:
                runs.append([])
                gaps.append(blank)
                blank = 0
            runs[-1].append((offset, line))
        else:
            blank += 1
    inner = min(gaps[1:], default=0)
    if len(runs) < 3 or any(len(run) > 1 for run in runs) or max(gaps[1:]) == inner:
        return runs
    warnings.append(f"the glossary is double-spaced: entries are apart by more than "
                    f"{inner} blank line{'s' * (inner > 1)} (offset {runs[0][0][0]})")
    merged = [runs[0]]
    for gap, run in zip(gaps[1:], runs[1:], strict=True):
        if gap == inner:
            merged[-1].extend(run)
        else:
            merged.append(run)
    return merged
