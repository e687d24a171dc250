"""Small release files in the forms Wizards publishes besides text, made for the tests: a
.docx (a ZIP of WordprocessingML), an RTF document, and a PDF typeset with PDFium (each
paragraph wrapped at the right margin as a word processor wraps it, an empty paragraph an
empty line); and such files damaged at random (`damaged`, a hypothesis strategy)."""

from __future__ import annotations

import ctypes
import hashlib
import io
import re
import struct
import zipfile
from html import escape

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from hypothesis import strategies as st

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/'
    'package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/>'
    '</Types>')
RELS = (
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats'
    '.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.'
    'openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
    'Target="word/document.xml"/></Relationships>')


def paragraph_xml(text: str) -> str:
    """A paragraph of one run per line of `text` (its inner line breaks as w:br)."""
    runs = "<w:r><w:br/></w:r>".join(
        f'<w:r><w:t xml:space="preserve">{escape(line, quote=False)}</w:t></w:r>'
        for line in text.split("\n"))
    return f"<w:p>{runs}</w:p>"


def docx(body: str | list[str], extra: dict[str, bytes] | None = None,
         main: str = "word/document.xml") -> bytes:
    """A .docx whose body is the XML `body`, or a paragraph per item of the list."""
    if isinstance(body, list):
        body = "".join(paragraph_xml(text) for text in body)
    document = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
                f'<w:document xmlns:w="{W}"><w:body>{body}</w:body></w:document>')
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", CONTENT_TYPES)
        archive.writestr("_rels/.rels", RELS.replace("word/document.xml", main))
        archive.writestr(main, document)
        for name, data in (extra or {}).items():
            archive.writestr(name, data)
    return buffer.getvalue()


def rtf(text: str) -> bytes:
    """An RTF document of `text`, a paragraph a line, in cp1252 with `\\'hh` escapes."""
    body = []
    for char in text:
        if char == "\n":
            body.append("\\par\n")
        elif char in "\\{}":
            body.append("\\" + char)
        elif ord(char) < 128:
            body.append(char)
        else:
            try:
                body.append("".join(f"\\'{byte:02x}" for byte in char.encode("cp1252")))
            except UnicodeEncodeError:
                body.append(f"\\u{ord(char)}?")
    return ("{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0 Times New Roman;}}"
            "{\\info{\\title A release}}\\pard " + "".join(body) + "}").encode("ascii")


PAGE = (612.0, 792.0)
MARGIN = 72.0
SIZE = 10.0
PITCH = 12.0


def _widestring(text: str) -> ctypes.Array:
    data = (text + "\0").encode("utf-16-le")
    return ctypes.create_string_buffer(data, len(data))


def _text_object(document: pdfium.PdfDocument, font, text: str):
    obj = pdfium_c.FPDFPageObj_CreateTextObj(document.raw, font, SIZE)
    buffer = _widestring(text)
    pdfium_c.FPDFText_SetText(obj, ctypes.cast(buffer, pdfium_c.FPDF_WIDESTRING))
    return obj


def _width(document: pdfium.PdfDocument, font, text: str) -> float:
    obj = _text_object(document, font, text)
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    pdfium_c.FPDFPageObj_GetBounds(obj, left, bottom, right, top)
    pdfium_c.FPDFPageObj_Destroy(obj)
    return right.value - left.value


def _wrapped(document: pdfium.PdfDocument, font, paragraph: str, width: float) -> list[str]:
    """The lines `paragraph` wraps into: each as many words as fit in `width`, a line
    ending with the space it wrapped at (as Word writes it); a hyphenated word that does
    not fit is broken after the last of its hyphens that fits, as word processors do."""
    lines, line = [], ""
    for word in paragraph.split(" "):
        candidate = f"{line} {word}" if line else word
        if line and _width(document, font, candidate) > width:
            pieces = word.split("-")
            head = next((cut for cut in range(len(pieces) - 1, 0, -1)
                         if _width(document, font, f"{line} {'-'.join(pieces[:cut])}-")
                         <= width), None)
            if head is None:
                lines.append(line + " ")
                line = word
            else:
                lines.append(f"{line} {'-'.join(pieces[:head])}-")
                line = "-".join(pieces[head:])
        else:
            line = candidate
    return [*lines, line]


def pdf(text: str, width: float = PAGE[0] - 2 * MARGIN, lines_per_page: int = 60,
        scan_pages: int = 0, folios: bool = False) -> bytes:
    """A PDF of `text` typeset in Helvetica: a paragraph a line of `text`, wrapped within
    `width`, an empty line an empty line; `scan_pages` pages with no text after it; with
    `folios`, each page's number printed under its text."""
    document = pdfium.PdfDocument.new()
    font = pdfium_c.FPDFText_LoadStandardFont(document.raw, b"Helvetica")
    printed: list[str | None] = []
    for paragraph in text.strip("\n").split("\n"):
        printed.extend(_wrapped(document, font, paragraph, width) if paragraph else [None])
    pages = [printed[at:at + lines_per_page] for at in range(0, len(printed), lines_per_page)]
    for index, lines in enumerate(pages if text else []):
        page = document.new_page(*PAGE)
        if folios:
            lines = [*lines, *[None] * (lines_per_page - len(lines)), None, str(index + 1)]
        for row, line in enumerate(lines):
            if line is None:
                continue
            obj = _text_object(document, font, line)
            pdfium_c.FPDFPageObj_Transform(obj, 1, 0, 0, 1, MARGIN,
                                           PAGE[1] - MARGIN - row * PITCH)
            pdfium_c.FPDFPage_InsertObject(page.raw, obj)
        pdfium_c.FPDFPage_GenerateContent(page.raw)
        page.close()
    for _ in range(scan_pages):
        document.new_page(*PAGE).close()
    buffer = io.BytesIO()
    document.save(buffer)
    document.close()
    return buffer.getvalue()


# an encrypted PDF: the standard security handler whose user password is not empty (its
# /U entry matches no password), so that no reader opens it without one
ENCRYPTED_PDF = b"""%PDF-1.4
1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj
4 0 obj << /Filter /Standard /V 1 /R 2 /P -4
/O <0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef>
/U <fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210> >> endobj
trailer << /Root 1 0 R /Encrypt 4 0 R /ID [<00112233445566778899aabbccddeeff>
<00112233445566778899aabbccddeeff>] /Size 5 >>
%%EOF
"""


# the padding of the PDF standard security handler's passwords (PDF 1.7, 7.6.3.3)
_PAD = bytes.fromhex("28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A")
COPY_FORBIDDEN = -20  # the permissions of an owner who forbids copying text (bit 5 off)
_STREAM = re.compile(rb"(\d+) (\d+) obj\r?\n<<(?:(?!endobj).)*?/Length (\d+)"
                     rb"(?:(?!endobj).)*?>>stream\r?\n", re.DOTALL)


def _rc4(key: bytes, data: bytes) -> bytes:
    box = list(range(256))
    j = 0
    for i in range(256):
        j = (j + box[i] + key[i % len(key)]) % 256
        box[i], box[j] = box[j], box[i]
    out, i, j = bytearray(), 0, 0
    for byte in data:
        i = (i + 1) % 256
        j = (j + box[i]) % 256
        box[i], box[j] = box[j], box[i]
        out.append(byte ^ box[(box[i] + box[j]) % 256])
    return bytes(out)


def owner_locked_pdf(text: str, permissions: int = COPY_FORBIDDEN) -> bytes:
    """`pdf(text)` encrypted as an owner locks a PDF: no password to open it (an empty user
    password), an owner password, and `permissions` (by default: copying text forbidden).
    RC4 of 40 bits (security handler revision 2): each stream encrypted in place, the
    encryption dictionary added in an update at the end."""
    data = bytearray(pdf(text))
    doc_id = bytes.fromhex(re.search(rb"/ID\[<([0-9A-Fa-f]+)>", data)[1].decode())
    owner = _rc4(hashlib.md5(b"owner" + _PAD[:27]).digest()[:5], _PAD)
    key = hashlib.md5(_PAD + owner + struct.pack("<i", permissions) + doc_id).digest()[:5]
    user = _rc4(key, _PAD)
    for match in _STREAM.finditer(bytes(data)):
        number, generation, length = (int(group) for group in match.groups())
        object_key = hashlib.md5(key + number.to_bytes(3, "little")
                                 + generation.to_bytes(2, "little")).digest()[:10]
        start = match.end()
        data[start:start + length] = _rc4(object_key, bytes(data[start:start + length]))
    size = int(re.search(rb"/Size (\d+)", data)[1])
    previous = int(re.findall(rb"startxref\r?\n(\d+)", data)[-1])
    at = len(data)
    data += (f"{size} 0 obj\n<</Filter/Standard/V 1/R 2/O<{owner.hex()}>/U<{user.hex()}>"
             f"/P {permissions}>>\nendobj\n").encode()
    xref = len(data)
    data += (f"xref\n{size} 1\n{at:010d} 00000 n\r\ntrailer\n<</Size {size + 1}/Root 1 0 R"
             f"/Encrypt {size} 0 R/ID[<{doc_id.hex()}><{doc_id.hex()}>]/Prev {previous}>>\n"
             f"startxref\n{xref}\n%%EOF\n").encode()
    return bytes(data)


@st.composite
def damaged(draw: st.DrawFn, data: bytes) -> bytes:
    """`data` cut short, with bytes overwritten, or with a stretch lost or doubled."""
    out = bytearray(data)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["cut", "flip", "lose", "double"]))
        at = draw(st.integers(0, max(0, len(out) - 1)))
        if kind == "cut":
            del out[max(at, 1):]
        elif kind == "flip":
            length = draw(st.integers(1, 64))
            out[at:at + length] = draw(st.binary(min_size=length, max_size=length))
        elif kind == "lose":
            del out[at:at + draw(st.integers(1, 4096))]
        else:
            out[at:at] = out[at:at + draw(st.integers(1, 4096))]
    return bytes(out)
