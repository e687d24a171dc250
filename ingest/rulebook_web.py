"""Parser of the Fourth Edition rulebook, Section II (1995), converted from web pages.

Layout: a page-navigation line ("[ Previous Page ] | [ Next Page]") at both ends (kept as
`Residue`), the section line "Section II: Expanding Your Knowledge", then headings each
printed on the line right above their first paragraph ("Color" / "Every card in Magic…"),
paragraphs separated by blank lines, run-in keyword entries ("Banding: Banding is an
ability…", "Declare Attackers: …"), indented lists ("• …", "1. …") and "EXAMPLE" lines
where an illustrated example was lost (kept as `lost_example` items with empty text).

The web conversion kept no heading levels, so every heading sits directly under the section
("Step by Step" included, though it reads as part of "More on Combat"). The file prints no
date, so the document has none. Labels follow `prose`.
"""

from __future__ import annotations

import re

from .decode import decode
from .model import Document, DocumentMeta, ParseError, Residue
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

_NAVIGATION = re.compile(r"\[ ?Previous Page ?\] \| \[ ?Next Page ?\]")
_SECTION = re.compile(r"(Section ([IVXL]+):)\s+(.+)")
_LOST_EXAMPLE = "EXAMPLE"
_MAX_HEADING_WORDS = 6
_SENTENCE_ENDS = (".", "!", "?", '"', "”", ")")


def _is_heading_line(text: str) -> bool:
    """A short title-case line without sentence punctuation ("More on Creatures")."""
    return (len(text.split()) <= _MAX_HEADING_WORDS and not ends_sentence(text)
            and is_title_case(text) and text != _LOST_EXAMPLE)


def _emit(block: Block, tree: TreeBuilder) -> None:
    """Add one block (with no heading line) to the tree."""
    if block.text == _LOST_EXAMPLE:
        tree.lost_example(_LOST_EXAMPLE, block.span)
        return
    items = [list_line(line) for line in block.lines]
    if all(items):
        for item in items:
            assert item is not None
            tree.list_item(item[0], item[1], item[2])
        return
    entry = run_in(block.text)
    if entry and entry.marker.endswith(":") and is_title_case(entry.title):
        tree.keyword(entry, block.text[entry.body_start:], block.span)
    else:
        tree.paragraph(block.text, block.span)


def parse(data: bytes) -> Document:
    """The 1995 rulebook section in `data` as a Document; ParseError when it is not one."""
    text = decode(data)
    blocks = split_blocks(text)
    residue = [Residue(b.text, "web page navigation links", b.span)
               for b in blocks if _NAVIGATION.fullmatch(b.text)]
    content = [b for b in blocks if not _NAVIGATION.fullmatch(b.text)]
    first = content[0] if content else None
    section = _SECTION.fullmatch(first.lines[0].text) if first else None
    if first is None or section is None:
        raise ParseError("no 'Section N:' line opens the text: not a web-converted rulebook "
                         "section", first.span[0] if first else 0)
    if not _NAVIGATION.fullmatch(blocks[-1].text):
        raise ParseError("the page navigation that closes the page is missing: the file looks "
                         "truncated", len(text))
    tree = TreeBuilder()
    opening = first.lines[0]
    tree.section(section.group(1), section.group(2), section.group(3),
                 (opening.start, opening.end))
    warnings: list[str] = lost_symbol_warnings(text)
    pending = [first.tail(1)] if len(first.lines) > 1 else []
    for block in pending + content[1:]:
        head = block.lines[0]
        if _is_heading_line(head.text):
            tree.heading(1, head.text, (head.start, head.end))
            if len(block.lines) == 1:
                warnings.append(f"heading {head.text!r} has no paragraph on the next line")
                continue
            block = block.tail(1)
        _emit(block, tree)
    last = content[-1].lines[-1].text
    if not last.endswith(_SENTENCE_ENDS) and last != _LOST_EXAMPLE:
        raise ParseError("the last paragraph stops mid-sentence: the file looks truncated",
                         content[-1].span[1])
    meta = DocumentMeta(kind="rulebook", title=first.lines[0].text,
                        covers=(f"section-{section.group(2)}",))
    return Document(meta=meta, text=text, rules=tuple(tree.rules), residue=tuple(residue),
                    warnings=tuple(warnings))
