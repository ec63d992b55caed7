"""A Textual widget that draws a 9x9 quilt (or any square grid), a ghost patch and a highlighted rectangle.

Game-agnostic: it knows cells, not rules. Give it a board (anything with `is_covered(row, col)`, such as a
`doodle.quilt.Quilt`), the ghost's cells and whether they fit, and optionally a rectangle to highlight and
per-cell overrides (for example Patchwork's buttons). Clicking a cell posts `QuiltView.CellClicked`.

Each cell is two characters wide and one row high, or `scale` times that (`largest_scale` says what fits in a
space, so a big terminal gets a big quilt); columns are labelled a-i and rows 1-9, the cell names of
`doodle.quilt`, so the names the player reads on screen are the names typed commands use.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Protocol

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget

from doodle.geometry import Cell
from doodle.quilt import COLUMNS, Quilt

LABEL_WIDTH = 3  # "12 " before each row
CELL_WIDTH = 2
FILLS = "█▓▒░"  # a glyph of two of these fills a scaled cell; any other glyph stands in its middle

COVERED_STYLE = "bold #d7af87"
EMPTY_STYLE = "#6c6c6c"
GHOST_FITS_STYLE = "bold #00d700 on #005f00"
GHOST_CLASH_STYLE = "bold #ff5f5f on #5f0000"
HIGHLIGHT_STYLE = "bold #ffd700"
LABEL_STYLE = "#8a8a8a"


class CoveredCells(Protocol):
    def is_covered(self, row: int, col: int) -> bool: ...


class QuiltView(Widget):
    """Draws a board with an optional ghost (green where it fits, red where not) and highlighted rectangle."""

    DEFAULT_CSS = """
    QuiltView {
        width: auto;
        height: auto;
        padding: 0 1;
    }
    """

    class CellClicked(Message):
        """The player clicked cell (`row`, `col`) of the board."""

        def __init__(self, view: QuiltView, row: int, col: int) -> None:
            super().__init__()
            self.view = view
            self.row = row
            self.col = col

        @property
        def control(self) -> QuiltView:
            return self.view

    def __init__(
        self,
        board: CoveredCells | None = None,
        grid_size: int = 9,
        labels: bool = True,
        *,
        name: str | None = None,
        id: str | None = None,  # noqa: A002 - Textual's own keyword
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.board: CoveredCells = board if board is not None else Quilt()
        if labels and grid_size > len(COLUMNS):
            raise ValueError(f"labels name {len(COLUMNS)} columns, not {grid_size}: pass labels=False")
        self.grid_size = grid_size
        self.labels = labels
        self.scale = 1
        self.ghost: frozenset[Cell] = frozenset()
        self.ghost_fits = True
        self.highlight: frozenset[Cell] = frozenset()
        self.overrides: dict[Cell, tuple[str, str]] = {}

    def show(
        self,
        board: CoveredCells | None = None,
        ghost: Iterable[Cell] | None = None,
        ghost_fits: bool | None = None,
        highlight: Iterable[Cell] | None = None,
        overrides: Mapping[Cell, tuple[str, str]] | None = None,
    ) -> None:
        """Change what is drawn; arguments left as None keep their value. `highlight` takes cells (for a
        `Rectangle` pass `rect.cells`; an empty iterable clears it); `overrides` maps a cell to (two
        characters, Rich style) drawn instead of the usual cell."""
        if board is not None:
            self.board = board
        if ghost is not None:
            self.ghost = frozenset(ghost)
        if ghost_fits is not None:
            self.ghost_fits = ghost_fits
        if highlight is not None:
            self.highlight = frozenset(highlight)
        if overrides is not None:
            self.overrides = dict(overrides)
        self.refresh(layout=True)

    # ----- size -----
    def content_size(self, scale: int | None = None) -> tuple[int, int]:
        """(width, height) of the drawing at `scale` (default: the current one), labels included."""
        scale = self.scale if scale is None else scale
        labels = 1 if self.labels else 0
        return LABEL_WIDTH * labels + CELL_WIDTH * scale * self.grid_size, labels + scale * self.grid_size

    def largest_scale(self, width: int, height: int, most: int = 4) -> int:
        """The largest scale (1 to `most`) at which the drawing fits in `width` x `height` cells (1 if none)."""
        fitting = [s for s in range(1, most + 1) if all(a <= b for a, b in zip(self.content_size(s), (width, height),
                                                                                 strict=True))]
        return max(fitting, default=1)

    def set_scale(self, scale: int) -> None:
        """Draw each cell `scale` times larger (2 x `scale` characters wide, `scale` rows high)."""
        if scale < 1:
            raise ValueError(f"a scale is 1 or more, not {scale}")
        if scale != self.scale:
            self.scale = scale
            self.refresh(layout=True)

    # ----- drawing -----
    def get_content_width(self, container, viewport) -> int:  # noqa: ANN001 - Textual's signature
        return self.content_size()[0]

    def get_content_height(self, container, viewport, width: int) -> int:  # noqa: ANN001
        return self.content_size()[1]

    def render(self) -> Text:
        return self.render_text()

    def render_text(self) -> Text:
        """The drawing as Rich text (also handy in tests and for printing)."""
        scale = self.scale
        width = CELL_WIDTH * scale
        middle = (scale - 1) // 2  # the row of a scaled cell that holds its mark and the row's label
        text = Text(no_wrap=True)
        if self.labels:
            header = "".join(COLUMNS[c].center(width) for c in range(self.grid_size)).rstrip()
            text.append(" " * LABEL_WIDTH + header, LABEL_STYLE)
            text.append("\n")
        for row in range(self.grid_size):
            glyphs = [self.cell_glyph(row, col) for col in range(self.grid_size)]
            for line in range(scale):
                if self.labels:
                    text.append(f"{row + 1:>2} " if line == middle else " " * LABEL_WIDTH, LABEL_STYLE)
                for glyph, style in glyphs:
                    if scale == 1:
                        text.append(glyph, style)
                    elif glyph[0] in FILLS and glyph == glyph[0] * len(glyph):
                        text.append(glyph[0] * width, style)
                    else:
                        text.append((glyph.strip() if line == middle else "").center(width), style)
                if row < self.grid_size - 1 or line < scale - 1:
                    text.append("\n")
        return text

    def cell_glyph(self, row: int, col: int) -> tuple[str, str]:
        """(two characters, style) for one cell; override in a subclass for other looks."""
        covered = self.board.is_covered(row, col)
        if (row, col) in self.ghost:
            if self.ghost_fits:
                return "██", GHOST_FITS_STYLE
            return ("XX" if covered else "▒▒"), GHOST_CLASH_STYLE
        if (row, col) in self.overrides:
            return self.overrides[(row, col)]
        if (row, col) in self.highlight:
            return ("██" if covered else "░░"), HIGHLIGHT_STYLE
        if covered:
            return "██", COVERED_STYLE
        return "· ", EMPTY_STYLE

    # ----- mouse -----
    def cell_at(self, x: int, y: int) -> Cell | None:
        """The cell under content offset (`x`, `y`), or None for the labels and outside the grid."""
        col = (x - (LABEL_WIDTH if self.labels else 0)) // (CELL_WIDTH * self.scale)
        row = (y - (1 if self.labels else 0)) // self.scale
        if x < (LABEL_WIDTH if self.labels else 0) or not (0 <= row < self.grid_size and 0 <= col < self.grid_size):
            return None
        return row, col

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        cell = self.cell_at(offset.x, offset.y)
        if cell is not None:
            event.stop()
            self.post_message(self.CellClicked(self, *cell))
