"""The text of an RTF document as a word processor shows it, read by one linear pass over
its tokens (RTF 1.9.1: groups, control words and symbols, `\\'hh` and `\\uN` characters).

Printed: the document's characters in its code page (`\\ansicpgN`, `\\mac`, `\\pc`,
`\\pca`), a paragraph or line end as a line break, a page, column or section break as a
form feed (a line break inside a line, nothing at its ends), a table cell's end as a line
break, the typographic marks RTF spells as words (`\\emdash`, `\\rquote`, ...), a field's
result, a list item's number as its text gives it (`\\listtext`, `\\pntext`). Not printed:
destinations (font and style tables, document information, pictures, headers, footers,
footnotes, field instructions, any group marked `\\*`), hidden text (`\\v`), the fallback
characters after a `\\uN`, binary data (`\\binN`).

(striprtf reads the same documents, but writes a hyperlink field as "text(url)", which is
not what the document prints.)
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, replace

from .model import ParseError

_TOKEN = re.compile(
    rb"\\([a-zA-Z]{1,32})(-?\d{1,10})? ?"  # control word, its parameter, its delimiter
    rb"|\\'([0-9a-fA-F]{2})"  # a character by its byte in the code page
    rb"|\\([^a-zA-Z'])"  # control symbol
    rb"|([{}])"
    rb"|[\r\n]+"  # line breaks of the file itself mean nothing
    rb"|([^\\{}\r\n]+)",  # plain text
    re.DOTALL)
# groups whose content is not printed text
_DESTINATIONS = frozenset({
    "fonttbl", "colortbl", "stylesheet", "info", "pict", "object", "header", "headerl",
    "headerr", "headerf", "footer", "footerl", "footerr", "footerf", "footnote", "annotation",
    "atnid", "atnauthor", "atndate", "atnref", "fldinst", "listtable", "listoverridetable",
    "revtbl", "rsidtbl", "filetbl", "generator", "xmlnstbl", "themedata", "colorschememapping",
    "latentstyles", "datastore", "pn", "mmathPr", "bkmkstart", "bkmkend", "template",
    "userprops", "docvar", "nonshppict", "shpinst", "private", "pgdsctbl", "fchars", "lchars",
})
_PRINTED_WORDS = {
    "par": "\n", "line": "\n", "cell": "\n", "row": "\n", "nestcell": "\n", "nestrow": "\n",
    "sect": "\f", "page": "\f", "column": "\f", "tab": "\t",
    "emdash": "—", "endash": "–", "emspace": " ", "enspace": " ", "qmspace": " ",
    "bullet": "•", "lquote": "‘", "rquote": "’", "ldblquote": "“", "rdblquote": "”",
}
_PRINTED_SYMBOLS = {"\\": "\\", "{": "{", "}": "}", "~": "\u00a0", "-": "", "_": "-",
                    "\n": "\n", "\r": "\n", "\t": "\t"}
_CODE_PAGES = {"mac": "mac_roman", "pc": "cp437", "pca": "cp850", "ansi": "cp1252"}
MAX_DEPTH = 1000  # groups inside groups; Word's documents nest a few dozen at most


@dataclass(frozen=True)
class _State:
    """What a group carries into the groups inside it."""

    skip: bool = False  # inside a destination: nothing is printed
    hidden: bool = False  # \v: hidden text
    uc: int = 1  # fallback characters after \uN


def rtf_text(data: bytes) -> str:
    """The printed text of the RTF document `data`; ParseError when its groups nest
    deeper than any word processor writes."""
    out: list[str] = []
    pending = bytearray()  # bytes of the code page, decoded together (a multibyte one)
    encoding = "cp1252"
    state, stack = _State(), []
    fallback = 0  # characters after \uN still to skip
    at = 0
    while at < len(data):
        match = _TOKEN.match(data, at)
        if match is None:  # a backslash ending the file
            break
        at = match.end()
        word, parameter, byte, symbol, brace, plain = match.groups()
        if pending and byte is None and plain is None:
            out.append(pending.decode(encoding, "replace"))
            pending.clear()
        printed = not (state.skip or state.hidden)
        if brace is not None:
            fallback = 0
            if brace == b"{":
                if len(stack) >= MAX_DEPTH:
                    raise ParseError(f"an RTF document whose groups nest deeper than "
                                     f"{MAX_DEPTH}: not read", match.start())
                stack.append(state)
            elif stack:
                state = stack.pop()
                if not stack:  # the document's group is closed: what follows is not its
                    break
        elif plain is not None:
            if fallback:
                plain, fallback = plain[fallback:], max(0, fallback - len(plain))
            if printed:
                pending += plain
        elif word is None and byte is None and symbol is None:  # the file's line breaks
            continue
        elif fallback:  # a character, symbol or word standing in for the \uN before
            fallback -= 1
            if word == b"bin" and parameter:
                at += max(0, int(parameter))
        elif byte is not None:
            if printed:
                pending.append(int(byte, 16))
        elif symbol is not None:
            char = symbol.decode("latin-1")
            if char == "*":
                state = replace(state, skip=True)
            elif printed and char in _PRINTED_SYMBOLS:
                out.append(_PRINTED_SYMBOLS[char])
        elif word is not None:
            name, number = word.decode("ascii"), int(parameter) if parameter else None
            if name in _DESTINATIONS:
                state = replace(state, skip=True)
            elif name == "bin" and number:  # binary data, not RTF: stepped over
                at += max(0, number)
            elif name == "v":
                state = replace(state, hidden=number != 0)
            elif name == "uc" and number is not None:
                state = replace(state, uc=max(0, number))
            elif name == "u" and number is not None:
                if printed:
                    out.append(_unicode(number))
                fallback = state.uc
            elif name == "ansicpg" and number:
                encoding = _code_page(f"cp{number}", encoding)
            elif name in _CODE_PAGES:
                encoding = _code_page(_CODE_PAGES[name], encoding)
            elif printed and name in _PRINTED_WORDS:
                out.append(_PRINTED_WORDS[name])
    if pending:
        out.append(pending.decode(encoding, "replace"))
    return "".join(out)


def _unicode(number: int) -> str:
    """The character of `\\uN` (N a signed 16-bit number, or an unsigned one); nothing for
    a surrogate, or a number out of that range (`\\u-70000`, one past a C int)."""
    code = number + 0x10000 if number < 0 else number
    if not 0 <= code <= 0xFFFF or 0xD800 <= code <= 0xDFFF:
        return ""
    return chr(code)


def _code_page(name: str, current: str) -> str:
    """`name` when Python knows that encoding ("cp65001" is UTF-8), else `current`."""
    name = "utf-8" if name == "cp65001" else name
    try:
        codecs.lookup(name)
    except LookupError:
        return current
    return name
