"""The quick path (rulesdb.commands.quick): the lookups it answers print what the click
commands print, with the same exit code; whatever it is not sure of, it declines untouched."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesdb.commands import quick
from rulesdb.commands.group import cli as group
from rulesdb.commands.plain import style
from rulesdb.db.readonly import file_uri


def both(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[tuple, tuple | None]:
    """(exit code, output, errors) of `argv` by the click group and by the quick path (None
    when it declines)."""
    capsys.readouterr()
    code = quick.answer(argv)
    out, err = capsys.readouterr()
    result = CliRunner().invoke(group, argv)
    expected = (result.exit_code, result.stdout, result.stderr)
    if code is None:
        assert (out, err) == ("", ""), "a declined command printed something"
        return expected, None
    return expected, (code, out, err)


@pytest.fixture
def db(bundled_db: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RULESDB_DB", str(bundled_db))
    monkeypatch.setenv("COLUMNS", "100")
    return bundled_db


@pytest.mark.parametrize("argv", [
    ["rule", "702.19b"], ["rule", "702.19", "--tree", "--no-examples"],
    ["rule", "702.19c", "--format", "markdown"], ["rule", "702.19b", "--json"],
    ["rule", "--doc=cr-2025-06-06", "702.19"], ["rule", "4.2", "--doc", "mtr"],
    ["rule", "2.1", "--doc", "ipg", "--format=json"],
    ["rule", "999.9"], ["rule", "702.19", "--doc", "nope"], ["rule", "702.19", "--doc", "cr"],
    ["glossary", "tapped"], ["glossary", "blockers", "--all"], ["glossary", "trample", "--json"],
    ["glossary", "zzzq"], ["glossary", "zzzq", "--json"], ["glossary", "tap", "--doc", "x"],
    ["refs", "702.19b"], ["refs", "702.19c", "--format", "markdown"], ["refs", "704.5f", "--json"],
    ["refs", "4.2", "--doc", "mtr"], ["refs", "999.9"], ["refs", "702.19", "--doc", "nope"],
    ["infractions"], ["infractions", "--penalty", "game loss"],
    ["infractions", "--penalty", "GAME LOSS", "--json"],
    ["infractions", "--penalty", "Warning", "--format", "markdown"], ["infractions", "--doc", "cr"],
    ["infractions", "--doc", "nope"], ["infractions", "--doc", "ipg-2024-09-23", "--json"],
    ["history", "702.19"], ["history", "702.19", "--json"], ["history", "702", "--all"],
    ["history", "Banding"], ["history", "999.9"],
    ["search", "trample"], ["search", "can a tapped creature block", "--limit", "3"],
    ["search", "702.19b"], ["search", "penalty for looking at an extra card", "--doc", "ipg"],
    ["search", "the of and"], ["search", "zzzqqq"], ["search", "etb", "--json"],
    ["search", "mana burn", "--all-editions", "--format", "markdown"],
])
def test_it_answers_as_click_does(db: Path, argv: list[str],
                                  capsys: pytest.CaptureFixture[str]) -> None:
    expected, answered = both(argv, capsys)
    assert answered is not None, "the quick path declined"
    assert answered == expected


@pytest.mark.parametrize("argv", [
    [], ["--help"], ["--version"], ["docs"], ["keywords"], ["refs", "702.19b", "--all"], ["rule"],
    ["rule", "702.19", "702.20"], ["rule", "702.19", "--help"], ["rule", "702.19", "--bogus"],
    ["rule", "702.19", "--tree", "--tree"], ["rule", "702.19", "--tree=1"],
    ["rule", "702.19", "--format", "html"], ["rule", "702.19", "--doc"],
    ["rule", "-1"], ["rule", "--", "702.19"], ["rule", "702.19", "--db", "--json"],
    ["rule", "702.19", "--db="], ["history", "702.19", "--step", "cr-2025-06-06"],
    ["search", "x", "--limit", "0"], ["search", "x", "--limit", "501"],
    ["search", "x", "--limit", "ten"], ["search", "x", "--limit", "+5"],
    ["infractions", "702.19"], ["infractions", "--penalty", "loss"], ["infractions", "--penalty"],
])
def test_it_declines_what_click_alone_reads(db: Path, argv: list[str],
                                            capsys: pytest.CaptureFixture[str]) -> None:
    _, answered = both(argv, capsys)
    assert answered is None


def test_it_declines_a_database_to_build_or_a_folder(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert quick.answer(["rule", "702.19", "--db", str(tmp_path / "none.db")]) is None
    assert quick.answer(["rule", "702.19", "--db", str(tmp_path)]) is None
    (tmp_path / "junk.db").write_bytes(b"not a database at all" * 100)
    assert quick.answer(["rule", "702.19", "--db", str(tmp_path / "junk.db")]) is None
    assert capsys.readouterr() == ("", "")


def test_it_leaves_shell_completion_to_click(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("_RULESDB_COMPLETE", "bash_complete")
    assert quick.answer(["rule", "702.19"]) is None


TOKENS = ["rule", "glossary", "refs", "history", "search", "infractions", "--penalty",
          "game loss", "702.19b", "702", "tapped", "trample",
          "etb", "999.9", "--doc", "cr", "mtr", "nope", "cr-2025-06-06", "--json", "--format",
          "markdown", "html", "--tree", "--examples", "--no-examples", "--all", "--limit", "2",
          "0", "--all-editions", "--step", "--help", "-x", "--", "--json=1", "--doc=cr"]


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=6))
def test_any_arguments_are_answered_as_click_does_or_declined(
        db: Path, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    expected, answered = both(argv, capsys)
    if answered is not None:
        assert answered == expected


SAMPLES = {"--doc": "cr", "--format": "markdown", "--limit": "7", "--penalty": "game LOSS"}


@pytest.mark.parametrize("name", sorted(quick.GRAMMARS))
def test_its_grammar_is_the_click_commands(name: str, db: Path) -> None:
    """Every option of the click command is one the quick path declines or one it reads to
    the parameters click gives the command (defaults, flags, values alike)."""
    grammar = quick.GRAMMARS[name]
    command = group.get_command(click.Context(group), name)
    options = {o for p in command.params if isinstance(p, click.Option)
               for o in (*p.opts, *p.secondary_opts)}
    assert options == set(grammar.values) | set(grammar.flags) | grammar.declined | {quick.DB}

    def read(*args: str) -> dict:
        params = command.make_context(name, [*positional, *args]).params
        params.pop("db_path")
        return {k: v for k, v in params.items()
                if not {f"--{k}", f"--{k.replace('_', '-')}"} & grammar.declined}

    positional = ["x"] if grammar.argument else []
    for args in [[], *([flag] for flag in grammar.flags),
                 *([option, SAMPLES[option]] for option in grammar.values)]:
        parsed = quick.parse([name, *positional, *args])
        assert parsed is not None, args
        assert parsed[1] == read(*args), args


@pytest.mark.parametrize("flags", [{"bold": True}, {"underline": True}, {"dim": True},
                                   {"bold": True, "underline": True}, {}])
def test_style_writes_what_click_style_writes(flags: dict[str, bool]) -> None:
    assert style("702.19b", **flags) == click.style("702.19b", **flags)


WATCHED = ["click", "dataclasses", "pathlib", "rulesdb.lineage.align", "textwrap", "typing"]
LOADED = ("import sys; before = set(sys.modules); from rulesdb.commands import quick; "
          "code = quick.answer(sys.argv[1:]); "
          f"print(code, sorted(set({WATCHED!r}) & (set(sys.modules) - before)), file=sys.stderr)")


@pytest.mark.parametrize("argv", [["rule", "702.19b"], ["glossary", "tapped"],
                                  ["refs", "702.19b"], ["history", "702.19"],
                                  ["infractions", "--penalty", "game loss"]])
def test_a_lookup_loads_none_of_what_it_does_without(bundled_db: Path, argv: list[str]) -> None:
    """What a lookup imports is its time (benchmarks/lookups.py): click and what it brings
    are 25-30 ms, the aligner (with dataclasses) 10 ms, pathlib 4 ms, typing 3 ms, textwrap
    with its pattern 1-2 ms (rulesdb.commands.wrapped fills as it does; modules loaded before
    rulesdb, as an editable install loads pathlib, are not counted; the
    installed wheel is checked whole in test_installed.py)."""
    done = subprocess.run([sys.executable, "-c", LOADED, *argv, "--db", str(bundled_db)],
                          capture_output=True, text=True, check=True)
    assert done.stderr.strip() == "0 []"
    assert done.stdout


@pytest.mark.skipif(os.name != "posix", reason="elsewhere file_uri is pathlib's own")
@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(st.characters(blacklist_categories=["Cs"], blacklist_characters="/\0"),
                        min_size=1, max_size=8), min_size=1, max_size=4),
       st.binary(min_size=1, max_size=4).filter(lambda b: b"/" not in b and b"\0" not in b))
def test_file_uri_is_pathlib_s(parts: list[str], raw: bytes) -> None:
    """A lookup opens the database by a file: URI made without pathlib, the same as
    `Path(path).resolve().as_uri()` for any name (relative, `..`, `#`, `%`, non-UTF-8)."""
    for path in ("/".join(parts), "/tmp/" + "/".join(parts), os.fsdecode(b"x/" + raw)):
        assert file_uri(path) == Path(path).resolve().as_uri()
