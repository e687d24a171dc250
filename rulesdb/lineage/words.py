"""The words a reader sees for the lineage's labels: change types ("renumbered_edited" reads
"renumbered and edited") and the methods of related texts. The raw labels stay what the
database, the JSON outputs and the URLs' filters hold; pages, feeds and the terminal's
histories print these words, one vocabulary for all of them."""

from __future__ import annotations

# Each label whose word is not the label itself; any other label is already a word.
CHANGE_WORDS = {
    "renumbered_edited": "renumbered and edited",
    "outside_coverage": "outside the other's coverage",
    "concept": "related",
}
METHOD_WORDS = {
    "title": "same name",
    "title_variant": "a variant of the name",
}
# What a page never prints as text: the labels that are not words of their own.
RAW_LABELS = frozenset(label for label in CHANGE_WORDS if "_" in label) | frozenset(
    label for label in METHOD_WORDS if "_" in label)


def change_words(label: str) -> str:
    """How a change type reads in a sentence: "renumbered and edited" for renumbered_edited,
    "edited" for edited."""
    return CHANGE_WORDS.get(label, label)


def method_words(method: str) -> str:
    """How the method that linked a related text reads: "same name", "a variant of the name"."""
    return METHOD_WORDS.get(method, method)


def counted(counts: dict[str, int]) -> str:
    """"3 edited, 1 renumbered and edited" (the counts in their order, in words)."""
    return ", ".join(f"{n} {change_words(label)}" for label, n in counts.items() if n)
