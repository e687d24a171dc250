"""rulesdb as a user installs it: `python -m build` makes an sdist and a wheel (the sdist builds
the same wheel), the wheel carries the corpus and stays small, and installed alone in a fresh
venv it works from an empty folder with HOME elsewhere: the first command builds the user's
database (two commands started together build it once), then rule, search, diff, history,
serve, add, align and info answer, and nothing is written into the working folder or into
the venv.

The venv installs the wheel's dependencies from the package registry (pip's cache makes that
quick); the full database is built here once, by the wheel's own first command.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest
from test_quick import LOADED

from conftest import ROOT
from edition_helpers import write_releases

MAX_WHEEL = 25 * 1024 * 1024


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> dict[str, Path]:
    """The sdist and the wheel made from it, and a wheel made from the tree directly."""
    out = tmp_path_factory.mktemp("dist")
    for folder, args in (("from-sdist", []), ("from-tree", ["--wheel"])):
        subprocess.run([sys.executable, "-m", "build", *args, "--outdir", str(out / folder),
                        str(ROOT)], check=True, capture_output=True)
    (sdist,) = (out / "from-sdist").glob("*.tar.gz")
    (wheel,) = (out / "from-sdist").glob("*.whl")
    (direct,) = (out / "from-tree").glob("*.whl")
    return {"sdist": sdist, "wheel": wheel, "direct": direct}


def record(wheel: Path) -> dict[str, str]:
    """Each file of a wheel and the sha256 of its content (its RECORD left out)."""
    with zipfile.ZipFile(wheel) as archive:
        return {name: base64.urlsafe_b64encode(hashlib.sha256(archive.read(name)).digest())
                .decode() for name in archive.namelist() if not name.endswith("/RECORD")}


def test_the_sdist_builds_the_same_wheel_as_the_tree(dist):
    assert record(dist["wheel"]) == record(dist["direct"])


def test_the_wheel_carries_the_corpus_and_no_database(dist):
    assert dist["wheel"].stat().st_size <= MAX_WHEEL
    names = set(record(dist["wheel"]))
    shipped = {f"rulesdb/data/{p.relative_to(ROOT / 'data').as_posix()}"
               for p in (ROOT / "data").rglob("*")
               if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".db"
               and not p.name.startswith(".")}
    assert shipped <= names
    assert {"rulesdb/data/sources/catalog.toml", "rulesdb/data/alignment-overrides.txt",
            "rulesdb/data/history/cr-history-2003-2026.tar.xz"} <= names
    assert [n for n in names if n.endswith((".db", ".pyc")) or "/." in n] == []


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file under `folder` with its size and modification time."""
    found = {}
    for path in folder.rglob("*"):
        if path.is_file() or path.is_symlink():
            stat = path.lstat()
            found[str(path.relative_to(folder))] = (stat.st_size, stat.st_mtime_ns)
    return found


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_the_installed_wheel_works_from_an_empty_folder(dist, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(dist["wheel"])],
                         capture_output=True, text=True)
    assert pip.returncode == 0, pip.stderr[-3000:]
    home, work, inputs = tmp_path / "home", tmp_path / "work", tmp_path / "inputs"
    for folder in (home, work, inputs):
        folder.mkdir()
    before = snapshot(venv)
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("RULESDB_", "XDG_", "PYTHON"))}
    env.update(HOME=str(home), COLUMNS="100")
    rulesdb = str(venv / "bin" / "rulesdb")

    def run(*args: str, code: int = 0) -> subprocess.CompletedProcess:
        done = subprocess.run([rulesdb, *args], cwd=work, env=env, capture_output=True,
                              text=True, timeout=900)
        assert done.returncode == code, f"rulesdb {' '.join(args)}: {done.stderr[-3000:]}"
        return done

    version = run("--version").stdout
    assert version.startswith("rulesdb, version ")
    # first use: two commands at once, one build
    first = [subprocess.Popen([rulesdb, "rule", "702.19b"], cwd=work, env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for _ in range(2)]
    outputs = [(p.wait(timeout=900), *p.communicate()) for p in first]
    assert [code for code, _, _ in outputs] == [0, 0], outputs
    assert all(out.startswith("702.19b (cr-2026-01-16)") for _, out, _ in outputs)
    database = home / ".local" / "share" / "rulesdb" / "rules.db"
    assert sum(f"built {database}: 123 documents" in err for _, _, err in outputs) == 1, outputs

    later = run("glossary", "tapped")
    assert later.stderr == "" and later.stdout.startswith("Tapped (cr-2026-01-16")
    # the judges' documents ship with the corpus
    assert run("rule", "4.2", "--doc", "mtr").stdout.startswith(
        "4.2 Tournament Shortcuts (mtr-2026-02-27)")
    hits = json.loads(run("search", "can a tapped creature block", "--json").stdout)["hits"]
    assert hits[0]["number"] == "509.1a"
    diff = json.loads(run("diff", "cr-2025-11-14", "cr-2026-01-16", "--section", "601",
                          "--json").stdout)
    assert [(c["op"], c["new"]) for c in diff["changes"]] == [("edited", "601.2a")]
    history = json.loads(run("history", "702.19b", "--json").stdout)
    assert (history[0]["doc"], history[0]["number"]) == ("cr-2003-03-15", "502.9b")
    # a lookup imports nothing it does without (the installed program, nothing loaded before)
    for lookup in (["rule", "702.19b"], ["history", "702.19"]):
        loaded = subprocess.run([str(venv / "bin" / "python"), "-c", LOADED, *lookup, "--db",
                                 str(database)], cwd=work, env=env, capture_output=True,
                                text=True, check=True)
        assert loaded.stderr.strip() == "0 []", lookup

    port = free_port()
    server = subprocess.Popen([rulesdb, "serve", "--port", str(port)], cwd=work, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        page = None
        deadline = time.monotonic() + 120
        while page is None and time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/cr-2026-01-16/702.19b",
                                            timeout=30) as response:
                    page = (response.status, response.read().decode())
            except OSError:
                time.sleep(0.5)
    finally:
        server.terminate()
        server.wait(timeout=60)
    assert page is not None and page[0] == 200
    assert "<title>702.19b (cr-2026-01-16) — rulesdb</title>" in page[1]

    (release,) = write_releases(inputs, only=["cr-2024-01-01"])
    added = run("add", str(release), "--json")
    assert [d["id"] for d in json.loads(added.stdout)["documents"]] == ["cr-2024-01-01"]
    aligned = run("align", "cr-2016-08-26", "508.3", "cr-2016-09-30", "508.2", "--note",
                  "set again by a user")
    assert "set by hand (set again by a user)" in aligned.stdout
    info = json.loads(run("info", "--json").stdout)
    assert info["database"]["path"] == str(database)
    assert info["database"]["documents"] == 124
    assert info["user_data"]["releases"] == ["cr-2024-01-01"]

    assert snapshot(work) == {}
    assert snapshot(venv) == before
    assert sorted(str(p.relative_to(home)) for p in home.rglob("*") if p.is_file()) == [
        ".local/share/rulesdb/alignment-overrides.txt",
        ".local/share/rulesdb/releases/cr-2024-01-01/cr-2024-01-01.txt",
        ".local/share/rulesdb/rules.db"]
