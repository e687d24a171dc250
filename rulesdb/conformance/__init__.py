"""Conformance: another combat engine tested against the reference evaluator (`rulesdb.engine`).

An engine is a function taking a scenario (a JSON value, `scenario.schema.json`) and
returning its outcome (`outcome.schema.json`). `run.check` plays it on seeded random
scenarios beside the reference: an engine's own divisions of damage are its choices, checked
against the rules and replayed by the reference (`choices`); the outcomes are compared where
they first part (`compare`, with the rules deciding each difference from `reasons`); the
disagreements are grouped into causes, several cases of each shrunk to their smallest
(`causes`, `shrink`). A scenario the engine cannot express is not compared: it raises
`Unsupported` (or returns None).

This module holds only what an engine's adapter imports: `from rulesdb.conformance import
Unsupported`.
"""


class Unsupported(Exception):
    """Raised by an engine for a scenario it cannot express (a battle, a blocker facing two
    attackers …): the scenario is counted as not compared, under the message as its reason,
    never as an agreement or a disagreement."""
