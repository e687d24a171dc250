"""The shipped history: the archive's checksums verified member by member, the releases
shipped in their other forms (.docx, .doc) verified against the catalogue, every release in
the default database, the cut-off release kept as a partial edition, seeds of the same date
kept beside their whole release."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import sqlite3
import tarfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdb.cli import cli
from rulesdb.errors import InputError
from rulesdb.lookup import query
from rulesdb.sources.add import add_sources
from rulesdb.sources.history import (
    Archive,
    Release,
    load_archives,
    load_releases,
    parse_sums,
    read_archive,
    read_release,
)
from rulesdb.sources.release import edition_id, parse_release

from conftest import SOURCES, copy_sources

CATALOG = SOURCES / "catalog.toml"


def shipped() -> Archive:
    (archive,) = load_archives(CATALOG)
    return archive


def test_the_shipped_archive_holds_110_verified_releases():
    sources = read_archive(shipped(), SOURCES)
    assert len(sources) == 110
    assert sources[0].name == "MagicCompRules-2003-03-15.txt"
    assert sources[-1].name == "MagicCompRules-2026-01-16.txt"
    assert all(source.origin.startswith("cr-history-2003-2026.tar.xz:") for source in sources)


# the releases that survive only in another form, by the id their printed date gives
OTHER_FORMS = {"cr-2003-06-01": "MagicCompRules-2003-06-01.doc",
               "cr-2014-05-01": "MagicCompRules-2014-05-01.docx",
               "cr-2014-06-01": "MagicCompRules-2014-06-01.docx",
               "cr-2014-07-18": "MagicCompRules-2014-07-18.docx",
               "cr-2023-02-03": "MagicCompRules-2023-02-03.docx"}


def test_the_catalogue_ships_five_releases_in_their_other_forms():
    sources = [read_release(release, SOURCES) for release in load_releases(CATALOG)]
    ids = {edition_id(parse_release(source), source): source.name for source in sources}
    assert ids == OTHER_FORMS
    archived = {source.name for source in read_archive(shipped(), SOURCES)}
    assert len(archived | set(ids.values())) == 115


def test_a_release_file_not_as_catalogued_is_refused(tmp_path):
    (tmp_path / "r.docx").write_bytes(b"PK\x05\x06" + bytes(18))
    with pytest.raises(InputError, match=r"r\.docx: release: sha256 mismatch"):
        read_release(Release("r.docx", "0" * 64), tmp_path)
    with pytest.raises(InputError, match=r"missing\.doc: release: cannot read"):
        read_release(Release("missing.doc", "0" * 64), tmp_path)


def make_archive(folder: Path, members: dict[str, bytes], sums: dict[str, bytes]) -> Archive:
    """A .tar.xz of `members` and a checksum list of `sums` (name → the bytes it claims)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:xz") as tar:
        for name, body in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(body)
            tar.addfile(info, io.BytesIO(body))
    (folder / "h.tar.xz").write_bytes(buffer.getvalue())
    listing = "".join(f"{hashlib.sha256(body).hexdigest()}  {name}\n"
                      for name, body in sums.items())
    (folder / "SUMS").write_text(listing)
    return Archive("h.tar.xz", hashlib.sha256(buffer.getvalue()).hexdigest(), "SUMS",
                   hashlib.sha256(listing.encode()).hexdigest())


GOOD = {"a.txt": b"one", "b.txt": b"two"}
BROKEN = {
    "member altered": (GOOD, {"a.txt": b"one", "b.txt": b"TWO"},
                       r"h\.tar\.xz: b\.txt: sha256 mismatch \(SUMS \w+…, member \w+…\)"),
    "member not listed": (GOOD, {"a.txt": b"one"}, r"b\.txt: not listed in SUMS"),
    "member missing": ({"a.txt": b"one"}, GOOD,
                       r"1 file\(s\) listed in SUMS are missing from the archive, "
                       r"the first b\.txt"),
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_a_damaged_archive_is_one_clear_error(tmp_path, case):
    members, sums, pattern = BROKEN[case]
    archive = make_archive(tmp_path, members, sums)
    with pytest.raises(InputError, match=pattern):
        read_archive(archive, tmp_path)


def test_an_archive_or_listing_not_as_catalogued_is_refused(tmp_path):
    archive = make_archive(tmp_path, GOOD, GOOD)
    assert [s.data for s in read_archive(archive, tmp_path)] == [b"one", b"two"]
    with pytest.raises(InputError, match=r"h\.tar\.xz: archive: sha256 mismatch"):
        read_archive(Archive("h.tar.xz", "0" * 64, "SUMS", archive.sums_sha256), tmp_path)
    with pytest.raises(InputError, match=r"SUMS: checksums: sha256 mismatch"):
        read_archive(Archive("h.tar.xz", archive.sha256, "SUMS", "0" * 64), tmp_path)


def test_a_malformed_checksum_line_is_named():
    with pytest.raises(InputError, match=r"S: line 2: expected 'SHA256  FILE'"):
        parse_sums(f"{'0' * 64}  a.txt\nnonsense\n", Path("S"))


@pytest.mark.parametrize(("file", "error"), [
    ("cr-history-2003-2026.tar.xz", "cr-history-2003-2026.tar.xz: archive: sha256 mismatch"),
    (OTHER_FORMS["cr-2014-05-01"], "MagicCompRules-2014-05-01.docx: release: sha256 mismatch"),
])
def test_the_build_refuses_a_tampered_history_file_and_keeps_the_old_database(tmp_path, file,
                                                                              error):
    sources = copy_sources(tmp_path)
    history = tmp_path / "history"
    shutil.copytree(SOURCES.parent / "history", history)
    tampered = history / file
    data = tampered.read_bytes()
    tampered.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    db_path = tmp_path / "rules.db"
    db_path.write_bytes(b"previous database")
    result = CliRunner().invoke(cli, ["build", "--db", str(db_path), "--sources", str(sources)])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1
    assert error in result.output
    assert db_path.read_bytes() == b"previous database"


def test_seeds_only_builds_the_bundled_documents(tmp_path):
    result = CliRunner().invoke(cli, ["build", "--seeds-only", "--db", str(tmp_path / "r.db"),
                                      "--json"])
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.output)["documents"]) == 8  # five seeds, three judges' documents


def test_a_whole_release_of_a_seeds_date_is_what_lookups_use(bundled_db, tmp_path):
    db_path = tmp_path / "rules.db"
    shutil.copyfile(bundled_db, db_path)
    (release,) = [s for s in read_archive(shipped(), SOURCES)
                  if s.name == "MagicCompRules-2025-06-06.txt"]
    report = add_sources(db_path, [release])
    assert [(a.id, a.action) for a in report.added] == [("cr-2025-06-06", "added")]
    conn = query.connect(db_path)
    seed = query.document(conn, "cr-2025-06-06-chapter7")
    assert seed is not None and seed["superseded_by"] == "cr-2025-06-06"
    assert query.find_rule(conn, "702.19")["document"] == "cr-2025-06-06"
    assert query.find_rule(conn, "702.19", "cr-2025-06-06-chapter7") is not None


def test_every_release_of_the_archive_is_in_the_default_database(history_db):
    conn = sqlite3.connect(history_db)
    files = {row[0] for row in conn.execute("SELECT file FROM documents")}
    names = {source.name for source in read_archive(shipped(), SOURCES)}
    assert names <= files
    counts = dict(conn.execute("SELECT kind, count(*) FROM documents GROUP BY kind"))
    assert counts["comprehensive_rules"] == 117  # 115 releases and the two seed fragments
    files = dict(conn.execute("SELECT id, file FROM documents"))
    assert {doc_id: files.get(doc_id) for doc_id in OTHER_FORMS} == OTHER_FORMS
    superseded = dict(conn.execute(
        "SELECT id, superseded_by FROM documents WHERE superseded_by IS NOT NULL"))
    assert superseded == {"cr-2009-02-01-flattened": "cr-2009-02-01",
                          "cr-2025-06-06-chapter7": "cr-2025-06-06"}
    # archived releases are catalogued documents: no source bytes kept for a rebuild
    assert conn.execute("SELECT count(*) FROM document_sources").fetchone()[0] == 0


def test_the_release_cut_off_in_its_glossary_is_a_partial_edition(history_db):
    conn = query.connect(history_db)
    doc = query.document(conn, "cr-2013-02-01")
    assert doc["partial"] and "glossary cut off after" in doc["title"]
    assert doc["rule_count"] > 2000
    result = CliRunner().invoke(cli, ["docs", "--db", str(history_db)])
    line = next(line for line in result.output.splitlines() if line.startswith("cr-2013-02-01"))
    assert "glossary cut off" in line
