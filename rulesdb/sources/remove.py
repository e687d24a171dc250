"""`rulesdb remove`: take added editions out of the database again, as if never added.

Only editions that `rulesdb add` or `fetch` put in can go (the catalogue's documents come
back at every build). Each one's rows go, layers and full-text index included; then the
layers mend what read it, as adding does for what it adds: the editions on either side are
aligned with each other and lineages recomputed from there, documents whose glossary it was
are linked to their nearest glossary again, the evaluator is checked against the edition it
cites or the newest, and a scanned engine checked against it is traced again from its source
tree. Like `add`, the work is done on a copy that replaces the database only at the end,
under the database's write lock.
"""

from __future__ import annotations

import shutil
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..db.batch import collector_paused, open_working_copy
from ..db.fts import count_stems
from ..db.readonly import read_only
from ..db.replacing import put_in_place, working_path, write_failures
from ..db.store import delete_document, mark_superseded
from ..db.writelock import writing
from ..errors import InputError
from ..layers import LAYERS
from ..layers.run import run_layers
from ..trace.run import scanned_engines
from .build import retrace
from .kept import forget
from .overrides import store_file


class NoSuchEdition(InputError):
    """An id the database does not hold; exits with code 1."""

    exit_code = 1


@dataclass
class RemoveReport:
    """What a remove did: the ids removed, the layer summaries, notes, the time taken."""

    removed: list[str] = field(default_factory=list)
    layers: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0


def remove_documents(db_path: Path, doc_ids: list[str],
                     releases: Path | None = None) -> RemoveReport:
    """Remove the added editions `doc_ids` from the database at `db_path`, all or none, and
    their files kept in the folder `releases` (rulesdb.sources.kept), when one is given."""
    started = time.perf_counter()
    if not db_path.is_file():
        raise InputError(f"{db_path}: no such database")
    with collector_paused(), writing(db_path), write_failures(db_path):
        report = _remove(db_path, list(dict.fromkeys(doc_ids)))
        if releases is not None:
            for doc_id in report.removed:
                forget(releases, doc_id)
    report.seconds = time.perf_counter() - started
    return report


def _remove(db_path: Path, doc_ids: list[str]) -> RemoveReport:
    _check(db_path, doc_ids)
    engines = [engine for engine in scanned_engines(db_path) if engine["edition"] in doc_ids]
    temp_path = working_path(db_path, "removing")
    try:
        shutil.copyfile(db_path, temp_path)
        db = open_working_copy(temp_path, db_path)
        try:
            for doc_id in doc_ids:
                delete_document(db, doc_id)
            count_stems(db)
            mark_superseded(db)
            store_file(db, None)  # their overrides are kept, no longer applied
            times = run_layers(db, [], layers=LAYERS)
            db.conn.commit()
            notes = retrace(db.conn, engines)
            db.conn.commit()
        finally:
            db.close()
        put_in_place(temp_path, db_path)
    finally:
        temp_path.unlink(missing_ok=True)
    return RemoveReport(doc_ids, times.summaries, notes)


def _check(db_path: Path, doc_ids: list[str]) -> None:
    """NoSuchEdition for an id the database lacks; InputError for a catalogued document."""
    try:
        conn = read_only(db_path)
        try:
            present = {row[0] for row in conn.execute("SELECT id FROM documents")}
            added = {row[0] for row in conn.execute("SELECT document FROM document_sources")}
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise InputError(f"{db_path}: not a rulesdb database ({exc})") from None
    missing = [doc_id for doc_id in doc_ids if doc_id not in present]
    if missing:
        raise NoSuchEdition(f"{', '.join(missing)}: not in {db_path}")
    bundled = [doc_id for doc_id in doc_ids if doc_id not in added]
    if bundled:
        raise InputError(f"{', '.join(bundled)}: bundled with rulesdb (data/sources or its "
                         "history archive), not "
                         "added: `rulesdb build` brings it back, so it is not removed")
