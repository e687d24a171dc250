"""Legality of a declaration of attackers and blockers (508.1, 509.1) and the evasion
abilities of 702 that restrict blocks.

Checked on the snapshot a scenario gives, before any damage: restrictions of one blocker
against one attacker (flying, reach, shadow, horsemanship, fear, intimidate, skulk,
protection, landwalk, "can't block", "can't be blocked"), of a whole declaration (menace,
"can't attack alone", how many creatures one blocker may block) and requirements
("blocks each combat if able", 509.1c). Each problem names the rule it breaks.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations, product

from .model import GameState, Permanent, protected_from
from .registry import enforces

BLOCKS_IF_ABLE = "blocks each combat if able"
# The attacker's evasion keywords and the rule each imposes on its blockers.
EVASION_RULES = (("flying", "702.9b"), ("shadow", "702.28b"), ("horsemanship", "702.31b"),
                 ("fear", "702.36b"), ("intimidate", "702.13b"), ("skulk", "702.118b"),
                 ("menace", "702.111b"), ("can't be blocked", "509.1b"))
MAX_DECLARATIONS = 200_000  # declarations tried when checking 509.1c requirements


@dataclass(frozen=True)
class Problem:
    """Why a declaration is illegal: the rule, a sentence, and the creatures involved."""

    rule: str
    message: str
    creature: str
    other: str | None = None


@enforces("702.9b", "702.17b", "702.28b", "702.31b", "702.36b", "702.13b", "702.118b",
          "702.16f", "702.16j", "702.16k", "702.14c", "509.1b")
def block_restriction(state: GameState, blocker: Permanent, attacker: Permanent,
                      defender: str) -> Problem | None:
    """The first restriction that forbids `blocker` to block `attacker`, or None."""
    b, a = blocker.keywords, attacker.keywords
    name = f"{blocker.id} can't block {attacker.id}"
    if "can't block" in b:
        return Problem("509.1b", f"{name}: {blocker.id} can't block", blocker.id, attacker.id)
    if "can't be blocked" in a:
        return Problem("509.1b", f"{name}: {attacker.id} can't be blocked", blocker.id,
                       attacker.id)
    if "flying" in a and not {"flying", "reach"} & b:
        return Problem("702.9b", f"{name}: a creature with flying can't be blocked except by "
                       "creatures with flying and/or reach", blocker.id, attacker.id)
    if ("shadow" in a) != ("shadow" in b):
        return Problem("702.28b", f"{name}: creatures with shadow block and are blocked only "
                       "by creatures with shadow", blocker.id, attacker.id)
    if "horsemanship" in a and "horsemanship" not in b:
        return Problem("702.31b", f"{name}: a creature with horsemanship can't be blocked by "
                       "creatures without horsemanship", blocker.id, attacker.id)
    artifact = blocker.is_("artifact")
    if "fear" in a and not artifact and "black" not in blocker.colors:
        return Problem("702.36b", f"{name}: a creature with fear can't be blocked except by "
                       "artifact creatures and/or black creatures", blocker.id, attacker.id)
    if "intimidate" in a and not artifact and not attacker.colors & blocker.colors:
        return Problem("702.13b", f"{name}: a creature with intimidate can't be blocked except "
                       "by artifact creatures and/or creatures that share a color with it",
                       blocker.id, attacker.id)
    if "skulk" in a and blocker.current_power > attacker.current_power:
        return Problem("702.118b", f"{name}: a creature with skulk can't be blocked by "
                       "creatures with greater power", blocker.id, attacker.id)
    if protected_from(attacker.protection, blocker):
        rule = "702.16j" if "everything" in attacker.protection else (
            "702.16k" if blocker.controller in attacker.protection else "702.16f")
        return Problem(rule, f"{name}: {attacker.id} has protection from "
                       f"{_quality(attacker.protection, blocker)}", blocker.id, attacker.id)
    for land in attacker.landwalk:
        if any(lands_match(p, land) for p in state.battlefield if p.controller == defender):
            return Problem("702.14c", f"{name}: {attacker.id} has {land} landwalk and the "
                           f"defending player controls such a land", blocker.id, attacker.id)
    return None


def lands_match(permanent: Permanent, description: str) -> bool:
    """Whether `permanent` is a land fitting a landwalk description: each word a type,
    subtype or supertype it has, or "nonX" for one it lacks ("snow Forest", "nonbasic")."""
    if not permanent.is_("land"):
        return False
    has = {t.lower() for t in permanent.types | permanent.subtypes | permanent.supertypes}
    for word in description.lower().split():
        if word.startswith("non") and word[3:] and word not in has:
            if word[3:] in has:
                return False
        elif word not in has:
            return False
    return True


@enforces("509.1a", "702.111b")
def declaration_problems(state: GameState, blocks: dict[str, list[str]],
                         defender: str) -> Iterator[Problem]:
    """Problems of a declaration of blockers (blocker id → attacker ids, in the order
    given): who may block at all, how many attackers each may block, restrictions."""
    blocked_by: dict[str, list[str]] = {}
    for blocker_id, attacker_ids in blocks.items():
        blocker = _must(state, blocker_id)
        unfit = _unfit(blocker, "509.1a", "block", defender, "defending")
        if unfit is None and blocker.tapped:
            unfit = Problem("509.1a", f"{blocker_id} is tapped and can't block", blocker_id)
        if unfit is not None:
            yield unfit
        limit = blocker.additional_blocks
        if limit is not None and len(attacker_ids) > 1 + limit:
            yield Problem("509.1a", f"{blocker_id} blocks {len(attacker_ids)} creatures but can "
                          f"block only {1 + limit}", blocker_id)
        for attacker_id in attacker_ids:
            attacker = state.permanent(attacker_id)
            assert attacker is not None
            problem = block_restriction(state, blocker, attacker, defender)
            if problem:
                yield problem
            blocked_by.setdefault(attacker_id, []).append(blocker_id)
    for attacker_id, blockers in blocked_by.items():
        attacker = state.permanent(attacker_id)
        if attacker is not None and "menace" in attacker.keywords and len(blockers) == 1:
            yield Problem("702.111b", f"{attacker_id} has menace and is blocked by "
                          f"{blockers[0]} alone: it can't be blocked except by two or more "
                          "creatures", blockers[0], attacker_id)


@enforces("509.1c")
def requirement_problem(state: GameState, blocks: dict[str, list[str]], attackers: list[str],
                        defender: str) -> Problem | None:
    """A problem when fewer "blocks each combat if able" requirements are obeyed than the
    most a declaration without restriction problems could obey (509.1c)."""
    bound = [p for p in state.battlefield
             if p.controller == defender and BLOCKS_IF_ABLE in p.keywords]
    obeyed = sum(1 for p in bound if blocks.get(p.id))
    if obeyed == len(bound):
        return None
    candidates = [p for p in state.battlefield if p.controller == defender
                  and p.is_("creature") and not p.is_("battle") and not p.tapped
                  and "can't block" not in p.keywords]
    options = [_block_options(state, p, attackers, defender) for p in candidates]
    tried = 1
    for choice in options:
        tried *= len(choice)
    if tried > MAX_DECLARATIONS:
        return None  # too many declarations to try: requirements are left unchecked
    best = obeyed
    for declaration in product(*options):
        chosen = {p.id: list(c) for p, c in zip(candidates, declaration, strict=True) if c}
        count = sum(1 for p in bound if chosen.get(p.id))
        if count > best and not any(declaration_problems(state, chosen, defender)):
            best = count
    if best > obeyed:
        idle = next(p.id for p in bound if not blocks.get(p.id))
        return Problem("509.1c", f"{idle} blocks each combat if able: a legal declaration "
                       f"obeys {best} of these requirements, this one {obeyed}", idle)
    return None


def _block_options(state: GameState, blocker: Permanent, attackers: list[str],
                   defender: str) -> list[tuple[str, ...]]:
    """What one creature could block: nothing, or a set of attackers it may block."""
    allowed = [a for a in attackers
               if block_restriction(state, blocker, _must(state, a), defender) is None]
    most = len(allowed) if blocker.additional_blocks is None else 1 + blocker.additional_blocks
    options: list[tuple[str, ...]] = [()]
    for size in range(1, min(most, len(allowed)) + 1):
        options += list(combinations(allowed, size))
    return options


@enforces("508.1a", "508.1b", "508.1c", "702.3b", "506.3")
def attack_problems(state: GameState, attacks: list[tuple[str, str]],
                    active: str, defender: str) -> Iterator[Problem]:
    """Problems of a declaration of attackers (attacker id, what it attacks)."""
    for attacker_id, target_id in attacks:
        attacker = _must(state, attacker_id)
        unfit = _unfit(attacker, "508.1a", "attack", active, "attacking")
        if unfit is not None:
            yield unfit
        elif "defender" in attacker.keywords:
            yield Problem("702.3b", f"{attacker_id} has defender and can't attack", attacker_id)
        elif "can't attack alone" in attacker.keywords and len(attacks) == 1:
            yield Problem("508.1c", f"{attacker_id} can't attack alone", attacker_id)
        target = state.permanent(target_id)
        if target is None:
            if target_id != defender:
                yield Problem("508.1b", f"{attacker_id} can only attack the defending player "
                              f"{defender}, not {target_id}", attacker_id, target_id)
        elif target.is_("planeswalker"):
            if target.controller != defender:
                yield Problem("508.1b", f"{target_id} is not a planeswalker the defending "
                              "player controls", attacker_id, target_id)
        elif target.is_("battle"):
            if target.protector != defender:
                yield Problem("508.1b", f"{target_id} is not a battle the defending player "
                              "protects", attacker_id, target_id)
        else:
            yield Problem("506.3", f"only a player, a planeswalker or a battle can be "
                          f"attacked, not {target_id}", attacker_id, target_id)


def _unfit(creature: Permanent, rule: str, verb: str, player: str,
           side: str) -> Problem | None:
    """A problem when `creature` is no creature (or is a battle) or is not `player`'s."""
    if not creature.is_("creature") or creature.is_("battle"):
        return Problem(rule, f"{creature.id} is not a creature that can {verb}", creature.id)
    if creature.controller != player:
        return Problem(rule, f"{creature.id} is not controlled by the {side} player {player}",
                       creature.id)
    return None


def _quality(protection: frozenset[str], source: Permanent) -> str:
    if "everything" in protection:
        return "everything"
    qualities = source.colors | source.types | source.subtypes | {source.controller or ""}
    return ", ".join(sorted(protection & qualities))


def _must(state: GameState, permanent_id: str) -> Permanent:
    permanent = state.permanent(permanent_id)
    assert permanent is not None, permanent_id
    return permanent
