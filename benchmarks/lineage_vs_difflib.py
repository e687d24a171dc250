"""rulesdb's alignment side by side with the matcher of Academy Ruins (a port:
benchmarks/difflib_peer.py), on pairs of releases read from the shipped history archive
(data/history; ../shared is not needed).

Run: python benchmarks/lineage_vs_difflib.py [--pair OLD NEW ...] [--examples N] [--runs N]
Default pairs (issue 24): 2009-05-01 → 2009-07-11 (the great renumbering, the hardest case),
2009-05-01 → 2009-09-04, 2004-10-01 → 2026-01-16, 2023-10-13 → 2025-02-07.

For each pair it prints:
- times: the peer's matcher (one run; the port spends less than the peer's own code, which
  --as-written times too) and `rulesdb diff` computed on the fly (the two releases alone in
  a database, so nothing is stored: rules read from SQLite, aligned, word detail for every
  edit; median of --runs, cold caches), wall clock and CPU, and their ratios (target ≥ 10×;
  on a busy machine the CPU ratio is the steadier one);
- the agreement table over the peer's pairs: first those the peer sets aside (same number,
  same text), then by the peer's word ratio: how many rulesdb pairs the same way ("same": a
  one-to-one match, or a split or merge holding that pair), with another rule ("other"), or
  leaves unmatched on both sides ("unmatched");
- agreement where both pair the old rule (target ≥ 97%) and the share of the peer's pairs of
  ratio ≥ 0.8 that rulesdb makes the same (target ≥ 99%, none unmatched);
- each disagreement class with examples, both texts and word ratios, and what the structure
  says: "family" marks a pair whose new rule sits under the counterpart (in rulesdb's
  alignment) of the old rule's parent, or one level above or below it. Where the two
  matchers disagree, the verdict counts say whose pair keeps the family when only one does,
  else whose word ratio is higher.
The peer only knows numbered rules and subrules (its extractor keeps no headings), so the
comparison is over those; rulesdb aligns the headings too.
"""

from __future__ import annotations

import argparse
import difflib
import sqlite3
import statistics
import sys
import tempfile
import textwrap
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import sqlite_utils
from difflib_peer import PeerPair, peer_match, peer_match_as_written, peer_rules

from rulesdb.db.schema import ensure_schema
from rulesdb.ingest.model import Document
from rulesdb.lineage.align import PAIR_OPS
from rulesdb.lineage.query import compute_changes, diff
from rulesdb.lineage.text import clear_caches
from rulesdb.sources.history import load_archives, read_archive
from rulesdb.sources.release import Source, edition_id, parse_release, store_release

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "data" / "sources" / "catalog.toml"
PAIRS = [("2009-05-01", "2009-07-11"), ("2009-05-01", "2009-09-04"),
         ("2004-10-01", "2026-01-16"), ("2023-10-13", "2025-02-07")]
BANDS = [(0.9, 1.01, "≥ 0.9"), (0.8, 0.9, "0.8–0.9"), (0.6, 0.8, "0.6–0.8"), (0.0, 0.6, "< 0.6")]


class Stored(NamedTuple):
    """A rule as the database stores it (a number printed twice is stored as `702.30d-2`)."""

    number: str
    kind: str
    text: str
    parent: str | None


def stored_rules(path: Path, doc_id: str) -> list[Stored]:
    """An edition's rules as stored, in document order: both matchers see these."""
    conn = sqlite3.connect(path)
    rules = [Stored(*row) for row in conn.execute(
        "SELECT number, kind, text, parent FROM rules WHERE document = ? ORDER BY position",
        [doc_id])]
    conn.close()
    return rules


@dataclass
class Comparison:
    """Both matchers' pairs for one pair of editions, and what judging them needs."""

    old_rules: list[Stored]
    new_rules: list[Stored]
    peer: list[PeerPair]
    links: dict[tuple[str, str], str]  # rulesdb: (old, new) → change, unchanged included
    old_texts: dict[str, str] = field(init=False)
    new_texts: dict[str, str] = field(init=False)

    def __post_init__(self) -> None:
        self.old_texts = peer_rules([(r.number, r.kind, r.text) for r in self.old_rules])
        self.new_texts = peer_rules([(r.number, r.kind, r.text) for r in self.new_rules])
        self.texts = {("old", r.number): r.text for r in self.old_rules}
        self.texts.update({("new", r.number): r.text for r in self.new_rules})
        self.old_parent = {r.number: r.parent for r in self.old_rules}
        self.new_parent = {r.number: r.parent for r in self.new_rules}
        self.ours_old: dict[str, set[str]] = {}
        self.ours_new: dict[str, set[str]] = {}
        for old, new in self.links:
            self.ours_old.setdefault(old, set()).add(new)
            self.ours_new.setdefault(new, set()).add(old)
        self.peer_old = {p.old for p in self.peer}
        self.peer_new = {p.new for p in self.peer}

    def status(self, pair: PeerPair) -> str:
        """same / other / unmatched: what rulesdb does with a pair of the peer."""
        if (pair.old, pair.new) in self.links:
            return "same"
        if pair.old in self.ours_old or pair.new in self.ours_new:
            return "other"
        return "unmatched"

    def ratio(self, old: str, new: str) -> float:
        """The peer's weight of a pair: difflib's ratio of the words, new first."""
        return difflib.SequenceMatcher(None, self.texts[("new", new)].split(" "),
                                       self.texts[("old", old)].split(" ")).ratio()

    def family(self, old: str, new: str) -> bool:
        """Whether the new rule sits under rulesdb's counterpart of the old rule's parent,
        or one level above or below it."""
        parent = self.old_parent.get(old)
        counterparts = self.ours_old.get(parent, set()) if parent else set()
        new_parent = self.new_parent.get(new)
        grand = self.new_parent.get(new_parent) if new_parent else None
        return bool(counterparts & {new_parent, grand}) or bool(
            new_parent and self.ours_new.get(new_parent, set())
            & {self.old_parent.get(parent) if parent else None})

    def verdict(self, old: str, peer_new: str, ours: str) -> str:
        """Who pairs `old` better: by family when only one keeps it, else by word ratio."""
        peer_family, our_family = self.family(old, peer_new), self.family(old, ours)
        if our_family != peer_family:
            return "rulesdb keeps the family" if our_family else "the peer keeps the family"
        peer_ratio, our_ratio = self.ratio(old, peer_new), self.ratio(old, ours)
        if abs(peer_ratio - our_ratio) < 0.02:
            return "a tie (ratios within 0.02, family alike)"
        return ("rulesdb's ratio is higher" if our_ratio > peer_ratio
                else "the peer's ratio is higher")


def load(dates: set[str]) -> dict[str, tuple[Source, Document]]:
    """The releases of the given dates, parsed from the shipped archive."""
    wanted = {f"MagicCompRules-{day}.txt" for day in dates}
    docs = {}
    for archive in load_archives(CATALOG):
        for source in read_archive(archive, CATALOG.parent):
            if source.name in wanted:
                doc = parse_release(source)
                docs[edition_id(doc, source)] = (source, doc)
    return docs


def time_diff(db_path: Path, old_id: str, new_id: str, runs: int) -> tuple[float, float]:
    """Median wall and CPU seconds of `rulesdb diff` computed on the fly."""
    conn = sqlite3.connect(db_path)
    walls, cpus = [], []
    for _ in range(runs):
        clear_caches()
        wall, cpu = time.perf_counter(), time.process_time()
        result = diff(conn, old_id, new_id)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    assert result["alignment"] == "computed"
    conn.close()
    return statistics.median(walls), statistics.median(cpus)


def table(comparison: Comparison) -> list[str]:
    """The agreement table: pairs the peer sets aside, then by band of word ratio."""
    peer = comparison.peer
    kept = [p for p in peer if p.old == p.new and comparison.old_texts[p.old]
            == comparison.new_texts[p.new]]
    rest = [p for p in peer if p not in kept]
    rows = [("same number+text", kept)]
    rows += [(label, [p for p in rest if low <= p.ratio < high]) for low, high, label in BANDS]
    lines = [f"  {'peer pairs':<17} {'count':>6} {'same':>6} {'other':>6} {'unmatched':>9}"]
    for label, pairs in rows:
        counts = Counter(comparison.status(p) for p in pairs)
        lines.append(f"  {label:<17} {len(pairs):>6} {counts['same']:>6} {counts['other']:>6} "
                     f"{counts['unmatched']:>9}")
    split = sum(comparison.links.get((p.old, p.new)) in ("split", "merged") for p in peer)
    lines.append(f"  (of the peer's pairs rulesdb makes the same, {split} are one part of a "
                 "split or merge)")
    return lines


def show(text: str) -> str:
    return textwrap.shorten(text, 140, placeholder=" …")


def examples(comparison: Comparison, count: int) -> list[str]:
    """Each disagreement class: counts, verdicts and the first `count` examples."""
    c = comparison
    lines = []
    other = sorted([p for p in c.peer if c.status(p) == "other"], key=lambda p: -p.ratio)
    verdicts: Counter[str] = Counter()
    shown = []
    for p in other:
        ours = sorted(c.ours_old.get(p.old, ()))
        if ours:
            verdict = c.verdict(p.old, p.new, ours[0])
        else:  # rulesdb gives the peer's new rule to another old one, leaves this one
            verdict = "rulesdb gives the peer's new rule to another old rule"
        verdicts[verdict] += 1
        shown.append((p, ours, verdict))
    lines.append(f"  peer pairs rulesdb makes otherwise: {len(other)}; "
                 + ", ".join(f"{v}: {n}" for v, n in verdicts.most_common()))
    for p, ours, verdict in shown[:count]:
        lines.append(f"    {p.old}: {show(c.texts[('old', p.old)])}")
        lines.append(f"      peer    → {p.new} ({p.ratio:.2f}{', family' * c.family(p.old, p.new)})"
                     f": {show(c.texts[('new', p.new)])}")
        for new in ours:
            lines.append(f"      rulesdb → {new} ({c.ratio(p.old, new):.2f}"
                         f"{', family' * c.family(p.old, new)}): {show(c.texts[('new', new)])}")
        for old in sorted(c.ours_new.get(p.new, ())):
            lines.append(f"      rulesdb gives {p.new} to {old} ({c.ratio(old, p.new):.2f}"
                         f"{', family' * c.family(old, p.new)}): {show(c.texts[('old', old)])}")
        lines.append(f"      → {verdict}")
    unmatched = sorted([p for p in c.peer if c.status(p) == "unmatched"], key=lambda p: -p.ratio)
    lines.append(f"  peer pairs rulesdb leaves unmatched: {len(unmatched)}")
    for p in unmatched[:count]:
        lines.append(f"    {p.old} → {p.new} ({p.ratio:.2f}"
                     f"{', family' * c.family(p.old, p.new)})")
        lines.append(f"      old: {show(c.texts[('old', p.old)])}")
        lines.append(f"      new: {show(c.texts[('new', p.new)])}")
    extra = sorted([(old, new) for old, new in c.links
                    if old in c.old_texts and new in c.new_texts
                    and old not in c.peer_old and new not in c.peer_new],
                   key=lambda pair: -c.ratio(*pair))
    in_family = sum(c.family(old, new) for old, new in extra)
    lines.append(f"  pairs only rulesdb makes (the peer leaves both rules unmatched): "
                 f"{len(extra)}, {in_family} of them within the family")
    for old, new in extra[:count]:
        lines.append(f"    {old} → {new} ({c.ratio(old, new):.2f}"
                     f"{', family' * c.family(old, new)})")
        lines.append(f"      old: {show(c.texts[('old', old)])}")
        lines.append(f"      new: {show(c.texts[('new', new)])}")
    return lines


def compare(docs: dict[str, tuple[Source, Document]], old_day: str, new_day: str, runs: int,
            count: int, as_written: bool = False) -> None:
    """Time both matchers on one pair and print the figures."""
    old_id, new_id = f"cr-{old_day}", f"cr-{new_day}"
    (old_source, old_doc), (new_source, new_doc) = docs[old_id], docs[new_id]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "rules.db"
        db = sqlite_utils.Database(path)
        ensure_schema(db)
        store_release(db, old_id, old_source, old_doc, keep_source=False)
        store_release(db, new_id, new_source, new_doc, keep_source=False)
        db.conn.commit()
        db.close()
        old_rules, new_rules = stored_rules(path, old_id), stored_rules(path, new_id)
        old_texts = peer_rules([(r.number, r.kind, r.text) for r in old_rules])
        new_texts = peer_rules([(r.number, r.kind, r.text) for r in new_rules])
        print(f"\n== {old_id} ({len(old_rules)} rules, {len(old_texts)} numbered) → "
              f"{new_id} ({len(new_rules)}, {len(new_texts)})")
        wall, cpu = time.perf_counter(), time.process_time()
        peer = peer_match(old_texts, new_texts)
        peer_wall, peer_cpu = time.perf_counter() - wall, time.process_time() - cpu
        ours_wall, ours_cpu = time_diff(path, old_id, new_id, runs)
        conn = sqlite3.connect(path)
        links = {(c.old, c.new): c.op for c in compute_changes(conn, old_id, new_id)
                 if c.op in (*PAIR_OPS, "split", "merged") and c.old and c.new}
        conn.close()
    comparison = Comparison(old_rules, new_rules, peer, links)
    print(f"  peer matcher {peer_wall:.2f} s (CPU {peer_cpu:.2f} s); rulesdb diff "
          f"{ours_wall:.3f} s (CPU {ours_cpu:.3f} s), median of {runs}; rulesdb is "
          f"{peer_wall / ours_wall:.0f}× faster (CPU {peer_cpu / ours_cpu:.0f}×; target ≥ 10×)")
    if as_written:
        wall, cpu = time.perf_counter(), time.process_time()
        written = peer_match_as_written(old_texts, new_texts)
        written_wall, written_cpu = time.perf_counter() - wall, time.process_time() - cpu
        same = sorted((p.old, p.new) for p in written) == sorted((p.old, p.new) for p in peer)
        print(f"  the peer's code as written: {written_wall:.2f} s (CPU {written_cpu:.2f} s; "
              f"{'the same' if same else 'OTHER'} pairs); rulesdb is "
              f"{written_wall / ours_wall:.0f}× faster (CPU {written_cpu / ours_cpu:.0f}×)")
    for line in table(comparison):
        print(line)
    high = [p for p in peer if p.ratio >= 0.8]
    same_high = sum(comparison.status(p) == "same" for p in high)
    unmatched_high = sum(comparison.status(p) == "unmatched" for p in high)
    both = [p for p in peer if p.old in comparison.ours_old]
    same_both = sum(comparison.status(p) == "same" for p in both)
    print(f"  peer pairs of ratio ≥ 0.8 that rulesdb makes the same: {same_high}/{len(high)} "
          f"({100 * same_high / max(1, len(high)):.1f}%, target ≥ 99%); unmatched "
          f"{unmatched_high} (target 0)")
    print(f"  where both pair the old rule: {same_both}/{len(both)} the same "
          f"({100 * same_both / max(1, len(both)):.1f}%, target ≥ 97%)")
    for line in examples(comparison, count):
        print(line)


def main() -> None:
    """Read the releases, compare the matchers on each pair and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pair", nargs=2, action="append", metavar=("OLD", "NEW"),
                        help="release dates (YYYY-MM-DD) to compare [the issue's pairs]")
    parser.add_argument("--examples", type=int, default=5, help="examples per class [5]")
    parser.add_argument("--runs", type=int, default=5, help="runs of rulesdb diff [5]")
    parser.add_argument("--as-written", action="store_true",
                        help="also time the peer as its code spends its time (slower, the "
                             "same pairs; difflib_peer.peer_match_as_written)")
    args = parser.parse_args()
    pairs = [tuple(p) for p in args.pair] if args.pair else PAIRS
    days = {day for pair in pairs for day in pair}
    docs = load(days)
    missing = sorted(days - {doc_id[3:] for doc_id in docs})
    if missing:
        sys.exit(f"not in the archive: {', '.join(missing)}")
    for old_day, new_day in pairs:
        compare(docs, old_day, new_day, args.runs, args.examples, args.as_written)


if __name__ == "__main__":
    main()
