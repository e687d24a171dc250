"""Disagreements grouped so that one fault is one cause and two faults are two.

First by what differs and the rules deciding it (the cause of each root difference). Then,
since one rule can be broken by several faults and one fault can show under several rules,
by what the smallest cases show: several cases of each group are shrunk (the smallest, one
of each side that divides damage, and cases with other ingredients), first keeping exactly
their difference, then letting its rules only narrow — a rule that applied only because of
something the fault does not need goes with it. The kind of a shrunk case is its difference's
cause and, for a division, whose it is (the attacking or the defending player's: 510.1c and
510.1d are different choices). A group whose shrunk cases differ in kind is split, groups
whose shrunk cases coincide in kind are one cause, and a cause whose smallest case also shows
another, smaller one is reported under it as its consequence.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .compare import Cause, Difference
from .shrink import canonical, legal, shrink, size

if TYPE_CHECKING:
    from .run import Result

SHRUNK_PER_GROUP = 4  # cases shrunk in each group, at most (one per side comes first)
Kind = tuple[Cause, str]
Play = Callable[[dict[str, Any]], "Result"]


@dataclass
class Case:
    """A scenario the engine disagrees on: its number, the scenario, its root differences."""

    index: int
    data: dict[str, Any]
    differences: list[Difference]

    def causes(self) -> list[Difference]:
        """The differences that count as causes (`counted`)."""
        return counted(self.differences)


@dataclass
class Shrunk:
    """One case shrunk: its number, its smallest scenario, how both play it, its kind."""

    case: int
    minimal: dict[str, Any]
    result: Result
    difference: Difference
    tried: int

    @property
    def kind(self) -> Kind:
        """The kind of its smallest case."""
        return kind_of(self.difference)


@dataclass
class Found:
    """A cause: its kind, the scenarios showing it, its shrunk cases, the first groups it
    gathers (cause → scenarios) and the causes folded into it as its consequences."""

    kind: Kind
    cases: set[int] = field(default_factory=set)
    shrunk: list[Shrunk] = field(default_factory=list)
    groups: Counter[Cause] = field(default_factory=Counter)
    folded: list[Kind] = field(default_factory=list)

    @property
    def smallest(self) -> Shrunk:
        """Its smallest shrunk case."""
        return min(self.shrunk, key=lambda s: (size(s.minimal), s.case))

    def as_dict(self, number: int) -> dict[str, Any]:
        """The cause as the report's JSON."""
        cause, side = self.kind
        smallest = self.smallest
        permanents = smallest.minimal.get("permanents", [])
        return {
            "number": number,
            "aspect": cause.aspect,
            "rules": list(cause.rules),
            "detail": cause.detail,
            "side": side,
            "after_end": smallest.difference.after_end,
            "scenarios": len(self.cases),
            "cases": sorted(self.cases),
            "groups": [_cause_json(c, n) for c, n in self.groups.most_common()],
            "folded": [_cause_json(c) | {"side": s} for c, s in self.folded],
            "variants_tried": sum(s.tried for s in self.shrunk),
            "shrunk": [{"case": s.case, "variants_tried": s.tried,
                        "permanents": len(s.minimal.get("permanents", []))}
                       for s in sorted(self.shrunk, key=lambda s: s.case)],
            "smallest": {
                "case": smallest.case,
                "scenario": smallest.minimal,
                "creatures": sum(1 for p in permanents
                                 if "creature" in p.get("types", ["creature"])),
                "permanents": len(permanents),
                "variants_tried": smallest.tried,
            },
            "reference": smallest.result.reference,
            "replayed": smallest.result.replayed,
            "reference_own": smallest.result.own,
            "engine": smallest.result.engine,
            "differences": [d.as_dict() for d in smallest.result.differences],
        }


def kind_of(difference: Difference) -> Kind:
    """A difference's cause and, for a division, whose it is."""
    return (difference.cause, difference.side if difference.aspect == "division" else "")


def find_causes(play: Play, cases: list[Case], budget: int) -> list[Found]:
    """The causes of the disagreements in `cases`, the most frequent first; `play` plays a
    scenario (`run.outcomes` with the engine), `budget` bounds the variants tried per case
    shrunk."""
    groups: dict[Cause, list[tuple[Case, Difference]]] = {}
    for case in cases:
        for difference in {d.cause: d for d in reversed(case.causes())}.values():
            groups.setdefault(difference.cause, []).append((case, difference))
    found: dict[Kind, Found] = {}
    for cause, members in groups.items():
        shrunk = [_shrunk(play, case, difference, budget) for case, difference in
                  _chosen(members)]
        by_case = {s.case: s for s in shrunk}
        for case, difference in members:
            own = by_case.get(case.index)
            kind = own.kind if own is not None else _matching(difference, shrunk)
            home = found.setdefault(kind, Found(kind))
            home.cases.add(case.index)
            home.groups[cause] += 1
        for s in shrunk:
            found[s.kind].shrunk.append(s)
    return _fold(list(found.values()))


def _chosen(members: list[tuple[Case, Difference]]) -> list[tuple[Case, Difference]]:
    """The cases of a group to shrink: the smallest of each side first, then the smallest
    with ingredients not seen yet, up to SHRUNK_PER_GROUP."""
    ordered = sorted(members, key=lambda m: (size(m[0].data), m[0].index))
    chosen: list[tuple[Case, Difference]] = []
    sides: set[str] = set()
    for member in ordered:
        side = kind_of(member[1])[1]
        if side not in sides:
            sides.add(side)
            chosen.append(member)
    seen = {_ingredients(case.data) for case, _ in chosen}
    for member in ordered:
        if len(chosen) >= max(SHRUNK_PER_GROUP, len(sides)):
            break
        ingredients = _ingredients(member[0].data)
        if ingredients not in seen:
            seen.add(ingredients)
            chosen.append(member)
    return chosen


def _ingredients(data: dict[str, Any]) -> frozenset[str]:
    """What a scenario is made of, numbers aside: keywords, marked damage, counters, players'
    life and poison, planeswalkers, blockers of several attackers."""
    found = set()
    for permanent in data.get("permanents", []):
        for keyword in permanent.get("keywords", []):
            found.add(keyword if isinstance(keyword, str) else next(iter(keyword)))
        found |= {f"counters {kind}" for kind in permanent.get("counters", {})}
        found |= {key for key in ("damage", "types") if key in permanent}
    found |= {f"player {key}" for player in data.get("players", []) for key in player
              if key != "id"}
    return frozenset(found)


def _shrunk(play: Play, case: Case, difference: Difference, budget: int) -> Shrunk:
    """The case shrunk to a smallest scenario showing its difference: first of the same
    kind, then on the same object with the rules only narrowing; renamed a1, b1 …"""
    kind = kind_of(difference)
    best: dict[str, Any] = {"difference": difference, "result": None}

    def same_kind(candidate: dict[str, Any]) -> bool:
        return _keep(play(candidate), lambda d: kind_of(d) == kind)

    def narrower(candidate: dict[str, Any]) -> bool:
        now = best["difference"]
        return _keep(play(candidate), lambda d: (
            d.aspect == now.aspect and d.item == now.item and d.side == now.side
            and bool(d.rules) and set(d.rules) <= set(now.rules)))

    def _keep(result: Result, wanted: Callable[[Difference], bool]) -> bool:
        match = next((d for d in counted(result.differences) if wanted(d)), None)
        if match is not None:
            best.update(difference=match, result=result)
        return match is not None

    minimal, tried = shrink(case.data, same_kind, budget)
    if kind[0].aspect != "engine error" and not difference.after_end:
        minimal, more = shrink(minimal, narrower, budget - tried)
        tried += more
    renamed = canonical(minimal)
    if renamed != minimal and legal(renamed):
        now = best["difference"]
        if _keep(play(renamed), lambda d: kind_of(d) == kind_of(now)):
            minimal = renamed
    if best["result"] is None:
        best["result"] = play(minimal)
        best["difference"] = next((d for d in counted(best["result"].differences)
                                   if kind_of(d) == kind), difference)
    return Shrunk(case.index, minimal, best["result"], best["difference"], tried)


def counted(differences: Iterable[Difference]) -> list[Difference]:
    """The differences that count as causes: the roots before the reference's game was over;
    a step played after it too when it is a fault of its own."""
    before = [d for d in differences if not d.after_end]
    return before + [d for d in differences if d.after_end and (d.independent or not before)]


def _matching(difference: Difference, shrunk: list[Shrunk]) -> Kind:
    """The kind an unshrunk case of a group joins: that of the most shrunk cases of its side
    (a case of each side is shrunk), else of the most shrunk cases."""
    side = kind_of(difference)[1]
    kinds = Counter(s.kind for s in shrunk if s.kind[1] == side) or Counter(
        s.kind for s in shrunk)
    return kinds.most_common(1)[0][0]


def _fold(found: list[Found]) -> list[Found]:
    """Causes kept after folding each into a smaller one whose kind its smallest case also
    shows; the most frequent first."""
    kept: list[Found] = []
    for cause in sorted(found, key=lambda f: (size(f.smallest.minimal), -len(f.cases))):
        shown = {kind_of(d) for d in counted(cause.smallest.result.differences)}
        home = next((k for k in kept if k.kind in shown and k.kind != cause.kind), None)
        if home is None:
            kept.append(cause)
        else:
            home.folded.append(cause.kind)
            home.cases |= cause.cases
    return sorted(kept, key=lambda f: (-len(f.cases), f.smallest.case))


def _cause_json(cause: Cause, scenarios: int | None = None) -> dict[str, Any]:
    found: dict[str, Any] = {"aspect": cause.aspect, "rules": list(cause.rules),
                             "detail": cause.detail}
    if scenarios is not None:
        found["scenarios"] = scenarios
    return found
