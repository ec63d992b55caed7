"""The `doodle` command line: a click group, one module per command. Thin: parse, call the library, print."""

import click

from doodle import __version__
from doodle.cli.deal import deal
from doodle.cli.patchwork import patchwork
from doodle.cli.patchwork import patchwork
from doodle.cli.score import score
from doodle.cli.sheet import sheet
from doodle.cli.solo import solo


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="doodle")
def main() -> None:
    """A table companion for Patchwork Doodle, and an engine for Patchwork."""


main.add_command(deal)
main.add_command(patchwork)
main.add_command(patchwork)
main.add_command(score)
main.add_command(sheet)
main.add_command(solo)
