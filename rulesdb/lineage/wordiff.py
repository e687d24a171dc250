"""Word-level differences between two texts, and their rendering as text, Markdown or HTML.

Opcodes are difflib's (equal, delete, insert, replace) over words with the spacing that
follows them, so joining one side's pieces gives that side's text back exactly.
"""

from __future__ import annotations

import re

from .text import SequenceMatcher, fold_quotes

TOKEN = re.compile(r"\S+\s*|\s+")


def words(text: str) -> list[str]:
    """The text cut into words, each with the whitespace after it."""
    return TOKEN.findall(text)


def opcodes(old: str, new: str) -> list[dict[str, str]]:
    """[{"op", "old", "new"}] covering both texts in order; equal runs carry both sides."""
    a, b = words(old), words(new)
    matcher = SequenceMatcher(None, compared(old), compared(new), autojunk=False)
    return [{"op": tag, "old": "".join(a[i1:i2]), "new": "".join(b[j1:j2])}
            for tag, i1, i2, j1, j2 in matcher.get_opcodes()]


def compared(text: str) -> list[str]:
    """The words of `text` as `opcodes` compares them, one for each of `words(text)`: without
    their spacing, quotes folded ("" for the spacing a text starts with)."""
    # quotes fold one character for one, and str.split and the pattern's \s agree on spaces
    return ([""] if text[:1].isspace() else []) + fold_quotes(text).split()


REORDER_LINES = 8  # a text of this many lines or more may be a list set in another order


def in_order_of(old: str, new: str) -> str:
    """`old` with the lines it shares with `new` put in `new`'s order (a line `new` lacks
    follows the line before it), when that lines up more of them; else `old` itself. A
    list a transcription read in another order (two columns read across) is then compared
    line for line."""
    old_lines, new_lines = old.split("\n"), new.split("\n")
    if min(len(old_lines), len(new_lines)) < REORDER_LINES:
        return old
    places: dict[str, list[int]] = {}
    for at, line in enumerate(new_lines):
        places.setdefault(line, []).append(at)
    keys, follow = [], -1.0
    for at, line in enumerate(old_lines):
        if places.get(line):
            follow = places[line].pop(0)
            keys.append((follow, 0, at))
        else:
            keys.append((follow, 1, at))
    moved = "\n".join(old_lines[at] for *_, at in sorted(keys))

    def lined_up(text: str) -> int:
        matcher = SequenceMatcher(None, text.split("\n"), new_lines, autojunk=False)
        return sum(block.size for block in matcher.get_matching_blocks())

    return moved if lined_up(moved) > lined_up(old) else old


def layout_opcodes(old: str, new: str) -> list[dict[str, str]]:
    """`opcodes` of a judges' document's section: its lines in `new`'s order first
    (`in_order_of`); joining the old side's pieces gives `old` so reordered."""
    return opcodes(in_order_of(old, new), new)


CONTEXT = 12  # words of unchanged text kept on each side of a change


def fold_context(ops: list[dict[str, str]], context: int = CONTEXT) -> list[dict[str, str]]:
    """`ops` with each long unchanged run cut to `context` words next to the changes around
    it; the words cut become one "skip" op holding them (its "old" and "new": the text cut).

    A one-word edit in a 400-word rule then shows a line, not two copies of the rule.
    """
    folded: list[dict[str, str]] = []
    for at, op in enumerate(ops):
        if op["op"] != "equal":
            folded.append(op)
            continue
        # the same words on both sides, their spacing perhaps not
        sides = {side: words(op[side]) for side in ("old", "new")}
        count = len(sides["old"])
        keep_head = context if at > 0 else 0
        keep_tail = context if at < len(ops) - 1 else 0
        if count <= keep_head + keep_tail + 3:  # hiding a word or two helps nobody
            folded.append(op)
            continue
        cuts = ((0, keep_head, "equal"), (keep_head, count - keep_tail, "skip"),
                (count - keep_tail, count, "equal"))
        folded.extend({"op": kind, **{side: "".join(parts[start:end])
                                      for side, parts in sides.items()}}
                      for start, end, kind in cuts if end > start)
    return folded


def render_text(ops: list[dict[str, str]], context: int | None = CONTEXT) -> tuple[str, str]:
    """Old and new side for a terminal: removed words as [-…-], added ones as {+…+}; long
    unchanged runs cut to `context` words around each change ("…"; None: none cut)."""
    ops = fold_context(ops, context) if context is not None else ops
    skip = lambda text: "… "  # noqa: E731
    return (_side(ops, "old", "[-{}-]", lambda s: s, skip),
            _side(ops, "new", "{{+{}+}}", lambda s: s, skip))


def render_inline(ops: list[dict[str, str]], context: int | None = CONTEXT) -> str:
    """Both sides in one text for a terminal: kept words as they are, removed ones [-…-],
    added ones {+…+}; long unchanged runs cut to "…" as in render_text."""
    return _inline(ops, context, ("[-{}-]", "{{+{}+}}"), lambda text: text)


def render_inline_html(ops: list[dict[str, str]], context: int | None = CONTEXT) -> str:
    """Both sides in one HTML text: kept words as they are, removed ones in <del>, added
    ones in <ins>, every text escaped; long unchanged runs cut to "…" as in render_text."""
    from html import escape  # here: a history in a terminal does without (its entities: 1 ms)

    return _inline(ops, context, ("<del>{}</del>", "<ins>{}</ins>"), escape)


def _inline(ops: list[dict[str, str]], context: int | None, marks: tuple[str, str],
            escape) -> str:
    out = []
    for op in fold_context(ops, context) if context is not None else ops:
        if op["op"] == "equal":
            out.append(escape(op["new"]))
        elif op["op"] == "skip":
            out.append("… ")
        else:
            for side, mark in zip(("old", "new"), marks, strict=True):
                core = op[side].rstrip()
                if core:
                    out.append(mark.format(escape(core)) + op[side][len(core):])
    return "".join(out).rstrip()


def render_markdown(ops: list[dict[str, str]], context: int | None = CONTEXT) -> tuple[str, str]:
    """Old and new side in Markdown: removed words ~~struck~~, added ones **bold**; long
    unchanged runs cut as in render_text."""
    ops = fold_context(ops, context) if context is not None else ops
    skip = lambda text: "… "  # noqa: E731
    return (_side(ops, "old", "~~{}~~", _md_escape, skip),
            _side(ops, "new", "**{}**", _md_escape, skip))


def render_html(ops: list[dict[str, str]], context: int | None = CONTEXT) -> tuple[str, str]:
    """Old and new side in HTML: <del> and <ins>, every text escaped; long unchanged runs
    cut as in render_text, each in a <details> that unfolds it."""
    from html import escape  # as in render_inline_html

    ops = fold_context(ops, context) if context is not None else ops

    def skip(text: str) -> str:
        count = len(text.split())
        return (f'<details class="fold"><summary>… {count} unchanged words</summary>'
                f"{escape(text.rstrip())}</details> ")

    return (_side(ops, "old", "<del>{}</del>", escape, skip),
            _side(ops, "new", "<ins>{}</ins>", escape, skip))


def _side(ops: list[dict[str, str]], side: str, mark: str, escape, skip) -> str:
    out = []
    for op in ops:
        text = op[side]
        if not text:
            continue
        if op["op"] == "equal":
            out.append(escape(text))
        elif op["op"] == "skip":
            out.append(skip(text))
        else:
            core = text.rstrip()
            out.append(mark.format(escape(core)) + text[len(core):])
    return "".join(out).rstrip()


def _md_escape(text: str) -> str:
    return re.sub(r"([\\`*_~\[\]<>|])", r"\\\1", text)
