"""Decoding of source bytes: encoding detected from the bytes, line endings normalized.

What text editors and old tools leave in plain-text files is read as they show it: a DOS
end-of-file mark (Ctrl-Z) closing the file is dropped, and so is a form feed or vertical
tab (a page break) that opens or closes a line (a line of them goes as a whole); one inside
a line ends it. Any other control character is binary content, refused with its byte
offset; a PDF, Word, ZIP or RTF file is refused by name. Bytes that are not UTF-8 are
cp1252, or Mac OS Roman when that reads the rules' curly quotes and dashes. A text that a
tool read as cp1252 while it was UTF-8, and saved again as UTF-8 ("It’s" became
"Itâ€™s"), is read as meant (only its lines that were so, when the others hold characters
of neither reading); invisible characters (zero-width spaces, soft hyphens) are removed.
"""

from __future__ import annotations

import codecs
import re

from .model import ParseError

_CONTROL = re.compile("[\\x00-\\x08\\x0e-\\x1f\\x7f]")
_PAGE_BREAKS = "\f\v"
# format characters a copy of a web page carries, unseen and unsearchable: zero-width space,
# non-joiner, joiner, word joiner, a byte-order mark inside the text, soft hyphen
_INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad"
_DROP_INVISIBLE = dict.fromkeys(map(ord, _INVISIBLE))
INVISIBLE = "invisible characters (zero-width spaces, soft hyphens) removed"
DOUBLE_ENCODED_LINES = ("lines that were UTF-8 read as cp1252 and saved again (“â€™” for “’”) "
                        "read as they were meant")
DOUBLE_ENCODED = ("the file is UTF-8 that was read as cp1252 and saved again (“â€™” for “’”): "
                  "read as it was meant")
# the first letter of ’ “ ” — ™ (â€), é à (Ã) and ® (Â) once encoded twice (single
# characters: their test costs a thirtieth of the pairs')
_MOJIBAKE_MARKS = ("â", "Ã", "Â")
# what the rules print beyond ASCII, in quotes, dashes, marks and lists
_TYPOGRAPHIC = "’‘“”–—™®…•"
MAC_ROMAN = "the file is in Mac OS Roman (a classic Mac text file): read as such"
# other formats the rules are published in, told by their first bytes
_DOCUMENT_FORMATS = (
    (b"%PDF-", "a PDF document"),
    (b"PK\x03\x04", "a ZIP archive (a .docx document?)"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "a Word 97-2003 document"),
    (b"{\\rtf", "an RTF document"),
)

_BOMS = (
    (b"\xef\xbb\xbf", "utf-8"),
    # before UTF-16's: UTF-32 little-endian's mark starts with UTF-16 little-endian's
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)


def _sniff(data: bytes) -> tuple[str, bytes] | None:
    """(encoding, byte-order mark) told by a byte-order mark or by UTF-16's zero bytes
    (mark b"" then), else None: the choice is left to whether the bytes decode as UTF-8."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return encoding, bom
    sample = data[:4096]
    if len(sample) >= 4:
        even_zeros = sample[0::2].count(0)
        odd_zeros = sample[1::2].count(0)
        half = len(sample) // 2
        if odd_zeros > half * 0.4 and even_zeros < half * 0.05:
            return "utf-16-le", b""
        if even_zeros > half * 0.4 and odd_zeros < half * 0.05:
            return "utf-16-be", b""
    return None


def detect_encoding(data: bytes) -> str:
    """The encoding of `data`: from a byte-order mark, else UTF-16 by its zero bytes,
    else UTF-8 when it decodes, else cp1252 or Mac OS Roman (see `_single_byte`)."""
    sniffed = _sniff(data)
    if sniffed is not None:
        return sniffed[0]
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return _single_byte(data)[0]
    return "utf-8"


def _single_byte(data: bytes) -> tuple[str, str]:
    """(encoding, text) of bytes that are not UTF-8: cp1252 (Windows), or Mac OS Roman
    when that reads more of the typographic marks the rules print (’ “ ” – — ™ ® …): a
    classic Mac file's curly quotes read as cp1252 letters ("donÕt", “ÒTrampleÓ”).
    Raises UnicodeDecodeError when neither decodes (Mac OS Roman decodes any bytes)."""
    try:
        windows = data.decode("cp1252")
    except UnicodeDecodeError:
        windows = None
    mac = data.decode("mac_roman")
    if windows is None or _marks(mac) > _marks(windows):
        return "mac_roman", mac
    return "cp1252", windows


def _marks(text: str) -> int:
    """How many of the typographic marks the rules print `text` holds."""
    return sum(text.count(mark) for mark in _TYPOGRAPHIC)


def decode(data: bytes, notes: list[str] | None = None) -> str:
    """Text of `data` with any byte-order mark dropped and CRLF / CR turned into LF; what
    else was mended is told in `notes`.

    Raises ParseError for empty or binary input, its offset a byte offset in `data`.
    """
    if not data.strip():
        raise ParseError("file is empty", 0)
    for signature, kind in _DOCUMENT_FORMATS:
        if data.startswith(signature):
            raise ParseError(f"{kind}, not a text file (the .txt file of a release is needed)",
                             0)
    # Same choice as detect_encoding, but the UTF-8 trial decode is kept as the result
    # rather than done a second time.
    sniffed = _sniff(data)
    encoding, bom = sniffed or ("utf-8", b"")
    try:
        text = data[len(bom):].decode(encoding)
    except UnicodeDecodeError as exc:
        if sniffed is not None:
            raise ParseError(f"cannot decode as {encoding}: {exc.reason}",
                             len(bom) + exc.start) from None
        encoding, text = _single_byte(data)
        if encoding == "mac_roman" and notes is not None:
            notes.append(MAC_ROMAN)
    if text.endswith("\x1a"):  # DOS end-of-file mark
        text = text.rstrip("\x1a")
    binary = _CONTROL.search(text)
    if binary:
        at = binary.start()
        raise ParseError(f"binary content (control character 0x{ord(binary[0]):02X} at "
                         f"{_line_column(text, at)}) in a text document",
                         len(bom) + len(text[:at].encode(encoding)))
    meant = _undo_double_encoding(text)
    if meant is not None:
        text, lines = meant
        if notes is not None:
            notes.append(f"{DOUBLE_ENCODED_LINES}: {lines}" if lines else DOUBLE_ENCODED)
    if any(char in text for char in _INVISIBLE):
        kept = text.translate(_DROP_INVISIBLE)
        if notes is not None:
            notes.append(f"{INVISIBLE}: {len(text) - len(kept)}")
        text = kept
    if "\r" in text:  # one scan instead of the two replaces' scans when there is none
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\f" in text or "\v" in text:
        text = _without_page_breaks(text)
    return text


def _without_page_breaks(text: str) -> str:
    """`text` with the page breaks that open or close a line dropped (with the line, when
    it holds nothing else) and those inside a line turned into line breaks."""
    lines = []
    for line in text.split("\n"):
        kept = line.strip(_PAGE_BREAKS)
        if kept or kept == line:
            lines.append(kept.replace("\f", "\n").replace("\v", "\n"))
    return "\n".join(lines)


def _c1_as_bytes(error: UnicodeError) -> tuple[bytes, int]:
    """Encoding error handler: a C1 control character (U+0080–U+009F) is the byte of its
    number, as the tools that read cp1252's five unused bytes (0x9D of ”) made it one."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    chars = error.object[error.start:error.end]
    if not all("\x80" <= ch <= "\x9f" for ch in chars):
        raise error
    return chars.encode("latin-1"), error.end


codecs.register_error("rulesdb-c1", _c1_as_bytes)


def _marks_a_double_encoding(text: str, mark: str) -> bool:
    """Whether `mark` is somewhere followed by what a UTF-8 continuation byte reads as in
    cp1252 ("€" of "â€", not the "n" of "Dandân")."""
    at = text.find(mark)
    while at != -1:
        follower = text[at + 1:at + 2]
        try:
            if follower and 0x80 <= follower.encode("cp1252", errors="rulesdb-c1")[0] <= 0xBF:
                return True
        except UnicodeError:
            pass
        at = text.find(mark, at + 1)
    return False


def _undo_double_encoding(text: str) -> tuple[str, int] | None:
    """`text` before a tool read its UTF-8 bytes as cp1252 and saved the result as UTF-8,
    with 0, or None when it was not so. A text with a character of neither reading (a real
    curly quote) cannot be so as a whole: then its lines that were (a copy pieced together
    from two) are read as meant, and how many they are comes with it."""
    if not any(_marks_a_double_encoding(text, mark) for mark in _MOJIBAKE_MARKS):
        return None
    meant = _as_meant(text)
    if meant is not None:
        return meant, 0
    lines, mended = text.split("\n"), 0
    for at, line in enumerate(lines):
        if any(_marks_a_double_encoding(line, mark) for mark in _MOJIBAKE_MARKS):
            meant = _as_meant(line)
            if meant is not None:
                lines[at], mended = meant, mended + 1
    return ("\n".join(lines), mended) if mended else None


def _as_meant(text: str) -> str | None:
    """`text` as the UTF-8 its cp1252 reading was made from; None when it cannot be."""
    try:
        # the byte-order mark read and saved along with the rest
        return text.encode("cp1252", errors="rulesdb-c1").decode("utf-8").removeprefix("\ufeff")
    except UnicodeError:
        return None


def _line_column(text: str, offset: int) -> str:
    """'line L, column C' of `offset` in `text` (CRLF, CR and LF each end a line)."""
    before = text[:offset].replace("\r\n", "\n").replace("\r", "\n")
    return f"line {before.count(chr(10)) + 1}, column {len(before) - before.rfind(chr(10))}"
