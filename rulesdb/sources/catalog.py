"""The source catalogue (data/sources/catalog.toml): what `rulesdb build` reads."""

from __future__ import annotations

import hashlib
import tomllib
from pathlib import Path

from ..db.store import CatalogEntry
from ..errors import InputError

REQUIRED = ("id", "kind", "title", "file", "sha256", "parser")




def load_catalog(path: Path) -> list[CatalogEntry]:
    """The entries of a catalogue file, in order; InputError when it is malformed."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: catalogue not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: invalid TOML: {exc}") from None
    entries = []
    seen: set[str] = set()
    for index, raw in enumerate(data.get("document", []), start=1):
        missing = [key for key in REQUIRED if not raw.get(key)]
        if missing:
            raise InputError(f"{path}: document #{index} lacks {', '.join(missing)}")
        if raw["id"] in seen:
            raise InputError(f"{path}: document id {raw['id']} appears twice")
        seen.add(raw["id"])
        entries.append(
            CatalogEntry(
                id=raw["id"], kind=raw["kind"], title=raw["title"], file=raw["file"],
                sha256=raw["sha256"].lower(), parser=raw["parser"],
                effective_date=raw.get("effective_date"), partial=bool(raw.get("partial")),
                covers=tuple(raw.get("covers", ())), source=raw.get("source"),
                license=raw.get("license"),
            )
        )
    if not entries:
        raise InputError(f"{path}: no [[document]] entries")
    return entries


SUMS = "SHA256SUMS"  # a catalogued folder's list of its files


def read_verified(entry: CatalogEntry, sources_dir: Path) -> bytes | dict[str, bytes]:
    """The bytes of the entry's file after checking its sha256; for a folder, the bytes of
    each file it lists by name, the list checked against the sha256 and each file against
    the list; InputError otherwise."""
    path = sources_dir / entry.file
    if not path.is_dir():
        return verified_bytes(path, entry.sha256, entry.id)
    listing = verified_bytes(path / SUMS, entry.sha256, f"{entry.id}: the list of its files")
    files = {}
    for name, digest in parse_sums(listing.decode("utf-8", "replace"), path / SUMS).items():
        files[name] = verified_bytes(path / name, digest, entry.id)
    unlisted = sorted(child.name for child in path.iterdir()
                      if child.name != SUMS and child.name not in files)
    if unlisted:
        raise InputError(f"{path}: {entry.id}: {', '.join(unlisted)} not listed in {SUMS}")
    return files


def parse_sums(text: str, path: Path) -> dict[str, str]:
    """File name → sha256 of a `sha256sum` listing; InputError naming a malformed line."""
    sums: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        digest, _, name = line.partition("  ")
        if len(digest) != 64 or not name:
            raise InputError(f"{path}: line {number}: expected 'SHA256  FILE', got {line!r}")
        sums[name.lstrip("*")] = digest.lower()
    return sums


def verified_bytes(path: Path, expected: str, what: str) -> bytes:
    """The bytes of `path` after checking that their sha256 is `expected`; InputError naming
    the file and `what` it is otherwise."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: {what}: cannot read: {exc.strerror}") from None
    digest = hashlib.sha256(data).hexdigest()
    if digest != expected:
        raise InputError(f"{path}: {what}: sha256 mismatch (catalogue {expected[:12]}…, "
                         f"file {digest[:12]}…)")
    return data
