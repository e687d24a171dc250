"""What the reference evaluator enforces: the `@enforces` registry and the rules left out.

Rule ids cite the bundled `cr-2025-06-06` edition; a test fails when one no longer resolves.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

EDITION = "cr-2025-06-06"
F = TypeVar("F", bound=Callable)


@dataclass(frozen=True)
class Enforcement:
    """One rule id declared by one function of the evaluator."""

    rule: str
    function: str
    module: str
    file: str
    line: int


REGISTRY: list[Enforcement] = []

# Rules of 704.5 the model cannot express, with the reason (every other one is enforced).
NOT_MODELLED: dict[str, str] = {
    "704.5t": "dungeons and venture markers are not part of the model (they live in the "
              "command zone with room abilities and need a room-ability stack)",
    "704.5u": "sector designations of space sculptor need each player's choice of sector; "
              "the model has no sectors",
}

# Examples of the combat rules (506-511) and the combat keywords the scenario corpus
# (rulesdb/engine/corpus) cannot encode, with the reason; every other one is a scenario there.
EXAMPLES_NOT_MODELLED: dict[str, str] = {
    "508.1d": "attack requirements (\"attacks each combat if able\") and effects limiting how "
              "many creatures attack are not part of the model",
    "508.2a": "triggered abilities are not part of the model",
    "509.3f": "triggered abilities are not part of the model",
    "702.22h": "banding is not part of the model",
}

_PACKAGE = Path(__file__).resolve().parent


def enforces(*rules: str) -> Callable[[F], F]:
    """Declare that the decorated function implements the given rule ids."""

    def mark(function: F) -> F:
        source = Path(inspect.getsourcefile(function) or "")
        try:
            file = source.resolve().relative_to(_PACKAGE.parent.parent).as_posix()
        except ValueError:
            file = source.as_posix()
        line = function.__code__.co_firstlineno
        for rule in rules:
            REGISTRY.append(Enforcement(rule, function.__qualname__, function.__module__,
                                        file, line))
        function.__enforces__ = (*getattr(function, "__enforces__", ()), *rules)
        return function

    return mark


def registry() -> list[Enforcement]:
    """Every declared enforcement of the evaluator's modules, in declaration order."""
    from . import blocking, combat, damage, sba  # noqa: F401  (importing them fills REGISTRY)

    return list(REGISTRY)
