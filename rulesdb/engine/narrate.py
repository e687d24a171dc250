"""An evaluation told step by step: one line per thing that happened, with the rules that
decided it (attacks and blocks, each damage step's assignments, prevention, what the
damage did, life gained, state-based actions, the end of the game)."""

from __future__ import annotations

from dataclasses import dataclass

from .blocking import EVASION_RULES
from .combat import FIRST_STRIKE, StepReport
from .division import Assignment
from .model import GameState, Permanent
from .outcome import Evaluation

SBA_WORDS = {
    "704.5a": "0 or less life", "704.5b": "drew from an empty library",
    "704.5c": "ten or more poison counters", "704.5f": "toughness 0 or less",
    "704.5g": "lethal damage", "704.5h": "damage from a source with deathtouch",
    "704.5i": "0 loyalty", "704.5v": "0 defense",
}


@dataclass(frozen=True)
class Line:
    """One thing that happened; `level` 0 for a heading, 1 for what happened under it."""

    text: str
    rules: tuple[str, ...] = ()
    level: int = 1


def narrate(evaluation: Evaluation) -> list[Line]:
    """The lines telling an evaluation, in the order things happened."""
    scenario, before = evaluation.scenario, evaluation.before
    lines = [Line("Attacks and blocks", ("508.1", "509.1"), 0)]
    for attack in scenario.attacks:
        attacker = _get(before, attack.attacker)
        lines.append(Line(f"{describe(attacker)} attacks {attack.target}", ("508.1a",)))
        for blocker in attack.blockers:
            rules = ("509.1a", *(r for k, r in EVASION_RULES if k in attacker.keywords),
                     *(("702.16f",) if attacker.protection else ()),
                     *(("702.14c",) if attacker.landwalk else ()))
            lines.append(Line(f"{describe(_get(before, blocker))} blocks {attack.attacker}",
                              rules))
        if not attack.blockers:
            status = "blocked, its blockers gone" if attack.is_blocked else "unblocked"
            lines.append(Line(f"{attack.attacker} is {status}", ("509.1h",)))
    if not evaluation.reports:
        lines.append(Line("No creature attacks: no combat damage step", ("508.8",), 0))
    for report in evaluation.reports:
        lines += _step(report, len(evaluation.reports))
    over = evaluation.after
    losers = [p.id for p in over.players if p.lost]
    if losers:
        winners = [p.id for p in over.players if not p.lost]
        result = f"{winners[0]} wins" if winners else "it is a draw"
        early = evaluation.reports[-1].step == FIRST_STRIKE
        lines.append(Line(f"The game is over: {result}"
                          + ("; the second combat damage step is not played" if early else ""),
                          ("104.2a",) if winners else ("104.4a",), 0))
    lines.append(Line("Result", (), 0))
    for player in over.players:
        was = before.player(player.id)
        lines.append(Line(f"{player.id}: {player.life} life ({player.life - was.life:+d}), "
                          f"{player.poison} poison ({player.poison - was.poison:+d})"
                          + (", lost" if player.lost else "")))
    return lines


def _step(report: StepReport, count: int) -> list[Line]:
    if report.step == FIRST_STRIKE:
        lines = [Line("First-strike combat damage step", ("510.4", "702.7b"), 0)]
    else:
        lines = [Line("Combat damage step" if count == 1 else "Second combat damage step",
                      ("510.1", "510.2") if count == 1 else ("510.4",), 0)]
    state = report.before
    assert state is not None
    prevented = {(a.source, a.target) for a in report.prevented}
    for a in report.assigned:
        lines.append(Line(f"{a.source} assigns {a.amount} damage to {a.target}", a.rules))
    for a in report.assigned:
        if (a.source, a.target) in prevented:
            lines.append(Line(f"the {a.amount} damage from {a.source} to {a.target} is "
                              "prevented (protection)", ("702.16e",)))
        else:
            lines += _effects(state, a)
    for player, amount, source in report.life_gained:
        lines.append(Line(f"{player} gains {amount} life (lifelink of {source})", ("702.15b",)))
    for events in report.events:
        for event in events:
            why = "; ".join(SBA_WORDS.get(rule, rule) for rule in event.rules)
            if event.kind == "lose":
                lines.append(Line(f"{event.object} loses the game: {why}", event.rules))
            elif event.kind in ("graveyard", "sacrifice"):
                verb = "is destroyed" if any(r in ("704.5g", "704.5h") for r in event.rules) \
                    else "is put into its owner's graveyard"
                lines.append(Line(f"{event.object} {verb}: {why}", event.rules))
            elif event.kind != "cease":
                lines.append(Line(f"{event.object}: {event.kind} ({why})", event.rules))
    return lines


def _effects(state: GameState, a: Assignment) -> list[Line]:
    """What dealt damage does to its recipient (120.3 and the keywords changing it)."""
    source = _get(state, a.source)
    target = state.permanent(a.target)
    dealt = f"{a.source} deals {a.amount} damage to {a.target}"
    lines = []
    if target is None:
        if "infect" in source.keywords:
            lines.append(Line(f"{dealt}: {a.amount} poison counters (infect)", ("702.90b",)))
        else:
            lines.append(Line(f"{dealt}: {a.target} loses {a.amount} life", ("120.3a",)))
        if source.toxic:
            lines.append(Line(f"{a.target} gets {source.toxic} poison counters (toxic "
                              f"{source.toxic})", ("702.164c",)))
        return lines
    if target.is_("creature"):
        if {"infect", "wither"} & source.keywords:
            keyword = "infect" if "infect" in source.keywords else "wither"
            rule = "702.90c" if keyword == "infect" else "702.80a"
            lines.append(Line(f"{dealt}: {a.amount} -1/-1 counters ({keyword})", (rule,)))
        else:
            lines.append(Line(f"{dealt}, marked on it", ("120.3e",)))
    if target.is_("planeswalker"):
        lines.append(Line(f"{dealt}: {a.amount} loyalty counters removed", ("120.3c",)))
    if target.is_("battle"):
        lines.append(Line(f"{dealt}: {a.amount} defense counters removed", ("120.3h",)))
    return lines


def describe(permanent: Permanent) -> str:
    """"a1 (Name, 2/2, flying)": the id, then what a reader needs to follow the combat."""
    parts = [permanent.name] if permanent.name != permanent.id else []
    if permanent.is_("creature"):
        parts.append(" ".join([*sorted(permanent.colors),
                               f"{permanent.current_power}/{permanent.current_toughness}"]))
    if permanent.damage:
        parts.append(f"{permanent.damage} damage marked")
    parts += sorted(permanent.keywords)
    if permanent.protection:
        parts.append("protection from " + ", ".join(sorted(permanent.protection)))
    if permanent.toxic:
        parts.append(f"toxic {permanent.toxic}")
    parts += [f"{land} landwalk" for land in permanent.landwalk]
    return f"{permanent.id} ({', '.join(parts)})" if parts else permanent.id


def _get(state: GameState, permanent_id: str) -> Permanent:
    permanent = state.permanent(permanent_id)
    assert permanent is not None, permanent_id
    return permanent
