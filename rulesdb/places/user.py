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
from pathlib import Path

ENV = "RULESDB_HOME"
DATABASE = "rules.db"
OVERRIDES = "alignment-overrides.txt"
RELEASES = "releases"


def folder() -> Path:
    """The user's data folder ($RULESDB_HOME, else the platform's user data folder)."""
    if os.environ.get(ENV):
        return Path(os.environ[ENV])
    from platformdirs import user_data_path

    return user_data_path("rulesdb", appauthor=False)


def database() -> Path:
    """The default database."""
    return folder() / DATABASE


def overrides() -> Path:
    """The user's alignments set by hand."""
    return folder() / OVERRIDES


def releases() -> Path:
    """The folder of the releases added to the default database."""
    return folder() / RELEASES
