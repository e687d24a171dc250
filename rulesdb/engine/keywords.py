"""A permanent's keywords as a scenario writes them: a name ("flying") or, for the keywords
with a parameter, an object ({"protection": ["red"]}, {"toxic": 2}). Each is checked
against the closed vocabulary; several instances add up as the rules say (702.164b)."""

from __future__ import annotations

from typing import Any

from .fields import ScenarioError, array, integer, text, words
from .vocabulary import (
    CARD_TYPES,
    COLORS,
    KEYWORDS,
    PARAMETER_KEYWORDS,
    SIMPLE_KEYWORDS,
    suggestion,
)


def parse_keywords(value: Any, field: str, players: frozenset[str]) -> dict[str, Any]:
    """The Permanent fields a keyword list sets: keywords, protection, toxic, landwalk,
    additional_blocks."""
    simple: set[str] = set()
    protection: set[str] = set()
    toxic, landwalk, additional = 0, [], 0
    for index, item in enumerate(array(value, field)):
        where = f"{field}[{index}]"
        if isinstance(item, str):
            simple.add(_simple(item, where))
            continue
        if not isinstance(item, dict) or len(item) != 1:
            raise ScenarioError(where, "expected a keyword name or an object with one keyword "
                                "and its parameter, such as {\"toxic\": 2}")
        ((name, parameter),) = item.items()
        where_param = f"{where}.{name}"
        if name not in PARAMETER_KEYWORDS:
            hint = (f"; {name} takes no parameter: write {name!r}" if name in SIMPLE_KEYWORDS
                    else suggestion(name, set(PARAMETER_KEYWORDS)))
            raise ScenarioError(where, f"unknown keyword with a parameter {name!r}{hint}")
        if name == "protection":
            qualities = words(parameter, where_param,
                              COLORS | CARD_TYPES | {"everything"} | players, "quality")
            if not qualities:
                raise ScenarioError(where_param, "protection from nothing: name a quality")
            protection |= qualities
        elif name == "toxic":
            toxic += integer(parameter, where_param, 1)
        elif name == "landwalk":
            landwalk.append(text(parameter, where_param))
        elif parameter == "any":
            additional = None
        elif additional is not None:
            additional += integer(parameter, where_param, 1)
    return {"keywords": frozenset(simple), "protection": frozenset(protection),
            "toxic": toxic, "landwalk": tuple(landwalk), "additional_blocks": additional}


def _simple(word: str, where: str) -> str:
    if word in SIMPLE_KEYWORDS:
        return word
    if word in PARAMETER_KEYWORDS:
        raise ScenarioError(where, f"{word} takes a parameter: write {{\"{word}\": "
                            f"{_example(word)}}} ({PARAMETER_KEYWORDS[word]})")
    lowered = word.lower()
    for name in PARAMETER_KEYWORDS:
        if lowered.startswith(name + " "):
            raise ScenarioError(where, f"unknown keyword {word!r}; write {{\"{name}\": "
                                f"{_example(name)}}} ({PARAMETER_KEYWORDS[name]})")
    raise ScenarioError(where, f"unknown keyword {word!r}{suggestion(word, KEYWORDS)}")


def _example(name: str) -> str:
    return {"protection": '["red"]', "toxic": "2", "landwalk": '"Island"'}.get(name, "1")
