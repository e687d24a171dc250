"""Word-level differences between two texts, and their rendering as text, Markdown or HTML.

Opcodes are difflib's (equal, delete, insert, replace) over words with the spacing that
follows them, so joining one side's pieces gives that side's text back exactly.
"""

from __future__ import annotations

import difflib
import html
import re

from .text import fold_quotes

TOKEN = re.compile(r"\S+\s*|\s+")


def words(text: str) -> list[str]:
    """The text cut into words, each with the whitespace after it."""
    return TOKEN.findall(text)


def opcodes(old: str, new: str) -> list[dict[str, str]]:
    """[{"op", "old", "new"}] covering both texts in order; equal runs carry both sides."""
    a, b = words(old), words(new)
    matcher = difflib.SequenceMatcher(None, [fold_quotes(w.strip()) for w in a],
                                      [fold_quotes(w.strip()) for w in b], autojunk=False)
    return [{"op": tag, "old": "".join(a[i1:i2]), "new": "".join(b[j1:j2])}
            for tag, i1, i2, j1, j2 in matcher.get_opcodes()]


def render_text(ops: list[dict[str, str]]) -> tuple[str, str]:
    """Old and new side for a terminal: removed words as [-…-], added ones as {+…+}."""
    return (_side(ops, "old", "[-{}-]", lambda s: s), _side(ops, "new", "{{+{}+}}", lambda s: s))


def render_markdown(ops: list[dict[str, str]]) -> tuple[str, str]:
    """Old and new side in Markdown: removed words ~~struck~~, added ones **bold**."""
    return (_side(ops, "old", "~~{}~~", _md_escape), _side(ops, "new", "**{}**", _md_escape))


def render_html(ops: list[dict[str, str]]) -> tuple[str, str]:
    """Old and new side in HTML: <del> and <ins>, every text escaped."""
    return (_side(ops, "old", "<del>{}</del>", html.escape),
            _side(ops, "new", "<ins>{}</ins>", html.escape))


def _side(ops: list[dict[str, str]], side: str, mark: str, escape) -> str:
    out = []
    for op in ops:
        text = op[side]
        if not text:
            continue
        if op["op"] == "equal":
            out.append(escape(text))
        else:
            core = text.rstrip()
            out.append(mark.format(escape(core)) + text[len(core):])
    return "".join(out).rstrip()


def _md_escape(text: str) -> str:
    return re.sub(r"([\\`*_~\[\]<>|])", r"\\\1", text)
