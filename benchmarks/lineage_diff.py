"""Time the alignment of two full modern CR editions against a plain difflib matcher.

Run: python benchmarks/lineage_diff.py [OLD.txt NEW.txt] [--baseline-limit N]
Default pair: ../shared/corpus/cr MagicCompRules-2023-10-13.txt → MagicCompRules-2025-02-07.txt
(≈3,100 rules each). Target (issue 4): `rulesdb diff` of such a pair ≤ 1 s when computed on
the fly.

Prints:
- the project's alignment alone (rulesdb.lineage.align.align over parsed rules), and the whole
  on-the-fly diff (rules read from SQLite, aligned, word-level detail for every edit);
- the baseline: for each old rule in order, difflib.get_close_matches(text, remaining new
  texts, n=1, cutoff=0.4), greedy (a new rule once taken is gone);
- both times, their ratio, and how often the two agree on an old rule's counterpart (same
  new rule, or both none), over the old rules the baseline saw.
Every run starts with cold caches (rulesdb.lineage.text.clear_caches).
"""

from __future__ import annotations

import argparse
import difflib
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

import sqlite_utils

from rulesdb.db.schema import ensure_schema
from rulesdb.db.store import CatalogEntry, save_document
from rulesdb.ingest import cr_text
from rulesdb.lineage.align import RuleRec, align
from rulesdb.lineage.query import diff
from rulesdb.lineage.text import clear_caches

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "cr"
DEFAULT = (CORPUS / "MagicCompRules-2023-10-13.txt", CORPUS / "MagicCompRules-2025-02-07.txt")


def baseline(old: list[RuleRec], new: list[RuleRec]) -> dict[str, str | None]:
    """Greedy get_close_matches over all remaining new texts (cutoff 0.4)."""
    remaining: dict[str, list[str]] = {}
    for rule in new:
        remaining.setdefault(rule.text, []).append(rule.number)
    result: dict[str, str | None] = {}
    for rule in old:
        found = difflib.get_close_matches(rule.text, list(remaining), n=1, cutoff=0.4)
        if not found:
            result[rule.number] = None
            continue
        numbers = remaining[found[0]]
        result[rule.number] = numbers.pop(0)
        if not numbers:
            del remaining[found[0]]
    return result


def main() -> None:
    """Parse the pair, time both matchers and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*", type=Path, default=list(DEFAULT))
    parser.add_argument("--baseline-limit", type=int, default=100,
                        help="old rules given to the baseline (0: all; ≈1 s each) [100]")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    docs = [cr_text.parse(path.read_bytes()) for path in args.files]
    old, new = ([RuleRec(r.number, r.kind, r.title, r.text, r.parent) for r in doc.rules]
                for doc in docs)
    print(f"{args.files[0].name} ({len(old)} rules) → {args.files[1].name} ({len(new)} rules)")

    align_times, diff_times = [], []
    with tempfile.TemporaryDirectory() as tmp:
        db = sqlite_utils.Database(Path(tmp) / "rules.db")
        ensure_schema(db)
        ids = []
        for doc in docs:
            doc_id = f"cr-{doc.meta.effective_date}"
            save_document(db, CatalogEntry(
                id=doc_id, kind="comprehensive_rules", title=doc.meta.title, file="-",
                sha256="-", parser="cr_text", effective_date=doc.meta.effective_date,
                covers=doc.meta.covers), doc)
            ids.append(doc_id)
        db.conn.commit()
        conn = sqlite3.connect(Path(tmp) / "rules.db")
        for _ in range(args.runs):
            clear_caches()
            t0 = time.perf_counter()
            changes = align(old, new)
            align_times.append(time.perf_counter() - t0)
            clear_caches()
            t0 = time.perf_counter()
            result = diff(conn, ids[0], ids[1])
            diff_times.append(time.perf_counter() - t0)
        conn.close()
    ours = {c.old: c.new for c in changes if c.old}
    ours_time = statistics.median(align_times)
    print(f"project alignment:            {ours_time:.3f} s (median of {args.runs})")
    print(f"rulesdb diff on the fly:      {statistics.median(diff_times):.3f} s "
          f"(SQLite read + align + word detail; target ≤ 1 s); counts {result['counts']}")

    step = max(1, len(old) // args.baseline_limit) if args.baseline_limit else 1
    sample = old[::step][: args.baseline_limit or None]
    t0 = time.perf_counter()
    theirs = baseline(sample, new)
    base_time = time.perf_counter() - t0
    scale = len(old) / len(sample)
    note = f" on {len(sample)} rules; ≈{base_time * scale:.1f} s for all" if scale > 1 else ""
    print(f"difflib get_close_matches:    {base_time:.3f} s{note}")
    print(f"ratio baseline / project:     {base_time * scale / ours_time:.0f}×")
    agree = sum(ours.get(rule.number) == theirs[rule.number] for rule in sample)
    print(f"agreement on old rules:       {agree}/{len(sample)} "
          f"({100 * agree / len(sample):.1f}%)")


if __name__ == "__main__":
    main()
