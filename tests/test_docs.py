"""The README and docs/: the README stays a first page, the command reference is the
commands' own help, every console example prints what its page shows, every `rulesdb`
command of an instruction block parses, a JSON or Python block shown as a file is that
file, and every link between pages leads somewhere."""

from __future__ import annotations

import importlib.util
import json
import re
import shlex
import shutil
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from conftest import ROOT
from docs_examples import Example, blocks, console_examples, matches, rulesdb_commands

DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
BLOCKS = [block for page in PAGES for block in blocks(page, ROOT)]
EXAMPLES = [example for block in BLOCKS if block.lang == "console"
            for example in console_examples(block)]
INSTRUCTIONS = [(block, args) for block in BLOCKS if block.lang in ("bash", "sh", "shell", "yaml")
                for args in rulesdb_commands(block)]


def load_reference():
    spec = importlib.util.spec_from_file_location("cli_reference", DOCS / "cli_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_readme_is_a_first_page():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.encode()) <= 10_000
    first = readme.split("\n## ")[0]
    commands = re.findall(r"```bash\n(.*?)\n```", first, re.S)
    assert commands[:2] == [
        "python3 -m venv .venv && . .venv/bin/activate && pip install . && rulesdb serve",
        "python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[test]' && pytest",
    ]
    ci = (ROOT / ".ci" / "run").read_text()
    assert commands[1] in ci
    assert "pipx install ." in first  # installed as a tool, beside the clone's commands
    assert "~/.local/share/rulesdb/rules.db" in first  # where the database lives


def test_command_reference_is_the_commands_help():
    reference = load_reference()
    assert (DOCS / "cli.md").read_text(encoding="utf-8") == reference.reference(), (
        "docs/cli.md differs from the commands' help: run python docs/cli_reference.py")


def test_every_command_has_an_example_in_its_help():
    from rulesdb.commands.group import commands

    for name, command in commands().items():
        assert "Example:" in (command.help or ""), name


def test_there_are_examples_on_every_topic_page():
    pages = {example.page for example in EXAMPLES}
    topics = {str(page.relative_to(ROOT)) for page in PAGES} - {
        "docs/cli.md", "docs/README.md", "docs/figures.md", "docs/development.md",
        "docs/publishing.md", "docs/notebooks.md", "docs/database.md", "docs/site.md"}
    assert topics - pages == set()


@pytest.mark.parametrize("example", EXAMPLES, ids=str)
def test_console_example_prints_what_the_page_shows(example: Example, small_db, tmp_path,
                                                    monkeypatch):
    from rulesdb.cli import cli

    db = tmp_path / "rules.db"
    shutil.copyfile(small_db, db)  # an example may write; the next one sees the docs database
    monkeypatch.chdir(ROOT)  # examples name the project's files as a user in its folder does
    args = shlex.split(example.command)
    assert args[0] == "rulesdb", f"{example}: console examples run rulesdb only"
    result = CliRunner().invoke(cli, args[1:], env={"RULESDB_DB": str(db), "COLUMNS": "100"},
                                catch_exceptions=False)
    actual = [line.rstrip() for line in result.output.rstrip("\n").split("\n")]
    assert (result.exit_code, matches(example.expected, actual)) == (example.exit_code, True), (
        f"{example}\n--- the page shows (exit {example.exit_code}):\n"
        + "\n".join(example.expected)
        + f"\n--- it prints (exit {result.exit_code}):\n" + result.output)


@pytest.mark.parametrize("block,args", INSTRUCTIONS,
                         ids=[f"{b.page}:{b.line}: rulesdb {' '.join(a)}" for b, a in INSTRUCTIONS])
def test_instruction_commands_parse(block, args):
    from rulesdb.commands.group import commands

    if not args or args[0] in ("--help", "--version"):
        return
    assert args[0] in commands(), f"{block.page}:{block.line}: no command {args[0]!r}"
    command = commands()[args[0]]
    try:
        command.make_context(args[0], list(args[1:]), resilient_parsing=False)
    except click.exceptions.Exit:
        pass
    except click.BadParameter as exc:
        if not isinstance(getattr(exc.param, "type", None), click.Path):
            pytest.fail(f"{block.page}:{block.line}: rulesdb {' '.join(args)}: "
                        f"{exc.format_message()}")
        # a file the instructions name that this machine lacks: the command still parses
    except click.UsageError as exc:
        pytest.fail(f"{block.page}:{block.line}: rulesdb {' '.join(args)}: {exc.format_message()}")


LINK = re.compile(r"\]\(([^)#\s]+)(#[^)\s]*)?\)")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_links_between_pages_lead_somewhere(page: Path):
    text = page.read_text(encoding="utf-8")
    for target, _anchor in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue
        assert (page.parent / target).exists(), f"{page.relative_to(ROOT)}: {target}"


def test_every_docs_page_is_linked_from_the_index():
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    linked = {target for target, _ in LINK.findall(index)}
    assert {page.name for page in DOCS.glob("*.md")} - {"README.md"} <= linked


SHOWN_KINDS = {"json": ".json", "python": ".py"}


def shown_files() -> list[tuple[object, Path]]:
    """Each JSON or Python block whose paragraph before it ends with a colon and links a file
    of its kind: the file it shows."""
    found = []
    for block in BLOCKS:
        if block.lang not in SHOWN_KINDS:
            continue
        page = ROOT / block.page
        before = "\n".join(page.read_text(encoding="utf-8").split("\n")[:block.line - 1])
        paragraph = before.rstrip().split("\n\n")[-1]
        suffix = re.escape(SHOWN_KINDS[block.lang])
        links = re.findall(rf"\]\(([^)\s]+{suffix})\)", paragraph)
        if links and paragraph.endswith(":"):
            found.append((block, page.parent / links[-1]))
    return found


SHOWN = shown_files()


def test_the_pages_show_files():
    assert {block.page for block, _ in SHOWN} >= {"README.md", "docs/evaluator.md"}
    assert "python" in {block.lang for block, _ in SHOWN}


@pytest.mark.parametrize(("block", "path"), SHOWN, ids=[f"{b.page}:{b.line}" for b, _ in SHOWN])
def test_a_block_shown_as_a_file_is_that_file(block, path):
    if block.lang == "json":
        assert json.loads(block.body) == json.loads(path.read_text(encoding="utf-8"))
    else:
        assert block.body == path.read_text(encoding="utf-8")
