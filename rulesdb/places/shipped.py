"""The corpus rulesdb ships: the repository's data/ folder, installed as the package
`rulesdb.data` (the catalogue and seeds in `sources/`, the history archive and the releases in
other forms in `history/`, the search vocabulary and stop words, the alignments set by hand
that the project ships; whatever is added under it later ships too).

It is found through importlib.resources and read in place, never written: pip installs a
wheel as files, so the package's folder is a real folder (a zipped install is refused with a
one-line error). `digest` names the corpus's content cheaply enough for every command to
compare it with the one a database was built from: it finds the same folder by the
package's own path (importlib.resources imports zipfile, tempfile and shutil, a tenth of a
lookup's time; tests/test_user_data.py checks that the two agree).
"""

from __future__ import annotations

import os
import sys
import zlib

from ..errors import InputError

TYPE_CHECKING = False  # typing.TYPE_CHECKING: a lookup does not import typing
if TYPE_CHECKING:
    from pathlib import Path

PACKAGE = "rulesdb.data"
OVERRIDES = "alignment-overrides.txt"
# files at most this long are hashed whole; longer ones (the seeds, the archive, the releases)
# are pinned by the sha256 the catalogue (hashed whole) gives each of them, and count here by
# their name and size
SMALL = 64 * 1024
_SKIPPED = {"__init__.py", "__pycache__"}


def root() -> Path:
    """The folder of the shipped corpus."""
    from importlib.resources import files
    from pathlib import Path

    found = files(PACKAGE)
    if not isinstance(found, Path):
        raise InputError(f"{PACKAGE}: the corpus rulesdb ships is not a folder on disk "
                         f"({found}); install rulesdb as files (pip install, pipx install)")
    return found


def located() -> str:
    """The folder of the shipped corpus found by the package's own path, as `root` finds it
    through importlib.resources but without importing it; a string (every command digests
    it, and a lookup does without pathlib; importlib's package would bring warnings)."""
    __import__(PACKAGE)
    return sys.modules[PACKAGE].__path__[0]


def sources() -> Path:
    """The folder of the catalogue (catalog.toml) and the seeds."""
    return root() / "sources"


def overrides() -> Path:
    """The alignments set by hand that the project ships (read-only)."""
    return root() / OVERRIDES


def is_shipped(sources_dir: Path) -> bool:
    """Whether `sources_dir` is the shipped corpus's sources folder."""
    try:
        return sources_dir.resolve() == sources().resolve()
    except InputError:
        return False


def digest(folder: Path | str | None = None) -> str:
    """A digest of the corpus in `folder` (default: the shipped one): every file's name and
    size, and the content of each file of at most SMALL bytes (the catalogue among them).
    A millisecond's work: nothing long is read. It tells a changed corpus, not a forged one,
    so zlib's CRC-32 and Adler-32 (64 bits together) serve, without importing hashlib."""
    folder = folder or located()
    crc, adler = 0, 1
    for name, path, size in sorted(_files(folder)):
        for data in (f"{name}\0{size}\0".encode(), _content(path) if size <= SMALL else b""):
            crc, adler = zlib.crc32(data, crc), zlib.adler32(data, adler)
    return f"{crc:08x}{adler:08x}"


def _content(path: str) -> bytes:
    with open(path, "rb") as stream:
        return stream.read()


def _files(folder: Path | str, prefix: str = "") -> list[tuple[str, str, int]]:
    """(name relative to `folder`, path, size) of every file under it, the package's own
    __init__.py and bytecode left out, and databases a checkout may keep there."""
    found = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.name in _SKIPPED or entry.name.startswith("."):
                continue
            name = prefix + entry.name
            if entry.is_dir():
                found.extend(_files(entry.path, name + "/"))
            elif entry.is_file() and not _is_database(entry.name):
                found.append((name, entry.path, entry.stat().st_size))
    return found


def _is_database(name: str) -> bool:
    return name.endswith((".db", ".db-journal", ".db-wal", ".db-shm")) or ".db." in name
