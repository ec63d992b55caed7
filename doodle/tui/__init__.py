"""Reusable pieces for terminal games on a square grid: a UI-free ghost-placement model (`Ghost`) and a Textual
widget that draws a board with a ghost and a highlighted rectangle (`QuiltView`). Game-agnostic: the solo
Patchwork Doodle game and the 2-player Patchwork game both build on them."""

from doodle.tui.ghost import Ghost, distinct_orientations, orientation_code, oriented, parse_orientation
from doodle.tui.quilt_view import QuiltView

__all__ = ["Ghost", "QuiltView", "distinct_orientations", "orientation_code", "oriented", "parse_orientation"]
