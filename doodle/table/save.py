"""Where a table game is kept: one JSON file, written atomically after every step, that `doodle table --resume`
continues with the same seats (the phones' tokens are kept as digests, so each phone gets its seat back) and the
readings of photos the players had not confirmed yet (`doodle.table.kept`), and the game's record, which replays
through the engine like any other."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from doodle.files import InputFileError, read_text_limited, write_atomic
from doodle.game.deck import Deck, DeckError, load_deck
from doodle.solo.store import data_dir
from doodle.table.session import Stage, TableSession, replay_events

SAVE_FORMAT = "doodle-table-save/1"
RECORD_FORMAT = "doodle-table/1"
SAVE_ENV = "DOODLE_TABLE_SAVE"
MAX_SAVE_BYTES = 4 << 20


class TableSaveError(ValueError):
    """A table save that cannot be read or does not replay; the message says what is wrong."""


def default_save_path() -> Path:
    return data_dir() / "table-save.json"


@dataclass
class TableSave:
    """The table, the deck file it was dealt from (None: the bundled deck), and the readings of the players' photos
    waiting to be confirmed, by seat id (as `doodle.table.kept` writes them: checked when the table resumes)."""

    session: TableSession
    deck_path: str | None = None
    readings: dict[int, Any] = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps({
            "format": SAVE_FORMAT,
            "saved": datetime.now(UTC).isoformat(timespec="seconds"),
            "deck_path": self.deck_path,
            "table": self.session.to_json(),
            "record": game_record(self.session),
            "readings": {str(seat): reading for seat, reading in self.readings.items()},
        }, indent=1, ensure_ascii=False)


class BackgroundSaver:
    """Saves the table after every step without holding up the screens: the state is turned into text at once (a
    consistent snapshot), and a worker thread writes it atomically, the newest text last (a step that comes while
    a write is under way replaces any text still waiting). A failed write is raised by the next `save` as OSError,
    so the host hears of it; `close()` waits for the last write."""

    def __init__(self, path: Path, deck_path: str | None = None) -> None:
        self.path = path
        self.deck_path = deck_path
        self._pending: str | None = None
        self._error: OSError | None = None
        self._busy = False
        self._lock = threading.Condition()

    def save(self, session: TableSession, readings: dict[int, Any] | None = None) -> None:
        text = TableSave(session, self.deck_path, readings or {}).to_json()
        with self._lock:
            error, self._error = self._error, None
            self._pending = text
            if not self._busy:
                self._busy = True
                threading.Thread(target=self._write, name="doodle-table-save", daemon=True).start()
        if error is not None:
            raise error

    def _write(self) -> None:
        while True:
            with self._lock:
                text, self._pending = self._pending, None
                if text is None:
                    self._busy = False
                    self._lock.notify_all()
                    return
            try:
                write_atomic(self.path, text)
            except OSError as error:
                with self._lock:
                    self._error = error

    def close(self) -> None:
        """Wait until the newest state is on disk; OSError if that write failed."""
        with self._lock:
            self._lock.wait_for(lambda: not self._busy)
            error, self._error = self._error, None
        if error is not None:
            raise error


def write_save(path: Path, save: TableSave) -> None:
    """Write atomically: the file holds the old state or the new one, never half of one. OSError on failure."""
    write_atomic(path, save.to_json())


def read_save(path: Path, deck: Deck | None = None) -> TableSave | None:
    """The table saved at `path` (None when there is no file), its deal replayed and checked; TableSaveError
    when it cannot be used. `deck` overrides the deck file the save names."""
    if not path.exists():
        return None
    try:
        data = json.loads(read_text_limited(path, MAX_SAVE_BYTES, f"table save {path}"))
    except InputFileError as error:
        raise TableSaveError(str(error)) from None
    except json.JSONDecodeError as error:
        raise TableSaveError(f"table save {path} is not valid JSON ({error})") from None
    except (ValueError, RecursionError):  # a number thousands of digits long, or nesting no save has
        raise TableSaveError(f"table save {path} holds what no table writes (a huge number or deep nesting)") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise TableSaveError(f"{path} is not a {SAVE_FORMAT} save")
    deck_path = data.get("deck_path")
    if deck_path is not None and not isinstance(deck_path, str):
        raise TableSaveError(f"{path}: the deck path is not text")
    if deck is None:
        try:
            deck = load_deck(deck_path)
        except DeckError as error:
            raise TableSaveError(f"the saved table was dealt from a deck that cannot be loaded: {error}") from None
    try:
        session = TableSession.from_json(data.get("table"), deck)
    except (KeyError, TypeError, ValueError) as error:
        raise TableSaveError(f"the saved table {path} cannot be continued: {error}") from None
    # The readings waiting for their players: by seat; what is not kept by seat is left out (the game is not).
    readings = data.get("readings")
    kept = readings.items() if isinstance(readings, dict) else ()
    return TableSave(session, deck_path, {int(seat): reading for seat, reading in kept
                                          if seat.isascii() and seat.isdecimal() and len(seat) < 6})


def game_record(session: TableSession) -> dict[str, Any]:
    """The game as dealt and scored: the same events as `doodle deal --auto --json` with this seed and number
    of players, the names and every round's score."""
    names = [seat.name for seat in session.seats]
    entries = [session.scores.get(seat.id, []) for seat in session.seats]
    totals = session.totals()
    return {
        "format": RECORD_FORMAT,
        "seed": session.seed,
        "players": len(session.seats),
        "names": names,
        "deck": session.deck.name,
        "deck_fingerprint": session.deck.fingerprint,
        "events": session.events,
        "round_scores": [[entry.points for entry in seat_entries] for seat_entries in entries],
        "empty": [seat_entries[-1].empty if seat_entries else None for seat_entries in entries],
        "totals": [totals.get(seat.id) for seat in session.seats],
        "scored_by": [[entry.by for entry in seat_entries] for seat_entries in entries],
        # the quilts the players confirmed from their photos (None: a score typed), and the checks of the game
        # a player confirmed anyway; `doodle table --check RECORD` checks them again
        "quilts": [[entry.quilt for entry in seat_entries] for seat_entries in entries],
        "overruled": [[entry.overruled for entry in seat_entries] for seat_entries in entries],
        "over": session.stage == Stage.OVER,
    }


def check_record(record: Any, deck: Deck) -> None:
    """Replay a table record's deal through the engine; ValueError when it is malformed or does not reproduce."""
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise ValueError(f"not a {RECORD_FORMAT} record")
    if record.get("deck_fingerprint") != deck.fingerprint:
        raise ValueError(f"the game was dealt from another deck ({record.get('deck')!r}): pass that deck file")
    try:
        replay_events(list(record["events"]), int(record["players"]), int(record["seed"]), deck)
    except (KeyError, TypeError) as error:
        raise ValueError(f"the record is malformed: {error}") from None
