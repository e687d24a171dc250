"""Time `rulesdb add` over every CR text file of a folder; database size per edition.

Run: python benchmarks/add_corpus.py [DIR] [--bare] [--layers a,b]
(DIR defaults to ../shared/corpus/cr; --layers runs only the named layers, to tell the cost of
ingest itself from that of each layer)

1. one file at a time, as a user adding each new release does, into a database that starts
   with the bundled documents (--bare: empty), in this process (imports done, caches warm
   after the first file): per file MB/s of source, rules/s, seconds, the time of each layer,
   and how much the database grew;
2. all files in one `add` (layers run once over all of them), each run a fresh process as
   `rulesdb add DIR` is (imports and empty caches included; the MB/s figure of the target),
   then again with the layers taken in turn (ingest alone, then each layer added): what
   each costs the MB/s;
3. storage: database size, how much of the rule text repeats across editions, and what the
   shared `texts` table keeps of it;
4. `rulesdb add` of the newest file in a fresh process (as a user runs it), median of --runs,
   into a copy of the bundled build, into one that holds the folder's other files too
   (the newest release's predecessor is there, as when a user adds each new release), and
   into that one with the other files stored 4 more times under made-up dates (a database
   of many editions, as a researcher's of every release since 2003);
5. spaCy's share of any add of the folder (importing it, tokenizing each distinct text once),
   against the wall time 5 MB/s allows.
Targets (issue 3): one full modern release ≤ 1.5 s; ≥ 5 MB/s of source.

The project machine is a VM whose speed varies with its host's load (by up to two times
between days): a machine check, a fixed CPU loop run on both cores at once, is printed
before and after, to read the figures against.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

import fresh_add

from rulesdb.layers import LAYERS
from rulesdb.sources.add import add_files, parse_release, read_source
from rulesdb.sources.build import build

ROOT = Path(__file__).resolve().parent.parent
MB = 1024 * 1024


def main() -> None:
    """Add the folder's files one by one, then all at once, and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("dir", nargs="?", type=Path, default=ROOT.parent / "shared/corpus/cr")
    parser.add_argument("--bare", action="store_true", help="Start from an empty database.")
    parser.add_argument("--layers", help="Comma-separated layers to run [default: all].")
    parser.add_argument("--runs", type=int, default=5, help="Fresh-process runs [default: 5].")
    args = parser.parse_args()
    if args.layers:
        wanted = args.layers.split(",")
        for name in list(LAYERS):
            if name not in wanted:
                del LAYERS[name]
    print(f"layers: {', '.join(LAYERS)}")
    files = sorted(args.dir.glob("*.txt"))
    if not files:
        raise SystemExit(f"no .txt files in {args.dir}")
    machine_check()
    with tempfile.TemporaryDirectory() as tmp:
        one_by_one(Path(tmp) / "one.db", files, args.bare)
        cpu = all_at_once(Path(tmp), files)
        if not args.layers:
            layer_by_layer(Path(tmp), files)
        if not args.layers:
            fresh_process(Path(tmp), files, args.runs)
            terms_floor(files, cpu)
    machine_check()


LOOP = ("import time; t = time.perf_counter(); sum(range(3 * 10**7)); "
        "print(time.perf_counter() - t)")


def installed_env(**extra: str) -> dict[str, str]:
    """The environment of a `rulesdb` process as a user's install runs it: Python keeps the
    modules' compiled bytecode (a `pip install` writes it; PYTHONDONTWRITEBYTECODE, set on
    some machines, would have every run compile rulesdb again, 60-80 ms), plus `extra`."""
    env = {**os.environ, **extra}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def user_database() -> Path:
    """The user's database (rulesdb.places.user), built first when missing or out of date:
    the default of the benchmarks that read a full-history database."""
    from rulesdb.places import user

    subprocess.run([sys.executable, "-m", "rulesdb", "docs", "--json"], check=True,
                   stdout=subprocess.DEVNULL)
    return user.database()


def machine_check() -> None:
    """How long a fixed CPU loop takes in each of two processes run at once."""
    runs = [subprocess.Popen([sys.executable, "-c", LOOP], stdout=subprocess.PIPE, text=True)
            for _ in range(2)]
    seconds = sorted(float(run.communicate()[0]) for run in runs)
    print(f"\nmachine check: a fixed loop on each of two cores at once takes "
          f"{seconds[0]:.2f} and {seconds[1]:.2f} s (0.33-0.45 s on the quiet project machine)")


def one_by_one(db: Path, files: list[Path], bare: bool) -> None:
    if not bare:
        build(db, ROOT / "data" / "sources", seeds_only=True)
    start_size = db.stat().st_size if db.exists() else 0
    print(f"1. one file at a time into {'an empty database' if bare else 'the bundled build'}"
          f" ({start_size / MB:.1f} MB)\n")
    print(f"{'file':32} {'MB':>5} {'parse':>6} {'store':>6} {'total s':>8} {'MB/s':>6} "
          f"{'rules/s':>8} {'+MB db':>7}  layers (s)")
    size, total_bytes, total_rules, total_seconds = start_size, 0, 0, 0.0
    for path in files:
        data = path.read_bytes()
        t0 = time.perf_counter()
        parse_release(read_source(path))
        parse_seconds = time.perf_counter() - t0
        t0 = time.perf_counter()
        report = add_files(db, [path])
        seconds = time.perf_counter() - t0
        rules = sum(a.counts.rules for a in report.added if a.counts)
        stored = sum(a.seconds for a in report.added)
        grown, size = db.stat().st_size - size, db.stat().st_size
        total_bytes += len(data)
        total_rules += rules
        total_seconds += seconds
        layers = " ".join(f"{name} {s:.2f}" for name, s in report.layer_seconds.items())
        print(f"{path.name:32} {len(data) / MB:5.2f} {parse_seconds:6.3f} {stored:6.3f} "
              f"{seconds:8.3f} "
              f"{len(data) / MB / seconds:6.2f} {rules / seconds:8.0f} {grown / MB:7.2f}  "
              f"{layers}")
    print(f"\n{'total':32} {total_bytes / MB:5.2f} {'':13} {total_seconds:8.3f} "
          f"{total_bytes / MB / total_seconds:6.2f} {total_rules / total_seconds:8.0f} "
          f"{(size - start_size) / MB:7.2f}")
    print(f"database: {size / MB:.1f} MB; {(size - start_size) / MB / len(files):.2f} MB per "
          f"edition added")
    storage(db)


def _megabytes(files: list[Path]) -> float:
    """The size of `files` in MB (of source, as the MB/s figures count it)."""
    return sum(path.stat().st_size for path in files) / MB


RUNS = 3  # fresh-process runs per figure of section 2 (their median is printed)


def _median_add(tmp: Path, files: list[Path], layers: list[str]) -> tuple[fresh_add.Run, int]:
    """The median run (by wall time) of RUNS fresh-process adds of `files` into an empty
    database with `layers`, and the size of the database it made."""
    runs = []
    for run in range(RUNS):
        db = tmp / f"fresh-add-{run}.db"
        runs.append((fresh_add.add(db, files, layers), db.stat().st_size))
        db.unlink()
    return sorted(runs, key=lambda run: run[0].seconds)[RUNS // 2]


def all_at_once(tmp: Path, files: list[Path]) -> float:
    """Add all files at once into an empty database, as `rulesdb add DIR` does: a fresh
    process (imports and empty caches included); the CPU seconds it took."""
    megabytes = _megabytes(files)
    run, size = _median_add(tmp, files, list(LAYERS))
    cores = os.cpu_count() or 1
    layers = ", ".join(f"{name} {s:.2f}" for name, s in run.layers.items())
    print(f"\n2. all {len(files)} files in one add into an empty database, a fresh process "
          f"each time (median of {RUNS}): {run.seconds:.2f} s, "
          f"{megabytes / run.seconds:.2f} MB/s, {run.rules / run.seconds:.0f} rules/s; database "
          f"{size / MB:.1f} MB ({size / MB / len(files):.2f} MB per edition), peak memory "
          f"{run.peak_mb:.0f} MB (main {run.peak_main:.0f}, worker {run.peak_worker:.0f})"
          f"\n   CPU: {run.cpu:.2f} s in both processes, so at least "
          f"{run.cpu / cores:.2f} s of wall time on {cores} cores; layers (s): {layers}")
    return run.cpu


def layer_by_layer(tmp: Path, files: list[Path]) -> None:
    """MB/s of the same add with ingest alone (parse, store, full-text search), then with
    each layer added in LAYERS order."""
    megabytes = _megabytes(files)
    names = list(LAYERS)
    print(f"   the same add with the layers taken in turn (median of {RUNS} each):")
    for count in range(len(names) + 1):
        run, _ = _median_add(tmp, files, names[:count])
        label = "ingest alone" if count == 0 else f"+ {names[count - 1]}"
        print(f"     {label:22} {run.seconds:5.2f} s  {megabytes / run.seconds:5.2f} MB/s")


def fresh_process(tmp: Path, files: list[Path], runs: int) -> None:
    """`rulesdb add` of the newest release as a user runs it, a new Python process each
    time, into three databases, run by run in turn (so all meet the VM's speed of the
    moment): the bundled build (its CR neighbours are the 2009 edition and the 2025 chapter-7
    fragment), that build with the folder's other releases added first (its predecessor is
    there, as for a user adding each new release), and that one with them stored COPIES more
    times (many editions)."""
    newest = files[-1]
    bases = {"into the bundled build": tmp / "bundled.db"}
    build(bases["into the bundled build"], ROOT / "data" / "sources", seeds_only=True)
    if len(files) > 1:
        after = bases["after the folder's other releases"] = tmp / "previous.db"
        shutil.copyfile(bases["into the bundled build"], after)
        add_files(after, files[:-1])
        many = tmp / "many.db"
        shutil.copyfile(after, many)
        count = _copies(many, files[:-1], COPIES)
        bases[f"into {count} CR editions"] = many
    times: dict[str, list[float]] = {label: [] for label in bases}
    for _ in range(runs):
        for label, base in bases.items():
            db = tmp / "fresh.db"
            shutil.copyfile(base, db)
            t0 = time.perf_counter()
            subprocess.run([str(Path(sys.executable).with_name("rulesdb")), "add", str(newest),
                            "--db", str(db)], check=True, capture_output=True)
            times[label].append(time.perf_counter() - t0)
    print(f"\n4. rulesdb add {newest.name} in a fresh process ({runs} runs each, in turn; "
          f"target ≤ 1.5 s):")
    for label, seconds in times.items():
        print(f"   {label:34} median {statistics.median(seconds):.2f} s "
              f"(min {min(seconds):.2f}, max {max(seconds):.2f})")


COPIES = 4  # how many more times the older releases are stored, to time an add into many


def _copies(db: Path, files: list[Path], copies: int) -> int:
    """Store each of `files` `copies` more times under made-up dates between the real ones
    (as a researcher's database of every release holds many editions); how many CR editions
    the database then holds."""
    dates = {path: date.fromisoformat(parse_release(read_source(path)).meta.effective_date
                                      or "2000-01-01") for path in files}
    for copy in range(1, copies + 1):
        for path, real in dates.items():
            day = real + timedelta(days=30 * copy)
            add_files(db, [path], doc_id=f"cr-{day.isoformat()}")
    conn = sqlite3.connect(db)
    count = conn.execute("SELECT count(*) FROM documents WHERE kind = 'comprehensive_rules'"
                         ).fetchone()[0]
    conn.close()
    return count


# The part of any add of the folder that spaCy sets: importing it with its English tokenizer
# and lemma table, then tokenizing each distinct rule and example text once. Run in a fresh
# process (an import is timed), after the imports every add makes anyway.
TERMS_FLOOR = """
import sys, time
from pathlib import Path
from rulesdb.sources.add import parse_release, read_source
from rulesdb.layers import term_matcher, terms
docs = [parse_release(read_source(Path(p))) for p in sys.argv[1:]]
texts = terms.texts_of(docs)
t0 = time.perf_counter()
term_matcher.warm_up()
t1 = time.perf_counter()
term_matcher.tokenize(texts, term_matcher.Lexicon())
t2 = time.perf_counter()
print(len(texts), t1 - t0, t2 - t1)
"""


def terms_floor(files: list[Path], cpu_all: float) -> None:
    """What spaCy alone costs an add of the folder, against what 5 MB/s allows."""
    out = subprocess.run([sys.executable, "-c", TERMS_FLOOR, *map(str, files)], check=True,
                         capture_output=True, text=True).stdout.split()
    count, warm, tokenizing = int(out[0]), float(out[1]), float(out[2])
    spacy = warm + tokenizing
    megabytes = _megabytes(files)
    cores = os.cpu_count() or 1
    allowed = megabytes / 5
    print(f"\n5. spaCy's share of adding the folder: importing it with its tokenizer and lemma "
          f"table {warm:.2f} s, tokenizing the {count} distinct texts {tokenizing:.2f} s, "
          f"{spacy:.2f} CPU-s in all.\n   5 MB/s allows {allowed:.2f} s of wall time, "
          f"{allowed * cores:.2f} CPU-s on {cores} cores, for the whole add: "
          f"{allowed * cores - spacy:.2f} CPU-s for the rest, which takes about "
          f"{cpu_all - spacy:.2f} now (2. above)")


def storage(db: Path) -> None:
    conn = sqlite3.connect(db)
    total, distinct = conn.execute(
        "SELECT sum(length(text)), (SELECT sum(length(t)) FROM (SELECT DISTINCT text AS t "
        "FROM rules)) FROM rules").fetchone()
    stored = conn.execute("SELECT sum(length(text)) FROM texts").fetchone()[0]
    packed, raw = conn.execute("SELECT sum(length(data)), sum(size) FROM document_sources"
                               ).fetchone()
    tables = conn.execute(
        "SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC LIMIT 6").fetchall()
    conn.close()
    print(f"\n3. storage: rule texts {total / MB:.2f} MB, of which distinct {distinct / MB:.2f} MB "
          f"({100 * (1 - distinct / total):.0f}% repeats an earlier edition's text); the texts "
          f"table stores {stored / MB:.2f} MB of text")
    print(f"   added sources kept for rebuilds: {raw / MB:.2f} MB stored zlib-compressed as "
          f"{packed / MB:.2f} MB")
    print("   largest tables: " + ", ".join(f"{name} {size / MB:.1f} MB" for name, size in tables))


if __name__ == "__main__":
    main()
