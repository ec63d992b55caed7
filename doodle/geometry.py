"""Polyominoes: cells, orientations under rotation and mirroring, straight cuts, text form.

A `Polyomino` is a value: its cells are normalised so that the top-most row and the left-most column are 0,
so two polyominoes are equal when they are the same shape in the same orientation. `canonical()` gives one
representative of the free shape (all rotations and mirror images), so `a.canonical() == b.canonical()`
says that a player may draw `a` as `b`.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

Cell = tuple[int, int]
FILLED = "#"
EMPTY = "."


class ShapeError(ValueError):
    """A text or a set of cells that does not describe a polyomino."""


def _normalise(cells: Iterable[Cell]) -> frozenset[Cell]:
    cells = list(cells)
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return frozenset((r - top, c - left) for r, c in cells)


def connected_components(
    cells: Iterable[Cell], blocked: frozenset[tuple[Cell, Cell]] = frozenset()
) -> list[frozenset[Cell]]:
    """The 4-connected components of `cells`; an edge listed in `blocked` (either direction) is not crossed."""
    remaining = set(cells)
    components = []
    while remaining:
        start = remaining.pop()
        component = {start}
        stack = [start]
        while stack:
            r, c = stack.pop()
            for nxt in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nxt in remaining and ((r, c), nxt) not in blocked and (nxt, (r, c)) not in blocked:
                    remaining.discard(nxt)
                    component.add(nxt)
                    stack.append(nxt)
        components.append(frozenset(component))
    return components


@dataclass(frozen=True)
class Cut:
    """One legal straight cut: a line between rows (`axis="row"`, the line lies above row `index`) or between
    columns (`axis="col"`, left of column `index`), and the two pieces it leaves, in the cut shape's frame."""

    axis: Literal["row", "col"]
    index: int
    pieces: tuple[frozenset[Cell], frozenset[Cell]]


@dataclass(frozen=True)
class Polyomino:
    """A set of grid cells, normalised to start at row 0 and column 0."""

    cells: frozenset[Cell]

    def __post_init__(self) -> None:
        if not self.cells:
            raise ShapeError("a polyomino needs at least one cell")
        normalised = _normalise(self.cells)
        if normalised != self.cells:
            object.__setattr__(self, "cells", normalised)

    # ----- construction and text form -----
    @classmethod
    def from_text(cls, text: str) -> Polyomino:
        """Read `"#.#/###"` or the same rows on separate lines (`#` a cell, `.` no cell). Spaces around a row
        (or the common indentation of the lines), and blank lines before and after the shape are ignored; any other
        space or a blank row inside the shape is an error, since it would be ambiguous (write '.' for a cell that
        is not part of the patch)."""
        if "/" in text:
            rows = [row.strip() for row in text.split("/")]
        else:  # lines: the common indentation goes, a space inside a row is an error
            rows = [row.rstrip() for row in textwrap.dedent(text.strip("\n")).splitlines()]
        while rows and not rows[0]:
            rows.pop(0)
        while rows and not rows[-1]:
            rows.pop()
        if not rows:
            raise ShapeError("the shape text is empty: write rows of '#' and '.', e.g. '#.#/###'")
        if not all(rows):
            raise ShapeError(f"the shape {text!r} has an empty row inside it: use '.' for cells not in the patch")
        cells = set()
        for r, row in enumerate(rows):
            for c, char in enumerate(row):
                if char == FILLED:
                    cells.add((r, c))
                elif char != EMPTY:
                    raise ShapeError(f"unexpected character {char!r} in shape {text!r}: use '#' and '.' only "
                                     "(a '.' for each cell that is not part of the patch)")
        if not cells:
            raise ShapeError(f"the shape {text!r} has no '#' cell")
        return cls(frozenset(cells))

    @classmethod
    def from_cells(cls, cells: Iterable[Cell]) -> Polyomino:
        return cls(frozenset(cells))

    def to_text(self, separator: str = "/") -> str:
        """Rows of `#` and `.`, joined by `separator` ("/" by default, "\\n" for the multi-line form)."""
        return separator.join(
            "".join(FILLED if (r, c) in self.cells else EMPTY for c in range(self.width)) for r in range(self.height)
        )

    def __str__(self) -> str:
        return self.to_text("\n")

    def __repr__(self) -> str:
        return f"Polyomino.from_text({self.to_text()!r})"

    # ----- measures -----
    @property
    def size(self) -> int:
        return len(self.cells)

    @cached_property
    def height(self) -> int:
        return 1 + max(r for r, _ in self.cells)

    @cached_property
    def width(self) -> int:
        return 1 + max(c for _, c in self.cells)

    def is_connected(self) -> bool:
        return len(connected_components(self.cells)) == 1

    # ----- orientations -----
    def rotated(self) -> Polyomino:
        """A quarter turn clockwise."""
        return Polyomino(frozenset((c, -r) for r, c in self.cells))

    def mirrored(self) -> Polyomino:
        """The mirror image (left and right swapped)."""
        return Polyomino(frozenset((r, -c) for r, c in self.cells))

    def orientations(self) -> tuple[Polyomino, ...]:
        """All distinct orientations under rotation and mirroring, this one first, in a fixed order."""
        return self._orientations

    @cached_property
    def _orientations(self) -> tuple[Polyomino, ...]:
        found: list[Polyomino] = []
        for start in (self, self.mirrored()):
            shape = start
            for _ in range(4):
                if shape not in found:
                    found.append(shape)
                shape = shape.rotated()
        return tuple(found)

    def canonical(self) -> Polyomino:
        """The one orientation that stands for the free shape: equal for shapes a player may draw as each other."""
        return self._canonical

    @cached_property
    def _canonical(self) -> Polyomino:
        return min(self.orientations(), key=lambda shape: sorted(shape.cells))

    def same_shape(self, other: Polyomino) -> bool:
        return self.canonical() == other.canonical()

    # ----- straight cuts -----
    def cuts(self) -> tuple[Cut, ...]:
        """Every legal straight cut: a full grid line through the patch that leaves exactly two connected pieces."""
        return self._cuts

    @cached_property
    def _cuts(self) -> tuple[Cut, ...]:
        found = []
        for axis, extent in (("row", self.height), ("col", self.width)):
            for index in range(1, extent):
                side = 0 if axis == "row" else 1
                blocked = frozenset(
                    (cell, (cell[0] + 1, cell[1]) if side == 0 else (cell[0], cell[1] + 1))
                    for cell in self.cells
                    if cell[side] == index - 1
                )
                pieces = connected_components(self.cells, blocked)
                if len(pieces) == 2:
                    first, second = sorted(pieces, key=lambda piece: sorted(piece))
                    found.append(Cut(axis, index, (first, second)))  # type: ignore[arg-type]
        return tuple(found)

    def cut_pieces(self) -> tuple[Polyomino, ...]:
        """Every piece that one legal straight cut lets a player draw, one per free shape, smallest first."""
        return self._cut_pieces

    @cached_property
    def _cut_pieces(self) -> tuple[Polyomino, ...]:
        pieces = {Polyomino(piece).canonical() for cut in self.cuts() for piece in cut.pieces}
        return tuple(sorted(pieces, key=lambda shape: (shape.size, sorted(shape.cells))))

    def drawable_as(self, cells: Iterable[Cell]) -> bool:
        """True when `cells` (anywhere on a grid) are this shape in some orientation."""
        cells = frozenset(cells)
        return bool(cells) and Polyomino(cells) in self.orientations()
