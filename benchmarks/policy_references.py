"""How the current Comprehensive Rules, Magic Tournament Rules and Infraction Procedure Guide
cite each other, and how many of those citations the references layer resolves.

The citations are found here with broad patterns of their own, one per way the documents
cite (not the layer's: what the layer misses counts against it): a section's number ("see
section 2.2", "(3.1)", "section 4 of the Magic Tournament Rules", a list of changes' "3.7:"),
an appendix, a CR rule ("rule 103.4c"), a document by name, an infraction by name. Each is
looked for among the layer's references over the same words: resolved when one resolves it.
Names of documents outside the three (the Judging at Regular REL document, the Premier
Tournament Invitation Policy) are counted apart: the three cannot resolve them. A
document's mention of itself is no citation, nor an infraction's name in its own section or
in the section it titles.

Prints, per way, how many citations were found and how many resolve; the share resolved
among the three documents against the target (≥ 95%, issue 39); and each citation left
unresolved with why (the layer's reason, or that the layer did not find it).
Run: python benchmarks/policy_references.py [--db PATH] [--json]
(default database: data/rules.db; build it first)
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 0.95
NAMES = {"mtr": r"(?:Magic(?::\s*The\s+Gathering)?\s+)?Tournament\s+Rules",
         "ipg": r"(?:Magic\s+)?Infraction\s+Procedure\s+Guide",
         "cr": r"(?:Magic(?::\s*The\s+Gathering)?\s+)?Comprehensive\s+Rules"}
OUTSIDE = r"Judging\s+at\s+Regular\s+(?:Rules\s+Enforcement\s+Level|REL)|Invitation\s+Policy"
WAYS = {  # a way of citing, and the kind of document whose texts cite that way
    "section number": (r"\b(?:MTR\s+|IPG\s+)?[Ss]ections?\s+\d{1,2}(?:\.\d{1,2})?"
                       r"(?:\s*-\s*\d{1,2})?", ("mtr", "ipg")),
    "number in parentheses": (r"\(\d{1,2}\.\d{1,2}\)", ("mtr", "ipg")),
    "list of changes": (r"(?m)^\d{1,2}\.\d{1,2}:", ("mtr", "ipg")),
    "appendix": (r"\bAppendix\s+[A-Z]\b", ("mtr", "ipg")),
    "CR rule": (r"\brules?\s+\d{3}\.\d+[a-z]?", ("mtr", "ipg")),
    "document by name": ("|".join(f"(?P<{k}>{v})" for k, v in NAMES.items()),
                         ("mtr", "ipg", "cr")),
}
KINDS = {"cr": "comprehensive_rules", "mtr": "tournament_rules",
         "ipg": "infraction_procedure_guide"}


def current(conn: sqlite3.Connection) -> dict[str, str]:
    """The newest edition of each kind (the CR's newest whole one when there is one)."""
    found = {}
    for key, kind in KINDS.items():
        order = "partial, effective_date DESC" if key == "cr" else "effective_date DESC, partial"
        row = conn.execute(f"SELECT id FROM documents WHERE kind = ? ORDER BY {order} LIMIT 1",
                           [kind]).fetchone()
        if row:
            found[key] = row[0]
    return found


def infraction_names(conn: sqlite3.Connection, ipg: str | None) -> re.Pattern[str] | None:
    """The IPG's infractions by name, as its own quick reference (Appendix A) lists them."""
    row = conn.execute("SELECT text FROM rules WHERE document = ? AND number = 'A'",
                       [ipg]).fetchone() if ipg else None
    if row is None:
        return None
    names = [line.split("\t")[0] for line in row[0].split("\n") if "\t" in line][1:]
    # "Unsporting Conduct — Minor" is listed with its class; the others by name alone
    names = sorted({n.split(" — ")[-1] if " — " in n else n for n in names
                    if n not in ("Infraction",)}, key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(re.escape(n) for n in names if len(n) > 5) + r")\b")


def found_citations(conn: sqlite3.Connection, docs: dict[str, str]) -> list[dict]:
    """Every citation the patterns find in the three documents' rules."""
    infractions = infraction_names(conn, docs.get("ipg"))
    ways = dict(WAYS)
    out = []
    for key, doc_id in docs.items():
        for rule_id, number, text, title in conn.execute(
                "SELECT id, number, text, title FROM rules WHERE document = ?", [doc_id]):
            text = text or ""
            patterns = [(way, re.compile(pattern)) for way, (pattern, where) in ways.items()
                        if key in where]
            if infractions is not None and key != "cr":
                patterns.append(("infraction by name", infractions))
            patterns.append(("document outside the three", re.compile(OUTSIDE)))
            for way, pattern in patterns:
                for match in pattern.finditer(text):
                    named = [k for k, v in match.groupdict().items() if v] if match.re.groupindex \
                        else []
                    if named and named[0] == key:
                        continue  # a document naming itself
                    if way == "infraction by name" and (title or "").endswith(match.group()):
                        continue  # an infraction in its own section
                    out.append({"document": doc_id, "rule_id": rule_id, "number": number,
                                "way": way, "start": match.start(), "end": match.end(),
                                "text": match.group()})
    return out


def judged(conn: sqlite3.Connection, cite: dict) -> tuple[str, str | None]:
    """(status, reason) of a citation: the best of the layer's references over its words."""
    rows = conn.execute(
        "SELECT status, reason FROM [references] WHERE rule_id = ? AND example_id IS NULL "
        "AND start < ? AND [end] > ?", [cite["rule_id"], cite["end"], cite["start"]]).fetchall()
    if not rows:
        return "unresolved", "the references layer did not find it"
    for status in ("resolved", "outside_coverage", "unresolved"):
        for found, reason in rows:
            if found == status:
                return status, reason
    return rows[0][0], rows[0][1]


def main() -> None:
    """Count, resolve and print."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", type=Path, default=ROOT / "data" / "rules.db")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    conn = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
    docs = current(conn)
    cites = found_citations(conn, docs)
    for cite in cites:
        cite["status"], cite["reason"] = judged(conn, cite)
    among = [c for c in cites if c["way"] != "document outside the three"]
    resolved = sum(c["status"] == "resolved" for c in among)
    share = resolved / len(among) if among else 1.0
    report = {"documents": docs, "found": len(among), "resolved": resolved,
              "share": round(share, 4), "target": TARGET,
              "ways": {way: {"found": n, "resolved": sum(
                  c["status"] == "resolved" for c in cites if c["way"] == way)}
                  for way, n in Counter(c["way"] for c in cites).items()},
              "not_resolved": [{k: c[k] for k in ("document", "number", "way", "text",
                                                 "status", "reason")}
                               for c in cites if c["status"] != "resolved"]}
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
        return
    print(f"documents: {', '.join(docs.values())}")
    print(f"{'way':28} {'found':>6} {'resolved':>9}")
    for way, counts in report["ways"].items():
        print(f"{way:28} {counts['found']:6} {counts['resolved']:9}")
    mark = "met" if share >= TARGET else "NOT met"
    print(f"among the three documents: {resolved} of {len(among)} resolved ({share:.1%}; "
          f"target ≥ {TARGET:.0%}: {mark})")
    print("not resolved:")
    for c in report["not_resolved"]:
        print(f"  {c['document']} {c['number']}: {c['text']!r} ({c['way']}): "
              f"{c['status']}, {c['reason']}")


if __name__ == "__main__":
    main()
