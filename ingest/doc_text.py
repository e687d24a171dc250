"""The text of a Word 97-2003 document (.doc) as Word shows it, read from its OLE2 container
with olefile: the main document's characters, found through the piece table (the CLX of
the File Information Block, [MS-DOC] 2.5 and 2.9.38), each piece 8-bit (cp1252) or UTF-16.

Word's marks become what a text release has: a paragraph mark or a line break ends a line,
a page or section break is a form feed (a line break inside a line, nothing at its ends),
a table cell's end mark ends a line; of a field only its result is printed (not its
instruction); a non-breaking hyphen is a hyphen, an optional one nothing; anchors of
pictures, footnotes and comments print nothing. Footnotes, headers and text boxes are
other stories of the file and are not read.
"""

from __future__ import annotations

import io
import re
import struct

import olefile

from .model import ParseError

WORD_97 = "a Word 97-2003 document (.doc)"
_IDENT = 0xA5EC  # wIdent of a Word document's File Information Block
_NFIB_WORD_97 = 0xC1  # earlier versions (Word 6, Word 95) lay the FIB out otherwise
_ENCRYPTED, _WHICH_TABLE = 0x0100, 0x0200  # FibBase flags: fEncrypted, fWhichTblStm
_CLX_PAIR = 33  # fcClx/lcbClx: the 34th pair of FibRgFcLcb97
_COMPRESSED = 0x40000000  # FcCompressed.fCompressed: the piece is cp1252, at fc / 2
_PIECE = struct.Struct("<HIH")  # Pcd: flags, fc, prm
# field marks: begin, separator (instruction | result), end
_FIELD_BEGIN, _FIELD_SEPARATOR, _FIELD_END = "\x13", "\x14", "\x15"
_FIELD_MARK = re.compile("([\x13\x14\x15])")
_MARKS = str.maketrans({
    "\r": "\n",  # paragraph mark
    "\x0b": "\n",  # line break (Shift+Enter)
    "\x0c": "\f",  # page or section break
    "\x07": "\n",  # end of a table cell or row
    "\x1e": "-",  # non-breaking hyphen
    "\x1f": None,  # optional hyphen
    **dict.fromkeys(map(chr, (*range(0x00, 0x09), *range(0x0e, 0x1e))), None),
})


def doc_text(data: bytes) -> str:
    """The main text of the .doc file `data`; ParseError with one line when it is not a
    readable Word 97-2003 document (damaged, cut short, encrypted, or another Office file)."""
    try:
        with olefile.OleFileIO(io.BytesIO(data)) as ole:
            if not ole.exists("WordDocument"):
                raise ParseError("an Office (OLE2) file that is not a Word document (no "
                                 "WordDocument stream)", 0)
            word = ole.openstream("WordDocument").read()
            flags = _flags(word)
            table_name = "1Table" if flags & _WHICH_TABLE else "0Table"
            if not ole.exists(table_name):
                raise ParseError(f"a damaged Word document: its {table_name} stream is missing",
                                 0)
            table = ole.openstream(table_name).read()
    except ParseError:
        raise
    except Exception as exc:  # olefile's errors on a damaged container are of many kinds
        raise ParseError(f"a damaged Word document: its container cannot be read ({exc})",
                         0) from None
    try:
        text = _main_text(word, table)
    except (struct.error, IndexError, ValueError) as exc:
        raise ParseError(f"a damaged Word document: its text cannot be found ({exc})",
                         0) from None
    return _printed(text)


def _flags(word: bytes) -> int:
    """The FibBase flags of the WordDocument stream; ParseError when it is not Word 97's
    or the document is encrypted."""
    if len(word) < 32:
        raise ParseError("a damaged Word document: its WordDocument stream is cut short", 0)
    ident, nfib = struct.unpack_from("<HH", word, 0)
    if ident != _IDENT:
        raise ParseError("a damaged Word document: its WordDocument stream does not open "
                         "as Word's does", 0)
    if nfib < _NFIB_WORD_97:
        raise ParseError("a Word 6 or Word 95 document: save it from Word as .docx or .txt "
                         "to add it", 0)
    flags = struct.unpack_from("<H", word, 0x0A)[0]
    if flags & _ENCRYPTED:
        raise ParseError(f"an encrypted {WORD_97.removeprefix('a ')}: a password is needed "
                         "to read it", 0)
    return flags


def _main_text(word: bytes, table: bytes) -> str:
    """The characters of the main document (the first ccpText of the piece table's)."""
    csw = struct.unpack_from("<H", word, 32)[0]
    lw = 34 + 2 * csw  # cslw, then FibRgLw97
    cslw = struct.unpack_from("<H", word, lw)[0]
    ccp_text = struct.unpack_from("<i", word, lw + 2 + 12)[0]
    blob = lw + 2 + 4 * cslw + 2  # after cbRgFcLcb
    fc_clx, lcb_clx = struct.unpack_from("<II", word, blob + 8 * _CLX_PAIR)
    clx = table[fc_clx:fc_clx + lcb_clx]
    if ccp_text < 0 or len(clx) != lcb_clx:
        raise ValueError("the piece table lies outside its stream")
    at = 0
    while at < len(clx) and clx[at] == 1:  # Prc: property modifiers, skipped
        at += 3 + struct.unpack_from("<H", clx, at + 1)[0]
    if at >= len(clx) or clx[at] != 2:
        raise ValueError("no piece table")
    size = struct.unpack_from("<I", clx, at + 1)[0]
    plc = clx[at + 5:at + 5 + size]
    count = (len(plc) - 4) // 12
    if count < 1 or len(plc) != size:
        raise ValueError("the piece table is cut short")
    cps = struct.unpack_from(f"<{count + 1}I", plc, 0)
    pieces, wanted = [], ccp_text
    for index in range(count):
        if wanted <= 0:
            break
        length = min(cps[index + 1] - cps[index], wanted)
        if length < 0:
            raise ValueError("the pieces are out of order")
        _, fc, _ = _PIECE.unpack_from(plc, 4 * (count + 1) + 8 * index)
        if fc & _COMPRESSED:
            start = (fc & ~_COMPRESSED) // 2
            chunk = word[start:start + length].decode("cp1252", "replace")
        else:
            chunk = word[fc:fc + 2 * length].decode("utf-16-le", "replace")
        if len(chunk) != length:
            raise ValueError("a piece lies outside the WordDocument stream")
        pieces.append(chunk)
        wanted -= length
    return "".join(pieces)


def _printed(text: str) -> str:
    """`text` as printed: fields by their results, Word's marks as in `_MARKS`."""
    if _FIELD_BEGIN in text:
        text = _field_results(text)
    return text.translate(_MARKS)


def _field_results(text: str) -> str:
    """`text` with each field (begin, instruction, separator, result, end; nested fields
    inside either part) replaced by its result."""
    out: list[str] = []
    fields: list[bool] = []  # for each open field: whether its result has begun
    for piece in _FIELD_MARK.split(text):
        if piece == _FIELD_BEGIN:
            fields.append(False)
        elif piece == _FIELD_SEPARATOR and fields:
            fields[-1] = True
        elif piece == _FIELD_END and fields:
            fields.pop()
        elif all(fields):
            out.append(piece)
    return "".join(out)
