"""`rulesdb add` takes the judges' documents: the text layer of their PDF and a PDF (one made
here from the shipped text), each told its kind and date by its own title and "Effective"
line."""

from __future__ import annotations

import json
import sqlite3

from click.testing import CliRunner

from rulesdb.cli import cli

from policy_helpers import IPG, MTR, as_pdf, parsed


def test_a_policy_pdf_and_text_layer_become_their_editions(tmp_path) -> None:
    db = tmp_path / "rules.db"
    made = tmp_path / "tournament-rules.pdf"  # the name says nothing of kind or date
    made.write_bytes(as_pdf(parsed(MTR)))
    result = CliRunner().invoke(cli, ["add", str(made), str(IPG), "--db", str(db), "--json"])
    assert result.exit_code == 0, result.output
    added = json.loads(result.output)["documents"]
    assert [(a["id"], a["action"]) for a in added] == [("mtr-2026-02-27", "added"),
                                                      ("ipg-2024-09-23", "added")]
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT id, kind, title, effective_date, partial FROM documents "
                        "ORDER BY id").fetchall() == [
        ("ipg-2024-09-23", "infraction_procedure_guide",
         "Magic Infraction Procedure Guide (September 23, 2024)", "2024-09-23", 0),
        ("mtr-2026-02-27", "tournament_rules",
         "Magic: The Gathering Tournament Rules (February 27, 2026)", "2026-02-27", 0)]
    stored = conn.execute("SELECT number, kind, title, replace(text, char(9), ' ') FROM rules "
                          "WHERE document = 'mtr-2026-02-27' ORDER BY position").fetchall()
    # the PDF's text reads as the text layer's, but for table cells (set apart by a tab only
    # where the text layer's spacing tells them)
    assert stored == [(r.number, r.kind, r.title, r.text.replace("\t", " "))
                      for r in parsed(MTR).rules]
    assert conn.execute("SELECT count(*), count(penalty) FROM infractions").fetchone() == (23, 23)


def test_an_id_of_another_kind_is_refused(tmp_path) -> None:
    result = CliRunner().invoke(cli, ["add", str(IPG), "--db", str(tmp_path / "r.db"),
                                      "--id", "mtr-2024-09-23"])
    assert result.exit_code == 2
    assert ("--id mtr-2024-09-23: expected ipg-YYYY-MM-DD (the file is a Magic Infraction "
            "Procedure Guide)") in result.output
    assert not (tmp_path / "r.db").exists()


def test_a_newer_edition_added_then_removed_leaves_the_references_as_they_were(tmp_path) -> None:
    """The CR's "see the Magic Tournament Rules" follows the newest MTR, and goes back to the
    bundled one when the added edition is removed."""
    import shutil

    from rulesdb.sources.build import build

    from conftest import SOURCES
    from test_layers_run import layer_rows

    bundled, db = tmp_path / "bundled.db", tmp_path / "rules.db"
    build(bundled, SOURCES, seeds_only=True)
    shutil.copyfile(bundled, db)
    newer = tmp_path / "mtr.pdf.txt"
    newer.write_text(MTR.read_text(encoding="utf-8").replace(
        "Effective February 27, 2026", "Effective March 1, 2027"), encoding="utf-8")
    runner = CliRunner()
    added = runner.invoke(cli, ["add", str(newer), "--db", str(db)])
    assert added.exit_code == 0, added.output
    conn = sqlite3.connect(db)
    whole = ("SELECT DISTINCT target_doc FROM [references] WHERE document LIKE 'cr-%' AND "
             "kind = 'document'")
    assert conn.execute(whole).fetchall() == [("mtr-2027-03-01",)]
    conn.close()
    removed = runner.invoke(cli, ["remove", "mtr-2027-03-01", "--db", str(db)])
    assert removed.exit_code == 0, removed.output
    tables = ("references", "alignments", "lineages", "term_mentions")
    assert layer_rows(db, tables) == layer_rows(bundled, tables)
    conn = sqlite3.connect(db)
    assert conn.execute(whole).fetchall() == [("mtr-2026-02-27",)]
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
