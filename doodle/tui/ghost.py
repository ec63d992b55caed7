"""A patch being placed on a grid (a "ghost"): its shape, orientation and position, and whether it fits.

Pure and UI-free, so every game can use it (Patchwork Doodle's solo game, the 2-player Patchwork game, a
typed-command mode) and tests can drive it without a terminal. A `Ghost` is an immutable value: every move
returns a new one.

Orientation is written as a code, the same in the full-screen game and in typed commands: `r0`..`r3` quarter
turns clockwise, and `m` when mirrored (left and right swapped) *before* turning. So `r1 m` is the printed patch
mirrored, then turned a quarter clockwise. The position is the top-left corner of the oriented patch's bounding
box. A ghost is always kept wholly on the grid; whether it fits depends on what is already covered.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Protocol

from doodle.geometry import Cell, Polyomino

GRID = 9


class Board(Protocol):
    """Anything that says whether cells are free to cover (a `doodle.quilt.Quilt`, for one)."""

    def fits(self, cells: Iterable[Cell]) -> bool: ...

    def is_covered(self, row: int, col: int) -> bool: ...


@lru_cache(maxsize=4096)
def oriented(base: Polyomino, turns: int, mirrored: bool) -> Polyomino:
    """`base` mirrored (if asked) and then turned `turns` quarter turns clockwise."""
    shape = base.mirrored() if mirrored else base
    for _ in range(turns % 4):
        shape = shape.rotated()
    return shape


def orientation_code(turns: int, mirrored: bool) -> str:
    """The code of an orientation, e.g. 'r1 m'."""
    return f"r{turns % 4}" + (" m" if mirrored else "")


def parse_orientation(words: Iterable[str]) -> tuple[int, bool]:
    """(turns, mirrored) from words such as 'r2' and 'm' (in any order; none means r0 and not mirrored).

    ValueError names the word that is not an orientation."""
    turns, mirrored, seen_turn = 0, False, False
    for word in words:
        text = word.strip().lower()
        if text in ("m", "mirror", "mirrored"):
            if mirrored:
                raise ValueError("'m' is given twice: mirror at most once")
            mirrored = True
        elif len(text) == 2 and text[0] == "r" and text[1] in "0123":
            if seen_turn:
                raise ValueError(f"two turns given ({word!r} after another): give one of r0, r1, r2, r3")
            turns, seen_turn = int(text[1]), True
        else:
            raise ValueError(
                f"{word!r} is not an orientation: use r0, r1, r2 or r3 (quarter turns clockwise) and m (mirrored)"
            )
    return turns, mirrored


def distinct_orientations(base: Polyomino) -> list[tuple[int, bool]]:
    """One (turns, mirrored) per distinct oriented shape of `base`, in code order (r0, r1, .., r0 m, ..)."""
    found: dict[Polyomino, tuple[int, bool]] = {}
    for mirrored in (False, True):
        for turns in range(4):
            found.setdefault(oriented(base, turns, mirrored), (turns, mirrored))
    return list(found.values())


@dataclass(frozen=True)
class Ghost:
    """`base` (a patch as printed) in orientation (`turns`, `mirrored`), top-left corner at (`row`, `col`) on a
    `size` x `size` grid. Build one with `Ghost.centred()` or `Ghost.from_cells()`."""

    base: Polyomino
    row: int = 0
    col: int = 0
    turns: int = 0
    mirrored: bool = False
    size: int = GRID

    def __post_init__(self) -> None:
        shape = self.shape
        if shape.height > self.size or shape.width > self.size:
            raise ValueError(f"a {shape.height}x{shape.width} patch does not fit on a {self.size}x{self.size} grid")
        object.__setattr__(self, "turns", self.turns % 4)
        row = min(max(self.row, 0), self.size - shape.height)
        col = min(max(self.col, 0), self.size - shape.width)
        object.__setattr__(self, "row", row)
        object.__setattr__(self, "col", col)

    # ----- construction -----
    @classmethod
    def centred(cls, base: Polyomino, size: int = GRID, turns: int = 0, mirrored: bool = False) -> Ghost:
        """The patch in the middle of the grid."""
        shape = oriented(base, turns, mirrored)
        return cls(base, (size - shape.height) // 2, (size - shape.width) // 2, turns, mirrored, size)

    @classmethod
    def from_cells(cls, cells: Iterable[Cell], size: int = GRID) -> Ghost:
        """A ghost covering exactly `cells` (its base is those cells' shape, unturned)."""
        cells = frozenset(cells)
        top = min(r for r, _ in cells)
        left = min(c for _, c in cells)
        return cls(Polyomino(cells), top, left, 0, False, size)

    # ----- what it covers -----
    @property
    def shape(self) -> Polyomino:
        """The patch in its current orientation."""
        return oriented(self.base, self.turns, self.mirrored)

    @property
    def cells(self) -> frozenset[Cell]:
        """The grid cells the ghost covers."""
        return frozenset((self.row + r, self.col + c) for r, c in self.shape.cells)

    @property
    def code(self) -> str:
        """The orientation code, e.g. 'r1 m'."""
        return orientation_code(self.turns, self.mirrored)

    def fits(self, board: Board) -> bool:
        """True when every cell of the ghost is free on `board`."""
        return board.fits(self.cells)

    def clashes(self, board: Board) -> frozenset[Cell]:
        """The ghost's cells that are already covered on `board`."""
        return frozenset(cell for cell in self.cells if board.is_covered(*cell))

    # ----- moving -----
    def moved(self, drow: int, dcol: int) -> Ghost:
        """Shifted by (`drow`, `dcol`), stopping at the grid's edge."""
        return replace(self, row=self.row + drow, col=self.col + dcol)

    def at(self, row: int, col: int) -> Ghost:
        """With its top-left corner at (`row`, `col`), or as near as the grid allows."""
        return replace(self, row=row, col=col)

    def centred_on(self, row: int, col: int) -> Ghost:
        """With its middle on cell (`row`, `col`), as near as the grid allows (for a mouse click)."""
        shape = self.shape
        return self.at(row - (shape.height - 1) // 2, col - (shape.width - 1) // 2)

    def rotated(self, clockwise: bool = True) -> Ghost:
        """A quarter turn about the ghost's middle (kept on the grid)."""
        return self._reoriented(self.turns + (1 if clockwise else -1), self.mirrored)

    def flipped(self) -> Ghost:
        """Mirrored left to right as it is seen now (about its middle)."""
        return self._reoriented(-self.turns, not self.mirrored)

    def oriented_as(self, turns: int, mirrored: bool) -> Ghost:
        """In orientation (`turns`, `mirrored`) about the same middle."""
        return self._reoriented(turns, mirrored)

    def with_base(self, base: Polyomino) -> Ghost:
        """Another patch in the same orientation about the same middle (the next card, a cut piece...)."""
        return self._moved_to_middle(replace(self, base=base, row=0, col=0))

    def _reoriented(self, turns: int, mirrored: bool) -> Ghost:
        return self._moved_to_middle(replace(self, turns=turns % 4, mirrored=mirrored, row=0, col=0))

    def _moved_to_middle(self, other: Ghost) -> Ghost:
        """`other` placed so that its middle is where this ghost's middle is."""
        old, new = self.shape, other.shape
        row = self.row + (old.height - new.height) // 2
        col = self.col + (old.width - new.width) // 2
        return other.at(row, col)

    # ----- searching -----
    def fitting_positions(self, board: Board) -> list[Ghost]:
        """Every placement of this patch (any orientation) that fits on `board`, in a fixed order."""
        found = []
        for turns, mirrored in distinct_orientations(self.base):
            shape = oriented(self.base, turns, mirrored)
            for row in range(self.size - shape.height + 1):
                for col in range(self.size - shape.width + 1):
                    ghost = Ghost(self.base, row, col, turns, mirrored, self.size)
                    if ghost.fits(board):
                        found.append(ghost)
        return found

    def nearest_fit(self, board: Board) -> Ghost | None:
        """This ghost if it fits, else the fitting placement nearest to it (same orientation first), or None.
        Lets a new patch start where it can be drawn."""
        if self.fits(board):
            return self
        fitting = self.fitting_positions(board)
        if not fitting:
            return None
        return min(fitting, key=lambda g: (g.shape != self.shape, abs(g.row - self.row) + abs(g.col - self.col)))

    def next_fit(self, board: Board, forward: bool = True) -> Ghost | None:
        """The next placement that fits after this one (in the order of `fitting_positions`, wrapping round),
        or None when the patch fits nowhere. Lets a player jump between the places where a patch can go."""
        fitting = self.fitting_positions(board)
        if not fitting:
            return None
        order = distinct_orientations(self.base)
        mine = (self.turns, self.mirrored)
        if mine not in order:  # a symmetric shape reached through another code: use the code that draws it
            mine = next(o for o in order if oriented(self.base, *o) == self.shape)
        key = (order.index(mine), self.row, self.col)
        keys = [(order.index((g.turns, g.mirrored)), g.row, g.col) for g in fitting]
        if forward:
            later = [g for g, k in zip(fitting, keys, strict=True) if k > key]
            return later[0] if later else fitting[0]
        earlier = [g for g, k in zip(fitting, keys, strict=True) if k < key]
        return earlier[-1] if earlier else fitting[-1]
