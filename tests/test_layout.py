"""The package layout shows the pipeline, and its import direction holds: a stage imports only
the stages below it (rulesdb/__init__.py lists them), never one above or beside it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Bottom to top; a stage may import the stages of lower rank, and itself.
STAGES = {
    "errors": 0, "numbers": 0, "background": 0, "ingest": 0,
    "db": 1, "engine": 1, "places": 1,
    "lookup": 2, "conformance": 2,
    "lineage": 3,
    "trace": 4,
    "layers": 5,
    "sources": 6,
    "analysis": 7, "site": 7,
    "commands": 8, "cli": 9, "__main__": 10,
}


def modules() -> list[tuple[str, Path]]:
    """Every module of the package with its dotted name (ingest/ is rulesdb.ingest)."""
    found = []
    homes = ((ROOT / "rulesdb", ("rulesdb",)), (ROOT / "ingest", ("rulesdb", "ingest")))
    for folder, package in homes:
        for path in sorted(folder.rglob("*.py")):
            parts = (*package, *path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found.append((".".join(parts), path))
    return found


def stage_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "rulesdb" else None


def imported(module: str, path: Path) -> set[str]:
    """The rulesdb modules `path` imports anywhere in it (in functions too), absolute."""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if node.module is None or target in {"rulesdb"}:
                found.update(f"{target}.{alias.name}" for alias in node.names)
            else:
                found.add(target)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    # the package's own version (rulesdb/__init__.py) is no stage
    return {name for name in found if name.startswith("rulesdb.")} - {"rulesdb.__version__"}


@pytest.mark.parametrize(("module", "path"), modules(), ids=[m for m, _ in modules()])
def test_imports_go_down(module: str, path: Path) -> None:
    stage = stage_of(module)
    if stage is None:  # the package's own __init__: a docstring, nothing imported
        assert imported(module, path) == set()
        return
    assert stage in STAGES, f"{module}: stage {stage} is not in the list"
    wrong = sorted(
        target for target in imported(module, path)
        if stage_of(target) != stage and STAGES[stage_of(target)] >= STAGES[stage]
    )
    assert wrong == [], f"{module} imports a stage at or above its own"


def test_stages_are_the_packages() -> None:
    on_disk = {path.stem for path in (ROOT / "rulesdb").glob("*.py") if path.stem != "__init__"}
    on_disk |= {path.parent.name for path in (ROOT / "rulesdb").glob("*/__init__.py")}
    assert sorted(on_disk | {"ingest"}) == sorted(STAGES)


def test_few_top_level_modules() -> None:
    top = sorted(path.name for path in (ROOT / "rulesdb").glob("*.py"))
    assert len(top) <= 6, top


def test_the_checker_sees_a_wrong_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from ..sources.build import build\n")
    assert imported("rulesdb.db.bad", bad) == {"rulesdb.sources.build"}
