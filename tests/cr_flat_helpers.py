"""Shared helpers of the flattened Comprehensive Rules parser tests: a small flattened
document around a body, a glossary and credits."""

from __future__ import annotations

HEAD = (
    "Magic: The Gathering Comprehensive Rules These rules are current as of February 1, 2009. "
    "Introduction Read this first. Contents 1. The Game 100. General Glossary Credits Questions? "
)
GLOSSARY = "Absorb Absorb is a static ability that prevents damage."
TAIL = "Credits Editing: Del Laugel. Questions? Contact the office nearest you."


def make_doc(body: str, glossary: str = GLOSSARY, tail: str = TAIL) -> bytes:
    """A small flattened CR: head, `body`, the glossary and the credits on one line."""
    return f"{HEAD}{body} Glossary {glossary} {tail}".encode()


START = "1. The Game 100. General"
