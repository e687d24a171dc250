"""The rules site's setup: its metadata, the database it opens and `rulesdb serve`."""

from __future__ import annotations

import shutil

import pytest
import yaml
from click.testing import CliRunner

from rulesdb.cli import cli
from rulesdb.db.schema import TABLES
from rulesdb.site.serve import METADATA, ensure_database, load_metadata, make_datasette
from rulesdb.sources.catalog import load_catalog

from conftest import ROOT, SOURCES
from test_site import get


def test_metadata_describes_every_table_and_column():
    tables = load_metadata()["databases"]["rules"]["tables"]
    for name, spec in TABLES.items():
        assert tables.get(name, {}).get("description"), name
        assert set(tables[name]["columns"]) == set(spec["columns"]), name


def test_metadata_names_each_documents_license_and_source():
    text = " ".join(load_metadata()["databases"]["rules"]["description_html"].split())
    for entry in load_catalog(SOURCES / "catalog.toml"):
        assert f"<b>{entry.id}</b>" in text
        assert " ".join(entry.source.split()) in text, entry.id
        assert " ".join(entry.license.split()) in text, entry.id


def test_packaged_metadata_is_the_project_metadata():
    assert METADATA.read_text() == (ROOT / "metadata.yml").read_text()
    assert yaml.safe_load(METADATA.read_text())["plugins"]["rulesdb"]["site"] is True


def test_serve_builds_the_database_only_when_missing(tmp_path):
    path = tmp_path / "fresh.db"
    assert ensure_database(path, SOURCES) is True
    assert path.is_file()
    assert ensure_database(path, SOURCES) is False
    assert make_datasette(path).get_database().name == "rules"


def test_serve_rejects_a_bad_port():
    result = CliRunner().invoke(cli, ["serve", "--port", "70000"])
    assert result.exit_code == 2


@pytest.mark.parametrize("folder", ["a#b", "q?x", "100%"])
def test_a_database_in_a_folder_named_with_uri_characters_is_read_and_served(
        bundled_db, tmp_path, folder):
    # SQLite reads a read-only path as a file: URI, where "#", "?" and "%" mean something
    path = tmp_path / folder / "rules.db"
    path.parent.mkdir()
    shutil.copy(bundled_db, path)
    result = CliRunner().invoke(cli, ["rule", "702.19", "--db", str(path), "--json"])
    assert result.exit_code == 0, result.output
    page = get(make_datasette(path), "/cr-2025-06-06-chapter7/702.19")
    assert page.status_code == 200 and "Trample" in page.text
