"""The judges' policy documents the project ships (data/policy), read once per test session,
and a PDF made from a parsed one (the test of reading a policy document from a PDF)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from rulesdb.ingest import policy_json, policy_text
from rulesdb.ingest.model import Document

from forms_helpers import pdf

POLICY = Path(__file__).resolve().parent.parent / "data" / "policy"
MTR = POLICY / "MTG_MTR_2026_Feb27_EN.pdf.txt"
IPG = POLICY / "MTG_IPG_2024Sep23_EN.pdf.txt"
MTR_JSON = POLICY / "mtr-2025-11-10-json"
# an entry of a table of contents: a label, dot leaders, a page number (some are cut off)
CONTENTS_ENTRY = re.compile(r"^\s*(?P<label>\S.*?)\s*\.{4,}\s*(?P<page>\d+)?\s*$")


@cache
def parsed(path: Path) -> Document:
    """The Document of a shipped policy text file."""
    return policy_text.parse(path.read_bytes())


@cache
def parsed_json() -> Document:
    """The Document of the shipped JSON transcription."""
    return policy_json.parse_files({p.name: p.read_bytes() for p in MTR_JSON.iterdir()
                                    if p.suffix == ".json"})


def contents(path: Path) -> list[str]:
    """The labels of a shipped file's table of contents, read straight from its lines."""
    return [m["label"] for line in path.read_text(encoding="utf-8").split("\n")
            if (m := CONTENTS_ENTRY.match(line))]


def printed_heading(rule) -> str:
    """A rule's heading as the document prints it."""
    if rule.marker and rule.text != rule.title:
        return rule.marker
    return f"{rule.marker} {rule.text}".strip()


def contents_label(rule) -> str:
    """A rule's entry in a table of contents."""
    if rule.kind == "preface":
        return rule.title
    if rule.kind == "appendix":
        return f"Appendix {rule.number} — {rule.title}"
    return f"{rule.number}. {rule.title}"


def as_pdf(doc: Document) -> bytes:
    """A PDF of a parsed policy document as Wizards lays one out: its title and date, a
    table of contents with dot leaders, each heading and paragraph (table cells set apart
    by spaces), the credits; a page number under each page."""
    paragraphs = [part.text for part in doc.parts if part.name != "credits"]
    paragraphs += [f"{contents_label(rule)} ........ {at // 10 + 2}"
                   for at, rule in enumerate(doc.rules)]
    for rule in doc.rules:
        paragraphs.append(printed_heading(rule))
        if rule.text != rule.title:
            paragraphs += rule.text.replace("\t", "  ").split("\n")
    paragraphs += [line for part in doc.parts if part.name == "credits"
                   for line in part.text.replace("\t", "  ").split("\n")]
    return pdf("\n\n".join(paragraphs), lines_per_page=50, folios=True)
