"""What `rulesdb trace` reports for CI: the statuses that fail a run, and the SARIF 2.1.0 log
that code-review tools (GitHub code scanning among them) read.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from .coverage import STALE  # what a team must look at
from .scan import Citation
from .status import Checked

STATUSES = {
    "ok": "The cited rule exists and says what the code around it is about.",
    "missing": "The cited rule is not in the checked edition, nor known as renumbered.",
    "renumbered": "The cited rule has another number in the checked edition.",
    "malformed": "The text after a rule marker is not a rule number.",
    "suspect": "The rule exists, but the code around it names another keyword's rule.",
    "outside_coverage": "The checked edition does not contain that part of the rules.",
}
LEVELS = {"missing": "error", "renumbered": "warning", "malformed": "error",
          "suspect": "note"}
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def parse_statuses(text: str) -> set[str]:
    """The statuses of "renumbered,missing"; ValueError naming an unknown one."""
    wanted = {part.strip() for part in text.split(",") if part.strip()}
    unknown = sorted(wanted - set(STATUSES))
    if unknown or not wanted:
        raise ValueError(f"unknown status {', '.join(unknown) or repr(text)}; "
                         f"choose from {', '.join(STATUSES)}")
    return wanted


def failing(items: list[tuple[Citation, Checked]], statuses: set[str]) -> str | None:
    """Why the run fails ("3 citations fail: 1 missing, 2 renumbered"), or None when none has
    one of `statuses`."""
    counts = Counter(v.status for _, v in items if v.status in statuses)
    if not counts:
        return None
    parts = [f"{n} {status}" for status, n in sorted(counts.items())]
    total = sum(counts.values())
    return f"{total} citation{'s' if total > 1 else ''} fail: {', '.join(parts)}"


def message(citation: Citation, verdict: Checked, edition: str) -> str:
    """One sentence on a stale citation: the rule cited, its status, what to cite instead."""
    cited = f"rule {citation.number}"
    if verdict.status == "renumbered":
        now = f"now {verdict.suggestion}" if verdict.suggestion else "its new number is unknown"
        return f"{cited} is renumbered in {edition}: {now}"
    if verdict.status == "suspect":
        return (f"{cited} is suspect: the code around it names another keyword, whose rule "
                f"is {verdict.suggestion} in {edition}")
    if verdict.status == "malformed":
        return f"'{citation.cited}' is malformed: not a rule number"
    if verdict.status == "missing":
        return f"{cited} is missing from {edition}"
    return f"{cited} is {verdict.status.replace('_', ' ')} in {edition}"


def sarif(items: list[tuple[Citation, Checked]], root: Path, edition: str,
          version: str) -> dict[str, Any]:
    """A SARIF 2.1.0 log: one result per stale citation, paths relative to `root`."""
    rules = [{"id": status, "name": status.title().replace("_", ""),
              "shortDescription": {"text": f"Rule citation {status.replace('_', ' ')}"},
              "fullDescription": {"text": text},
              "defaultConfiguration": {"level": LEVELS.get(status, "none")}}
             for status, text in STATUSES.items() if status in STALE]
    index = {rule["id"]: at for at, rule in enumerate(rules)}
    results = []
    for citation, verdict in items:
        if verdict.status not in STALE:
            continue
        region: dict[str, int] = {"startLine": citation.line}
        if citation.column:
            region["startColumn"] = citation.column
            region["endColumn"] = citation.column + len(citation.cited)
        results.append({
            "ruleId": verdict.status,
            "ruleIndex": index[verdict.status],
            "level": LEVELS[verdict.status],
            "message": {"text": message(citation, verdict, edition)},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": citation.file, "uriBaseId": "SRCROOT"},
                "region": region}}],
            "partialFingerprints": {
                "citation/v1": f"{citation.file}:{citation.function or ''}:{citation.number}"},
            "properties": {"cited": citation.cited, "number": citation.number,
                           "function": citation.function, "suggestion": verdict.suggestion},
        })
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "rulesdb trace",
                "version": version,
                "rules": rules,
                "properties": {"crEdition": edition},
            }},
            "originalUriBaseIds": {"SRCROOT": {"uri": root.resolve().as_uri() + "/"}},
            "results": results,
            "properties": {"crEdition": edition},
        }],
    }
