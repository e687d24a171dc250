"""When only editions of the Comprehensive Rules are added, the judges' documents' references
are not searched for again: those into the CR are resolved again from their stored rows
(rulesdb.layers.cross_refs.cr_retargeted). What is stored must be what searching the judges'
documents again gives."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import sqlite_utils
from click.testing import CliRunner

from rulesdb.cli import cli
from rulesdb.layers import policy_refs
from rulesdb.layers.cross_refs import POLICY_KINDS, Cross, cr_retargeted
from rulesdb.layers.references import _document_references, _stored

from policy_helpers import IPG, MTR

NEWEST = "MagicCompRules-2026-01-16.txt"


def judges_rows(db_path: Path) -> dict[str, tuple[list, list]]:
    """Each judges' document's references: as stored, and as found and resolved again."""
    db = sqlite_utils.Database(db_path)
    cross = Cross(db)
    docs = [doc for doc, kind in db.execute("SELECT id, kind FROM documents ORDER BY id")
            if kind in POLICY_KINDS]
    rows = {doc: (_stored(db, doc), _document_references(db, doc, {}, cross)) for doc in docs}
    db.close()
    return rows


def into(db_path: Path, doc_id: str) -> int:
    """How many of the judges' documents' references name `doc_id`."""
    conn = sqlite3.connect(db_path)
    kinds = ", ".join(f"'{kind}'" for kind in POLICY_KINDS)
    count = conn.execute(f"SELECT count(*) FROM [references] WHERE target_doc = ? AND document "
                         f"IN (SELECT id FROM documents WHERE kind IN ({kinds}))",
                         [doc_id]).fetchone()[0]
    conn.close()
    return count


def test_releases_added_leave_the_judges_references_as_searching_again_finds(small_db) -> None:
    rows = judges_rows(small_db)
    assert len(rows) == 3
    for doc, (stored, found) in rows.items():
        assert stored == found, doc
    assert into(small_db, "cr-2026-01-16") > 0  # they did change: they name the newest now
    assert into(small_db, "cr-2009-02-01-flattened") == 0


def test_a_first_edition_of_the_cr_resolves_what_named_none(tmp_path, archived) -> None:
    db = tmp_path / "rules.db"
    runner = CliRunner()
    added = runner.invoke(cli, ["add", str(MTR), str(IPG), "--db", str(db)])
    assert added.exit_code == 0, added.output
    conn = sqlite3.connect(db)
    missing = ("SELECT count(*) FROM [references] WHERE reason = ?",
               [policy_refs.Targets.missing("cr")])
    assert conn.execute(*missing).fetchone()[0] > 0
    conn.close()
    release = tmp_path / NEWEST
    release.write_bytes(archived[NEWEST].data)
    added = runner.invoke(cli, ["add", str(release), "--db", str(db)])
    assert added.exit_code == 0, added.output
    conn = sqlite3.connect(db)  # the add put a new file in place
    assert conn.execute(*missing).fetchone()[0] == 0
    conn.close()
    for doc, (stored, found) in judges_rows(db).items():
        assert stored == found, doc
    assert into(db, "cr-2026-01-16") > 0


def test_a_row_naming_a_document_no_longer_held_is_searched_again(bundled_db) -> None:
    db = sqlite_utils.Database(bundled_db)
    targets = policy_refs.Targets(db.conn)
    stored = _stored(db, "mtr-2026-02-27")
    assert cr_retargeted(stored, "mtr-2026-02-27", targets) == stored  # nothing came
    gone = [(*stored[0][:15], "cr-1999-01-01", *stored[0][16:]), *stored[1:]]
    assert cr_retargeted(gone, "mtr-2026-02-27", targets) is None
    db.close()
