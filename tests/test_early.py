"""A release as a PDF or a .docx is read in a worker from the moment `rulesdb add` starts
(rulesdb.sources.early): the worker's text is the text read here, a file changed since
is read again, and a file that cannot be read fails as it does here."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
import sqlite_utils

from conftest import ROOT
from forms_helpers import docx, pdf, rtf
from test_add import release

# Each case runs in a fresh process: forking is refused while threads run, and other tests
# of the suite leave some running.
SCRIPT = """
import sys
from pathlib import Path
from rulesdb.background import can_fork
from rulesdb.ingest.model import ParseError
from rulesdb.sources.early import PDF_PARTS, EarlyText, read_early, read_text

if not can_fork():
    print("no fork")
    sys.exit()
folder = Path(sys.argv[1])
paths = sorted(folder.iterdir())
early = read_early(paths, 10_000_000)
assert set(early) == {path.resolve() for path in paths if path.suffix in (".pdf", ".docx")}
for path in paths:
    if path.suffix not in (".pdf", ".docx"):
        continue
    text = early[path.resolve()]
    # read in a worker, a PDF in as many as it has shares
    assert len(text.workers) == (PDF_PARTS if path.suffix == ".pdf" else 1)
    assert all(worker.pid is not None for worker in text.workers)
    data = path.read_bytes()
    here = read_text(data, 10_000_000)
    if len(here) == 2:  # (message, offset) of the ParseError: the file cannot be read
        try:
            text.result(data)
        except ParseError as again:
            assert (again.message, again.offset) == here, (again.message, here)
        else:
            raise AssertionError(f"{path.name}: the worker read what fails here")
        continue
    assert text.result(data) == here, path.name
# a device, a file longer than the most read, a file that is not there: left to the add
assert read_early([Path("/dev/zero"), folder / "r.pdf", folder / "gone.pdf"], 100) == {}
# bytes that changed since the worker started are read again
changed = EarlyText(b"one", 100)
assert changed.result(b"two") is None and changed.workers[0].pid is None
print("ok")
"""


def test_the_worker_reads_what_is_read_here(tmp_path):
    (tmp_path / "r.docx").write_bytes(docx(release().split("\n")))
    (tmp_path / "r.rtf").write_bytes(rtf(release(date="May 1, 2025")))
    (tmp_path / "r.pdf").write_bytes(pdf(release(date="April 1, 2025"), width=300,
                                         lines_per_page=14))
    (tmp_path / "r.txt").write_text(release(date="March 1, 2025"), encoding="utf-8")
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4\n1 0 obj garbage")
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], capture_output=True,
                         text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    if out.stdout.strip() == "no fork":
        pytest.skip("no worker process can be forked on this machine")
    assert out.stdout.strip() == "ok"


def test_add_stores_the_same_with_and_without_the_early_read(tmp_path):
    path = tmp_path / "MagicCompRules.pdf"
    path.write_bytes(pdf(release(), width=300, lines_per_page=14))
    stored = {}
    for workers in ("1", "0"):
        db_path = tmp_path / f"rules-{workers}.db"
        env = {**os.environ, "RULESDB_WORKERS": workers}
        out = subprocess.run([sys.executable, "-m", "rulesdb", "add", str(path), "--db",
                              str(db_path), "--json"], capture_output=True, text=True, env=env,
                             cwd=ROOT, timeout=120)
        assert out.returncode == 0, out.stderr
        (document,) = json.loads(out.stdout)["documents"]
        db = sqlite_utils.Database(db_path)
        stored[workers] = (
            {key: document[key] for key in ("id", "action", "rules", "warnings")},
            db.execute("SELECT number, text FROM rules ORDER BY id").fetchall(),
            db.execute("SELECT term, definition FROM glossary ORDER BY id").fetchall())
    assert stored["1"] == stored["0"]
    assert stored["1"][0] == {"id": "cr-2025-06-06", "action": "added", "rules": 12, "warnings": [
        "text read from a PDF: its lines joined into paragraphs by their layout"]}
