"""The `doodle` command line: a click group, one module per command. Thin: parse, call the library, print.

Commands are imported only when run (click's lazy-loading pattern), so `doodle deal` does not pay for OpenCV,
reportlab or Textual.
"""

from __future__ import annotations

import errno
import importlib
import os
import sys
from typing import Any

import click

from doodle import __version__
from doodle.cli.common import ascii_fallback_streams

COMMANDS = {
    "deal": "doodle.cli.deal:deal",
    "deck": "doodle.cli.deck:deck",
    "patchwork": "doodle.cli.patchwork:patchwork",
    "score": "doodle.cli.score:score",
    "sheet": "doodle.cli.sheet:sheet",
    "solo": "doodle.cli.solo:solo",
    "table": "doodle.cli.table:table",
}

SUMMARIES = {
    "deal": "Deal a game of Patchwork Doodle: start cards, the circle, the die, rounds and scorings.",
    "deck": "Your own cards: export the bundled deck to edit, check a deck file.",
    "patchwork": "Patchwork for two players: play against a bot or a friend, or let bots play each other.",
    "score": "Score quilts from photos of doodle score sheets or from text grids.",
    "sheet": "Write printable Patchwork Doodle score sheets as a PDF.",
    "solo": "Solo score attack: play Patchwork Doodle alone and beat your best (over 100 is a good score).",
    "table": "Serve the table on the local network: the big screen deals, every player joins with a phone.",
}
"""Each command's first help sentence, for `doodle --help`: listing the commands then imports none of them (all
seven would cost over a second, reportlab's alone half of it). A test holds them equal to the commands' own help."""


FULL_DEVICE = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}
"""Errors only a write raises: the output went nowhere."""


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

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """click's list of commands, written from SUMMARIES as click shortens each command's help."""
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = [(name, click.Command(name, help=SUMMARIES[name]).get_short_help_str(limit))
                for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """click's main, with a closed standard output refused and a full disk on it said plainly (click already
        handles a closed pipe, EPIPE), and ASCII drawings where the output's encoding cannot write ours. Here
        rather than around a command: the group's own --help and --version write too."""
        if sys.stdout is None:  # started with file descriptor 1 closed (`>&-`): nothing could be shown
            if sys.stderr is not None:
                ascii_fallback_streams()
                click.echo("Error: standard output is closed, so nothing could be shown: run the command again "
                           "with its output going to the terminal or a file (e.g. > out.txt)", err=True)
            sys.exit(1)
        ascii_fallback_streams()
        try:
            return super().main(*args, **kwargs)
        except OSError as error:
            if error.errno not in FULL_DEVICE:
                raise
            _discard_stdout()
            click.echo(f"Error: cannot write the output: {error.strerror}; free some space, or send the output "
                       "elsewhere", err=True)
            sys.exit(1)


def _discard_stdout() -> None:
    """Point standard output at the null device, so what is still buffered for it does not fail again (with a
    traceback) when Python flushes it on the way out."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    try:
        os.dup2(null, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real file behind stdout (a test's capture): nothing to do
        pass
    finally:
        os.close(null)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="doodle")
def main() -> None:
    """A table companion for Patchwork Doodle, and an engine for Patchwork."""
