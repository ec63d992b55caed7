"""Reusable pieces for terminal games on a square grid: a UI-free ghost-placement model (`Ghost`) and a Textual
widget that draws a board with a ghost and a highlighted rectangle (`QuiltView`), a modal text panel that
any key closes (`TextScreen`, for help pages), and the keys that steer a ghost (`doodle.tui.keys`).
Game-agnostic: the solo Patchwork Doodle game and the 2-player Patchwork game both build on them.

`QuiltView` and `TextScreen` are imported on first use, so that code needing only `Ghost` (typed-command
modes, bots, the CLI's start-up) does not load Textual.
"""

from typing import Any

from doodle.tui.ghost import Ghost, distinct_orientations, orientation_code, oriented, parse_orientation

__all__ = [
    "Ghost", "QuiltView", "TextScreen", "distinct_orientations", "orientation_code", "oriented", "parse_orientation",
]


def __getattr__(name: str) -> Any:
    if name == "QuiltView":
        from doodle.tui.quilt_view import QuiltView

        return QuiltView
    if name == "TextScreen":
        from doodle.tui.screens import TextScreen

        return TextScreen
    raise AttributeError(f"module 'doodle.tui' has no attribute {name!r}")
