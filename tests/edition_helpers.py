"""Small Comprehensive Rules releases of a few rules each, three editions apart by a
renumbering, a rewritten rule and a rule dropped and printed again, and a database of
them made with `rulesdb add`; for the tests of overrides, renumbering lists, feeds and
release notes."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from rulesdb.cli import cli

HEAD = """\
Magic: The Gathering Comprehensive Rules

These rules are effective as of {date}.

Introduction

This document is the ultimate authority.

Contents

1. Game Concepts
7. Additional Rules
Glossary
Credits

"""
TAIL = """
Glossary

Trample
A keyword ability. See rule 702.19.

Credits

Magic: The Gathering Original Game Design: Richard Garfield
"""

DECK = "To play, each player needs their own deck of traditional Magic cards with at least"
TRAMPLE_A = "Trample is a static ability that modifies the rules for assigning combat damage."
TRAMPLE_B = "An attacker with trample may assign its excess combat damage to the player it attacks."
DEFENDER = "Defender is a static ability that stops a creature from attacking."
MULLIGAN = "A player who is unhappy with their opening hand may take a mulligan and draw anew."

A = {
    "1": "Game Concepts", "100": "General",
    "100.1": "These Magic rules apply to any Magic game with two or more players.",
    "100.2": f"{DECK} sixty cards.",
    "100.3": MULLIGAN,
    "7": "Additional Rules", "702": "Keyword Abilities",
    "702.1": "Most abilities describe exactly what they do.",
    "702.2": "Deathtouch", "702.2a": "Deathtouch is a static ability.",
    "702.3": "Defender", "702.3a": DEFENDER,
    "702.19": "Trample", "702.19a": TRAMPLE_A,
}
# Banding comes in before Deathtouch (702.2 → 702.3, 702.3 → 702.4 with their subrules),
# the deck needs forty cards, trample is rewritten, the mulligan rule is left out.
B = {
    "1": "Game Concepts", "100": "General",
    "100.1": "These Magic rules apply to any Magic game with two or more players.",
    "100.2": f"{DECK} forty cards.",
    "7": "Additional Rules", "702": "Keyword Abilities",
    "702.1": "Most abilities describe exactly what they do.",
    "702.2": "Banding",
    "702.2a": "Banding is a static ability that lets creatures attack in a group.",
    "702.3": "Deathtouch", "702.3a": "Deathtouch is a static ability.",
    "702.4": "Defender", "702.4a": DEFENDER,
    "702.19": "Trample", "702.19a": TRAMPLE_B,
}
# The mulligan rule is back (reworded), trample names planeswalkers too.
C = {
    **{k: v for k, v in B.items() if not k.startswith("7")},
    "100.3": "A player unhappy with their opening hand may take a mulligan and draw a new hand.",
    **{k: v for k, v in B.items() if k.startswith("7")},
    "702.19a": TRAMPLE_B.replace("the player it attacks", "the player or planeswalker it attacks"),
}
EDITIONS = {"cr-2024-01-01": ("January 1, 2024", A), "cr-2024-06-01": ("June 1, 2024", B),
            "cr-2025-01-01": ("January 1, 2025", C)}


def release(date: str, rules: dict[str, str]) -> str:
    """A release of `rules` (number → text), in the layout of the real ones."""
    lines = []
    for number, text in rules.items():
        marker = number + ("." if number[-1].isdigit() else "")
        lines.append(f"{marker} {text}\n")
    return HEAD.format(date=date) + "\n".join(lines) + TAIL


def write_releases(folder: Path, only: list[str] | None = None) -> list[Path]:
    """The releases (all, or the ids in `only`) as files in `folder`."""
    paths = []
    for doc_id, (date, rules) in EDITIONS.items():
        if only is None or doc_id in only:
            path = folder / f"{doc_id}.txt"
            path.write_text(release(date, rules), encoding="utf-8")
            paths.append(path)
    return paths


def run(*args: str) -> object:
    """`rulesdb ARGS`, in-process."""
    return CliRunner().invoke(cli, [*args], catch_exceptions=False)


def make_db(folder: Path, overrides: str | None = None, only: list[str] | None = None) -> Path:
    """A database of the releases (all, or `only`) added with the overrides file
    `folder/overrides.txt` holding `overrides` (no file when None)."""
    db = folder / "rules.db"
    if overrides is not None:
        (folder / "overrides.txt").write_text(overrides, encoding="utf-8")
    result = run("add", *map(str, write_releases(folder, only)), "--db", str(db),
                 "--overrides", str(folder / "overrides.txt"))
    assert result.exit_code == 0, result.output
    return db
