"""Time adding a release from each form Wizards publishes besides text (.docx, .doc, .rtf,
.pdf), as a user adds the file they downloaded.

The base is the full history without the five releases that survive only in other forms
(the bundled catalogue less its [[release]] entries, built once). Each run adds one file
to a fresh copy of it with `rulesdb add --json` in a fresh process (interpreter start and
imports included), and prints the wall time and the add's own time; then, in this process,
the time to read the file's text alone and to parse it (the median of the runs). The files:
the shipped .docx and .doc, and the .pdf and .rtf forms of ../shared/corpus/formats when
it is there. A machine check (a fixed CPU loop on both cores at once) is printed before and
after, and the load average: the machine is shared.

Run: python benchmarks/add_forms.py [--runs N]
Target: ≤ 1 s for a PDF, ≤ 1 s for a .docx, .doc or .rtf (issue 30).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from add_corpus import machine_check
from add_release import rulesdb

from rulesdb.ingest import cr_any
from rulesdb.ingest.forms import release_text

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


def main() -> None:
    """Build the history without the other forms' releases, then time adding each file."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    machine_check()
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        base = folder / "base.db"
        built = rulesdb("build", "--db", str(base), "--sources", str(without_other_forms(folder)))
        print(f"base: the history without the five: {len(built['documents'])} documents\n")
        print(f"{'file':<36} {'wall s':>7} {'add s':>6} {'read s':>7} {'parse s':>8}  target")
        worst: dict[str, float] = {}
        for path in forms():
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
            form = path.suffix
            worst[form] = max(worst.get(form, 0.0), wall)
            print(f"{path.name:<36} {wall:>7.2f} {statistics.median(own):>6.2f} {read:>7.2f} "
                  f"{parse:>8.2f}  ≤ {TARGET:g} s wall")
        print("\nworst wall time by form (median of runs): "
              + ", ".join(f"{form} {seconds:.2f} s" for form, seconds in worst.items()))
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    machine_check()


if __name__ == "__main__":
    main()
