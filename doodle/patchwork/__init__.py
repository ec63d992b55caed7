"""Patchwork for two players: the patches, a game state with legal moves, play and undo, text forms, bots.

    >>> from doodle.patchwork import Game
    >>> game = Game.new(seed=1)
    >>> move = game.legal_moves()[0]
    >>> game.play(move)

Players are 0 and 1. Nothing here imports doodle.game (Patchwork Doodle): the two games share only
doodle.geometry and doodle.quilt.
"""

from doodle.patchwork.game import Game, IllegalMoveError, PlayerView
from doodle.patchwork.moves import ADVANCE, Move, MoveSyntaxError, parse_move
from doodle.patchwork.notation import NotationError
from doodle.patchwork.patches import EDITIONS, PATCHES, Patch
from doodle.patchwork.record import RecordError

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
    "PlayerView",
    "RecordError",
    "parse_move",
]
