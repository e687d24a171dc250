"""Reading a scenario's JSON values field by field: each check names the field it reads
(`permanents[2].keywords[1]`) in the ScenarioError it raises."""

from __future__ import annotations

from typing import Any

from .vocabulary import suggestion


class ScenarioError(ValueError):
    """A malformed scenario: the field at fault, what is wrong, and the rule when one
    decides it (an illegal block names its evasion rule)."""

    def __init__(self, field: str, message: str, rule: str | None = None) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field, self.message, self.rule = field, message, rule


def obj(value: Any, field: str, allowed: frozenset[str],
        required: tuple[str, ...] = ()) -> dict[str, Any]:
    """`value` as an object with only `allowed` keys and every `required` one."""
    if not isinstance(value, dict):
        raise ScenarioError(field, f"expected an object, got {kind(value)}")
    for key in value:
        if key not in allowed:
            where = f"{field}.{key}" if field else str(key)
            raise ScenarioError(where, f"unknown field {key!r}{suggestion(str(key), allowed)}")
    for key in required:
        if key not in value:
            raise ScenarioError(f"{field}.{key}" if field else key, "missing")
    return value


def array(value: Any, field: str) -> list[Any]:
    """`value` as a list."""
    if not isinstance(value, list):
        raise ScenarioError(field, f"expected a list, got {kind(value)}")
    return value


def integer(value: Any, field: str, low: int | None = None, high: int | None = None) -> int:
    """`value` as an integer within [low, high] (a boolean is not an integer)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ScenarioError(field, f"expected an integer, got {kind(value)}")
    if low is not None and value < low:
        raise ScenarioError(field, f"must be at least {low}, got {value}")
    if high is not None and value > high:
        raise ScenarioError(field, f"must be at most {high}, got {value}")
    return value


def text(value: Any, field: str) -> str:
    """`value` as a non-empty string."""
    if not isinstance(value, str) or not value.strip():
        raise ScenarioError(field, f"expected a non-empty string, got {kind(value)}")
    return value


def boolean(value: Any, field: str) -> bool:
    """`value` as true or false."""
    if not isinstance(value, bool):
        raise ScenarioError(field, f"expected true or false, got {kind(value)}")
    return value


def words(value: Any, field: str, known: frozenset[str] | None = None,
          what: str = "value") -> frozenset[str]:
    """`value` as a list of distinct strings, each in `known` when given."""
    items = array(value, field)
    seen: set[str] = set()
    for index, item in enumerate(items):
        where = f"{field}[{index}]"
        word = text(item, where)
        if known is not None and word not in known:
            raise ScenarioError(where, f"unknown {what} {word!r}{suggestion(word, known)}")
        if word in seen:
            raise ScenarioError(where, f"{word!r} is listed twice")
        seen.add(word)
    return frozenset(seen)


def reference(value: Any, field: str, ids: dict[str, str], want: str | None = None) -> str:
    """`value` as the id of a player or permanent (`ids`: id → "player" | "permanent")."""
    name = text(value, field)
    found = ids.get(name)
    if found is None:
        raise ScenarioError(field, f"no player or permanent has id {name!r}"
                            f"{suggestion(name, set(ids))}")
    if want is not None and found != want:
        raise ScenarioError(field, f"{name!r} is a {found}, not a {want}")
    return name


def kind(value: Any) -> str:
    """A JSON type name for `value`, as the messages say it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
