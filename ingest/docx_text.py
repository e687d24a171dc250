"""The text of a Word document (.docx, Office Open XML) as Word shows it: each paragraph of
its main part a line, an empty paragraph an empty line.

Read with zipfile and ElementTree alone (python-docx gives the same text a quarter as fast
and knows no more of what matters here). A run's text, tabs and line breaks are kept; a
page or column break is a form feed (a line break inside a line, nothing at its ends);
a non-breaking hyphen is a hyphen, an optional one nothing. Deleted revisions, text moved
away, hidden runs and field instructions are not printed, so not read; inserted revisions
and field results are. A text box's paragraphs follow the paragraph that anchors them,
read once (not again from the fallback copy Word writes for older readers).

Hostile archives are refused before they cost much: the main part may not be larger than
`max_bytes` once uncompressed (its declared size is checked first, then what is actually
inflated), and XML declaring a DTD (which Word never writes, and which entity expansion
bombs need) is not parsed. Text that includes more from elsewhere (an XInclude, which Word
never writes either) is refused, not read without what it includes; an element inside a
run's text (where the schema allows none) is stepped over, the text around it kept.
"""

from __future__ import annotations

import io
import zipfile
import zlib
from xml.etree import ElementTree

from .model import ParseError

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
_P, _R, _T = f"{_W}p", f"{_W}r", f"{_W}t"
# what a run or paragraph holds that is never printed text
_UNPRINTED = frozenset({f"{_W}{tag}" for tag in (
    "del", "moveFrom", "delText", "instrText", "delInstrText", "pPr", "rPr", "sectPr",
    "commentReference", "footnoteReference", "endnoteReference")} | {f"{_MC}Fallback"})
_TEXT_BOX = f"{_W}txbxContent"
_XINCLUDE_NS = b"http://www.w3.org/2001/XInclude"
_XINCLUDE = f"{{{_XINCLUDE_NS.decode()}}}include"
_BREAK_TYPES_THAT_END_A_PAGE = ("page", "column")
_OFF = ("0", "false", "off")
# the relationship naming a package's main document part, and where Word puts it
_MAIN_RELATION = "/officeDocument"
_DEFAULT_MAIN = "word/document.xml"
_RELS = "_rels/.rels"
_RELS_MAX = 1024 * 1024
WORD = "a Word document (.docx)"


def docx_text(data: bytes, max_bytes: int) -> str:
    """The text of the .docx file `data`; ParseError with one line when it is not a readable
    Word document, or holds more than `max_bytes` of XML."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            xml = _member(archive, _main_part(archive), max_bytes)
    except ParseError:
        raise
    except Exception as exc:  # zipfile's errors on a damaged archive are of many kinds
        raise ParseError(f"a damaged ZIP archive ({exc}), not a readable Word document",
                         0) from None
    if b"<!DOCTYPE" in xml or b"<!ENTITY" in xml:
        raise ParseError(f"{WORD} whose XML declares a DTD (Word never writes one): not read",
                         0)
    try:
        root = ElementTree.fromstring(xml)
    except ElementTree.ParseError as exc:
        line, column = exc.position
        raise ParseError(f"a damaged Word document: its text (XML) is not well-formed at "
                         f"line {line}, column {column}", 0) from None
    if _XINCLUDE_NS in xml and next(root.iter(_XINCLUDE), None) is not None:
        raise ParseError(f"{WORD} whose text holds an XInclude (<xi:include>, which Word "
                         "never writes: it would take text from outside the document): not "
                         "read", 0)
    lines: list[str] = []
    try:
        _blocks(root, lines)
    except RecursionError:
        raise ParseError(f"{WORD} nested deeper than Word nests anything: not read",
                         0) from None
    return "\n".join(lines)


def _main_part(archive: zipfile.ZipFile) -> str:
    """The name of the archive's main document part: the target of its package
    relationship of type officeDocument, else word/document.xml; ParseError when the
    archive holds no such part (a ZIP archive that is not a Word document)."""
    names = set(archive.namelist())
    main = _DEFAULT_MAIN
    if _RELS in names:
        try:
            rels = ElementTree.fromstring(_member(archive, _RELS, _RELS_MAX))
        except ElementTree.ParseError:
            rels = None
        for relation in [] if rels is None else rels:
            if relation.get("Type", "").endswith(_MAIN_RELATION):
                main = relation.get("Target", "").lstrip("/") or main
                break
    if main not in names:
        listed = ", ".join(sorted(names)[:3]) or "nothing"
        raise ParseError(f"a ZIP archive that is not a Word document (no {main}; it holds "
                         f"{listed}{' …' if len(names) > 3 else ''})", 0)
    return main


def _member(archive: zipfile.ZipFile, name: str, max_bytes: int) -> bytes:
    """The bytes of member `name`, inflated to at most `max_bytes` whatever its entry
    claims; ParseError when it holds more, or cannot be read."""
    limit = f"{max_bytes / 1024 / 1024:.3g} MB"
    info = archive.getinfo(name)
    if info.file_size > max_bytes:
        raise ParseError(f"{WORD} whose {name} is {info.file_size} bytes uncompressed, "
                         f"more than {limit}, the most read (--max-mb): not inflated", 0)
    try:
        with archive.open(info) as member:
            body = member.read(max_bytes + 1)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError,
            RuntimeError) as exc:  # RuntimeError: an encrypted member
        raise ParseError(f"a damaged Word document: {name} cannot be read ({exc})",
                         0) from None
    if len(body) > max_bytes:
        raise ParseError(f"{WORD} whose {name} inflates past {limit}, the most read "
                         "(--max-mb): not read further", 0)
    return body


def _blocks(element: ElementTree.Element, lines: list[str]) -> None:
    """The lines of the paragraphs inside `element` (the body, a table, a cell, a content
    control), in document order."""
    for child in element:
        if child.tag == _P:
            _paragraph(child, lines)
        elif child.tag not in _UNPRINTED:
            _blocks(child, lines)


def _paragraph(paragraph: ElementTree.Element, lines: list[str]) -> None:
    """The paragraph's line, then the lines of the text boxes it anchors."""
    pieces: list[str] = []
    boxes: list[ElementTree.Element] = []
    _inline(paragraph, pieces, boxes)
    lines.append("".join(pieces))
    for box in boxes:
        _blocks(box, lines)


def _inline(element: ElementTree.Element, pieces: list[str],
            boxes: list[ElementTree.Element]) -> None:
    """The printed text of the runs inside `element` (a paragraph, a hyperlink, an inserted
    revision, a simple field, a smart tag) added to `pieces`; text boxes to `boxes`."""
    for child in element:
        tag = child.tag
        if tag == _R:
            _run(child, pieces, boxes)
        elif tag == _TEXT_BOX:
            boxes.append(child)
        elif tag not in _UNPRINTED:
            _inline(child, pieces, boxes)


def _run(run: ElementTree.Element, pieces: list[str],
         boxes: list[ElementTree.Element]) -> None:
    """The printed text of a run, unless it is hidden; the text boxes of its drawings."""
    properties = run.find(f"{_W}rPr")
    if properties is not None:
        vanish = properties.find(f"{_W}vanish")
        if vanish is not None and vanish.get(f"{_W}val", "1") not in _OFF:
            return
    for child in run:
        tag = child.tag
        if tag == _T:
            pieces.append(child.text or "")
            # a text holds no element; the text after one that is there is still printed
            pieces.extend(inner.tail or "" for inner in child)
        elif tag in _SPECIAL:
            pieces.append(_SPECIAL[tag](child))
        elif tag not in _UNPRINTED:  # a drawing, picture or alternate content: text boxes
            _inline(child, pieces, boxes)


def _break(element: ElementTree.Element) -> str:
    return "\f" if element.get(f"{_W}type") in _BREAK_TYPES_THAT_END_A_PAGE else "\n"


# what a run's elements other than text print
_SPECIAL = {
    f"{_W}tab": lambda element: "\t",
    f"{_W}ptab": lambda element: "\t",
    f"{_W}br": _break,
    f"{_W}cr": lambda element: "\n",
    f"{_W}noBreakHyphen": lambda element: "-",
    f"{_W}softHyphen": lambda element: "",
    f"{_W}sym": lambda element: _symbol(element.get(f"{_W}char", "")),
}


def _symbol(code: str) -> str:
    """The character of a symbol run (`w:sym`): its code, less the F000 offset of a symbol
    font's private-use range."""
    try:
        number = int(code, 16)
    except ValueError:
        return ""
    if 0xF020 <= number <= 0xF0FF:
        number -= 0xF000
    return chr(number) if 0x20 <= number < 0xD800 or 0xE000 <= number <= 0xFFFD else ""
