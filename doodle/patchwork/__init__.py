"""Patchwork for two players: the patches, a game state with legal moves, play and undo, text forms, bots.

    >>> from doodle.patchwork import Game
    >>> game = Game.new(seed=1)
    >>> move = game.legal_moves()[0]
    >>> game.play(move)

Players are 0 and 1. Every error is a PatchworkError (a ValueError): IllegalMoveError, MoveSyntaxError,
NotationError, PatchworkRecordError. Nothing here imports doodle.game (Patchwork Doodle): the two games share only
doodle.geometry and doodle.quilt.
"""

from doodle.patchwork.errors import (
    IllegalMoveError,
    MoveSyntaxError,
    NotationError,
    PatchworkError,
    PatchworkRecordError,
)
from doodle.patchwork.game import Game, PlayerView
from doodle.patchwork.moves import ADVANCE, Move, parse_move
from doodle.patchwork.patches import EDITIONS, PATCHES, Patch

__all__ = [
    "ADVANCE",
    "EDITIONS",
    "PATCHES",
    "Game",
    "IllegalMoveError",
    "Move",
    "MoveSyntaxError",
    "NotationError",
    "Patch",
    "PatchworkError",
    "PatchworkRecordError",
    "PlayerView",
    "parse_move",
]
