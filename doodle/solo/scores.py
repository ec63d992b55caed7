"""The solo high-score table: an SQLite database in the user's data directory.

Each finished game is one row, keyed by its game id, so recording a game twice (a crash between recording and
removing the save) keeps one row. A rank is shared by equal totals: 1 + the number of better totals; a rank on
one seed counts only the games dealt from the same deck, told by its fingerprint (the same seed deals other
cards from another deck, or from an edited copy that kept the name). A
file that is not a usable score database raises `ScoresCorrupt`; the caller sets it aside rather than
overwriting it. A table of version 1 (before the deck was kept) is upgraded in place, its games' deck unknown.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

SCHEMA_VERSION = 2
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
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, timeout=5)
        except (OSError, sqlite3.Error) as error:
            raise ScoresError(f"cannot open the score database {path}: {error}") from None
        try:
            self._check_and_create()
        except BaseException:
            self._db.close()
            raise

    def _check_and_create(self) -> None:
        try:
            with self._db:
                version = self._db.execute("PRAGMA user_version").fetchone()[0]
                tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
                if tables and "scores" not in tables:
                    raise ScoresCorrupt(f"{self.path} is an SQLite database, but not a doodle score table")
                if version not in (0, 1, SCHEMA_VERSION):
                    raise ScoresCorrupt(f"{self.path} has score table version {version}; this doodle reads versions "
                                        f"1 to {SCHEMA_VERSION}")
                self._db.executescript(SCHEMA)
                columns = tuple(row[1] for row in self._db.execute("PRAGMA table_info(scores)"))
                if columns == VERSION_1_COLUMNS:
                    self._db.execute("ALTER TABLE scores ADD COLUMN deck TEXT")
                    self._db.execute("ALTER TABLE scores ADD COLUMN deck_id TEXT")
                    columns = COLUMNS
                if columns != COLUMNS:
                    raise ScoresCorrupt(f"{self.path} has a scores table with other columns ({', '.join(columns)})")
                self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except sqlite3.DatabaseError as error:
            raise self._error(error) from None

    def _error(self, error: sqlite3.Error) -> ScoresError:
        text = str(error)
        if "locked" in text or "readonly" in text or "unable to open" in text or "disk I/O" in text:
            return ScoresError(f"the score database {self.path} cannot be used now: {text}")
        return ScoresCorrupt(f"{self.path} is not a usable score database: {text}")

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> ScoreBook:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----- writing -----
    def add(self, entry: ScoreEntry) -> None:
        """Record a finished game (once: the same game id again changes nothing)."""
        row = (entry.game_id, entry.name, entry.total, entry.seed, entry.daily, json.dumps(list(entry.round_scores)),
               entry.empty, entry.par, entry.par_bot, entry.played_at, entry.deck, entry.deck_id)
        try:
            with self._db:
                self._db.execute(f"INSERT OR IGNORE INTO scores VALUES ({', '.join('?' * len(COLUMNS))})", row)
        except sqlite3.DatabaseError as error:
            raise self._error(error) from None

    # ----- reading -----
    def rank(self, total: int, seed: int | None = None, deck_id: str | None = None) -> Rank:
        """Where `total` stands among all games (or the games of `seed` dealt from the deck `deck_id`)."""
        where, args = ("WHERE seed = ? AND deck_id IS ?", (seed, deck_id)) if seed is not None else ("", ())
        better = self._one(f"SELECT COUNT(*) FROM scores {where} {'AND' if where else 'WHERE'} total > ?",
                           (*args, total))
        count = self._one(f"SELECT COUNT(*) FROM scores {where}", args)
        return Rank(better + 1, count)

    def count(self) -> int:
        """How many games are recorded."""
        return self._one("SELECT COUNT(*) FROM scores", ())

    def top(self, limit: int = 10, seed: int | None = None) -> list[ScoreEntry]:
        """The best games, best first (equal totals: the earlier game first)."""
        where, args = ("WHERE seed = ?", (seed,)) if seed is not None else ("", ())
        sql = f"SELECT {', '.join(COLUMNS)} FROM scores {where} ORDER BY total DESC, played_at, game_id LIMIT ?"
        return [self._entry(row) for row in self._rows(sql, (*args, limit))]

    def get(self, game_id: str) -> ScoreEntry | None:
        rows = self._rows(f"SELECT {', '.join(COLUMNS)} FROM scores WHERE game_id = ?", (game_id,))
        return self._entry(rows[0]) if rows else None

    def _one(self, sql: str, args: tuple) -> int:
        return int(self._rows(sql, args)[0][0])

    def _rows(self, sql: str, args: tuple) -> list[tuple]:
        try:
            with closing(self._db.execute(sql, args)) as cursor:
                return cursor.fetchall()
        except sqlite3.DatabaseError as error:
            raise self._error(error) from None

    def _entry(self, row: tuple) -> ScoreEntry:
        values = dict(zip(COLUMNS, row, strict=True))
        try:
            rounds = tuple(int(x) for x in json.loads(values["round_scores"]))
        except (TypeError, ValueError) as error:
            raise ScoresCorrupt(f"{self.path}: game {values['game_id']} has unreadable round scores: {error}") from None
        return ScoreEntry(**{**values, "round_scores": rounds})
