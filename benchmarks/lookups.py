"""Lookup latency at full size, as a user's install runs it: each of the issue's commands (and
lookups of the judges' documents, issue 39) a fresh process of the `rulesdb` program of an
installed wheel (bytecode compiled at install, as pip does), against a bare `python -c pass`
of the same interpreter, on the full-history database and, for comparison, on the seeds
alone.

Prints the machine check, then per command the median and the slowest of --runs runs, the
ratio of the median to `python -c pass`'s, and the targets: the ratio ≤ 3.5 for `rule
702.19b` and `glossary tapped`, ≤ 5 for `history 702.19` (issue 41, item 7), and ≤ 150 ms
median for every command (issue 18). Last, `rule 702.19b` on the default database (no --db,
found in the user data folder as most people run it: platformdirs names the folder).

Run: python benchmarks/lookups.py [--db FULL.db] [--runs N] [--editable]
Without --db the user's database (rulesdb.places.user) is used, built first when missing.
The wheel is built from this checkout into a temporary venv that takes its dependencies from
the running environment; --editable times the checkout's own `rulesdb` instead.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

from add_corpus import installed_env, machine_check, user_database

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = [["rule", "702.19b"], ["glossary", "tapped"], ["history", "702.19"],
            ["rule", "702.19"], ["refs", "702.19b"], ["search", "trample"],
            # the judges' documents: a kind's newest edition, an infraction with its parts
            ["rule", "4.2", "--doc", "mtr"], ["rule", "2.1", "--doc", "ipg"],
            ["infractions", "--penalty", "game loss"]]
RATIO_TARGETS = {("rule", "702.19b"): 3.5, ("glossary", "tapped"): 3.5,
                 ("history", "702.19"): 5.0}
TARGET = 0.150


def timed(argv: list[str], env: dict[str, str] | None = None) -> float:
    """Wall seconds of one process (its output read and dropped), in `env` (default: a
    user's install's, installed_env)."""
    started = time.perf_counter()
    subprocess.run(argv, check=True, capture_output=True, env=env or installed_env())
    return time.perf_counter() - started


def installed(folder: Path) -> tuple[Path, Path]:
    """(python, rulesdb) of a venv in `folder` holding this checkout's wheel, installed with
    its bytecode compiled; its dependencies are the running environment's."""
    dist = folder / "dist"
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(dist), str(ROOT)],
                   check=True, capture_output=True)
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    (wheel,) = dist.glob("*.whl")
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", str(wheel)],
                   check=True, capture_output=True)
    purelib = subprocess.run([str(python), "-c", "import sysconfig; "
                              "print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True).stdout.strip()
    Path(purelib, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return python, venv / "bin" / "rulesdb"


def main() -> None:
    """Time every command on each database and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, help="a full-history database already built")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--editable", action="store_true",
                        help="time this checkout's own rulesdb, not an installed wheel")
    args = parser.parse_args()
    full = args.db or user_database()
    with tempfile.TemporaryDirectory() as tmp:
        if args.editable:
            python, program = Path(sys.executable), Path(sys.executable).with_name("rulesdb")
        else:
            python, program = installed(Path(tmp))
        seeds = Path(tmp) / "seeds.db"
        subprocess.run([str(program), "build", "--db", str(seeds), "--seeds-only", "--json"],
                       check=True, capture_output=True)
        machine_check()
        timed([str(python), "-c", "pass"])
        bare = statistics.median(timed([str(python), "-c", "pass"]) for _ in range(args.runs))
        kind = "this checkout" if args.editable else "an installed wheel"
        print(f"{'python -c pass':40} {bare * 1000:8.0f} ms   (rulesdb: {kind}; medians of "
              f"{args.runs})\n")
        print(f"{'command':40} {'full history':>22} {'ratio':>6} {'seeds only':>11}   targets")
        for command in COMMANDS:
            figures = []
            for db in (full, seeds):
                argv = [str(program), *command, "--db", str(db)]
                timed(argv)  # the page cache warm, as for a user's second lookup
                runs = [timed(argv) for _ in range(args.runs)]
                figures.append((statistics.median(runs), max(runs)))
            (median, slowest), (seeds_median, _) = figures
            ratio = median / bare
            targets = [f"≤ {TARGET * 1000:.0f} ms {'ok' if median <= TARGET else 'OVER'}"]
            if tuple(command) in RATIO_TARGETS:
                limit = RATIO_TARGETS[tuple(command)]
                targets.append(f"≤ {limit}x {'ok' if ratio <= limit else 'OVER'}")
            print(f"rulesdb {' '.join(command):32} {median * 1000:8.0f} ms "
                  f"(max {slowest * 1000:4.0f}) {ratio:5.2f}x {seeds_median * 1000:8.0f} ms   "
                  f"{', '.join(targets)}")
        # the default database (no --db), as most people run it: its folder is found by
        # platformdirs, which imports more than a lookup needs (tempfile, shutil, pathlib)
        data_home = Path(tmp) / "data-home"
        (data_home / "rulesdb").mkdir(parents=True)
        (data_home / "rulesdb" / "rules.db").symlink_to(full.resolve())
        argv = [str(program), "rule", "702.19b"]
        env = {name: value for name, value in installed_env(XDG_DATA_HOME=str(data_home)).items()
               if name not in ("RULESDB_DB", "RULESDB_HOME")}
        timed(argv, env)
        median = statistics.median(timed(argv, env) for _ in range(args.runs))
        print(f"{'rulesdb rule 702.19b (default database)':40} {median * 1000:8.0f} ms "
              f"{'':10} {median / bare:5.2f}x   (platformdirs finds its folder; Linux)")
        machine_check()


if __name__ == "__main__":
    main()
