"""Lineage layer: alignments between consecutive CR editions, lineages, concept links.

Pairs are consecutive Comprehensive Rules editions by effective date. Given the ids of new
or rebuilt documents, only the pairs touching them are (re)computed; a stored pair that is
no longer consecutive (a new edition now sits between its two) is dropped. Lineages (one
stable id per rule across editions: "<first document>/<number there>") are recomputed from
the first edition whose rules or incoming pair changed on (the editions before it keep
theirs, which seed it); concept links (rulesdb.layers.concepts) only from or to the given
documents. So adding the newest release costs the same however many editions are stored.

Alignments set by hand (`alignment_overrides`, see rulesdb.lineage.overrides) are applied to
the pair of editions they name when it is a stored pair; a link between editions further
apart joins the two rules' lineages when the older one's ends before the newer one's begins.
Each stored pair of consecutive editions also gets its counts and largest edits
(rulesdb.layers.edition_changes).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from itertools import pairwise

import sqlite_utils

from ..db.bulk import insert_tuples
from ..db.coverage import Coverage
from ..db.schema import ensure_schema
from ..lineage import layout
from ..lineage import overrides as hand
from ..lineage.align import PAIR_OPS, Change, Side, align
from ..lineage.layout import POLICY_KINDS
from ..lineage.query import edition
from . import concepts, edition_changes
from .bridges import bridge

Pair = tuple[str, str]


def compute(db: sqlite_utils.Database, doc_ids: list[str],
            refresh: Iterable[Pair] = ()) -> str:
    """Align the CR pairs touching `doc_ids`, then update lineages and concept links;
    `refresh` names pairs of editions whose overrides changed (their alignment is redone)."""
    ensure_schema(db, ["alignments", "lineages", "concept_links", "edition_changes",
                       "edition_edits", "alignment_overrides"])
    # the chain of editions; a seed fragment that a whole release of its date supersedes is
    # aligned with that release only, off the chain (in it, every rule outside the fragment
    # would lose its history at the fragment)
    editions = [row[0] for row in db.execute(
        "SELECT id FROM documents WHERE kind = 'comprehensive_rules' AND superseded_by IS NULL "
        "ORDER BY effective_date, id")]
    branches = db.execute("SELECT superseded_by, id FROM documents WHERE "
                          "kind = 'comprehensive_rules' AND superseded_by IS NOT NULL "
                          "ORDER BY id").fetchall()
    chain = list(pairwise(editions))
    # each judges' document is a chain of its own, its sections aligned as the CR's rules
    policy = {kind: [row[0] for row in db.execute(
        "SELECT id FROM documents WHERE kind = ? ORDER BY effective_date, id", [kind])]
        for kind in sorted(POLICY_KINDS)}
    policy_pairs = [pair for kind_editions in policy.values()
                    for pair in pairwise(kind_editions)]
    chain_pairs = {*chain, *policy_pairs}
    wanted = [*chain, *map(tuple, branches), *policy_pairs]
    by_pair: dict[Pair, list[hand.Override]] = defaultdict(list)
    for override in hand.stored(db.conn):
        by_pair[override.pair].append(override)
    stored = set(db.execute("SELECT DISTINCT old_doc, new_doc FROM alignments").fetchall())
    touched = set(doc_ids)
    redo = {pair for pair in refresh if pair in wanted}
    for old_doc, new_doc in stored:
        if ((old_doc, new_doc) not in wanted or {old_doc, new_doc} & touched
                or (old_doc, new_doc) in redo):
            db.execute("DELETE FROM alignments WHERE old_doc = ? AND new_doc = ?",
                       [old_doc, new_doc])
            edition_changes.forget(db, old_doc, new_doc)
    # the editions whose lineages may change: new or rebuilt ones, those whose incoming
    # pair is aligned now or was dropped, those after an edition a changed link between
    # editions further apart starts from (and every edition after them)
    changed = touched | {new for old, new in stored if (old, new) not in wanted}
    changed |= {editions[editions.index(old) + 1] for old, _ in set(refresh) - set(wanted)
                if old in editions[:-1]}
    aligned = 0
    sides: dict[str, tuple[Side, Coverage, dict[str, int]]] = {}
    for old_doc, new_doc in wanted:
        if ((old_doc, new_doc) in stored and not {old_doc, new_doc} & touched
                and (old_doc, new_doc) not in redo):
            continue
        aligned += _store_pair(db, old_doc, new_doc, sides, by_pair.get((old_doc, new_doc), []),
                               (old_doc, new_doc) in chain_pairs,
                               (old_doc, new_doc) in policy_pairs)
        if not any(old == old_doc for old, _ in branches):
            sides.pop(old_doc)  # its later pair is this one (a history's sides took 500 MB)
        changed.add(new_doc)
    first = next((at for at, doc in enumerate(editions) if doc in changed), len(editions))
    _store_lineages(db, editions, first)
    for kind_editions in policy.values():  # a few hundred sections: all again
        if set(kind_editions) & changed or not _has_lineages(db, kind_editions):
            _store_lineages(db, kind_editions)
    apart = [o for pair, found in by_pair.items() if pair not in wanted for o in found]
    bridge(db, editions, apart)
    lineage_count = _store_branches(db, [seed for _, seed in branches])
    links = concepts.compute(db, doc_ids)
    return (f"{len(wanted)} edition pairs ({aligned} rules aligned now), {lineage_count} "
            f"lineages, {links} concept links")


def _store_pair(db: sqlite_utils.Database, old_doc: str, new_doc: str,
                sides: dict[str, tuple[Side, Coverage, dict[str, int]]],
                overrides: list[hand.Override], consecutive: bool, policy: bool = False) -> int:
    """Align one pair (with its overrides applied) and store it, and the counts of a pair of
    `consecutive` editions; `sides` keeps each edition prepared for its next pair. In a
    judges' document (`policy`) an edit that only moved words in the layout is none
    (rulesdb.lineage.layout).

    The word-level differences of an edit are not stored: `rulesdb diff` and the site compute
    them for the edits they show, and storing them took half the table for every edition.
    """
    for doc in (old_doc, new_doc):
        if doc not in sides:
            rules, cover = edition(db.conn, doc)
            ids = dict(db.execute("SELECT number, id FROM rules WHERE document = ?", [doc]))
            sides[doc] = (Side(rules), cover, ids)
    (old_side, old_cover, old_ids), (new_side, new_cover, new_ids) = sides[old_doc], sides[new_doc]
    changes = align(old_side, new_side, old_cover, new_cover)
    old_rules = {rule.number: rule for rule in old_side.rules}
    new_rules = {rule.number: rule for rule in new_side.rules}
    if overrides:
        changes = hand.apply(changes, overrides, old_rules, new_rules)
    if policy:
        changes, _ = layout.settle(changes, old_rules, new_rules)
    rows = [
        (old_doc, new_doc, old_ids.get(change.old), new_ids.get(change.new), change.old,
         change.new, change.op, change.similarity, detail(change))
        for change in changes
    ]
    insert_tuples(db, "alignments", ALIGNMENT_COLUMNS, rows)
    if consecutive:
        edition_changes.store(db, old_doc, new_doc, [c for c in changes if c.op != "unchanged"],
                              old_rules, new_rules, layout=policy)
    return len(rows)


# the details an alignment stores (a split's or merge's extra part is never citations-only)
CITATIONS_ONLY = json.dumps({"citations_only": True})
EXTRA = json.dumps({"extra": True})


def detail(change: Change) -> str | None:
    """What an alignment row stores beyond its columns: a change of cited numbers only, the
    extra part of a split or merge, an override's note."""
    if isinstance(change, hand.HandChange):
        return json.dumps({"set_by_hand": True, "note": change.note,
                           **({"citations_only": True} if change.citations_only else {})},
                          ensure_ascii=False)
    return CITATIONS_ONLY if change.citations_only else EXTRA if change.extra else None


ALIGNMENT_COLUMNS = ("old_doc", "new_doc", "old_rule_id", "new_rule_id", "old_number",
                     "new_number", "change", "similarity", "detail")


def _store_lineages(db: sqlite_utils.Database, editions: list[str], first: int = 0) -> None:
    """One lineage per chain of one-to-one matches (a split continues into its one-to-one part),
    stored anew for `editions[first:]`.

    Which match continues a rule's lineage is decided best first among the matches of its
    edition pair, and a pair's matches involve only its two editions' rules, so deciding
    pair by pair gives what deciding over every pair at once gives: the editions before
    `first` keep their lineages, and the one just before seeds the rest."""
    seed: dict[int, str] = {}
    if 0 < first < len(editions):
        seed = dict(db.execute(
            "SELECT l.rule_id, l.lineage FROM rule_rows r JOIN lineages l ON l.rule_id = r.id "
            "WHERE r.document = ?", [editions[first - 1]]).fetchall())
        if not seed and db.execute("SELECT 1 FROM rule_rows WHERE document = ? LIMIT 1",
                                   [editions[first - 1]]).fetchone():
            first = 0  # the stored lineages are missing: compute them all
    recomputed = editions[first:]
    if recomputed:
        marks = ", ".join("?" * len(recomputed))
        db.execute(f"DELETE FROM lineages WHERE rule_id IN (SELECT id FROM rule_rows WHERE "
                   f"document IN ({marks}))", recomputed)
        predecessor = _predecessors(db, editions[max(first - 1, 0)], recomputed)
        lineage: dict[int, str] = seed
        rows = []
        for doc_id in recomputed:
            for row_id, number in db.execute(
                "SELECT id, number FROM rule_rows WHERE document = ? ORDER BY position", [doc_id]
            ):
                before = predecessor.get(row_id)
                lineage[row_id] = lineage.get(before or -1, f"{doc_id}/{number}")
                rows.append((lineage[row_id], row_id, doc_id, number))
        insert_tuples(db, "lineages", ("lineage", "rule_id", "document", "number"), rows)


def _has_lineages(db: sqlite_utils.Database, editions: list[str]) -> bool:
    """Whether the first of `editions` has its lineages stored."""
    # through its rules: lineages has no index on its document (a scan took 12 ms)
    return not editions or db.execute(
        "SELECT 1 FROM rule_rows r JOIN lineages l ON l.rule_id = r.id WHERE r.document = ? "
        "LIMIT 1", editions[:1]).fetchone() is not None


def _store_branches(db: sqlite_utils.Database, seeds: list[str]) -> int:
    """Each rule of a superseded seed takes the lineage of the rule of its whole release it
    was aligned with (else one of its own); how many lineages the database holds."""
    for seed in seeds:
        db.execute("DELETE FROM lineages WHERE rule_id IN (SELECT id FROM rule_rows WHERE "
                   "document = ?)", [seed])  # by its rules: lineages has no index on document
        db.execute(
            "INSERT INTO lineages (lineage, rule_id, document, number) "
            "SELECT coalesce((SELECT l.lineage FROM alignments a JOIN lineages l "
            "ON l.rule_id = a.old_rule_id WHERE a.new_rule_id = r.id AND a.new_doc = ? "
            f"AND a.change IN ({','.join('?' * len(PAIR_OPS))}) "
            "ORDER BY a.similarity DESC LIMIT 1), r.document || '/' || r.number), "
            "r.id, r.document, r.number FROM rule_rows r WHERE r.document = ?",
            [seed, *PAIR_OPS, seed])
    return db.execute("SELECT count(DISTINCT lineage) FROM lineages").fetchone()[0]


def _predecessors(db: sqlite_utils.Database, before: str, editions: list[str]) -> dict[int, int]:
    """Per rule of `editions` (consecutive editions; `before` is the one before them, or
    their first), the rule of the edition before its own whose lineage it continues: the
    one-to-one matches first, then the one-to-one part of each split or merge."""
    successor: dict[int, int] = {}
    predecessor: dict[int, int] = {}
    marks = ", ".join("?" * len(editions))
    for old_id, new_id in db.execute(
        "SELECT old_rule_id, new_rule_id FROM alignments "
        "WHERE old_rule_id IS NOT NULL AND new_rule_id IS NOT NULL "
        f"AND change IN ({','.join('?' * (len(PAIR_OPS) + 2))}) "
        f"AND new_doc IN ({marks}) AND old_doc IN (?, {marks}) "
        "ORDER BY change IN ('split', 'merged'), detail IS ?, similarity DESC, id",
        [*PAIR_OPS, "split", "merged", *editions, before, *editions, EXTRA],
    ):
        if old_id not in successor and new_id not in predecessor:
            successor[old_id] = new_id
            predecessor[new_id] = old_id
    return predecessor
