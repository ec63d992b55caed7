"""Where solo games are kept: the save file (one game in progress, JSON, written atomically after every move)
and the paths of the user's data directory. A save that cannot be read is never overwritten: `set_aside()`
renames it so the player (or a bug report) still has it.
"""

from __future__ import annotations

import json
import os
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import platformdirs

from doodle.files import write_atomic
from doodle.game.deck import Deck, DeckError, load_deck
from doodle.game.game import DoodleGame, RecordError

APP_NAME = "doodle"
SAVE_FORMAT = "doodle-solo-save/1"
SAVE_ENV = "DOODLE_SOLO_SAVE"
SCORES_ENV = "DOODLE_SCORES"


class SaveError(ValueError):
    """A save file that cannot be read or does not replay; the message says what is wrong with it."""


class SaveDeckError(SaveError):
    """The save is fine but the user's deck file it was played with cannot be loaded (moved, edited)."""


class SaveWriteError(RuntimeError):
    """The game could not be written to its save file (disk full, no permission...)."""


def data_dir() -> Path:
    """The user's data directory for doodle (per platform, e.g. ~/.local/share/doodle on Linux)."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def default_save_path() -> Path:
    return data_dir() / "solo-save.json"


def default_scores_path() -> Path:
    return data_dir() / "solo-scores.sqlite3"


def set_aside(path: Path) -> Path:
    """Rename a damaged file to `<name>.corrupt-<UTC time>` beside it and return the new path."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    number = 1
    while target.exists():
        number += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{number}")
    os.replace(path, target)
    return target


@dataclass
class SoloSave:
    """A solo game in progress: the engine's record plus what the solo screens add."""

    record: dict[str, Any]
    name: str
    game_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    daily: str | None = None  # the date of a daily game, e.g. "2026-11-29"
    deck_path: str | None = None  # a user's deck file, when not the bundled deck
    started: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))

    def to_json(self) -> str:
        return json.dumps(
            {
                "format": SAVE_FORMAT,
                "game_id": self.game_id,
                "name": self.name,
                "daily": self.daily,
                "deck_path": self.deck_path,
                "started": self.started,
                "record": self.record,
            },
            indent=1,
        )

    def deck(self) -> Deck:
        """The deck this game is played with; SaveError when a user's deck file is gone or broken."""
        try:
            return load_deck(self.deck_path)
        except DeckError as error:
            raise SaveDeckError(f"the saved game uses a deck that cannot be loaded: {error}") from None

    def game(self) -> DoodleGame:
        """The game replayed from its record; SaveError when it does not replay."""
        deck = self.deck()
        try:
            return DoodleGame.replay(self.record, deck)  # which also checks the record names this deck
        except RecordError as error:
            raise SaveError(f"the saved game does not replay: {error}") from None


def parse_save(text: str) -> SoloSave:
    """A save from its JSON text; SaveError names what is wrong."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise SaveError(f"it is not valid JSON ({error})") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise SaveError(f"it is not a {SAVE_FORMAT} save (format is {found!r})")
    record = data.get("record")
    if not isinstance(record, dict):
        raise SaveError("it has no game record")
    text_fields = {key: data.get(key) for key in ("game_id", "name", "daily", "deck_path", "started")}
    for key, value in text_fields.items():
        if value is not None and not isinstance(value, str):
            raise SaveError(f"its field {key!r} should be text, not {type(value).__name__}")
    if not text_fields["game_id"] or not text_fields["name"]:
        raise SaveError("it lacks the game id or the player's name")
    return SoloSave(record=record, **{k: v for k, v in text_fields.items() if v is not None})


def read_save(path: Path) -> SoloSave | None:
    """The save at `path`, None when there is none; SaveError when it exists but cannot be used."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError:
        raise SaveError("it is not text") from None
    except OSError as error:
        raise SaveError(f"it cannot be read ({error.strerror})") from None
    return parse_save(text)


def write_save(path: Path, save: SoloSave) -> None:
    """Write the save atomically; SaveWriteError says why it failed (the old save is then still whole)."""
    try:
        write_atomic(path, save.to_json())
    except OSError as error:
        raise SaveWriteError(f"the game could not be saved to {path}: {error.strerror or error}") from None


def remove_save(path: Path) -> None:
    path.unlink(missing_ok=True)
