"""`python -m rulesdb`."""

from .cli import cli

cli(prog_name="rulesdb")
