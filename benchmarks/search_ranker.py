"""Learn the weights of search's second stage and measure each feature's effect.

Run: python benchmarks/search_ranker.py [--db PATH] [--write]   (default: the user's database)

The second stage (rulesdb/lookup/rerank.py) orders the lexical ranking's first candidates by
a weighted sum of features. The weights are learned by pairwise logistic regression (each
right answer against up to 30 wrong candidates of the same question, L2-regularized,
Newton's method) on the development half of real people's questions
(tests/data/search_questions_real.tsv, half = dev), the project's own questions
(tests/data/search_questions.tsv) and the development halves of the judges' questions
(tests/data/search_questions_policy.tsv and search_questions_policy_more.tsv, half = dev),
each a search with no options over the
current CR, MTR and IPG. The test halves are never read here.

Printed: the development half's recall@1 and recall@5 by 5-fold cross-validation (the
project's own questions always among the learned ones) with the lexical order alone, with
every feature, with each feature left out, and with `meaning` read from the question's own
words alone (no paraphrases); then the weights learned from everything, and
what they give on the project's own questions and its own held-out set. `--write` puts the
weights into data/search-ranker.toml.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from search_quality import (
    HOLDOUT,
    POLICY,
    POLICY_MORE,
    QUESTIONS,
    REAL,
    Question,
    load_questions,
)

ROOT = Path(__file__).resolve().parent.parent
RANKER = ROOT / "data" / "search-ranker.toml"
FOLDS = 5
NEGATIVES = 30
C = 1.0  # inverse regularization strength, as scikit-learn's LogisticRegression


def candidates(conn, question: Question, paraphrased: bool = True
               ) -> list[tuple[str, dict[str, float]]]:
    """The second stage's candidates for a question as a search with no options reads them
    (each current document's first, one document after another): (label, features)
    (`paraphrased` False: `meaning` from the question's own words alone)."""
    from rulesdb.lookup import rerank, search

    docs = search.current_documents(conn)
    read = search.read_query(conn, question.query, docs[0] if docs else None)
    if not docs or not read.concepts:
        return []
    searched = [search.Searched(*search.first_stage(conn, read, doc)) for doc in docs]
    groups = [(each.scope, each.ranked[:rerank.CANDIDATES]) for each in searched]
    stopwords = search._stopwords(conn)
    return [(label(candidate.scope, candidate.item), candidate.features)
            for found in rerank.features(conn, read, groups, stopwords, paraphrased)
            for candidate in found]


def learned_on() -> tuple[list[Question], list[Question]]:
    """The questions the weights are learned on: the development half of real people's
    questions (cross-validated), and the project's own with the development halves of the
    judges' two collections (always among the learned)."""
    return ([q for q in load_questions(REAL) if q.half == "dev"],
            load_questions(QUESTIONS) + [q for path in (POLICY, POLICY_MORE)
                                         for q in load_questions(path) if q.half == "dev"])


def label(scope, item) -> str:
    """A candidate as the question sets name their answers (search_quality.hit_label)."""
    if item.kind == "glossary":
        return f"glossary:{scope.terms[item.key]}"
    prefix = scope.doc_id.split("-")[0]
    return f"{prefix}:{scope.numbers[item.key]}" if prefix in ("mtr", "ipg") \
        else scope.numbers[item.key]


def matrix(rows: list[tuple[str, dict[str, float]]], names: list[str]) -> np.ndarray:
    return np.array([[features.get(name, 0.0) for name in names] for _, features in rows])


def learn(data: list[tuple[Question, list]], names: list[str], seed: int = 0) -> np.ndarray:
    """Pairwise logistic regression: the weights that put right answers above wrong ones."""
    rng = random.Random(seed)
    diffs = []
    for question, rows in data:
        if not rows:
            continue
        x = matrix(rows, names)
        right = [at for at, (label, _) in enumerate(rows) if label in question.answers]
        wrong = [at for at, (label, _) in enumerate(rows) if label not in question.answers]
        for at in right:
            for other in rng.sample(wrong, min(NEGATIVES, len(wrong))):
                diffs.append(x[at] - x[other])
    d = np.array(diffs)
    w = np.zeros(len(names))
    for _ in range(50):  # Newton's method on  |w|²/2 + C Σ log(1 + exp(-w·d))
        p = 1 / (1 + np.exp(-(d @ w)))
        grad = w - C * d.T @ (1 - p)
        hess = np.eye(len(names)) + C * (d * (p * (1 - p))[:, None]).T @ d
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def ranks(data: list[tuple[Question, list]], names: list[str], w: np.ndarray | None
          ) -> list[int | None]:
    """The rank of each question's first right answer (None: not among the candidates);
    `w` None keeps the lexical order."""
    out = []
    for question, rows in data:
        if not rows:
            out.append(None)
            continue
        order = (range(len(rows)) if w is None
                 else np.argsort(-(matrix(rows, names) @ w), kind="stable"))
        labels = [rows[at][0] for at in order]
        out.append(next((rank for rank, label in enumerate(labels, 1)
                         if label in question.answers), None))
    return out


def recall(found: list[int | None]) -> str:
    n = len(found) or 1
    return (f"recall@1 {sum(r == 1 for r in found if r) / n:.3f}  "
            f"recall@5 {sum(r <= 5 for r in found if r) / n:.3f}")


def cross_validated(dev: list, own: list, names: list[str]) -> list[int | None]:
    order = list(range(len(dev)))
    random.Random(0).shuffle(order)
    found: dict[int, int | None] = {}
    for fold in range(FOLDS):
        held = [at for place, at in enumerate(order) if place % FOLDS == fold]
        learned = [dev[at] for place, at in enumerate(order) if place % FOLDS != fold]
        w = learn(learned + own, names, seed=fold)
        found.update(zip(held, ranks([dev[at] for at in held], names, w), strict=True))
    return [found[at] for at in range(len(dev))]


def write(weights: dict[str, float], path: Path = RANKER) -> None:
    """Replace the [weights] table of the ranker file, keeping its comments."""
    text = path.read_text(encoding="utf-8")
    table = "".join(f"{name} = {value:.3f}\n" for name, value in weights.items())
    text, count = re.subn(r"(?ms)^\[weights\]\n.*?(?=^\n|^\[|\Z)", f"[weights]\n{table}",
                          text, count=1)
    if not count:
        raise SystemExit(f"{path}: no [weights] table")
    path.write_text(text, encoding="utf-8")


def main() -> None:
    """Learn, cross-validate and ablate; print the figures (and write with --write)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", type=Path, default=None,
                        help="the database [default: the user's, built when missing]")
    parser.add_argument("--write", action="store_true", help=f"write the weights to {RANKER}")
    args = parser.parse_args()
    from rulesdb.lookup.query import connect
    from rulesdb.lookup.rerank import FEATURES

    if args.db is None:
        from add_corpus import user_database  # beside this script

        args.db = user_database()
    conn = connect(args.db)
    names = list(FEATURES)
    dev_questions, own_questions = learned_on()
    dev = [(q, candidates(conn, q)) for q in dev_questions]
    own = [(q, candidates(conn, q)) for q in own_questions]
    holdout = [(q, candidates(conn, q)) for q in load_questions(HOLDOUT)]
    print(f"{len(dev)} development questions, {len(own)} of the project's own; "
          f"{sum(any(label in q.answers for label, _ in rows) for q, rows in dev) / len(dev):.3f}"
          " of the development half have an answer among the candidates")
    print(f"lexical order alone       {recall(ranks(dev, names, None))}")
    print(f"every feature (5-fold)    {recall(cross_validated(dev, own, names))}")
    for name in names:
        kept = [other for other in names if other != name]
        print(f"  without {name:<16} {recall(cross_validated(dev, own, kept))}")
    plain = [(q, candidates(conn, q, paraphrased=False)) for q, _ in dev]
    plain_own = [(q, candidates(conn, q, paraphrased=False)) for q, _ in own]
    print(f"  without paraphrases      {recall(cross_validated(plain, plain_own, names))}")
    w = learn(dev + own, names)
    print("learned from all: " + ", ".join(f"{n} {v:.3f}" for n, v in zip(names, w,
                                                                          strict=True)))
    print(f"the project's own set     {recall(ranks(own, names, w))}  "
          f"(lexical order {recall(ranks(own, names, None))})")
    print(f"its own held-out set      {recall(ranks(holdout, names, w))}  "
          f"(lexical order {recall(ranks(holdout, names, None))})")
    if args.write:
        write(dict(zip(names, map(float, w), strict=True)))
        print(f"written to {RANKER}")


if __name__ == "__main__":
    main()
