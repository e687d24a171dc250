"""A conformance report for the terminal: the counts, what was not compared and why, and each
cause with the rules deciding it, its smallest scenario, what differs there and both
outcomes in one line each."""

from __future__ import annotations

import json
from typing import Any

from ..conformance.run import AS_THE_GAME_ENDS
from .combat_text import Citations, compact_json

CASES_SHOWN = 8
REASONS_SHOWN = 10
SIDES = {"attacker": "the attacking player's", "blocker": "the defending player's"}
TITLES = {
    "steps": "the combat damage steps played",
    "damage prevented": "damage prevented",
    "life gained": "life gained",
    "deaths": "deaths",
    "losses": "losses",
    "life and poison": "life and poison",
    "permanents": "damage and counters left on permanents",
    "game over": "the end of the game",
    AS_THE_GAME_ENDS: "state-based actions performed as the game ends",
}


def plural(count: int, word: str, words: str | None = None) -> str:
    """'1 creature', '2 creatures' (`words` when the plural is not word + s)."""
    return f"{count:,} {word if count == 1 else words or word + 's'}"


def report_text(engine: str, report: dict[str, Any], cite: Citations) -> str:
    """A conformance report for the terminal."""
    count, compared, agreed = report["scenarios"], report["compared"], report["agreed"]
    causes = report["causes"]
    share = f" ({100 * report['agreement']:.1f}%)" if compared else ""
    lines = [f"{engine} against the reference evaluator ({report['edition']})",
             f"{plural(count, 'scenario')} (seed {report['seed']}): {compared:,} compared, "
             f"{agreed:,} agree{share}, {report['disagreed']:,} disagree"
             + (f", {plural(len(causes), 'cause')}" if causes else "")]
    fields = report["fields"]
    lines.append(f"fields compared: {', '.join(fields['compared']) or 'none'}"
                 + (f"; not given by the engine: {', '.join(fields['not_given'])}"
                    if fields["not_given"] and fields["compared"] else ""))
    if report["replayed"]:
        lines.append(f"divisions of its own: {plural(report['replayed'], 'scenario')}, checked "
                     "and replayed by the reference")
    lines += _not_compared(report)
    for cause in causes:
        lines += ["", *_cause(cause, cite)]
    return "\n".join(lines)


def _not_compared(report: dict[str, Any]) -> list[str]:
    left = report["not_compared"]
    if not left["scenarios"]:
        return []
    lines = [f"not compared: {plural(left['scenarios'], 'scenario')} "
             f"({100 * left['scenarios'] / report['scenarios']:.1f}%), never counted as "
             "agreeing or disagreeing"]
    reasons = left["reasons"]
    lines += [f"  {r['scenarios']:>6,}  {r['reason']}" for r in reasons[:REASONS_SHOWN]]
    if len(reasons) > REASONS_SHOWN:
        lines.append(f"  … and {plural(len(reasons) - REASONS_SHOWN, 'more reason')} "
                     "(--json lists them all)")
    return lines


def title(cause: dict[str, Any]) -> str:
    """What a cause is about, in words."""
    if cause["aspect"] == "engine error":
        return ("the engine's outcome is malformed" if cause["detail"] == "Malformed"
                else f"the engine raised {cause['detail']}")
    if cause["aspect"] == "division":
        return f"a division of combat damage, {SIDES.get(cause['side'], 'a creature’s')}"
    if cause["after_end"]:
        return "a step played after the game is over"
    return TITLES.get(cause["aspect"], cause["aspect"])


def _cause(cause: dict[str, Any], cite: Citations) -> list[str]:
    shown = ", ".join(f"#{i}" for i in cause["cases"][:CASES_SHOWN])
    more = cause["scenarios"] - min(CASES_SHOWN, len(cause["cases"]))
    lines = [f"{cause['number']}. {title(cause)}: {plural(cause['scenarios'], 'scenario')} "
             f"({shown}{f' and {more:,} more' if more else ''})"]
    lines += [f"   decided by {cite.line(rule)}" for rule in cause["rules"]]
    for folded in cause["folded"]:
        lines.append(f"   also, as its consequence: {folded['aspect']} "
                     f"({', '.join(folded['rules']) or folded['detail']})")
    smallest = cause["smallest"]
    lines.append(f"   smallest scenario (from #{smallest['case']}: "
                 f"{plural(smallest['creatures'], 'creature')}; "
                 f"{plural(len(cause['shrunk']), 'case')} shrunk, "
                 f"{plural(cause['variants_tried'], 'variant')} "
                 "tried):")
    lines += ["     " + row for row in compact_json(smallest["scenario"]).splitlines()]
    lines += [f"   {line}" for d in cause["differences"] for line in [difference(d)]]
    players = smallest["scenario"].get("players", [])
    if cause["aspect"] == "division" and cause["reference_own"] is not None:
        lines.append(f"   reference (its own divisions): "
                     f"{summary(cause['reference_own'], players)}")
    else:
        replayed = " (with the engine's divisions)" if cause["replayed"] else ""
        lines.append(f"   reference{replayed}: {summary(cause['reference'], players)}")
    lines.append(f"   engine:    {summary(cause['engine'], players)}")
    return lines


def difference(d: dict[str, Any]) -> str:
    """One difference of a smallest case, in words."""
    if d["aspect"] == AS_THE_GAME_ENDS:
        what = difference({**d, "aspect": d.get("note", ""), "note": ""})
        return f"{what}, as the game ends ({', '.join(d['rules'])})"
    where = f"{d['step']} step, " if d.get("step") else ""
    mine, theirs = d["reference"], d["engine"]
    aspect = d["aspect"]
    if aspect == "engine error":
        return f"the engine raised {d['item']}: {theirs}"
    if aspect == "division" and d.get("note"):
        return (f"{where}{d['item']} divides its damage {_value(theirs)}: illegal, "
                f"{d['note']} ({', '.join(d['rules'])})")
    if aspect == "division" and not mine:
        return (f"{where}{d['item']} divides its damage {_value(theirs)}, but deals no combat "
                f"damage in this step ({', '.join(d['rules'])})")
    if aspect == "steps":
        late = " after the game is over" if d.get("after_end") else ""
        return f"steps played{late}: reference {_value(mine)}, engine {_value(theirs)}"
    if aspect in ("deaths", "losses"):
        verb = "dies" if aspect == "deaths" else "loses the game"
        who = "the reference" if mine else "the engine"
        other = "the engine" if mine else "the reference"
        return f"{where}{d['item']} {verb} in {who}, not in {other}"
    if aspect == "life and poison":
        return f"{d['item']}: reference {_life(mine)}; engine {_life(theirs)}"
    return f"{where}{d['item']}: reference {_value(mine)}, engine {_value(theirs)}"


def _life(value: Any) -> str:
    if not isinstance(value, dict):
        return "no record"
    return f"{value.get('life')} life, {value.get('poison')} poison"


def _value(value: Any) -> str:
    return "no record" if value is None else json.dumps(value, ensure_ascii=False)


def summary(outcome: Any, players: list[dict[str, Any]] = ()) -> str:
    """An outcome in one line: damage (prevented), life gained, deaths, losses, and the
    players' life and poison where they changed from `players` (the scenario's)."""
    if outcome is None:
        return "no outcome"
    if not isinstance(outcome, dict):
        return repr(outcome)
    if "raised" in outcome:
        return f"raised {outcome['raised']}"
    parts = []
    for record in outcome.get("damage", []):
        prevented = record.get("prevented", 0)
        parts.append(f"{record.get('source')}→{record.get('target')} {record.get('amount')}"
                     + (f" (prevented {prevented})" if prevented else ""))
    for gain in outcome.get("life_gained", []):
        parts.append(f"{gain.get('player')} gains {gain.get('amount')} life")
    for death in outcome.get("deaths", []):
        parts.append(f"{death.get('permanent')} dies")
    for loss in outcome.get("losses", []):
        parts.append(f"{loss.get('player')} loses")
    start = {p.get("id"): (p.get("life", 20), p.get("poison", 0)) for p in players}
    for player, data in (outcome.get("players") or {}).items():
        life, poison = start.get(player, (None, None))
        if isinstance(data, dict) and life is not None:
            if data.get("life", life) != life:
                parts.append(f"{player} {life}→{data.get('life')} life")
            if data.get("poison", poison) != poison:
                parts.append(f"{player} {poison}→{data.get('poison')} poison")
    return "; ".join(str(p) for p in parts) or "nothing happens"
