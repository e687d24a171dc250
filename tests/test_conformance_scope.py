"""An engine's own scope: a scenario it declares unsupported (rulesdb.conformance.Unsupported,
or None returned) is not compared, counted under its reason, never an agreement or a
disagreement; `--require N%` fails a run comparing too few."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdb.cli import cli
from rulesdb.conformance import Unsupported
from rulesdb.conformance.generate import KEYWORD_ODDS
from rulesdb.conformance.generate import scenario as generated
from rulesdb.conformance.run import NO_FIELD, NO_OUTCOME, check

from conformance_engine import correct, make

# Every keyword the generator writes, by name; the engine below knows the first half.
KEYWORDS = sorted([k for k, _ in KEYWORD_ODDS] + ["protection", "toxic",
                                                  "can block additional creatures"])
KNOWN = frozenset(KEYWORDS[: len(KEYWORDS) // 2])


def names(scenario: dict) -> list[str]:
    return [k if isinstance(k, str) else next(iter(k))
            for p in scenario["permanents"] for k in p.get("keywords", [])]


def half_the_keywords(scenario: dict) -> dict:
    """The faultless engine, declaring every scenario with a keyword it lacks unsupported."""
    for name in names(scenario):
        if name not in KNOWN:
            raise Unsupported(f"{name} is not supported")
    return correct(scenario)


def test_an_engine_knowing_half_the_keywords_reports_the_rest_as_not_compared():
    report = check(half_the_keywords, 1000, seed=5)
    expected = Counter()
    for index in range(1000):
        missing = [n for n in names(generated(5, index)) if n not in KNOWN]
        if missing:
            expected[f"{missing[0]} is not supported"] += 1
    left = report["not_compared"]
    assert {r["reason"]: r["scenarios"] for r in left["reasons"]} == dict(expected)
    assert left["scenarios"] == sum(expected.values()) > 300
    assert [r["scenarios"] for r in left["reasons"]] == sorted(expected.values(), reverse=True)
    assert (report["compared"], report["agreed"], report["disagreed"]) == (
        1000 - left["scenarios"], 1000 - left["scenarios"], 0)
    assert report["causes"] == []
    cases = sorted(i for r in left["reasons"] for i in r["cases"])
    assert len(cases) == len(set(cases)) == left["scenarios"]


def test_disagreements_are_counted_among_the_scenarios_compared_only():
    faulty = make("excess_lost")

    def engine(scenario):
        if len(scenario["attacks"]) > 2:
            return None
        return faulty(scenario)

    report = check(engine, 500, seed=6)
    left = report["not_compared"]
    assert [r["reason"] for r in left["reasons"]] == [NO_OUTCOME]
    assert report["agreed"] + report["disagreed"] == report["compared"] == 500 - left[
        "scenarios"]
    assert report["agreement"] == report["agreed"] / report["compared"]
    assert not {i for c in report["causes"] for i in c["cases"]} & set(left["reasons"][0][
        "cases"])


@pytest.mark.parametrize(("engine", "reason"), [
    (lambda s: None, NO_OUTCOME),
    (lambda s: {}, NO_FIELD),
    (lambda s: {"notes": "nothing we compare"}, NO_FIELD),
    (lambda s: (_ for _ in ()).throw(Unsupported()), "Unsupported"),
])
def test_an_outcome_to_compare_nothing_by_is_never_an_agreement(engine, reason):
    report = check(engine, 20, seed=0)
    assert (report["compared"], report["agreed"], report["not_compared"]["reasons"]) == (
        0, 0, [{"reason": reason, "scenarios": 20, "cases": list(range(20))}])


ENGINE = Path(__file__).resolve().parent / "test_conformance_scope.py"


def run(*args):
    return CliRunner().invoke(cli, ["conformance", *args, "--db", "none.db"])


def test_require_fails_a_run_comparing_too_few():
    result = run(f"{ENGINE}:half_the_keywords", "-n", "200", "--require", "90%")
    assert result.exit_code == 1
    report_lines = result.stdout.splitlines()
    assert report_lines[1].startswith("200 scenarios (seed 0): ")
    assert report_lines[3].startswith("not compared: ")
    assert result.output.splitlines()[-1].startswith(
        f"Error: {ENGINE}:half_the_keywords compared ")
    assert result.output.splitlines()[-1].endswith(
        "% of the scenarios, less than the 90% --require asks")
    passed = run(f"{ENGINE}:half_the_keywords", "-n", "200", "--require", "5", "--json")
    assert passed.exit_code == 0
    report = json.loads(passed.stdout)
    assert report["require"] == 0.05 and report["compared_share"] > 0.05


@pytest.mark.parametrize("value", ["lots", "120%", "-5"])
def test_require_must_be_a_percentage(value):
    result = run("rulesdb.engine.outcome:evaluate", "-n", "5", "--require", value)
    assert result.exit_code == 2
    assert "--require" in result.output


def test_a_run_comparing_nothing_fails():
    result = run(f"{ENGINE}:nothing", "-n", "5")
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == f"Error: {ENGINE}:nothing compared none of 5 scenarios"


def nothing(scenario: dict) -> None:
    """An engine declaring every scenario unsupported by returning None."""
    return None
