"""Speed of `rulesdb trace` scanning: a generated tree of ≥ 100 MB of mixed-language source.

Run: python benchmarks/trace_speed.py [--mb 100] [--workers N]
Target (issues 6 and 21): ≥ 20 MB/s on the project machine (2 cores), with the SARIF log
made. Prints MB/s and citations/s for the scan alone (serial and with the process pool),
for scan + status checks, and for scan + status + SARIF log.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import sqlite3
import tempfile
import time
from pathlib import Path

from rulesdb.sources.build import build
from rulesdb.trace.report import sarif
from rulesdb.trace.scan import scan
from rulesdb.trace.status import Checker

SOURCES = Path(__file__).resolve().parent.parent / "data" / "sources"

# ext: (comment, class open, method open, method close, class close, string call, statement)
LANGUAGES = {
    "java": ("//", "public class {C} {{", "    public void {f}(Game game, int n) {{", "    }}",
             "}}", '        game.log("{s}");', "        int {v} = game.value({n}) * 2;"),
    "kt": ("//", "class {C} {{", "    fun {f}(game: Game, n: Int) {{", "    }}", "}}",
           '        game.log("{s}")', "        val {v} = game.value({n}) * 2"),
    "cs": ("//", "public class {C} {{", "    public void {f}(Game game, int n) {{", "    }}",
           "}}", '        game.Log("{s}");', "        var {v} = game.Value({n}) * 2;"),
    "ts": ("//", "export class {C} {{", "  {f}(game: Game, n: number): void {{", "  }}", "}}",
           "    game.log('{s}');", "    const {v} = game.value({n}) * 2;"),
    "rs": ("//", "impl {C} {{", "    pub fn {f}(&self, game: &mut Game, n: i32) {{", "    }}",
           "}}", '        game.log("{s}");', "        let {v} = game.value({n}) * 2;"),
    "go": ("//", "type {C} struct{{}}", "func (r *{C}) {f}(game *Game, n int) {{", "}}", "",
           '\tgame.Log("{s}")', "\t{v} := game.Value({n}) * 2"),
    "cpp": ("//", "class {C} {{\n  public:", "    void {f}(Game& game, int n) {{", "    }}",
            "}};", '        game.log("{s}");', "        int {v} = game.value({n}) * 2;"),
    "py": ("#", "class {C}:", "    def {f}(self, game, n):", "", "",
           '        game.log("{s}")', "        {v} = game.value({n}) * 2"),
}
CITES = ["CR 704.5a: a player at 0 life loses", "704.5g lethal damage", "rules 704.5f-h",
         "702.19b trample", "see rule 702.2c (deathtouch)", "20091005 - 502.9a",
         "https://yawgatog.com/resources/magic-rules/#R70215b", "704.5q/704.5r counters"]
MESSAGES = ["player {n} draws", "invalid target", "combat damage step", "timeout after 1.5s",
            "version 2.3.1", "connecting to 10.0.0.{n}"]


def generate(root: Path, megabytes: int, seed: int = 6) -> tuple[int, int]:
    """Write the tree; its size in bytes and number of files."""
    rng = random.Random(seed)
    size = files = 0
    while size < megabytes * 1_000_000:
        ext = rng.choice(list(LANGUAGES))
        comment, class_open, method, close, class_close, call, statement = LANGUAGES[ext]
        cls = f"Engine{files}"
        cites = rng.random() < 0.5  # half the files cite rules at all
        lines = ["package engine"] if ext == "go" else []
        lines.append(class_open.format(C=cls))
        for k in range(rng.randint(40, 120)):
            lines.append(method.format(C=cls, f=f"handle{k}"))
            for _ in range(rng.randint(6, 24)):
                roll = rng.random()
                if cites and roll < 0.04:
                    lines.append(f"        {comment} {rng.choice(CITES)}")
                elif roll < 0.15:
                    lines.append(f"        {comment} update the state for step {rng.randint(1, 9)}")
                elif roll < 0.35:
                    lines.append(call.format(s=rng.choice(MESSAGES).format(n=rng.randint(1, 99))))
                else:
                    lines.append(statement.format(v=f"v{rng.randint(0, 999)}",
                                                  n=round(rng.random() * 10, 2)))
            if close:
                lines.append(close.format())
        if class_close:
            lines.append(class_close.format())
        data = ("\n".join(lines) + "\n").encode()
        folder = root / f"pkg{files // 100}"
        folder.mkdir(exist_ok=True)
        (folder / f"engine{files}.{ext}").write_bytes(data)
        size += len(data)
        files += 1
    return size, files


def _cpu() -> float:
    """CPU seconds of this process and its finished children."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def main() -> None:
    """Generate the tree, scan it serially and in parallel, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mb", type=int, default=100)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--db", type=Path, default=None,
                        help="a built database to use [default: build one in a temp dir]")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "tree"
        root.mkdir()
        size, files = generate(root, args.mb)
        db_path = args.db or Path(tmp) / "rules.db"
        if args.db is None:
            build(db_path, SOURCES, seeds_only=True)
        checker = Checker(sqlite3.connect(db_path), "cr-2025-06-06-chapter7")
        print(f"tree: {size / 1e6:.1f} MB in {files} files")
        print(f"load average before scanning: {os.getloadavg()[0]:.2f} on {os.cpu_count()} "
              "cores (other processes slow the wall-clock figures down)")
        for label, workers in (("serial", 1), ("pool", args.workers)):
            started, cpu = time.perf_counter(), _cpu()
            result = scan(root, checker.known, workers=workers)
            seconds, cpu = time.perf_counter() - started, _cpu() - cpu
            print(f"scan {label:6}: {seconds:6.2f} s  {result.bytes / 1e6 / seconds:6.1f} MB/s  "
                  f"{len(result.citations) / seconds:9.0f} citations/s  "
                  f"({len(result.citations)} citations; {cpu:.2f} CPU s, "
                  f"{result.bytes / 1e6 / cpu:.1f} MB per CPU s)")
        started = time.perf_counter()
        items = [(c, checker.check(c)) for c in result.citations]
        check_seconds = time.perf_counter() - started
        total = seconds + check_seconds
        print(f"status checks: {check_seconds:.2f} s for {len(items)} citations")
        print(f"scan (pool) + status: {size / 1e6 / total:.1f} MB/s  (target ≥ 20 MB/s)")
        started = time.perf_counter()
        log = json.dumps(sarif(items, root, checker.edition, "bench"))
        sarif_seconds = time.perf_counter() - started
        total += sarif_seconds
        print(f"SARIF log: {sarif_seconds:.2f} s, {len(log) / 1e6:.1f} MB")
        print(f"scan (pool) + status + SARIF: {size / 1e6 / total:.1f} MB/s  "
              "(target ≥ 20 MB/s, issue 21)")


if __name__ == "__main__":
    main()
