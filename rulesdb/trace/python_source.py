"""Python sources read through the standard library: `tokenize` for comments and strings,
`ast` for the function or class holding each line.

`python_source` returns None when either module rejects the text (syntax errors, broken
indentation, unterminated strings); the caller then falls back to the regex lexer, so a
broken file still scans.
"""

from __future__ import annotations

import ast
import gc
import io
import re
import tokenize
from bisect import bisect_right
from collections.abc import Iterable

_FSTRING_START = getattr(tokenize, "FSTRING_START", None)  # Python 3.12+
_FSTRING_END = getattr(tokenize, "FSTRING_END", None)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_BLOCKS = (ast.stmt, ast.excepthandler, ast.match_case)
_ABOVE_WINDOW = 40  # lines searched below a comment block for the def it describes
PARSE_ERRORS = (SyntaxError, tokenize.TokenError, ValueError, RecursionError, MemoryError)


class PythonSource:
    """One Python file: where each offset stands and which function holds it.

    Same interface as `lexers.Source` (`where`, `function_at`).
    """

    def __init__(self, text: str, tree: ast.Module,
                 tokens: Iterable[tokenize.TokenInfo]) -> None:
        self.text = text
        self.language = "python"
        self._line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self._starts: list[int] = []
        self._ends: list[int] = []
        self._kinds: list[str] = []
        self._comment_lines: set[int] = set()
        self._read_tokens(tokens)
        # line number → qualified name of the innermost def/class holding it
        self._owner: dict[int, str] = {}
        # first line of a def/class (its first decorator) → (column, qualified name)
        self._headers: dict[int, tuple[int, str]] = {}
        self._read_scopes(tree.body, ())

    def _offset(self, position: tuple[int, int]) -> int:
        row, column = position
        if row == 1 and self.text.startswith("\ufeff"):
            column += 1  # tokenize read the text after the byte-order mark
        if row > len(self._line_starts):
            return len(self.text)
        return self._line_starts[row - 1] + column

    def _read_tokens(self, tokens: Iterable[tokenize.TokenInfo]) -> None:
        depth, fstring_start = 0, (0, 0)
        for token in tokens:
            if _FSTRING_START is not None and token.type == _FSTRING_START:
                if depth == 0:
                    fstring_start = token.start
                depth += 1
            elif _FSTRING_END is not None and token.type == _FSTRING_END:
                depth -= 1
                if depth == 0:
                    self._add(fstring_start, token.end, "string")
            elif depth:
                continue  # the parts of an f-string: the whole literal is one span
            elif token.type == tokenize.STRING:
                self._add(token.start, token.end, "string")
            elif token.type == tokenize.COMMENT:
                self._add(token.start, token.end, "comment")
                if not token.line[:token.start[1]].strip():
                    self._comment_lines.add(token.start[0])

    def _add(self, start: tuple[int, int], end: tuple[int, int], kind: str) -> None:
        self._starts.append(self._offset(start))
        self._ends.append(self._offset(end))
        self._kinds.append(kind)

    def _read_scopes(self, body: list[ast.stmt], outer: tuple[str, ...]) -> None:
        for node in body:
            if isinstance(node, _SCOPES):
                chain = (*outer, node.name)
                name = ".".join(chain)
                first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                self._headers[first] = (node.col_offset, name)
                for line in range(first, self._body_end(node) + 1):
                    self._owner[line] = name  # inner scopes, read later, overwrite
                self._read_scopes(node.body, chain)
            else:
                # defs nested in if/try/with/for/match blocks keep the enclosing qualification
                self._read_scopes([child for child in ast.iter_child_nodes(node)
                                   if isinstance(child, _BLOCKS)], outer)

    def _body_end(self, node: ast.stmt) -> int:
        """Last line of `node`, counting the comments indented into its body after its last
        statement (ast ends a def at its last statement; those comments still belong to it)."""
        end = line = node.end_lineno or node.lineno
        while line < len(self._line_starts):
            line += 1
            text = self._line(line)
            if line in self._comment_lines and len(text) - len(text.lstrip()) > node.col_offset:
                end = line
            elif text.strip():
                break
        return end

    def where(self, offset: int) -> tuple[str, int, int]:
        """comment, string or code at `offset`, with the span (or the line, for code)."""
        index = bisect_right(self._starts, offset) - 1
        if index >= 0 and offset < self._ends[index]:
            return self._kinds[index], self._starts[index], self._ends[index]
        line_start = self.text.rfind("\n", 0, offset) + 1
        line_end = self.text.find("\n", offset)
        return "code", line_start, len(self.text) if line_end < 0 else line_end

    def _line(self, number: int) -> str:
        start = self._line_starts[number - 1]
        end = self.text.find("\n", start)
        return self.text[start:] if end < 0 else self.text[start:end]

    def _line_number(self, offset: int) -> int:
        return bisect_right(self._line_starts, offset)

    def function_at(self, offset: int, span: tuple[int, int] | None = None,
                    comment: bool = False) -> str | None:
        """Qualified name of the function (else class) holding `offset`.

        A comment on lines of its own just above a def (decorators and further comments
        between them) belongs to that def: it describes what follows.
        """
        line = self._line_number(span[0] if span else offset)
        if comment and line in self._comment_lines:
            following = self._following_header(line)
            if following is not None:
                return following
        return self._owner.get(line)

    def _following_header(self, line: int) -> str | None:
        """The def/class right below the comment block holding `line`, at its indentation."""
        text = self._line(line)
        column = len(text) - len(text.lstrip())
        for below in range(line + 1, min(line + _ABOVE_WINDOW, len(self._line_starts)) + 1):
            if below in self._headers:
                header_column, name = self._headers[below]
                return name if header_column == column else None
            if below in self._comment_lines:
                continue
            if self._line(below).strip():
                return None
        return None


def python_source(text: str) -> PythonSource | None:
    """The file read by `tokenize` and `ast`, or None when they reject it."""
    if text.count("\r") != text.count("\r\n"):
        return None  # lone CRs: ast and tokenize would disagree with our line offsets
    collecting = gc.isenabled()
    # tokens and syntax trees are acyclic: cyclic collections while building them only
    # cost time (ast.parse runs about 4x faster without them)
    gc.disable()
    try:
        body = text[1:] if text.startswith("\ufeff") else text  # a BOM is no Python
        tokens = tokenize.generate_tokens(io.StringIO(body).readline)
        return PythonSource(text, ast.parse(body), tokens)
    except PARSE_ERRORS:
        return None
    finally:
        if collecting:
            gc.enable()
