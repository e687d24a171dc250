"""Alignments set by hand: the overrides file read and edited, and an alignment made to agree
with its overrides (rulesdb.lineage.overrides)."""

from __future__ import annotations

import pytest

from rulesdb.errors import InputError
from rulesdb.lineage.align import Change, RuleRec
from rulesdb.lineage.overrides import HandChange, Override, apply, edited_text, parse

A, B = "cr-2009-07-11", "cr-2009-10-01"


def rules(**texts: str) -> dict[str, RuleRec]:
    """Rules by number (502_2 → 502.2) with these texts."""
    made = {}
    for name, text in texts.items():
        number = name.replace("_", ".")
        made[number] = RuleRec(number, "rule", None, text, None)
    return made


def link(old: str, new: str, note: str = "checked") -> Override:
    return Override(A, old, B, new, True, note)


def unlink(old: str, new: str, note: str = "not the same") -> Override:
    return Override(A, old, B, new, False, note)


def test_a_file_gives_its_overrides_with_notes_and_lines():
    text = (f"# a comment\n\n{A} 502.2 = {B} 702.2   # the same rule, reworded\n"
            f"  {A} 502.3. != {B} 702.3\n")
    assert parse(text, "o.txt") == [
        Override(A, "502.2", B, "702.2", True, "the same rule, reworded", 3),
        Override(A, "502.3", B, "702.3", False, "", 4),
    ]


@pytest.mark.parametrize(("line", "message"), [
    (f"{A} 502.2 {B} 702.2", "o.txt, line 2: expected OLD_DOC OLD_NUMBER = NEW_DOC"),
    (f"{A} 502.2 == {B} 702.2", "o.txt, line 2: expected OLD_DOC OLD_NUMBER = NEW_DOC"),
    (f"{A} 502.2 = {B} 702.2 a note without its mark", "o.txt, line 2: expected"),
    (f"{A} 502.2 = {A} 702.2", f"o.txt, line 2: both rules are in {A}"),
    (f"CR-2009 502.2 = {B} 702.2", "o.txt, line 2: 'CR-2009' is not a document id"),
    (f"{A} 502.2! = {B} 702.2", "o.txt, line 2: '502.2!' is not a rule number"),
    (f"{A} 502.2 != {B} 702.2", f"o.txt, line 2: contradicts line 1 ({A} 502.2 = {B} 702.2)"),
    (f"{A} 502.2 = {B} 702.9", f"o.txt, line 2: contradicts line 1 ({A} 502.2 = {B} 702.2)"),
    (f"{A} 502.9 = {B} 702.2", f"o.txt, line 2: contradicts line 1 ({A} 502.2 = {B} 702.2)"),
])
def test_a_bad_line_is_an_input_error_naming_the_file_and_line(line, message):
    with pytest.raises(InputError) as caught:
        parse(f"{A} 502.2 = {B} 702.2\n{line}\n", "o.txt")
    assert caught.value.message.startswith(message)
    assert caught.value.exit_code == 2


def test_a_rule_may_be_unlinked_from_one_rule_and_linked_to_another():
    text = f"{A} 502.2 != {B} 702.2\n{A} 502.2 = {B} 702.3\n"
    assert [o.link for o in parse(text, "o.txt")] == [False, True]


def test_editing_the_text_keeps_other_lines_and_replaces_what_clashes():
    text = f"# header\n{A} 502.2 = {B} 702.2  # old note\n# keep me\n{A} 100.1 = {B} 100.1\n"
    assert edited_text(text, unlink("502.2", "702.2", "no")) == (
        f"# header\n{A} 502.2 != {B} 702.2  # no\n# keep me\n{A} 100.1 = {B} 100.1\n")
    assert edited_text(text, link("502.2", "702.9", "moved")) == (
        f"# header\n{A} 502.2 = {B} 702.9  # moved\n# keep me\n{A} 100.1 = {B} 100.1\n")
    assert edited_text(text, link("300.1", "300.1", "")) == text + f"{A} 300.1 = {B} 300.1\n"
    assert edited_text(text, link("502.2", "702.2"), remove=True) == (
        f"# header\n# keep me\n{A} 100.1 = {B} 100.1\n")


OLD = rules(**{"502_2": "Flanking is a triggered ability.", "502_3": "Banding is static.",
               "502_4": "Phasing is static.", "100_1": "These rules apply."})
NEW = rules(**{"702_2": "Whenever a creature without flanking blocks, it gets -1/-1.",
               "702_3": "Banding is static.", "702_4": "Phasing is a static ability.",
               "702_5": "Phasing is static, and it changes the phase.",
               "100_1": "These rules apply."})


def hand(op: str, old: str | None, new: str | None, similarity: float,
         note: str = "checked") -> HandChange:
    return HandChange(op, old, new, similarity, note=note)


@pytest.mark.parametrize(("changes", "overrides", "expected"), [
    # a rule rewritten beyond recognition: removed and added become one edit set by hand
    ([Change("removed", "502.2", None, 0.0), Change("added", None, "702.2", 0.0)],
     [link("502.2", "702.2")],
     [hand("renumbered_edited", "502.2", "702.2", 0.1)]),
    # a wrong pair: each rule's old partner is left alone
    ([Change("renumbered_edited", "502.4", "702.3", 0.6),
      Change("renumbered", "502.3", "702.5", 1.0)],
     [link("502.3", "702.3")],
     [hand("renumbered", "502.3", "702.3", 1.0), Change("removed", "502.4", None, 0.0),
      Change("added", None, "702.5", 0.0)]),
    # the same text under the same number: unchanged, set by hand all the same
    ([Change("removed", "100.1", None, 0.0), Change("added", None, "100.1", 0.0)],
     [link("100.1", "100.1")],
     [hand("unchanged", "100.1", "100.1", 1.0)]),
    # a split linked to one of its parts: the other part is added
    ([Change("split", "502.4", "702.4", 0.8), Change("split", "502.4", "702.5", 0.9)],
     [link("502.4", "702.5")],
     [hand("renumbered_edited", "502.4", "702.5", 0.51), Change("added", None, "702.4", 0.0)]),
    # an unlink: both rules left alone, with the note
    ([Change("renumbered_edited", "502.4", "702.5", 0.6)],
     [unlink("502.4", "702.5")],
     [hand("removed", "502.4", None, 0.0, "not the same"),
      hand("added", None, "702.5", 0.0, "not the same")]),
    # an unlinked part of a split: the split is a one-to-one change again
    ([Change("split", "502.4", "702.4", 0.8), Change("split", "502.4", "702.5", 0.9)],
     [unlink("502.4", "702.5")],
     [Change("renumbered_edited", "502.4", "702.4", 0.8),
      hand("added", None, "702.5", 0.0, "not the same")]),
    # an unlink of a pair the alignment did not make changes nothing
    ([Change("renumbered", "502.3", "702.3", 1.0)], [unlink("502.4", "702.5")],
     [Change("renumbered", "502.3", "702.3", 1.0)]),
])
def test_an_alignment_is_made_to_agree_with_its_overrides(changes, overrides, expected):
    got = apply(changes, overrides, OLD, NEW)
    assert [(type(c).__name__, c.op, c.old, c.new, getattr(c, "note", None)) for c in got] == [
        (type(c).__name__, c.op, c.old, c.new, getattr(c, "note", None)) for c in expected]
    for made, wanted in zip(got, expected, strict=True):
        if wanted.op in ("edited", "renumbered_edited", "split"):
            assert 0 < made.similarity < 1
        else:
            assert made.similarity == wanted.similarity
