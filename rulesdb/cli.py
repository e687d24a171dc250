"""The `rulesdb` program (the entry point, and `python -m rulesdb`).

It answers the commonest lookups (rule, glossary, refs, history, search, infractions) on the
quick path, without loading click (rulesdb.commands.quick), and hands everything else to the
click command group (rulesdb.commands.group), which reads the same arguments the same way.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING: a lookup does not import typing
if TYPE_CHECKING:
    from typing import Any


class Program:
    """`rulesdb`. Called, it runs the command its arguments name; anywhere click wants a
    command (click.testing.CliRunner, click.Context) it stands for the click group."""

    def __call__(self, args: list[str] | None = None, prog_name: str | None = None,
                 **kwargs: Any) -> Any:
        """Run the command `args` (default: the program's arguments) name, as the program
        does: a lookup ends the process once its output is flushed."""
        from .commands.quick import answer

        code = answer(sys.argv[1:] if args is None else list(args))
        if code is not None:
            from .commands.plain import leave

            leave(code)
        from .commands.group import cli as group

        return group(args, prog_name, **kwargs)

    def __getattr__(self, name: str) -> Any:
        from .commands.group import cli as group

        return getattr(group, name)


cli = Program()
