"""Game records as JSON-ready dicts: the setup and every move (Game.to_record, Game.from_record).

This module reads and writes the record's fields and checks each one's type; replaying the moves is the
game's job. A record from a file is untrusted: every field is checked before it is used.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from doodle.patchwork.errors import PatchworkRecordError, is_int, shown

FORMAT = "doodle-patchwork"
VERSION = 1
MAX_MOVES = 1000  # a game has about 60-120 moves; no game has this many
MAX_MOVE_TEXT = 200  # the longest move text is a 9-cell patch, about 30 characters

__all__ = ["FORMAT", "VERSION", "PatchworkRecordError", "RecordSetup", "make_record", "read_record"]


class RecordSetup(NamedTuple):
    """What a record says, each field checked for its type: a start position (text) or the circle `order` and
    the `first` player; the move texts; and the outcome it claims (`claims`: position, scores, winner given)."""

    edition: str | None
    start: str | None
    order: tuple[int, ...] | None
    first: int
    moves: tuple[str, ...]
    claims: dict[str, Any]


def make_record(edition: str, start: str | None, order: tuple[int, ...], first: int, moves: list[str],
                position: str, over: bool, scores: tuple[int, int], winner: int | None) -> dict[str, Any]:  # fmt: skip
    """The record's JSON-ready dict."""
    record: dict[str, Any] = {"format": FORMAT, "version": VERSION, "edition": edition}
    if start is not None:
        record["start"] = start
    else:
        record["order"] = list(order)
        record["first"] = first
    record.update(moves=moves, position=position, over=over, scores=list(scores), winner=winner)
    return record


def read_record(record: Any) -> RecordSetup:
    """The setup and moves of `record` (a parsed JSON value); PatchworkRecordError names the first field that
    is missing or of the wrong type."""
    if not isinstance(record, dict):
        raise PatchworkRecordError("a game record is a JSON object")
    if record.get("format", FORMAT) != FORMAT:
        raise PatchworkRecordError(f"this is not a Patchwork record (format {shown(record.get('format'))}, "
                                   f"expected {FORMAT!r})")  # fmt: skip
    version = record.get("version", VERSION)
    if not is_int(version) or version != VERSION:
        raise PatchworkRecordError(
            f"record version {shown(record.get('version'))} is not supported (this program reads {VERSION})"
        )
    edition = record.get("edition")
    if edition is not None and not isinstance(edition, str):
        raise PatchworkRecordError(f"'edition' is a name such as \"current\", not {shown(edition)}")
    start = order = None
    first = 0
    if "start" in record:
        start = record["start"]
        if not isinstance(start, str):
            raise PatchworkRecordError(f"'start' is a position text, not {shown(start)}")
    else:
        order = record.get("order")
        if not isinstance(order, list) or not all(is_int(n) for n in order):
            raise PatchworkRecordError("the record needs 'order' (a list of patch numbers) or a 'start' position")
        order = tuple(order)
        first = record.get("first", 0)
        if not is_int(first) or first not in (0, 1):
            raise PatchworkRecordError(f"'first' is the player who starts, 0 or 1, not {shown(first)}")
    moves = record.get("moves", [])
    if not isinstance(moves, list):
        raise PatchworkRecordError("'moves' must be a list of move texts")
    if len(moves) > MAX_MOVES:
        raise PatchworkRecordError(f"'moves' has {len(moves)} moves; no game has more than {MAX_MOVES}")
    for number, text in enumerate(moves, 1):
        if not isinstance(text, str) or len(text) > MAX_MOVE_TEXT:
            raise PatchworkRecordError(f"move {number}: {shown(text)} is not a move text")
    claims = {key: record[key] for key in ("position", "scores", "winner") if key in record}
    return RecordSetup(edition, start, order, first, tuple(moves), claims)
