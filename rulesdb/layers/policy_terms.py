"""The terms the judges' documents define, found where they define them, and their uses
linked to that place: the Magic Tournament Rules' "Rules Enforcement Level (REL)" (1.12) or
"tournament shortcut" (4.2) as the Comprehensive Rules' glossary terms are. Part of the
references layer (kind "term"): a term of the MTR is linked in the MTR and the IPG (which
sends its reader to the MTR for its terms), one of the IPG in the IPG.

A term is defined by the first sentence of a paragraph that says what it is ("Status
information is information that…", "Hidden information refers to…", "A Match Loss is a
severe penalty…": a term in capitals, or information, or what a term refers to), by a
sentence of a section about the thing its title names, whatever its verb ("A loop is a
form of tournament shortcut…" in 4.4 Loops, "A proxy card is used during competition…"
in 3.4 Proxy Cards), and by "… is referred to as the play/draw rule". An abbreviation in
parentheses after a term ("(REL)") is a name of it too. What a passage calls something
for its own sake ("the player drafting first … is called the active player", in a Rochester
draft) is not taken for a definition. Pure: texts in, definitions and mentions out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_WORD = r"[A-Za-z][\w/’'-]*"
_CAPITAL = r"[A-Z][\w/’'-]*"
_ABBR = r"(?: \((?P<abbr>[A-Z]{2,5})\))?"
_ARTICLE = r"(?:(?:A|An|The) )?"
# "X information is information…", "X refers to…", "X is defined as…", "A Match Loss is a…"
DEFINES = re.compile(
    rf"{_ARTICLE}(?:(?P<term>{_WORD}(?: {_WORD}){{0,3}}?)(?= \(| (?:is|are) (?:information|"
    rf"defined as)\b| refers to\b)|(?P<named>{_CAPITAL}(?: {_CAPITAL}){{0,3}})(?= \(| (?:is|"
    rf"are) (?:a|an)\b)){_ABBR} (?:is|are|refers)\b")
# a sentence about the thing its section's title names
TITLED = re.compile(rf"{_ARTICLE}(?P<term>{_WORD}(?: {_WORD}){{0,3}}?){_ABBR}(?: of a "
                    rf"tournament)? (?:(?:is|are) (?!considered|expected|permitted|required|"
                    rf"allowed|not|also|only)|refers|ensures|consists)")
CALLED = re.compile(r"(?:is |are |sometimes )?referred to as (?:the )?[“\"]?"
                    r"(?P<term>[a-z][\w/-]*(?: [a-z][\w/-]*){0,3})[”\"]?(?=[.,)]|$)")
_SMALL = frozenset({"a", "an", "the", "this", "that", "these", "it", "they", "players", "player",
                    "each", "any", "all", "one"})
_OPENERS = frozenset({"if", "when", "while", "once", "for", "in", "at", "during", "this", "that",
                      "it", "each", "any", "all", "some", "no"})


@dataclass(frozen=True)
class Definition:
    """A term and the rule (by index in the list given) that defines it."""

    term: str  # as printed, singular
    rule: int
    abbreviation: bool = False


def singular(term: str) -> str:
    """A term's last word without a plural's s ("Rules Enforcement Levels" → "… Level")."""
    head, _, last = term.rpartition(" ")
    if last.endswith("ies"):
        last = last[:-3] + "y"
    elif last.endswith("s") and not last.endswith("ss") and len(last) > 3:
        last = last[:-1]
    return f"{head} {last}".strip()


def definitions(rules: list[tuple[str | None, str]]) -> list[Definition]:
    """The terms defined in `rules` ((title, text) each, in document order): the first
    definition of each term wins."""
    found: dict[str, Definition] = {}

    def add(term: str, at: int, abbreviation: bool = False) -> None:
        term = " ".join(term.split())
        if term.lower() in _SMALL or len(term) < 3:
            return
        found.setdefault(term.lower() if not abbreviation else term,
                         Definition(term, at, abbreviation))

    for at, (title, text) in enumerate(rules):
        for paragraph in text.split("\n"):
            for index, sentence in enumerate(paragraph.split(". ")):
                match = DEFINES.match(sentence) if index == 0 else None
                titled = TITLED.match(sentence) if title else None
                if titled and singular(titled["term"]).lower() == singular(title).lower():
                    match = titled
                term = match and (match["term"] or match.groupdict().get("named"))
                if term and term.split()[0].lower() not in _OPENERS:
                    add(singular(term), at)
                    if match["abbr"]:
                        add(match["abbr"], at, abbreviation=True)
            for called in CALLED.finditer(paragraph):
                add(called["term"], at)
    return sorted(found.values(), key=lambda d: (d.rule, d.term))


@dataclass(frozen=True)
class Terms:
    """Terms to be found in texts: the words of each (any case, singular or plural) and the
    abbreviations (in capitals only), each by its index in the definitions given."""

    words: re.Pattern[str] | None
    abbreviations: re.Pattern[str] | None
    index: dict[str, int]  # a term (lower case) or an abbreviation → its index


def terms(definitions: list[Definition]) -> Terms:
    """What `mentions` looks for."""
    words = sorted((d.term for d in definitions if not d.abbreviation), key=len, reverse=True)
    shorts = [d.term for d in definitions if d.abbreviation]

    def plural(term: str) -> str:
        word = re.escape(term)
        return word[:-1] + "(?:y|ies)" if word.endswith("y") else word + "(?:s|es)?"

    return Terms(
        re.compile(r"\b(?:" + "|".join(map(plural, words)) + r")\b", re.IGNORECASE)
        if words else None,
        re.compile(r"\b(?:" + "|".join(map(re.escape, shorts)) + r")\b") if shorts else None,
        {(d.term if d.abbreviation else d.term.lower()): at for at, d in enumerate(definitions)})


def mentions(text: str, found: Terms) -> list[tuple[int, int, int]]:
    """(start, end, term index) of each mention of a term in `text`."""
    out = []
    if found.words is not None:
        for match in found.words.finditer(text):
            word = match.group().lower()
            at = found.index.get(word)
            if at is None:
                at = found.index.get(singular(word)) if " " not in word[-4:] else None
                at = at if at is not None else found.index.get(word.rstrip("s"))
            if at is not None:
                out.append((match.start(), match.end(), at))
    if found.abbreviations is not None:
        out += [(m.start(), m.end(), found.index[m.group()])
                for m in found.abbreviations.finditer(text)]
    return sorted(out)
