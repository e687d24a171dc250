"""A port of the rule matcher of Academy Ruins (lunakv/academyruins-api, `src/difftool/
matcher.py`, CRMatcher with its MatchScoreGraph), written from its behaviour, for the
side-by-side benchmark (benchmarks/lineage_vs_difflib.py).

What it does, step by step as the peer does it:
1. its rules are the numbered rules and subrules ("100.1", "100.1a"; its extractor keeps no
   chapter or section headings), keyed by number, each with its rule text (examples apart);
2. a rule with the same number and the same text on both sides is dropped (unchanged);
3. for each remaining old rule in order, `difflib.get_close_matches(old_words, new_word_lists,
   cutoff=0.4)` (n=3) over the words (`text.split(" ")`) of every remaining new rule; each new
   rule whose text is one of those matches gets an edge to the old rule, weighted
   `SequenceMatcher(None, new_words, old_words).ratio()`;
4. the heaviest edge of the bipartite graph is taken (on a tie the first one added, the
   graph's edges are kept per new rule in the order the new rule first got one), both its
   rules are removed with their edges, and so on until no edge is left; every rule left is
   added or removed.

Differences that only save time (the peer's result is the same): the new texts are split
once, not once per old rule; the new rules of a text are found through a dict, not a scan;
and step 4 sorts the edges once and takes them in order (taking the heaviest remaining edge
again and again takes them in that order). So this port is faster than the peer's own code:
speed ratios measured against it understate the peer's time.
"""

from __future__ import annotations

import difflib  # the standard library's, as the peer's (not cydifflib)
from collections.abc import Sequence
from dataclasses import dataclass

CUTOFF = 0.4


@dataclass(frozen=True)
class PeerPair:
    """One pair the peer makes: old rule, new rule and the word ratio it weighed them by."""

    old: str
    new: str
    ratio: float


def peer_rules(rules: Sequence[tuple[str, str, str]]) -> dict[str, str]:
    """Number → rule text of the rules the peer sees, from (number, kind, text) triples:
    numbered rules and subrules, a continuation paragraph joined to its rule by a space."""
    return {number: " ".join(text.split("\n")) for number, kind, text in rules
            if kind in ("rule", "subrule")}


def peer_match(old: dict[str, str], new: dict[str, str]) -> list[PeerPair]:
    """The pairs the peer's matcher makes between two editions (number → text each),
    the pruned identical rules included with ratio 1.0."""
    pruned = [number for number, text in old.items() if new.get(number) == text]
    old_left = {number: text for number, text in old.items() if number not in pruned}
    new_left = {number: text for number, text in new.items() if number not in pruned}
    numbers_by_text: dict[str, list[str]] = {}
    for number, text in new_left.items():
        numbers_by_text.setdefault(text, []).append(number)
    new_words = [text.split(" ") for text in new_left.values()]
    edges: list[tuple[float, int, int, str, str]] = []
    first_edge: dict[str, int] = {}  # new rule → when it got its first edge (the graph's order)
    for old_number, old_text in old_left.items():
        old_words = old_text.split(" ")
        for match in difflib.get_close_matches(old_words, new_words, cutoff=CUTOFF):
            for new_number in numbers_by_text[" ".join(match)]:
                weight = difflib.SequenceMatcher(None, match, old_words).ratio()
                first_edge.setdefault(new_number, len(first_edge))
                edges.append((weight, len(edges), 0, old_number, new_number))
    # heaviest first; ties: the new rule that got an edge first, then the edge added first
    edges.sort(key=lambda e: (-e[0], first_edge[e[4]], e[1]))
    pairs = [PeerPair(number, number, 1.0) for number in pruned]
    taken_old: set[str] = set()
    taken_new: set[str] = set()
    for weight, _, _, old_number, new_number in edges:
        if old_number not in taken_old and new_number not in taken_new:
            taken_old.add(old_number)
            taken_new.add(new_number)
            pairs.append(PeerPair(old_number, new_number, weight))
    return pairs


def peer_match_as_written(old: dict[str, str], new: dict[str, str]) -> list[PeerPair]:
    """peer_match the way the peer's code spends its time (same pairs): each old rule
    splits every new text again, each close match is looked up by scanning the new rules,
    and each step of the graph scans every edge left for the heaviest, then rebuilds every
    new rule's list of edges without the two rules taken. For timing the peer as its users
    run it; peer_match is the lower bound."""
    pruned = [number for number, text in old.items() if new.get(number) == text]
    old_left = {number: text for number, text in old.items() if number not in pruned}
    new_left = {number: text for number, text in new.items() if number not in pruned}
    new_texts = list(new_left.values())
    graph: dict[str, list[tuple[str, str, float]]] = {}  # new rule → its edges, in order
    for old_number, old_text in old_left.items():
        old_words = old_text.split(" ")
        candidates = [text.split(" ") for text in new_texts]
        for match in difflib.get_close_matches(old_words, candidates, cutoff=CUTOFF):
            joined = " ".join(match)
            for new_number in [n for n, text in new_left.items() if text == joined]:
                weight = difflib.SequenceMatcher(None, match, old_words).ratio()
                graph.setdefault(new_number, []).append((new_number, old_number, weight))
    pairs = [PeerPair(number, number, 1.0) for number in pruned]
    while any(graph.values()):
        best = None
        for edges in graph.values():
            for edge in edges:
                if best is None or edge[2] > best[2]:
                    best = edge
        assert best is not None
        new_number, old_number, weight = best
        pairs.append(PeerPair(old_number, new_number, weight))
        del graph[new_number]
        for key in graph:
            graph[key] = [edge for edge in graph[key] if edge[1] != old_number]
    return pairs
