"""Alignment of rules across editions: properties, golden checks, the layer, the corpus."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from itertools import pairwise

import pytest
import sqlite_utils
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesdb import wordiff
from rulesdb.build import build
from rulesdb.catalog import CatalogEntry
from rulesdb.ingest import cr_text
from rulesdb.layers import keywords, lineage
from rulesdb.lineage import Change, Coverage, RuleRec, align, mirror
from rulesdb.lineage_query import compute_changes, diff
from rulesdb.store import save_document

from conftest import SOURCES, corpus_files, needs_corpus

LETTERS = "abcdefghijkmnpqrstuvwxyz"
VOCABULARY = ["creature", "player", "damage", "attacking", "blocking", "library", "graveyard",
              "token", "counter", "ability", "spell", "permanent", "controller", "target",
              "trample", "flying", "opponent", "battlefield", "exile", "sacrifice", "mana"]


SECTION_NAMES = {"701": "Keyword Actions", "702": "Keyword Abilities", "502": "Keyword Abilities",
                 "703": "Turn-Based Actions", "420": "State-Based Effects"}


def tree(sections: dict[str, dict[str, list[str]]]) -> list[RuleRec]:
    """Rule records from {section: {rule title: [subrule texts]}}, numbered in order."""
    rules = []
    for section, titled in sections.items():
        name = SECTION_NAMES[section]
        rules.append(RuleRec(section, "section", name, name))
        for index, (title, subrules) in enumerate(titled.items(), start=1):
            number = f"{section}.{index}"
            rules.append(RuleRec(number, "rule", title, title, section))
            rules.extend(RuleRec(f"{number}{LETTERS[k]}", "subrule", None, text, number)
                         for k, text in enumerate(subrules))
    return rules


def significant(changes: list[Change]) -> set[tuple[str, str | None, str | None]]:
    return {(c.op, c.old, c.new) for c in changes if c.op != "unchanged"}


sentences = st.lists(st.sampled_from(VOCABULARY), min_size=6, max_size=14).map(
    lambda words: " ".join(words).capitalize() + ".")
editions = st.dictionaries(
    st.sampled_from(["701", "702", "703"]),
    st.dictionaries(st.sampled_from(["Trample", "Flying", "Banding", "Scry", "Ward", "Reach"]),
                    st.lists(sentences, min_size=0, max_size=5), min_size=1, max_size=4),
    min_size=1, max_size=3,
).map(tree)


@settings(max_examples=60, deadline=None)
@given(editions)
def test_an_edition_against_itself_has_no_changes(rules):
    changes = align(rules, rules)
    assert significant(changes) == set()
    assert len(changes) == len(rules)


@settings(max_examples=80, deadline=None)
@given(editions, editions)
def test_diff_b_a_mirrors_diff_a_b(a, b):
    forward = align(a, b)
    backward = align(b, a)
    assert significant(backward) == significant([mirror(c) for c in forward])


@settings(max_examples=60, deadline=None)
@given(editions, st.data())
def test_inserting_a_subrule_shifts_the_letters_after_it(rules, data):
    parents = [r for r in rules if r.kind == "rule"]
    parent = data.draw(st.sampled_from(parents))
    children = [r for r in rules if r.parent == parent.number]
    at = data.draw(st.integers(0, len(children)))
    inserted_text = "Zephyr quintessence obliterates wombats entirely."
    new_children = [*children[:at], RuleRec("?", "subrule", None, inserted_text, parent.number),
                    *children[at:]]
    renamed = [RuleRec(f"{parent.number}{LETTERS[k]}", "subrule", None, child.text,
                       parent.number) for k, child in enumerate(new_children)]
    start = rules.index(parent) + 1
    new = [*rules[:start], *renamed, *rules[start + len(children):]]
    expected = {("added", None, renamed[at].number)}
    expected |= {("renumbered", old.number, moved.number)
                 for old, moved in zip(children[at:], renamed[at + 1:], strict=True)}
    if len({c.text for c in rules}) == len(rules):  # duplicated texts may trade places
        assert significant(align(rules, new)) == expected


CITATION_CASES = [
    # (old text, new text, mapping of other rules, expected op)
    ("See rule 502.9 for trample.", "See rule 702.19 for trample.", True, "unchanged"),
    ("See rule 502.9 for trample.", "See rule 702.20 for trample.", True, "edited"),
    ("See rule 502.9 for trample.", "See rule 702.19 for flying.", True, "edited"),
    ("Deal damage (see rule 310).", "Deal damage (see rule 510).", False, "unchanged"),
]


@pytest.mark.parametrize(("old_text", "new_text", "with_target", "op"), CITATION_CASES)
def test_a_change_of_cited_numbers_only_is_not_an_edit(old_text, new_text, with_target, op):
    old = [RuleRec("100.1", "rule", None, old_text)]
    new = [RuleRec("100.1", "rule", None, new_text)]
    if with_target:
        old.append(RuleRec("502.9", "rule", "Trample", "Trample"))
        new += [RuleRec("702.19", "rule", "Trample", "Trample"),
                RuleRec("702.20", "rule", "Vigilance", "Vigilance")]
    change = next(c for c in align(old, new) if c.old == "100.1")
    assert (change.op, change.new) == (op, "100.1")


def test_a_cited_range_that_follows_the_shift_is_not_an_edit():
    old = [RuleRec("608.2", "rule", None, "Rules 608.2c–k apply, then rule 608.2m."),
           RuleRec("608.2c", "subrule", None, "Alpha words are here.", "608.2"),
           RuleRec("608.2k", "subrule", None, "Kappa words are here.", "608.2"),
           RuleRec("608.2m", "subrule", None, "Mu words are here.", "608.2")]
    new = [RuleRec("608.2", "rule", None, "Rules 608.2c–m apply, then rule 608.2n."),
           RuleRec("608.2c", "subrule", None, "Alpha words are here.", "608.2"),
           RuleRec("608.2k", "subrule", None, "Brand new text about wombats.", "608.2"),
           RuleRec("608.2m", "subrule", None, "Kappa words are here.", "608.2"),
           RuleRec("608.2n", "subrule", None, "Mu words are here.", "608.2")]
    changes = align(old, new)
    assert [(c.op, c.old, c.new, c.citations_only) for c in changes] == [
        ("unchanged", "608.2", "608.2", True), ("unchanged", "608.2c", "608.2c", False),
        ("added", None, "608.2k", False), ("renumbered", "608.2k", "608.2m", False),
        ("renumbered", "608.2m", "608.2n", False)]


def test_renumbering_is_recognized_from_content_and_coverage_decides_removals():
    old = tree({"502": {"Flying": ["Flying is an evasion ability for creatures."],
                        "Trample": ["Trample lets excess combat damage reach the player."]},
                "420": {"State-Based Effects": ["A player with 0 or less life loses."]}})
    new = tree({"702": {"Deathtouch": ["Any nonzero damage from this source is lethal."],
                        "Flying": ["Flying is an evasion ability for creatures."],
                        "Trample": ["Trample lets excess combat damage reach the player."]}})
    chapter7 = Coverage.from_covers(True, ["700-731"])
    assert significant(align(old, new, None, chapter7)) == {
        ("renumbered", "502", "702"), ("renumbered", "502.1", "702.2"),
        ("renumbered", "502.1a", "702.2a"), ("renumbered", "502.2", "702.3"),
        ("renumbered", "502.2a", "702.3a"), ("added", None, "702.1"),
        ("added", None, "702.1a"), ("outside_coverage", "420", None),
        ("outside_coverage", "420.1", None), ("outside_coverage", "420.1a", None),
    }


def test_a_rule_cut_in_two_is_a_split_and_the_reverse_a_merge():
    whole = ("Banding is a static ability that modifies the rules for combat. A player whose "
             "creature has banding chooses how combat damage is assigned by blockers.")
    first = "Banding is a static ability that modifies the rules for combat."
    second = ("A player whose creature has banding chooses how combat damage is assigned by "
              "blockers.")
    old = [RuleRec("702.22", "rule", "Banding", "Banding"),
           RuleRec("702.22a", "subrule", None, whole, "702.22")]
    new = [RuleRec("702.22", "rule", "Banding", "Banding"),
           RuleRec("702.22a", "subrule", None, first, "702.22"),
           RuleRec("702.22b", "subrule", None, second, "702.22")]
    assert {(c.op, c.old, c.new) for c in align(old, new) if c.op != "unchanged"} == {
        ("split", "702.22a", "702.22a"), ("split", "702.22a", "702.22b")}
    assert {(c.op, c.old, c.new) for c in align(new, old) if c.op != "unchanged"} == {
        ("merged", "702.22a", "702.22a"), ("merged", "702.22b", "702.22a")}


WORDIFF_CASES = [
    ("a <b> c", "a <i> c", ("a [-<b>-] c", "a {+<i>+} c"), ("a ~~\\<b\\>~~ c", "a **\\<i\\>** c"),
     ("a <del>&lt;b&gt;</del> c", "a <ins>&lt;i&gt;</ins> c")),
    ("it's red", "it’s red", ("it's red", "it’s red"), ("it's red", "it’s red"),
     ("it&#x27;s red", "it’s red")),
]


@pytest.mark.parametrize(("old", "new", "text", "markdown", "html"), WORDIFF_CASES)
def test_word_level_rendering_marks_changed_words_and_escapes(old, new, text, markdown, html):
    ops = wordiff.opcodes(old, new)
    assert "".join(op["old"] for op in ops) == old
    assert "".join(op["new"] for op in ops) == new
    assert wordiff.render_text(ops) == text
    assert wordiff.render_markdown(ops) == markdown
    assert wordiff.render_html(ops) == html


# --- the bundled documents ------------------------------------------------------------------


@pytest.fixture(scope="module")
def built(bundled_db):
    path = bundled_db
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    return path, conn


def stored(conn, old_doc, new_doc):
    return {(r["old_number"], r["new_number"]): r["change"] for r in conn.execute(
        "SELECT * FROM alignments WHERE old_doc = ? AND new_doc = ?", [old_doc, new_doc])}


def test_every_keyword_of_2009_and_2025_is_aligned_heading_to_heading(built):
    _, conn = built
    pairs = stored(conn, "cr-2009-02-01", "cr-2025-06-06")
    mapped = {old: new for old, new in pairs if old and new}
    rows = conn.execute(
        "SELECT a.keyword, a.number, b.number FROM keywords a JOIN keywords b "
        "ON a.keyword = b.keyword AND a.kind = b.kind WHERE a.document = 'cr-2009-02-01' "
        "AND b.document = 'cr-2025-06-06' AND a.kind != 'ability_word'").fetchall()
    assert len(rows) >= 80
    assert [(k, old, mapped.get(old)) for k, old, new in rows if mapped.get(old) != new] == []


@pytest.mark.parametrize(("old", "new"), [("502.9", "702.19"), ("502.10", "702.22"),
                                          ("501", "701"), ("502", "702"), ("502.2", "702.7")])
def test_golden_renumberings_2009_to_2025(built, old, new):
    assert stored(built[1], "cr-2009-02-01", "cr-2025-06-06")[(old, new)] == "renumbered"


@pytest.mark.parametrize("old", ["1", "100", "100.1", "302.1", "212.1b"])
def test_2009_rules_outside_chapter_7_are_outside_coverage(built, old):
    assert stored(built[1], "cr-2009-02-01", "cr-2025-06-06")[(old, None)] == "outside_coverage"


def test_lineages_give_one_stable_id_per_rule(built):
    _, conn = built
    assert [tuple(row) for row in conn.execute(
        "SELECT lineage, number FROM lineages WHERE lineage = (SELECT lineage FROM lineages "
        "WHERE number = '702.19' AND document = 'cr-2025-06-06') ORDER BY document")] == [
        ("cr-2009-02-01/502.9", "502.9"), ("cr-2009-02-01/502.9", "702.19")]
    rules = conn.execute("SELECT count(*) FROM rules JOIN documents d ON d.id = rules.document "
                         "WHERE d.kind = 'comprehensive_rules'").fetchone()[0]
    assert conn.execute("SELECT count(*) FROM lineages").fetchone()[0] == rules


def test_concept_links_join_rulebooks_rulings_and_cr(built):
    _, conn = built
    rows = conn.execute(
        "SELECT c.source_doc, s.number, c.target_doc, t.number, c.method FROM concept_links c "
        "JOIN rules s ON s.id = c.source_rule_id JOIN rules t ON t.id = c.target_rule_id "
        "WHERE c.concept = 'banding' ORDER BY 1, 3").fetchall()
    assert [tuple(r) for r in rows] == [
        ("rulebook-1995", "s2-expanding-your-knowledge.advanced-creature-abilities.banding",
         "cr-2009-02-01", "502.10", "title"),
        ("rulebook-1995", "s2-expanding-your-knowledge.advanced-creature-abilities.banding",
         "cr-2025-06-06", "702.22", "title"),
        ("rulings-1999-04", "A.11", "cr-2009-02-01", "502.10", "title"),
        ("rulings-1999-04", "A.11", "cr-2025-06-06", "702.22", "title"),
    ]


def test_stored_and_computed_diffs_agree(built):
    _, conn = built
    computed = compute_changes(conn, "cr-2009-02-01", "cr-2025-06-06")
    as_stored = stored(conn, "cr-2009-02-01", "cr-2025-06-06")
    assert {(c.old, c.new): c.op for c in computed} == as_stored
    result = diff(conn, "cr-2025-06-06", "cr-2009-02-01")
    assert result["alignment"] == "computed"
    assert sum(result["counts"].values()) == len(result["changes"])


def test_a_new_edition_between_two_replaces_their_pair(tmp_path):
    path = tmp_path / "rules.db"
    build(path, SOURCES)
    db = sqlite_utils.Database(path)
    doc = cr_text.parse((SOURCES / "cr-2025-06-06-chapter7.txt").read_bytes())
    entry = CatalogEntry(id="cr-2020-01-01", kind="comprehensive_rules", title="t",
                         file="x.txt", sha256="0", parser="cr_text",
                         effective_date="2020-01-01", partial=True, covers=doc.meta.covers)
    save_document(db, entry, doc)
    summary = lineage.compute(db, ["cr-2020-01-01"])
    assert summary.startswith("2 edition pairs")
    pairs = db.execute("SELECT DISTINCT old_doc, new_doc FROM alignments ORDER BY 1").fetchall()
    assert pairs == [("cr-2009-02-01", "cr-2020-01-01"), ("cr-2020-01-01", "cr-2025-06-06")]
    ops = Counter(row[0] for row in db.execute(
        "SELECT change FROM alignments WHERE new_doc = 'cr-2025-06-06'"))
    assert set(ops) == {"unchanged"}


# --- the real CR releases ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def corpus_db(tmp_path_factory):
    path = tmp_path_factory.mktemp("corpus") / "rules.db"
    build(path, SOURCES)
    db = sqlite_utils.Database(path)
    ids = []
    for file in corpus_files():
        doc = cr_text.parse(file.read_bytes())
        doc_id = f"cr-{doc.meta.effective_date}"
        save_document(db, CatalogEntry(
            id=doc_id, kind="comprehensive_rules", title=doc.meta.title, file=file.name,
            sha256="-", parser="cr_text", effective_date=doc.meta.effective_date,
            partial=False, covers=doc.meta.covers), doc)
        ids.append(doc_id)
    for layer in (keywords, lineage):
        layer.compute(db, ids)
    db.conn.commit()
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    return conn


def editions_in(conn):
    return [row[0] for row in conn.execute(
        "SELECT id FROM documents WHERE kind = 'comprehensive_rules' AND partial = 0 "
        "ORDER BY effective_date")]


@needs_corpus
def test_2004_to_2009_aligns_every_keyword_present_in_both(corpus_db):
    changes = compute_changes(corpus_db, "cr-2004-10-01", "cr-2009-10-01")
    mapped = {c.old: c.new for c in changes if c.old and c.new}
    rows = corpus_db.execute(
        "SELECT a.keyword, a.number, b.number FROM keywords a JOIN keywords b "
        "ON lower(a.keyword) = lower(b.keyword) AND a.kind = b.kind "
        "WHERE a.document = 'cr-2004-10-01' AND b.document = 'cr-2009-10-01' "
        "AND a.kind != 'ability_word'").fetchall()
    assert len(rows) >= 30
    assert [tuple(r) for r in rows if mapped.get(r[1]) != r[2]] == []


@needs_corpus
def test_consecutive_modern_releases_report_shifts_as_renumbered(corpus_db):
    modern = [e for e in editions_in(corpus_db) if e >= "cr-2009-10-01"]
    assert len(modern) >= 4
    for old_doc, new_doc in pairwise(modern):
        result = diff(corpus_db, old_doc, new_doc)
        assert result["alignment"] == "stored"
        removed = {c["text"] for c in result["changes"] if c["op"] == "removed"}
        added = {c["text"] for c in result["changes"] if c["op"] == "added"}
        assert removed & added == set(), (old_doc, new_doc)
        assert result["counts"]["renumbered"] > 20


@needs_corpus
def test_foundations_shift_in_608_is_renumbered(corpus_db):
    result = diff(corpus_db, "cr-2023-10-13", "cr-2025-02-07", section="608.2")
    ops = {(c["op"], c["old"], c["new"]) for c in result["changes"]}
    assert {("renumbered", "608.2i", "608.2j"), ("renumbered", "608.2j", "608.2k"),
            ("added", None, "608.2i")} <= ops


def test_history_json_of_the_bundled_keyword(built):
    from click.testing import CliRunner

    from rulesdb.cli import cli

    path, _ = built
    result = CliRunner().invoke(cli, ["history", "Banding", "--json", "--db", str(path)])
    assert result.exit_code == 0, result.output
    entries = json.loads(result.output)
    assert [(e["doc"], e["number"], e["change"]) for e in entries] == [
        ("rulebook-1995", "s2-expanding-your-knowledge.advanced-creature-abilities.banding",
         "concept"),
        ("rulings-1999-04", "A.11", "concept"),
        ("cr-2009-02-01", "502.10", "first"),
        ("cr-2009-02-01", 'glossary: Banding, "Bands with Other"', "concept"),
        ("cr-2025-06-06", "702.22", "renumbered"),
    ]


@pytest.mark.parametrize("doc_id", ["cr-2009-02-01", "cr-2025-06-06", "rulings-1999-04"])
def test_a_document_against_itself_has_no_changes(built, doc_id):
    assert diff(built[1], doc_id, doc_id) == {"old": doc_id, "new": doc_id,
                                              "alignment": "computed", "counts": {},
                                              "changes": []}


def test_diff_json_shape_and_section_filter(built):
    from click.testing import CliRunner

    from rulesdb.cli import cli

    path, _ = built
    result = CliRunner().invoke(cli, ["diff", "cr-2009-02-01", "cr-2025-06-06", "--section",
                                      "702.19", "--json", "--db", str(path)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["old"], data["new"], data["alignment"]) == (
        "cr-2009-02-01", "cr-2025-06-06", "stored")
    assert {(c["op"], c["old"], c["new"]) for c in data["changes"]} == {
        ("renumbered", "502.9", "702.19"), ("renumbered_edited", "502.9a", "702.19a"),
        ("renumbered_edited", "502.9b", "702.19b"), ("renumbered_edited", "502.9c", "702.19d"),
        ("added", None, "702.19c"), ("added", None, "702.19e"), ("added", None, "702.19f"),
        ("renumbered_edited", "502.9f", "702.19g")}
    edit = next(c for c in data["changes"] if c["old"] == "502.9a")
    assert "".join(w["old"] for w in edit["words"]) == edit["old_text"]
    assert "".join(w["new"] for w in edit["words"]) == edit["new_text"]
    assert {w["op"] for w in edit["words"]} >= {"equal", "replace"}


def test_keyword_subrules_stay_within_their_keyword(built):
    """Template sentences ("Multiple instances of trample … are redundant") differ only in
    the keyword's name: a subrule never aligns into another keyword's rule."""
    _, conn = built
    crossed = conn.execute(
        "SELECT ko.keyword, kn.keyword FROM alignments a "
        "JOIN rules o ON o.id = a.old_rule_id JOIN rules n ON n.id = a.new_rule_id "
        "JOIN keywords ko ON ko.rule_id = o.parent_id JOIN keywords kn ON kn.rule_id = n.parent_id "
        "WHERE a.old_doc = 'cr-2009-02-01' AND a.new_doc = 'cr-2025-06-06' "
        "AND lower(ko.keyword) != lower(kn.keyword)").fetchall()
    # only renamed or merged keywords: Tap → Tap and Untap, Bands with Other → Banding
    assert crossed
    assert all(old[:4].lower() in new.lower() or new[:4].lower() in old.lower()
               for old, new in crossed), crossed


@pytest.mark.parametrize(("args", "code"), [
    (["diff", "nope", "cr-2025-06-06"], 2),
    (["history", "999.9"], 1),
    (["history", "Nonexistent Keyword"], 1),
    (["history", "702.19", "--doc", "nope"], 2),
])
def test_lineage_commands_exit_codes(built, args, code):
    from click.testing import CliRunner

    from rulesdb.cli import cli

    result = CliRunner().invoke(cli, [*args, "--db", str(built[0])])
    assert result.exit_code == code, result.output
    assert len(result.output.strip().splitlines()) == 1
