"""The end of a solo game: par (the best bot's total on the same seed), the high-score table and the summary
the player sees, with their quilt beside the best bot's."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

from doodle.files import write_atomic
from doodle.game.deck import Deck, bundled_deck
from doodle.game.game import DoodleGame
from doodle.quilt import Quilt
from doodle.render import ascii_quilt, draw_quilt, draw_side_by_side
from doodle.solo.scores import Rank, ScoreBook, ScoreEntry, ScoresCorrupt, ScoresError, ScoresForeign, clean_text
from doodle.solo.session import SoloSession
from doodle.solo.store import (
    SaveError,
    SaveWriteError,
    SoloSave,
    finished_games,
    keep_finished,
    remove_save,
    set_aside,
)

TOP = 10


@dataclass(frozen=True)
class Par:
    """The best bot's game on the player's seed."""

    bot: str
    total: int
    quilt: Quilt
    totals: dict[str, int]  # every bot tried


def compute_par(seed: int, deck: Deck | None = None, bots: Iterable[str] | None = None,
                progress: Callable[[str], None] | None = None) -> Par:
    """Let each bot (all of them by default) play `seed`; the best total is par."""
    from doodle.game.bots import BOT_NAMES, get_bot, play_solo  # bots load tables: only when needed

    games: dict[str, DoodleGame] = {}
    for name in bots if bots is not None else BOT_NAMES:
        if progress:
            progress(name)
        games[name] = play_solo(get_bot(name), seed, deck)
    if not games:
        raise ValueError("par needs at least one bot")
    totals = {name: game.totals()[0] for name, game in games.items()}
    best = max(totals, key=lambda name: totals[name])
    return Par(best, totals[best], games[best].sheets[0].quilt, totals)


class BackgroundPar:
    """Par computed in a daemon thread while the player plays, so it is (nearly) ready at the end. A daemon
    thread never holds up quitting: a game left unfinished simply drops it."""

    def __init__(self, seed: int, deck: Deck | None = None, bots: Iterable[str] | None = None) -> None:
        self._par: Par | None = None
        self._error: Exception | None = None
        self._thread = threading.Thread(target=self._run, args=(seed, deck, bots), name="par", daemon=True)
        self._thread.start()

    def _run(self, seed: int, deck: Deck | None, bots: Iterable[str] | None) -> None:
        try:
            self._par = compute_par(seed, deck, bots)
        except Exception as error:  # noqa: BLE001 - handed to the caller by result()
            self._error = error

    def ready(self) -> bool:
        return not self._thread.is_alive()

    def result(self) -> Par:
        """Wait for par (Ctrl-C interrupts the wait); re-raises what went wrong in the thread."""
        while self._thread.is_alive():
            self._thread.join(0.2)
        if self._error is not None:
            raise self._error
        assert self._par is not None
        return self._par


@dataclass(frozen=True)
class Standing:
    """Where the finished game stands in the high-score table (rank None when the table could not be read)."""

    rank: Rank | None
    seed_rank: Rank | None
    top: list[ScoreEntry]
    note: str = ""  # what went wrong with the table, and what was done about it
    recorded: bool = True  # False: the game is not in the table (it is kept to be recorded later)
    problem: str = ""  # why it was not recorded


def score_entry(save: SoloSave, session: SoloSession, par: Par | None) -> ScoreEntry:
    """The high-score table's row for a finished game."""
    return ScoreEntry(
        game_id=save.game_id, name=save.name, total=session.total(), seed=session.seed, daily=save.daily,
        round_scores=tuple(session.round_scores()), empty=session.quilt.empty_count(),
        par=par.total if par else None, par_bot=par.bot if par else None,
        played_at=datetime.now(UTC).isoformat(timespec="seconds"), deck=session.game.deck.name,
        deck_id=session.game.deck.fingerprint,
    )


def open_scores(path: Path) -> tuple[ScoreBook, str]:
    """The table at `path`, and a note when a damaged file there was set aside (renamed beside it, never
    overwritten) and a new table started. ScoresError when the table cannot be used now: locked, read-only, a
    damaged file that cannot be moved, or another program's database (which is left alone)."""
    try:
        return ScoreBook(path), ""
    except ScoresForeign as error:
        raise ScoresError(f"{error}: give doodle's own with --scores") from None
    except ScoresCorrupt as error:
        note = _set_aside_note(path, error)
    return ScoreBook(path), note


def _set_aside_note(path: Path, error: ScoresError) -> str:
    try:
        moved = set_aside(path)
    except OSError as move_error:
        raise ScoresError(f"{error}, and it cannot be moved aside ({move_error.strerror or move_error})") from None
    return f"The score table was damaged ({error}); it was moved to {moved} and a new one started."


def record_entry(scores_path: Path, entry: ScoreEntry) -> Standing:
    """Add a finished game to the table and read where it stands. A table found damaged (on opening, writing or
    reading) is set aside and the game recorded in a new one; a table that cannot be used now (locked,
    read-only) is left alone and the Standing says `recorded=False`. Once the game's row is written and reads
    back, a failure to read the rest of the table only adds a note."""
    note = ""
    for attempt in range(2):
        found = _as_found(scores_path)
        try:
            book, opened = open_scores(scores_path)
        except ScoresError as error:
            return _not_recorded(note, error)
        note = " ".join(filter(None, (note, opened)))
        written = False
        with book:
            try:
                book.add(entry)
                written = True
                return _standing(book, entry, note)
            except ScoresCorrupt as error:
                damaged = error
            except ScoresError as error:
                return _unreadable(note, error) if written else _not_recorded(note, error)
            except ValueError as error:
                return _not_recorded(note, error)
        if attempt:
            return _unreadable(note, damaged) if written else _not_recorded(note, damaged)
        try:
            _put_back(scores_path, found)
            note = " ".join(filter(None, (note, _set_aside_note(scores_path, damaged))))
        except ScoresError as error:
            return _unreadable(note, error) if written else _not_recorded(note, error)
    raise AssertionError("unreachable: the second attempt returns")


KEPT_AS_FOUND_BYTES = 64 * 1024 * 1024  # a table of this size holds hundreds of thousands of games


def _as_found(path: Path) -> bytes | None:
    """The table's bytes before anything is written to it, or None when it is not a regular file (a pipe, a
    device: opening it will say so), cannot be read, or is larger than KEPT_AS_FOUND_BYTES."""
    try:
        if not path.is_file() or path.stat().st_size > KEPT_AS_FOUND_BYTES:
            return None
        return path.read_bytes()
    except OSError:
        return None


def _put_back(path: Path, found: bytes | None) -> None:
    """The damage may show only once this game's row is written into the table: the table set aside is the one
    found (`_as_found`), not that one with a row written into its damage. Where it cannot be put back (a folder
    turned read-only), it is set aside as it is."""
    if found is None:
        return
    with contextlib.suppress(OSError):
        write_atomic(path, found)


def _not_recorded(note: str, error: Exception) -> Standing:
    return Standing(None, None, [], f"{note} The score was not recorded: {error}.".strip(), recorded=False,
                    problem=str(error))


def _unreadable(note: str, error: Exception) -> Standing:
    return Standing(None, None, [], f"{note} The score was recorded, but the table cannot be read now: "
                                    f"{error}.".strip())


def _standing(book: ScoreBook, entry: ScoreEntry, note: str) -> Standing:
    """Where the recorded game stands; ScoresError when the table cannot be read."""
    on_seed = book.rank(entry.total, seed=entry.seed, deck_id=entry.deck_id)
    overall = book.rank(entry.total)
    top = book.top(TOP)
    if book.skipped:
        rows = "row" if book.skipped == 1 else "rows"
        note = f"{note} {book.skipped} {rows} of the table cannot be read (edited or damaged) and are left out.".strip()
    return Standing(overall, on_seed, top, note)


def finish_game(save_path: Path, scores_path: Path, save: SoloSave, session: SoloSession,
                par: Par | None) -> Standing:
    """Record a finished game and remove its save. When its score cannot be recorded now, the game is kept
    beside the save (`keep_finished`) to be recorded by `record_waiting` on a later run; the note says so. When
    it cannot be kept either, the save is left as it is (it holds the finished game if it was written)."""
    entry = score_entry(save, session, par)
    standing = record_entry(scores_path, entry)
    if standing.recorded:
        remove_save(save_path)
        return standing
    try:
        kept = keep_finished(save_path, scores_path, entry, save)
    except SaveWriteError as error:
        where = (f"it stays in {save_path}, from which the next doodle solo records it" if not session.save_problem
                 else "write down your score")
        return replace(standing, note=f"{standing.note} Your finished game could not be kept for later either "
                                      f"({error}): {where}.")
    remove_save(save_path)
    return replace(standing, note=f"{standing.note} Your finished game is kept in {kept} and will be recorded the "
                                  "next time you run doodle solo (doodle solo --high-scores records it and shows "
                                  "the table).")


def record_waiting(save_path: Path, scores_path: Path) -> list[str]:
    """Record the finished games kept beside the save (their score could not be recorded when they ended) and
    remove each once recorded; a kept file that cannot be read is set aside. Returns what the player should be
    told. When the table cannot be used, the games wait for the next run (one attempt, not one per game)."""
    notes = []
    waiting = finished_games(save_path, scores_path)
    for index, (path, entry) in enumerate(waiting):
        if isinstance(entry, SaveError):
            try:
                notes.append(f"A finished game kept in {path} cannot be read ({entry}); it was moved to "
                             f"{set_aside(path)}.")
            except OSError as error:
                notes.append(f"A finished game kept in {path} cannot be read ({entry}) nor moved aside "
                             f"({error.strerror or error}): move or remove it yourself.")
            continue
        standing = record_entry(scores_path, entry)
        game = f"your finished game of {clean_text(entry.played_at[:10])} ({entry.total} points, seed {entry.seed})"
        if not standing.recorded:
            left = len(waiting) - index
            others = f" ({left - 1} more wait with it)" if left > 1 else ""
            notes.append(f"{game[0].upper()}{game[1:]} could not be recorded yet: {standing.problem}. It stays in "
                         f"{path}{others} and will be recorded the next time you run doodle solo.")
            break
        path.unlink(missing_ok=True)
        notes.append(" ".join(filter(None, (standing.note, f"Recorded {game} in the high-score table."))))
    return notes


def summary(session: SoloSession, save: SoloSave, par: Par | None, standing: Standing | None,
            plain: bool = True, color: bool = False) -> str:
    """The end-of-game text: scores, par, the quilts side by side and the high-score table."""
    rounds = session.round_scores()
    empty = session.quilt.empty_count()
    total = session.total()
    lines = [
        f"Game over, {save.name}: {total} points.",
        f"Rounds {' + '.join(str(score) for score in rounds)} = {sum(rounds)}, empty cells {empty} (-{empty}).",
    ]
    seed_text = f"seed {session.seed}" + (f", the daily game of {save.daily}" if save.daily else "")
    if par is not None:
        diff = total - par.total
        verdict = "on par" if diff == 0 else f"{abs(diff)} {'above' if diff > 0 else 'below'} par"
        others = ", ".join(f"{name} {score}" for name, score in par.totals.items())
        lines.append(f"Par on {seed_text}: {par.total} by the {par.bot} bot ({others}); you are {verdict}.")
        lines.append("")
        lines.append(draw_side_by_side([f"You: {total}\n{_drawing(session.quilt, plain, color)}",
                                        f"{par.bot} bot: {par.total}\n{_drawing(par.quilt, plain, color)}"], gap=6))
    else:
        lines.append(f"Played on {seed_text}.")
        lines.append("")
        lines.append(_drawing(session.quilt, plain, color))
    if standing is not None:
        lines.append("")
        if standing.note:
            lines.append(standing.note)
        if standing.rank is not None:
            where = f"High scores: you are #{standing.rank.place} of {standing.rank.of}"
            if standing.seed_rank is not None and standing.seed_rank.of > 1:
                where += f" (on this seed #{standing.seed_rank.place} of {standing.seed_rank.of})"
            lines.append(where + ".")
            lines.extend(score_table(standing.top, save.game_id))
    return "\n".join(lines)


def _drawing(quilt: Quilt, plain: bool, color: bool) -> str:
    return ascii_quilt(quilt) if plain else draw_quilt(quilt, color=color)


def score_table(entries: list[ScoreEntry], mine: str | None = None) -> list[str]:
    """The rows of the high-score table, best first; equal totals share a place; `mine` is marked."""
    rows = []
    place = 0
    previous = None
    for index, entry in enumerate(entries, start=1):
        if entry.total != previous:
            place, previous = index, entry.total
        daily = f" daily {clean_text(entry.daily)}" if entry.daily else ""
        par = f"  par {entry.par}" if entry.par is not None else ""
        other_deck = entry.deck_id not in (None, bundled_deck().fingerprint)
        deck = f"  deck {clean_text(entry.deck or '?')} #{clean_text(entry.deck_id or '')}" if other_deck else ""
        marker = "  <- you" if entry.game_id == mine else ""
        rows.append(f"{place:>3}. {entry.total:>4}  {clean_text(entry.name, 16):<16} {clean_text(entry.played_at, 10)}"
                    f"  seed {entry.seed}{daily}{par}{deck}{marker}")
    return rows
