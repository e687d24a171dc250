"""`rulesdb add`: every encoding, line ending and typo of real releases; edition identity;
atomicity; `rulesdb build` keeping added editions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sqlite_utils
from click.testing import CliRunner

from rulesdb.cli import cli
from rulesdb.sources.add import file_date, plain_title

from conftest import SOURCES

# A small whole release with the constructs of real ones: front matter, the modern numbering,
# an example, a cross-reference, keyword abilities, glossary aliases, a single term with a
# comma, an obsolete term, a definition of two paragraphs and a glossary example.
RELEASE = """\
Magic: The Gathering Comprehensive Rules

These rules are effective as of {date}.

Introduction

This document is the ultimate authority for “Magic™” games.

Contents

1. Game Concepts
7. Additional Rules
Glossary
Credits

1. Game Concepts

100. General

100.1. These Magic rules apply to any Magic game with two or more players.

100.1a A two-player game is a game that begins with only two players.
Example: Two players play a game. See rule 702.19b.

101. The Magic Golden Rules

101.1. Whenever a card’s text directly contradicts these rules, the card takes precedence.

7. Additional Rules

702. Keyword Abilities

702.1. Most abilities describe exactly what they do.

702.19. Trample

702.19a Trample is a static ability that modifies the rules for assigning combat damage.

702.19b The controller of an attacking creature with trample first assigns damage to the \
creature(s) blocking it. See rules 100.1–101.1.

Glossary

Active Player, Nonactive Player Order
A system that determines the order by which players make choices. See rule 101.1.

Bury (Obsolete)
A term that meant “put into its owner’s graveyard.”
Cards printed with this term now say destroy.

Control, Controller
The player who controls an object.
Example: You control a creature you cast.

Trample
A keyword ability. See rule 702.19.

Credits

Magic: The Gathering Original Game Design: Richard Garfield
"""
DATE = "June 6, 2025"


def release(date: str = DATE, **replacements: str) -> str:
    text = RELEASE.format(date=date)
    for old, new in replacements.items():
        assert old in text, old
        text = text.replace(old, new)
    return text


def add(tmp_path: Path, data: bytes, name: str = "MagicCompRules 20250606.txt", *extra: str,
        db: Path | None = None):
    path = tmp_path / name
    path.write_bytes(data)
    db = db or tmp_path / "rules.db"
    return CliRunner().invoke(cli, ["add", str(path), "--db", str(db), *extra]), db


def texts(db_path: Path, doc_id: str) -> dict[str, str]:
    db = sqlite_utils.Database(db_path)
    return dict(db.execute("SELECT number, text FROM rules WHERE document = ? ORDER BY position",
                           [doc_id]).fetchall())


EXPECTED_TEXTS = {
    "1": "Game Concepts",
    "100": "General",
    "100.1": "These Magic rules apply to any Magic game with two or more players.",
    "100.1a": "A two-player game is a game that begins with only two players.",
    "101": "The Magic Golden Rules",
    "101.1": "Whenever a card’s text directly contradicts these rules, the card takes precedence.",
    "7": "Additional Rules",
    "702": "Keyword Abilities",
    "702.1": "Most abilities describe exactly what they do.",
    "702.19": "Trample",
    "702.19a": "Trample is a static ability that modifies the rules for assigning combat damage.",
    "702.19b": "The controller of an attacking creature with trample first assigns damage to the "
               "creature(s) blocking it. See rules 100.1–101.1.",
}


def test_a_release_is_added_with_its_rows(tmp_path):
    result, db_path = add(tmp_path, release().encode("utf-8"))
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == (
        "cr-2025-06-06: added from MagicCompRules 20250606.txt: 12 rules, 1 examples, "
        "4 glossary entries")
    db = sqlite_utils.Database(db_path)
    row = db["documents"].get("cr-2025-06-06")
    assert {k: row[k] for k in ("kind", "title", "effective_date", "date_text", "partial",
                                "covers", "file", "file_date", "parser")} == {
        "kind": "comprehensive_rules",
        # chapters 2-6 are missing: partial, and the title says what it holds
        "title": "Magic: The Gathering Comprehensive Rules (June 6, 2025), rules 100-101, 702-702",
        "effective_date": "2025-06-06",
        "date_text": "These rules are effective as of June 6, 2025.",
        "partial": 1, "covers": '["100-101", "702-702"]',
        "file": "MagicCompRules 20250606.txt", "file_date": "2025-06-06", "parser": "cr_text"}
    assert texts(db_path, "cr-2025-06-06") == EXPECTED_TEXTS
    assert db.execute("SELECT number, text FROM examples").fetchall() == [
        ("100.1a", "Two players play a game. See rule 702.19b.")]
    glossary = db.execute("SELECT term, aliases, definition, obsolete FROM glossary "
                          "ORDER BY position").fetchall()
    assert glossary == [
        ("Active Player, Nonactive Player Order", "[]",
         "A system that determines the order by which players make choices. See rule 101.1.", 0),
        ("Bury", "[]", "A term that meant “put into its owner’s graveyard.”\n"
                       "Cards printed with this term now say destroy.", 1),
        ("Control, Controller", '["Control", "Controller"]',
         "The player who controls an object.\nExample: You control a creature you cast.", 0),
        ("Trample", "[]", "A keyword ability. See rule 702.19.", 0),
    ]
    references = db.execute("SELECT cited, target_number, status FROM [references] "
                            "ORDER BY id").fetchall()
    assert references == [
        ("100.1–101.1", "100.1-101.1", "unresolved"),  # not one section: never guessed
        ("702.19b", "702.19b", "resolved"),
        ("101.1", "101.1", "resolved"),
        ("702.19", "702.19", "resolved"),
    ]
    assert db.execute("SELECT keyword, number FROM keywords").fetchall() == [
        ("Trample", "702.19")]
    hits = db.execute("SELECT rules.number FROM rules_fts JOIN rules ON rules.id = "
                      "rules_fts.rowid WHERE rules_fts MATCH 'trampling'").fetchall()
    assert hits == [("702.19",), ("702.19a",), ("702.19b",)]


def _crlf(text: str) -> str:
    return text.replace("\n", "\r\n")


def _mixed(text: str) -> str:  # CR on odd lines, CRLF on even ones
    lines = text.split("\n")
    return "".join(line + ("\r" if i % 2 else "\r\n") for i, line in enumerate(lines))


ENCODINGS = {
    "utf-8": lambda t: t.encode("utf-8"),
    "utf-8 with BOM": lambda t: t.encode("utf-8-sig"),
    "cp1252": lambda t: t.encode("cp1252"),
    "utf-16-le with BOM": lambda t: b"\xff\xfe" + t.encode("utf-16-le"),
    "utf-16-be with BOM": lambda t: b"\xfe\xff" + t.encode("utf-16-be"),
}
LINE_ENDINGS = {
    "LF": lambda t: t,
    "CRLF": _crlf,
    "CR": lambda t: t.replace("\n", "\r"),
    "CR and CRLF": _mixed,
}


@pytest.mark.parametrize("encoding", list(ENCODINGS))
@pytest.mark.parametrize("ending", list(LINE_ENDINGS))
def test_every_encoding_and_line_ending_gives_the_same_texts(tmp_path, encoding, ending):
    data = ENCODINGS[encoding](LINE_ENDINGS[ending](release()))
    result, db_path = add(tmp_path, data, "release.bin")
    assert result.exit_code == 0, result.output
    assert texts(db_path, "cr-2025-06-06") == EXPECTED_TEXTS
    db = sqlite_utils.Database(db_path)
    assert db["documents"].get("cr-2025-06-06")["file_date"] is None
    assert db.execute("SELECT count(*) FROM glossary").fetchone()[0] == 4


ASCII = {"“": '"', "”": '"', "’": "'", "–": "-", "™": "(TM)"}


def test_plain_ascii_with_straight_quotes(tmp_path):
    text = release()
    for curly, plain in ASCII.items():
        text = text.replace(curly, plain)
    result, db_path = add(tmp_path, _crlf(text).encode("ascii"))
    assert result.exit_code == 0, result.output
    got = texts(db_path, "cr-2025-06-06")
    assert got["101.1"] == ("Whenever a card's text directly contradicts these rules, the card "
                            "takes precedence.")
    assert got["702.19b"].endswith("See rules 100.1-101.1.")


TYPOS = {
    "subrule printed with a period": (
        {"702.19a Trample": "702.19a. Trample"}, "702.19a",
        "subrule 702.19a printed with a period"),
    "rule missing its period": (
        {"101.1. Whenever": "101.1 Whenever"}, "101.1", "rule 101.1 printed without its period"),
    "doubled spaces": (
        {"the card takes": "the card  takes"}, "101.1", "doubled spaces in line"),
    "number printed twice": (
        {"702.19b The controller": "702.19a The controller"}, "702.19a-2",
        "subrule 702.19a is numbered twice"),
}


@pytest.mark.parametrize("typo", list(TYPOS))
def test_typos_of_the_source_are_tolerated_and_reported(tmp_path, typo):
    replacements, number, warning = TYPOS[typo]
    result, db_path = add(tmp_path, release(**replacements).encode("utf-8"), "x.txt", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert any(w.startswith(warning) for w in report["documents"][0]["warnings"]), report
    got = texts(db_path, "cr-2025-06-06")
    expected = dict(EXPECTED_TEXTS)
    if typo == "number printed twice":
        expected["702.19a-2"] = expected.pop("702.19b")
    assert got == expected
    assert number in got


def test_underscored_italics_and_trademarks_leave_the_title(tmp_path):
    text = release(**{"Magic: The Gathering Comprehensive Rules\n":
                      "_Magic: The Gathering_(TM) Comprehensive Rules\n"})
    result, db_path = add(tmp_path, text.encode("utf-8"))
    assert result.exit_code == 0, result.output
    title = sqlite_utils.Database(db_path)["documents"].get("cr-2025-06-06")["title"]
    assert title.startswith("Magic: The Gathering Comprehensive Rules (June 6, 2025),")


def test_pre_2009_numbering_keywords(tmp_path):
    text = release().replace("702.", "502.").replace("7. Additional", "5. Additional")
    result, db_path = add(tmp_path, text.encode("utf-8"))
    assert result.exit_code == 0, result.output
    db = sqlite_utils.Database(db_path)
    assert db.execute("SELECT keyword, number FROM keywords").fetchall() == [("Trample", "502.19")]
    assert db.execute("SELECT count(*) FROM [references] WHERE status = 'resolved'"
                      ).fetchone()[0] == 3


# --- dates and ids ----------------------------------------------------------------------


@pytest.mark.parametrize(("printed", "name", "doc_id", "file_day"), [
    ("These rules are effective as of June 6, 2025.", "MagicCompRules 20250606.txt",
     "cr-2025-06-06", "2025-06-06"),
    ("These rules are current as of October 1, 2004.", "MagicCompRules-2004-09-20.txt",
     "cr-2004-10-01", "2004-09-20"),
    ("These rules are effective as of June 6, 2025.", "MagicCompRules%2020250530.txt",
     "cr-2025-06-06", None),
])
def test_the_id_comes_from_the_printed_date_and_the_name_date_is_kept(
        tmp_path, printed, name, doc_id, file_day):
    text = release().replace("These rules are effective as of June 6, 2025.", printed)
    result, db_path = add(tmp_path, text.encode("utf-8"), name)
    assert result.exit_code == 0, result.output
    row = sqlite_utils.Database(db_path)["documents"].get(doc_id)
    assert (row["date_text"], row["file_date"]) == (printed, file_day)


def test_id_overrides_a_wrong_printed_date(tmp_path):
    text = release(date="June 6, 2052")
    result, db_path = add(tmp_path, text.encode("utf-8"), "r.txt", "--id", "cr-2025-06-06")
    assert result.exit_code == 0, result.output
    row = sqlite_utils.Database(db_path)["documents"].get("cr-2025-06-06")
    assert (row["effective_date"], row["date_text"]) == (
        "2025-06-06", "These rules are effective as of June 6, 2052.")


@pytest.mark.parametrize("bad_id", ["2025-06-06", "cr-2025-13-01", "cr-25-06-06"])
def test_a_malformed_id_is_refused(tmp_path, bad_id):
    result, db_path = add(tmp_path, release().encode("utf-8"), "r.txt", "--id", bad_id)
    assert result.exit_code == 2
    assert result.output == f"Error: --id {bad_id}: expected cr-YYYY-MM-DD\n"
    assert not db_path.exists()


def test_no_date_anywhere_asks_for_an_id(tmp_path):
    fragment = (SOURCES / "cr-2025-06-06-chapter7.txt").read_bytes()
    result, db_path = add(tmp_path, fragment, "chapter7.txt")
    assert result.exit_code == 2
    assert result.output == ("Error: chapter7.txt: no effective date printed in the file nor in "
                             "its name; give the id with --id cr-YYYY-MM-DD\n")
    assert not db_path.exists()


@pytest.mark.parametrize(("name", "day"), [
    ("MagicCompRules 20250606.txt", "2025-06-06"), ("MagicCompRules-2004-10-01.txt", "2004-10-01"),
    ("MagicCompRules_20091001.txt", "2009-10-01"), ("rules.txt", None),
    ("MagicCompRules 20251301.txt", None), ("v12345678901.txt", None),
])
def test_file_date(name, day):
    assert file_date(name) == day


@pytest.mark.parametrize(("title", "plain"), [
    ("_Magic: The Gathering_ Comprehensive Rules", "Magic: The Gathering Comprehensive Rules"),
    ("Magic: The Gathering® Comprehensive Rules", "Magic: The Gathering Comprehensive Rules"),
    ("Magic(TM) Rules", "Magic Rules"), ("snake_case_name", "snake_case_name"),
])
def test_plain_title(title, plain):
    assert plain_title(title) == plain
