"""How much `rulesdb add` takes: at most --max-mb from a file, a pipe or a device, read no
further; no rule, example or glossary entry longer than 64 KB. Either is one line, exit 2,
and nothing written."""

from __future__ import annotations

import io
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdb.cli import cli
from rulesdb.errors import InputError
from rulesdb.sources.limits import ITEM_MAX, read_at_most

from test_add import add, release, texts

SIZE = len(release().encode())


class Endless(io.RawIOBase):
    """A stream of zeros that never ends and counts what was read of it."""

    def __init__(self) -> None:
        self.taken = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray) -> int:  # type: ignore[override]
        buffer[:] = bytes(len(buffer))
        self.taken += len(buffer)
        return len(buffer)


def test_an_endless_stream_is_read_one_byte_past_the_limit_and_no_further():
    stream = Endless()
    with pytest.raises(InputError) as caught:
        read_at_most(io.BufferedReader(stream), "(standard input)", 1000)
    assert caught.value.message == ("(standard input): larger than 0.000953674 MB, the most "
                                    "read (--max-mb); not read further")
    assert 1001 <= stream.taken <= 1001 + io.DEFAULT_BUFFER_SIZE


def test_dev_zero_is_refused_without_reading_it_all(tmp_path):
    """In a process of at most 1 GB of memory: reading /dev/zero to its end fails there."""
    def small() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    db = tmp_path / "rules.db"
    run = subprocess.run([sys.executable, "-m", "rulesdb", "add", "/dev/zero", "--db", str(db)],
                         capture_output=True, text=True, timeout=120, preexec_fn=small)
    assert (run.returncode, run.stdout, run.stderr) == (
        2, "", "Error: /dev/zero: larger than 20 MB, the most read (--max-mb); "
               "not read further\n")
    assert not db.exists()


def test_standard_input_past_the_limit_is_refused(tmp_path):
    db = tmp_path / "rules.db"
    result = CliRunner().invoke(cli, ["add", "-", "--db", str(db), "--max-mb", "0.5"],
                                input=release().encode() + b" " * 1024 * 1024)
    assert (result.exit_code, result.output) == (
        2, "Error: (standard input): larger than 0.5 MB, the most read (--max-mb); "
           "not read further\n")
    assert not db.exists()


def test_a_file_is_taken_up_to_its_limit_exactly(tmp_path):
    mb = SIZE / 1024 / 1024
    result, db = add(tmp_path, release().encode(), "exact.txt", "--max-mb", repr(mb))
    assert result.exit_code == 0, result.output
    path = tmp_path / "longer.txt"
    path.write_bytes(release(date="October 1, 2024").encode() + b"\n")
    refused = CliRunner().invoke(cli, ["add", str(path), "--db", str(db), "--max-mb", repr(mb)])
    assert refused.exit_code == 2
    assert refused.output.startswith(f"Error: {path}: larger than ")


@pytest.mark.parametrize("old, new, message", [
    ("702.19a Trample is", "702.19a Trample " + "word " * (ITEM_MAX // 5) + "is",
     "line 37, column 1: rule 702.19a is 65615 bytes long"),
    ("Example: Two players", "Example: Two " + "é" * (ITEM_MAX // 2),
     "line 23, column 1: an example of rule 100.1a is 65571 bytes long"),
    ("A keyword ability.", "A keyword " + "ability " * (ITEM_MAX // 8) + ".",
     "line 54, column 1: the glossary entry 'Trample' is 65564 bytes long"),
    ("Magic: The Gathering Original", "Magic " * (ITEM_MAX // 6 + 1),
     "line 57, column 1: the credits is 65577 bytes long"),
])
def test_an_item_longer_than_64_kb_is_refused_naming_its_line(tmp_path, old, new, message):
    result, db = add(tmp_path, release(**{old: new}).encode(), "long.txt")
    assert (result.exit_code, result.output) == (
        2, f"Error: long.txt: {message}; no item of a release may pass 64 KB\n")
    assert not db.exists()


def test_an_item_of_64_kb_is_taken(tmp_path):
    text = "Trample is a static ability that modifies the rules for assigning combat damage."
    longest = text.replace("Trample is", "Trample " + "x" * (ITEM_MAX - len(text) - 1) + " is")
    result, db = add(tmp_path, release(**{text: longest}).encode())
    assert result.exit_code == 0, result.output
    assert len(texts(db, "cr-2025-06-06")["702.19a"]) == ITEM_MAX


def test_the_limits_leave_the_database_as_it_was(tmp_path):
    result, db = add(tmp_path, release().encode())
    assert result.exit_code == 0, result.output
    before = db.read_bytes()
    later = release(date="October 1, 2024", **{"Trample is": "Trample " + "w " * ITEM_MAX})
    refused, _ = add(tmp_path, later.encode(), "later.txt", db=db)
    assert refused.exit_code == 2
    assert db.read_bytes() == before
    assert sorted(p.name for p in Path(tmp_path).iterdir()) == [
        "MagicCompRules 20250606.txt", "later.txt", "rules.db"]
