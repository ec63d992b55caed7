"""A Patchwork position as one line of text, like chess's FEN.

    current circle:12,3,7,...,0 p0:0/5/0/000000000000000000000 p1:0/5/0/000000000000000000000 top:0
        bonus:- leather:- end:-     (on one line)

Fields, separated by spaces: the edition (current or original); the circle of patches left, clockwise from
the neutral token; for each player position/buttons/income/quilt (the quilt as 21 hex digits of its 81-bit
value, bit row*9+col); the player on top; the bonus owner; leather patches waiting to be placed
("PxN": player P places N, or "-"); the player who reached space 53 first ("-" if none). Leather patches left
on the track need no field: a leather patch is gone once a token has reached its space.
"""

from __future__ import annotations

from doodle.patchwork.game import Game
from doodle.patchwork.moves import BONUS_SQUARES
from doodle.patchwork.patches import EDITIONS, TRACK_END
from doodle.quilt import FULL

FIELDS = ("circle", "p0", "p1", "top", "bonus", "leather", "end")


class NotationError(ValueError):
    """A position text that cannot be read; the message names the field and what is expected."""


def write_position(game: Game) -> str:
    circle = ",".join(str(n) for n in game.circle) or "-"
    players = [
        f"p{i}:{game.positions[i]}/{game.buttons[i]}/{game.income[i]}/{game.quilts[i].bits:021x}" for i in (0, 1)
    ]
    bonus = "-" if game.bonus_owner is None else str(game.bonus_owner)
    leather = f"{game.current_player}x{game.pending_leather}" if game.pending_leather else "-"
    end = "-" if game.first_to_end is None else str(game.first_to_end)
    return " ".join(
        [game.edition, f"circle:{circle}", *players, f"top:{game.on_top}", f"bonus:{bonus}", f"leather:{leather}",
         f"end:{end}"]
    )  # fmt: skip


def read_position(text: str) -> Game:
    """The game at the position `text` (no history to undo); NotationError says what is wrong."""
    words = text.split()
    if len(words) != 1 + len(FIELDS):
        raise NotationError(
            f"a position has {1 + len(FIELDS)} fields (edition, {', '.join(FIELDS)}), this one has {len(words)}"
        )
    edition, *rest = words
    if edition not in EDITIONS:
        raise NotationError(f"unknown edition {edition!r}: the first field is one of {', '.join(EDITIONS)}")
    values = {}
    for word, name in zip(rest, FIELDS, strict=True):
        label, sep, value = word.partition(":")
        if label != name or not sep:
            raise NotationError(f"expected the field '{name}:...' but found {word!r}")
        values[name] = value
    circle = [] if values["circle"] == "-" else [_int(n, "circle") for n in values["circle"].split(",")]
    try:
        game = Game(circle, edition=edition)
    except ValueError as error:
        raise NotationError(f"circle: {error}") from None
    for i in (0, 1):
        parts = values[f"p{i}"].split("/")
        if len(parts) != 4:
            raise NotationError(f"p{i}: write position/buttons/income/quilt, e.g. 0/5/0/000000000000000000000")
        position, buttons, income = (_int(v, f"p{i}") for v in parts[:3])
        if not 0 <= position <= TRACK_END:
            raise NotationError(f"p{i}: the position must be 0 to {TRACK_END}, not {position}")
        try:
            bits = int(parts[3], 16)
        except ValueError:
            raise NotationError(f"p{i}: the quilt {parts[3]!r} is not a hex number") from None
        if not 0 <= bits <= FULL:
            raise NotationError(f"p{i}: the quilt {parts[3]!r} has bits beyond the 81 cells")
        game._pos[i], game._buttons[i], game._income[i], game._bits[i] = position, buttons, income, bits
    game._top = _player(values["top"], "top")
    game._bonus = None if values["bonus"] == "-" else _player(values["bonus"], "bonus")
    game._first_end = None if values["end"] == "-" else _player(values["end"], "end")
    if values["leather"] != "-":
        placer, x, count = values["leather"].partition("x")
        if not x:
            raise NotationError("leather: write '-' or PxN (player P places N leather patches), e.g. 0x1")
        game._placer = _player(placer, "leather")
        game._pending = _int(count, "leather")
        if not 1 <= game._pending <= len(game.leather_track):
            raise NotationError(f"leather: {game._pending} leather patches cannot be waiting")
    _check(game)
    game.first = game._top
    game.start = write_position(game)
    return game


def _check(game: Game) -> None:
    bonus_quilts = [i for i in (0, 1) if any(game._bits[i] & sq == sq for sq in BONUS_SQUARES)]
    if game._bonus is not None and game._bonus not in bonus_quilts:
        raise NotationError(f"bonus: player {game._bonus}'s quilt has no filled 7x7 square")
    if game._bonus is None and bonus_quilts:
        raise NotationError(f"bonus: player {bonus_quilts[0]}'s quilt has a filled 7x7 square, so someone has the tile")
    if game._first_end is not None and game._pos[game._first_end] != TRACK_END:
        raise NotationError(f"end: player {game._first_end} is not on space {TRACK_END}")
    if game._first_end is None and TRACK_END in game._pos:
        raise NotationError(f"end: a player is on space {TRACK_END}, so say who reached it first")
    if game._pending and game._bits[game._placer] == FULL:
        raise NotationError("leather: the placer's quilt is full, so no leather patch can wait")


def _int(text: str, field: str) -> int:
    if not text.isdigit():
        raise NotationError(f"{field}: {text!r} is not a whole number")
    return int(text)


def _player(text: str, field: str) -> int:
    if text not in ("0", "1"):
        raise NotationError(f"{field}: the player is 0 or 1, not {text!r}")
    return int(text)
