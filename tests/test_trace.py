"""`rulesdb trace`: citation forms, noise, attribution and status on a multi-language tree."""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesdb.cli import cli
from rulesdb.trace import cite
from rulesdb.trace.python_source import python_source
from rulesdb.trace.renumber import Renumbered
from rulesdb.trace.scan import scan
from rulesdb.trace.status import Checker

from conftest import SOURCE_FILES

# the rule numbers of the bundled 2025 edition, as the scanner's `known` set
KNOWN = frozenset(re.findall(r"(?m)^(\d{3}\.\d+[a-z]?)\.? ",
                             SOURCE_FILES["cr-2025-06-06"].read_text(encoding="utf-8")))


def found(text: str, known=None) -> list[tuple[str, str, str, bool]]:
    result, consumed = [], 0
    for head in cite.heads(text):
        if head.start() < consumed:
            continue
        items = cite.read(text, head, known)
        if items:
            consumed = max(f.end for f in items)
        result += [(f.cited, f.number, f.form, f.malformed) for f in items]
    return result


@pytest.mark.parametrize(("text", "expected"), [
    ("CR 704.5a", [("704.5a", "704.5a", "marker", False)]),
    ("see rule 702.19c.", [("702.19c", "702.19c", "marker", False)]),
    ("Rules 304.4, 307.4", [("304.4", "304.4", "marker", False),
                            ("307.4", "307.4", "marker", False)]),
    ("rules 601.2e-g", [("601.2e-g", n, "marker", False) for n in ("601.2e", "601.2f", "601.2g")]),
    ("800.4a–c", [("800.4a–c", n, "bare", False) for n in ("800.4a", "800.4b", "800.4c")]),
    ("704.5a/704.5b", [("704.5a", "704.5a", "bare", False), ("704.5b", "704.5b", "bare", False)]),
    ("704.5e", [("704.5e", "704.5e", "bare", False)]),
    ("stateBasedAction704_5d()", [("704_5d", "704.5d", "identifier", False)]),
    ("test_702_19c_example", [("702_19c", "702.19c", "identifier", False)]),
    ("magic-rules/#R702102b", [("#R702102b", "702.102b", "anchor", False)]),
    ("20091005 - 602.2a", [("602.2a", "602.2a", "hint", False)]),
    ("rules 119.9–10", [("119.9–10", "119.9", "marker", False),
                        ("119.9–10", "119.10", "marker", False)]),
    ("CR 704.5l", [("704.5l", "704.5l", "marker", True)]),
    ("rule 704.5g-c", [("704.5g-c", "704.5g", "marker", True)]),
    ("rule 70.5a", [("70.5a", "70.5a", "marker", True)]),
])
def test_citation_forms(text, expected):
    assert found(text) == expected


@pytest.mark.parametrize("text", [
    "x = 100.0", "scale 1.25", "version 1.2.3", "v110.2", "released 2023.10.13",
    "host 192.168.100.1", "10.0.100.12", "Mozilla/5.0", "buffer_100_1", "size_256_2",
    "ratio 702.19%", "20091005", "2009.10.05", "ip 8.8.8.8", "v702.1a", "0.702.1",
    "build 704.5", "$123.45",
])
def test_noise_never_counts(text):
    assert found(text) == []


def test_a_bare_number_counts_only_when_some_edition_has_it():
    assert found("// 704.5a and 123.45", known={"704.5a"}.__contains__) == [
        ("704.5a", "704.5a", "bare", False)]


def test_identifier_words():
    assert cite.words("stateBasedAction704_5d") == ["state", "based", "action", "d"]
    assert cite.words("FIRST_STRIKE firstStrike") == ["first", "strike", "first", "strike"]


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


@pytest.fixture(scope="module")
def db_path(bundled_db, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("trace") / "rules.db"
    shutil.copy(bundled_db, path)  # tracing writes engine rows
    return path


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("engine")
    expected, statuses = write_tree(root)
    return root, expected, statuses


def test_recall_precision_misattribution_and_noise_on_the_fixture_tree(db_path, tree):
    root, expected, statuses = tree
    conn = sqlite3.connect(db_path)
    checker = Checker(conn, "cr-2025-06-06")
    result = scan(root, checker.known, workers=1)
    got = {(c.file, c.line, c.number, c.function) for c in result.citations}
    hits = got & expected
    recall, precision = len(hits) / len(expected), len(hits) / len(got)
    assert recall >= 0.99 and precision >= 0.99, (sorted(expected - got)[:5],
                                                  sorted(got - expected)[:5])
    verdicts = {(c.file, c.line, c.number): checker.check(c).status for c in result.citations}
    assert verdicts == statuses
    suspects = [k for k, v in verdicts.items() if v == "suspect"]
    assert len(suspects) == len(MISATTRIBUTED) * len(LANGUAGES)
    noise_lines = {(c.file, c.line) for c in result.citations if "192.168" in c.context
                   or "Mozilla" in c.context or "x = 702.19" in c.context
                   or "x := 702.19" in c.context}
    assert noise_lines == set()
    assert result.files == len(LANGUAGES)
    assert len(result.citations) == len(expected)


def test_renumbered_citation_suggests_the_current_number(db_path, tree):
    root, _, _ = tree
    conn = sqlite3.connect(db_path)
    checker = Checker(conn, "cr-2025-06-06")
    result = scan(root / "src" / "java", checker.known, workers=1)
    moved = [checker.check(c) for c in result.citations if c.number == "502.9a"]
    assert [(v.status, v.suggestion) for v in moved] == [("renumbered", "702.19a")]
    suspect = [checker.check(c) for c in result.citations if c.function.endswith("applyWither")]
    assert [(v.status, v.rule, v.suggestion) for v in suspect] == [
        ("suspect", "702.83a", "702.80")]


@pytest.mark.parametrize(("old", "new"), [("502.9", "702.19"), ("502.9a", "702.19a"),
                                           ("502.2b", "702.7b"), ("502.21", "702.33")])
def test_renumbering_by_lineage_and_by_heading_agree(db_path, old, new):
    conn = sqlite3.connect(db_path)
    renumbering = Checker(conn, "cr-2025-06-06").renumbering
    assert renumbering.has_lineage
    by_lineage = renumbering.find(old)
    renumbering.has_lineage = False
    by_heading = renumbering.find(old)
    assert (by_lineage, by_heading) == (Renumbered("cr-2009-02-01", new),) * 2


def test_parallel_and_serial_scans_agree(tree):
    root, _, _ = tree
    serial = scan(root, None, workers=1).citations
    parallel = scan(root, None, workers=2).citations
    assert sorted(serial, key=repr) == sorted(parallel, key=repr)


def test_problem_files_are_skipped_and_counted(tmp_path):
    (tmp_path / "ok.c").write_text("// CR 704.5a\nint f(void) { return 0; }\n")
    (tmp_path / "binary.c").write_bytes(b"\x00\x01CR 704.5a\x00")
    (tmp_path / "latin1.java").write_bytes("// CR 704.5a caf\xe9\n".encode("latin-1"))
    (tmp_path / "huge.go").write_text("// CR 704.5a\n" + "x" * 5000)
    (tmp_path / "gone.rs").symlink_to(tmp_path / "nowhere.rs")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "loop").symlink_to(tmp_path)
    (tmp_path / "notes.txt").write_text("CR 704.5a")
    result = scan(tmp_path, None, workers=1, max_bytes=4000)
    assert [c.file for c in result.citations] == ["ok.c"]
    assert dict(result.skipped) == {"binary": 1, "not UTF-8": 1, "huge": 1, "unreadable": 1,
                                    "symlink loop": 1}
    assert result.files == 1


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files without permission")
def test_unreadable_file_is_skipped(tmp_path):
    secret = tmp_path / "secret.c"
    secret.write_text("// CR 704.5a\n")
    secret.chmod(0)
    assert dict(scan(tmp_path, None, workers=1).skipped) == {"unreadable": 1}


def test_python_docstrings_decorators_comments_and_nesting(tmp_path):
    (tmp_path / "engine.py").write_text(
        '"""Module: CR 704.3."""\n'
        "class Game:\n"
        "    # CR 704.5f above the method\n"
        '    @enforces("704.5i")\n'
        "    def loyalty(self):\n"
        '        """Docstring: rule 704.5g."""\n'
        "        def inner():\n"
        "            return 1  # 704.5h\n"
        "        return 3.14\n"
        "x = 1  # CR 704.5a trailing, at module level\n"
        "def test_704_5c_poison():\n"
        "    pass\n")
    rows = [(c.line, c.number, c.function) for c in scan(tmp_path, None).citations]
    assert rows == [(1, "704.3", None), (3, "704.5f", "Game.loyalty"),
                    (4, "704.5i", "Game.loyalty"), (6, "704.5g", "Game.loyalty"),
                    (8, "704.5h", "Game.loyalty.inner"), (10, "704.5a", None),
                    (11, "704.5c", "test_704_5c_poison")]



# Python goes through tokenize/ast: (source, expected (line, number, form, function) rows)
PYTHON_CASES = {
    "docstring": (
        'def lose():\n    """A player with 0 life loses (CR 704.5a)."""\n    return 0\n',
        [(2, "704.5a", "marker", "lose")]),
    "comment in a method of a class": (
        "class Combat:\n    def damage(self):\n        x = 1\n        # rule 702.19b\n"
        "        return x\n",
        [(4, "702.19b", "marker", "Combat.damage")]),
    "decorator argument": (
        'class Sba:\n    @enforces("CR 704.5g")\n    def lethal(self):\n        pass\n',
        [(2, "704.5g", "marker", "Sba.lethal")]),
    "multi-line decorator argument": (
        '@pytest.mark.parametrize("rule", [\n    "704.5a",\n    "704.5b",\n])\n'
        "def test_sba(rule):\n    pass\n",
        [(2, "704.5a", "bare", "test_sba"), (3, "704.5b", "bare", "test_sba")]),
    "f-string": (
        'def log(n):\n    print(f"{n} dies: rule 704.5g, {n!r:>{n}}")\n',
        [(2, "704.5g", "marker", "log")]),
    "string literal": (
        "def check():\n    raise ValueError('see CR 704.5f')\n",
        [(2, "704.5f", "marker", "check")]),
    "a '#' inside a string is not a comment": (
        'def f():\n    tag = "#"; sba = stateBasedAction704_5d\n',
        [(2, "704.5d", "identifier", "f")]),
    "an escaped quote does not end a triple-quoted string": (
        'def f():\n    s = """a \\""" stateBasedAction704_5d """\n    return s\n',
        []),
    "def inside an if block, comment trailing the body": (
        "if True:\n    class Zone:\n        def move(self):\n            pass\n"
        "            # CR 400.7 a moved object is new\n\nx = 1\n",
        [(5, "400.7", "marker", "Zone.move")]),
    "comment block above a def": (
        "class Game:\n    # CR 704.5f\n\n    # more words\n    async def loyalty(self):\n"
        "        pass\n",
        [(2, "704.5f", "marker", "Game.loyalty")]),
    "byte-order mark": (
        "\ufeff# CR 704.5a\ndef f():\n    pass\n",
        [(1, "704.5a", "marker", "f")]),
    "syntax error falls back to the regex lexer": (
        "class Broken:\n    def lose(self:\n        # CR 704.5a\n        return 0\n",
        [(3, "704.5a", "marker", "Broken.lose")]),
    "unterminated string falls back": (
        'def f():\n    # rule 702.2c\n    s = """never closed\n',
        [(2, "702.2c", "marker", "f")]),
}


@pytest.mark.parametrize("source, expected", PYTHON_CASES.values(), ids=PYTHON_CASES)
def test_python_through_tokenize_and_ast(tmp_path, source, expected):
    (tmp_path / "engine.py").write_text(source)
    rows = [(c.line, c.number, c.form, c.function) for c in scan(tmp_path, None).citations]
    assert rows == expected


@pytest.mark.parametrize("source, parsed", [
    ("def f():\n    pass\n", True),
    ("\ufeffdef f():\n    pass\n", True),
    ("def f(:\n    pass\n", False),
    ('s = """open\n', False),
    ("if x:\n        a = 1\n    b = 2\n", False),
])
def test_python_source_falls_back_only_on_broken_files(source, parsed):
    assert (python_source(source) is not None) == parsed

# --- command line -----------------------------------------------------------------------

def run(*args):
    return CliRunner().invoke(cli, [*args])


def test_trace_json_stores_and_replaces_atomically(db_path, tree):
    root, expected, _ = tree
    result = run("trace", str(root), "--engine", "fixture", "--json", "--db", str(db_path))
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert len(rows) == len(expected)
    assert set(rows[0]) == {"file", "line", "function", "cited", "number", "rule", "status",
                            "suggestion"}
    run("trace", str(root), "--engine", "fixture", "--json", "--db", str(db_path))
    conn = sqlite3.connect(db_path)
    stored = conn.execute("SELECT count(*) FROM engine_citations WHERE engine = 'fixture'")
    assert stored.fetchone()[0] == len(expected)
    engine = conn.execute("SELECT kind, edition, files, skipped FROM engines "
                          "WHERE name = 'fixture'").fetchone()
    assert engine == ("scanned", "cr-2025-06-06", len(LANGUAGES), 0)


def test_trace_exit_codes(db_path, tmp_path):
    (tmp_path / "empty.c").write_text("int main(void) { return 0; }\n")
    assert run("trace", str(tmp_path), "--db", str(db_path)).exit_code == 1
    assert run("trace", str(tmp_path / "none"), "--db", str(db_path)).exit_code == 2
    result = run("trace", str(tmp_path), "--edition", "cr-1900-01-01", "--db", str(db_path))
    assert (result.exit_code, "no Comprehensive Rules edition cr-1900-01-01" in result.output) \
        == (2, True)


def test_coverage_of_the_reference_evaluator(db_path):
    result = run("coverage", "--engine", "rulesdb", "--json", "--db", str(db_path))
    assert result.exit_code == 0, result.output
    [report] = json.loads(result.output)
    sections = {s["section"]: s for s in report["sections"]}
    assert set(sections) == {"702", "704"}
    assert "704.5t" in report["uncovered"] and "704.5a" not in report["uncovered"]
    assert report["stale"] == []
    assert run("coverage", "--engine", "nope", "--db", str(db_path)).exit_code == 1


NOISE_STRATEGY = st.one_of(
    st.builds("{}.{}".format, st.integers(0, 9999), st.integers(0, 99)).filter(
        lambda s: not re.fullmatch(r"[1-9]\d{2}\.[1-9]\d?", s)),
    st.builds("{}.{}.{}".format, *[st.integers(0, 999)] * 3),
    st.builds("{}.{}.{}.{}".format, *[st.integers(0, 255)] * 4),
    st.builds("{:04d}-{:02d}-{:02d}".format, st.integers(1990, 2030), st.integers(1, 12),
              st.integers(1, 28)),
    st.builds("{:04d}.{:02d}.{:02d}".format, st.integers(1990, 2030), st.integers(1, 12),
              st.integers(1, 28)),
    st.builds("v{}.{}".format, st.integers(100, 999), st.integers(1, 99)),
    st.builds("{}.0".format, st.integers(100, 999)),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(NOISE_STRATEGY, min_size=1, max_size=6))
def test_generated_noise_in_comments_strings_and_code_never_counts(tmp_path_factory, noise):
    root = tmp_path_factory.mktemp("noise")
    text = " ".join(noise)
    (root / "n.java").write_text(f'// {text}\nclass A {{ String s = "{text}"; double x = '
                                 f"{noise[0] if '-' not in noise[0] else 1.5}; }}\n")
    assert scan(root, KNOWN).citations == []
