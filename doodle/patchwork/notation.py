"""A Patchwork position as one line of text, like chess's FEN: the syntax only (Game.notation and
Game.from_notation use it, and check that the position can happen).

    current circle:12,3,7,...,0 p0:0/5/0/000000000000000000000 p1:0/5/0/000000000000000000000 top:0
        bonus:- leather:- end:-     (on one line)

Fields, separated by spaces: the edition (current or original); the circle of patches left, clockwise from
the neutral token; for each player position/buttons/income/quilt (the quilt as 21 hex digits of its 81-bit
value, bit row*9+col); the player on top; the bonus owner; leather patches waiting to be placed
("PxN": player P places N, or "-"); the player who reached space 53 first ("-" if none). Leather patches left
on the track need no field: a leather patch is gone once a token has reached its space.
"""

from __future__ import annotations

from typing import NamedTuple

from doodle.patchwork.errors import NotationError, shown
from doodle.patchwork.moves import whole_number
from doodle.patchwork.patches import EDITIONS, TRACK_END
from doodle.quilt import FULL

FIELDS = ("circle", "p0", "p1", "top", "bonus", "leather", "end")
QUILT_DIGITS = 21  # hex digits of an 81-bit quilt

__all__ = ["FIELDS", "NotationError", "Position", "read_position", "write_position"]


class Side(NamedTuple):
    """One player's fields: track position, buttons, income, quilt bits."""

    position: int
    buttons: int
    income: int
    quilt: int


class Position(NamedTuple):
    """The fields of a position text, read but not judged: whether the rules can reach it is Game's business."""

    edition: str
    circle: tuple[int, ...]
    sides: tuple[Side, Side]
    on_top: int
    bonus: int | None
    leather: tuple[int, int] | None  # (placer, patches waiting) or None
    first_to_end: int | None


def write_position(position: Position) -> str:
    circle = ",".join(str(n) for n in position.circle) or "-"
    sides = [
        f"p{i}:{s.position}/{s.buttons}/{s.income}/{s.quilt:0{QUILT_DIGITS}x}" for i, s in enumerate(position.sides)
    ]
    leather = "-" if position.leather is None else f"{position.leather[0]}x{position.leather[1]}"
    return " ".join(
        [position.edition, f"circle:{circle}", *sides, f"top:{position.on_top}", f"bonus:{_or_dash(position.bonus)}",
         f"leather:{leather}", f"end:{_or_dash(position.first_to_end)}"]
    )  # fmt: skip


def read_position(text: str) -> Position:
    """The fields of the position `text`; NotationError names the field that cannot be read."""
    if not isinstance(text, str):
        raise NotationError(f"a position is one line of text, not {type(text).__name__}")
    words = text.split()
    if len(words) != 1 + len(FIELDS):
        raise NotationError(
            f"a position has {1 + len(FIELDS)} fields (edition, {', '.join(FIELDS)}), this one has {len(words)}"
        )
    edition, *rest = words
    if edition not in EDITIONS:
        raise NotationError(f"unknown edition {shown(edition)}: the first field is one of {', '.join(EDITIONS)}")
    values = {}
    for word, name in zip(rest, FIELDS, strict=True):
        label, sep, value = word.partition(":")
        if label != name or not sep:
            raise NotationError(f"expected the field '{name}:...' but found {shown(word)}")
        values[name] = value
    circle = () if values["circle"] == "-" else tuple(_int(n, "circle") for n in values["circle"].split(","))
    sides = tuple(_side(values[f"p{i}"], f"p{i}") for i in (0, 1))
    leather = None
    if values["leather"] != "-":
        placer, x, count = values["leather"].partition("x")
        if not x:
            raise NotationError("leather: write '-' or PxN (player P places N leather patches), e.g. 0x1")
        leather = (_player(placer, "leather"), _int(count, "leather"))
    return Position(
        edition, circle, sides, _player(values["top"], "top"),  # type: ignore[arg-type]
        None if values["bonus"] == "-" else _player(values["bonus"], "bonus"), leather,
        None if values["end"] == "-" else _player(values["end"], "end"),
    )  # fmt: skip


def _side(text: str, field: str) -> Side:
    parts = text.split("/")
    if len(parts) != 4:
        raise NotationError(f"{field}: write position/buttons/income/quilt, e.g. 0/5/0/{'0' * QUILT_DIGITS}")
    position, buttons, income = (_int(v, field) for v in parts[:3])
    if not 0 <= position <= TRACK_END:
        raise NotationError(f"{field}: the position must be 0 to {TRACK_END}, not {position}")
    quilt = parts[3]
    if not (0 < len(quilt) <= 2 * QUILT_DIGITS and all(c in "0123456789abcdefABCDEF" for c in quilt)):
        raise NotationError(f"{field}: the quilt {shown(quilt)} is not a hex number of {QUILT_DIGITS} digits")
    bits = int(quilt, 16)
    if bits > FULL:
        raise NotationError(f"{field}: the quilt {quilt!r} has bits beyond the 81 cells")
    return Side(position, buttons, income, bits)


def _or_dash(value: int | None) -> str:
    return "-" if value is None else str(value)


def _int(text: str, field: str) -> int:
    value = whole_number(text)
    if value is None:
        raise NotationError(f"{field}: {shown(text)} is not a whole number (the digits 0-9, at most 9 of them)")
    return value


def _player(text: str, field: str) -> int:
    if text not in ("0", "1"):
        raise NotationError(f"{field}: the player is 0 or 1, not {shown(text)}")
    return int(text)
