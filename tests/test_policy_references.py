"""References between the judges' documents and the Comprehensive Rules (rulesdb.layers.
policy_refs, policy_terms, cross_refs): the forms found, their resolution in the bundled
database, and the share the counting script (benchmarks/policy_references.py) finds
resolved."""

from __future__ import annotations

import importlib.util
import sqlite3
import sys
from pathlib import Path

import pytest

from rulesdb.layers import policy_refs, policy_terms
from rulesdb.layers.policy_refs import Infractions

INFRACTIONS = Infractions({"2.3": ("Game Play Error", "Hidden Card Error"),
                           "3.1": ("Tournament Error", "Tardiness"),
                           "3.7": ("Tournament Error", "Communication Policy Violation"),
                           "4.7": ("Unsporting Conduct", "Stalling"),
                           "4.8": ("Unsporting Conduct", "Cheating")})


def cites(text: str, key: str = "mtr", title: str | None = None) -> list[tuple]:
    return [(text[c.start:c.end], c.kind, c.targets)
            for c in policy_refs.find(text, INFRACTIONS, key, title)]


@pytest.mark.parametrize(("text", "key", "expected"), [
    ("(see section 2.2)", "mtr", [("section 2.2", "section", ("self|2.2",))]),
    ("section 4 of the Magic Tournament Rules", "ipg",
     [("section 4 of the Magic Tournament Rules", "section", ("mtr|4",))]),
    ("The Out-of-Order Sequencing rules (MTR section 4.3) apply", "ipg",
     [("MTR section 4.3", "section", ("mtr|4.3",))]),
    ("Infractions (sections 2-4).", "ipg",
     [("sections 2-4", "section", ("self|2", "self|3", "self|4"))]),
    ("Magic Comprehensive Rules, rule 103.4c)", "mtr",
     [("Magic Comprehensive Rules", "document", ("cr|",)),
      ("rule 103.4c", "rule", ("cr|103.4c",))]),
    ("listed in Appendix F.", "mtr", [("Appendix F", "appendix", ("self|F",))]),
    ("3.7: New sets added.\n6.3: Banned.", "mtr",
     [("3.7:", "section", ("self|3.7",)), ("6.3:", "section", ("self|6.3",))]),
    ("Tardiness (3.1) and", "ipg",
     [("Tardiness", "infraction", ("self|3.1",)), ("(3.1)", "section", ("self|3.1",))]),
    ("handled as a Communication Policy Violation, but", "mtr",
     [("Communication Policy Violation", "infraction", ("ipg|3.7",))]),
    ("is Game Play Error — Hidden Card Error.", "ipg",
     [("Game Play Error — Hidden Card Error", "infraction", ("self|2.3",))]),
    ("may lead to Unsporting Conduct penalties.", "mtr",
     [("Unsporting Conduct", "infraction", ("ipg|4",))]),
    ("the Magic Tournament Rules take precedence", "mtr", []),  # itself
    ("covered by the Judging at Regular Rules Enforcement Level document", "mtr",
     [("Judging at Regular Rules Enforcement Level", "document",
       ("outside|Judging at Regular Rules Enforcement Level",))]),
    ("See the Magic: The Gathering Tournament Rules for more; section 2.2 is not cited", "cr",
     [("Magic: The Gathering Tournament Rules", "document", ("mtr|",))]),
    ("Proposing loops is Stalling.", "mtr", [("Stalling", "infraction", ("ipg|4.7",))]),
])
def test_the_forms_of_citation_found(text: str, key: str, expected: list[tuple]) -> None:
    assert cites(text, key) == expected


def test_a_section_does_not_cite_the_infraction_it_is_named_for() -> None:
    assert cites("Cheating will not be tolerated.", "mtr", title="Cheating") == []


@pytest.mark.parametrize(("rules", "expected"), [
    ([("Rules Enforcement Levels", "Rules Enforcement Levels (REL) are a means to "
       "communicate.")], [("REL", True), ("Rules Enforcement Level", False)]),
    ([("Player Communication", "There are four categories.\nStatus information is "
       "information that must be announced.")], [("Status information", False)]),
    ([("Loops", "A loop is a form of tournament shortcut.")], [("loop", False)]),
    ([("Triggered Abilities", "Triggered abilities are considered to be forgotten.")], []),
    ([("Team Rochester Draft", "The player drafting first is called the active player.")],
     []),
    ([("Play/Draw Rule", "The player who plays first skips. This is referred to as the "
       "play/draw rule.")], [("play/draw rule", False)]),
])
def test_terms_defined(rules, expected) -> None:
    found = policy_terms.definitions(rules)
    assert [(d.term, d.abbreviation) for d in found] == expected


def test_a_term_is_found_in_any_case_and_number() -> None:
    found = policy_terms.terms([policy_terms.Definition("Rules Enforcement Level", 0),
                                policy_terms.Definition("REL", 0, abbreviation=True)])
    text = "at Competitive rules enforcement levels and Regular REL; prelude"
    assert [text[a:b] for a, b, _ in policy_terms.mentions(text, found)] == [
        "rules enforcement levels", "REL"]


def _rows(db: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute(sql).fetchall()


def test_references_resolve_across_the_documents_both_ways(bundled_db) -> None:
    found = _rows(bundled_db, "SELECT d.id, r.number, f.raw, f.kind, t.document, t.number, "
                              "f.target_doc, f.status FROM [references] f "
                              "JOIN documents d ON d.id = f.document "
                              "JOIN rule_rows r ON r.id = f.rule_id "
                              "LEFT JOIN rule_rows t ON t.id = f.target_rule_id")
    assert ("ipg-2024-09-23", "2.1", "MTR section 4.3", "section", "mtr-2026-02-27", "4.3",
            "mtr-2026-02-27", "resolved") in found
    assert ("mtr-2026-02-27", "4.9", "Communication Policy Violation", "infraction",
            "ipg-2024-09-23", "3.7", "ipg-2024-09-23", "resolved") in found
    assert ("cr-2025-06-06-chapter7", "730.1c", "Magic: The Gathering Tournament Rules",
            "document", None, None, "mtr-2026-02-27", "resolved") in found
    assert ("mtr-2026-02-27", "2.7", "Rules Enforcement Level", "term", "mtr-2026-02-27",
            "1.12", None, "resolved") in found
    # the older MTR cites the newest IPG; the newest MTR's own sections stay its own
    assert ("mtr-2025-11-10", "4.9", "Communication Policy Violation", "infraction",
            "ipg-2024-09-23", "3.7", "ipg-2024-09-23", "resolved") in found
    assert ("mtr-2025-11-10", "2.3", "section 2.2", "section", "mtr-2025-11-10", "2.2",
            None, "resolved") in found


def test_the_counting_script_finds_the_share_resolved(bundled_db, capsys) -> None:
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "policy_references.py"
    spec = importlib.util.spec_from_file_location("policy_references", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    sys.argv = ["policy_references.py", "--db", str(bundled_db), "--json"]
    script.main()
    import json
    report = json.loads(capsys.readouterr().out)
    # the bundled CR is chapter 7 alone: the MTR's two rules of chapter 1 lie outside it
    assert (report["found"], report["resolved"]) == (122, 120)
    assert {(c["text"], c["status"]) for c in report["not_resolved"]
            if c["way"] == "CR rule"} == {("rule 103.4", "outside_coverage"),
                                          ("rule 103.4c", "outside_coverage")}
