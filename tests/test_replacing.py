"""How writers replace the database (rulesdb/db/replacing.py): the working copies a killed
writer leaves are removed by the next one, a read-only file is refused, the file's
permissions are kept, and a disk that fills up or a folder that cannot exist is one line,
exit code 2, with the database as it was."""

from __future__ import annotations

import errno
import os
import resource
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulesdb.db.writelock as writelock
from rulesdb.cli import cli
from rulesdb.db.replacing import remove_leftovers
from rulesdb.errors import InputError

from conftest import SOURCES
from test_add import release

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="no fcntl: nothing is locked")


@pytest.fixture(scope="module")
def one_release(tmp_path_factory) -> Path:
    """A database holding one added release (cr-2025-06-06), made once; tests copy it."""
    folder = tmp_path_factory.mktemp("one-release")
    (folder / "a.txt").write_text(release())
    result = CliRunner().invoke(cli, ["add", str(folder / "a.txt"), "--db",
                                      str(folder / "rules.db")])
    assert result.exit_code == 0, result.output
    return folder / "rules.db"


@pytest.fixture
def db(tmp_path, one_release) -> Path:
    shutil.copyfile(one_release, tmp_path / "rules.db")
    (tmp_path / "b.txt").write_text(release(date="October 1, 2024"))
    return tmp_path / "rules.db"


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


COMMANDS = {
    "add": lambda db: ["add", str(db.parent / "b.txt"), "--db", str(db)],
    "remove": lambda db: ["remove", "cr-2025-06-06", "--db", str(db)],
    "build": lambda db: ["build", "--seeds-only", "--sources", str(SOURCES), "--db", str(db)],
}


def test_only_working_copies_of_this_database_are_leftovers(tmp_path):
    db = tmp_path / "rules.db"
    names = [".rules.db.adding-123", ".rules.db.building-4", ".rules.db.removing-56789",
             ".rules.db.adding-x", ".rules.db.lock", ".other.db.adding-123", "rules.db.adding-1",
             ".rules.db.adding-12.bak", ".rules.db.copying-12"]
    for name in names:
        (tmp_path / name).write_bytes(b"copy")
    (tmp_path / ".rules.db.adding-77").mkdir()
    assert sorted(p.name for p in remove_leftovers(db)) == [
        ".rules.db.adding-123", ".rules.db.building-4", ".rules.db.removing-56789"]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*names[3:],
                                                                ".rules.db.adding-77"])


def test_the_copy_of_an_add_killed_is_removed_by_the_next_writer(db):
    """A real `kill -9` of `rulesdb add` while it works on its copy."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent)}
    writer = subprocess.Popen([sys.executable, "-m", "rulesdb", "add", str(db.parent / "b.txt"),
                               "--db", str(db)], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    copy = db.with_name(f".rules.db.adding-{writer.pid}")
    deadline = time.monotonic() + 120
    while not copy.exists() and writer.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    os.kill(writer.pid, signal.SIGKILL)
    writer.wait()
    assert copy.exists(), "the add ended before its copy could be caught"
    assert copy.stat().st_size > 0
    assert invoke(*COMMANDS["remove"](db))[0] == 0
    assert sorted(p.name for p in db.parent.iterdir()) == ["b.txt", "rules.db"]


@pytest.mark.parametrize("command", COMMANDS)
def test_add_remove_and_build_remove_leftovers(db, command):
    for name in (".rules.db.adding-2", ".rules.db.building-3", ".rules.db.removing-4",
                 ".kept.db.adding-5"):
        (db.parent / name).write_bytes(b"left by a writer killed")
    code, output = invoke(*COMMANDS[command](db))
    assert code == 0, output
    assert sorted(p.name for p in db.parent.iterdir()) == [".kept.db.adding-5", "b.txt",
                                                           "rules.db"]


def test_a_copy_is_kept_while_its_writer_holds_the_lock(db, monkeypatch):
    copy = db.with_name(f".rules.db.adding-{os.getpid()}")
    monkeypatch.setattr(writelock, "WAIT", 0.2)
    with writelock.writing(db):
        copy.write_bytes(b"being written")
        code, output = invoke(*COMMANDS["add"](db))
        assert code == 2
        assert "another rulesdb command is still writing it" in output
        assert copy.read_bytes() == b"being written"


@pytest.mark.parametrize("command", COMMANDS)
def test_a_read_only_database_is_refused_not_replaced(db, command):
    db.chmod(0o444)
    before = db.read_bytes()
    code, output = invoke(*COMMANDS[command](db))
    assert (code, output) == (2, f"Error: {db}: the file is read-only; make it writable "
                                 "(chmod u+w) to change it\n")
    assert db.read_bytes() == before
    assert stat.S_IMODE(db.stat().st_mode) == 0o444


@pytest.mark.parametrize("command", COMMANDS)
def test_the_database_keeps_its_permissions(db, command):
    db.chmod(0o640)
    code, output = invoke(*COMMANDS[command](db))
    assert code == 0, output
    assert stat.S_IMODE(db.stat().st_mode) == 0o640


@pytest.mark.parametrize("where, message", [
    ("/dev/null/rules.db", "/dev/null/rules.db: /dev/null is not a folder"),
    ("/proc/none/rules.db", "/proc/none/rules.db: cannot make its folder /proc/none "
                            "(No such file or directory)"),
])
@pytest.mark.parametrize("command", ["add", "build"])
def test_a_folder_that_cannot_exist_is_one_line(db, command, where, message):
    code, output = invoke(*COMMANDS[command](db)[:-1], where)
    assert (code, output) == (2, f"Error: {message}\n")


def unchanged_after(db: Path, *args: str) -> tuple[int, str]:
    """The exit code and output of `rulesdb ARGS`, once checked that the database and its
    folder are as they were."""
    before = db.read_bytes()
    names = sorted(p.name for p in db.parent.iterdir())
    code, output = invoke(*args)
    assert db.read_bytes() == before
    assert sorted(p.name for p in db.parent.iterdir()) == names
    return code, output


def test_a_disk_full_while_copying_is_one_line(db, monkeypatch):
    def full(source, target, *args, **kwargs):
        Path(target).write_bytes(b"part of a copy")
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(target))

    monkeypatch.setattr("rulesdb.sources.add.shutil.copyfile", full)
    assert unchanged_after(db, *COMMANDS["add"](db)) == (
        2, f"Error: {db}: cannot write the new database beside it (No space left on device); "
           "the database is as it was\n")


def disk_full() -> sqlite3.OperationalError:
    """SQLite's own "database or disk is full", from a database capped at two pages."""
    conn = sqlite3.connect(":memory:")
    conn.execute("PRAGMA max_page_count = 2")
    try:
        conn.execute("CREATE TABLE t AS SELECT zeroblob(100000) AS b")
    except sqlite3.OperationalError as exc:
        return exc
    raise AssertionError("SQLite wrote past its page limit")


@pytest.mark.parametrize("command", COMMANDS)
def test_a_disk_full_while_writing_is_one_line(db, command, monkeypatch):
    def full(*args, **kwargs):
        raise disk_full()

    for module in ("add", "remove", "build"):
        monkeypatch.setattr(f"rulesdb.sources.{module}.mark_superseded", full)
    code, output = unchanged_after(db, *COMMANDS[command](db))
    assert (code, output.splitlines()[-1]) == (  # after what a build prints as it goes
        2, f"Error: {db}: the disk is full (database or disk is full); the database is as it "
           "was")


def test_a_file_size_limit_reached_by_a_real_add_is_one_line(db):
    """A process whose files may not grow past half the database (RLIMIT_FSIZE): the copy
    stops there."""
    half = db.stat().st_size // 2

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (half, half))

    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent)}
    before = db.read_bytes()
    run = subprocess.run([sys.executable, "-m", "rulesdb", *COMMANDS["add"](db)],
                         capture_output=True, text=True, timeout=300, preexec_fn=small_files,
                         env=env)
    assert (run.returncode, run.stdout, run.stderr) == (
        2, "", f"Error: {db}: cannot write the new database beside it (File too large); the "
               "database is as it was\n")
    assert db.read_bytes() == before
    assert sorted(p.name for p in db.parent.iterdir()) == ["b.txt", "rules.db"]


def test_an_unexpected_sqlite_error_is_not_hidden(db, monkeypatch):
    """A bug (an SQL error) keeps its traceback: only the file's and the disk's troubles
    are the user's to mend."""
    def broken(*args, **kwargs):
        raise sqlite3.OperationalError("no such column: nope")

    monkeypatch.setattr("rulesdb.sources.add.mark_superseded", broken)
    result = CliRunner().invoke(cli, COMMANDS["add"](db))
    assert result.exit_code == 1
    assert isinstance(result.exception, sqlite3.OperationalError)
    assert not isinstance(result.exception, InputError)


def test_scratch_folders_of_gone_processes_are_swept_and_no_others(tmp_path, monkeypatch):
    from rulesdb.db import replacing

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # its process id now names no process
    dead = tmp_path / f"rulesdb-dry-run-{gone.pid}-abc123"
    (dead / "sub").mkdir(parents=True)
    (dead / "sub" / "rules.db").write_bytes(b"a copy")
    mine = replacing.scratch_folder("layers")
    assert mine.parent == tmp_path and str(os.getpid()) in mine.name
    other = tmp_path / f"rulesdb-notakind-{gone.pid}-abc123"  # not a rulesdb scratch kind
    other.mkdir()
    assert replacing.sweep_scratch() == [dead]
    assert not dead.exists() and mine.is_dir() and other.is_dir()


def test_a_dry_run_leaves_no_scratch_folder(db, tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    code, output = invoke("add", "--dry-run", "--db", str(db), str(db.parent / "b.txt"))
    assert code == 0, output
    assert list((tmp_path / "tmp").iterdir()) == []
