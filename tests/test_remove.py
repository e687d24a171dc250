"""`rulesdb remove`: an added edition taken out leaves the rows of never having added it."""

from __future__ import annotations

import json
import shutil

import pytest
import sqlite_utils
from click.testing import CliRunner

from rulesdb.cli import cli
from rulesdb.sources.add import add_files
from rulesdb.sources.build import build

from conftest import SOURCES, corpus_files, needs_corpus
from test_layers_run import chapter7_release, layer_rows


@pytest.fixture(scope="module")
def bundled(tmp_path_factory):
    path = tmp_path_factory.mktemp("bundled") / "rules.db"
    build(path, SOURCES, seeds_only=True)
    return path


def _documents(path) -> list[tuple]:
    return sqlite_utils.Database(path).execute(
        "SELECT id, title FROM documents ORDER BY id").fetchall()


def _remove(path, *ids: str, json_output: bool = False):
    return CliRunner().invoke(cli, ["remove", *ids, "--db", str(path),
                                    *(["--json"] if json_output else [])])


# 2020-01-10 sits between two added editions (its neighbours are aligned with each other
# once it goes); 2024-06-01 is the glossary the bundled chapter 7 of 2025-06-06 is linked to
# (the nearest in date), which is linked to 2020-01-10's once it goes
@pytest.mark.parametrize("gone", ["cr-2020-01-10", "cr-2024-06-01"])
def test_removing_an_edition_gives_the_rows_of_never_adding_it(bundled, tmp_path, gone):
    releases = {}
    for name, date in [("a.txt", "January 10, 2020"), ("b.txt", "March 1, 2010"),
                       ("c.txt", "June 1, 2024")]:
        releases[name] = tmp_path / name
        releases[name].write_bytes(chapter7_release(date))
    every, without = tmp_path / "every.db", tmp_path / "without.db"
    shutil.copyfile(bundled, every)
    shutil.copyfile(bundled, without)
    ids = [added.id for added in add_files(every, list(releases.values())).added]
    add_files(without, [path for path, doc_id in zip(releases.values(), ids, strict=True)
                        if doc_id != gone])
    result = _remove(every, gone, json_output=True)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["removed"] == [gone]
    assert _documents(every) == _documents(without)
    assert layer_rows(every) == layer_rows(without)
    fts = "SELECT count(*) FROM rules_fts"
    assert sqlite_utils.Database(every).execute(fts).fetchone() == \
        sqlite_utils.Database(without).execute(fts).fetchone()
    # the rules' index lost the titles and texts only the removed edition printed
    heads = sqlite_utils.Database(every)
    heads.execute("INSERT INTO rule_heads_fts (rule_heads_fts) VALUES ('integrity-check')")
    assert heads.execute("SELECT count(*) FROM rule_heads").fetchone() == heads.execute(
        "SELECT count(*) FROM (SELECT DISTINCT title, text_id FROM rule_rows)").fetchone()


@pytest.mark.parametrize(("ids", "code", "message"), [
    (["cr-2099-01-01"], 1, "Error: cr-2099-01-01: not in {db}"),
    (["cr-2009-02-01-flattened"], 2,
     "Error: cr-2009-02-01-flattened: bundled with rulesdb (data/sources or its history "
     "archive), not added: `rulesdb build` brings it back, so it is not removed"),
])
def test_what_cannot_be_removed_is_one_line_and_nothing_changes(bundled, tmp_path, ids, code,
                                                                message):
    path = tmp_path / "rules.db"
    shutil.copyfile(bundled, path)
    before = path.read_bytes()
    result = _remove(path, *ids)
    assert result.exit_code == code
    assert result.output.strip() == message.format(db=path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rules.db"]


@needs_corpus
def test_removing_a_real_release_gives_the_rows_of_never_adding_it(bundled, tmp_path):
    first, second, third = corpus_files()[-3:]
    every, without = tmp_path / "every.db", tmp_path / "without.db"
    shutil.copyfile(bundled, every)
    shutil.copyfile(bundled, without)
    added = add_files(every, [first, second, third]).added
    add_files(without, [first, third])
    assert _remove(every, added[1].id).exit_code == 0
    assert layer_rows(every) == layer_rows(without)
