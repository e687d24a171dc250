"""The reference evaluator's commands: combat (play a scenario) and conformance (test an
engine against the reference; its report's text is `conformance_text`)."""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ..errors import InputError
from .combat_text import DEFAULT_SITE, Citations, narration
from .common import db_option, echo_json, json_option

site_option = click.option(
    "--site", default=DEFAULT_SITE, envvar="RULESDB_SITE", show_default=True,
    help="Address of the rules site (`rulesdb serve`) the rules cited link to "
         "(or set RULESDB_SITE).")


class Unmet(click.ClickException):
    """A scenario's `expect` is not met, or an engine disagrees; exits with code 1."""

    exit_code = 1


@click.command()
@click.argument("scenario_path", metavar="SCENARIO.json",
                type=click.Path(dir_okay=False, allow_dash=True, path_type=Path))
@site_option
@db_option
@json_option
def combat(scenario_path: Path, site: str, db_path: Path, as_json: bool) -> None:
    """Play a combat scenario with the reference evaluator: what happens, step by step.

    The scenario (JSON, see docs/evaluator.md and rulesdb/engine/scenario.schema.json)
    gives the players, the permanents, the attacks and blocks and how damage is divided.
    Each line of the story names the rules that decided it, with their first words (from
    the database, when there is one) and their page on the site. With --json, the outcome
    object: damage dealt and prevented, life gained, deaths and losses with their rules,
    life and poison changes, who won and when. A malformed scenario (an unknown keyword, an
    id used twice, an illegal block …) is one line naming the field, exit code 2; a
    scenario whose `expect` is not met exits with code 1.

    Example:

        rulesdb combat rulesdb/engine/corpus/702.19b-example-1.json

        rulesdb combat my-combat.json --json
    """
    from ..engine.fields import ScenarioError
    from ..engine.narrate import narrate
    from ..engine.outcome import outcome, run, unmet
    from ..engine.scenario import load

    data = read_json(scenario_path)
    try:
        evaluation = run(load(data))
    except ScenarioError as exc:
        raise InputError(f"{scenario_path}: {exc}") from None
    result = outcome(evaluation)
    if as_json:
        echo_json(result)
    else:
        click.echo(narration(narrate(evaluation), Citations(db_path, site)))
    expected = evaluation.scenario.expect
    if expected:
        problems = unmet(expected, result)
        if problems:
            raise Unmet(f"{scenario_path}: the outcome does not meet `expect`: "
                        + "; ".join(problems))


def percentage(value: str | None) -> float | None:
    """`--require 90%` (or 90) as the share 0.9; BadParameter outside 0-100%."""
    if value is None:
        return None
    try:
        share = float(value.strip().removesuffix("%")) / 100
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a percentage such as 90%",
                                 param_hint="--require") from None
    if not 0 <= share <= 1:
        raise click.BadParameter(f"{value!r} is not between 0% and 100%",
                                 param_hint="--require")
    return share


@click.command()
@click.argument("engine_spec", metavar="MODULE:FUNCTION", required=False)
@click.option("-n", "--scenarios", "count", type=click.IntRange(1), default=2000,
              show_default=True, help="How many random scenarios to play.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the scenarios (the same seed, the same scenarios).")
@click.option("--require", "require", metavar="N%",
              help="Fail (exit code 1) when fewer than N% of the scenarios are compared: the "
                   "engine declared the others unsupported.")
@click.option("--export", "export_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Write the scenarios and the reference's outcomes as JSON files here "
                   "(and, with an engine, each cause's report).")
@click.option("--budget", type=click.IntRange(0), default=3000, show_default=True,
              help="Variants tried when shrinking each case shrunk.")
@site_option
@db_option
@json_option
def conformance(engine_spec: str | None, count: int, seed: int, require: str | None,
                export_dir: Path | None, budget: int, site: str, db_path: Path,
                as_json: bool) -> None:
    """Test a combat engine against the reference evaluator on random scenarios.

    MODULE:FUNCTION names a Python function (a module importable from here, or a file:
    path/to/engine.py:evaluate) taking a scenario dict and returning an outcome dict in
    the documented shape; it is compared on the fields it returns. Its own divisions of
    combat damage (its `damage` records) are its choices: each is checked against the
    rules, a legal one is replayed by the reference, an illegal one is a disagreement. A
    scenario it cannot express it declares by raising rulesdb.conformance.Unsupported (or
    returning None): not compared, counted with the reason. Disagreements are grouped into
    causes, one per fault; each shows the rules deciding it and a shrunk smallest
    scenario. --export DIR writes the scenarios and the reference's outcomes for engines in
    other languages (no engine needed). Exit code 0 when the engine agrees on every
    scenario compared, 1 when it disagrees, compares none, or compares fewer than
    --require asks, 2 when it cannot be loaded or an option is wrong.

    Example:

        rulesdb conformance rulesdb.engine.outcome:evaluate -n 10000

        rulesdb conformance my_engine.py:play --require 90% --json > report.json

        rulesdb conformance --export corpus/ -n 500
    """
    from ..conformance.run import check, export
    from .conformance_text import report_text

    share = percentage(require)
    if engine_spec is None and export_dir is None:
        raise click.UsageError("give MODULE:FUNCTION, --export DIR, or both")
    if export_dir is not None:
        written = export(export_dir, count, seed)
        click.echo(f"wrote {written} scenarios and their outcomes to {export_dir}", err=True)
        if engine_spec is None:
            return
    assert engine_spec is not None
    engine = load_engine(engine_spec)
    with _progress(count, as_json) as step:
        report = check(engine, count, seed, budget, step)
    cite = Citations(db_path, site)
    for cause in report["causes"]:
        cause["rules_cited"] = cite.as_json(cause["rules"])
    report["require"] = share
    if export_dir is not None:
        _export_causes(export_dir, report)
    if as_json:
        echo_json({"engine": engine_spec, **report})
    else:
        click.echo(report_text(engine_spec, report, cite))
    compared = report["compared"]
    if report["causes"]:
        raise Unmet(f"{engine_spec} disagrees with the reference on "
                    f"{report['disagreed']:,} of {compared:,} scenarios compared")
    if not compared:
        raise Unmet(f"{engine_spec} compared none of {count:,} scenarios")
    if share is not None and report["compared_share"] < share:
        raise Unmet(f"{engine_spec} compared {100 * report['compared_share']:.1f}% of the "
                    f"scenarios, less than the {100 * share:g}% --require asks")


def read_json(path: Path) -> Any:
    """The JSON value in `path` ('-': standard input); InputError naming the position."""
    try:
        text = sys.stdin.read() if str(path) == "-" else path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: {exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: line {exc.lineno}, column {exc.colno}: {exc.msg}") from None


def load_engine(spec: str) -> Callable[[dict[str, Any]], Any]:
    """The function MODULE:FUNCTION (or path/to/file.py:FUNCTION) names."""
    module_name, _, function = spec.rpartition(":")
    if not module_name or not function:
        raise InputError(f"{spec}: expected MODULE:FUNCTION, such as my_engine:evaluate")
    try:
        if module_name.endswith(".py") or os.sep in module_name or "/" in module_name:
            path = Path(module_name)
            loader = importlib.util.spec_from_file_location(path.stem, path)
            if loader is None or loader.loader is None or not path.is_file():
                raise ImportError(f"no Python file {path}")
            module = importlib.util.module_from_spec(loader)
            sys.path.insert(0, str(path.resolve().parent))
            loader.loader.exec_module(module)
        else:
            if os.getcwd() not in sys.path and "" not in sys.path:
                sys.path.insert(0, os.getcwd())
            module = importlib.import_module(module_name)
    except Exception as exc:  # any error importing the user's code is theirs to see
        raise InputError(f"{spec}: cannot import {module_name}: "
                         f"{type(exc).__name__}: {exc}") from None
    found = getattr(module, function, None)
    if not callable(found):
        raise InputError(f"{spec}: {module_name} has no function {function}")
    return found


class _progress:
    """A progress bar on standard error for an interactive run."""

    def __init__(self, count: int, quiet: bool) -> None:
        self.bar = None if quiet or not sys.stderr.isatty() else click.progressbar(
            length=count, label="scenarios", file=sys.stderr)

    def __enter__(self) -> Callable[[int], None] | None:
        if self.bar is None:
            return None
        self.bar.__enter__()
        return lambda _index: self.bar.update(1)  # type: ignore[union-attr]

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)


def _export_causes(directory: Path, report: dict[str, Any]) -> None:
    folder = directory / "disagreements"
    folder.mkdir(parents=True, exist_ok=True)
    for cause in report["causes"]:
        (folder / f"{cause['number']}.json").write_text(
            json.dumps(cause, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


COMMANDS = [combat, conformance]
