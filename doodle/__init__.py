"""doodle: a table companion for Patchwork Doodle and an engine for Patchwork.

The public names: `Polyomino` (shapes), `Quilt` and `Rectangle` (the 9x9 grid and its scoring); the games
live in `doodle.game` (Patchwork Doodle) and `doodle.patchwork` (the base game).
"""

from doodle.geometry import Polyomino, ShapeError
from doodle.quilt import PlacementError, Quilt, QuiltTextError, Rectangle, rectangle_score

__all__ = ["PlacementError", "Polyomino", "Quilt", "QuiltTextError", "Rectangle", "ShapeError", "rectangle_score"]
__version__ = "0.1.0"
