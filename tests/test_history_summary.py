"""The history of a large subtree is summed up release by release (rulesdb.lineage.subtree): on
the site (a page of releases at a time, the words of one step on request), in its feed and in
`rulesdb history`; a rule with its few subrules keeps its complete history. Small releases
with the limit lowered, and the full history for what must hold at its size."""

from __future__ import annotations

import json
import re
import sqlite3
import xml.etree.ElementTree as ET

import click
import pytest

from rulesdb.lineage import subtree, versions
from rulesdb.lineage.fold import fold_history
from rulesdb.site import feeds, histories
from rulesdb.site.serve import make_datasette

from edition_helpers import make_db, run
from test_site import get, links

A, B, C = "cr-2024-01-01", "cr-2024-06-01", "cr-2025-01-01"
NS = {"a": "http://www.w3.org/2005/Atom"}
OVERRIDES = f"{A} 702.19a = {B} 702.19a  # the same trample rule, reworded\n"
# Banding comes in as 702.2 and pushes Deathtouch and Defender down; trample is reworded
B_CHANGES = [{"op": "added", "old": None, "new": "702.2"},
             {"op": "added", "old": None, "new": "702.2a"},
             {"op": "renumbered", "old": "702.2", "new": "702.3"},
             {"op": "renumbered", "old": "702.2a", "new": "702.3a"},
             {"op": "renumbered", "old": "702.3", "new": "702.4"},
             {"op": "renumbered", "old": "702.3a", "new": "702.4a"},
             {"op": "edited", "old": "702.19a", "new": "702.19a"}]


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    return make_db(tmp_path_factory.mktemp("summary"), overrides=OVERRIDES)


@pytest.fixture
def small_limit(monkeypatch):
    """Subtrees of more than 4 rules are summed up (702 holds 10 in C, 702.19 two)."""
    monkeypatch.setattr(subtree, "SUMMARY_AFTER", 4)


def rule_id(db, doc: str, number: str) -> int:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT id FROM rule_rows WHERE document = ? AND number = ?",
                            [doc, number]).fetchone()[0]
    finally:
        conn.close()


def test_a_summary_counts_and_names_what_changed_inside_per_release(db):
    conn = sqlite3.connect(db)
    assert subtree.summary(conn, rule_id(db, C, "702")) == [
        {"old_doc": None, "old_number": None, "new_doc": A, "number": "702", "counts": {},
         "changes": [], "run": [], "size": 8},
        {"old_doc": A, "old_number": "702", "new_doc": B, "number": "702",
         "counts": {"edited": 1, "renumbered": 4, "added": 2}, "changes": B_CHANGES, "run": []},
        {"old_doc": B, "old_number": "702", "new_doc": C, "number": "702",
         "counts": {"edited": 1}, "changes": [{"op": "edited", "old": "702.19a",
                                               "new": "702.19a"}], "run": []}]
    # a chapter holds its sections' rules; a release that changed nothing inside joins a run
    assert [(s["new_doc"], s["counts"], s["run"]) for s in subtree.summary(
        conn, rule_id(db, C, "1"))] == [(A, {}, []), (B, {"edited": 1, "removed": 1}, []),
                                        (C, {"added": 1}, [])]
    assert [(s["new_doc"], s["run"]) for s in subtree.summary(conn, rule_id(db, C, "100.1"))] \
        == [(A, [B, C])]


def test_which_histories_are_summed_up(db, small_limit):
    conn = sqlite3.connect(db)
    assert subtree.summarized(conn, rule_id(db, C, "702"))  # 10 rules, a heading
    assert subtree.summarized(conn, rule_id(db, A, "7"))  # 9 rules in A, 11 in C
    assert not subtree.summarized(conn, rule_id(db, C, "702.19"))  # two rules
    assert not subtree.summarized(conn, rule_id(db, C, "100.1"))  # no heading


@pytest.mark.parametrize("limit", [1, 2, 4, 8, 9, 10, 11, 12])
def test_the_sizes_a_history_read_give_the_same_answer(db, monkeypatch, limit):
    """`rulesdb history` asks `summarized` with the sizes of the versions it read: the same
    answer as asking the database (A's 7 holds 9 rules and C's 11: at 10, only another
    version is too large), and a heading `outgrown` itself is always summed up."""
    monkeypatch.setattr(subtree, "SUMMARY_AFTER", limit)
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    headings = [dict(row) for row in conn.execute(
        "SELECT * FROM rules WHERE title IS NOT NULL ORDER BY id")]
    answers = []
    for rule in headings:
        sizes: dict[int, int] = {}
        versions.rule_history(conn, rule, sizes)
        assert all(size >= 1 for size in sizes.values()) and rule["id"] in sizes
        answer = subtree.summarized(conn, rule["id"])
        assert subtree.summarized(conn, rule["id"], sizes) == answer, rule["number"]
        assert not subtree.outgrown(conn, rule["id"]) or answer
        answers.append(answer)
    assert any(answers) == (limit <= 10) and (limit < 2 or not all(answers))
    if limit == 10:  # summed up for another version only
        assert subtree.summarized(conn, rule_id(db, A, "7"))
        assert not subtree.outgrown(conn, rule_id(db, A, "7"))


@pytest.mark.parametrize("limit", [2, 4, 9, 10, 12])
def test_the_site_and_the_cli_show_the_same_history_of_every_rule(db, monkeypatch, limit):
    """The history page, the rule page, the feed and `rulesdb history` sum up the histories
    `summarized` sums up asking the database alone (A's 7 holds 9 rules and C's 11: at 10,
    only another version is too large), and otherwise show the versions (folded) the command
    shows."""
    monkeypatch.setattr(subtree, "SUMMARY_AFTER", limit)
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    for rule in [dict(row) for row in conn.execute("SELECT * FROM rules ORDER BY id")]:
        doc, number = rule["document"], rule["number"]
        summed = subtree.summarized(conn, rule["id"])
        page = histories.history_page(conn, doc, number)
        shown = click.unstyle(run("history", number, "--doc", doc, "--db", str(db)).output)
        feed = feeds.history_feed(conn, doc, number, lambda path: path)
        assert (page["template"] == "rulesdb_history_summary.html") == summed, number
        assert histories.rule_history(conn, doc, number)["summarized"] == summed, number
        assert shown.startswith(f"{number} holds more than {limit} rules") == summed, number
        assert (", summed up</title>" in feed) == summed, number
        if summed:
            assert [(s["new_doc"], s["counts"]) for s in page["steps"]] == [
                (s["new_doc"], s["counts"]) for s in subtree.summary(conn, rule["id"])]
        else:
            assert [(v["doc"], v["number"], v["text"]) for v in page["versions"]] == [
                (v["doc"], v["number"], v["text"])
                for v in fold_history(versions.rule_history(conn, rule))
                if v["change"] != "concept"], number


def test_the_step_of_one_release_has_the_words_of_the_changes_inside(db):
    conn = sqlite3.connect(db)
    found = subtree.step_diff(conn, rule_id(db, C, "702"), B)
    assert [(c["op"], c["old"], c["new"]) for c in found["changes"]] == [
        (c["op"], c["old"], c["new"]) for c in B_CHANGES]
    edit = found["changes"][-1]
    assert "".join(op["new"] for op in edit["words"]) == edit["new_text"]
    assert any(op["op"] != "equal" for op in edit["words"])
    assert found["counts"] == {"edited": 1, "renumbered": 4, "added": 2}
    assert subtree.step_diff(conn, rule_id(db, C, "702"), A) is None  # the first: no step
    assert subtree.step_diff(conn, rule_id(db, C, "702"), "cr-2099-01-01") is None


def text_of(html: str) -> str:
    body = html[html.index('<section class="content">'):html.index("</section>")]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))


def test_the_site_sums_up_a_large_subtree_and_links_every_rule_to_its_history(db, small_limit):
    ds = make_datasette(db)
    page = get(ds, f"/{C}/702/history")
    assert page.status_code == 200
    text = text_of(page.text)
    assert "1 edited, 4 renumbered, 2 added" in text and "first version in this database: 8 " \
        "rules" in text
    hrefs = links(page.text)
    for url in (f"/{B}/702.2/history", f"/{B}/702.3/history", f"/{B}/702.19a/history",
                f"/{C}/702/history?step={B}", f"/{C}/702/history?step={C}"):
        assert url in hrefs
    assert f"/{C}/702/history?step={A}" not in hrefs  # the first version has no step
    for href in {h for h in hrefs if h.startswith("/") and "/-/" not in h}:
        assert get(ds, href).status_code == 200, href
    assert "<del>" not in page.text  # no words but on request


def test_the_words_of_a_step_are_a_page_of_their_own(db, small_limit):
    ds = make_datasette(db)
    page = get(ds, f"/{C}/702/history?step={B}")
    assert page.status_code == 200
    assert "<del>" in page.text and "<ins>" in page.text
    assert f"/{B}/702.3/history" in links(page.text)
    assert f'href="/diff/{A}/{B}"' in page.text
    for path, status in [(f"/{C}/702/history?step={A}", 404),
                         (f"/{C}/702/history?step=cr-2099-01-01", 404),
                         (f"/{C}/702/history?step={B}&page=2", 404),
                         (f"/{C}/702/history?page=2", 404),
                         (f"/{C}/702/history?step=<b>", 400),
                         (f"/{C}/702/history?page=0", 400),
                         (f"/{C}/702/history?page=99999999999", 400),
                         (f"/{C}/702.19/history?step={B}", 404),  # not summed up: no steps
                         (f"/{C}/702.19/history?page=2", 404)]:
        assert get(ds, path).status_code == status, path


def test_the_feed_of_a_large_subtree_carries_the_summary(db, small_limit):
    ds = make_datasette(db)
    feed = ET.fromstring(get(ds, f"/{C}/702/history.atom").content)
    entries = feed.findall("a:entry", NS)
    assert [e.find("a:title", NS).text for e in entries] == [
        f"section 702: 1 edited in {C}", f"section 702: 1 edited, 4 renumbered, 2 added in {B}",
        f"section 702 in {A}: first version in this database"]
    content = entries[1].find("a:content", NS).text
    assert f'href="http://localhost/{B}/702.3/history">702.2 → 702.3</a> renumbered' in content
    assert f"http://localhost/{C}/702/history?step={B}" in content


def test_the_rule_page_points_to_the_summary(db, small_limit):
    ds = make_datasette(db)
    page = text_of(get(ds, f"/{C}/702").text)
    assert "holds too many rules to show every word" in page
    assert "3 releases; something changed inside it in 2" in page


def test_the_cli_sums_up_a_large_subtree(db, small_limit, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")  # the names of a step fill one line of the terminal
    result = run("history", "702", "--doc", C, "--db", str(db))
    assert result.exit_code == 0, result.output
    assert [click.unstyle(line) for line in result.output.splitlines()] == [
        "702 holds more than 4 rules: what changed inside it, release by release (3 releases; "
        "--step RELEASE: the words of one, --all: every version whole)",
        f"{A}  702  [first]  8 rules",
        f"{B}  702  1 edited, 4 renumbered, 2 added",
        "  edited: 702.19a; renumbered: 702.2 → 702.3 702.2a → 702.3a 702.3 → 702.4 702.3a → "
        "702.4a; …",
        f"{C}  702  1 edited",
        "  edited: 702.19a"]


def test_the_cli_gives_the_words_of_a_step_and_everything_on_request(db, small_limit):
    step = run("history", "702", "--doc", C, "--step", B, "--db", str(db))
    assert step.exit_code == 0, step.output
    lines = click.unstyle(step.output).splitlines()
    assert lines[0] == f"{A} → {B}: 1 edited, 4 renumbered, 2 added"
    assert "edited 702.19a (similarity" in step.output and "{+" in step.output
    data = json.loads(run("history", "702", "--doc", C, "--step", B, "--json",
                          "--db", str(db)).output)
    assert (data["old"], data["new"], data["counts"]) == (A, B, {"edited": 1, "renumbered": 4,
                                                                  "added": 2})
    missing = run("history", "702", "--doc", C, "--step", A, "--db", str(db))
    assert missing.exit_code == 1 and "nothing changed inside 702 in" in missing.output
    assert run("history", "702", "--step", "cr-2099-01-01", "--db", str(db)).exit_code == 2
    every = click.unstyle(run("history", "702", "--doc", C, "--all", "--db", str(db)).output)
    assert f"{B}  702  [subrules changed]" in every.splitlines()  # the history's words
    assert "  702.19a An attacker with trample may assign its excess combat damage to the " \
           "player or planeswalker it attacks." in every.splitlines()  # every line, whole


def test_json_keeps_every_version_and_is_streamed_whole(db, small_limit):
    data = json.loads(run("history", "702", "--doc", C, "--json", "--db", str(db)).output)
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    assert data == versions.history(conn, "702", C)
    assert [e["doc"] for e in data if e["change"] != "concept"] == [A, B, C]
    empty = run("history", "100.1", "--doc", C, "--json", "--db", str(db))
    assert json.loads(empty.output)[0]["doc"] == A


def test_at_full_history_chapters_and_sections_are_summed_up(history_db):
    conn = sqlite3.connect(history_db)
    result = run("history", "7", "--db", str(history_db))
    assert result.exit_code == 0
    lines = click.unstyle(result.output).splitlines()
    assert len(lines) <= 250
    assert any(line.startswith("cr-2009-07-11  5 → 7  ") for line in lines)
    ds = make_datasette(history_db)
    for path in ("/cr-2026-01-16/7/history", "/cr-2026-01-16/702/history",
                 "/cr-2026-01-16/1/history", "/cr-2026-01-16/702/history.atom",
                 "/cr-2026-01-16/7/history?step=cr-2009-07-11&page=3"):
        response = get(ds, path)
        assert response.status_code == 200 and len(response.content) < 1_000_000, path
    # every rule with a heading below the sections keeps its complete history
    headings = [row[0] for row in conn.execute(
        "SELECT id FROM rule_rows WHERE document = 'cr-2026-01-16' AND depth >= 2 "
        "AND title IS NOT NULL")]
    assert not any(subtree.summarized(conn, rule) for rule in headings)
    assert "History of 702.19 Trample" in get(ds, "/cr-2026-01-16/702.19/history").text
