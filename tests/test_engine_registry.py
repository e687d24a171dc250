"""The reference evaluator's registry: every enforced rule exists in cr-2025-06-06 (the release
read from the shipped history archive) and every rule of 704.5 is enforced or listed as not
modelled."""

from __future__ import annotations

import re

from rulesdb.engine.registry import EDITION, NOT_MODELLED, registry
from rulesdb.sources.history import load_archives, read_archive

from conftest import SOURCES

# --- registry ---------------------------------------------------------------------------

def cr_numbers() -> set[str]:
    (archive,) = load_archives(SOURCES / "catalog.toml")
    (release,) = [source for source in read_archive(archive, SOURCES)
                  if source.name == f"MagicCompRules-{EDITION.removeprefix('cr-')}.txt"]
    text = release.data.decode("utf-8-sig")
    return set(re.findall(r"^(\d{3}\.\d+[a-z]?)\.? ", text, re.M))


def test_every_enforces_id_resolves_in_cr_2025_06_06():
    numbers = cr_numbers()
    missing = sorted({e.rule for e in registry()} - numbers)
    assert missing == []


def test_every_rule_of_704_5_is_enforced_or_listed_as_not_modelled():
    subrules = {n for n in cr_numbers() if re.fullmatch(r"704\.5[a-z]", n)}
    enforced = {e.rule for e in registry()}
    assert len(subrules) == 24
    assert subrules - enforced - set(NOT_MODELLED) == set()
    assert set(NOT_MODELLED) & enforced == set()
    assert all(NOT_MODELLED.values())


def test_the_registry_holds_every_module_that_declares_enforcements():
    engine = SOURCES.parent.parent / "rulesdb" / "engine"
    declaring = {f"rulesdb.engine.{path.stem}" for path in engine.glob("*.py")
                 if "@enforces(" in path.read_text() and path.stem != "registry"}
    assert declaring == {e.module for e in registry()}
