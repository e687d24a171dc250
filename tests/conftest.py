"""Shared test fixtures: bundled sources, the optional real-CR corpus, a built database."""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import tempfile
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "data" / "sources"
CORPUS = ROOT.parent / "shared" / "corpus" / "cr"
OVERRIDES = ROOT / "data" / "alignment-overrides.txt"

SOURCE_FILES = {
    "cr-2009-02-01-flattened": SOURCES / "cr-2009-02-01-flattened.txt",
    "cr-2025-06-06-chapter7": SOURCES / "cr-2025-06-06-chapter7.txt",
    "rulings-1999-04": SOURCES / "rulings-summary-1999-04.txt",
    "rulebook-2005": SOURCES / "rulebook-ninth-edition-2005.txt",
    "rulebook-1995": SOURCES / "rulebook-fourth-edition-1995-section2.txt",
}


def script(name: str, folder: str = "benchmarks") -> ModuleType:
    """A script of the project (benchmarks/NAME.py, or docs/) loaded as a module, registered
    under its name (its dataclasses look their module up)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / folder / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


# No test reads or writes the real user data folder (the default database, the releases a user
# added, their alignments): the whole session, and every process it starts, gets a folder of
# its own, through the variable rulesdb reads (RULESDB_HOME) and the platform's (XDG_DATA_HOME).
USER_HOME = Path(tempfile.mkdtemp(prefix="rulesdb-tests-home-"))
os.environ["RULESDB_HOME"] = str(USER_HOME / "rulesdb")
os.environ["XDG_DATA_HOME"] = str(USER_HOME / "xdg")
for _name in ("RULESDB_DB", "RULESDB_OVERRIDES"):
    os.environ.pop(_name, None)


def copy_sources(tmp_path: Path) -> Path:
    """A copy of data/sources in `tmp_path`, with the judges' documents beside it where the
    catalogue finds them (../policy); the copied sources folder."""
    target = tmp_path / "sources"
    shutil.copytree(SOURCES, target)
    shutil.copytree(SOURCES.parent / "policy", tmp_path / "policy")
    return target


def corpus_files() -> list[Path]:
    """The real CR releases of ../shared/corpus/cr, or [] when the folder is absent."""
    return sorted(CORPUS.glob("*.txt")) if CORPUS.is_dir() else []


needs_corpus = pytest.mark.skipif(not corpus_files(), reason="../shared/corpus/cr is absent")


@pytest.fixture(scope="session")
def bundled_db(tmp_path_factory) -> Path:
    """A database built once per session from the bundled sources; tests only read it
    (a test that writes copies it first)."""
    from rulesdb.sources.build import build

    path = tmp_path_factory.mktemp("bundled") / "rules.db"
    build(path, SOURCES, seeds_only=True, overrides=OVERRIDES)
    return path


@pytest.fixture(scope="session")
def history_db(tmp_path_factory) -> Path:
    """The default database, bundled documents and the whole history (115 releases) with the
    alignments set by hand that the project ships, built once per session; tests only read it
    (a test that writes copies it first)."""
    from rulesdb.sources.build import build

    path = tmp_path_factory.mktemp("history") / "rules.db"
    build(path, SOURCES, overrides=OVERRIDES)
    return path


# the releases of the shipped history beside the seeds in `small_db` (docs/README.md names them)
SMALL_RELEASES = ["MagicCompRules-2025-11-14.txt", "MagicCompRules-2026-01-16.txt"]


@pytest.fixture(scope="session")
def small_db(tmp_path_factory, archived) -> Path:
    """The seeds and the two newest releases of the history, added with `rulesdb add`: a
    database with current rules that builds in seconds (the docs' examples run on it);
    tests only read it."""
    from click.testing import CliRunner

    from rulesdb.cli import cli
    from rulesdb.sources.build import build

    folder = tmp_path_factory.mktemp("small")
    path = folder / "rules.db"
    build(path, SOURCES, seeds_only=True, overrides=OVERRIDES)
    files = []
    for name in SMALL_RELEASES:
        files.append(folder / name)
        files[-1].write_bytes(archived[name].data)
    result = CliRunner().invoke(cli, ["add", *map(str, files), "--db", str(path),
                                      "--overrides", str(OVERRIDES)])
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture(scope="session")
def source_bytes() -> dict[str, bytes]:
    """The bytes of each bundled source, by document id."""
    return {doc_id: path.read_bytes() for doc_id, path in SOURCE_FILES.items()}


@pytest.fixture(scope="session")
def archived() -> dict:
    """The releases of the shipped history archive by file name (read and checked once)."""
    from rulesdb.sources.history import load_archives, read_archive

    (archive,) = load_archives(SOURCES / "catalog.toml")
    return {source.name: source for source in read_archive(archive, SOURCES)}


def pytest_sessionfinish(session, exitstatus) -> None:
    """The session's user data folder goes with it."""
    import shutil

    shutil.rmtree(USER_HOME, ignore_errors=True)
