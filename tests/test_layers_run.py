"""The layers run with the terms layer in a worker process, and run by `add` over the new
editions only: both leave exactly the rows of running every layer here over everything."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import sqlite_utils

from rulesdb.layers import LAYERS
from rulesdb.layers.run import run_layers
from rulesdb.sources.add import add_files
from rulesdb.sources.build import build

from conftest import SOURCES, corpus_files, needs_corpus
from test_add import release

LAYER_TABLES = ("alignments", "lineages", "concept_links", "term_mentions")
# what the layers write (term_mentions is a view over the last three)
WRITTEN = ("alignments", "lineages", "concept_links", "term_uses", "term_spans", "term_links")
CHAPTER7 = SOURCES / "cr-2025-06-06-chapter7.txt"


def chapter7_release(date: str) -> bytes:
    """A whole synthetic release holding the real chapter 7 of 2025-06-06, printed as `date`."""
    text = release(date=date)
    start, end = text.index("702. Keyword Abilities"), text.index("\nGlossary\n\nActive")
    return (text[:start] + CHAPTER7.read_text(encoding="utf-8") + text[end:]).encode("utf-8")


def layer_rows(db_path: Path, tables: tuple[str, ...] = LAYER_TABLES) -> dict[str, Counter]:
    """The rows of the layer tables, row ids replaced by what they name (document and
    position), so that databases whose rows were written in another order compare equal."""
    db = sqlite_utils.Database(db_path)
    names = {
        "rule": {i: (d, p) for i, d, p in db.execute("SELECT id, document, position FROM rules")},
        "glossary": {i: (d, p) for i, d, p in db.execute(
            "SELECT id, document, position FROM glossary")},
        "example": {i: (d, n, p, label) for i, d, n, p, label in db.execute(
            "SELECT id, document, number, position, label FROM examples")},
    }
    found = {}
    for table in tables:
        columns = [c.name for c in db[table].columns if c.name != "id"]
        rows = Counter()
        for row in db.execute(f"SELECT {', '.join(f'[{c}]' for c in columns)} FROM [{table}]"):
            rows[tuple(
                names[kind].get(value, value) if (kind := _id_kind(column)) else value
                for column, value in zip(columns, row, strict=True))] += 1
        found[table] = rows
    return found


def _id_kind(column: str) -> str | None:
    for kind in ("rule", "glossary", "example"):
        if column.endswith(f"{kind}_id"):
            return kind
    return None


def all_rows(db_path: Path) -> dict[str, list]:
    """Every row the layers wrote, ids included, in row order."""
    db = sqlite_utils.Database(db_path)
    return {table: db.execute(f"SELECT * FROM [{table}] ORDER BY rowid").fetchall()
            for table in WRITTEN}


@pytest.fixture(scope="module")
def bundled(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("bundled") / "rules.db"
    build(path, SOURCES, seeds_only=True)
    return path


def test_an_error_in_a_layer_stops_the_worker_and_surfaces(bundled, tmp_path):
    path = tmp_path / "rules.db"
    shutil.copyfile(bundled, path)

    def broken(db, doc_ids):
        raise RuntimeError("layer failed")

    layers = {**LAYERS, "lineage": broken}
    db = sqlite_utils.Database(path)
    with pytest.raises(RuntimeError, match="layer failed"):
        run_layers(db, ["cr-2009-02-01-flattened", "cr-2025-06-06-chapter7"], layers=layers)


def test_mentions_spooled_to_a_file_are_stored_as_the_found_ones(bundled, tmp_path):
    """The worker hands its rows over in a file (term_rows.spool); `finish` stores them exactly
    as it stores the rows themselves, ids and order included."""
    from rulesdb.layers import term_rows, terms

    ids = ["cr-2009-02-01-flattened", "cr-2025-06-06-chapter7", "rulings-1999-04"]
    found = terms.find_all(terms.prepare(sqlite_utils.Database(bundled), ids))
    found["empty-doc"] = ("cr-2009-02-01-flattened", [])  # a document with no mention at all
    stored = {}
    for way in ("rows", "spooled"):
        path = tmp_path / f"{way}.db"
        shutil.copyfile(bundled, path)
        db = sqlite_utils.Database(path)
        given = found if way == "rows" else term_rows.spool(found, str(tmp_path))
        summary = term_rows.finish(db, ids, given)
        db.conn.commit()
        stored[way] = (summary, db.execute("SELECT * FROM term_mentions ORDER BY id").fetchall())
        assert db.execute("PRAGMA database_list").fetchall()[-1][1] == "main"  # detached
    assert stored["spooled"] == stored["rows"]
    assert len(stored["rows"][1]) > 10_000


def test_only_the_mention_sets_the_database_lacks_are_handed_over(bundled, tmp_path):
    """Found again, a stored document's mentions are all sets the database holds: the worker
    hands over its uses and no span, and storing them changes no mention."""
    import sqlite3

    from rulesdb.layers import term_rows, terms

    path = tmp_path / "again.db"
    shutil.copyfile(bundled, path)
    db = sqlite_utils.Database(path)
    ids = ["cr-2025-06-06-chapter7"]
    before = db.execute("SELECT * FROM term_mentions ORDER BY rule_id, example_id, start")
    before = [row[1:] for row in before.fetchall()]
    spooled = term_rows.spool(terms.find_all(terms.prepare(db, ids)), str(tmp_path))
    with sqlite3.connect(spooled.path) as conn:
        assert conn.execute("SELECT count(*) FROM spans").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM uses").fetchone()[0] > 100
    term_rows.finish(db, ids, spooled)
    db.conn.commit()
    after = db.execute("SELECT * FROM term_mentions ORDER BY rule_id, example_id, start")
    assert [row[1:] for row in after.fetchall()] == before


def test_mention_rows_are_made_as_read_and_read_as_often_as_asked(bundled):
    """A document's rows (term_rows.Rows) are made from what was found in each text as they are
    read: the same rows each time, as many as they say, equal to the list of them."""
    from rulesdb.layers import term_rows, terms

    found = terms.find_all(terms.prepare(sqlite_utils.Database(bundled),
                                         ["cr-2009-02-01-flattened"]))
    _, rows = found["cr-2009-02-01-flattened"]
    listed = list(rows)
    assert len(listed) == len(rows) > 10_000
    assert list(rows) == listed and rows == listed and listed == rows
    assert listed[0][0] == "cr-2009-02-01-flattened" and all(len(row) == len(term_rows.COLUMNS)
                                                   for row in listed)
    assert rows != listed[:-1]


def test_texts_tokenized_ahead_are_found_as_if_tokenized_then(bundled, monkeypatch):
    """What a worker is fed while documents are stored (terms.prime) leaves the mentions
    found as they are, and their texts are not tokenized again."""
    from rulesdb.layers import terms, token_cache

    ids = ["cr-2009-02-01-flattened", "cr-2025-06-06-chapter7"]
    jobs = terms.prepare(sqlite_utils.Database(bundled), ids)
    cold = terms.find_all(jobs)
    monkeypatch.setattr(terms, "_primed", [])
    terms.prime([text for job in jobs for _, _, text, _ in job.items])
    asked = []
    real = token_cache.tokenize
    monkeypatch.setattr(token_cache, "tokenize", lambda texts, lexicon: asked.extend(texts)
                        or real(texts, lexicon))
    assert terms.find_all(jobs) == cold
    assert asked == []


@needs_corpus
def test_the_texts_fed_ahead_are_the_texts_the_terms_layer_reads(bundled, tmp_path):
    from rulesdb.layers import terms
    from rulesdb.sources.add import parse_release, read_source

    file = corpus_files()[-1]
    path = tmp_path / "rules.db"
    shutil.copyfile(bundled, path)
    doc_id = add_files(path, [file]).added[0].id
    jobs = terms.prepare(sqlite_utils.Database(path), [doc_id])
    read = {text for job in jobs if job.doc_id == doc_id for _, _, text, _ in job.items}
    assert set(terms.texts_of([parse_release(read_source(file))])) == read


@pytest.mark.parametrize("with_terms", [True, False])
def test_work_needing_no_layer_runs_once_before_waiting_for_the_worker(bundled, tmp_path,
                                                                        with_terms):
    path = tmp_path / "rules.db"
    shutil.copyfile(bundled, path)
    layers = LAYERS if with_terms else {k: v for k, v in LAYERS.items() if k != "terms"}
    events = []
    run_layers(sqlite_utils.Database(path), ["cr-2025-06-06-chapter7"], events.append,
               layers=layers,
               meanwhile=lambda: events.append("meanwhile"))
    names = [name for name in layers if name != "terms"]
    expected = [*names, "meanwhile", "terms"] if with_terms else [*names, "meanwhile"]
    assert events == expected


def test_the_folder_for_shipped_files_is_removed(bundled, tmp_path, monkeypatch):
    import tempfile

    made = []
    real = tempfile.mkdtemp
    monkeypatch.setattr(tempfile, "mkdtemp", lambda **kw: made.append(real(**kw)) or made[-1])
    path = tmp_path / "rules.db"
    shutil.copyfile(bundled, path)
    run_layers(sqlite_utils.Database(path), ["cr-2025-06-06-chapter7"])
    assert made and not any(Path(folder).exists() for folder in made)


# --- the same rows whichever way the layers ran -------------------------------------------------


# Run in a fresh process: forking is refused while threads run, and other tests leave some.
RUN_LAYERS = """
import sys, sqlite_utils
from rulesdb.background import can_fork
from rulesdb.layers.run import run_layers
db = sqlite_utils.Database(sys.argv[1])
ids = [row[0] for row in db.execute("SELECT id FROM documents ORDER BY rowid")]
for table in sys.argv[2:]:  # nothing left over from the build to compare with by accident
    db.execute(f"DELETE FROM [{table}]")
times = run_layers(db, ids)
db.conn.commit()
print(can_fork(), "spacy" in sys.modules, list(times.summaries))
"""


@pytest.mark.parametrize("workers", ["1", "0"])
def test_layers_in_a_worker_write_exactly_what_running_them_here_does(
        bundled, tmp_path, workers):
    """The bundled build ran every layer here; running them again, the terms layer in a
    worker (or not), gives the same rows with the same ids."""
    path = tmp_path / "rules.db"
    shutil.copyfile(bundled, path)
    out = subprocess.run([sys.executable, "-c", RUN_LAYERS, str(path), *WRITTEN],
                         env={**os.environ, "RULESDB_WORKERS": workers}, check=True,
                         capture_output=True, text=True).stdout.split(maxsplit=2)
    forked, spacy_here, names = out[0] == "True", out[1] == "True", out[2].strip()
    assert names == repr(list(LAYERS))
    # spaCy is imported by whichever process found the terms
    assert spacy_here is not forked
    if workers == "0":
        assert not forked
    elif not forked:
        pytest.skip("no worker process can be forked on this machine")
    assert all_rows(path) == all_rows(bundled)


def test_adding_editions_one_by_one_gives_the_rows_of_building_them_at_once(bundled, tmp_path):
    """`add` aligns only the pairs the new edition touches and finds terms in it alone; a
    rebuild (which keeps added editions) computes every layer over everything at once."""
    path = tmp_path / "rules.db"
    shutil.copyfile(bundled, path)
    for name, date in [("a.txt", "January 10, 2020"), ("b.txt", "March 1, 2010")]:
        (tmp_path / name).write_bytes(chapter7_release(date))
        add_files(path, [tmp_path / name])
    added = layer_rows(path)
    pairs = {(row[0], row[1]) for row in added["alignments"]}
    assert pairs == {("cr-2009-02-01-flattened", "cr-2010-03-01"), ("cr-2010-03-01",
                                                                    "cr-2020-01-10"),
                     ("cr-2020-01-10", "cr-2025-06-06-chapter7"),
                     ("mtr-2025-11-10", "mtr-2026-02-27")}  # the bundled MTR editions
    assert {row[0] for row in added["term_mentions"]} >= {"cr-2010-03-01", "cr-2020-01-10"}
    build(path, SOURCES, seeds_only=True)
    assert layer_rows(path) == added


@needs_corpus
def test_adding_real_releases_one_by_one_or_at_once_gives_the_same_rows(bundled, tmp_path):
    files = corpus_files()[:3]
    one, once = tmp_path / "one.db", tmp_path / "once.db"
    shutil.copyfile(bundled, one)
    shutil.copyfile(bundled, once)
    for file in reversed(files):  # newest first: each later add lands between stored editions
        add_files(one, [file])
    add_files(once, files)
    assert layer_rows(one) == layer_rows(once)
