"""`doodle deck`: a copy of the bundled deck to start one's own from, and a check of a deck file."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from doodle.cli.common import write_atomic
from doodle.game.dealer import MAX_PLAYERS
from doodle.game.deck import Deck, DeckError, bundled_deck, bundled_deck_text, load_deck


def describe(deck: Deck) -> str:
    """One line: the deck's name, its cards, how many can play with it, and its fingerprint."""
    players = min(MAX_PLAYERS, len(deck.start_cards))
    who = "1 player" if players == 1 else f"1 to {players} players"
    return (f"{deck.name!r}: {len(deck.start_cards)} start cards and {len(deck.patch_cards)} patch cards, "
            f"for {who} (fingerprint {deck.fingerprint})")


@click.command()
@click.option("--export", "export_to", type=click.Path(path_type=Path, dir_okay=False, allow_dash=True),
              help="Write the bundled deck (TOML, with its comments) to this file, '-' for standard output.")
@click.option("--check", "check_file", type=click.Path(path_type=Path, dir_okay=False),
              help="Check a deck file and say what is wrong, or what it holds.")
@click.option("--force", is_flag=True, help="With --export: replace the file if it exists.")
def deck(export_to: Path | None, check_file: Path | None, force: bool) -> None:
    """Your own cards: export the bundled deck to edit, check a deck file.

    Edit a copy (doodle deck --export my-cards.toml), check it (doodle deck --check my-cards.toml), then play
    with it: doodle deal --deck my-cards.toml, or doodle solo --deck my-cards.toml.
    """
    if export_to is None and check_file is None:
        click.echo(f"The bundled deck, {describe(bundled_deck())}.")
        click.echo("Make your own: doodle deck --export my-cards.toml, edit it, then "
                   "doodle deck --check my-cards.toml and doodle deal --deck my-cards.toml")
        return
    if export_to is not None and check_file is not None:
        raise click.UsageError("give --export or --check, not both")
    if check_file is not None:
        _check(check_file)
    else:
        _export(export_to, force)  # type: ignore[arg-type]


def _check(path: Path) -> None:
    try:
        checked = load_deck(path)
    except DeckError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"{path} is a good deck, {describe(checked)}.")


def _export(path: Path, force: bool) -> None:
    if str(path) == "-":
        click.echo(bundled_deck_text(), nl=False)
        return
    if path.is_dir():
        raise click.ClickException(f"{path} is a folder: give a file name such as {path / 'my-cards.toml'}")
    if path.exists() and not force:
        raise click.ClickException(f"{path} already exists (your own deck?): give another name, or add --force "
                                   "to replace it")
    try:
        write_atomic(path, bundled_deck_text())
    except OSError as error:
        raise click.ClickException(f"cannot write {path}: {error.strerror or error}; choose a folder you can "
                                   "write to") from None
    click.echo(f"wrote {path}: the bundled deck, to edit. Check it with: doodle deck --check {shlex.quote(str(path))}")
