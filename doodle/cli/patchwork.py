"""`doodle patchwork`: the 2-player base game. `play` against a bot or a friend; `selfplay` for bot matches."""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

import click

from doodle.cli.common import SEED, echo_json, input_stream, use_color, write_atomic
from doodle.cli.common import interactive as is_interactive  # `interactive` names a flag below
from doodle.patchwork import EDITIONS, Game, RecordError
from doodle.patchwork.bots import BOT_NAMES, make_bot, play_game
from doodle.patchwork.display import position_text
from doodle.patchwork.plain import PlainMatch, Quit

OPPONENTS = (*BOT_NAMES, "human")


@click.group()
def patchwork() -> None:
    """Patchwork for two players: play against a bot or a friend, or let bots play each other."""


def _new_game(seed: int | None, edition: str) -> Game:
    return Game.new(seed=seed, edition=edition)


def _read_record(path: Path) -> Game:
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise click.ClickException(f"cannot read {path}: {error.strerror}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise click.ClickException(f"{path} is not a JSON game record: {error}") from None
    try:
        return Game.from_record(record)
    except RecordError as error:
        raise click.ClickException(f"{path}: {error}") from None


def _save_record(game: Game, path: Path | None, quiet: bool = False) -> None:
    if path is None:
        return
    try:
        write_atomic(path, json.dumps(game.to_record(), indent=1) + "\n")
    except OSError as error:
        raise click.ClickException(f"cannot write the game record to {path}: {error.strerror}") from None
    if not quiet:
        click.echo(f"Game record written to {path}.", err=True)


@patchwork.command()
@click.option(
    "--vs",
    "opponent",
    type=click.Choice(OPPONENTS),
    default="mcts",
    show_default=True,
    help="Who you play against; 'human' for two people at one keyboard.",
)
@click.option(
    "--seed", type=SEED, help="Shuffle the patches with this seed (a replayable game)."
)
@click.option(
    "--edition",
    type=click.Choice(EDITIONS),
    default="current",
    show_default=True,
    help="Which printing's time track (where the leather patches lie).",
)
@click.option("--second", is_flag=True, help="Let the other side start (you are player 2).")
@click.option(
    "--seconds",
    type=click.FloatRange(0, min_open=True),
    default=1.0,
    show_default=True,
    help="The MCTS bot's thinking time per move.",
)
@click.option(
    "--plain",
    is_flag=True,
    help="Typed commands, one per line (for scripts and plain terminals). "
    "Used anyway when input or output is not a terminal.",
)
@click.option(
    "--record",
    "record_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Write the game record (JSON) to this file: at the start (so a bad path is said at once) and at the end "
    "(also when you quit early).",
)
@click.option(
    "--resume",
    "resume_path",
    type=click.Path(path_type=Path, dir_okay=False, exists=True),
    help="Go on with the game recorded in this file (its record is then updated there).",
)
@click.option("--color/--no-color", default=None, help="Colour the quilts in --plain mode (default: on a terminal).")
def play(opponent: str, seed: int | None, edition: str, second: bool, seconds: float, plain: bool,
         record_path: Path | None, resume_path: Path | None, color: bool | None) -> None:  # fmt: skip
    """Play Patchwork in the terminal.

    The full-screen game shows both quilts, buttons, income, the time track with both tokens and the next three
    patches. Pick a patch with 1, 2 or 3, move it with the arrow keys, turn it with r, mirror it with m, and
    press Enter to place it where it shows green; a advances. Press ? for every key.

    In --plain mode type moves such as '12 c4 r1 m' (patch 12, top-left corner on c4, turned once, mirrored),
    'advance', or 'leather e5'; type 'help' for the rest.
    """
    if resume_path is not None:
        game = _read_record(resume_path)
        record_path = record_path or resume_path
    else:
        game = _new_game(seed, edition)
    _save_record(game, record_path, quiet=True)  # a path that cannot be written is said now, not after the game
    you = 1 if second else 0
    if opponent == "human":
        players: list[object | None] = [None, None]
        names = ["player 1", "player 2"]
    else:
        players = [None, None]
        players[1 - you] = make_bot(opponent, seed=seed, seconds=seconds)
        names = ["", ""]
        names[you], names[1 - you] = "you", opponent
    interactive = is_interactive()
    if plain or not interactive:
        _play_plain(game, players, names, interactive, use_color(color), record_path)
        return
    from doodle.patchwork.app import PatchworkApp  # Textual loads only for the full-screen game

    app = PatchworkApp(game, players, names)
    app.run()
    if game.move_stack:
        click.echo(position_text(game, names))
    _save_record(game, record_path)


def _play_plain(game: Game, players: list[object | None], names: list[str], interactive: bool, color: bool,
                record_path: Path | None) -> None:  # fmt: skip
    match = PlainMatch(game, players, names, render=lambda g: position_text(g, names, color=color))
    click.echo(match.start())
    ended_early = False
    stream = input_stream()
    while not match.finished:
        if interactive:
            try:
                line = input("> ")
            except (EOFError, KeyboardInterrupt):
                click.echo()
                break
        else:
            line = stream.readline()
            if not line:
                ended_early = True
                break
            click.echo(f"> {line.rstrip()}")
        try:
            click.echo(match.handle(line))
        except Quit:
            break
    _save_record(game, record_path)
    if ended_early:
        raise click.ClickException(
            f"the input ended before the game did ({len(game.move_stack)} moves played); "
            "end a script with 'quit' to leave a game unfinished"
        )


@patchwork.command()
@click.option("--games", type=click.IntRange(1), default=10, show_default=True, help="How many games.")
@click.option("--bot", type=click.Choice(BOT_NAMES), default="mcts", show_default=True, help="The first bot.")
@click.option("--opponent", type=click.Choice(BOT_NAMES), default="greedy", show_default=True, help="The second bot.")
@click.option(
    "--seconds",
    type=click.FloatRange(0, min_open=True),
    default=None,
    help="MCTS thinking time per move (default: 1000 playouts per move).",
)
@click.option("--iterations", type=click.IntRange(1), default=None, help="MCTS playouts per move.")
@click.option(
    "--seed",
    type=SEED,
    default=0,
    show_default=True,
    help="Game i uses seed SEED+i for the patches (and the bots).",
)
@click.option("--edition", type=click.Choice(EDITIONS), default="current", show_default=True)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Write one JSON object per game (with its replayable record), then a summary object.",
)
def selfplay(games: int, bot: str, opponent: str, seconds: float | None, iterations: int | None, seed: int,
             edition: str, as_json: bool) -> None:  # fmt: skip
    """Let two bots play each other, alternating who starts; show a progress bar and a summary."""
    if seconds is not None and iterations is not None:
        raise click.UsageError("give --seconds or --iterations, not both")
    wins = [0, 0]
    scores: list[list[int]] = [[], []]
    started = time.perf_counter()
    labels = (f"{bot} (A)", f"{opponent} (B)") if bot == opponent else (bot, opponent)
    with click.progressbar(length=games, label="games", file=sys.stderr, show_pos=True) as progress:
        for i in range(games):
            game_seed = seed + i
            first = i % 2  # side A starts the even games
            sides = [make_bot(name, seed=game_seed + 7919 * k, seconds=seconds, iterations=iterations)
                     for k, name in enumerate((bot, opponent))]  # fmt: skip
            seats = (sides[0], sides[1]) if first == 0 else (sides[1], sides[0])
            game = play_game(seats, _new_game(game_seed, edition))
            side_of = (0, 1) if first == 0 else (1, 0)  # side of each seat
            winner_side = side_of[game.winner()]  # type: ignore[index]
            wins[winner_side] += 1
            for seat in (0, 1):
                scores[side_of[seat]].append(game.scores()[seat])
            if as_json:
                echo_json({
                    "game": i + 1, "seed": game_seed, "players": [labels[side_of[0]], labels[side_of[1]]],
                    "scores": list(game.scores()), "winner": game.winner(), "winner_bot": labels[winner_side],
                    "record": game.to_record(),
                })  # fmt: skip
            progress.update(1)
    elapsed = time.perf_counter() - started
    summary = {
        "games": games,
        "bots": list(labels),
        "wins": wins,
        "win_rate": [round(w / games, 3) for w in wins],
        "mean_score": [round(statistics.mean(s), 1) for s in scores],
        "seconds": round(elapsed, 1),
    }
    if as_json:
        echo_json({"summary": summary})
        return
    for side in (0, 1):
        click.echo(
            f"{labels[side]}: {wins[side]} wins of {games} ({wins[side] / games:.0%}), "
            f"mean score {summary['mean_score'][side]}"
        )
    click.echo(f"{games} games in {elapsed:.1f} s, each bot starting half of them.")
