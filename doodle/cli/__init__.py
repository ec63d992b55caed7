"""The `doodle` command line: a click group, one module per command. Thin: parse, call the library, print.

Commands are imported only when run (click's lazy-loading pattern), so `doodle deal` does not pay for OpenCV,
reportlab or Textual.
"""

from __future__ import annotations

import importlib

import click

from doodle import __version__

COMMANDS = {
    "deal": "doodle.cli.deal:deal",
    "patchwork": "doodle.cli.patchwork:patchwork",
    "score": "doodle.cli.score:score",
    "sheet": "doodle.cli.sheet:sheet",
    "solo": "doodle.cli.solo:solo",
}


class LazyGroup(click.Group):
    """A group whose subcommands live in modules imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        target = COMMANDS.get(name)
        if target is None:
            return None
        module_name, attribute = target.split(":")
        return getattr(importlib.import_module(module_name), attribute)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="doodle")
def main() -> None:
    """A table companion for Patchwork Doodle, and an engine for Patchwork."""
