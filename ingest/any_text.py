"""A release's text, whichever document it is: a judges' policy document (the Magic
Tournament Rules, the Infraction Procedure Guide: told by its title line, `policy_text`) or
the Comprehensive Rules in either of its forms (`cr_any`)."""

from __future__ import annotations

from . import cr_any, policy_text
from .model import Document
from .policy_names import KINDS

# the id prefix of each kind of document `rulesdb add` takes
PREFIXES = {"comprehensive_rules": "cr", **{kind: prefix for kind, (_, prefix, _) in KINDS.items()}}
NAMES = {"comprehensive_rules": "Comprehensive Rules",
         **{kind: name for kind, (_, _, name) in KINDS.items()}}


def parser_for(text: str) -> str:
    """The name of the parser for a decoded text."""
    return "policy_text" if policy_text.kind_of(text) else cr_any.parser_for(text)


def parse_text(text: str) -> Document:
    """The Document of a decoded text, read by the parser its document and form need."""
    if policy_text.kind_of(text):
        return policy_text.parse_text(text)
    return cr_any.parse_text(text)
