"""Text for the combat commands: rules cited with their first words and site links, a
played scenario step by step, a scenario in compact JSON."""

from __future__ import annotations

import json
import re
import sqlite3
from functools import cached_property
from pathlib import Path
from typing import Any

from ..engine.registry import EDITION
from ..lookup import query
from ..site.render import rule_url

DEFAULT_SITE = "http://127.0.0.1:8001"
FIRST_WORDS = 10
RULE = re.compile(r"^\d{3}(\.\d+[a-z]?)?$")


class Citations:
    """Rule numbers shown with their first words (from the database when it can be read)
    and the address of their page on the site."""

    def __init__(self, db_path: Path | None, site: str) -> None:
        self.site = site.rstrip("/")
        self.conn: sqlite3.Connection | None = None
        self.cache: dict[str, tuple[str, str]] = {}
        if db_path is not None and Path(db_path).is_file():
            try:
                conn = query.connect(db_path)
                if query.trouble(conn) is None:
                    self.conn = conn
            except (sqlite3.Error, OSError):
                self.conn = None

    def lookup(self, number: str) -> tuple[str, str]:
        """The first words of rule `number` in the release the evaluator cites ('' without
        a database or when the database has that release only in part, without the rule)
        and its page's address. Never another release's: numbers move between them."""
        if number not in self.cache:
            words, doc = "", EDITION
            if self.conn is not None:
                row = next(filter(None, (query.find_rule(self.conn, number, edition)
                                         for edition in self.editions)), None)
                if row:
                    doc = row["document"]
                    text = row["text"].split()
                    words = " ".join(text[:FIRST_WORDS]) + ("…" if len(text) > FIRST_WORDS
                                                           else "")
            self.cache[number] = (words, f"{self.site}{rule_url(doc, number)}")
        return self.cache[number]

    @cached_property
    def editions(self) -> list[str]:
        """The documents of the cited release: cr-2025-06-06 itself, then its parts
        (cr-2025-06-06-chapter7, the bundled chapter 7)."""
        assert self.conn is not None
        rows = self.conn.execute("SELECT id FROM documents WHERE id = ? OR id LIKE ? "
                                 "ORDER BY partial, id", [EDITION, f"{EDITION}-%"])
        return [row[0] for row in rows]

    def line(self, number: str) -> str:
        """'510.1c A blocked creature assigns … <address>' (a cause that is not a rule, such
        as an engine's exception, as it is)."""
        if not RULE.match(number):
            return number
        words, url = self.lookup(number)
        return f"{number} {words}  {url}" if words else f"{number}  {url}"

    def as_json(self, numbers: list[str]) -> list[dict[str, str]]:
        """The rules with their first words and addresses, as JSON."""
        return [{"number": n, "text": self.lookup(n)[0], "url": self.lookup(n)[1]}
                for n in numbers]


def narration(lines: list[Any], cite: Citations) -> str:
    """The narrated lines of an evaluation, each followed by the rules that decided it."""
    out = []
    for line in lines:
        indent = "  " * line.level
        out.append(f"{indent}{line.text}")
        out += [f"{indent}    {cite.line(rule)}" for rule in line.rules]
    return "\n".join(out)


def compact_json(data: Any) -> str:
    """A scenario as JSON with one line per top-level field and per permanent."""
    parts = []
    for key, value in data.items():
        if key == "permanents" and value:
            inner = ",\n   ".join(json.dumps(p, ensure_ascii=False) for p in value)
            parts.append(f'"{key}": [\n   {inner}]')
        else:
            parts.append(f"{json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{" + ",\n ".join(parts) + "}"
