"""Shared helpers of the rulings-summary parser tests: the document id, a synthetic summary's
heading and the rules parsed from a synthetic summary."""

from __future__ import annotations

from rulesdb.ingest.model import Rule
from rulesdb.ingest.rulings import parse

DOC_ID = "rulings-1999-04"
UNDERLINE = "-" * 78
HEAD = f"A - Abilities\n{UNDERLINE}\n\nA.1 - General\n"


def rules(source: str) -> list[Rule]:
    """The rules parsed from a small synthetic summary."""
    return list(parse(source.encode("utf-8")).rules)
