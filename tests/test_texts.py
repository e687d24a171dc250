"""Rule texts stored once: editions that print a rule unchanged share its row in `texts`, and the
view `rules` gives every rule its text back."""

from __future__ import annotations

import sqlite3

import sqlite_utils
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesdb.cli import cli
from rulesdb.db.schema import ensure_schema
from rulesdb.db.store import _save_texts, delete_document

from test_add import add, release


def counts(db_path) -> tuple[int, int, int]:
    conn = sqlite3.connect(db_path)
    return conn.execute("SELECT (SELECT count(*) FROM rule_rows), (SELECT count(*) FROM texts), "
                        "(SELECT count(DISTINCT text) FROM rules)").fetchone()


def test_two_editions_share_their_unchanged_texts(tmp_path):
    first, db_path = add(tmp_path, release().encode())
    assert first.exit_code == 0, first.output
    rows, stored, distinct = counts(db_path)
    assert stored == distinct
    # the next edition changes one rule: one new text, every other shared
    second, _ = add(tmp_path, release(date="October 1, 2025", **{
        "Trample is a static ability": "Trample is a static ability of attackers"}).encode(),
        "MagicCompRules 20251001.txt", db=db_path)
    assert second.exit_code == 0, second.output
    rows_after, stored_after, distinct_after = counts(db_path)
    assert rows_after == 2 * rows
    assert stored_after == distinct_after == stored + 1
    conn = sqlite3.connect(db_path)
    # every rule reads its own text through the view, in both editions
    assert conn.execute(
        "SELECT count(*) FROM rules a JOIN rules b ON a.number = b.number "
        "WHERE a.document = 'cr-2025-06-06' AND b.document = 'cr-2025-10-01' "
        "AND a.text IS NOT b.text").fetchone()[0] == 1


def test_removing_an_edition_keeps_the_texts_others_share(tmp_path):
    _, db_path = add(tmp_path, release().encode())
    add(tmp_path, release(date="October 1, 2025", **{
        "Trample is a static ability": "Trample is a static ability of attackers"}).encode(),
        "MagicCompRules 20251001.txt", db=db_path)
    db = sqlite_utils.Database(db_path)
    before = db.execute("SELECT number, text FROM rules WHERE document = 'cr-2025-06-06' "
                        "ORDER BY position").fetchall()
    delete_document(db, "cr-2025-10-01")
    db.conn.commit()
    after = db.execute("SELECT number, text FROM rules WHERE document = 'cr-2025-06-06' "
                       "ORDER BY position").fetchall()
    assert after == before
    _, stored, distinct = counts(db_path)
    assert stored == distinct  # the edited rule's new text went with its edition
    assert db.execute("SELECT count(*) FROM texts WHERE text LIKE '%of attackers%'"
                      ).fetchone()[0] == 0


def test_a_database_of_the_older_layout_is_refused_with_the_way_out(tmp_path):
    db_path = tmp_path / "old.db"
    conn = sqlite3.connect(db_path)
    conn.execute("CREATE TABLE rules (id INTEGER PRIMARY KEY, document TEXT, text TEXT)")
    conn.commit()
    conn.close()
    before = db_path.read_bytes()
    path = tmp_path / "MagicCompRules 20250606.txt"
    path.write_bytes(release().encode())
    result = CliRunner().invoke(cli, ["add", str(path), "--db", str(db_path)])
    assert result.exit_code == 2
    assert "made by an older rulesdb" in result.output and "rulesdb build" in result.output
    assert db_path.read_bytes() == before


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(max_size=40), max_size=30), st.lists(st.text(max_size=40), max_size=30))
def test_stored_texts_come_back_exactly_and_once(first, second):
    db = sqlite_utils.Database(memory=True)
    ensure_schema(db, ["texts"])
    ids = _save_texts(db, first)
    ids.update(_save_texts(db, second))
    stored = dict(db.execute("SELECT id, text FROM texts").fetchall())
    assert sorted(stored.values()) == sorted(set(first) | set(second))
    assert all(stored[ids[text]] == text for text in [*first, *second])
