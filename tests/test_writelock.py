"""One writer at a time per database (rulesdb/db/writelock.py), and two adds at once keep both."""

from __future__ import annotations

import multiprocessing
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import sqlite_utils

from rulesdb.db.writelock import lock_path, writing
from rulesdb.errors import InputError

from test_add import release

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="no fcntl: nothing is locked")


def test_a_second_writer_waits_then_gives_up_in_one_line(tmp_path):
    db = tmp_path / "rules.db"
    waited = []
    with writing(db):
        assert lock_path(db).exists()
        with pytest.raises(InputError) as info, writing(db, wait=0.3, on_wait=waited.append):
            pass
    assert waited == [db]
    assert info.value.message.startswith(f"{db}: another rulesdb command is still writing it "
                                         "(waited 0.3 s")
    assert not lock_path(db).exists()  # removed when released
    with writing(db, wait=0):  # and free again
        pass


def test_a_waiting_writer_goes_on_when_the_first_is_done(tmp_path):
    db = tmp_path / "rules.db"
    order = []
    held = threading.Event()

    def first() -> None:
        with writing(db):
            held.set()
            time.sleep(0.3)
            order.append("first done")

    thread = threading.Thread(target=first)
    thread.start()
    held.wait()
    with writing(db, wait=10, on_wait=lambda _: order.append("second waits")):
        order.append("second writes")
    thread.join()
    assert order == ["second waits", "first done", "second writes"]


def _bump(args: tuple[str, int]) -> None:
    db, times = args
    for _ in range(times):
        with writing(Path(db), on_wait=lambda _: None):
            counter = Path(db + ".count")
            value = int(counter.read_text()) if counter.exists() else 0
            time.sleep(0.001)
            counter.write_text(str(value + 1))


def test_writers_in_several_processes_never_overlap(tmp_path):
    db = str(tmp_path / "rules.db")
    with multiprocessing.get_context("fork").Pool(4) as pool:
        pool.map(_bump, [(db, 25)] * 4)
    assert (tmp_path / "rules.db.count").read_text() == "100"
    assert not lock_path(tmp_path / "rules.db").exists()


def test_two_adds_at_once_keep_both_editions(tmp_path):
    db = tmp_path / "rules.db"
    files = []
    for day, name in (("June 6, 2025", "a.txt"), ("October 1, 2024", "b.txt")):
        (tmp_path / name).write_text(release(date=day))
        files.append(tmp_path / name)
    adds = [subprocess.Popen([sys.executable, "-m", "rulesdb", "add", str(path), "--db",
                              str(db)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            for path in files]
    for add in adds:
        _, err = add.communicate(timeout=120)
        assert add.returncode == 0, err
    stored = sqlite_utils.Database(db).execute("SELECT id FROM documents ORDER BY id").fetchall()
    assert stored == [("cr-2024-10-01",), ("cr-2025-06-06",)]


def test_a_folder_that_cannot_be_written_is_one_line(tmp_path, monkeypatch):
    def refused(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("rulesdb.db.writelock.os.open", refused)
    with pytest.raises(InputError) as info, writing(tmp_path / "rules.db"):
        pass
    assert info.value.message == (f"{tmp_path / 'rules.db'}: cannot write beside it "
                                  "(Permission denied)")
