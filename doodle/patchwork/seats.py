"""Who plays each seat of a game (a person, or a bot and its strength), kept in the game record so that a
resumed game goes on with the same players. Like the rest of a record, read as untrusted input."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from doodle.patchwork.bots import BOT_NAMES, make_bot
from doodle.patchwork.errors import PatchworkRecordError, is_int, shown

MAX_SECONDS = 3600.0  # a bot's thinking time per move, at most
MAX_SEED = 2**63 - 1


@dataclass(frozen=True)
class Seat:
    """A person (`bot` None) or the bot named `bot`; `seconds` is the MCTS bot's thinking time per move."""

    bot: str | None = None
    seconds: float | None = None

    @property
    def human(self) -> bool:
        return self.bot is None

    def describe(self) -> str:
        if self.bot is None:
            return "a person"
        return f"the {self.bot} bot" + (f" ({self.seconds:g} s a move)" if self.seconds is not None else "")

    def to_json(self) -> dict[str, Any]:
        if self.bot is None:
            return {"kind": "human"}
        data: dict[str, Any] = {"kind": "bot", "bot": self.bot}
        if self.seconds is not None:
            data["seconds"] = self.seconds
        return data

    def player(self, seed: int | None = None) -> object | None:
        """None for a person, else a new bot with `choose(game)`."""
        return None if self.bot is None else make_bot(self.bot, seed=seed, seconds=self.seconds)


def seat_from_json(value: Any, number: int) -> Seat:
    """The seat a record's `players[number - 1]` describes; PatchworkRecordError says what is wrong."""
    where = f"'players' entry {number}"
    if not isinstance(value, dict) or value.get("kind") not in ("human", "bot"):
        raise PatchworkRecordError(
            f'{where} is {{"kind": "human"}} or {{"kind": "bot", "bot": NAME}}, not {shown(value)}'
        )
    if value["kind"] == "human":
        return Seat()
    bot = value.get("bot")
    if not isinstance(bot, str) or bot not in BOT_NAMES:
        raise PatchworkRecordError(f"{where}: the bot is one of {', '.join(BOT_NAMES)}, not {shown(bot)}")
    seconds = value.get("seconds")
    if seconds is not None:
        if bot != "mcts":
            raise PatchworkRecordError(f"{where}: only the mcts bot takes 'seconds'")
        number_ok = (is_int(seconds) or isinstance(seconds, float)) and math.isfinite(seconds)
        if not number_ok or not 0 < seconds <= MAX_SECONDS:
            raise PatchworkRecordError(f"{where}: 'seconds' is a time per move, above 0 and at most {MAX_SECONDS:g}")
        seconds = float(seconds)
    return Seat(bot, seconds)


def read_seats(record: dict[str, Any]) -> tuple[Seat, Seat] | None:
    """The seats a record keeps, or None for a record written before records kept them."""
    if "players" not in record:
        return None
    players = record["players"]
    if not isinstance(players, list) or len(players) != 2:
        raise PatchworkRecordError("'players' lists the two seats, player 1's then player 2's")
    seats = (seat_from_json(players[0], 1), seat_from_json(players[1], 2))
    if not any(seat.human for seat in seats):
        raise PatchworkRecordError("'players': at least one seat is a person's (bots play each other in selfplay)")
    return seats


def read_seed(record: dict[str, Any]) -> int | None:
    """The seed the record's circle was shuffled with, when it says."""
    seed = record.get("seed")
    if seed is not None and not (is_int(seed) and 0 <= seed <= MAX_SEED):
        raise PatchworkRecordError(f"'seed' is a whole number from 0 to {MAX_SEED}, not {shown(seed)}")
    return seed


def with_seats(record: dict[str, Any], seats: tuple[Seat, Seat], seed: int | None) -> dict[str, Any]:
    """`record` with the seats (and the seed, when known) added."""
    record["players"] = [seat.to_json() for seat in seats]
    if seed is not None:
        record["seed"] = seed
    return record
