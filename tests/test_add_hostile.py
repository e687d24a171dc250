"""Six hostile files given to `rulesdb add` as a user's machine would run it, under a 2 GB
address-space limit: a PDF whose page inflates to 2 GB, RTF with a `\\uN` out of range, a
file name that is not UTF-8, a named pipe with no writer, 19 MB of line breaks. Each is one
line and exit code 2 (or a correct add) within 30 s and 1.5 GB, the database and its folder
as they were: no lock, no working copy left. Each file is made here, by a small generator.
(Bad files of each form, one by one: test_forms_hostile.py.)"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest

from forms_helpers import rtf
from test_add import release

GB = 1024 ** 3
LIMIT = 2 * GB  # the address space the add is given
SECONDS, PEAK = 30.0, 1.5 * GB  # what one hostile add may take at the most
RUN = """
import json, resource, subprocess, sys, time
resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
started = time.perf_counter()
done = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=120)
print(json.dumps({{"code": done.returncode, "out": done.stdout, "err": done.stderr,
                  "seconds": time.perf_counter() - started,
                  "peak": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024}}))
"""
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="address-space limits and named pipes as on Linux")


def limited_add(path: Path | str, db: Path, *extra: str) -> dict:
    """`rulesdb add PATH --db DB` in a process limited to LIMIT bytes of address space:
    its exit code, output, wall seconds and peak memory (with its workers)."""
    out = subprocess.run([sys.executable, "-c", RUN.format(limit=LIMIT), sys.executable,
                          "-m", "rulesdb", "add", os.fsencode(path), "--db", str(db), *extra],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def inflating(megabytes: int) -> bytes:
    """A zlib stream of `megabytes` MB of spaces, its one megabyte deflated once and
    repeated (each flushed whole, so one block stands for any other)."""
    block = b" " * (1 << 20)
    deflate = zlib.compressobj(9)
    first = deflate.compress(block) + deflate.flush(zlib.Z_FULL_FLUSH)
    again = deflate.compress(block) + deflate.flush(zlib.Z_FULL_FLUSH)
    end = deflate.flush()[:-4]  # its checksum is of the two megabytes deflated
    size = megabytes << 20
    low = (1 + ord(" ") * size) % 65521
    high = (size + ord(" ") * size * (size + 1) // 2) % 65521
    return first + again * (megabytes - 1) + end + ((high << 16) | low).to_bytes(4, "big")


def page_bomb() -> bytes:
    """A 2 MB PDF of one page whose content stream inflates to 2 GB."""
    stream = inflating(2048)
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
               b"<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream"
               % (len(stream), stream)]
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, xref)
    return bytes(out)


def rtf_release(u: str) -> bytes:
    """A small release as RTF, a `\\uN` with its fallback in the text of rule 100.1."""
    return rtf(release()).replace(b"These Magic rules", f"These {u}?Magic rules".encode())


@pytest.fixture(scope="module")
def base(tmp_path_factory, small_db) -> Path:
    """A database to add to (a copy of `small_db`), made once."""
    path = tmp_path_factory.mktemp("base") / "rules.db"
    shutil.copyfile(small_db, path)
    return path


@pytest.fixture
def db(tmp_path, base) -> Path:
    folder = tmp_path / "db"
    folder.mkdir()
    shutil.copyfile(base, folder / "rules.db")
    return folder / "rules.db"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def refused(run: dict, db: Path, before: str, message: str) -> None:
    """`run` was one line, exit code 2, within the limits, the database as it was."""
    assert (run["code"], run["out"], run["err"]) == (2, "", f"Error: {message}\n")
    assert run["seconds"] <= SECONDS and run["peak"] <= PEAK, run
    assert digest(db) == before
    assert sorted(os.listdir(db.parent)) == ["rules.db"]  # no lock, no working copy


def test_a_pdf_whose_page_inflates_to_2_gb_is_refused_by_its_bounded_reader(tmp_path, db):
    path = tmp_path / "bomb.pdf"
    path.write_bytes(page_bomb())
    before = digest(db)
    assert path.stat().st_size < 3 * 1024 * 1024
    refused(limited_add(path, db), db, before,
            "bomb.pdf: a PDF document that takes more than 512 MB of memory to read (a page "
            "whose content inflates past it; a release takes 35 MB): not read")


def test_so_it_is_without_workers_too(tmp_path, db, monkeypatch):
    """RULESDB_WORKERS=0 keeps the add in one process, but for the PDF's reader."""
    monkeypatch.setenv("RULESDB_WORKERS", "0")
    path = tmp_path / "bomb.pdf"
    path.write_bytes(page_bomb())
    before = digest(db)
    run = limited_add(path, db)
    assert run["code"] == 2 and "more than 512 MB of memory to read" in run["err"]
    assert run["peak"] <= PEAK and digest(db) == before
    assert sorted(os.listdir(db.parent)) == ["rules.db"]


def test_19_mb_of_line_breaks_are_refused_before_they_cost_2_gb(tmp_path, db):
    """Bare carriage returns, 19 million of them after a release: each line read costs
    120 bytes (2.26 GB, a MemoryError before)."""
    path = tmp_path / "returns.txt"
    path.write_bytes(release().encode() + b"\r" * 19_000_000)
    lines = release().count("\n") + 19_000_000 + 1
    before = digest(db)
    refused(limited_add(path, db), db, before,
            f"returns.txt: line 1, column 1: a text of {lines:,} lines, more than the "
            "200,000 a release could have (one has about 5,000): not read")


def test_a_named_pipe_with_no_writer_is_refused_not_waited_for(tmp_path, db):
    path = tmp_path / "pipe.txt"
    os.mkfifo(path)
    before = digest(db)
    refused(limited_add(path, db), db, before,
            f"{path}: a named pipe that nothing was written to (no program writes to it): "
            "nothing to read")


@pytest.mark.parametrize("u", ["\\u-70000", "\\u-9999999999"],
                         ids=["out of 16 bits", "past a C int"])
def test_rtf_with_a_unicode_number_out_of_range_adds_without_it(tmp_path, db, u):
    path = tmp_path / "MagicCompRules-2025-06-06.rtf"
    path.write_bytes(rtf_release(u))
    run = limited_add(path, db)
    assert (run["code"], run["err"]) == (0, ""), run
    assert run["seconds"] <= SECONDS and run["peak"] <= PEAK
    conn = sqlite3.connect(db)
    (text,) = conn.execute("SELECT text FROM rules WHERE document = 'cr-2025-06-06' "
                           "AND number = '100.1'").fetchone()
    assert text.startswith("These Magic rules")  # the character is none, its fallback skipped
    assert sorted(os.listdir(db.parent)) == ["rules.db"]


def test_a_file_name_that_is_no_utf_8_is_stored_with_its_bytes_escaped(tmp_path, db):
    path = Path(os.fsdecode(bytes(tmp_path) + b"/MagicCompRules-\xff\xfe-2026.txt"))
    path.write_bytes(release().encode())
    run = limited_add(path, db, "--json")
    assert (run["code"], run["err"]) == (0, ""), run
    assert run["seconds"] <= SECONDS and run["peak"] <= PEAK
    assert json.loads(run["out"])["documents"][0]["file"] == "MagicCompRules-\\xff\\xfe-2026.txt"
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT file FROM documents WHERE id = 'cr-2025-06-06'").fetchone() == \
        ("MagicCompRules-\\xff\\xfe-2026.txt",)
    assert sorted(os.listdir(db.parent)) == ["rules.db"]


def test_a_reader_that_dies_otherwise_is_one_line_too(tmp_path):
    """A PDF reader killed by something else than its memory (here a signal sent to it)
    is one line naming the signal, not an add that goes on or crashes."""
    code = """
import os, signal, sys
from rulesdb.sources import early
from rulesdb.ingest.model import ParseError

def die(data, max_bytes, part, parts):
    os.kill(os.getpid(), signal.SIGSEGV)

early.read_pdf_part = die
try:
    early.read_pdf(b"%PDF-1.4", 1000)
except ParseError as exc:
    print(exc.message)
"""
    started = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out == "a PDF document PDFium could not read: its reader died (SIGSEGV)\n"
    assert time.perf_counter() - started < SECONDS
