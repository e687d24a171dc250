"""The rules site under load while `rulesdb add` replaces the database it serves.

Copies --db (the full history, built with `rulesdb build --db PATH`) to a temporary folder,
starts `rulesdb serve` on the copy, and sends pages without pause over --concurrency
connections (rule pages, searches, glossary entries, histories, diffs, Datasette tables)
while `rulesdb add` puts --adds releases (the newest of the history archive, under new
ids) into that copy one after the other. Prints the errors (any answer but 200, or a
connection that failed), the latency percentiles, and when each add replaced the file; the
new editions must be served by the end. Target (issue 20): 0 errors. Exits 1 otherwise.

Usage:
    python benchmarks/load_during_add.py --db /tmp/i20/full.db [--adds 2] [--concurrency 16]
"""

from __future__ import annotations

import argparse
import http.client
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

from serve_latency import ROOT, paths, percentiles, send, start_server

from rulesdb.sources.history import load_archives, read_archive
from rulesdb.sources.release import file_date


def newest_release(folder: Path) -> Path:
    """The newest release of the bundled history archive, written to `folder`."""
    catalog = ROOT / "data" / "sources" / "catalog.toml"
    sources = [s for a in load_archives(catalog) for s in read_archive(a, catalog.parent)]
    newest = max(sources, key=lambda source: file_date(source.name) or "")
    path = folder / newest.name
    path.write_bytes(newest.data)
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, required=True, help="the full-history database")
    parser.add_argument("--adds", type=int, default=2)
    parser.add_argument("--concurrency", type=int, default=16)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rulesdb-load-") as tmp:
        db = Path(tmp) / "rules.db"
        shutil.copyfile(args.db, db)
        release = newest_release(Path(tmp))
        sample = paths(db)
        urls = [u for kind in ("rule", "search", "glossary", "history", "diff", "table")
                for u in sample[kind]]
        process, base = start_server(db)
        stop, lock = threading.Event(), threading.Lock()
        times: list[float] = []
        errors: list[str] = []
        def next_url() -> str | None:
            return None if stop.is_set() else random.choice(urls)

        threads = [threading.Thread(target=send, args=(base, next_url, times, errors, lock))
                   for _ in range(args.concurrency)]
        started = time.perf_counter()
        try:
            for thread in threads:
                thread.start()
            time.sleep(3)
            adds = []
            for index in range(args.adds):
                doc_id = f"cr-2099-01-{index + 1:02d}"
                t0 = time.perf_counter()
                run = subprocess.run([sys.executable, "-m", "rulesdb", "add", str(release),
                                      "--id", doc_id, "--db", str(db)], cwd=ROOT,
                                     capture_output=True, text=True)
                adds.append((doc_id, run.returncode, t0 - started,
                             time.perf_counter() - t0, run.stderr.strip()[-300:]))
                time.sleep(3)  # the next requests meet the new file
            served = {}
            conn = http.client.HTTPConnection(urlsplit(base).netloc, timeout=60)
            for doc_id, *_ in adds:
                conn.request("GET", f"/{doc_id}/702.19")
                response = conn.getresponse()
                response.read()
                served[doc_id] = response.status
            conn.close()
        finally:
            stop.set()
            for thread in threads:
                thread.join()
            process.terminate()
            process.wait(timeout=10)
        elapsed = time.perf_counter() - started
    for doc_id, code, at, seconds, err in adds:
        print(f"add {doc_id}: exit {code} at {at:5.1f} s, took {seconds:5.1f} s; served after: "
              f"HTTP {served[doc_id]}" + (f"  ({err})" if code else ""))
    s = percentiles(times)
    print(f"load       {len(times)} answers over {args.concurrency} connections in {elapsed:.0f} "
          f"s: p50 {s['p50']:.0f} ms  p95 {s['p95']:.0f} ms  p99 {s['p99']:.0f} ms  max "
          f"{max(times) * 1000:.0f} ms  errors {len(errors)}  (target 0 errors: "
          f"{'met' if not errors else 'MISSED'})")
    for line in errors[:10]:
        print(f"  error: {line}")
    failed = errors or any(code for _, code, *_ in adds) or any(
        status != 200 for status in served.values())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
