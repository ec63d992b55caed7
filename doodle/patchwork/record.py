"""Game records as JSON-ready dicts: the setup and every move, replayable and checked on replay."""

from __future__ import annotations

from typing import Any

from doodle.patchwork.game import Game, IllegalMoveError
from doodle.patchwork.moves import MoveSyntaxError, parse_move
from doodle.patchwork.notation import NotationError, read_position

FORMAT = "doodle-patchwork"
VERSION = 1


class RecordError(ValueError):
    """A game record that cannot be replayed; the message names the field or the move and the reason."""


def game_record(game: Game) -> dict[str, Any]:
    """The record of `game`: its setup (edition, circle order, first player, or a start position), the moves in
    text form (see Move.text), and the outcome so far."""
    record: dict[str, Any] = {"format": FORMAT, "version": VERSION, "edition": game.edition}
    if game.start is not None:
        record["start"] = game.start
    else:
        record["order"] = list(game.order)
        record["first"] = game.first
    record["moves"] = [move.text() for move in game.move_stack]
    record["position"] = game.notation()
    record["over"] = game.is_over()
    record["scores"] = list(game.scores())
    record["winner"] = game.winner()
    return record


def replay(record: Any) -> Game:
    """The game that `record` describes, every move checked; RecordError names what does not replay."""
    if not isinstance(record, dict):
        raise RecordError("a game record is a JSON object")
    if record.get("format", FORMAT) != FORMAT:
        raise RecordError(f"this is not a Patchwork record (format {record.get('format')!r}, expected {FORMAT!r})")
    if record.get("version", VERSION) != VERSION:
        raise RecordError(f"record version {record.get('version')!r} is not supported (this program reads {VERSION})")
    try:
        if "start" in record:
            game = read_position(str(record["start"]))
            if game.edition != record.get("edition", game.edition):
                raise RecordError("the edition and the start position disagree")
        else:
            order = record.get("order")
            if not isinstance(order, list):
                raise RecordError("the record needs 'order' (the circle of patch numbers) or a 'start' position")
            game = Game(order, edition=record.get("edition", "current"), first=record.get("first", 0))
    except (NotationError, ValueError) as error:
        if isinstance(error, RecordError):
            raise
        raise RecordError(f"bad setup: {error}") from None
    moves = record.get("moves", [])
    if not isinstance(moves, list):
        raise RecordError("'moves' must be a list of move texts")
    for number, text in enumerate(moves, 1):
        if not isinstance(text, str):
            raise RecordError(f"move {number}: {text!r} is not a move text")
        try:
            game.play(parse_move(text))
        except (MoveSyntaxError, IllegalMoveError) as error:
            raise RecordError(f"move {number} ({text!r}) does not replay: {error}") from None
    for key, value in (("position", game.notation()), ("scores", list(game.scores())), ("winner", game.winner())):
        if key in record and record[key] != value:
            raise RecordError(f"the record says {key} {record[key]!r}, but its moves give {value!r}")
    return game
