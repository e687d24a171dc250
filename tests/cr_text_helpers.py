"""Shared helpers of the Comprehensive Rules text parser tests: parsing a string, a brief view
of the rules, a whole synthetic release and the bundled chapter-7 seed."""

from __future__ import annotations

from rulesdb.ingest.cr_text import parse

from conftest import SOURCE_FILES

SEED = "cr-2025-06-06-chapter7"


def brief(doc) -> list[tuple]:
    """(kind, number, parent, marker, text, title, example texts) per rule."""
    return [
        (r.kind, r.number, r.parent, r.marker, r.text, r.title, [e.text for e in r.examples])
        for r in doc.rules
    ]


def parse_text(text: str):
    return parse(text.encode("utf-8"))


WHOLE = """\
Magic: The Gathering Comprehensive Rules

These rules are effective as of June 6, 2025.

Introduction

This document is the ultimate authority.

Contents

1. Game Concepts
100. General

Glossary

Credits

1. Game Concepts

100. General

100.1. These rules apply.

Glossary

Control, Controller
The controller of a spell.
Example: You control it.

Active Player, Nonactive Player Order
A system. See rule 101.4. See also Control.

Bury (Obsolete)
A term that meant destroy.
See Destroy.

Credits

Game Design: Someone
"""


def read_seed() -> str:
    """The text of the bundled chapter-7 seed."""
    return SOURCE_FILES[SEED].read_bytes().decode("utf-8")
