"""A researcher's whole history in one `rulesdb add`: time and memory as the editions grow.

Run: python benchmarks/add_history.py [DIR] [--copies 1,5,15]

Each CR release of DIR (default ../shared/corpus/cr) is written COPIES times, its printed
effective date moved on by a week per copy, and the folder is added into an empty database
in a fresh process, as a researcher loading every release since 2003 does, once per COPIES
given. Printed per run: editions, MB of source, seconds, MB/s, rules/s, CPU seconds of the
add and its worker, peak memory (of the two processes together), database MB per edition,
and the seconds per edition of the whole add and of each layer. The per-edition figures must
stay flat as the history grows: a step whose cost grows with the square of the editions
shows as a rising column (concept links did, until a CR glossary entry read only its own
edition's targets).

The copies repeat their release word for word, where real consecutive releases differ a
little; the caches that make a repeated text cheap help them more than they would a real
history. Read the per-edition columns as what must not grow, not the MB/s as a real
history's (benchmarks/add_corpus.py times the real releases).
"""

from __future__ import annotations

import argparse
import re
import tempfile
from datetime import date, timedelta
from pathlib import Path

import fresh_add

from rulesdb.ingest.decode import decode

ROOT = Path(__file__).resolve().parent.parent
MB = 1024 * 1024
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")
PRINTED_DATE = re.compile(r"((?:current|effective) as of )(\w+) (\d{1,2}), (\d{4})")


def main() -> None:
    """Add histories of growing length and print their figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("dir", nargs="?", type=Path, default=ROOT.parent / "shared/corpus/cr")
    parser.add_argument("--copies", default="1,5,15",
                        help="Comma-separated copies of each release per run [default: 1,5,15].")
    args = parser.parse_args()
    files = sorted(args.dir.glob("*.txt"))
    if not files:
        raise SystemExit(f"no .txt files in {args.dir}")
    releases = [_release(path) for path in files]
    print(f"{len(files)} releases of {args.dir}, each stored COPIES times a week apart\n")
    print(f"{'copies':>6} {'editions':>8} {'MB':>6} {'s':>6} {'MB/s':>5} {'rules/s':>7} "
          f"{'CPU s':>6} {'peak MB':>7} {'MB/ed':>6} {'s/ed':>6}  layers (s per edition)")
    for copies in (int(count) for count in args.copies.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / "history"
            folder.mkdir()
            megabytes = _write_history(folder, releases, copies)
            _run(folder, Path(tmp) / "history.db", copies, megabytes)


def _release(path: Path) -> tuple[str, date]:
    """A release's text as rulesdb reads it (any encoding), and its printed date."""
    text = decode(path.read_bytes())
    match = PRINTED_DATE.search(text)
    if not match:
        raise SystemExit(f"{path}: no printed effective date to move")
    return text, date(int(match[4]), MONTHS.index(match[2]) + 1, int(match[3]))


def _write_history(folder: Path, releases: list[tuple[str, date]], copies: int) -> float:
    """Each release `copies` times, a week apart, as UTF-8 files; their size in MB."""
    size = 0
    for text, printed in releases:
        for copy in range(copies):
            day = printed + timedelta(days=7 * copy)
            moved = PRINTED_DATE.sub(
                lambda m, day=day: f"{m[1]}{MONTHS[day.month - 1]} {day.day}, {day.year}", text)
            data = moved.encode()
            (folder / f"cr-{day.isoformat()}.txt").write_bytes(data)
            size += len(data)
    return size / MB


def _run(folder: Path, db: Path, copies: int, megabytes: float) -> None:
    """One fresh-process add of the folder, printed as one line."""
    run = fresh_add.add(db, sorted(folder.glob("*.txt")))
    editions = run.editions
    layers = " ".join(f"{name} {s / editions:.3f}" for name, s in run.layers.items())
    print(f"{copies:6} {editions:8} {megabytes:6.1f} {run.seconds:6.2f} "
          f"{megabytes / run.seconds:5.2f} {run.rules / run.seconds:7.0f} {run.cpu:6.2f} "
          f"{run.peak_mb:7.0f} {db.stat().st_size / MB / editions:6.2f} "
          f"{run.seconds / editions:6.3f}  {layers}", flush=True)


if __name__ == "__main__":
    main()
