"""The releases added to the default database, kept as files in the user's data folder
(`releases/ID/FILE`, rulesdb.places.user), so that a rebuild after an upgrade adds them again
even when the old database cannot be read. `add` and `fetch` keep a file once the database
holding it is in place; `remove` forgets it; `build` reads them back.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path

from ..errors import InputError
from .release import Source


def keep(folder: Path, doc_id: str, source: Source) -> None:
    """Keep `source` as the file of edition `doc_id` (in place of any earlier one)."""
    edition = folder / doc_id
    name = Path(source.name).name or doc_id
    try:
        edition.mkdir(parents=True, exist_ok=True)
        temp = edition / f".{name}.{os.getpid()}"
        temp.write_bytes(source.data)
        os.replace(temp, edition / name)
        for other in edition.iterdir():
            if other.name != name:
                _remove(other)
    except OSError as exc:
        raise InputError(f"{edition}: cannot keep the release added ({exc.strerror}); the "
                         "database holds it, but a rebuild may not") from None


def forget(folder: Path, doc_id: str) -> None:
    """Forget the file of edition `doc_id`, if one is kept."""
    _remove(folder / doc_id)


def kept(folder: Path | None) -> list[tuple[str, Source]]:
    """(id, source) of every release kept in `folder` (none when it is None or missing)."""
    if folder is None or not folder.is_dir():
        return []
    found = []
    for edition in sorted(folder.iterdir()):
        files = sorted(p for p in edition.iterdir() if not p.name.startswith(".")) \
            if edition.is_dir() else []
        if files:
            found.append((edition.name, Source(files[0].name, files[0].read_bytes(),
                                               files[0].name)))
    return found


def _remove(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink()


def kept_ids(folder: Path) -> list[str]:
    """The ids of the editions kept in `folder`, without reading their files."""
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if p.is_dir() and any(p.iterdir()))
