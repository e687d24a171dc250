"""Time adding a release from each form Wizards publishes besides text (.docx, .doc, .rtf,
.pdf), as a user adds the file they downloaded.

The base is the bundled build holding the release's predecessor (the newest text release
of the archive before it), as a user adds the release that came out after what they have;
with --full-history, the whole history without the five releases that survive only in
other forms (the catalogue less its [[release]] entries), into which each is added in the
middle: then every later edition's lineage is stored anew (the lineage layer's cost, which
grows with the editions after it). Each run adds one file to a fresh copy of the base with
`rulesdb add --json` in a fresh process (interpreter start and imports included), and
prints the wall time and the add's own time; then, in this process, the time to read the
file's text alone and to parse it (the median of the runs). The files: the shipped .docx
and .doc, and the .pdf and .rtf forms of ../shared/corpus/formats when it is there. A
machine check (a fixed CPU loop on both cores at once) and the load average are printed
before and after: the machine is shared.

Run: python benchmarks/add_forms.py [--runs N] [--full-history]
Target: ≤ 1 s for a PDF, ≤ 1 s for a .docx, .doc or .rtf (issue 30).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from add_corpus import machine_check
from add_release import rulesdb

from rulesdb.ingest import cr_any
from rulesdb.ingest.forms import release_text
from rulesdb.sources.history import load_archives, read_archive
from rulesdb.sources.release import Source, edition_id, file_date, parse_release

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "data" / "sources"
HISTORY = ROOT / "data" / "history"
FORMATS = ROOT.parent / "shared" / "corpus" / "formats"
TARGET = 1.0


def forms() -> list[Path]:
    """The files to add: one of each form, the PDFs all four."""
    files = [HISTORY / "MagicCompRules-2023-02-03.docx", HISTORY / "MagicCompRules-2003-06-01.doc"]
    if FORMATS.is_dir():
        files += [FORMATS / "MagicCompRules-2003-06-01.rtf", *sorted(FORMATS.glob("*.pdf"))]
    return files


def without_other_forms(folder: Path) -> Path:
    """The bundled catalogue copied to `folder` without its [[release]] entries."""
    copied = folder / "sources"
    shutil.copytree(SOURCES, copied)
    catalog = copied / "catalog.toml"
    text = catalog.read_text(encoding="utf-8")
    catalog.write_text(re.sub(r"\n\[\[release\]\]\n(?:[^\n\[]+\n)+", "\n", text),
                       encoding="utf-8")
    (folder / "history").symlink_to(HISTORY)
    (folder / "policy").symlink_to(SOURCES.parent / "policy")  # the judges' documents
    shutil.copyfile(SOURCES.parent / "alignment-overrides.txt",
                    folder / "alignment-overrides.txt")
    return copied


def in_process(path: Path, runs: int) -> tuple[float, float]:
    """Median seconds to read the file's text, and to parse it."""
    reads, parses = [], []
    data = path.read_bytes()
    for _ in range(runs):
        started = time.perf_counter()
        _, text = release_text(data)
        read = time.perf_counter()
        cr_any.parse_text(text)
        reads.append(read - started)
        parses.append(time.perf_counter() - read)
    return statistics.median(reads), statistics.median(parses)


def predecessor_base(folder: Path, path: Path, seeds: Path) -> Path:
    """A copy of the `seeds` build holding the archive's last text release before `path`'s."""
    source = Source(path.name, path.read_bytes(), path.name)
    day = edition_id(parse_release(source), source).removeprefix("cr-")
    catalog = SOURCES / "catalog.toml"
    (archive,) = load_archives(catalog)
    before = max((s for s in read_archive(archive, catalog.parent)
                  if (file_date(s.name) or "") < day), key=lambda s: file_date(s.name) or "")
    (folder / before.name).write_bytes(before.data)
    base = folder / f"base-{day}.db"
    shutil.copyfile(seeds, base)
    rulesdb("add", str(folder / before.name), "--db", str(base))
    return base


def load() -> str:
    return "load average: " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def held(db: Path, path: Path) -> bool:
    """Whether the database holds the edition of the file's date (an early PDF's text twin
    is in the history: adding it again is refused)."""
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT 1 FROM documents WHERE id = ?",
                            [f"cr-{file_date(path.name)}"]).fetchone() is not None


def main() -> None:
    """Make each base, then time adding each file to it."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--full-history", action="store_true")
    args = parser.parse_args()
    machine_check()
    print(load())
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if args.full_history:
            history = folder / "history.db"
            rulesdb("build", "--db", str(history), "--sources", str(without_other_forms(folder)))
            print("base: the history without the five releases in other forms\n")
        else:
            seeds = folder / "seeds.db"
            rulesdb("build", "--db", str(seeds), "--seeds-only")
            print("base: the bundled build holding the release's predecessor\n")
        print(f"{'file':<36} {'wall s':>7} {'add s':>6} {'read s':>7} {'parse s':>8}  target")
        worst: dict[str, float] = {}
        for path in forms():
            if args.full_history and held(history, path):
                print(f"{path.name:<36} its edition is in the history as text: not added")
                continue
            base = history if args.full_history else predecessor_base(folder, path, seeds)
            walls, own = [], []
            work = folder / "work.db"
            for _ in range(args.runs):
                shutil.copyfile(base, work)
                started = time.perf_counter()
                report = rulesdb("add", str(path), "--db", str(work))
                walls.append(time.perf_counter() - started)
                own.append(report["seconds"])
                assert report["documents"][0]["action"] == "added", report
            read, parse = in_process(path, args.runs)
            wall = statistics.median(walls)
            worst[path.suffix] = max(worst.get(path.suffix, 0.0), wall)
            print(f"{path.name:<36} {wall:>7.2f} {statistics.median(own):>6.2f} {read:>7.2f} "
                  f"{parse:>8.2f}  ≤ {TARGET:g} s wall")
        print("\nworst wall time by form (median of runs): "
              + ", ".join(f"{form} {seconds:.2f} s" for form, seconds in worst.items()))
    print(load())
    machine_check()


if __name__ == "__main__":
    main()
