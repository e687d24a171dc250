"""Hard-wrapped text releases (ingest/cr_wraps.py): the releases of 2003-10-01 … 2004-02-01
were saved with their line breaks, a paragraph broken into lines as a page prints it; a
wrap is layout, so they read as their other forms print them. Case by case, on releases
wrapped here the way Word saves them, and over the whole history."""

from __future__ import annotations

import re
import sqlite3
from itertools import pairwise

import pytest

from rulesdb.ingest import cr_any, cr_text
from rulesdb.ingest.cr_wraps import Wrapping, wrapping
from rulesdb.ingest.decode import decode
from rulesdb.ingest.lossless import lossless_mismatch

WRAPPED = ["MagicCompRules-2003-10-01.txt", "MagicCompRules-2003-12-01.txt",
           "MagicCompRules-2004-02-01.txt"]
MARKED = Wrapping(width=110, marks=True)
FULL = "x" * 100  # a line as long as its file's lines come


# (the line before as printed, the line after as printed, what joins them: None for a
# paragraph of its own)
JOINS = {
    "a full line wrapped at a space": (f"{FULL} the ", "player", " "),
    "a word broken at its hyphen joins without a space": (f"{FULL} State-", 'Based Effects")', ""),
    "and so at a dash": (f"{FULL} occurs—", "unless it", ""),
    "a spaced dash keeps its space": (f"{FULL} Artifact —", "Equipment", " "),
    "a hyphen wrapped with the space after it keeps it": (f"{FULL} power- ", "and toughness", " "),
    "a hyphen shared with a later word keeps its space": (f"{FULL} power-", "or toughness-", " "),
    "a minus sign joins its number": (f"{FULL} gets -", "1/-1 until", ""),
    "a dash typed as a spaced hyphen keeps its space": (f"{FULL} Creature --", "Minotaur", " "),
    "an indented line opens a paragraph": (f"{FULL} simultaneously.", "          Some", None),
    "even after a wrap's space": (f"{FULL} prevented. ", "     Any damage", None),
    "a short line ends its paragraph, a space after it or not": ("the permanent is in play. ",
                                                                 "Next", None),
    "a full line that ends with neither mark ends its paragraph": (f"{FULL} an effect.",
                                                                   "Next", None),
}


@pytest.mark.parametrize("case", list(JOINS))
def test_what_joins_two_lines(case):
    before, line, joint = JOINS[case]
    assert MARKED.join(before, line) == joint


def test_a_file_that_does_not_mark_its_wraps_wraps_every_full_line():
    unmarked = Wrapping(width=110, marks=False)
    assert unmarked.join(f"{FULL} an effect.", "Next") == " "
    assert unmarked.join(f"{FULL} an effect.", "     Next") is None
    assert unmarked.join("short.", "Next") is None


def test_the_three_hard_wrapped_releases_are_told_and_no_other(archived):
    found = {name: wrapping(cr_text._lines(decode(source.data)))
             for name, source in archived.items()}
    assert {name for name, wraps in found.items() if wraps} == set(WRAPPED)
    assert {found[name] for name in WRAPPED} == {Wrapping(112, True), Wrapping(111, True)}


# Word's "text with line breaks": a paragraph broken before a word that does not fit the
# width, after a space (kept at the line's end) or after a hyphen or a dash inside a word
_BREAKS = re.compile(r"(?<= )(?=\S)|(?<=[A-Za-z]-)(?=[A-Za-z])|(?<=—)(?=\S)")


def hard_wrapped(text: str, width: int) -> str:
    """`text` (one paragraph a line) hard-wrapped at `width` characters."""
    out = []
    for paragraph in text.split("\n"):
        line = ""
        for piece in _BREAKS.split(paragraph):
            if line and len((line + piece).rstrip()) > width:
                out.append(line)
                line = ""
            line += piece
        out.append(line)
    return "\n".join(out)


def reading(doc) -> tuple:
    """What a document's rules and glossary say."""
    return ([(r.number, r.text, [e.text for e in r.examples]) for r in doc.rules],
            [(g.term, g.definition, [e.text for e in g.examples]) for g in doc.glossary])


@pytest.mark.parametrize("width", [80, 110, 140])
@pytest.mark.parametrize("name", ["MagicCompRules-2003-07-01.txt",
                                  "MagicCompRules-2004-10-01.txt",
                                  "MagicCompRules-2026-01-16.txt"])
def test_a_release_hard_wrapped_reads_as_the_release(archived, name, width):
    """The releases before and after the hard-wrapped ones, and the newest, wrapped here at
    other widths: the same rules, examples and glossary."""
    text = decode(archived[name].data)
    wrapped = cr_any.parse_text(hard_wrapped(text, width))
    assert reading(wrapped) == reading(cr_any.parse_text(text))
    assert lossless_mismatch(wrapped) is None


@pytest.mark.parametrize("name", WRAPPED)
def test_a_hard_wrapped_release_reads_the_same_without_the_spaces_its_wraps_end_with(
        archived, name):
    """Without those spaces every full line not followed by an indented one wraps: these
    releases indent a rule's or an entry's second paragraph. (A release that does not,
    stripped so, could not tell a paragraph ending a full line from a wrap: 2004-10-01
    wrapped at 140 and stripped joins the two paragraphs of an example of "As though".)"""
    text = decode(archived[name].data)
    stripped = cr_any.parse_text(re.sub(r"[ \t]+$", "", text, flags=re.MULTILINE))
    assert reading(stripped) == reading(cr_any.parse_text(text))
    assert lossless_mismatch(stripped) is None


def test_the_hard_wrapped_releases_print_state_based_as_their_pdf_does(history_db):
    """"State-Based" broken at its hyphen read "State- Based" on every page (215.1,
    408.1b, 502.7d), "Face- down" (217.8b), "snow- Covered" (502.14b)."""
    conn = sqlite3.connect(history_db)
    docs = tuple(f"cr-{name[15:25]}" for name in WRAPPED)
    marks = ",".join("?" * len(docs))
    rows = conn.execute(f"SELECT document, number, text FROM rules WHERE document IN ({marks})",
                        docs).fetchall()
    assert {doc for doc, _, _ in rows} == set(docs)
    texts = {(doc, number): text for doc, number, text in rows}
    for doc in docs:
        assert '(see rule 420, "State-Based Effects")' in texts[doc, "215.1"]
        assert '(See rule 420, "State-Based Effects.")' in texts[doc, "502.7d"]
        assert "Face-down objects" in texts[doc, "217.8b"]
    broken = [(doc, number) for doc, number, text in rows
              if re.search(r"[a-z]- (?!and |or )[A-Za-z]", text)]
    assert broken == []
    # their only line breaks are the paragraphs the releases around them print
    assert sorted({number for _, number, text in rows if "\n" in text}) == \
        ["413.2d", "415.3", "418.5a"]


def _words(text: str) -> str:
    """`text` as it reads, spacing aside (none after a hyphen or a dash)."""
    return re.sub(r"(?<=[-–—]) ", "", " ".join(text.split()))


def test_no_rule_keeps_a_line_break_the_release_does_not_print(history_db, archived):
    """Over the whole history: a rule printed with the same words in two editions in a row
    has the same paragraphs in both, unless the one with more prints them (its text file
    is no hard-wrapped one: one paragraph a line). 549 rules of 2003-10-01 kept their wraps
    as line breaks before."""
    conn = sqlite3.connect(history_db)
    editions = [row[0] for row in conn.execute(
        "SELECT id FROM documents WHERE kind = 'comprehensive_rules' AND NOT partial "
        "ORDER BY effective_date")]
    files = dict(conn.execute("SELECT id, file FROM documents"))
    texts = {doc: {} for doc in editions}
    for doc, number, text in conn.execute("SELECT document, number, text FROM rules"):
        if doc in texts:
            texts[doc][number] = text
    differing = [(new, number, texts[new][number].count("\n") - text.count("\n"))
                 for old, new in pairwise(editions) for number, text in texts[old].items()
                 if number in texts[new] and _words(text) == _words(texts[new][number])
                 and text.count("\n") != texts[new][number].count("\n")]
    assert len(editions) >= 110
    for new, number, more in differing:
        old = editions[editions.index(new) - 1]
        printed = files[new if more > 0 else old]
        source = archived.get(printed)
        assert source is not None and wrapping(cr_text._lines(decode(source.data))) is None, \
            (new, number)
    # 205.3i merged its two paragraphs in 2022-09-08: both text files print it so
    assert [(new, number) for new, number, _ in differing] == [("cr-2022-09-08", "205.3i")]
