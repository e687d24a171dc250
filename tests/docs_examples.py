"""The shell examples of README.md and docs/*.md, read from their fenced blocks.

Two kinds of block (docs/README.md says how to write them):

- ```console: `$ rulesdb …` lines, each followed by the output it prints. The tests run the
  command against a small database and compare: a line `...` stands for any lines, and a
  last line `(exit code N)` for a command that does not exit 0.
- ```bash: instructions (install, serve, publish, CI). Every `rulesdb …` command in them is
  parsed by the command line itself, so an option or command that no longer exists fails.
"""

from __future__ import annotations

import re
import shlex
import textwrap
from dataclasses import dataclass
from pathlib import Path

FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<lang>[\w-]*)[^\n]*\n(?P<body>.*?)^(?P=indent)```",
                   re.M | re.S)
EXIT = re.compile(r"^\(exit code (\d+)\)$")
ANY = "..."


@dataclass(frozen=True)
class Example:
    """A command of a console block and the output the page shows for it."""

    page: str
    line: int
    command: str
    expected: list[str]
    exit_code: int

    def __str__(self) -> str:
        return f"{self.page}:{self.line}: $ {self.command}"


@dataclass(frozen=True)
class Block:
    """A fenced block: its language, its text (unindented) and the line it starts on."""

    page: str
    line: int
    lang: str
    body: str


def blocks(path: Path, root: Path) -> list[Block]:
    """The fenced blocks of a Markdown page, in order."""
    text = path.read_text(encoding="utf-8")
    found = []
    for match in FENCE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        found.append(Block(str(path.relative_to(root)), line, match["lang"],
                           textwrap.dedent(match["body"])))
    return found


def console_examples(block: Block) -> list[Example]:
    """The commands of a console block with the output shown after each."""
    examples: list[Example] = []
    command: str | None = None
    start = 0
    output: list[str] = []

    def close() -> None:
        if command is None:
            return
        code = 0
        while output and not output[-1].strip():
            output.pop()
        if output and (exit_line := EXIT.match(output[-1].strip())):
            code = int(exit_line[1])
            output.pop()
        examples.append(Example(block.page, start, command, list(output), code))

    for offset, line in enumerate(block.body.splitlines()):
        if line.startswith("$ "):
            close()
            command, start, output = line[2:].strip(), block.line + 1 + offset, []
        elif command is not None:
            output.append(line.rstrip())
    close()
    return examples


def rulesdb_commands(block: Block) -> list[list[str]]:
    """The arguments of every `rulesdb …` command of a bash block (lines joined at `\\`,
    split at `&&`, `||`, `|`, `;`; redirections and comments dropped)."""
    text = re.sub(r"\\\n", " ", block.body)
    found = []
    for line in text.splitlines():
        line = re.sub(r"(^|\s)#.*$", "", line)
        for part in re.split(r"&&|\|\||[|;]", line):
            try:
                words = shlex.split(part)
            except ValueError:
                continue
            while words and "=" in words[0] and not words[0].startswith("-"):
                words = words[1:]  # VARIABLE=value before the command
            if words[:1] == ["rulesdb"]:
                args = []
                for word in words[1:]:
                    if word[:1] in "<>" or word[:2] in ("2>", "1>"):
                        break
                    args.append(word)
                found.append(args)
    return found


def matches(expected: list[str], actual: list[str]) -> bool:
    """True when `actual` is `expected` line for line, `...` standing for any lines."""
    # reachable[j]: the expected lines read so far can stand for actual[:j]
    reachable = [True] + [False] * len(actual)
    for want in expected:
        if want == ANY:
            for j in range(1, len(actual) + 1):
                reachable[j] = reachable[j] or reachable[j - 1]
        else:
            reachable = [False] + [reachable[j] and actual[j] == want
                                   for j in range(len(actual))]
    return reachable[-1]
