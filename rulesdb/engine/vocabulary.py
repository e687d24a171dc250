"""The closed vocabularies of a scenario: keywords (with their parameters), colors, types,
counters, fields and step names. A word outside them is an error, never ignored."""

from __future__ import annotations

import difflib

# Keywords without a parameter, as printed on cards (lower case).
SIMPLE_KEYWORDS = frozenset({
    "deathtouch", "defender", "double strike", "fear", "first strike", "flying",
    "horsemanship", "indestructible", "infect", "intimidate", "lifelink", "menace", "reach",
    "shadow", "skulk", "trample", "trample over planeswalkers", "wither",
    "can't block", "can't be blocked", "can't attack alone", "blocks each combat if able",
})
# Keywords written {"name": parameter}: what the parameter is.
PARAMETER_KEYWORDS = {
    "protection": "a list of qualities: colors, card types, \"everything\" or a player id",
    "toxic": "an integer of at least 1",
    "landwalk": "a land description such as \"Island\", \"snow Forest\" or \"nonbasic\"",
    "can block additional creatures": "an integer of at least 1, or \"any\"",
}
KEYWORDS = SIMPLE_KEYWORDS | set(PARAMETER_KEYWORDS)

COLORS = frozenset({"white", "blue", "black", "red", "green"})
CARD_TYPES = frozenset({"artifact", "battle", "creature", "enchantment", "kindred", "land",
                        "planeswalker"})
SUPERTYPES = frozenset({"basic", "legendary", "snow", "world"})
COUNTERS = frozenset({"+1/+1", "-1/-1", "loyalty", "defense"})

SCENARIO_FIELDS = frozenset({"$schema", "name", "description", "source", "active", "players",
                             "permanents", "attacks", "blocks", "damage_assignment",
                             "assignments", "expect"})
PLAYER_FIELDS = frozenset({"id", "life", "poison", "protection"})
PERMANENT_FIELDS = frozenset({"id", "name", "controller", "owner", "types", "subtypes",
                              "supertypes", "colors", "power", "toughness", "keywords",
                              "counters", "damage", "tapped", "protector"})
ATTACK_FIELDS = frozenset({"attacker", "target", "blocked"})
BLOCK_FIELDS = frozenset({"blocker", "attackers"})
ASSIGNMENT_FIELDS = frozenset({"source", "step", "damage"})
POLICY_FIELDS = frozenset({"attackers", "blockers"})
SOURCE_FIELDS = frozenset({"rule", "example"})
OUTCOME_FIELDS = frozenset({"steps", "damage", "life_gained", "deaths", "losses", "players",
                            "permanents", "game_over", "error"})


def suggestion(word: str, known: frozenset[str] | set[str]) -> str:
    """' (did you mean …?)' for the closest known word, or ''."""
    spelled = word.replace("_", " ").replace("-", " ").strip().lower()
    if spelled in known and spelled != word:
        return f" (did you mean {spelled!r}?)"
    close = difflib.get_close_matches(spelled, sorted(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""
