"""`doodle deal`: the digital die and card dealer for 1 to 6 players at a real table."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from doodle.cli.common import SEED, echo_json, input_stream, use_color
from doodle.cli.deal_scores import EMPTY, ROUNDS, ScorePad, parse_entry, whole_number
from doodle.cli.deal_view import View
from doodle.game.dealer import MAX_PLAYERS, MIN_PLAYERS, Dealer
from doodle.game.deck import DeckError, load_deck
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
        number = whole_number(answer, low, high)
        if number is not None:
            return number
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
              help="A deck file (TOML) to use instead of the bundled cards (doodle deck --export FILE writes a "
                   "copy to edit).")
@click.option("--auto", is_flag=True, help="Deal the whole game at once, without waiting for input.")
@click.option("--json", "as_json", is_flag=True, help="With --auto: one JSON object per event (JSON lines).")
@click.option("--color/--no-color", default=None, help="Colour (default: when on a terminal).")
def deal(names: tuple[str, ...], players: int | None, seed: int | None, deck_file: Path | None, auto: bool,
         as_json: bool, color: bool | None) -> None:
    """Deal a game of Patchwork Doodle: start cards, the circle, the die, rounds and scorings.

    Give the players' NAMES (or --players N). Each turn, press Enter to roll; q quits. After each scoring a
    table shows every score so far; type e.g. 'Ann 2 25' there to give or correct one.
    Everyone needs a printed sheet (doodle sheet) and a pencil; for your own cards see doodle deck.
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
        replay = replay_command(dealer.seed, player_names, deck_file)
        _deal_to_table(dealer, player_names, View(deck, use_color(color)), pause=not auto, replay=replay)
    except Quit:
        click.echo("Dealing stopped.")


def replay_command(seed: int, names: list[str], deck_file: Path | None) -> str:
    """The command that deals this game again, quoted for the shell (names with spaces, a deck path)."""
    words = ["doodle", "deal", "--seed", str(seed)]
    if deck_file is not None:
        words += ["--deck", str(deck_file)]
    if any(name.startswith("-") for name in names):
        words.append("--")  # a name such as "-x" is a name, not an option
    return shlex.join(words + names)


def _deal_to_table(dealer: Dealer, names: list[str], view: View, pause: bool, replay: str) -> None:
    """Show the deal event by event; with `pause`, wait for Enter before each roll and take scores."""
    pad = ScorePad(names)
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
            if pause:
                for name in names:
                    ask_round_score(pad, name, event["round"])
                take_corrections(pad, event["round"], final=False)
        elif kind == "round":
            click.echo()
            click.echo(f"Round {event['round']}: the 2 cards left move next to the token, 6 new cards follow.")
            click.echo("The circle, clockwise from the token: " + view.circle(event["circle"]))
            if pause:
                ask("Press Enter to roll (q quits) ")
        elif kind == "end":
            _final_scores(pad, view, pause)
            click.echo(f"\nReplay this deal with: {replay}")


def ask_round_score(pad: ScorePad, name: str, round_number: int, note: str = "") -> None:
    """Ask `name`'s score for a round (Enter leaves it unknown) and keep it once any doubt is answered."""
    score = ask_number(f"  {name}'s score for round {round_number}{note} (Enter to skip): ", 0, MAX_ROUND_SCORE)
    pad.rounds[name][round_number - 1] = confirmed(pad, name, round_number, score)


def confirmed(pad: ScorePad, name: str, round_number: int, score: int | None) -> int | None:
    """`score` once it raises no doubt or the group keeps it anyway; a retyped score is checked again. Enter
    gives up the new score: the round keeps what it had (unknown when it had nothing)."""
    before = pad.rounds[name][round_number - 1]
    while score is not None:
        doubt = pad.doubt(name, round_number, score)
        if doubt is None:
            return score
        click.echo(f"  Check {name}'s sheet: {doubt}.")
        keeps = "leaves it unknown" if before is None else f"keeps {before}"
        while True:
            answer = ask(f"  Keep {score} for round {round_number}? Type y to keep it, or the right score "
                         f"(Enter {keeps}): ")
            if not answer:
                return before
            if answer.lower() in {"y", "yes"}:
                return score
            retyped = whole_number(answer, 0, MAX_ROUND_SCORE)
            if retyped is not None:
                score = retyped
                break
            click.echo(f"  please type y, or a whole number from 0 to {MAX_ROUND_SCORE}")
    return None


def take_corrections(pad: ScorePad, scored: int, final: bool) -> None:
    """Show the running table and take typed entries (`Ann 2 25`) until Enter; at the end, say what is missing."""
    example = f"{pad.names[-1]} {scored} 25" if not final else f"{pad.names[-1]} empty 4"
    while True:
        click.echo()
        click.echo(pad.table(scored, final))
        missing = [f"{name}'s {' and '.join(gaps)}" for name in pad.names if (gaps := pad.missing(name, scored, final))]
        if missing:
            click.echo(f"Not known yet: {'; '.join(missing)}.")
        answer = ask(f"To give or correct any score, type the player, the round{' (or empty)' * final} and the "
                     f"score, e.g. '{example}'. Enter {'ends the game' if final else 'goes on'} (q quits): ")
        if not answer:
            return
        try:
            entry = parse_entry(answer, pad, scored, final)
        except ValueError as error:
            click.echo(f"  {error}")
            continue
        if entry.slot == EMPTY:
            pad.empty[entry.name] = entry.value
        else:
            pad.rounds[entry.name][int(entry.slot) - 1] = confirmed(pad, entry.name, int(entry.slot), entry.value)


def _final_scores(pad: ScorePad, view: View, pause: bool) -> None:
    click.echo()
    click.echo(view.banner("Final scoring: round 1 + round 2 + round 3 - 1 point per empty cell"))
    if not pause:
        click.echo("Add up your sheets. Highest total wins; a tie is shared.")
        return
    for name in pad.names:
        for round_number in range(1, ROUNDS + 1):
            if pad.rounds[name][round_number - 1] is None:
                ask_round_score(pad, name, round_number, note=", not given yet")
        pad.empty[name] = ask_number(f"  {name}'s empty cells (Enter to skip): ", 0, SIZE * SIZE)
    take_corrections(pad, ROUNDS, final=True)
    result = pad.winners()
    if result is None:
        unknown = [name for name in pad.names if pad.total(name) is None]
        whose = _and([f"{name}'s" for name in unknown])
        them = "totals are not known: add them up on the sheets" if len(unknown) > 1 else \
            "total is not known: add it up on the sheet"
        click.echo(f"\nNo winner declared: {whose} {them} (highest total wins; a tie is shared).")
        return
    winners, best = result
    width = max(len(name) for name in pad.names)
    for name in sorted(pad.names, key=pad.total, reverse=True):  # type: ignore[arg-type]
        rounds = " + ".join(str(score) for score in pad.rounds[name])
        click.echo(f"  {name:<{width}}  {rounds} - {pad.empty[name]} empty = {pad.total(name)}")
    verb = "wins" if len(winners) == 1 else "share the victory"
    click.echo(view.style(f"\n{_and(winners)} {verb} with {best} points!", bold=True, fg="green"))


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
