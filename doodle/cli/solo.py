"""`doodle solo`: solo score attack in the terminal (full-screen, or `--plain` typed commands), or a bot's game."""

from __future__ import annotations

import getpass
import sys
from dataclasses import replace
from datetime import date
from pathlib import Path

import click

from doodle.cli.common import SEED, echo_json, input_stream, use_color
from doodle.cli.common import interactive as is_interactive
from doodle.game.deck import Deck, DeckError, load_deck
from doodle.game.game import DoodleGame
from doodle.render import draw_quilt
from doodle.solo.finish import TOP, BackgroundPar, Par, finish_game, open_scores, record_waiting, score_table, summary
from doodle.solo.plain import PlainGame
from doodle.solo.scores import ScoresError, clean_text
from doodle.solo.session import SoloSession, Stage
from doodle.solo.store import (
    SAVE_ENV,
    SCORES_ENV,
    SaveDeckError,
    SaveError,
    SaveNotAFile,
    SaveWriteError,
    SoloSave,
    default_save_path,
    default_scores_path,
    read_save,
    remove_stale_temporaries,
    set_aside,
    write_save,
)

INTERRUPTED = 130  # the shell's code for a program stopped by Ctrl-C


def daily_seed(day: date) -> int:
    """The seed of a day's game: its date as a number (2026-11-29 -> 20261129), the same for everyone."""
    return int(day.strftime("%Y%m%d"))


def _load_deck(deck_path: Path | None) -> Deck:
    try:
        return load_deck(deck_path)
    except DeckError as error:
        raise click.ClickException(str(error)) from None


def _read_existing(save_path: Path, discard: bool) -> tuple[SoloSave | None, DoodleGame | None]:
    """The saved game, or (None, None); a damaged save is set aside with a warning on stderr. A save whose
    deck file is missing is left alone (it is not damaged), unless the player discards it with --new."""
    try:
        save = read_save(save_path)
        if save is None:
            return None, None
        return save, save.game()
    except SaveNotAFile as error:
        raise click.ClickException(str(error)) from None
    except SaveDeckError as error:
        if discard:
            return None, None
        raise click.ClickException(f"{error}. Put the deck file back as it was to continue, or start over with "
                                   "--new (discarding the saved game)") from None
    except SaveError as error:
        moved = _set_aside_or_fail(save_path, str(error))
        click.echo(f"Warning: the saved game {save_path} cannot be used ({error}); it was moved to {moved}.",
                   err=True)
        return None, None


@click.command()
@click.option("--plain", is_flag=True, help="Typed commands, one per line, in plain text (for dumb terminals, "
              "screen readers and scripts). Used anyway when input or output is not a terminal.")
@click.option("--seed", type=SEED, help="Play the game of this seed (same cards, same rolls).")
@click.option("--daily", is_flag=True, help="Play today's game: the seed is today's date, the same for everyone.")
@click.option("--resume", is_flag=True, help="Continue the saved game.")
@click.option("--new", "discard", is_flag=True, help="Start a new game even though one is saved (discarding it).")
@click.option("--name", help="Your name in the high-score table (default: your user name).")
@click.option("--save", "save_path", type=click.Path(path_type=Path, dir_okay=False), envvar=SAVE_ENV,
              show_envvar=True, help="The save file (default: solo-save.json in your data directory).")
@click.option("--scores", "scores_path", type=click.Path(path_type=Path, dir_okay=False), envvar=SCORES_ENV,
              show_envvar=True, help="The high-score database (default: solo-scores.sqlite3 in your data directory).")
@click.option("--deck", "deck_path", type=click.Path(path_type=Path, dir_okay=False),
              help="Play with the cards of this deck file (TOML) instead of the bundled deck.")
@click.option("--bot", "bot_name", help="Let this bot play the game instead (greedy or expert).")
@click.option("--json", "as_json", is_flag=True, help="With --bot: write the game record as JSON.")
@click.option("--no-par", is_flag=True, help="Do not let the bots play your seed for par (they play it in the "
              "background while you play).")
@click.option("--high-scores", is_flag=True, help="Show the high-score table and stop.")
@click.option("--color/--no-color", default=None, help="Colour the end summary (default: when on a terminal).")
def solo(plain: bool, seed: int | None, daily: bool, resume: bool, discard: bool, name: str | None,
         save_path: Path | None, scores_path: Path | None, deck_path: Path | None, bot_name: str | None,
         as_json: bool, no_par: bool, high_scores: bool, color: bool | None) -> None:
    """Solo score attack: play Patchwork Doodle alone and beat your best (over 100 is a good score).

    The game is saved after every move; continue it with --resume. At the end you see your rank in the
    high-score table, par (the best bot's total on the same seed) and your quilt beside the bot's.
    Keys in the full-screen game: press ? for the list. In --plain mode type help.
    """
    save_path = save_path or default_save_path()
    scores_path = scores_path or default_scores_path()
    if high_scores:
        _record_waiting(save_path, scores_path)
        _show_high_scores(scores_path)
        return
    if seed is not None and daily:
        raise click.UsageError("give either --seed or --daily, not both")
    if as_json and not bot_name:
        raise click.UsageError("--json writes a bot's game record: use it with --bot NAME")
    if bot_name:
        if resume or plain:
            raise click.UsageError("--bot plays a whole new game by itself: it does not take --resume or --plain")
        seed = daily_seed(date.today()) if daily else seed
        _bot_game(bot_name, seed, _load_deck(deck_path), as_json)
        return
    if resume and (seed is not None or daily or discard or deck_path):
        raise click.UsageError("--resume continues the saved game as it was: leave out --seed, --daily, --new, --deck")

    remove_stale_temporaries(save_path)
    _record_waiting(save_path, scores_path)
    if resume:
        save, game = _read_existing(save_path, discard=False)
        if save is None or game is None:
            raise click.ClickException(f"there is no saved game at {save_path}: start one with doodle solo")
    else:
        save, game = _game_in_progress(save_path, scores_path, discard)
    if save is None or game is None:
        day = date.today() if daily else None
        player = clean_text(name or _user_name())
        game = DoodleGame.new(1, daily_seed(day) if day else seed, _load_deck(deck_path), [player])
        save = SoloSave(game.to_record(), player, daily=day.isoformat() if day else None,
                        deck_path=str(deck_path.resolve()) if deck_path else None)

    def keep(changed: DoodleGame) -> None:
        nonlocal save
        save = replace(save, record=changed.to_record())
        write_save(save_path, save)

    session = SoloSession(game, keep)
    try:
        keep(game)
    except SaveWriteError as error:
        raise click.ClickException(f"{error}; choose another place with --save PATH") from None

    # par is played in the background while the player plays, so that it is ready at the end
    background = None if no_par else BackgroundPar(game.dealer.seed, game.deck)
    interactive = is_interactive()
    if game.is_over():  # a finished game found in the save (--resume): nothing left to play
        finished = True
    elif plain or not interactive:
        finished = _play_plain(session, save_path, interactive)
    else:
        finished = _play_full_screen(session, save_path)
    if not finished:
        return
    par = _par(background) if background is not None else None
    standing = finish_game(save_path, scores_path, save, session, par)
    text = summary(session, save, par, standing, plain=plain or not interactive, color=use_color(color))
    click.echo(text)


def _set_aside_or_fail(path: Path, problem: str) -> Path:
    try:
        return set_aside(path)
    except OSError as error:
        raise click.ClickException(f"{path} cannot be used ({problem}) and cannot be moved aside "
                                   f"({error.strerror or error}): move or remove it yourself") from None


def _game_in_progress(save_path: Path, scores_path: Path,
                      discard: bool) -> tuple[SoloSave | None, DoodleGame | None]:
    """The saved game to go on with, or (None, None) for a new game. A game in progress is never overwritten
    without --new: on a terminal the player is asked (resume it, or discard it), otherwise the command stops
    with what to type. A finished game left in the save (stopped while its score was being recorded) is
    recorded, or kept beside the save when the table cannot be used (one row per game: recording again is
    safe)."""
    save, game = _read_existing(save_path, discard)
    if save is None or game is None:
        return None, None
    if game.is_over():
        standing = finish_game(save_path, scores_path, save, SoloSession(game), None)
        done = (f"Recorded the finished game found in {save_path} ({game.totals()[0]} points, seed "
                f"{game.dealer.seed}) in the high-score table." if standing.recorded else "")
        click.echo(" ".join(filter(None, (standing.note, done))), err=True)
        return None, None
    if discard:
        return None, None
    where = (f"a game is in progress in {save_path} (seed {game.dealer.seed}, round {game.dealer.round}, "
             f"turn {game.dealer.turn})")
    if not is_interactive():
        raise click.UsageError(f"{where}: continue it with --resume, or start a new one with --new (discarding it)")
    if click.confirm(f"{where[0].upper()}{where[1:]}. Resume it?", default=True):
        return save, game
    if click.confirm("Start a new game instead, discarding the saved one?", default=False):
        return None, None
    raise click.ClickException(f"the saved game is kept in {save_path}; continue it with doodle solo --resume")


def _record_waiting(save_path: Path, scores_path: Path) -> None:
    """Record the finished games whose score could not be recorded when they ended, and say so."""
    for note in record_waiting(save_path, scores_path):
        click.echo(note, err=True)


def _show_high_scores(scores_path: Path) -> None:
    if not scores_path.exists():
        click.echo(f"No games recorded yet (the table will be {scores_path}).")
        return
    try:
        book, note = open_scores(scores_path)
        with book:
            entries = book.top(TOP)
            count = book.count()
    except ScoresError as error:
        raise click.ClickException(str(error)) from None
    if note:
        click.echo(note, err=True)
    if book.skipped:
        rows = "row" if book.skipped == 1 else "rows"
        click.echo(f"Warning: {book.skipped} {rows} of the table cannot be read (edited or damaged) and are left "
                   "out.", err=True)
    click.echo(f"High scores ({count} game{'s' if count != 1 else ''} recorded in {scores_path}):")
    click.echo("\n".join(score_table(entries)) if entries else "  none yet")


def _user_name() -> str:
    try:
        return getpass.getuser() or "Player"
    except (KeyError, OSError):
        return "Player"


def _par(background: BackgroundPar) -> Par | None:
    """The best bot's total on the player's seed; Ctrl-C or a bot's failure skips it (the score still counts)."""
    if not background.ready():
        click.echo("Waiting for the bots to finish your seed (par); Ctrl-C skips it...", err=True)
    try:
        return background.result()
    except KeyboardInterrupt:
        click.echo("Par skipped.", err=True)
    except Exception as error:  # noqa: BLE001 - par is a bonus: a bot's failure must not cost the player's score
        click.echo(f"Warning: par could not be computed ({error}).", err=True)
    return None


def _play_plain(session: SoloSession, save_path: Path, interactive: bool) -> bool:
    """Run the typed-command game on stdin; True when the game is over."""
    game = PlainGame(session)
    click.echo(game.intro())
    stdin = input_stream()
    try:
        while not game.finished:
            if interactive:
                click.echo("> ", nl=False)
            line = stdin.readline()
            if not line:
                click.echo(f"End of input: the game is saved in {save_path}. Continue with: doodle solo --resume")
                return False
            answer = game.handle(line)
            if answer:
                click.echo(answer)
            if game.quit:
                return game.finished
    except KeyboardInterrupt:
        _interrupted(save_path)
    return True


def _play_full_screen(session: SoloSession, save_path: Path) -> bool:
    from doodle.solo.app import SoloApp  # Textual loads only for the full-screen game

    app = SoloApp(session)
    try:
        app.run()
    except KeyboardInterrupt:
        _interrupted(save_path)
    if session.stage != Stage.OVER:
        click.echo(f"The game is saved in {save_path}. Continue with: doodle solo --resume")
        return False
    return True


def _interrupted(save_path: Path) -> None:
    click.echo(f"\nInterrupted: the game is saved in {save_path}. Continue with: doodle solo --resume", err=True)
    raise SystemExit(INTERRUPTED)


def _bot_game(bot_name: str, seed: int | None, deck: Deck, as_json: bool) -> None:
    from doodle.game.bots import get_bot, play_solo
    from doodle.game.solo_record import solo_record

    try:
        bot = get_bot(bot_name)
    except ValueError as error:
        raise click.UsageError(str(error)) from None

    def progress(done: int, of: int) -> None:
        if not as_json and sys.stderr.isatty():
            click.echo(f"\r{bot_name}: turn {done}/{of}", nl=False, err=True)

    game = play_solo(bot, seed, deck, progress=progress)
    if as_json:
        echo_json(solo_record(game, bot_name))
        return
    if sys.stderr.isatty():
        click.echo("", err=True)
    sheet = game.sheets[0]
    rounds = " + ".join(str(score) for score in sheet.round_scores)
    click.echo(f"The {bot_name} bot on seed {game.dealer.seed}: rounds {rounds}, empty cells "
               f"{sheet.quilt.empty_count()}, total {sheet.total()}.")
    click.echo(draw_quilt(sheet.quilt, color=use_color(None)))
