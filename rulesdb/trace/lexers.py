"""Comment- and string-aware scanning of sources, with function attribution.

One regex per language family finds comments and string literals (their spans classify a
citation as comment, string or code). The function holding a line is found by the offside
rule: walking up from the line, each line indented less than everything below it is tested
against the header regexes of the language (exact for Python; for brace languages it relies
on conventional indentation, which formatters enforce). Only lines near citations are ever
tested, which keeps scanning fast.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

_LINE = r"//[^\n]*"
_BLOCK = r"/\*[\s\S]*?(?:\*/|\Z)"
_DQ = r'"(?:[^"\\\n]|\\[\s\S])*"?'
_SQ = r"'(?:[^'\\\n]|\\[\s\S])*'?"
_CHAR = r"'(?:[^'\\\n]|\\[^\n]{1,10}?)'"
_TRIPLE = r'"""[\s\S]*?(?:"""|\Z)'
_BACKTICK = r"`(?:[^`\\]|\\[\s\S])*(?:`|\Z)"

TOKENS = {
    "c": re.compile("|".join([_LINE, _BLOCK, _DQ, _CHAR])),
    "java": re.compile("|".join([_LINE, _BLOCK, _TRIPLE, _DQ, _CHAR])),
    "csharp": re.compile("|".join([_LINE, _BLOCK, r'@"(?:[^"]|"")*"', _TRIPLE, _DQ, _CHAR])),
    "js": re.compile("|".join([_LINE, _BLOCK, _BACKTICK, _DQ, _SQ])),
    "go": re.compile("|".join([_LINE, _BLOCK, r"`[^`]*(?:`|\Z)", _DQ, _CHAR])),
    "rust": re.compile("|".join([_LINE, _BLOCK, r'r(#*)"[\s\S]*?(?:"\1|\Z)', _DQ, _CHAR])),
    "python": re.compile(r"#[^\n]*|[rRbBuUfF]{0,2}(?:'''[\s\S]*?(?:'''|\Z)"
                         r'|"""[\s\S]*?(?:"""|\Z)|"(?:[^"\\\n]|\\[\s\S])*"?'
                         r"|'(?:[^'\\\n]|\\[\s\S])*'?)"),
}

LANGUAGES = {
    ".c": "c", ".h": "c", ".cc": "c", ".cpp": "c", ".cxx": "c", ".hpp": "c", ".hh": "c",
    ".java": "java", ".kt": "java", ".kts": "java", ".scala": "java", ".groovy": "java",
    ".cs": "csharp", ".js": "js", ".mjs": "js", ".cjs": "js", ".jsx": "js", ".ts": "js",
    ".tsx": "js", ".go": "go", ".rs": "rust", ".swift": "java", ".py": "python",
    ".pyi": "python", ".pyw": "python",
}

CONTROL = {"if", "for", "while", "switch", "catch", "return", "sizeof", "new", "else", "do",
           "foreach", "using", "lock", "match", "when", "throw", "synchronized", "with",
           "function", "typeof", "await", "assert", "elif", "try", "fixed", "checked"}

_MODS = r"(?:(?:public|private|protected|internal|static|final|abstract|override|open|virtual" \
        r"|async|export|default|suspend|inline|operator|infix|tailrec|readonly|unsafe|const" \
        r"|extern|pub(?:\([^)\n]*\))?|get|set|synchronized|native|sealed|partial|new)\s+)*"
FUNCTIONS = {
    "go": re.compile(r"^func\s+(?:\(\s*\w*\s*\*?(?P<owner>\w+)[^)]*\)\s*)?(?P<name>\w+)",
                     re.M),
    "rust": re.compile(rf"^[ \t]*{_MODS}(?:extern\s+\"[^\"]*\"\s+)?fn\s+(?P<name>\w+)", re.M),
    "java": re.compile(
        rf"^[ \t]*(?:@[\w.]+(?:\([^)\n]*\))?\s+)*{_MODS}(?:fun\s+(?:<[^>\n]*>\s*)?"
        r"(?:[\w.]+\.)?(?P<kname>\w+)\s*\(|(?:[\w<>\[\],.?]+[ \t]+)+(?P<name>\w+)\s*\("
        r"[^;{}]*\)\s*(?:throws[\w\s,.]+)?(?:\{|$))", re.M),
    "js": re.compile(
        rf"^[ \t]*{_MODS}(?:function\s*\*?\s*(?P<name>\w+)|(?:const|let|var)\s+(?P<vname>\w+)"
        r"\s*(?::[^=\n]+)?=\s*(?:async\s+)?(?:function\b|\([^)\n]*\)\s*(?::[^=\n]+)?=>|\w+\s*=>)"
        r"|(?P<mname>\w+)\s*(?:<[^>\n]*>)?\([^)\n]*\)\s*(?::\s*[^{;\n]+)?\{)", re.M),
    "c": re.compile(
        r"^[ \t]*(?:[\w<>\[\],.*&:~]+[ \t*&]+)+(?P<name>[A-Za-z_~][\w:~]*)\s*\([^;{}]*\)"
        r"\s*(?:const\s*)?(?:noexcept\s*)?(?:override\s*)?(?:->\s*[\w:<>*&]+\s*)?(?:\{|$)",
        re.M),
}
FUNCTIONS["csharp"] = FUNCTIONS["java"]
FUNCTIONS["python"] = re.compile(r"[ \t]*(?:async\s+)?def\s+(?P<name>\w+)")
CLASSES = re.compile(
    r"[ \t]*(?:[\w@]+(?:\([^)\n]*\))?\s+)*(?:class|struct|interface|enum|record|object|trait"
    r"|impl(?:<[^>\n]*>)?|type)\s+(?:[\w:<>]+\s+for\s+)?(?P<name>\w+)", re.M)
ABOVE = re.compile(r"\s*(?:@[\w.]+(?:\(.*\))?|#\[.*\]|\[[\w.]+(?:\(.*\))?\])\s*$")
OPENER = re.compile(r"\s*\{\s*$")


class Source:
    """One source file: where each offset stands and which function holds it."""

    def __init__(self, text: str, language: str) -> None:
        self.text = text
        self.language = language
        self.comment = "#" if language == "python" else "/"
        self._spans: tuple[list[int], list[int]] | None = None
        self._outdent: dict[int, list[int]] = {}
        self._chains: dict[int, tuple[str, ...]] = {}
        self.function = FUNCTIONS.get(language, FUNCTIONS["c"])

    def _span_lists(self) -> tuple[list[int], list[int]]:
        if self._spans is None:
            spans = [m.span() for m in TOKENS[self.language].finditer(self.text)]
            self._spans = ([a for a, _ in spans], [b for _, b in spans])
        return self._spans

    def where(self, offset: int) -> tuple[str, int, int]:
        """comment, string or code at `offset`, with the span (or the line, for code)."""
        starts, ends = self._span_lists()
        index = bisect_right(starts, offset) - 1
        if index >= 0 and offset < ends[index]:
            kind = "comment" if self.text[starts[index]] == self.comment else "string"
            return kind, starts[index], ends[index]
        line_start = self.text.rfind("\n", 0, offset) + 1
        line_end = self.text.find("\n", offset)
        return "code", line_start, len(self.text) if line_end < 0 else line_end

    def _line(self, start: int) -> str:
        """The line starting at offset `start`, without its newline."""
        end = self.text.find("\n", start)
        return self.text[start:] if end < 0 else self.text[start:end]

    def _line_start(self, offset: int) -> int:
        return self.text.rfind("\n", 0, offset) + 1

    def _header(self, start: int) -> tuple[str, str | None] | None:
        """(name, owner) when the line at `start` begins a function or class, else None."""
        match = self.function.match(self.text, start)
        if match:
            groups = match.groupdict()
            name = (groups.get("name") or groups.get("kname") or groups.get("vname")
                    or groups.get("mname"))
            if name and name not in CONTROL:
                return name, groups.get("owner")
        match = CLASSES.match(self.text, start)
        if match and (self.language != "python" or "class" in match.group().split()):
            return match["name"], None
        return None

    def function_at(self, offset: int, span: tuple[int, int] | None = None,
                    comment: bool = False) -> str | None:
        """Qualified name of the function (else class) holding `offset`.

        A comment or annotation on lines of its own just above a header belongs to that
        function: doc comments and decorators describe what follows them.
        """
        start = self._line_start(span[0] if span else offset)
        if self._line(start).lstrip().startswith(("@", "#[", "[")) or (
                comment and span and not self.text[start:span[0]].strip()):
            following = self._following_header(start, span)
            if following is not None:
                start = following
        return ".".join(self._enclosing(start)) or None

    def _enclosing(self, start: int) -> tuple[str, ...]:
        """Names of the headers holding the line at `start` (its own included), outermost
        first."""
        if start in self._chains:
            return self._chains[start]
        line = self._line(start)
        width = len(line) - len(line.lstrip())
        header = self._header(start)
        own = (f"{header[1]}.{header[0]}" if header[1] else header[0],) if header else ()
        opener = OPENER.match(line)
        outer_names: tuple[str, ...] = ()
        if width or opener:
            outer = self._outdented(width + 1 if opener else width)
            position = bisect_left(outer, start) - 1
            if position >= 0:
                outer_names = self._enclosing(outer[position])
        self._chains[start] = (*outer_names, *own)
        return self._chains[start]

    def _outdented(self, limit: int) -> list[int]:
        """Offsets of the code lines indented less than `limit` columns (comments and
        preprocessor lines aside: they often start at column 0 inside a body)."""
        if limit not in self._outdent:
            # led by a literal newline: the regex engine skips to candidates at C speed
            pattern = re.compile(rf"\n(?![ \t]{{{limit}}})[ \t]*(?!//|/\*|\*|#)\S")
            first = [0] if pattern.match("\n" + self.text[:limit + 3]) else []
            self._outdent[limit] = first + [m.start() + 1 for m in pattern.finditer(self.text)]
        return self._outdent[limit]

    def _following_header(self, start: int, span: tuple[int, int] | None) -> int | None:
        """The header line right below a comment/annotation block starting at `start`."""
        first = self._line(start)
        width = len(first) - len(first.lstrip())
        position = self.text.find("\n", span[1] - 1 if span else start)
        for _ in range(40):
            if position < 0:
                return None
            position += 1
            line = self._line(position)
            stripped = line.strip()
            if not stripped or ABOVE.match(line) or stripped.startswith(
                    ("//", "/*", "*", "#" if self.language == "python" else "//")):
                position = self.text.find("\n", position)
                continue
            if len(line) - len(line.lstrip()) == width and self._header(position):
                return position
            return None
        return None
