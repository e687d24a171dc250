"""Wall time of each analysis notebook run top to bottom (nbclient), against the bundled
database and, when ../shared/corpus/cr is present, a database with the corpus added.

Run: python benchmarks/notebooks.py [--runs N]
Target (issue 8): each notebook under 60 s. The databases are built first (not timed; their
build time is printed apart).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from rulesdb.sources.add import add_files
from rulesdb.sources.build import build

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ["rules_evolution", "diff_explorer", "engine_coverage"]
CORPUS = ROOT.parent / "shared" / "corpus" / "cr"


def run(name: str, db_path: Path) -> float:
    """Seconds to execute one notebook, kernel start included."""
    os.environ["RULESDB_DB"] = str(db_path)
    nb = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
    started = time.perf_counter()
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        databases = {}
        started = time.perf_counter()
        databases["bundled"] = Path(tmp) / "bundled.db"
        build(databases["bundled"], ROOT / "data" / "sources", seeds_only=True)
        print(f"built bundled database in {time.perf_counter() - started:.1f} s")
        corpus = sorted(CORPUS.glob("*.txt")) if CORPUS.is_dir() else []
        if corpus:
            started = time.perf_counter()
            databases["corpus"] = Path(tmp) / "corpus.db"
            build(databases["corpus"], ROOT / "data" / "sources", seeds_only=True)
            add_files(databases["corpus"], corpus)
            print(f"built corpus database ({len(corpus)} releases added) in "
                  f"{time.perf_counter() - started:.1f} s")
        print(f"{'database':10} {'notebook':17} {'median s':>9} {'max s':>7}  target 60 s")
        for label, path in databases.items():
            for name in NOTEBOOKS:
                times = [run(name, path) for _ in range(args.runs)]
                print(f"{label:10} {name:17} {statistics.median(times):9.2f} "
                      f"{max(times):7.2f}  {'ok' if max(times) < 60 else 'OVER'}")


if __name__ == "__main__":
    main()
