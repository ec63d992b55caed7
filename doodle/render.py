"""Terminal drawings of patches and quilts (unicode blocks, optional ANSI colour), kept apart from the models."""

from __future__ import annotations

from collections.abc import Iterable

from doodle.geometry import Cell, Polyomino
from doodle.quilt import COLUMNS, SIZE, Quilt, Rectangle

BLOCK = "██"
SHADE = "▓▓"
DOT = " ·"

_RESET = "\x1b[0m"
_GREEN = "\x1b[32m"
_RED = "\x1b[31m"
_DIM = "\x1b[2m"


def plural(count: int, noun: str) -> str:
    """'1 cell', '3 cells'."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def draw_polyomino(shape: Polyomino, scale: int = 1, color: str | None = None) -> str:
    """The patch in blocks; `scale` 2 draws each cell as a 4x2 block for a large display across a table."""
    lines = []
    for r in range(shape.height):
        line = "".join(
            (BLOCK * scale if (r, c) in shape.cells else "  " * scale) for c in range(shape.width)
        ).rstrip()
        if color and line:
            line = f"{color}{line}{_RESET}"
        lines.extend([line] * scale)
    return "\n".join(lines)


def draw_side_by_side(blocks: Iterable[str], gap: int = 4) -> str:
    """Several multi-line drawings next to each other, top-aligned."""
    columns = [block.split("\n") for block in blocks]
    widths = [max((_visible_len(line) for line in col), default=0) for col in columns]
    height = max((len(col) for col in columns), default=0)
    out = []
    for i in range(height):
        parts = []
        for col, width in zip(columns, widths, strict=True):
            line = col[i] if i < len(col) else ""
            parts.append(line + " " * (width - _visible_len(line)))
        out.append((" " * gap).join(parts).rstrip())
    return "\n".join(out)


def _visible_len(text: str) -> int:
    length = 0
    escape = False
    for char in text:
        if char == "\x1b":
            escape = True
        elif escape:
            escape = char != "m"
        else:
            length += 1
    return length


def draw_quilt(
    quilt: Quilt,
    highlight: Rectangle | None = None,
    ghost: Iterable[Cell] = (),
    ghost_fits: bool = True,
    color: bool = False,
    labels: bool = True,
) -> str:
    """The quilt in blocks: covered cells solid, empty cells dotted, the `highlight` rectangle shaded (green in
    colour), and `ghost` cells (a patch being placed) green where it fits and red where it does not."""
    rect_cells = highlight.cells if highlight else frozenset()
    ghost = frozenset(ghost)
    lines = []
    if labels:
        lines.append("   " + "".join(f" {letter}" for letter in COLUMNS))
    for r in range(SIZE):
        parts = []
        for c in range(SIZE):
            covered = quilt.is_covered(r, c)
            if (r, c) in ghost:
                text = BLOCK if not covered else "XX"
                tone = _GREEN if ghost_fits and not covered else _RED
                parts.append(f"{tone}{text}{_RESET}" if color else ("▒▒" if ghost_fits and not covered else "XX"))
            elif (r, c) in rect_cells:
                parts.append(f"{_GREEN}{BLOCK}{_RESET}" if color else SHADE)
            elif covered:
                parts.append(BLOCK)
            else:
                parts.append(f"{_DIM}{DOT}{_RESET}" if color else DOT)
        prefix = f"{r + 1:>2} " if labels else ""
        lines.append(prefix + "".join(parts))
    return "\n".join(lines)


def ascii_quilt(quilt: Quilt, ghost: Iterable[Cell] = (), ghost_fits: bool = True,
                highlight: Iterable[Cell] = (), doubted: Iterable[Cell] = ()) -> str:
    """The quilt in plain ASCII with column letters and row numbers: '#' covered, '.' empty, the `ghost` patch
    'o' where it fits and 'X' where it does not, the `highlight` rectangle '*', and `doubted` cells (a photo
    read unsure of them) 'X' when read as covered and 'o' when read as empty."""
    ghost, highlight, doubted = frozenset(ghost), frozenset(highlight), frozenset(doubted)
    lines = ["   " + " ".join(COLUMNS)]
    for r in range(SIZE):
        marks = []
        for c in range(SIZE):
            if (r, c) in ghost:
                marks.append("o" if ghost_fits else "X")
            elif (r, c) in highlight:
                marks.append("*")
            elif (r, c) in doubted:
                marks.append("X" if quilt.is_covered(r, c) else "o")
            else:
                marks.append("#" if quilt.is_covered(r, c) else ".")
        lines.append(f"{r + 1:>2} " + " ".join(marks))
    return "\n".join(lines)
