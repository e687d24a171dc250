"""`rulesdb` run as a program: commands that leave quickly (add, build, fetch, and the lookups
that only read and print) end the process themselves, with the exit code and the output they
would have had."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import sqlite_utils
from click.testing import CliRunner

from rulesdb.cli import cli
from rulesdb.commands.common import quick_exit_wanted
from rulesdb.commands.group import LOOKUPS, MODULES

from test_add import release

PROGRAM = "import sys; from rulesdb.cli import cli; sys.argv[0] = 'rulesdb'; cli()"


def run(*args: str) -> subprocess.CompletedProcess:
    """`rulesdb ARGS` as the console script calls it (the group object called), its output
    buffered as Python buffers it by default."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
    return subprocess.run([sys.executable, "-c", PROGRAM, *args], capture_output=True,
                          text=True, timeout=300, env=env)


def test_an_add_ends_with_its_output_and_code_0(tmp_path: Path) -> None:
    source = tmp_path / "MagicCompRules 20250606.txt"
    source.write_text(release(), encoding="utf-8")
    db = tmp_path / "rules.db"
    out = run("add", str(source), "--db", str(db))
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0].startswith("cr-2025-06-06: added from")
    assert out.stdout.rstrip().splitlines()[-1].startswith(f"created {db} in ")
    rules = sqlite_utils.Database(db).execute(
        "SELECT count(*) FROM rules WHERE document = 'cr-2025-06-06'").fetchone()[0]
    assert rules == 12


@pytest.mark.parametrize(("args", "code", "message"), [
    (["add", "/nonexistent/MagicCompRules.txt"], 2, "/nonexistent/MagicCompRules.txt: cannot"),
    (["add"], 2, "Missing argument 'FILES...'"),
    (["build", "--sources", "/nonexistent"], 2, "/nonexistent"),
    (["fetch", "--date", "2025-06-06", "--latest"], 2, "give one of --date, --latest and --url"),
])
def test_a_refused_command_ends_with_its_message_and_code(tmp_path: Path, args: list[str],
                                                          code: int, message: str) -> None:
    out = run(*args, "--db", str(tmp_path / "rules.db"))
    assert out.returncode == code
    assert message in out.stderr
    assert not (tmp_path / "rules.db").exists()


@pytest.mark.parametrize(("args", "quick"), [
    (["rule", "100.1"], True), (["glossary", "tap"], True), (["history", "702.19"], True),
    (["export", "cr-2025-06-06"], True), (["add", "missing.txt"], True),
    (["align", "--list"], False), (["info"], False),
])
def test_the_flag_is_set_by_builds_and_lookups_only(tmp_path: Path, args: list[str],
                                                     quick: bool) -> None:
    """A command that writes more than its output (an alignment set by hand) or serves ends
    as usual; and CliRunner, which calls `main`, is never ended."""
    import rulesdb.commands.common as common

    common._quick["exit"] = False
    result = CliRunner().invoke(cli, [*args, "--db", str(tmp_path / "none.db")])
    assert result.exit_code in (0, 2), result.output
    assert quick_exit_wanted() == quick
    common._quick["exit"] = False


def test_every_lookup_named_is_a_command_that_writes_nothing() -> None:
    """A misspelt name in LOOKUPS would silently leave that lookup slow; a command that
    writes (build, add, align, remove) or serves must not be in it."""
    assert not LOOKUPS - set(MODULES)
    assert not LOOKUPS & {"build", "add", "fetch", "remove", "align", "serve", "info"}


@pytest.mark.parametrize("args", [
    ["rule", "702.19b"], ["glossary", "tapped", "--json"], ["history", "702.19"],
    ["history", "702.19", "--json"], ["export", "cr-2025-06-06", "--json"], ["rule", "999.1"],
    ["glossary", "nosuchterm"], ["rule", "702.19", "--doc", "cr-1900-01-01"],
])
def test_a_lookup_run_as_the_program_prints_what_it_prints_in_process(
        bundled_db: Path, args: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Ending without the interpreter's teardown loses no output and keeps the exit code
    (0 found, 1 not found, 2 an input error), however long the output."""
    monkeypatch.setenv("COLUMNS", "100")  # both wrap to one width
    expected = CliRunner().invoke(cli, [*args, "--db", str(bundled_db)])
    out = run(*args, "--db", str(bundled_db))
    assert (out.returncode, out.stdout, out.stderr) == (
        expected.exit_code, expected.stdout, expected.stderr)


@pytest.mark.parametrize("args", [
    ["rule", "\udcff"], ["glossary", "tap\udcffped"], ["history", "\udcff"], ["search", "\udcff"],
    ["refs", "\udcff"], ["diff", "cr", "\udcff"], ["rule", "702.19b", "--doc", "\udcff"],
    ["search", "trample", "--doc", "cr\udcfe"], ["export", "\udcff"],
])
def test_bytes_that_are_not_utf8_are_an_input_error(bundled_db: Path, args: list[str]) -> None:
    """A value the terminal gave as bytes that are not UTF-8 (Python keeps them as lone
    surrogates) is refused in one line naming the bytes, exit code 2, on the quick path as
    on click's; SQLite would refuse to bind it with a traceback."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    argv = [os.fsencode(arg) for arg in [*args, "--db", str(bundled_db)]]
    out = subprocess.run([sys.executable.encode(), b"-c", PROGRAM.encode(), *argv],
                         capture_output=True, timeout=300, env=env)
    error = out.stderr.decode("utf-8", "replace").strip().splitlines()
    assert out.returncode == 2, error
    assert error[-1].startswith("Error: Invalid value for ") and "is not UTF-8 text" in error[-1]
    assert "\\xff" in error[-1] or "\\xfe" in error[-1]
    assert not any(line.startswith("Traceback") for line in error)
