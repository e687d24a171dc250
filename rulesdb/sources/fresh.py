"""A database ready to answer: the default one built on first use, and any database built
from the corpus rulesdb ships built again once rulesdb or that corpus changed (an upgrade),
with what the user added (releases added with `add` and `fetch`, alignments set by hand).

`why_build` is what every command asks first, so it reads only the database's stamp
(rulesdb.db.stamp) and the small files of the corpus (rulesdb.places.shipped.digest).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable

from .. import __version__
from ..db.readonly import read_only
from ..db.stamp import read as read_stamp
from ..places import shipped

TYPE_CHECKING = False  # typing.TYPE_CHECKING: a lookup does not import typing
if TYPE_CHECKING:
    from pathlib import Path

    from .build import BuildReport


def why_build(db_path: Path, default: bool,
              conn: sqlite3.Connection | None = None) -> str | None:
    """Why the database at `db_path` must be built before it answers (one line), or None;
    `conn`, a connection to it the command opened already, reads its stamp.

    A missing database is built when it is the `default` one (another is an error for the
    command to report); a database that cannot be read is left for the command to report.
    """
    if not os.path.isfile(db_path):
        return ("no database yet: building it from the corpus rulesdb ships (once; about a "
                "minute)") if default else None
    try:
        if conn is not None:
            stamp = read_stamp(conn)
        else:
            conn = read_only(db_path)
            try:
                stamp = read_stamp(conn)
            finally:
                conn.close()
    except sqlite3.DatabaseError:
        return None
    if stamp is None:
        return (f"made by an older rulesdb: building it again with rulesdb {__version__} "
                f"{KEPT}") if default else None
    if not stamp.shipped:
        return None
    if stamp.version != __version__:
        return (f"built by rulesdb {stamp.version}, and this is rulesdb {__version__}: "
                f"building it again {KEPT}")
    if stamp.digest != shipped.digest():
        return f"the corpus rulesdb ships changed since it was built: building it again {KEPT}"
    return None


KEPT = "(the releases you added and your alignments set by hand are kept)"
# a command waits this long for another's build of the database it needs (a build on a busy
# machine takes minutes; giving up earlier would only make the user run it again)
BUILD_WAIT = 3600.0


def rebuild(db_path: Path, overrides: Path, releases: Path | None, when: Callable[[], bool],
            on_step: Callable[[str, int], None] | None = None) -> BuildReport | None:
    """Build the database at `db_path` from the corpus rulesdb ships, with the user's
    overrides file and the releases kept in `releases`, if `when` (asked once the write lock
    is held: another command may have built it meanwhile) says so; None when it did not."""
    from .build import build

    return build(db_path, shipped.sources(), on_step=on_step, overrides=overrides,
                 releases=releases, when=when, lock_wait=BUILD_WAIT)
