"""Shared helpers of the prose-rulebook tests: synthetic 1995 pages and 2005 books and
the tree invariants every parsed rulebook keeps."""

from __future__ import annotations

import re
from itertools import pairwise

LABEL = re.compile(r"[a-z0-9.-]+")
NAV_TOP = "[ Previous Page ] | [ Next Page]"
NAV_BOTTOM = "[ Previous Page ] | [ Next Page ]"


def web_doc(body: str) -> bytes:
    """A 1995-style page around `body`."""
    return (f"{NAV_TOP}\n\nSection II: Expanding Your Knowledge\n\n{body}\n\n{NAV_BOTTOM}\n"
            ).encode()


def print_doc(body: str) -> bytes:
    """A 2005-style book around `body`."""
    return f"\n\nMAGIC\n\nRULEBOOK\n\n{body}\n\nCREDITS\n\nEditing: Del Laugel\n".encode()


S2 = "s2-expanding-your-knowledge"
SECTION_II = ("section", S2, None, "Section II:", "Expanding Your Knowledge",
              "Expanding Your Knowledge")


def check_tree(doc) -> None:
    """Spans ordered and disjoint; labels unique, URL-safe, extending their parent's."""
    spans = [item.span for item in doc.items()]
    assert all(a[1] <= b[0] for a, b in pairwise(spans))
    labels = [r.number for r in doc.rules]
    assert len(labels) == len(set(labels))
    known = set()
    for rule in doc.rules:
        assert LABEL.fullmatch(rule.number)
        assert rule.parent is None or rule.parent in known
        assert rule.parent is None or rule.number.startswith(rule.parent + ".")
        known.add(rule.number)
