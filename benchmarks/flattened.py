"""Every release of the history archive with its line breaks lost: how much of it the
flattened text still gives.

Run: python benchmarks/flattened.py [DIR]

Each release (of the archive shipped in data/history, or the .txt files of DIR) is read
as `rulesdb add` reads it, then flattened as the bundled 2009 document is (every run of
whitespace one space) and read again, the flattened form recognized by itself
(`rulesdb.ingest.cr_any`). Printed per release, against the release itself: rule recall
(its numbered items found, by number), precision (items found that it has), text agreement
(items found with the same text and examples, spacing aside), glossary recall and precision
(entries with the same heading, definition and examples), and the seconds the flattened
text takes to parse. Then the worst of each and the targets: rules 1.000, glossary 0.995,
1 s a release; the exit code is 1 when one is missed.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

from rulesdb.ingest import cr_any
from rulesdb.ingest.decode import decode
from rulesdb.ingest.model import GlossaryEntry, Rule
from rulesdb.sources.history import load_archives, read_archive
from rulesdb.sources.release import Source, parse_release

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "data" / "sources" / "catalog.toml"
TARGETS = {"rule recall": 1.0, "rule precision": 1.0, "text agreement": 1.0,
           "glossary recall": 0.995, "glossary precision": 0.995}
MAX_SECONDS = 1.0


def _spaced(text: str) -> str:
    return " ".join(text.split())


def _sources(folder: Path | None) -> list[Source]:
    if folder is None:
        return [source for archive in load_archives(CATALOG)
                for source in read_archive(archive, CATALOG.parent)]
    return [Source(path.name, path.read_bytes(), str(path))
            for path in sorted(folder.glob("*.txt"))]


def _ratio(part: int, whole: int) -> float:
    return part / whole if whole else 1.0


def measure(source: Source) -> dict[str, float]:
    """The figures of one release and of its flattened form."""
    release = parse_release(source)
    flat = _spaced(decode(source.data))
    started = time.perf_counter()
    parser = cr_any.parser_for(flat)
    doc = cr_any.parse_text(flat)
    seconds = time.perf_counter() - started
    numbers = Counter(rule.number for rule in release.rules)
    found = Counter(rule.number for rule in doc.rules)
    same = sum((numbers & found).values())

    def rule(r: Rule) -> tuple:  # its number, text and examples, spacing aside
        return r.number, _spaced(r.text), tuple(_spaced(e.text) for e in r.examples)

    def entry(g: GlossaryEntry) -> tuple:  # its heading, definition and examples
        return g.heading, _spaced(g.definition), tuple(_spaced(e.text) for e in g.examples)

    agreeing = sum((Counter(map(rule, release.rules)) & Counter(map(rule, doc.rules))).values())
    entries = sum((Counter(map(entry, release.glossary))
                   & Counter(map(entry, doc.glossary))).values())
    return {
        "rule recall": _ratio(same, sum(numbers.values())),
        "rule precision": _ratio(same, sum(found.values())),
        "text agreement": _ratio(agreeing, same),
        "glossary recall": _ratio(entries, len(release.glossary)),
        "glossary precision": _ratio(entries, len(doc.glossary)),
        "seconds": seconds,
        "recognized": float(parser == "cr_flat"),
        "rules": len(release.rules),
        "entries": len(release.glossary),
    }


def main() -> None:
    """Measure every release and print the figures, the worst and the targets."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dir", nargs="?", type=Path,
                        help="a folder of .txt releases [default: the shipped archive]")
    args = parser.parse_args()
    sources = _sources(args.dir)
    if not sources:
        raise SystemExit(f"no .txt files in {args.dir}")
    names = list(TARGETS)
    print(f"{'release':<40} {'rules':>5} {'gloss':>5}  " + " ".join(
        f"{name.replace('glossary', 'gl.'):>14}" for name in names) + f" {'s':>5}")
    results = {}
    for source in sources:
        figures = results[source.name] = measure(source)
        print(f"{source.name:<40} {figures['rules']:>5.0f} {figures['entries']:>5.0f}  "
              + " ".join(f"{figures[name]:>14.4f}" for name in names)
              + f" {figures['seconds']:>5.2f}")
    print(f"\n{len(results)} releases, each flattened")
    missed = []
    for name in [*names, "seconds"]:
        pick = max if name == "seconds" else min
        worst = pick(results, key=lambda release, name=name: results[release][name])
        value = results[worst][name]
        target = MAX_SECONDS if name == "seconds" else TARGETS[name]
        ok = value <= target if name == "seconds" else value >= target
        missed += [] if ok else [name]
        print(f"worst {name:<19} {value:.4f}  ({worst}; target "
              f"{'<=' if name == 'seconds' else '>='} {target})")
    unrecognized = [name for name, figures in results.items() if not figures["recognized"]]
    if unrecognized:
        missed.append("recognized as flattened")
        print(f"not recognized as flattened: {', '.join(unrecognized)}")
    print("all targets met" if not missed else f"targets missed: {', '.join(missed)}")
    sys.exit(1 if missed else 0)


if __name__ == "__main__":
    main()
