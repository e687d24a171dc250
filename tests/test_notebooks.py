"""The analysis notebooks: committed without outputs, executed top to bottom against a freshly
built database (and a corpus database when ../shared/corpus is present), every figure captioned.

Executed copies and their figures go to build/notebooks/<database>/ (not committed).
"""

from __future__ import annotations

import base64
import shutil
import sqlite3
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from rulesdb.sources.build import build

from conftest import ROOT, SOURCES, corpus_files, needs_corpus

NOTEBOOKS = ROOT / "notebooks"
OUTPUT = ROOT / "build" / "notebooks"
# figures each notebook draws when every layer has data (one coverage heatmap per engine)
FIGURES = {"rules_evolution": 6, "diff_explorer": 3, "engine_coverage": 2}
LAYER_TABLES = ("keywords", "alignments", "concept_links", "engine_citations", "engines")


def notebook_path(name: str) -> Path:
    return NOTEBOOKS / f"{name}.ipynb"


@pytest.fixture(scope="module")
def corpus_db(tmp_path_factory) -> Path:
    from rulesdb.sources.add import add_files

    path = tmp_path_factory.mktemp("corpus") / "rules.db"
    build(path, SOURCES, seeds_only=True)
    add_files(path, corpus_files())
    return path


@pytest.fixture(scope="module")
def empty_layers_db(bundled_db, tmp_path_factory) -> Path:
    """The bundled database with the keyword, lineage and enforcement tables emptied."""
    path = tmp_path_factory.mktemp("empty") / "rules.db"
    shutil.copy(bundled_db, path)
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA foreign_keys = OFF")
        for table in LAYER_TABLES:
            conn.execute(f"DELETE FROM [{table}]")
    return path


def execute(name: str, db_path: Path, label: str, monkeypatch) -> tuple[nbformat.NotebookNode,
                                                                         int]:
    """Run the notebook against `db_path`; save the executed copy and its figures."""
    monkeypatch.setenv("RULESDB_DB", str(db_path))
    nb = nbformat.read(notebook_path(name), as_version=4)
    NotebookClient(nb, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    folder = OUTPUT / label
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, folder / f"{name}.ipynb")
    figures = 0
    for index, cell in enumerate(nb.cells):
        for output in cell.get("outputs", []):
            png = output.get("data", {}).get("image/png")
            if png:
                figures += 1
                (folder / f"{name}-cell{index:02d}-{figures}.png").write_bytes(
                    base64.b64decode(png))
    return nb, figures


def produces_figure(cell: nbformat.NotebookNode) -> bool:
    return any("image/png" in output.get("data", {}) for output in cell.get("outputs", []))


def is_caption(cell: nbformat.NotebookNode | None) -> bool:
    """A markdown cell holding one sentence that starts with **Figure N.**"""
    if cell is None or cell.cell_type != "markdown":
        return False
    text = cell.source.strip()
    body = text.split("**", 2)[-1].strip()
    return (text.startswith("**Figure ") and "\n\n" not in text and body.endswith(".")
            and ". " not in body.rstrip(".").replace("e.g. ", ""))


def uncaptioned(nb: nbformat.NotebookNode) -> list[int]:
    """Indexes of the code cells drawing a figure with no caption right before or after."""
    cells = nb.cells
    return [i for i, cell in enumerate(cells) if cell.cell_type == "code"
            and produces_figure(cell)
            and not (is_caption(cells[i - 1] if i else None)
                     or is_caption(cells[i + 1] if i + 1 < len(cells) else None))]


def stdout(nb: nbformat.NotebookNode) -> str:
    return "".join(output.get("text", "") for cell in nb.cells
                   for output in cell.get("outputs", []) if output.get("output_type") == "stream")


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_notebook_is_committed_without_outputs(name):
    nb = nbformat.read(notebook_path(name), as_version=4)
    nbformat.validate(nb)
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    assert code
    assert [(cell.outputs, cell.execution_count) for cell in code] == [([], None)] * len(code)


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_notebook_runs_on_the_bundled_database(name, bundled_db, monkeypatch):
    nb, figures = execute(name, bundled_db, "bundled", monkeypatch)
    assert figures == FIGURES[name]
    assert uncaptioned(nb) == []
    assert "is empty in this database" not in stdout(nb)


@needs_corpus
@pytest.mark.parametrize("name", sorted(FIGURES))
def test_notebook_runs_on_a_corpus_database(name, corpus_db, monkeypatch):
    nb, figures = execute(name, corpus_db, "corpus", monkeypatch)
    assert figures == FIGURES[name]
    assert uncaptioned(nb) == []
    assert f"{len(corpus_files()) + 8} documents" in stdout(nb)  # and the eight bundled


@pytest.mark.parametrize(("name", "tables"), [
    ("rules_evolution", ["keywords", "concept_links"]),
    ("diff_explorer", ["alignments"]),
    ("engine_coverage", ["engines"]),
])
def test_notebook_says_which_layer_tables_are_empty(name, tables, empty_layers_db,
                                                    monkeypatch):
    nb, _ = execute(name, empty_layers_db, "empty-layers", monkeypatch)
    for table in tables:
        assert f"The table `{table}` is empty in this database" in stdout(nb)
    assert uncaptioned(nb) == []


@pytest.mark.parametrize(("text", "expected"), [
    ("**Figure 1.** The size of each document in words.", True),
    ("**Figure 2.** Words per chapter, e.g. chapter 7.", True),
    ("**Figure 1.** Two sentences here. And a second one.", False),
    ("**Figure 1.** No full stop", False),
    ("The size of each document.", False),
    ("**Figure 1.** One paragraph.\n\nAnd another.", False),
])
def test_caption_rule(text, expected):
    assert is_caption(nbformat.v4.new_markdown_cell(text)) is expected
