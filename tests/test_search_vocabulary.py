"""The players' vocabulary of search (data/search-vocabulary.txt): every reading is printed in
the current documents (the newest CR edition, the Tournament Rules, the Infraction Procedure
Guide), so no entry points at words they no longer use; a line that cannot be read is an
input error naming the file and line."""

from __future__ import annotations

import sqlite3

import pytest

from rulesdb.errors import InputError
from rulesdb.lookup.reading import Concept, fts_expression
from rulesdb.sources.vocabulary import VOCABULARY, read_vocabulary

from conftest import ROOT, SMALL_RELEASES

ENTRIES = read_vocabulary(ROOT / "data" / VOCABULARY)
NEWEST = "cr-" + SMALL_RELEASES[-1].removeprefix("MagicCompRules-").removesuffix(".txt")
# what search covers with no options: the newest edition and the judges' bundled documents
CURRENT = (NEWEST, "mtr-2026-02-27", "ipg-2024-09-23")
READINGS = [(entry.line, phrase) for entry in ENTRIES for part in entry.readings
            for phrase in part]


@pytest.fixture(scope="module")
def conn(small_db):
    connection = sqlite3.connect(f"file:{small_db}?mode=ro", uri=True)
    yield connection
    connection.close()


def printed(conn: sqlite3.Connection, phrase: str, documents: tuple[str, ...] = CURRENT
             ) -> bool:
    """Whether one of `documents` prints `phrase` (as search matches it: word forms joined,
    typography aside) in a rule, an example or a glossary entry."""
    match = fts_expression(Concept(phrase, (phrase,), "vocabulary"))
    return any(conn.execute(sql, [match, doc]).fetchone() for doc in documents for sql in (
        "SELECT 1 FROM texts_fts JOIN rule_rows r ON r.text_id = texts_fts.rowid "
        "WHERE texts_fts MATCH ? AND r.document = ? LIMIT 1",
        "SELECT 1 FROM examples_fts JOIN examples e ON e.id = examples_fts.rowid "
        "WHERE examples_fts MATCH ? AND e.document = ? LIMIT 1",
        "SELECT 1 FROM glossary_fts JOIN glossary g ON g.id = glossary_fts.rowid "
        "WHERE glossary_fts MATCH ? AND g.document = ? LIMIT 1"))


def test_the_newest_edition_is_the_newest_release(conn):
    (newest,) = conn.execute("SELECT id FROM documents WHERE kind = 'comprehensive_rules' "
                             "AND id NOT LIKE '%-chapter%' ORDER BY effective_date DESC "
                             "LIMIT 1").fetchone()
    assert newest == NEWEST


@pytest.mark.parametrize(("line", "phrase"), READINGS,
                         ids=[f"line {line}: {phrase}" for line, phrase in READINGS])
def test_every_reading_is_printed_in_the_current_documents(conn, line, phrase):
    assert printed(conn, phrase), f"{VOCABULARY}, line {line}: {phrase!r} is not in {CURRENT}"


def test_the_current_documents_are_what_search_covers(conn):
    from rulesdb.lookup.search import current_documents

    assert tuple(current_documents(conn)) == CURRENT


def test_a_phrase_the_rules_never_print_is_caught(conn):
    assert not printed(conn, "mana burn damage")
    assert printed(conn, "enters the battlefield")
    assert not printed(conn, "communication policy violation", (NEWEST,))
    assert printed(conn, "communication policy violation")


def test_every_entry_says_what_its_word_means():
    assert all(entry.note for entry in ENTRIES)


@pytest.mark.parametrize(("text", "message"), [
    ("etb enters the battlefield   # no equals sign", "line 2: expected 'WORD | WORD = READING"),
    ("etb =    # no reading", "line 2: expected 'WORD | WORD = READING"),
    ("etb = enters +   # an empty part", "line 2: an empty part"),
    ("etb = enters   # one\nETB = leaves   # again", "line 3: 'etb' is already read on line 2"),
])
def test_a_bad_line_is_an_input_error_naming_the_file_and_line(tmp_path, text, message):
    path = tmp_path / VOCABULARY
    path.write_text(f"# a comment\n{text}\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_vocabulary(path)
    assert caught.value.message.startswith(f"{path}, {message}"), caught.value.message
