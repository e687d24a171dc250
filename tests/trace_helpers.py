"""Shared helpers of the `rulesdb trace` tests: a multi-language source tree with planted
citations, misattributions and noise, and a writable copy of the bundled database."""

from __future__ import annotations

import shutil
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
