"""Mana and tap symbols of the 2005 rulebook, which its conversion mangled into unrelated glyphs.

The same glyph stands for different symbols in different places ("♣" is black mana, green
mana and the tap symbol within a few pages), so a glyph is normalized to {W} {U} {B} {R} {G}
{T} {X} or a generic {N} only where its own sentence makes the meaning certain: "♠ for blue",
"Tapping a Swamp makes ♣", "The symbol "♣" means "tap this card."", a glossary heading
"♣ Black mana", an activation cost "includes ♣" in a passage about tapping… A glyph no rule
decides keeps its original form in the text and is recorded with symbol None. A decided
glyph also decides the other occurrences of the same glyph in the same scope (one paragraph or
glossary entry) when every decided occurrence there agrees.

Bold markup wrapping a symbol ("**☞**", "**1**") is part of the recorded original, so the
normalized text reads "{T}" and `restore_glyphs` gives the bold markup back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .model import Glyph

COLORS = {"white": "{W}", "blue": "{U}", "black": "{B}", "red": "{R}", "green": "{G}"}
LANDS = {"plains": "{W}", "island": "{U}", "swamp": "{B}", "mountain": "{R}", "forest": "{G}"}
_LAND_WORD = re.compile(r"\b(Plains|Island|Swamp|Mountain|Forest)s?\b")
_GLYPH_CHARS = "♣♠☞☿☉♡☀🌊🏔🌲🌿☠"
_CANDIDATE = re.compile(
    r"\$[^$\n]{1,60}\$"  # a LaTeX formula the converter wrote for a printed mana cost
    r"|\\[a-z]+"  # a lone LaTeX symbol macro (\otimes)
    rf"|\*\*(?:[{_GLYPH_CHARS}]|\d+|[A-Z])\*\*"  # a bold symbol, numeral or letter
    rf"|[{_GLYPH_CHARS}]"
    r"|(?<![\w*])\*(?![\w*])"  # a lone asterisk (only ever decided, else it is markup)
)
_COLOR = "(white|blue|black|red|green)"
_TAP_CUE = re.compile(r"\btap|untapped|\bhaste\b|under your control|controlled the creature",
                      re.I)
_LATEX_SUITS = re.compile(r"\\(spadesuit|heartsuit|clubsuit|diamondsuit)")


@dataclass(frozen=True)
class _Context:
    text: str
    start: int
    end: int

    @property
    def before(self) -> str:
        return self.text[max(0, self.start - 80):self.start]

    @property
    def after(self) -> str:
        return self.text[self.end:self.end + 80]

    @property
    def sentence(self) -> str:
        begin = max(self.text.rfind(". ", 0, self.start), self.text.rfind("\n", 0, self.start))
        stop = min((i for i in (self.text.find(". ", self.end), self.text.find("\n", self.end))
                    if i >= 0), default=len(self.text))
        return self.text[begin + 1:stop]

    @property
    def core(self) -> str:
        """The glyph without bold markup."""
        found = self.text[self.start:self.end]
        return found[2:-2] if len(found) > 4 and found.startswith("**") else found


def _color_named_after(ctx: _Context) -> str | None:
    match = re.match(rf'\s*(?:for |\()\s*{_COLOR}\b', ctx.after)
    return COLORS[match.group(1)] if match else None


def _means_tap(ctx: _Context) -> str | None:
    return "{T}" if re.match(r'["”]?\s*means\s+["“]tap\b', ctx.after) else None


def _means_one_color(ctx: _Context) -> str | None:
    match = re.match(rf'\s*means\s+["“]one {_COLOR} mana', ctx.after)
    return COLORS[match.group(1)] if match else None


def _land_makes(ctx: _Context) -> str | None:
    """ "Tapping a Swamp makes ♣", "Plains make ☀", "becomes a Swamp … tap it to make 🌿"."""
    if not re.search(r"\b(?:makes?|[Aa]dd)\s*$", ctx.before):
        return None
    lands = {m.group(1).lower() for m in _LAND_WORD.finditer(ctx.sentence)}
    return LANDS[lands.pop()] if len(lands) == 1 else None


def _card_is_color(ctx: _Context) -> str | None:
    match = re.match(rf"\s*in its mana cost\b[^.]*\bthe card is {_COLOR}\b", ctx.after)
    return COLORS[match.group(1)] if match else None


def _tap_cost_slot(ctx: _Context) -> str | None:
    """A glyph named as part of a cost in a passage about tapping or summoning sickness."""
    slot = (re.search(r"\b(?:includes?|include|with)\s*$", ctx.before)
            and re.match(r"\s*(?:,|in (?:the|their|its) costs?\b|in them\b|unless\b)",
                         ctx.after))
    return "{T}" if slot and _TAP_CUE.search(ctx.text) else None


def _land_ability_cost(ctx: _Context) -> str | None:
    """The cost of a basic land's mana ability ("☞ : Add ☞ to your mana pool")."""
    if re.match(r"\s*:\s*Add\b", ctx.after) and _LAND_WORD.search(ctx.sentence):
        return "{T}"
    return None


def _variable_cost(ctx: _Context) -> str | None:
    return "{X}" if re.match(r"\s*in its cost, you choose the value of X", ctx.after) else None


def _bold_numeral(ctx: _Context) -> str | None:
    if ctx.core.isdigit() and re.search(r"\bmana\b|\bcosts?\b", ctx.text):
        return "{" + ctx.core + "}"
    return None


def _bold_tap_letter(ctx: _Context) -> str | None:
    if ctx.core == "T" and ctx.after.startswith(":") and re.search(r"\btap\b", ctx.text):
        return "{T}"
    return None


def _latex_cost(ctx: _Context) -> str | None:
    """ "$2\\text{ } \\spadesuit \\heartsuit$ is both black and red" → {2}{B}{R}."""
    formula = ctx.text[ctx.start:ctx.end]
    suits = _LATEX_SUITS.findall(formula)
    match = re.match(rf"\s*is both {_COLOR} and {_COLOR}\b", ctx.after)
    if not (formula.startswith("$") and match and len(suits) == 2):
        return None
    generic = re.match(r"\$(\d+)", formula)
    prefix = "{" + generic.group(1) + "}" if generic else ""
    return prefix + COLORS[match.group(1)] + COLORS[match.group(2)]


RULES = (
    (_color_named_after, "the color is named right after the symbol"),
    (_means_tap, 'the text says the symbol means "tap"'),
    (_means_one_color, "the text says which one mana the symbol means"),
    (_land_makes, "the mana a basic land type named in the sentence makes"),
    (_card_is_color, "the sentence says which color the cost makes the card"),
    (_land_ability_cost, "the cost of a basic land's mana ability is tapping it"),
    (_tap_cost_slot, "a cost symbol in a passage about tapping or summoning sickness"),
    (_variable_cost, "the sentence says you choose the value of X"),
    (_bold_numeral, "a bold numeral in a passage about mana costs is a generic mana symbol"),
    (_bold_tap_letter, 'a bold "T" before a colon in a passage about tapping'),
    (_latex_cost, "the sentence names the two colors of the cost"),
)


def _decide(ctx: _Context) -> tuple[str | None, str]:
    for rule, reason in RULES:
        symbol = rule(ctx)
        if symbol:
            return symbol, reason
    return None, ""


def normalize_glyphs(
    text: str, hint: tuple[str, str] | None = None
) -> tuple[str, tuple[Glyph, ...]]:
    """`text` with certain glyphs normalized, and a Glyph record for every glyph met.

    `hint` is (glyph, symbol) that the scope's heading decided ("☿ Tap" → ("☿", "{T}")).
    A lone asterisk is recorded only when decided: elsewhere it is emphasis markup.
    """
    found: list[tuple[int, int, str, str | None, str]] = []
    for match in _CANDIDATE.finditer(text):
        ctx = _Context(text, match.start(), match.end())
        symbol, reason = _decide(ctx)
        if symbol is None and hint and ctx.core == hint[0]:
            symbol, reason = hint[1], "the entry's heading shows this glyph as this symbol"
        if symbol is None and (ctx.core == "*" or ctx.core.isdigit()):
            continue
        found.append((match.start(), match.end(), ctx.core, symbol, reason))
    decided: dict[str, set[str]] = {}
    for _, _, core, symbol, _ in found:
        if symbol:
            decided.setdefault(core, set()).add(symbol)
    out: list[str] = []
    glyphs: list[Glyph] = []
    cursor = 0
    for start, end, core, symbol, reason in found:
        agreed = decided.get(core, set())
        if symbol is None and len(agreed) == 1:
            symbol = next(iter(agreed))
            reason = "the same glyph means this symbol elsewhere in the same paragraph or entry"
        original = text[start:end]
        out.append(text[cursor:start])
        position = sum(len(part) for part in out)
        out.append(symbol if symbol else original)
        glyphs.append(Glyph(original, symbol, position,
                            reason or "no context in the sentence decides which symbol it is"))
        cursor = end
    out.append(text[cursor:])
    return "".join(out), tuple(glyphs)
