"""`doodle patchwork`: the 2-player base game. `play` against a bot or a friend; `selfplay` for bot matches."""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from doodle.cli.common import SEED, echo_json, input_stream, use_color, write_atomic
from doodle.cli.common import interactive as is_interactive  # `interactive` names a flag below
from doodle.files import InputFileError, read_text_limited
from doodle.patchwork import EDITIONS, Game, PatchworkRecordError
from doodle.patchwork.bots import BOT_NAMES, make_bot, play_game
from doodle.patchwork.display import position_text
from doodle.patchwork.plain import PlainMatch, Quit
from doodle.patchwork.seats import Seat, read_seats, read_seed, with_seats

OPPONENTS = (*BOT_NAMES, "human")
RECORD_LIMIT = 1 << 20  # a whole game's record is a few KB
DEFAULT_SECONDS = 1.0


@click.group()
def patchwork() -> None:
    """Patchwork for two players: play against a bot or a friend, or let bots play each other."""


def _new_game(seed: int | None, edition: str) -> Game:
    return Game.new(seed=seed, edition=edition)


class _Recorded:
    """A game read from a record file, with the seats and the seed the record keeps (None where it does not)."""

    def __init__(self, path: Path) -> None:
        what = f"the game record {click.format_filename(path)}"
        try:
            text = read_text_limited(path, RECORD_LIMIT, what)
            record: Any = json.loads(text)
        except InputFileError as error:
            raise click.ClickException(str(error)) from None
        except (ValueError, RecursionError):  # bad JSON, a number too long to read, nesting too deep
            raise click.ClickException(
                f"{what} is not a JSON game record (written by 'doodle patchwork play --record')"
            ) from None
        try:
            self.game = Game.from_record(record)
            self.seats = read_seats(record)
            self.seed = read_seed(record)
        except PatchworkRecordError as error:
            raise click.ClickException(f"{what}: {error}") from None


class _Saver:
    """Writes the game record (atomically) to `path` after every move, with who plays each seat.

    The first write failing ends the command (a bad path is said before the game); a later one is said and
    tried again after the next move, so the game goes on."""

    def __init__(self, path: Path | None, seats: tuple[Seat, Seat], seed: int | None) -> None:
        self.path, self.seats, self.seed = path, seats, seed
        self.written = False
        self.failing = False

    def __call__(self, game: Game) -> None:
        if self.path is None:
            return
        record = with_seats(game.to_record(), self.seats, self.seed)
        name = click.format_filename(self.path)
        try:
            write_atomic(self.path, json.dumps(record, indent=1) + "\n")
        except OSError as error:
            if not self.written:
                raise click.ClickException(f"cannot write the game record to {name}: {error.strerror}") from None
            if not self.failing:
                click.echo(
                    f"Cannot save the game to {name} ({error.strerror}); trying again after each move.", err=True
                )
            self.failing = True
            return
        if self.failing:
            click.echo(f"The game is saved in {name} again.", err=True)
        self.written, self.failing = True, False


def _seats_from_options(opponent: str, second: bool, seconds: float) -> tuple[Seat, Seat]:
    if opponent == "human":
        return Seat(), Seat()
    bot = Seat(opponent, seconds if opponent == "mcts" else None)
    return (bot, Seat()) if second else (Seat(), bot)


def _given(ctx: click.Context, name: str) -> bool:
    return ctx.get_parameter_source(name) in (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT)


def _check_resume_options(ctx: click.Context, recorded: _Recorded, path: Path, opponent: str, second: bool,
                          seconds: float, seed: int | None, edition: str) -> tuple[Seat, Seat]:  # fmt: skip
    """The seats to go on with: the record's; options that contradict it are refused. A record written before
    records kept the seats takes them from the options (or their defaults), and says so."""
    name = click.format_filename(path)
    wanted = _seats_from_options(opponent, second, seconds)
    conflicts = []
    if _given(ctx, "seed") and recorded.seed != seed:
        kept = "no seed" if recorded.seed is None else f"seed {recorded.seed}"
        conflicts.append(f"--seed {seed} (the record has {kept}; its patches are already laid out)")
    if _given(ctx, "edition") and recorded.game.edition != edition:
        conflicts.append(f"--edition {edition} (the record is the {recorded.game.edition} edition)")
    seats = recorded.seats
    if seats is None:
        click.echo(
            f"{name} does not say who plays (it was written by an older doodle): going on with player 1 "
            f"{wanted[0].describe()} and player 2 {wanted[1].describe()}, as the options say.",
            err=True,
        )
        if not conflicts:
            return wanted
    else:
        recorded_bots = [seat for seat in seats if not seat.human]
        recorded_opponent = recorded_bots[0].bot if recorded_bots else "human"
        if _given(ctx, "opponent") and opponent != recorded_opponent:
            conflicts.append(f"--vs {opponent} (the record's opponent is {recorded_opponent})")
        if second and (not recorded_bots or not seats[1].human):
            you = "both players are people" if not recorded_bots else "you are player 1"
            conflicts.append(f"--second ({you} in the record)")
        if _given(ctx, "seconds") and not any(seat.seconds == seconds for seat in recorded_bots):
            bot = recorded_bots[0].describe() if recorded_bots else "none"
            conflicts.append(f"--seconds {seconds:g} (the record's bot is {bot})")
    if conflicts:
        raise click.UsageError(
            f"these options contradict the game recorded in {name}: {'; '.join(conflicts)}. "
            "Leave them out to go on as recorded, or start a new game without --resume."
        )
    return seats  # type: ignore[return-value]


def _names(seats: tuple[Seat, Seat]) -> list[str]:
    if all(seat.human for seat in seats):
        return ["player 1", "player 2"]
    return ["you" if seat.human else str(seat.bot) for seat in seats]


@patchwork.command()
@click.option(
    "--vs",
    "opponent",
    type=click.Choice(OPPONENTS),
    default="mcts",
    show_default=True,
    help="Who you play against; 'human' for two people at one keyboard.",
)
@click.option("--seed", type=SEED, help="Shuffle the patches with this seed (a replayable game).")
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
    default=DEFAULT_SECONDS,
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
    help="Keep the game record (JSON) in this file: written at the start (so a bad path is said at once) and after "
    "every move, so nothing is lost if the game is interrupted. It keeps who plays each side.",
)
@click.option(
    "--resume",
    "resume_path",
    type=click.Path(path_type=Path, dir_okay=False, exists=True),
    help="Go on with the game recorded in this file, with the same players (its record is then updated there).",
)
@click.option("--color/--no-color", default=None, help="Colour the quilts in --plain mode (default: on a terminal).")
@click.pass_context
def play(ctx: click.Context, opponent: str, seed: int | None, edition: str, second: bool, seconds: float, plain: bool,
         record_path: Path | None, resume_path: Path | None, color: bool | None) -> None:  # fmt: skip
    """Play Patchwork in the terminal.

    The full-screen game shows both quilts, buttons, income, the time track with both tokens and the next three
    patches. Pick a patch with 1, 2 or 3, move it with the arrow keys, turn it with r, mirror it with m, and
    press Enter to place it where it shows green; a advances. Press ? for every key.

    In --plain mode type moves such as '12 c4 r1 m' (patch 12, top-left corner on c4, turned once, mirrored),
    'advance', or 'leather e5'; type 'help' for the rest.
    """
    if resume_path is not None:
        recorded = _Recorded(resume_path)
        game = recorded.game
        seats = _check_resume_options(ctx, recorded, resume_path, opponent, second, seconds, seed, edition)
        seed = recorded.seed
        record_path = record_path or resume_path
    else:
        game = _new_game(seed, edition)
        seats = _seats_from_options(opponent, second, seconds)
    save = _Saver(record_path, seats, seed)
    save(game)  # a path that cannot be written is said now, not after the game
    players = [seat.player(seed) for seat in seats]
    names = _names(seats)
    interactive = is_interactive()
    if plain or not interactive:
        _play_plain(game, players, names, interactive, use_color(color), save)
        return
    from doodle.patchwork.app import PatchworkApp  # Textual loads only for the full-screen game

    app = PatchworkApp(game, players, names, on_change=save, record_name=_shown_path(record_path))
    app.run()
    if game.move_stack:
        click.echo(position_text(game, names))
    _finish(game, save)


def _shown_path(path: Path | None) -> str | None:
    return None if path is None else click.format_filename(path)


def _finish(game: Game, save: _Saver) -> None:
    """Save once more (the game was saved after every move already) and say where, or how to resume."""
    if save.path is None:
        return
    save(game)
    name = _shown_path(save.path)
    if game.is_over():
        click.echo(f"Game record written to {name}.", err=True)
    else:
        click.echo(f"Game saved in {name}: go on with 'doodle patchwork play --resume {name}'.", err=True)


def _play_plain(game: Game, players: list[object | None], names: list[str], interactive: bool, color: bool,
                save: _Saver) -> None:  # fmt: skip
    match = PlainMatch(game, players, names, render=lambda g: position_text(g, names, color=color), on_change=save)
    ended_early = False
    stream = input_stream()  # also makes input() read a stray undecodable byte as a character, not a crash
    try:
        click.echo(match.start())
        while not match.finished:
            if interactive:
                try:
                    line = input("> ")
                except EOFError:
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
    except KeyboardInterrupt:
        click.echo()
    _finish(game, save)
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
