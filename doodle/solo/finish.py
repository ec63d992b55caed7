"""The end of a solo game: par (the best bot's total on the same seed), the high-score table and the summary
the player sees, with their quilt beside the best bot's."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from doodle.game.deck import Deck, bundled_deck
from doodle.game.game import DoodleGame
from doodle.quilt import Quilt
from doodle.render import ascii_quilt, draw_quilt, draw_side_by_side
from doodle.solo.scores import Rank, ScoreBook, ScoreEntry, ScoresCorrupt, ScoresError
from doodle.solo.session import SoloSession
from doodle.solo.store import SoloSave, set_aside

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
    """Where the finished game stands in the high-score table (None when the table could not be used)."""

    rank: Rank | None
    seed_rank: Rank | None
    top: list[ScoreEntry]
    note: str = ""  # what went wrong with the table, and what was done about it


def record_score(scores_path: Path, save: SoloSave, session: SoloSession, par: Par | None) -> Standing:
    """Add the finished game to the table at `scores_path` and read its rank. A damaged table is set aside
    (never overwritten) and a new one started; a table that cannot be used now (locked...) is left alone."""
    note = ""
    try:
        book = ScoreBook(scores_path)
    except ScoresCorrupt as error:
        try:
            moved = set_aside(scores_path)
        except OSError as move_error:
            return Standing(None, None, [], f"The score was not recorded: {error}, and the file cannot be moved "
                                            f"aside ({move_error.strerror or move_error}).")
        note = f"The score table was damaged ({error}); it was moved to {moved} and a new one started."
        try:
            book = ScoreBook(scores_path)
        except ScoresError as again:
            return Standing(None, None, [], f"{note} The new one cannot be used either: {again}")
    except ScoresError as error:
        return Standing(None, None, [], f"The score was not recorded: {error}")
    total = session.total()
    entry = ScoreEntry(
        game_id=save.game_id, name=save.name, total=total, seed=session.seed, daily=save.daily,
        round_scores=tuple(session.round_scores()), empty=session.quilt.empty_count(),
        par=par.total if par else None, par_bot=par.bot if par else None,
        played_at=datetime.now(UTC).isoformat(timespec="seconds"), deck=session.game.deck.name,
        deck_id=session.game.deck.fingerprint,
    )
    try:
        with book:
            book.add(entry)
            on_seed = book.rank(total, seed=session.seed, deck_id=entry.deck_id)
            return Standing(book.rank(total), on_seed, book.top(TOP), note)
    except ScoresError as error:
        return Standing(None, None, [], f"{note} The score was not recorded: {error}".strip())


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
        daily = f" daily {entry.daily}" if entry.daily else ""
        par = f"  par {entry.par}" if entry.par is not None else ""
        other_deck = entry.deck_id not in (None, bundled_deck().fingerprint)
        deck = f"  deck {entry.deck} #{entry.deck_id}" if other_deck else ""
        marker = "  <- you" if entry.game_id == mine else ""
        rows.append(f"{place:>3}. {entry.total:>4}  {entry.name[:16]:<16} {entry.played_at[:10]}  "
                    f"seed {entry.seed}{daily}{par}{deck}{marker}")
    return rows
