"""`rulesdb combat` and `rulesdb conformance`: output, JSON, exit codes."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from rulesdb.cli import cli
from rulesdb.commands.conformance_text import difference
from rulesdb.conformance.run import outcomes
from rulesdb.engine.outcome import evaluate

from conftest import ROOT

CORPUS = ROOT / "rulesdb" / "engine" / "corpus"
ENGINES = Path(__file__).resolve().parent / "conformance_engine.py"


def run(*args):
    return CliRunner().invoke(cli, [*args])


def scenario_file(tmp_path: Path, data) -> Path:
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return path


SMALL = {"players": [{"id": "A"}, {"id": "B", "life": 2}],
         "permanents": [{"id": "a1", "controller": "A", "power": 2, "toughness": 2,
                         "colors": ["red"], "keywords": ["first strike"]},
                        {"id": "a2", "controller": "A", "power": 3, "toughness": 3}],
         "attacks": [{"attacker": "a1", "target": "B"}, {"attacker": "a2", "target": "B"}]}


def test_combat_tells_the_steps_with_the_rules_and_their_pages(tmp_path):
    result = run("combat", str(scenario_file(tmp_path, SMALL)), "--db",
                 str(tmp_path / "none.db"), "--site", "https://rules.example")
    assert result.exit_code == 0, result.output
    page = "https://rules.example/cr-2025-06-06/"
    assert result.output.splitlines() == [
        "Attacks and blocks",
        f"    508.1  {page}508.1",
        f"    509.1  {page}509.1",
        "  a1 (red 2/2, first strike) attacks B",
        f"      508.1a  {page}508.1a",
        "  a1 is unblocked",
        f"      509.1h  {page}509.1h",
        "  a2 (3/3) attacks B",
        f"      508.1a  {page}508.1a",
        "  a2 is unblocked",
        f"      509.1h  {page}509.1h",
        "First-strike combat damage step",
        f"    510.4  {page}510.4",
        f"    702.7b  {page}702.7b",
        "  a1 assigns 2 damage to B",
        f"      510.1b  {page}510.1b",
        "  a1 deals 2 damage to B: B loses 2 life",
        f"      120.3a  {page}120.3a",
        "  B loses the game: 0 or less life",
        f"      704.5a  {page}704.5a",
        "The game is over: A wins; the second combat damage step is not played",
        f"    104.2a  {page}104.2a",
        "Result",
        "  A: 20 life (+0), 0 poison (+0)",
        "  B: 0 life (-2), 0 poison (+0), lost",
    ]


def test_combat_quotes_the_first_words_of_the_rules_from_the_database(tmp_path, bundled_db):
    """The bundled database has chapter 7 of cr-2025-06-06 only: its rules are quoted and
    linked there; 508.1 is not quoted from another release (numbers move between them)."""
    result = run("combat", str(CORPUS / "702.19b-example-1.json"), "--db", str(bundled_db))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert ("      702.19b The controller of an attacking creature with trample first "
            "assigns…  http://127.0.0.1:8001/cr-2025-06-06-chapter7/702.19b") in lines
    assert "    508.1  http://127.0.0.1:8001/cr-2025-06-06/508.1" in lines


def test_combat_json_is_the_outcome_object(tmp_path):
    result = run("combat", str(scenario_file(tmp_path, SMALL)), "--json")
    assert result.exit_code == 0
    assert json.loads(result.output) == evaluate(SMALL)
    assert json.loads(result.output)["game_over"] == {
        "step": "first strike", "winners": ["A"], "losers": ["B"], "rules": ["104.2a"]}


def test_combat_malformed_scenario_is_one_line_naming_the_field_exit_2(tmp_path):
    data = json.loads(json.dumps(SMALL))
    data["permanents"][0]["keywords"] = ["first_strike"]
    path = scenario_file(tmp_path, data)
    result = run("combat", str(path))
    assert result.exit_code == 2
    assert result.output == (f"Error: {path}: permanents[0].keywords[0]: unknown keyword "
                             "'first_strike' (did you mean 'first strike'?)\n")


def test_combat_invalid_json_names_line_and_column_exit_2(tmp_path):
    path = scenario_file(tmp_path, '{"players": [\n  {"id": "A"},\n]}')
    result = run("combat", str(path))
    assert result.exit_code == 2
    assert result.output.startswith(f"Error: {path}: line 3, column 1: ")


def test_combat_unmet_expectation_exits_1(tmp_path):
    data = {**SMALL, "expect": {"players": {"B": {"life": 5}}}}
    result = run("combat", str(scenario_file(tmp_path, data)), "--json")
    assert result.exit_code == 1
    assert "players.B.life: expected 5, got 0" in result.output


def test_conformance_of_the_reference_with_itself_exits_0(bundled_db):
    result = run("conformance", "rulesdb.engine.outcome:evaluate", "-n", "200",
                 "--db", str(bundled_db))
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[:2] == [
        "rulesdb.engine.outcome:evaluate against the reference evaluator (cr-2025-06-06)",
        "200 scenarios (seed 0): 200 compared, 200 agree (100.0%), 0 disagree"]


def test_conformance_reports_causes_as_json_and_exits_1(tmp_path):
    result = run("conformance", f"{ENGINES}:planted", "-n", "400", "--json",
                 "--export", str(tmp_path))
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["engine"] == f"{ENGINES}:planted"
    assert len(report["causes"]) >= 2
    first = report["causes"][0]
    assert (first["aspect"], first["rules"], first["side"]) == ("division", ["510.1a"],
                                                                "attacker")
    assert first["rules_cited"][0]["url"] == "http://127.0.0.1:8001/cr-2025-06-06/510.1a"
    assert json.loads((tmp_path / "disagreements" / "1.json").read_text()) == first
    assert len(list((tmp_path / "scenarios").glob("*.json"))) == 400


def test_conformance_json_has_every_number_and_every_case(tmp_path):
    """Every scenario number of a cause, not the first 20; every count the text shows."""
    args = ("conformance", f"{ENGINES}:planted", "-n", "400", "--db", str(tmp_path / "no.db"))
    report = json.loads(run(*args, "--json").stdout)
    text = run(*args).output
    (first,) = [c for c in report["causes"] if c["number"] == 1]
    assert first["scenarios"] == len(first["cases"]) > 20
    assert report["agreed"] + report["disagreed"] == report["compared"] == 400
    assert report["disagreed"] == len({i for c in report["causes"] for i in c["cases"]})
    shown = {int(n.replace(",", "")) for n in re.findall(r"(?<![\w.])\d[\d,]*(?![\w.])",
                                                         _counts(text))}
    numbers = set(_numbers(report))
    assert shown - numbers == set()


def _counts(text: str) -> str:
    """The lines of a report that are counts: the header and each cause's headings (the
    scenarios and the differences shown hold ids and values, not counts)."""
    return "\n".join(line for line in text.splitlines()
                     if re.match(r"(\d+ scenarios|\d+\. |   smallest scenario|not compared|"
                                 r"\s+\d+  )", line))


def _numbers(value):
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, float):
        yield round(100 * value, 1)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _numbers(item)
    elif isinstance(value, list):
        yield len(value)
        for item in value:
            yield from _numbers(item)


def test_conformance_text_report_shows_the_smallest_scenario(tmp_path):
    result = run("conformance", f"{ENGINES}:planted", "-n", "300", "--db",
                 str(tmp_path / "none.db"))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[3:5] == ["divisions of its own: 112 scenarios, checked and replayed by the "
                          "reference", ""]
    assert lines[5].startswith("1. a division of combat damage, the attacking player's: ")
    assert "   decided by 510.1a  http://127.0.0.1:8001/cr-2025-06-06/510.1a" in lines
    assert ('   regular step, a1 divides its damage {"b1": 1}: illegal, a1 must assign '
            'exactly 2 damage (510.1a)') in lines
    assert "   reference (its own divisions): a1→b1 2; b1 dies" in lines
    assert "   engine:    a1→b1 1; b1 dies" in lines


def test_conformance_text_tells_poison_and_counts_in_words(tmp_path):
    """Issue 40, point 5: the poison counters an engine gives show in its line; one
    creature is '1 creature'; an engine's exception is not a rule."""
    result = run("conformance", f"{ENGINES}:planted", "-n", "300", "--db",
                 str(tmp_path / "none.db"))
    lines = result.output.splitlines()
    poison = lines.index("   B: reference 20 life, 0 poison; engine 20 life, 1 poison")
    assert lines[poison + 1:poison + 3] == ["   reference: nothing happens",
                                            "   engine:    B 0→1 poison"]
    assert any(re.search(r"\(from #\d+: 1 creature; ", line) for line in lines)
    assert not any("creatures;" in line and re.search(r": 1 creatures", line)
                   for line in lines)
    failing = run("conformance", f"{ENGINES}:raises", "-n", "3", "--db",
                  str(tmp_path / "none.db"))
    assert failing.exit_code == 1
    assert "1. the engine raised NotImplementedError: 3 scenarios (#0, #1, #2)" in (
        failing.output.splitlines())
    assert "decided by" not in failing.output
    assert "   the engine raised NotImplementedError: no battles here" in (
        failing.output.splitlines())


def test_conformance_text_tells_a_division_in_a_step_without_damage():
    data = {"players": [{"id": "A"}, {"id": "B"}],
            "permanents": [{"id": "a1", "controller": "A", "power": 2, "toughness": 2,
                            "keywords": ["first strike"]}],
            "attacks": [{"attacker": "a1", "target": "B"}]}

    def twice(scenario):  # a first striker dealing its damage in the regular step as well
        result = evaluate(scenario)
        result["damage"].append({**result["damage"][0], "step": "regular"})
        return result

    (found,) = outcomes(twice, data).differences
    assert difference(found.as_dict()) == (
        'regular step, a1 divides its damage {"B": 2}, but deals no combat damage in this '
        "step (510.4, 702.7b, 702.4b)")


def test_conformance_export_needs_no_engine(tmp_path):
    result = run("conformance", "--export", str(tmp_path / "out"), "-n", "5")
    assert result.exit_code == 0
    assert sorted(p.name for p in (tmp_path / "out" / "outcomes").iterdir()) == [
        f"0000{i}.json" for i in range(5)]


def test_conformance_engine_that_cannot_be_loaded_exits_2(tmp_path):
    for spec, words in [("no_such_module_31:play", "cannot import no_such_module_31"),
                        ("rulesdb.engine.outcome:nothing", "has no function nothing"),
                        ("evaluate", "expected MODULE:FUNCTION")]:
        result = run("conformance", spec, "-n", "1")
        assert result.exit_code == 2, spec
        assert words in result.output
    assert run("conformance").exit_code == 2
