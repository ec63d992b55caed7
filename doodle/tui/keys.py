"""The keys that steer a ghost, shared by the grid games so that they all play alike.

An app that uses `GHOST_BINDINGS` implements `action_move(drow, dcol)`, `action_rotate(clockwise)`,
`action_mirror()` and `action_jump(forward)` (for example with `Ghost.moved`, `.rotated`, `.flipped` and
`.next_fit`). Tab is bound with priority, since Textual otherwise moves the focus with it.
"""

from __future__ import annotations

from textual.binding import Binding

GHOST_BINDINGS = [
    Binding("left", "move(0, -1)", "move", show=False),
    Binding("right", "move(0, 1)", "move", show=False),
    Binding("up", "move(-1, 0)", "move", show=False),
    Binding("down", "move(1, 0)", "move", show=False),
    Binding("r", "rotate(True)", "rotate"),
    Binding("e", "rotate(False)", "rotate back", show=False),
    Binding("m", "mirror", "mirror"),
    Binding("tab", "jump(True)", "next fit", priority=True),
    Binding("shift+tab", "jump(False)", "previous fit", show=False, priority=True),
]

GHOST_KEYS_HELP = """\
  ←↑→↓        move the patch            click     move it to a cell
  r / e       rotate clockwise / back   m         mirror (left-right)
  tab         jump to the next place where it fits   (shift+tab: back)"""
