"""Parser of the Ninth Edition basic rulebook (2005), converted from print to markdown-like text.

Layout: a cover, INTRODUCTION, CONTENTS and LEARNING TO PLAY (kept as `Part`s), then
"SECTION 1: THE BASICS" … "SECTION 6: …" (the rule tree), "SECTION 7: GLOSSARY" (glossary
entries, see `rulebook_glossary`), and CREDITS, QUESTIONS? and the back cover (`Part`s).

Inside a section: upper-case lines are headings ("MATERIALS", "3. COMBAT PHASE"); lettered
lines ("a. Untap step") and short unpunctuated lines followed by a paragraph ("Artifact",
"One-shot effect") are sub-headings; "Name. A card's name…" opens a run-in keyword entry
when its label is in title case or when the same heading holds at least two such entries;
"- " and "1. " lines are list items. Labels follow `prose`.

Markup is kept in `text` ("**Magic**", "*your*", "[®]"): it is part of the printed record and
keeping it keeps `reconstruct()` exact. Only symbols are normalized (`rulebook_glyphs`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .decode import decode
from .model import Document, DocumentMeta, ParseError, Part
from .prose import (
    Block,
    TreeBuilder,
    ends_sentence,
    is_title_case,
    list_line,
    lost_symbol_warnings,
    run_in,
    split_blocks,
)
from .rulebook_glossary import parse_entries
from .rulebook_glyphs import normalize_glyphs

_SECTION = re.compile(r"(SECTION (\d+):)\s+(.+)")
_CAPS_HEADING = re.compile(r"(?:(\d+\.)\s+)?([^a-z]*[A-Z]{2}[^a-z]*)")
_LETTERED_HEADING = re.compile(r"([a-z]\.)\s+(.+)")
_COPYRIGHT = re.compile(r"©\s?(\d{4})")
_MAX_SUBHEADING_WORDS = 5
# The unnumbered parts of the book, by their printed heading.
PART_HEADINGS = {
    "INTRODUCTION": "introduction",
    "CONTENTS": "contents",
    "LEARNING TO PLAY": "learning to play",
    "CREDITS": "credits",
    "QUESTIONS?": "questions",
    "THE BEST NIGHT OF THE WEEK": "back cover",
}
_GLOSSARY_TITLE = "GLOSSARY"


@dataclass
class _Region:
    """A run of blocks that is one Part, one section of the tree, or the glossary."""

    kind: str  # part | section | glossary
    name: str
    blocks: list[Block]
    number: str = ""  # of a section, as printed


def _regions(blocks: list[Block]) -> list[_Region]:
    regions = [_Region("part", "cover", [])]
    for block in blocks:
        text = block.text
        section = _SECTION.fullmatch(text)
        if section:
            kind = "glossary" if section.group(3) == _GLOSSARY_TITLE else "section"
            regions.append(_Region(kind, text, [block], section.group(2)))
        elif text in PART_HEADINGS:
            regions.append(_Region("part", PART_HEADINGS[text], [block]))
        else:
            regions[-1].blocks.append(block)
    return [region for region in regions if region.blocks]


def _heading_level(block: Block) -> tuple[int, str, str] | None:
    """(level, marker, title) when `block` is an upper-case or lettered heading."""
    if len(block.lines) != 1:
        return None
    caps = _CAPS_HEADING.fullmatch(block.text)
    if caps:
        return 1, caps.group(1) or "", caps.group(2)
    lettered = _LETTERED_HEADING.fullmatch(block.text)
    if lettered and not ends_sentence(block.text):
        return 2, lettered.group(1), lettered.group(2)
    return None


def _is_subheading(block: Block, following: Block | None) -> bool:
    """A short unpunctuated line that a paragraph follows ("Artifact", "Constructed")."""
    text = block.text
    return (len(block.lines) == 1 and following is not None
            and len(text.split()) <= _MAX_SUBHEADING_WORDS and text[0].isupper()
            and not ends_sentence(text) and " — " not in text
            and _heading_level(following) is None and not _SECTION.fullmatch(following.text)
            and following.text not in PART_HEADINGS)


def _parse_section(region: _Region, tree: TreeBuilder, warnings: list[str]) -> None:
    head, blocks = region.blocks[0], region.blocks[1:]
    section = _SECTION.fullmatch(head.text)
    assert section is not None
    tree.section(section.group(1), section.group(2), section.group(3), head.span)
    kinds: list[tuple[str, tuple[int, str, str] | None]] = []
    heading_of: list[int] = []
    candidates: dict[int, int] = {}
    current = -1
    for i, block in enumerate(blocks):
        level = _heading_level(block)
        following = blocks[i + 1] if i + 1 < len(blocks) else None
        if level is None and _is_subheading(block, following):
            level = (2, "", block.text)
        if level:
            kinds.append(("heading", level))
            current = i
        elif all(list_line(line) for line in block.lines):
            kinds.append(("list", None))
        else:
            kinds.append(("text", None))
            if run_in(block.text):
                candidates[current] = candidates.get(current, 0) + 1
        heading_of.append(current)
    for block, (kind, level), owner in zip(blocks, kinds, heading_of, strict=True):
        if kind == "heading" and level:
            tree.heading(level[0], level[2], block.span, marker=level[1])
        elif kind == "list":
            for line in block.lines:
                item = list_line(line)
                assert item is not None
                text, glyphs = normalize_glyphs(item[1])
                tree.list_item(item[0], text, item[2], glyphs)
        else:
            _text_block(block, candidates.get(owner, 0), tree, warnings)


def _text_block(block: Block, siblings: int, tree: TreeBuilder, warnings: list[str]) -> None:
    entry = run_in(block.text)
    if entry and (is_title_case(entry.title) or siblings >= 2):
        text, glyphs = normalize_glyphs(block.text[entry.body_start:])
        tree.keyword(entry, text, block.span, glyphs)
        return
    if block.text[0].islower():
        warnings.append(f"paragraph at offset {block.span[0]} starts in lower case: "
                        "a page break split its sentence")
    text, glyphs = normalize_glyphs(block.text)
    tree.paragraph(text, block.span, glyphs)


def _part(text: str, region: _Region) -> Part:
    start, end = region.blocks[0].span[0], region.blocks[-1].span[1]
    return Part(region.name, text[start:end], (start, end))


def parse(data: bytes) -> Document:
    """The 2005 rulebook in `data` as a Document; ParseError when it is not one."""
    text = decode(data)
    regions = _regions(split_blocks(text))
    sections = [r for r in regions if r.kind in ("section", "glossary")]
    if not sections:
        raise ParseError("no 'SECTION N:' heading found: not a print-converted rulebook", 0)
    if not any(r.kind == "part" and r.name == "credits" for r in regions):
        raise ParseError("the credits that close the rulebook are missing: the file looks "
                         "truncated", len(text))
    tree = TreeBuilder()
    glossary = []
    parts: list[Part] = []
    warnings: list[str] = lost_symbol_warnings(text)
    for region in regions:
        if region.kind == "part":
            parts.append(_part(text, region))
        elif region.kind == "section":
            _parse_section(region, tree, warnings)
        else:
            head = region.blocks[0]
            section = _SECTION.fullmatch(head.text)
            assert section is not None
            tree.section(section.group(1), section.group(2), section.group(3), head.span)
            entries, notes = parse_entries(region.blocks[1:])
            glossary.extend(entries)
            warnings.extend(notes)
    return Document(meta=_meta(text, parts, sections), text=text, rules=tuple(tree.rules),
                    glossary=tuple(glossary), parts=tuple(parts), warnings=tuple(warnings))


def _meta(text: str, parts: list[Part], sections: list[_Region]) -> DocumentMeta:
    """Title from the cover; the © year as the date (the book took effect when published)."""
    cover = next((p for p in parts if p.name == "cover"), None)
    title = " ".join(cover.text.split()) if cover else "Rulebook"
    copyright_ = _COPYRIGHT.search(text)
    covers = tuple(f"section-{region.number}" for region in sections)
    return DocumentMeta(kind="rulebook", title=title,
                        effective_date=copyright_.group(1) if copyright_ else None,
                        date_text=copyright_.group(0) if copyright_ else None,
                        covers=(covers[0], covers[-1]) if len(covers) > 1 else covers)

