"""The glossary of the 2005 rulebook (Section 7): headings, definitions, "See also" targets.

An entry is a one-line heading ("Activated ability", "Booster, booster pack", "♣ Black mana")
followed by its definition paragraphs. The definition keeps every paragraph, "See also …" and
"Compare …" lines included (joined with "\\n"), so the printed text rebuilds from it; their
targets are also listed in `see`. The glossary marks no term in any special way (the
introduction says terms are printed in green; the conversion lost the colour).
"""

from __future__ import annotations

import re

from .model import GlossaryEntry, ParseError
from .prose import Block, ends_sentence, list_line
from .rulebook_glyphs import COLORS, normalize_glyphs

_MAX_HEADING_WORDS = 6
_CROSS_REFERENCE_LINE = re.compile(r"(?:See|\*?Compare\*?)\b")
_CROSS_REFERENCE = re.compile(r"(?:See also|See|\*?Compare\*?)\s+([^.]+)")
_SYMBOL_HEADING = re.compile(r"([♣♠☞☿☉♡☀🌊🏔🌲🌿*]) ((White|Blue|Black|Red|Green) mana|Tap)")


def is_entry_heading(block: Block) -> bool:
    """Whether `block` is a glossary heading: one short line that is not a sentence."""
    if len(block.lines) != 1:
        return False
    line = block.lines[0]
    text = line.text
    return (len(text.split()) <= _MAX_HEADING_WORDS
            and not ends_sentence(text)
            and not text[0].islower()
            and not _CROSS_REFERENCE_LINE.match(text)
            and list_line(line) is None)


def _heading_symbol(heading: str) -> tuple[str, str, str] | None:
    """(glyph, symbol, name) of a symbol heading ("♣ Black mana" → ("♣", "{B}", …))."""
    match = _SYMBOL_HEADING.fullmatch(heading)
    if not match:
        return None
    symbol = COLORS[match.group(3).lower()] if match.group(3) else "{T}"
    return match.group(1), symbol, match.group(2)


def _aliases(heading: str) -> tuple[str, ...]:
    """The names of a heading that names several ("Life, life total"); "and so on" is none."""
    if ", " not in heading:
        return ()
    return tuple(part for part in heading.split(", ") if not part.startswith("and "))


def see_targets(definition: str) -> tuple[str, ...]:
    """The entries named by the "See X", "See also A, B" and "Compare C" lines."""
    targets: list[str] = []
    for line in definition.split("\n"):
        if not _CROSS_REFERENCE_LINE.match(line):
            continue
        for match in _CROSS_REFERENCE.finditer(line):
            targets.extend(t.strip(" *") for t in match.group(1).split(","))
    return tuple(t for t in targets if t)


def parse_entries(blocks: list[Block]) -> tuple[list[GlossaryEntry], list[str]]:
    """The glossary entries made of `blocks` (everything after the glossary's section line)."""
    entries: list[GlossaryEntry] = []
    warnings: list[str] = []
    groups: list[list[Block]] = []
    for block in blocks:
        if is_entry_heading(block) or not groups:
            groups.append([block])
        else:
            groups[-1].append(block)
    for group in groups:
        head, body = group[0], group[1:]
        if not is_entry_heading(head):
            raise ParseError("the glossary does not start with an entry heading", head.span[0])
        if not body:
            raise ParseError(f"glossary entry {head.text!r} has no definition", head.span[1])
        heading = head.text
        definition = "\n".join(block.text for block in body)
        symbol = _heading_symbol(heading)
        hint = (symbol[0], symbol[1]) if symbol else None
        text, glyphs = normalize_glyphs(definition, hint)
        if symbol:
            term, aliases = f"{symbol[1]} {symbol[2]}", (symbol[1], symbol[2])
        else:
            term, aliases = heading, _aliases(heading)
        for block in body[1:]:
            if block.text[0].islower():
                warnings.append(f"glossary entry {heading!r}: a paragraph starting in lower "
                                f"case at offset {block.span[0]} continues a paragraph a page "
                                "break split")
        entries.append(GlossaryEntry(term=term, definition=text, heading=heading,
                                     aliases=aliases, see=see_targets(definition),
                                     glyphs=glyphs, span=(head.span[0], body[-1].span[1])))
    return entries, warnings
