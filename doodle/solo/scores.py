"""The solo high-score table: an SQLite database in the user's data directory.

Each finished game is one row, keyed by its game id, so recording a game twice (a crash between recording and
removing the save) keeps one row. A rank is shared by equal totals: 1 + the number of better totals; a rank on
one seed counts only the games dealt from the same deck, told by its fingerprint (the same seed deals other
cards from another deck, or from an edited copy that kept the name). A
file that is not a usable score database raises `ScoresCorrupt`; the caller sets it aside rather than
overwriting it. A table of version 1 (before the deck was kept) is upgraded in place, its games' deck unknown.
A row that cannot be read (edited by hand, damaged) is left out of the table shown and counted in `skipped`; it
never stops the other rows from being read or a new game from being recorded.
"""

from __future__ import annotations

import json
import sqlite3
import unicodedata
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

SCHEMA_VERSION = 2
LOCK_TIMEOUT = 5.0  # seconds to wait for another program's write to the table before giving up
NAME_LIMIT = 64  # characters kept of a player's or a deck's name
COLUMNS = ("game_id", "name", "total", "seed", "daily", "round_scores", "empty", "par", "par_bot", "played_at",
           "deck", "deck_id")
VERSION_1_COLUMNS = COLUMNS[:-2]
SCHEMA = """
CREATE TABLE IF NOT EXISTS scores (
    game_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    total INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    daily TEXT,
    round_scores TEXT NOT NULL,
    empty INTEGER NOT NULL,
    par INTEGER,
    par_bot TEXT,
    played_at TEXT NOT NULL,
    deck TEXT,
    deck_id TEXT
);
CREATE INDEX IF NOT EXISTS scores_total ON scores (total DESC);
CREATE INDEX IF NOT EXISTS scores_seed ON scores (seed, total DESC);
"""


class ScoresError(RuntimeError):
    """The score database cannot be used right now (locked, unwritable); the message says why."""


class ScoresCorrupt(ScoresError):
    """The file is not a doodle score database (damaged, or something else): set it aside, do not overwrite."""


class ScoresForeign(ScoresCorrupt):
    """A sound SQLite database of some other program (a wrong --scores path, most likely)."""


@dataclass(frozen=True)
class ScoreEntry:
    game_id: str
    name: str
    total: int
    seed: int
    daily: str | None
    round_scores: tuple[int, ...]
    empty: int
    par: int | None
    par_bot: str | None
    played_at: str
    deck: str | None = None  # the deck's name (None: recorded before the deck was kept)
    deck_id: str | None = None  # the deck's fingerprint (Deck.fingerprint): what tells decks apart


@dataclass(frozen=True)
class Rank:
    """`place` among `of` games (1 is best); ties share a place."""

    place: int
    of: int


class ScoreBook:
    """The high-score table at `path` (created when missing). Use as a context manager or call close()."""

    def __init__(self, path: Path) -> None:
        self.path = path
        if path.exists() and not path.is_file():  # a device, a pipe: SQLite would write its journal beside it
            raise ScoresError(f"the score database {path} is not a regular file: give a file's path with --scores")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, timeout=LOCK_TIMEOUT)
        except (OSError, sqlite3.Error) as error:
            raise ScoresError(f"cannot open the score database {path}: {_reason(error)}") from None
        # text that is not UTF-8 (a damaged byte) is read with replacement characters rather than raised
        self._db.text_factory = lambda data: data.decode("utf-8", "replace")
        self.skipped = 0  # rows left out of the last reading because they cannot be read
        try:
            self._check_and_create()
        except BaseException:
            self._db.close()
            raise

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """SQLite's errors as ScoresError (locked, read-only...) or ScoresCorrupt (a damaged file). A damaged byte
        in the schema can surface as a UnicodeDecodeError of SQLite's own message."""
        try:
            yield
        except sqlite3.DatabaseError as error:
            raise self._error(error) from None
        except UnicodeDecodeError:
            raise ScoresCorrupt(f"{self.path} is not a usable score database: it holds bytes that are not "
                                "text where its structure should be") from None

    def _check_and_create(self) -> None:
        with self._errors(), self._db:
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if tables and "scores" not in tables:
                raise ScoresForeign(f"{self.path} is an SQLite database, but not a doodle score table")
            if version not in (0, 1, SCHEMA_VERSION):
                raise ScoresCorrupt(f"{self.path} has score table version {version}; this doodle reads versions "
                                    f"1 to {SCHEMA_VERSION}")
            problems = [row[0] for row in self._db.execute("PRAGMA quick_check(3)")]
            if problems != ["ok"]:  # found before anything is written to it
                raise ScoresCorrupt(f"{self.path} is damaged: {'; '.join(problems)}")
            self._db.executescript(SCHEMA)
            columns = tuple(row[1] for row in self._db.execute("PRAGMA table_info(scores)"))
            if columns == VERSION_1_COLUMNS:
                self._db.execute("ALTER TABLE scores ADD COLUMN deck TEXT")
                self._db.execute("ALTER TABLE scores ADD COLUMN deck_id TEXT")
                columns = COLUMNS
            if columns != COLUMNS:
                raise ScoresCorrupt(f"{self.path} has a scores table with other columns ({', '.join(columns)})")
            if version != SCHEMA_VERSION:  # set once: a table is not written to merely by opening it
                self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _error(self, error: sqlite3.Error) -> ScoresError:
        text = _reason(error)
        if "locked" in text or "busy" in text:
            return ScoresError(f"the score database {self.path} is in use by another program (it waited "
                               f"{LOCK_TIMEOUT:g} s): {text}")
        if "readonly" in text or "unable to open" in text or "disk I/O" in text or "full" in text:
            return ScoresError(f"the score database {self.path} cannot be written: {text}")
        return ScoresCorrupt(f"{self.path} is not a usable score database: {text}")

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> ScoreBook:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----- writing -----
    def add(self, entry: ScoreEntry) -> None:
        """Record a finished game (once: the same game id again changes nothing) and check that it reads back;
        ScoresCorrupt when it does not."""
        row = (entry.game_id, clean_text(entry.name), entry.total, entry.seed, entry.daily,
               json.dumps(list(entry.round_scores)), entry.empty, entry.par, entry.par_bot, entry.played_at,
               clean_text(entry.deck) if entry.deck is not None else None, entry.deck_id)
        for verb in ("INSERT OR IGNORE", "INSERT OR REPLACE"):  # replace only a row of this game that cannot be read
            try:
                with self._errors(), self._db:
                    self._db.execute(f"{verb} INTO scores VALUES ({', '.join('?' * len(COLUMNS))})", row)
            except OverflowError:  # a number beyond SQLite's 64-bit integers: not a game this doodle deals
                raise ValueError(f"game {entry.game_id} has a number too large to record") from None
            if self.get(entry.game_id) is not None:
                return
        raise ScoresCorrupt(f"{self.path} is not a usable score database: a game written to it does not read back")

    # ----- reading -----
    # Every reading goes through the rows that can be read, so ranks, counts and the table shown agree.
    def rank(self, total: int, seed: int | None = None, deck_id: str | None = None) -> Rank:
        """Where `total` stands among all games (or the games of `seed` dealt from the deck `deck_id`)."""
        entries = self._readable(seed)
        if seed is not None:
            entries = [entry for entry in entries if entry.deck_id == deck_id]
        return Rank(1 + sum(entry.total > total for entry in entries), len(entries))

    def count(self) -> int:
        """How many games are recorded (rows that cannot be read left out)."""
        return len(self._readable())

    def top(self, limit: int = 10, seed: int | None = None) -> list[ScoreEntry]:
        """The best games, best first (equal totals: the earlier game first)."""
        return self._readable(seed)[:limit]

    def _readable(self, seed: int | None = None) -> list[ScoreEntry]:
        """The rows (of one seed) that can be read, best first; `self.skipped` counts the others."""
        where, args = ("WHERE seed = ?", (seed,)) if seed is not None else ("", ())
        rows = self._rows(f"SELECT {', '.join(COLUMNS)} FROM scores {where}", args)
        entries = [entry for entry in map(_entry, rows) if entry is not None]
        self.skipped = len(rows) - len(entries)
        return sorted(entries, key=lambda entry: (-entry.total, entry.played_at, entry.game_id))

    def get(self, game_id: str) -> ScoreEntry | None:
        """The game recorded under `game_id`; None when there is none or its row cannot be read."""
        rows = self._rows(f"SELECT {', '.join(COLUMNS)} FROM scores WHERE game_id = ?", (game_id,))
        return _entry(rows[0]) if rows else None

    def _rows(self, sql: str, args: tuple) -> list[tuple]:
        with self._errors(), closing(self._db.execute(sql, args)) as cursor:
            return cursor.fetchall()


_TEXT_COLUMNS = ("game_id", "name", "played_at")
_OPTIONAL_TEXT = ("daily", "par_bot", "deck", "deck_id")
_OPTIONAL_INT = ("par",)


def _entry(row: tuple) -> ScoreEntry | None:
    """A row as a ScoreEntry, None when a value in it is not what the column holds (edited, damaged)."""
    values = dict(zip(COLUMNS, row, strict=True))
    try:
        rounds = json.loads(values["round_scores"])
    except (TypeError, ValueError, RecursionError):
        return None
    if not isinstance(rounds, list) or not all(is_whole_number(score) for score in rounds):
        return None
    if not all(is_whole_number(values[key]) for key in ("total", "seed", "empty")):
        return None
    if not all(isinstance(values[key], str) for key in _TEXT_COLUMNS):
        return None
    if not all(values[key] is None or isinstance(values[key], str) for key in _OPTIONAL_TEXT):
        return None
    if not all(values[key] is None or is_whole_number(values[key]) for key in _OPTIONAL_INT):
        return None
    return ScoreEntry(**{**values, "name": clean_text(values["name"]), "round_scores": tuple(rounds),
                         "deck": clean_text(values["deck"]) if values["deck"] is not None else None})


def is_whole_number(value: object) -> bool:
    """An int that is not a bool (JSON and SQLite values checked before use)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _reason(error: Exception) -> str:
    return str(error) or type(error).__name__


def clean_text(text: str, limit: int = NAME_LIMIT) -> str:
    """`text` safe to print on a terminal: control characters (escape sequences, bidirectional overrides, line
    breaks) become '?', and at most `limit` characters are kept."""
    return "".join("?" if unicodedata.category(char).startswith("C") and char != "\u200d" else char
                   for char in text[:limit])
