"""How far two readings of one release agree (two forms of it, or a form and its text twin):
rule recall and precision by number, text agreement of the rules found in both, glossary
recall and precision of whole entries; compared through `typography`, so that what only
the forms' typography makes differ (curly or straight quotes, ™ or (TM), a dash written
"--") is not counted as a difference of the rules.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from .model import Document, GlossaryEntry, Rule

# (pattern, written as): the typography one form prints and another spells otherwise
TYPOGRAPHY = (
    # the text releases of 2008-2014 mark italics "_Magic_" and links "<Wizards.com/Locator>"
    (r"(?<!\w)_([^_\n]+)_(?!\w)", r"\1"),
    (r"<([^<>\s]+)>", r"\1"),
    (r"[‘’‛′`]", "'"),
    (r"[“”„″]", '"'),
    (r"[‐‑‒–]", "-"),
    # a dash: "—", "--", or (the text releases of 2005-2006) a hyphen, spaced in a type line
    # ("Creature - Goblin", "Choose one -.") and not in a sentence ("happens-they")
    (r"[^\S\n]*(?:—|--)[^\S\n]*|(?<=\S)[^\S\n]+-(?:[^\S\n]+(?=\S)|(?=[^\w\s]))", "-"),
    # a single quotation opened by a double quote (the 2004 text releases wrote ‘ as ":
    # "intervening "if' clause")
    (r"(?<![^\s(\[])\"(?=[^\s\"'](?:[^\"'\n]|(?<=\w)'(?=\w))*[^\s\"]'(?!\w))", "'"),
    (r"[^\S\n]*(?:™|\((?:TM|tm)\))", "™"),
    (r"[^\S\n]*(?:®|\((?:R|r)\))", "®"),
    (r"©|\((?:C|c)\)", "©"),
    (r"…", "..."),
    (r"Æ", "AE"),
    (r"æ", "ae"),
    (r"[^\S\n]+", " "),  # spacing: a paragraph break (a rule's second paragraph) is kept
    (r" ?\n ?", "\n"),
)
_TYPOGRAPHY = [(re.compile(pattern), written) for pattern, written in TYPOGRAPHY]


def typography(text: str) -> str:
    """`text` with its typography written one way (`TYPOGRAPHY`), its spacing one space
    (its line breaks kept)."""
    for pattern, written in _TYPOGRAPHY:
        text = pattern.sub(written, text)
    return text.strip()


@dataclass(frozen=True)
class Agreement:
    """How a reading (`candidate`) of a release agrees with another (`reference`)."""

    rule_recall: float  # reference rules found, by number
    rule_precision: float  # candidate rules the reference has
    text_agreement: float  # rules found in both with the same text and examples
    glossary_recall: float  # reference entries found whole (heading, definition, examples)
    glossary_precision: float  # candidate entries the reference has whole
    rules: int  # of the reference
    entries: int  # of the reference's glossary
    differing: tuple[str, ...] = ()  # numbers of rules found in both whose texts differ

    def figures(self) -> dict[str, float]:
        """The five ratios by name."""
        return {"rule recall": self.rule_recall, "rule precision": self.rule_precision,
                "text agreement": self.text_agreement, "glossary recall": self.glossary_recall,
                "glossary precision": self.glossary_precision}


def _ratio(part: int, whole: int) -> float:
    return part / whole if whole else 1.0


def _rule(rule: Rule) -> tuple[str, str, tuple[str, ...]]:
    return rule.number, typography(rule.text), tuple(typography(e.text) for e in rule.examples)


def _entry(entry: GlossaryEntry) -> tuple[str, str, tuple[str, ...]]:
    return (typography(entry.heading), typography(entry.definition),
            tuple(typography(e.text) for e in entry.examples))


def agreement(reference: Document, candidate: Document) -> Agreement:
    """How `candidate` agrees with `reference`, item by item."""
    numbers = Counter(rule.number for rule in reference.rules)
    found = Counter(rule.number for rule in candidate.rules)
    same = sum((numbers & found).values())
    theirs, ours = Counter(map(_rule, reference.rules)), Counter(map(_rule, candidate.rules))
    agreeing = sum((theirs & ours).values())
    differing = sorted({number for number, *_ in (ours - theirs)} & set(numbers))
    entries = sum((Counter(map(_entry, reference.glossary))
                   & Counter(map(_entry, candidate.glossary))).values())
    return Agreement(
        rule_recall=_ratio(same, sum(numbers.values())),
        rule_precision=_ratio(same, sum(found.values())),
        text_agreement=_ratio(agreeing, same),
        glossary_recall=_ratio(entries, len(reference.glossary)),
        glossary_precision=_ratio(entries, len(candidate.glossary)),
        rules=len(reference.rules), entries=len(reference.glossary),
        differing=tuple(differing))
