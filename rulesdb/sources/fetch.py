"""`rulesdb fetch`: download a Comprehensive Rules release from Wizards of the Coast and add it.

Release files live at MEDIA/YYYY/downloads/MagicCompRules%20YYYYMMDD.txt (the date of the
file's name; older ones elsewhere, see `release_urls`); the current one is linked from the
rules page. Wizards publishes each release in other forms too (.docx, .pdf; .doc and .rtf
once): the text is taken first, another form where there is no text (`FORMS`). Downloads
have a total time limit and a size cap, HTML is refused, and the file must read as a CR
before anything is written.
"""

from __future__ import annotations

import html
import re
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from urllib.parse import quote, unquote, urljoin

from ..errors import InputError, Problem
from ..ingest.cr_text import looks_like_html
from .add import Added, AddReport, Source, add_sources, file_date

MEDIA_URL = "https://media.wizards.com"
RULES_PAGE = "https://magic.wizards.com/en/rules"
TIMEOUT = 30.0
MAX_BYTES = 10 * 1024 * 1024
USER_AGENT = "rulesdb/0.1 (Comprehensive Rules download; python-urllib)"
# the forms a release is published in, in the order they are taken: text first, then the
# forms read exactly (Word's), then the PDF, whose paragraphs are rebuilt from its layout
FORMS = ("txt", "docx", "doc", "rtf", "pdf")
# a link to a release in any form, quoted (the rules page writes the space of
# "MagicCompRules 2025….txt" as it is) or bare
_FORM = "|".join(FORMS)
_LINK = re.compile(
    rf"""(?P<quote>["'])(?P<quoted>[^"'<>\n]*MagicCompRules[^"'<>\n]*?\.(?:{_FORM}))(?P=quote)"""
    rf"""|(?P<bare>[^"'\s<>]*MagicCompRules[^"'\s<>]*?\.(?:{_FORM}))(?=["'\s<>]|$)""",
    re.IGNORECASE)
# what may stand in a URL as it is; anything else (a space) is percent-encoded
_URL_SAFE = ":/?#[]@!$&'()*+,;=%~"


class ReleaseNotFound(Problem):
    """The server has no such release (HTTP 404/410); exits with code 1."""


@dataclass(frozen=True)
class Limits:
    """How long a download may take in all, and how many bytes it may have."""

    timeout: float = TIMEOUT
    max_bytes: int = MAX_BYTES


# Where Wizards has put release files, newest first, with the date (of the file name) from
# which each was in use: MagicCompRules_20160930.txt under /2016/docs/, MagicCompRules_2014…
# under /images/magic/tcg/resources/rules/ (as links to them in public code show).
_ADDRESSES = (
    (date(2017, 8, 1), "{year}/downloads/MagicCompRules%20{day}.txt"),
    (date(2017, 1, 1), "{year}/downloads/MagicCompRules_{day}.txt"),
    (date(2015, 1, 1), "{year}/docs/MagicCompRules_{day}.txt"),
    (date.min, "images/magic/tcg/resources/rules/MagicCompRules_{day}.txt"),
)


def release_url(day: date, media_url: str = MEDIA_URL) -> str:
    """The address of the release whose file name carries `day`, where files of that date
    were put."""
    return release_urls(day, media_url)[0]


def release_urls(day: date, media_url: str = MEDIA_URL,
                 forms: tuple[str, ...] = ("txt",)) -> list[str]:
    """Every address the release of `day` may have in each of `forms`, form by form: where
    files of its date were put first, then the other places Wizards has used, newest
    first."""
    base = media_url.rstrip("/")
    paths = [path.format(year=day.year, day=f"{day:%Y%m%d}") for _, path in _ADDRESSES]
    era = next(at for at, (since, _) in enumerate(_ADDRESSES) if day >= since)
    ordered = [paths[era], *paths[:era], *paths[era + 1:]]
    return [f"{base}/{path.removesuffix('.txt')}.{form}" for form in forms for path in ordered]


def web_address(url: str) -> str:
    """`url` as it can be requested: spaces and other characters a URL cannot hold
    percent-encoded, what is encoded already left as it is."""
    return quote(url.strip(), safe=_URL_SAFE)


def download(url: str, limits: Limits = Limits(), text_only: bool = True) -> bytes:
    """The body at `url`; InputError (ReleaseNotFound for 404) with one clear line otherwise."""
    url = web_address(url)
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    deadline = time.monotonic() + limits.timeout
    try:
        with urllib.request.urlopen(request, timeout=limits.timeout) as response:
            kind = response.headers.get("Content-Type", "")
            if text_only and "html" in kind.lower():
                raise InputError(f"{url}: the server sent a web page ({kind}), not a rules "
                                 "text file")
            length = response.headers.get("Content-Length")
            if length and length.isdigit() and int(length) > limits.max_bytes:
                raise InputError(f"{url}: {int(length)} bytes, more than the "
                                 f"{limits.max_bytes} allowed")
            data = _read(response, url, deadline, limits)
    except urllib.error.HTTPError as exc:
        error = ReleaseNotFound if exc.code in (404, 410) else InputError
        raise error(f"{url}: HTTP {exc.code} {exc.reason}") from None
    except urllib.error.URLError as exc:
        if isinstance(exc.reason, TimeoutError):
            raise InputError(f"{url}: no answer within {limits.timeout:g} s") from None
        raise InputError(f"{url}: cannot connect: {exc.reason}") from None
    except TimeoutError:
        raise InputError(f"{url}: no answer within {limits.timeout:g} s") from None
    if text_only and looks_like_html(data[:512].decode("utf-8", "replace").lstrip("\ufeff")):
        raise InputError(f"{url}: the server sent a web page, not a rules text file")
    return data


def _read(response, url: str, deadline: float, limits: Limits) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        if time.monotonic() > deadline:
            raise InputError(f"{url}: download not finished within {limits.timeout:g} s")
        chunk = response.read(64 * 1024)
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > limits.max_bytes:
            raise InputError(f"{url}: more than the {limits.max_bytes} bytes allowed")
        chunks.append(chunk)


def latest_url(rules_page: str = RULES_PAGE, limits: Limits = Limits()) -> str:
    """The address of the newest release linked from the rules page."""
    page = download(rules_page, limits, text_only=False).decode("utf-8", "replace")
    links = {web_address(urljoin(rules_page, html.unescape(match["quoted"] or match["bare"])))
             for match in _LINK.finditer(page)}
    # the newest release, in the first of its forms
    dated = sorted((file_date(unquote(link.rsplit("/", 1)[-1])) or "",
                    -FORMS.index(link.rsplit(".", 1)[-1].lower()), link) for link in links)
    if not dated:
        raise InputError(f"{rules_page}: no link to a MagicCompRules file (.txt, .docx, "
                         ".pdf) on the page")
    return dated[-1][2]


def fetch(db_path: Path, day: date | None = None, *, media_url: str = MEDIA_URL,
          rules_page: str = RULES_PAGE, limits: Limits = Limits(), replace: bool = False,
          doc_id: str | None = None, url: str | None = None, dry_run: bool = False,
          on_added: Callable[[Added], None] | None = None,
          overrides: Path | None = None,
          releases: Path | None = None) -> tuple[str, AddReport]:
    """Download the release at `url`, else that of `day`, else the latest, and add it
    (kept in the folder `releases` too, when one is given); (url, report)."""
    if day and not url:
        url, data = _download_release(day, media_url, limits)
    else:
        url = web_address(url or latest_url(rules_page, limits))
        data = download(url, limits)
    source = Source(unquote(url.rsplit("/", 1)[-1]), data, url)
    return url, add_sources(db_path, [source], replace=replace, doc_id=doc_id,
                            on_added=on_added, dry_run=dry_run, overrides=overrides,
                            releases=releases)


def _download_release(day: date, media_url: str, limits: Limits) -> tuple[str, bytes]:
    """(address, body) of the release of `day`, from the first of its addresses the server
    has, in the first of its forms; ReleaseNotFound naming them all when it has none."""
    missing: dict[tuple[str, str], list[str]] = {}  # (address less form, why) -> forms
    for url in release_urls(day, media_url, FORMS):
        try:
            return url, download(url, limits)
        except ReleaseNotFound as exc:
            stem, form = url.rsplit(".", 1)
            why = exc.message.removeprefix(f"{url}: ")
            missing.setdefault((stem, why), []).append(form)
    tried = "; ".join(f"{stem}.{'|'.join(forms)}: {why}" for (stem, why), forms in missing.items())
    raise ReleaseNotFound(f"no release file dated {day} at any address Wizards has used, in "
                          f"any form: {tried}")
