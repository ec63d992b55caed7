"""Where solo games are kept: the save file (one game in progress, JSON, written atomically after every move),
the finished games whose score is still to be recorded, and the paths of the user's data directory. A save that
cannot be read is never overwritten: `set_aside()` renames it so the player (or a bug report) still has it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import time
import uuid
from dataclasses import asdict, dataclass, field, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import platformdirs

from doodle.files import InputFileError, read_text_limited, write_atomic
from doodle.game.deck import Deck, load_deck
from doodle.game.game import RECORD_FORMAT, DoodleGame, RecordError
from doodle.solo.scores import ScoreEntry, clean_text, is_whole_number

APP_NAME = "doodle"
SAVE_FORMAT = "doodle-solo-save/1"
SAVE_ENV = "DOODLE_SOLO_SAVE"
SCORES_ENV = "DOODLE_SCORES"
FINISHED_FORMAT = "doodle-solo-finished/1"
SAVE_LIMIT = 1 << 20  # bytes; a whole game's save is about 10 KB
MAX_LOG = 2000  # entries; a whole solo game logs under 200
STALE_AFTER = 3600  # seconds after which a temporary file of an atomic write is a leftover of a killed run
MAX_SEED = 2**63 - 1


class SaveError(ValueError):
    """A save file that cannot be read or does not replay; the message says what is wrong with it."""


class SaveDeckError(SaveError):
    """The save is fine but the user's deck file it was played with cannot be loaded (moved, edited)."""


class SaveNotAFile(SaveError):
    """The save path names a device, a pipe or the like: nothing to set aside or overwrite there."""


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
    """Rename a damaged file to `<name>.corrupt-<UTC time>` beside it and return the new path. Only a regular
    file is moved (OSError otherwise): a device or a pipe given as a path is never renamed."""
    if not stat.S_ISREG(path.lstat().st_mode) and not path.is_symlink():
        raise OSError(f"{path} is not a regular file")
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
        """The deck this game is played with; SaveDeckError when a user's deck file is gone or broken."""
        if self.deck_path is not None and _exists_but_not_a_file(Path(self.deck_path)):
            raise SaveDeckError(f"the saved game uses the deck file {self.deck_path}, which is not a regular file")
        try:
            return load_deck(self.deck_path)
        except (ValueError, RecursionError, OSError) as error:  # DeckError, and whatever else a hostile file gives
            raise SaveDeckError(f"the saved game uses a deck that cannot be loaded: {error}") from None

    def game(self) -> DoodleGame:
        """The game replayed from its record; SaveError when it does not replay."""
        check_record(self.record)
        deck = self.deck()
        try:
            return DoodleGame.replay(self.record, deck)  # which also checks the record names this deck
        except RecordError as error:
            reason = str(error).removeprefix("the record does not replay: ")
            raise SaveError(f"its moves do not replay ({reason}): it was edited or damaged") from None


def check_record(record: dict[str, Any]) -> None:
    """Check the shape of a solo game's record (types and ranges of every field and move) before replaying it,
    so that what is wrong is said in a player's words; SaveError names the first problem."""
    if record.get("format") != RECORD_FORMAT:
        raise SaveError(f"its game record is not a {RECORD_FORMAT} record (format is {_shown(record.get('format'))})")
    seed = record.get("seed")
    if not is_whole_number(seed) or not 0 <= seed <= MAX_SEED:
        raise SaveError(f"its seed is {_shown(seed)}, not a whole number from 0 to {MAX_SEED}")
    players = record.get("players")
    if is_whole_number(players) and players != 1:
        raise SaveError(f"it is a game for {_shown(players)} players, not a solo game")
    if not is_whole_number(players):
        raise SaveError(f"its number of players is {_shown(players)}, not 1")
    names = record.get("names")
    if not isinstance(names, list) or len(names) != 1 or not isinstance(names[0], str):
        raise SaveError("its player's name is missing or not text")
    if not isinstance(record.get("deck", ""), str):
        raise SaveError("its deck's name is not text")
    log = record.get("log")
    if not isinstance(log, list):
        raise SaveError("its list of moves is missing")
    if len(log) > MAX_LOG:
        raise SaveError(f"it lists {len(log)} moves, more than a whole game makes")
    for number, entry in enumerate(log, start=1):
        problem = _entry_problem(entry)
        if problem:
            raise SaveError(f"entry {number} of its moves {problem}")
    scores = record.get("round_scores")
    if scores is not None and not (isinstance(scores, list) and all(
            isinstance(row, list) and all(is_whole_number(score) for score in row) for row in scores)):
        raise SaveError("its round scores are not lists of whole numbers")


def _entry_problem(entry: object) -> str | None:
    """What is wrong with one entry of a record's log, None when it is well formed."""
    if not isinstance(entry, dict):
        return f"is {_shown(entry)}, not a move"
    if "roll" in entry:
        roll = entry["roll"]
        if isinstance(roll, str):
            return f"is a die roll written as text ({_shown(roll)}); a roll is the number 1, 2 or 3"
        if not is_whole_number(roll) or roll not in (1, 2, 3):
            return f"is a die roll of {_shown(roll)}; a die shows 1, 2 or 3"
        return None
    if entry.get("player") != 0 or not is_whole_number(entry.get("player")):
        return f"is by player {_shown(entry.get('player'))}; a solo game has only player 0"
    action = entry.get("action")
    if not isinstance(action, dict):
        return f"has the action {_shown(action)}, not a draw, a single square or the end of a turn"
    kind = action.get("type")
    if kind == "end":
        return None
    if kind == "single":
        return None if _is_cell(action.get("cell")) else "is a single square whose cell is not on the grid"
    if kind == "draw":
        cells = action.get("cells")
        if not isinstance(action.get("card"), str):
            return "draws a card that is not named"
        if not isinstance(cells, list) or not 0 < len(cells) <= 81 or not all(_is_cell(cell) for cell in cells):
            return "draws cells that are not on the grid"
        if not isinstance(action.get("cut", False), bool):
            return "draws a patch whose cut mark is not true or false"
        return None
    return f"is an action of kind {_shown(kind)}, not draw, single or end"


def _is_cell(value: object) -> bool:
    return (isinstance(value, list) and len(value) == 2
            and all(is_whole_number(number) and 0 <= number < 9 for number in value))


def _shown(value: object) -> str:
    """A value from a file, short and printable, for a message."""
    if is_whole_number(value) and abs(value) >= 10**20:
        return f"a number of about {int(value.bit_length() * 0.30103)} digits"
    if isinstance(value, list | dict):
        return "a list" if isinstance(value, list) else "a group of fields"
    text = repr(value) if isinstance(value, str) else json.dumps(value)
    return clean_text(text if len(text) <= 24 else text[:20] + "...", limit=24)


def _exists_but_not_a_file(path: Path) -> bool:
    try:
        return not stat.S_ISREG(path.stat().st_mode)
    except OSError:  # missing, a loop...: the read says so
        return False


def parse_save(text: str) -> SoloSave:
    """A save from its JSON text; SaveError names what is wrong."""
    data = _parse_json(text)
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
    if len(text_fields["game_id"]) > 100:
        raise SaveError("its game id is too long")
    if text_fields["deck_path"] == "":
        raise SaveError("its deck file's name is empty")
    text_fields["name"] = clean_text(text_fields["name"])
    return SoloSave(record=record, **{k: v for k, v in text_fields.items() if v is not None})


def _parse_json(text: str) -> Any:
    """JSON as doodle writes it: no Infinity or NaN, numbers Python can read, nesting a game never needs."""
    def refuse(constant: str) -> None:
        raise SaveError(f"it holds {constant}, which is not a number a game writes")

    try:
        return json.loads(text, parse_constant=refuse)
    except SaveError:
        raise
    except json.JSONDecodeError as error:
        raise SaveError(f"it is not valid JSON ({error})") from None
    except RecursionError:
        raise SaveError("it is nested far deeper than a game is") from None
    except ValueError:  # a number of thousands of digits, beyond what Python reads
        raise SaveError("it holds a number thousands of digits long, which no game writes") from None


def read_save(path: Path) -> SoloSave | None:
    """The save at `path`, None when there is none; SaveError when it exists but cannot be used (SaveNotAFile
    when the path is a device, a pipe...: read nothing from it, write nothing to it)."""
    _check_is_file(path)
    try:
        text = read_text_limited(path, SAVE_LIMIT, "it")
    except InputFileError as error:
        if not path.exists() and not path.is_symlink():
            return None
        raise SaveError(str(error)) from None
    return parse_save(text)


def _check_is_file(path: Path) -> None:
    if _exists_but_not_a_file(path):
        raise SaveNotAFile(f"{path} is not a regular file: give a file's path with --save")


def write_save(path: Path, save: SoloSave) -> None:
    """Write the save atomically; SaveWriteError says why it failed (the old save is then still whole)."""
    _write(path, save.to_json())


def _write(path: Path, text: str) -> None:
    if _exists_but_not_a_file(path):
        raise SaveWriteError(f"the game could not be saved to {path}: it is not a regular file")
    try:
        write_atomic(path, text)
    except OSError as error:
        raise SaveWriteError(f"the game could not be saved to {path}: {error.strerror or error}") from None


def remove_save(path: Path) -> None:
    path.unlink(missing_ok=True)


def remove_stale_temporaries(save_path: Path, older_than: float = STALE_AFTER) -> int:
    """Remove what a killed run left of its atomic writes beside the save (`.<name>.XXXXXXXX.tmp`, also those of
    the finished games), when older than `older_than` seconds (a younger one may be another doodle's write in
    progress); return how many were removed. Errors are ignored: this is tidying only."""
    pattern = re.compile(rf"\.{re.escape(save_path.name)}\.(finished-[0-9a-f]+\.json\.)?[a-z0-9_]{{8}}\.tmp")
    removed = 0
    try:
        candidates = list(save_path.parent.iterdir())
    except OSError:
        return 0
    for path in candidates:
        try:
            if pattern.fullmatch(path.name) and stat.S_ISREG(path.lstat().st_mode) and \
                    time.time() - path.lstat().st_mtime > older_than:
                path.unlink()
                removed += 1
        except OSError:
            continue
    return removed


# ----- finished games waiting for their score to be recorded -----
def finished_path(save_path: Path, game_id: str) -> Path:
    """Where a finished game whose score could not be recorded waits, beside the save."""
    return save_path.with_name(f"{save_path.name}.finished-{hashlib.sha256(game_id.encode()).hexdigest()[:16]}.json")


def keep_finished(save_path: Path, scores_path: Path, entry: ScoreEntry, save: SoloSave) -> Path:
    """Write a finished game (its score entry, the table it is for, and its whole save, to re-check) beside the
    save, atomically; SaveWriteError says why it could not be kept."""
    path = finished_path(save_path, entry.game_id)
    data = {"format": FINISHED_FORMAT, "scores": _table_name(scores_path), "entry": asdict(entry),
            "save": json.loads(save.to_json())}
    _write(path, json.dumps(data, indent=1))
    return path


def finished_games(save_path: Path, scores_path: Path) -> list[tuple[Path, ScoreEntry | SaveError]]:
    """The finished games waiting beside the save to be recorded in the table at `scores_path`, oldest first:
    each with its score entry, or with the SaveError that says why its file cannot be used. Games kept for
    another table (played with another --scores) are left for a run that uses it."""
    pattern = f"{save_path.name}.finished-*.json"
    try:
        paths = sorted(save_path.parent.glob(pattern), key=lambda path: (path.stat().st_mtime, path.name))
    except OSError:
        return []
    found: list[tuple[Path, ScoreEntry | SaveError]] = []
    for path in paths:
        try:
            _check_is_file(path)
            table, entry = _finished_entry(read_text_limited(path, SAVE_LIMIT, "it"))
        except (SaveError, InputFileError) as error:
            found.append((path, SaveError(str(error))))
            continue
        if table == _table_name(scores_path):
            found.append((path, entry))
    return found


def _table_name(scores_path: Path) -> str:
    return str(scores_path.expanduser().absolute())


def _finished_entry(text: str) -> tuple[str, ScoreEntry]:
    """The table a kept finished game is for, and its score entry; SaveError when the file is not one."""
    data = _parse_json(text)
    entry = data.get("entry") if isinstance(data, dict) and data.get("format") == FINISHED_FORMAT else None
    if not isinstance(entry, dict) or set(entry) != {f.name for f in fields(ScoreEntry)} \
            or not isinstance(data.get("scores"), str):
        raise SaveError(f"it is not a {FINISHED_FORMAT} file")

    def text(key: str, optional: bool = False) -> bool:
        value = entry[key]
        return (optional and value is None) or (isinstance(value, str) and 0 < len(value) <= 100)

    def number(key: str, optional: bool = False) -> bool:
        value = entry[key]
        return (optional and value is None) or (is_whole_number(value) and abs(value) <= MAX_SEED)

    if not (all(text(key) for key in ("game_id", "name", "played_at"))
            and all(text(key, optional=True) for key in ("daily", "par_bot", "deck", "deck_id"))
            and all(number(key) for key in ("total", "seed", "empty")) and number("par", optional=True)):
        raise SaveError("its score entry has a field of the wrong kind")
    rounds = entry["round_scores"]
    if not isinstance(rounds, list) or len(rounds) > 3 or not all(is_whole_number(x) and 0 <= x <= 81 for x in rounds):
        raise SaveError("its round scores are not those of a game")
    return data["scores"], ScoreEntry(**{**entry, "round_scores": tuple(rounds)})
