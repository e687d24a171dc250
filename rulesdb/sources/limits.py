"""How much of a release `rulesdb add` and `fetch` take: the bytes read from a file, a pipe
or a download, and the length of any one rule, example, glossary entry or other item in it.

A Comprehensive Rules release is about 1 MB and its longest item 4 KB; the limits are far
above that and far below what would let one file take the memory of the machine (a 200 MB
line once took 8 GB and made a rule page of 210 MB).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, BinaryIO

from ..errors import InputError, position

if TYPE_CHECKING:  # the lookups' start imports this module (--max-mb), not the parsers
    from ..ingest.model import Document

MAX_MB = 20.0  # the largest release read, by default (--max-mb)
ITEM_MAX = 64 * 1024  # bytes (UTF-8) of one rule's text, example, glossary entry or part


def megabytes(max_mb: float) -> int:
    """`max_mb` MB in bytes."""
    return int(max_mb * 1024 * 1024)


def read_at_most(stream: BinaryIO, name: str, max_bytes: int) -> bytes:
    """The bytes of `stream`; InputError naming `name` when there are more than `max_bytes`,
    found by reading one byte past the limit and no further (standard input, /dev/zero)."""
    data = stream.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise InputError(f"{name}: larger than {max_bytes / 1024 / 1024:g} MB, the most "
                         "read (--max-mb); not read further")
    return data


def check_item_sizes(doc: Document, name: str) -> None:
    """InputError naming the file, the line and the item when one item of `doc` is longer
    than ITEM_MAX bytes."""
    for what, text, start in _items(doc):
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > ITEM_MAX:
            raise InputError(f"{name}: {position(doc.text, start)}: {what} is {size} bytes "
                             f"long; no item of a release may pass {ITEM_MAX // 1024} KB")


def _items(doc: Document) -> Iterator[tuple[str, str, int]]:
    """(what, text, start offset) of every text of an item of `doc`."""
    for rule in doc.rules:
        yield f"rule {rule.number}", rule.text, rule.span[0]
        yield f"the title of rule {rule.number}", rule.title or "", rule.span[0]
        for example in rule.examples:
            yield f"an example of rule {rule.number}", example.text, example.span[0]
    for entry in doc.glossary:
        yield "a glossary heading", entry.heading, entry.span[0]
        yield f"the glossary entry {entry.term[:40]!r}", entry.definition, entry.span[0]
        for example in entry.examples:
            yield f"an example of the glossary entry {entry.term[:40]!r}", example.text, \
                example.span[0]
    for part in doc.parts:
        yield f"the {part.name}", part.text, part.span[0]
    for residue in doc.residue:
        yield "a passage outside the rules", residue.text, residue.span[0]
