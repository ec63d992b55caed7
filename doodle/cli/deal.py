"""`doodle deal`: the digital die and card dealer for 1 to 6 players at a real table."""

from __future__ import annotations

from pathlib import Path

import click

from doodle.cli.common import SEED, echo_json, input_stream, use_color
from doodle.cli.deal_view import View
from doodle.game.dealer import MAX_PLAYERS, MIN_PLAYERS, Dealer
from doodle.game.deck import Deck, DeckError, load_deck
from doodle.game.table import table_events
from doodle.quilt import MAX_ROUND_SCORE, SIZE


class Quit(Exception):
    """The user typed q."""


def ask(prompt: str) -> str:
    """One line from stdin; a closed stdin stops the deal with a clear message, `q` quits."""
    click.echo(prompt, nl=False)
    line = input_stream().readline()
    if not line:
        click.echo()
        raise click.ClickException("input closed: the deal needs a keyboard (use --auto to deal without input)")
    answer = line.strip()
    if answer.lower() in {"q", "quit", "exit"}:
        raise Quit
    return answer


def ask_number(prompt: str, low: int, high: int) -> int | None:
    """A whole number in [low, high], or None when the user just presses Enter."""
    while True:
        answer = ask(prompt)
        if not answer:
            return None
        if answer.lstrip("-").isdigit() and low <= int(answer) <= high:
            return int(answer)
        click.echo(f"  please type a whole number from {low} to {high}, or press Enter to skip")


def ask_names() -> list[str]:
    click.echo(f"Who plays? Type {MIN_PLAYERS} to {MAX_PLAYERS} names, one per line; an empty line when done.")
    names: list[str] = []
    while len(names) < MAX_PLAYERS:
        name = ask(f"  player {len(names) + 1}: ")
        if not name:
            if names:
                break
            click.echo("  at least one player, please")
            continue
        if name in names:
            click.echo(f"  {name} is already playing; give another name")
            continue
        names.append(name)
    return names


@click.command()
@click.argument("names", nargs=-1)
@click.option("-p", "--players", type=int, help=f"Number of players ({MIN_PLAYERS}-{MAX_PLAYERS}) instead of names.")
@click.option("--seed", type=SEED,
              help="Deal this game again: the same seed gives the same game.")
@click.option("--deck", "deck_file", type=click.Path(path_type=Path, dir_okay=False),
              help="A deck file (TOML) to use instead of the bundled cards.")
@click.option("--auto", is_flag=True, help="Deal the whole game at once, without waiting for input.")
@click.option("--json", "as_json", is_flag=True, help="With --auto: one JSON object per event (JSON lines).")
@click.option("--color/--no-color", default=None, help="Colour (default: when on a terminal).")
def deal(names: tuple[str, ...], players: int | None, seed: int | None, deck_file: Path | None, auto: bool,
         as_json: bool, color: bool | None) -> None:
    """Deal a game of Patchwork Doodle: start cards, the circle, the die, rounds and scorings.

    Give the players' NAMES (or --players N). Each turn, press Enter to roll; q quits.
    Everyone needs a printed sheet (doodle sheet) and a pencil.
    """
    if players is not None and names:
        raise click.UsageError("give either player names or --players, not both")
    if players is not None and not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise click.BadParameter(f"Patchwork Doodle is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}",
                                 param_hint="--players")
    if len(names) > MAX_PLAYERS:
        raise click.UsageError(f"{len(names)} names given: Patchwork Doodle is for at most {MAX_PLAYERS} players")
    if any(not name.strip() for name in names):
        raise click.UsageError("a player name is empty: give each player a name (or use --players N)")
    if len(set(names)) != len(names):
        raise click.UsageError("two players have the same name: give each a different one")
    if as_json and not auto:
        raise click.UsageError("--json goes with --auto (the interactive dealer talks to people)")
    try:
        deck = load_deck(deck_file)
    except DeckError as error:
        raise click.ClickException(str(error)) from None
    player_names = list(names) or ([f"Player {i + 1}" for i in range(players)] if players else [])
    if not player_names and auto:
        player_names = ["Player 1"]
    try:
        if not player_names:
            player_names = ask_names()
        try:
            dealer = Dealer.new(len(player_names), seed, deck)
        except (ValueError, DeckError) as error:
            raise click.ClickException(str(error)) from None
        if as_json:
            for event in table_events(dealer):
                echo_json(event)
            return
        _deal_to_table(dealer, deck, player_names, View(deck, use_color(color)), pause=not auto)
    except Quit:
        click.echo("Dealing stopped.")


def _deal_to_table(dealer: Dealer, deck: Deck, names: list[str], view: View, pause: bool) -> None:
    """Show the deal event by event; with `pause`, wait for Enter before each roll and take scores."""
    scores: dict[str, list[int | None]] = {name: [] for name in names}
    replay = f"doodle deal --seed {dealer.seed} " + " ".join(_quote(name) for name in names)
    for event in table_events(dealer):
        kind = event["event"]
        if kind == "setup":
            click.echo(view.banner(f"Patchwork Doodle · {len(names)} player{'s' * (len(names) > 1)} · "
                                   f"seed {dealer.seed}"))
            click.echo(f"Replay this deal with: {replay}")
            click.echo("Start cards: draw yours anywhere on your sheet, rotated or mirrored as you like.\n")
            click.echo(view.start_cards(names, event["start_cards"]))
            click.echo("\nThe circle, clockwise from the token: " + view.circle(event["circle"]))
            if pause:
                ask("\nPress Enter to roll for the first turn (q quits) ")
        elif kind == "turn":
            click.echo()
            click.echo(view.turn(event) if event["roll"] is not None else view.final_turn(event))
            if pause:
                next_step = f"score round {event['round']}" if event["turn"] == 6 else "roll"
                ask(f"\nDraw it, or pass. Press Enter to {next_step} (q quits) ")
        elif kind == "scoring":
            click.echo()
            click.echo(view.banner(f"Intermediate scoring, round {event['round']}"))
            click.echo("Everyone scores one rectangle of shaded cells: the largest square inside it, "
                       "+1 per further row or column (4x3 = 10, 4x5 = 17). A single square may still be used.")
            for name in names:
                scores[name].append(
                    ask_number(f"  {name}'s score for round {event['round']} (Enter to skip): ", 0, MAX_ROUND_SCORE)
                    if pause else None
                )
        elif kind == "round":
            click.echo()
            click.echo(f"Round {event['round']}: the 2 cards left move next to the token, 6 new cards follow.")
            click.echo("The circle, clockwise from the token: " + view.circle(event["circle"]))
            if pause:
                ask("Press Enter to roll (q quits) ")
        elif kind == "end":
            _final_scores(names, scores, view, pause)
            click.echo(f"\nReplay this deal with: {replay}")


def _final_scores(names: list[str], scores: dict[str, list[int | None]], view: View, pause: bool) -> None:
    click.echo()
    click.echo(view.banner("Final scoring: round 1 + round 2 + round 3 - 1 point per empty cell"))
    totals: dict[str, int] = {}
    for name in names:
        rounds = scores[name]
        if not pause or any(score is None for score in rounds):
            continue
        empty = ask_number(f"  {name}'s empty cells (Enter to skip): ", 0, SIZE * SIZE)
        if empty is not None:
            totals[name] = sum(rounds) - empty  # type: ignore[arg-type]
    if not totals:
        click.echo("No scores were given: add up your sheets. Highest total wins; a tie is shared.")
        return
    width = max(len(name) for name in names)
    for name in sorted(totals, key=totals.__getitem__, reverse=True):
        rounds = " + ".join(str(score) for score in scores[name])
        click.echo(f"  {name:<{width}}  {rounds} - {sum(scores[name]) - totals[name]} empty = {totals[name]}")  # type: ignore[arg-type]
    best = max(totals.values())
    winners = [name for name, total in totals.items() if total == best]
    verb = "wins" if len(winners) == 1 else "share the victory"
    click.echo(view.style(f"\n{' and '.join(winners)} {verb} with {best} points!", bold=True, fg="green"))


def _quote(name: str) -> str:
    return name if name.replace("-", "").replace("_", "").isalnum() else repr(name)
