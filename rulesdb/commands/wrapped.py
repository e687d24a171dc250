"""Text filled to a width exactly as `textwrap.fill(text, width, initial_indent=indent,
subsequent_indent=indent)` fills it, without importing textwrap: its module and the pattern it
compiles to cut words at their hyphens cost a lookup 1-2 ms, and filling a history's few
thousand characters through that pattern as much again. The words are cut where textwrap's
pattern cuts them (spaces; after a hyphen between letters; around an em-dash written "--"),
and laid out by textwrap's own loop; a text with tabs or other control spacing is left to
textwrap itself. A test holds the two equal over arbitrary texts, widths and indents.
"""

from __future__ import annotations

CONTROL_SPACES = "\t\x0b\x0c\r\n"  # textwrap expands tabs and reads these as spaces
WORD_PUNCTUATION = "!\"'&.,?"  # textwrap's word_punct, beside \w


def fill(text: str, width: int, indent: str = "") -> str:
    """`text` as textwrap.fill(text, width, initial_indent=indent, subsequent_indent=indent)."""
    if any(space in text for space in CONTROL_SPACES) or width <= 0:
        import textwrap

        return textwrap.fill(text, width, initial_indent=indent, subsequent_indent=indent)
    return "\n".join(_lines(_chunks(text), width, indent))


def _chunks(text: str) -> list[str]:
    """The text as textwrap cuts it: runs of spaces, and words cut at their hyphens."""
    chunks: list[str] = []
    spaces = 0
    for at, part in enumerate(text.split(" ")):
        spaces += at > 0
        if part:
            if spaces:
                chunks.append(" " * spaces)
                spaces = 0
            if "-" in part:
                chunks.extend(_pieces(part))
            else:
                chunks.append(part)
    if spaces:
        chunks.append(" " * spaces)
    return chunks


def _is_word(character: str) -> bool:  # the pattern's \w
    return character.isalnum() or character == "_"


def _is_letter(word: str, at: int) -> bool:  # the pattern's [^\d\W], False outside the word
    return 0 <= at < len(word) and _is_word(word[at]) and not word[at].isdecimal()


def _punctuated(word: str, at: int) -> bool:  # the pattern's word_punct
    return 0 <= at < len(word) and (_is_word(word[at]) or word[at] in WORD_PUNCTUATION)


def _dashes_then_word(word: str, at: int) -> int:
    """The end of a run of two or more hyphens at `at` that a word character follows; 0 when
    there is none."""
    end = at
    while end < len(word) and word[end] == "-":
        end += 1
    return end if end - at >= 2 and end < len(word) and _is_word(word[end]) else 0


def _pieces(word: str) -> list[str]:
    """A word cut as textwrap's wordsep_re cuts it (the characters around it are spaces or
    nothing, which its look-behinds and look-aheads read as neither letters nor words)."""
    pieces = []
    start, size = 0, len(word)
    while start < size:
        if word[start] == "-" and _punctuated(word, start - 1):  # an em-dash "--" alone
            end = _dashes_then_word(word, start)
            if end:
                pieces.append(word[start:end])
                start = end
                continue
        end = start + 1  # the shortest run of characters after which one of these holds:
        while True:
            if end < size and word[end] == "-" and _after_hyphen(word, end):
                end += 1  # a hyphen between letters ends it
                break
            if end == size:  # the end of the word
                break
            if _punctuated(word, end - 1) and _dashes_then_word(word, end):
                break  # an em-dash "--" follows
            end += 1
        pieces.append(word[start:end])
        start = end
    return pieces


def _after_hyphen(word: str, at: int) -> bool:
    """Whether the hyphen at `at` may end a piece: two letters before it (or letter, hyphen,
    letter), and a letter, perhaps a hyphen, and a letter after it."""
    before = (_is_letter(word, at - 2) and _is_letter(word, at - 1)) or (
        _is_letter(word, at - 3) and word[at - 2] == "-" and _is_letter(word, at - 1))
    return before and _is_letter(word, at + 1) and (
        _is_letter(word, at + 2) or (at + 2 < len(word) and word[at + 2] == "-"
                                     and _is_letter(word, at + 3)))


def _lines(chunks: list[str], width: int, indent: str) -> list[str]:
    """textwrap.TextWrapper._wrap_chunks with its default options (long words broken, at a
    hyphen when one fits, spaces dropped at the ends of lines)."""
    lines: list[str] = []
    chunks.reverse()
    room = width - len(indent)
    while chunks:
        line: list[str] = []
        used = 0
        if chunks[-1].strip() == "" and lines:
            del chunks[-1]
        while chunks and used + len(chunks[-1]) <= room:
            used += len(chunks[-1])
            line.append(chunks.pop())
        if chunks and len(chunks[-1]) > room:
            _break_long_word(chunks, line, used, room)
        if line and line[-1].strip() == "":
            del line[-1]
        if line:
            lines.append(indent + "".join(line))
    return lines


def _break_long_word(chunks: list[str], line: list[str], used: int, room: int) -> None:
    """textwrap's _handle_long_word: as much of the next chunk as fits (at least one
    character), cut after its last hyphen that fits when non-hyphens come before it."""
    left = 1 if room < 1 else room - used
    chunk = chunks[-1]
    end = left
    if len(chunk) > left:
        hyphen = chunk.rfind("-", 0, left)
        if hyphen > 0 and any(c != "-" for c in chunk[:hyphen]):
            end = hyphen + 1
    line.append(chunk[:end])
    chunks[-1] = chunk[end:]
