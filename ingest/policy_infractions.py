"""An Infraction Procedure Guide infraction read into its parts: penalty, definition,
examples, philosophy, additional remedy, upgrade, downgrade.

Pure: a parsed `Rule` of kind "infraction" (rulesdb.ingest.policy_text) in, an `Infraction`
out. The parts are the paragraphs under the sub-headings the IPG prints ("Definition",
"Examples", "Philosophy", "Additional Remedy"); an upgrade or a downgrade is a paragraph
opening with "Upgrade:" / "Downgrade:" and the paragraphs after it up to the next heading
or run-in label (several upgrades are kept in order, a paragraph apart).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .model import Rule
from .policy_text import penalty_of

FIELDS = {"definition": "definition", "examples": "examples", "philosophy": "philosophy",
          "additional remedy": "additional_remedy"}
_RUN_IN = re.compile(r"(Upgrade|Downgrade):\s*")
_EXAMPLE = re.compile(r"[A-Z]\.\s+")
_CATEGORY = re.compile(r"\s+[—–]\s+")


@dataclass(frozen=True)
class Infraction:
    """One infraction of the IPG: its number, category ("Game Play Error"), name ("Missed
    Trigger"), penalty as its heading prints it, and its parts (None when it has none;
    `examples` without their letters)."""

    number: str
    category: str | None
    name: str
    penalty: str | None
    definition: str | None = None
    examples: tuple[str, ...] = ()
    philosophy: str | None = None
    additional_remedy: str | None = None
    upgrade: str | None = None
    downgrade: str | None = None


def infraction(rule: Rule) -> Infraction | None:
    """The parts of an infraction rule; None for a rule of another kind."""
    if rule.kind != "infraction":
        return None
    title = rule.title or ""
    category, name = _CATEGORY.split(title, maxsplit=1) if _CATEGORY.search(title) else (
        "", title)
    parts: dict[str, list[str]] = {}
    current = None
    for line in rule.text.split("\n"):
        heading = FIELDS.get(line.strip().rstrip(":").lower())
        run_in = _RUN_IN.match(line)
        if heading:
            current = heading
            continue
        if run_in:
            current = run_in[1].lower()
            line = line[run_in.end():]
        if current is not None:
            parts.setdefault(current, []).append(line)
    examples = tuple(_EXAMPLE.sub("", line, count=1) for line in parts.get("examples", ()))

    def joined(field: str) -> str | None:
        return "\n".join(parts[field]) if field in parts else None

    return Infraction(rule.number, category or None, name, penalty_of(rule),
                      joined("definition"), examples, joined("philosophy"),
                      joined("additional_remedy"), joined("upgrade"), joined("downgrade"))
