"""What a database was built from, kept in it (table `build_info`): the rulesdb version, the
corpus (`rulesdb.data`, the one rulesdb ships, or the folder given to `build --sources`), the
corpus's digest (rulesdb.places.shipped.digest) and when. A command compares them with the
installed rulesdb's to tell a database that an upgrade left behind."""

from __future__ import annotations

import sqlite3
from collections import namedtuple

TYPE_CHECKING = False  # typing.TYPE_CHECKING: a lookup does not import typing
if TYPE_CHECKING:  # every command reads the stamp: sqlite-utils is not imported for that
    import sqlite_utils

SHIPPED = "rulesdb.data"  # the corpus rulesdb ships, wherever it is installed


# a named tuple (collections', not typing's, nor a dataclass): every command reads one
class Stamp(namedtuple("Stamp", "version corpus digest built", defaults=("",))):
    """The rulesdb version, corpus and corpus digest a database was built from, and when
    (`built`, an ISO time; "" until it is written): strings each."""

    __slots__ = ()

    @property
    def shipped(self) -> bool:
        """Whether it was built from the corpus rulesdb ships."""
        return self.corpus == SHIPPED


def write(db: sqlite_utils.Database, stamp: Stamp) -> None:
    """Record `stamp` (its time: now) in the database."""
    from datetime import UTC, datetime

    built = stamp.built or datetime.now(UTC).isoformat(timespec="seconds")
    db.execute("DELETE FROM build_info")
    db.conn.executemany("INSERT INTO build_info (key, value) VALUES (?, ?)", [
        ("version", stamp.version), ("corpus", stamp.corpus), ("corpus_digest", stamp.digest),
        ("built", built)])


def read(conn: sqlite3.Connection) -> Stamp | None:
    """The database's stamp; None for one built before stamps were kept."""
    try:
        found = dict(conn.execute("SELECT key, value FROM build_info").fetchall())
    except sqlite3.OperationalError:  # no such table
        return None
    if "version" not in found:
        return None
    return Stamp(found["version"], found.get("corpus", ""), found.get("corpus_digest", ""),
                 found.get("built", ""))
