"""What the add benchmarks share: an add of files timed in a fresh Python process, as a user's
`rulesdb add` runs it (interpreter start, imports and empty caches included)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

# rulesdb.sources.add.add_files with the layers cut to those named in argv[2] ("all": every one),
# printing what the report says
ADD = """
import json, resource, sys
from pathlib import Path
from rulesdb.sources.add import add_files
from rulesdb.layers import LAYERS
if sys.argv[2] != "all":
    for name in [name for name in LAYERS if name not in sys.argv[2].split(",")]:
        del LAYERS[name]
report = add_files(Path(sys.argv[1]), [Path(path) for path in sys.argv[3:]])
peaks = [resource.getrusage(who).ru_maxrss / 1024
         for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
print(json.dumps({"rules": sum(a.counts.rules for a in report.added if a.counts),
                  "editions": len(report.added), "layers": report.layer_seconds,
                  "peaks": peaks}))
"""


@dataclass(frozen=True)
class Run:
    """One add: wall seconds, CPU seconds of the add and its worker, peak memory (MB) of
    each and their sum (both may peak at once), rules and editions added, seconds per layer."""

    seconds: float
    cpu: float
    peak_main: float
    peak_worker: float
    rules: int
    editions: int
    layers: dict[str, float]

    @property
    def peak_mb(self) -> float:
        """The most memory the add and its worker can have held at once."""
        return self.peak_main + self.peak_worker


def add(db: Path, files: list[Path], layers: list[str] | None = None) -> Run:
    """Add `files` to `db` with only `layers` (None: all) in a fresh process."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        t0 = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-c", ADD, str(db),
             ",".join(layers) if layers is not None else "all", *map(str, files)],
            stdout=out, stderr=err, text=True)
        # this run's own CPU time: the add's and its worker's (which it reaped)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - t0
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if process.returncode:
            raise SystemExit(f"the add failed:\n{err.read()}")
        report = json.loads(out.read())
    return Run(seconds, usage.ru_utime + usage.ru_stime, *report["peaks"], report["rules"],
               report["editions"], report["layers"])
