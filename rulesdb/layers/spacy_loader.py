"""spaCy imported without its command-line interface, which the terms layer never uses.

`import spacy` runs spaCy's package `__init__`, which imports `spacy.cli` (typer, requests,
weasel, httpx, rich, jinja2: about 0.15 s of the half second the import takes) for one name,
`spacy.info`. The tokenizer and the lookup tables need none of it, and every `rulesdb add`
or `build` waits for this import. So while spaCy is imported, `spacy.cli.info` is a stand-in
module whose `info` loads the real one when called; the stand-ins leave `sys.modules` at
once, so a later `import spacy.cli` imports the real package. This is done only when
spaCy's `__init__` imports its command line by exactly that one line (else spaCy is imported
as usual).
"""

from __future__ import annotations

import importlib.util
import sys
import types
from typing import Any

CLI_IMPORT = "from .cli.info import info"


def _info(*args: Any, **kwargs: Any) -> Any:
    """spacy.info, the real one, imported when called."""
    from spacy.cli.info import info

    return info(*args, **kwargs)


def _cli_import_is_the_known_one() -> bool:
    spec = importlib.util.find_spec("spacy")
    if spec is None or spec.origin is None:
        return False
    try:
        with open(spec.origin, encoding="utf-8") as init:
            lines = [line.split("#")[0].strip() for line in init]
    except OSError:
        return False
    cli_lines = [line for line in lines if ".cli" in line]
    return cli_lines == [CLI_IMPORT]


def import_spacy() -> types.ModuleType:
    """The spacy package (see the module docstring)."""
    if "spacy" in sys.modules or not _cli_import_is_the_known_one():
        import spacy

        return spacy
    stand_ins = {"spacy.cli": types.ModuleType("spacy.cli"),
                 "spacy.cli.info": types.ModuleType("spacy.cli.info")}
    stand_ins["spacy.cli.info"].info = _info  # type: ignore[attr-defined]
    sys.modules.update(stand_ins)
    try:
        import spacy
    finally:
        for name, module in stand_ins.items():
            if sys.modules.get(name) is module:
                del sys.modules[name]
    if getattr(spacy, "cli", None) is stand_ins["spacy.cli"]:
        del spacy.cli  # `spacy.cli` is the real package once something imports it
    return spacy
