"""Shared helpers of the `rulesdb trace` tests: a multi-language source tree with planted
citations, misattributions and noise, and a writable copy of the bundled database."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

# --- a multi-language tree with planted citations, misattributions and noise -------------

# ext: (comment, class open, method open (indent, template), method close, class close,
#       string statement, float statement, qualified name of method f in class C)
LANGUAGES = {
    "java": ("//", "public class {C} {{", "    public void {f}() {{", "    }}", "}}",
             '        log("{s}");', "        double x = {v};", "{C}.{f}"),
    "kt": ("//", "class {C} {{", "    fun {f}() {{", "    }}", "}}",
           '        log("{s}")', "        val x = {v}", "{C}.{f}"),
    "cs": ("//", "public class {C} {{", "    public void {f}() {{", "    }}", "}}",
           '        Log("{s}");', "        var x = {v};", "{C}.{f}"),
    "ts": ("//", "export class {C} {{", "  {f}(): void {{", "  }}", "}}",
           "    log('{s}');", "    const x = {v};", "{C}.{f}"),
    "js": ("//", "", "function {f}() {{", "}}", "",
           "  log(`{s}`);", "  const x = {v};", "{f}"),
    "rs": ("//", "impl {C} {{", "    pub fn {f}(&self) {{", "    }}", "}}",
           '        log("{s}");', "        let x = {v};", "{C}.{f}"),
    "go": ("//", "type {C} struct{{}}", "func (g *{C}) {f}() {{", "}}", "",
           '\tlog("{s}")', "\tx := {v}", "{C}.{f}"),
    "c": ("//", "", "static void {f}(void)\n{{", "}}", "",
          '    log("{s}");', "    double x = {v};", "{f}"),
    "cpp": ("//", "class {C} {{\n  public:", "    void {f}() {{", "    }}", "}};",
            '        log("{s}");', "        double x = {v};", "{C}.{f}"),
    "py": ("#", "class {C}:", "    def {f}(self):", "", "",
           '        log("{s}")', "        x = {v}", "{C}.{f}"),
}

# (text of the citation line, numbers it cites, status of each); {c} is the comment marker
PLANTED = [
    ("{c} CR 704.5a: a player with 0 or less life loses", ["704.5a"], "ok"),
    ("{c} 704.5g lethal damage", ["704.5g"], "ok"),
    ("{c} rules 704.5f-h", ["704.5f", "704.5g", "704.5h"], "ok"),
    ("{c} 704.5a/704.5b", ["704.5a", "704.5b"], "ok"),
    ("{c} https://yawgatog.com/resources/magic-rules/#R70219b trample", ["702.19b"], "ok"),
    ("{c} 20091005 - 502.9a", ["502.9a"], "renumbered"),
    ("{c} Rule 702.2c: deathtouch makes 1 damage lethal", ["702.2c"], "ok"),
    ("{c} CR 704.5l", ["704.5l"], "malformed"),
    ("{c} see CR 704.9z", ["704.9z"], "missing"),
    ("{c} combat damage: rule 510.1c", ["510.1c"], "outside_coverage"),
]
STRING = ("rule 702.15b lifelink gains life", ["702.15b"], "ok")
# function name, comment: a keyword named, another keyword's rule cited
MISATTRIBUTED = [
    ("applyWither", "{c} CR 702.83a", "702.83a"),
    ("dealDeathtouchDamage", "{c} 702.19b", "702.19b"),
    ("checkFlying", "{c} rule 702.12b", "702.12b"),
]
NOISE = ["{c} version 1.2.3, released 2023.10.13 from 192.168.100.1 (v110.2)",
         "{c} scale by 123.45 and 1.5x; ratio 702.19%"]


def write_tree(root: Path) -> tuple[set, dict]:
    """The fixture tree; the expected (file, line, number, function) set and statuses."""
    expected: set[tuple[str, int, str, str]] = set()
    statuses: dict[tuple[str, int, str], str] = {}
    for index, (lang, spec) in enumerate(LANGUAGES.items()):
        comment, class_open, method, close, class_close, string, floating, qual = spec
        cls = f"Rules{index}"
        lines: list[str] = []
        file = f"src/{lang}/engine{index}.{lang}"
        if lang == "go":
            lines.append("package engine")

        def add(text: str, lines: list[str] = lines) -> int:
            lines.extend(text.split("\n"))
            return len(lines)

        if class_open:
            add(class_open.format(C=cls))
        functions = [(f"step{n}", [p]) for n, p in enumerate(PLANTED)]
        functions.append(("logLifelink", []))
        functions.append(("stateBasedAction704_5d", []))
        functions += [(name, [(line, [number], "suspect")])
                      for name, line, number in MISATTRIBUTED]
        for name, plants in functions:
            line_no = len(lines) + 1
            add(method.format(C=cls, f=name))
            function = qual.format(C=cls, f=name)
            if name == "stateBasedAction704_5d":
                expected.add((file, line_no, "704.5d", function))
                statuses[(file, line_no, "704.5d")] = "ok"
            for text, numbers, status in plants:
                line_no = add(" " * 8 + text.format(c=comment))
                for number in numbers:
                    expected.add((file, line_no, number, function))
                    statuses[(file, line_no, number)] = status
            if name == "logLifelink":
                line_no = add(string.format(s=STRING[0]))
                expected.add((file, line_no, "702.15b", function))
                statuses[(file, line_no, "702.15b")] = "ok"
            for noise in NOISE:
                add(" " * 8 + noise.format(c=comment))
            add(floating.format(v="702.19"))
            add(string.format(s="Mozilla/5.0 build 100.0"))
            if lang == "py":
                add("        pass")
            if close:
                add(close.format())
        if class_close:
            add(class_close.format())
        path = root / file
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return expected, statuses


def copy_bundled_db(bundled_db: Path, tmp_path_factory) -> Path:
    """A copy of the session's bundled database that a module may write to."""
    path = tmp_path_factory.mktemp("trace") / "rules.db"
    shutil.copy(bundled_db, path)  # tracing writes engine rows
    return path


def planted_tree(tmp_path_factory) -> tuple[Path, set, dict]:
    """The planted tree written to a fresh folder: (root, expected citations, statuses)."""
    root = tmp_path_factory.mktemp("engine")
    expected, statuses = write_tree(root)
    return root, expected, statuses


CHECKERS = {  # language: a command that parses a file, when the machine has it
    "js": ["node", "--check"],
    "c": ["gcc", "-fsyntax-only", "-w"],
    "cpp": ["g++", "-fsyntax-only", "-w"],
}


def parses(path: Path) -> bool | None:
    """Whether the file parses (None: no parser for its language here)."""
    language = path.suffix[1:]
    if language == "py":
        try:
            compile(path.read_text(), str(path), "exec")
        except SyntaxError:
            return False
        return True
    command = CHECKERS.get(language)
    if command is None or shutil.which(command[0]) is None:
        return None
    return subprocess.run([*command, str(path)], capture_output=True).returncode == 0


# --- ranges of renumbered rules, cited in the forms engines write them ---------------------

# (the line as written, the line --fix --write makes of it), 2009-02-01 → 2025-06-06: every
# member moved, to one range again (502.21b-d → 702.33e-g: the letters move too)
RANGES = [
    ("{c} rules 502.7a-c", "{c} rules 702.16a-c"),
    ("{c} 502.4a–c", "{c} 702.9a–c"),
    ("{c} CR 502.28a – 502.28c", "{c} CR 702.4a – 702.4c"),
    ("{c} CR 502.21b—d", "{c} CR 702.33e—g"),
    ("{c} rules 502.37a through 502.37d", "{c} rules 702.44a through 702.44d"),
    ("{c} rule 502.20-22", "{c} rule 702.32-34"),
    ("{c} 20091005 - 502.12a-c", "{c} 20250606 - 702.23a-c"),
    ("{c} see 502.7a-c, 502.9a and 502.4a–c", "{c} see 702.16a-c, 702.19a and 702.9a–c"),
]


def write_range_tree(root: Path) -> dict[Path, str]:
    """A tree citing RANGES in every language, one function per range; each file's text as
    --fix --write should leave it."""
    expected = {}
    for index, (lang, spec) in enumerate(LANGUAGES.items()):
        comment, class_open, method, close, class_close = spec[:5]
        before: list[str] = ["package engine"] if lang == "go" else []
        after = list(before)
        if class_open:
            before.append(class_open.format(C=f"Ranges{index}"))
            after.append(before[-1])
        for number, (old, new) in enumerate(RANGES):
            for lines, text in ((before, old), (after, new)):
                lines.append(method.format(C=f"Ranges{index}", f=f"step{number}"))
                lines.append(" " * 8 + text.format(c=comment))
                if lang == "py":
                    lines.append("        pass")
                if close:
                    lines.append(close.format())
        if class_close:
            before.append(class_close.format())
            after.append(before[-1])
        path = root / f"src/{lang}/ranges{index}.{lang}"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(before) + "\n", encoding="utf-8")
        expected[path] = "\n".join(after) + "\n"
    return expected
