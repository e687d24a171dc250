"""Time `rulesdb add` of a new release into the full-history database, as a user adds the
next Comprehensive Rules release to the database `rulesdb build` made.

The new release is the newest of the bundled history archive: the catalogue is copied with
an archive that lacks it, and `rulesdb build` of that copy is the database as it stood
before the release came out (about 35 s). Each run adds the release to a fresh copy of it
with `rulesdb add --json` in a fresh process (interpreter start and imports included), and
prints the wall time and the add's own time. For comparison, the same add into the
`--seeds-only` build. A machine check (a fixed CPU loop on both cores at once) is printed
before and after: the machine's speed varies by up to a third between days.

Run: python benchmarks/add_release.py [--runs N]
Target: ≤ 1 s (issue 24: "adding a release stays ≤ 1 s").
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from add_corpus import installed_env, machine_check

from rulesdb.sources.history import load_archives, load_releases, read_archive
from rulesdb.sources.release import file_date

SOURCES = Path(__file__).resolve().parent.parent / "data" / "sources"
TARGET = 1.0


def rulesdb(*args: str) -> dict:
    """The JSON report of a `rulesdb` command run in a fresh process."""
    out = subprocess.run([sys.executable, "-m", "rulesdb", *args, "--json"], check=True,
                         capture_output=True, text=True, env=installed_env()).stdout
    return json.loads(out)


def without_newest(folder: Path) -> Path:
    """The bundled catalogue (and overrides file) copied to `folder`, its history archive
    without its newest release; that release, written beside."""
    catalog = SOURCES / "catalog.toml"
    (archive,) = load_archives(catalog)
    sources = read_archive(archive, catalog.parent)
    newest = max(sources, key=lambda source: file_date(source.name) or "")
    copied = folder / "sources"
    shutil.copytree(SOURCES, copied)
    # the overrides `build` and `add` read beside the sources folder, and the judges'
    # documents the catalogue names there
    shutil.copyfile(SOURCES.parent / "alignment-overrides.txt", folder / "alignment-overrides.txt")
    (folder / "policy").symlink_to(SOURCES.parent / "policy")
    history = folder / "history"
    history.mkdir()
    for shipped in load_releases(catalog):  # the releases shipped in their other forms
        shutil.copyfile(catalog.parent / shipped.file, history / Path(shipped.file).name)
    tar_path, sums_path = history / "archive.tar.xz", history / "SHA256SUMS"
    with tarfile.open(tar_path, "w:xz") as tar:
        for source in sources:
            if source is not newest:
                member = tarfile.TarInfo(source.name)
                member.size = len(source.data)
                tar.addfile(member, io.BytesIO(source.data))
    sums_path.write_text("".join(f"{hashlib.sha256(source.data).hexdigest()}  {source.name}\n"
                                 for source in sources if source is not newest))
    text = (copied / "catalog.toml").read_text(encoding="utf-8")
    for old, new in ((archive.file, "../history/archive.tar.xz"),
                     (archive.sums, "../history/SHA256SUMS"),
                     (archive.sha256, hashlib.sha256(tar_path.read_bytes()).hexdigest()),
                     (archive.sums_sha256, hashlib.sha256(sums_path.read_bytes()).hexdigest())):
        text = text.replace(f'"{old}"', f'"{new}"')
    (copied / "catalog.toml").write_text(text, encoding="utf-8")
    release = folder / newest.name
    release.write_bytes(newest.data)
    return release


def timed_adds(base: Path, release: Path, runs: int, label: str) -> float:
    """Median wall seconds of `runs` adds of `release`, each into a fresh copy of `base`."""
    walls = []
    work = base.with_name("work.db")
    for run in range(runs):
        shutil.copyfile(base, work)
        started = time.perf_counter()
        report = rulesdb("add", str(release), "--db", str(work))
        wall = time.perf_counter() - started
        walls.append(wall)
        added = report["documents"][0]
        print(f"{label}, run {run + 1}: {wall:.2f} s wall (add itself {report['seconds']:.2f} s;"
              f" {added['id']} {added['action']}, {added['rules']} rules)")
    work.unlink()
    median = statistics.median(walls)
    print(f"{label}: median of {runs} {median:.2f} s (target ≤ {TARGET:g} s)\n")
    return median


def main() -> None:
    """Build the database before the newest release and time adding it."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    machine_check()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        release = without_newest(folder)
        before = folder / "before.db"
        built = rulesdb("build", "--db", str(before), "--sources", str(folder / "sources"))
        print(f"new release: {release.name}; the full history without it: "
              f"{len(built['documents'])} documents\n")
        timed_adds(before, release, args.runs, "into the full history")
        seeds = folder / "seeds.db"
        rulesdb("build", "--db", str(seeds), "--seeds-only")
        timed_adds(seeds, release, args.runs, "into the --seeds-only build")
    machine_check()


if __name__ == "__main__":
    main()
