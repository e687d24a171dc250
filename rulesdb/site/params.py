"""The query parameters of the rules pages, read so that a visitor's mistake is a 400 with a
sentence saying what is wrong (Datasette's error page, or a JSON error for a .json URL),
never a server error nor a silent guess."""

from __future__ import annotations

import re
from typing import Any

from datasette.utils.asgi import BadRequest

DOC_ID = r"[a-z]+(?:-[a-z]+)*-\d{4}(?:-\d{2}){0,2}(?:-[a-z][a-z0-9]*)?"
MAX_PAGE = 1_000_000  # no listing of the site has this many pages


def page(request: Any) -> int:
    """`?page=N`: a whole number from 1 (1 when absent)."""
    value = request.args.get("page")
    if value is None or value == "":
        return 1
    if not re.fullmatch(r"\d{1,7}", value) or not 1 <= int(value) <= MAX_PAGE:
        raise BadRequest(f"page must be a whole number from 1 to {MAX_PAGE:,}")
    return int(value)


def document(request: Any, name: str) -> str | None:
    """`?{name}=ID`: a document id as the site writes them (cr-2025-06-06), or None."""
    value = request.args.get(name)
    if value is None or value == "":
        return None
    if not re.fullmatch(DOC_ID, value):
        raise BadRequest(f"{name} must be a document id such as cr-2025-06-06")
    return value


def choice(request: Any, name: str, allowed: tuple[str, ...]) -> str | None:
    """`?{name}=` one of `allowed`, or None."""
    value = request.args.get(name)
    if value is None or value == "":
        return None
    if value not in allowed:
        raise BadRequest(f"{name} must be one of: {', '.join(allowed)}")
    return value


def text(request: Any, name: str, limit: int | None = None) -> str:
    """`?{name}=` as text (of at most `limit` characters when given), without control
    characters. (The search reads the first 1,000 characters of a longer query and says
    so: rulesdb.lookup.search.)"""
    value = (request.args.get(name) or "").strip()
    if limit is not None and len(value) > limit:
        raise BadRequest(f"{name} is longer than {limit:,} characters")
    if re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", value):
        raise BadRequest(f"{name} holds control characters")
    return value
