"""Hypothesis strategies shared by the tests: quilts and connected polyominoes."""

from hypothesis import strategies as st

from doodle.geometry import Polyomino
from doodle.quilt import FULL, Quilt


@st.composite
def polyominoes(draw, max_cells: int = 9) -> Polyomino:
    """A random connected polyomino grown cell by cell from (0, 0)."""
    size = draw(st.integers(1, max_cells))
    cells = {(0, 0)}
    while len(cells) < size:
        frontier = sorted(
            {(r + dr, c + dc) for r, c in cells for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))} - cells
        )
        cells.add(draw(st.sampled_from(frontier)))
    return Polyomino(frozenset(cells))


@st.composite
def quilts(draw) -> Quilt:
    """Random quilts, biased towards dense ones (where rectangles are interesting)."""
    density = draw(st.sampled_from([0.2, 0.5, 0.8, 0.9, 0.97]))
    bits = 0
    flags = draw(st.lists(st.floats(0, 1), min_size=81, max_size=81))
    for index, value in enumerate(flags):
        if value < density:
            bits |= 1 << index
    return Quilt(bits & FULL)
