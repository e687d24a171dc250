"""The history: every surviving Comprehensive Rules release, shipped in `data/history/`.
The text releases come compressed in an archive, catalogued as an `[[archive]]` of
`data/sources/catalog.toml`; those that survive only in another form Wizards published
(.docx, .doc) come as they were published, each a `[[release]]` of the catalogue.

The archive's sha256 and its checksum list's are pinned in the catalogue; each member is
checked against the list, and a member missing from either side is an error. Members are
read straight from the archive, never unpacked to disk. A `[[release]]` file is checked
against the sha256 its entry pins.
"""

from __future__ import annotations

import hashlib
import io
import lzma
import tarfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from .catalog import parse_sums, verified_bytes
from .release import Source

__all__ = ["Archive", "Release", "load_archives", "load_releases", "parse_sums", "read_archive",
           "read_release"]


@dataclass(frozen=True)
class Archive:
    """One catalogued archive of releases (paths relative to the catalogue's folder)."""

    file: str
    sha256: str
    sums: str
    sums_sha256: str
    title: str = ""


@dataclass(frozen=True)
class Release:
    """One catalogued release file (its path relative to the catalogue's folder)."""

    file: str
    sha256: str


def _catalogue(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, tomllib.TOMLDecodeError):
        return {}  # load_catalog reports these


def load_archives(path: Path) -> list[Archive]:
    """The `[[archive]]` entries of a catalogue file; InputError when one is malformed."""
    archives = []
    for index, raw in enumerate(_catalogue(path).get("archive", []), start=1):
        missing = [key for key in ("file", "sha256", "sums", "sums_sha256") if not raw.get(key)]
        if missing:
            raise InputError(f"{path}: archive #{index} lacks {', '.join(missing)}")
        archives.append(Archive(raw["file"], raw["sha256"].lower(), raw["sums"],
                                raw["sums_sha256"].lower(), raw.get("title", "")))
    return archives


def load_releases(path: Path) -> list[Release]:
    """The `[[release]]` entries of a catalogue file; InputError when one is malformed."""
    releases = []
    for index, raw in enumerate(_catalogue(path).get("release", []), start=1):
        missing = [key for key in ("file", "sha256") if not raw.get(key)]
        if missing:
            raise InputError(f"{path}: release #{index} lacks {', '.join(missing)}")
        releases.append(Release(raw["file"], raw["sha256"].lower()))
    return releases


def read_release(release: Release, sources_dir: Path) -> Source:
    """The catalogued release file, checked against its sha256."""
    path = (sources_dir / release.file).resolve()
    return Source(path.name, verified_bytes(path, release.sha256, "release"), path.name)


def read_archive(archive: Archive, sources_dir: Path) -> list[Source]:
    """The releases of `archive`, by file name, each checked against the checksum list."""
    path = (sources_dir / archive.file).resolve()
    sums_path = (sources_dir / archive.sums).resolve()
    data = verified_bytes(path, archive.sha256, "archive")
    sums = parse_sums(verified_bytes(sums_path, archive.sums_sha256, "checksums")
                      .decode("utf-8"), sums_path)
    sources = []
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:xz") as tar:
            for member in tar:
                if not member.isfile():
                    continue
                name = Path(member.name).name
                expected = sums.pop(name, None)
                if expected is None:
                    raise InputError(f"{path}: {member.name}: not listed in {sums_path.name}")
                handle = tar.extractfile(member)
                assert handle is not None  # a regular file
                body = handle.read()
                digest = hashlib.sha256(body).hexdigest()
                if digest != expected:
                    raise InputError(f"{path}: {member.name}: sha256 mismatch ({sums_path.name} "
                                     f"{expected[:12]}…, member {digest[:12]}…)")
                sources.append(Source(name, body, f"{path.name}:{name}"))
    except (tarfile.TarError, lzma.LZMAError, EOFError) as exc:
        raise InputError(f"{path}: not a readable .tar.xz archive: {exc}") from None
    if sums:
        raise InputError(f"{path}: {len(sums)} file(s) listed in {sums_path.name} are missing "
                         f"from the archive, the first {min(sums)}")
    return sorted(sources, key=lambda source: source.name)

