"""`rulesdb trace` lexers and attribution: citation forms and noise, the scanner's handling of
problem files, and Python read through tokenize/ast (docstrings, decorators, nesting)."""

from __future__ import annotations

import os
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesdb.trace import cite
from rulesdb.trace.python_source import python_source
from rulesdb.trace.scan import scan

from conftest import SOURCE_FILES

# the rule numbers of the bundled 2025 edition, as the scanner's `known` set
KNOWN = frozenset(re.findall(r"(?m)^(\d{3}\.\d+[a-z]?)\.? ",
                             SOURCE_FILES["cr-2025-06-06-chapter7"].read_text(encoding="utf-8")))


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
