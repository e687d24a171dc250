"""Search quality on a set of questions with judged answers: recall@1, recall@5 and MRR,
overall and per kind, and every miss with what came first instead.

Run: python benchmarks/search_quality.py [--db PATH] [--questions TSV] [--doc ID] [--misses]
Default: the user's database (rulesdb.places.user, the whole history; built when missing) and
tests/data/search_questions.tsv. Targets (issue 29), with no --doc: recall@5 ≥ 0.90,
recall@1 ≥ 0.60.

A question's answers are rule numbers or glossary entries (`glossary:Term`) of the current
rules; a hit counts when it is one of them, in any edition that prints it (a hit is shown by
its newest wording).
"""

from __future__ import annotations

import argparse
import csv
import sqlite3
import statistics
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = ROOT / "tests" / "data" / "search_questions.tsv"
TARGETS = {"recall@1": 0.60, "recall@5": 0.90}


@dataclass(frozen=True)
class Question:
    """A query as people type it, its kind, and the answers read in the current rules."""

    kind: str
    query: str
    answers: frozenset[str]


def load_questions(path: Path = QUESTIONS) -> list[Question]:
    """The questions of a TSV file (kind, query, answers separated by ';', note)."""
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return [Question(row["kind"], row["query"],
                     frozenset(answer.strip() for answer in row["answers"].split(";")))
            for row in rows]


def hit_label(hit: dict) -> str:
    """A hit as the answers name it: a rule number, or `glossary:Term`."""
    if hit["kind"] == "glossary":
        return f"glossary:{hit['term']}"
    return hit["number"]


def rank_of(question: Question, hits: list[dict]) -> int | None:
    """The 1-based rank of the first hit that answers the question, or None."""
    for rank, hit in enumerate(hits, 1):
        if hit_label(hit) in question.answers:
            return rank
    return None


@dataclass
class Result:
    """How one question fared: its first right answer's rank and the first hits."""

    question: Question
    rank: int | None
    first: list[str]


def evaluate(conn: sqlite3.Connection, questions: list[Question], doc_id: str | None = None,
             limit: int = 10) -> list[Result]:
    """Each question searched as a user would (`rulesdb search QUERY`)."""
    from rulesdb.lookup.search import search

    results = []
    for question in questions:
        hits = search(conn, question.query, doc_id, limit)["hits"]
        results.append(Result(question, rank_of(question, hits),
                              [hit_label(hit) for hit in hits[:5]]))
    return results


def scores(results: list[Result]) -> dict[str, float]:
    """recall@1, recall@5 and MRR (over the first ten hits) of some results."""
    n = len(results) or 1
    return {
        "recall@1": sum(r.rank == 1 for r in results) / n,
        "recall@5": sum(r.rank is not None and r.rank <= 5 for r in results) / n,
        "mrr": sum(1 / r.rank for r in results if r.rank) / n,
    }


def report(results: list[Result], show_misses: bool) -> list[str]:
    """The figures overall and per kind, then the misses (answer not in the first five)."""
    lines = [f"{'kind':<12} {'n':>4} {'recall@1':>9} {'recall@5':>9} {'MRR':>6}"]
    by_kind: dict[str, list[Result]] = defaultdict(list)
    for result in results:
        by_kind[result.question.kind].append(result)
    for kind, group in [*sorted(by_kind.items()), ("all", results)]:
        figures = scores(group)
        lines.append(f"{kind:<12} {len(group):>4} {figures['recall@1']:>9.3f} "
                     f"{figures['recall@5']:>9.3f} {figures['mrr']:>6.3f}")
    overall = scores(results)
    for name, target in TARGETS.items():
        verdict = "met" if overall[name] >= target else "NOT met"
        lines.append(f"target {name} ≥ {target:.2f}: {verdict} ({overall[name]:.3f})")
    misses = [r for r in results if r.rank is None or r.rank > 5]
    lines.append(f"{len(misses)} misses (answer not in the first five)")
    if show_misses:
        for r in misses:
            where = f"rank {r.rank}" if r.rank else "not in the first ten"
            lines.append(f"  [{r.question.kind}] {r.question.query!r}: wanted "
                         f"{', '.join(sorted(r.question.answers))}; {where}; first: "
                         f"{', '.join(r.first) or 'nothing'}")
    return lines


def main() -> None:
    """Evaluate the question set on a built database and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--questions", type=Path, default=QUESTIONS)
    parser.add_argument("--doc", default=None, help="search only this document")
    parser.add_argument("--misses", action="store_true", help="list every miss")
    args = parser.parse_args()
    from rulesdb.lookup.query import connect

    if args.db is None:
        from add_corpus import user_database  # beside this script

        args.db = user_database()
    conn = connect(args.db)
    results = evaluate(conn, load_questions(args.questions), args.doc)
    ranks = [r.rank for r in results if r.rank]
    print(f"{len(results)} questions on {args.db}"
          f"{' (--doc ' + args.doc + ')' if args.doc else ''}; median rank of the found "
          f"{statistics.median(ranks) if ranks else '-'}")
    print("\n".join(report(results, args.misses)))


if __name__ == "__main__":
    main()
