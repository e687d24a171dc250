"""The user's data folder: the default database and what the user adds to it.

`platformdirs` names it (`~/.local/share/rulesdb` on Linux, `~/Library/Application
Support/rulesdb` on macOS, `%LOCALAPPDATA%\\rulesdb` on Windows); the environment variable
RULESDB_HOME moves it. It holds:

- `rules.db`, the database every command reads unless `--db` or RULESDB_DB names another;
- `releases/ID/FILE`, each release added to it with `rulesdb add` or `fetch` as it was given,
  so that a rebuild (after an upgrade) adds it again;
- `alignment-overrides.txt`, the alignments the user set by hand (`rulesdb align`), applied
  on top of those rulesdb ships.

Nothing is written beside the code or into the working folder.
"""

from __future__ import annotations

import os
import posixpath
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING: a lookup does not import typing
if TYPE_CHECKING:
    from pathlib import Path

ENV = "RULESDB_HOME"
DATABASE = "rules.db"
OVERRIDES = "alignment-overrides.txt"
RELEASES = "releases"
APP = "rulesdb"


def folder() -> Path:
    """The user's data folder ($RULESDB_HOME, else the platform's user data folder)."""
    from pathlib import Path

    return Path(folder_name())


def folder_name() -> str:
    """`folder`, as a string: a lookup reads the default database without pathlib."""
    if os.environ.get(ENV):
        return os.environ[ENV]
    found = _xdg_data_folder()
    if found is not None:
        return found
    from platformdirs import user_data_dir

    return user_data_dir(APP, appauthor=False)


def _xdg_data_folder() -> str | None:
    """The user data folder on Linux, as platformdirs reads the XDG Base Directory
    specification there ($XDG_DATA_HOME when absolute, else ~/.local/share); None where
    platformdirs alone answers (another system, Android, a HOME that is not absolute).
    Importing platformdirs takes 15-18 ms of a 30 ms lookup (tempfile, shutil, the
    compression modules); tests/test_user_data.py holds the two together."""
    if sys.platform != "linux" or os.environ.get("ANDROID_DATA") == "/data":
        return None
    data_home = os.environ.get("XDG_DATA_HOME", "")
    if posixpath.isabs(data_home):
        return os.path.join(data_home, APP)
    home = os.environ.get("HOME", "")
    if not posixpath.isabs(home):
        return None
    return os.path.join(home.rstrip("/") + "/.local/share", APP)


def database() -> Path:
    """The default database."""
    return folder() / DATABASE


def database_name() -> str:
    """`database`, as a string (for a lookup: see `folder_name`)."""
    return os.path.join(folder_name(), DATABASE)


def overrides() -> Path:
    """The user's alignments set by hand."""
    return folder() / OVERRIDES


def releases() -> Path:
    """The folder of the releases added to the default database."""
    return folder() / RELEASES
