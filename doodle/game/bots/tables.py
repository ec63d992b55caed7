"""Precomputed tables for the bots: every placement of a shape as bit masks and as a 0/1 matrix, and every
rectangle of the grid as a 0/1 matrix with its score, so that a whole move list is evaluated with numpy at once."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from doodle.geometry import Polyomino
from doodle.quilt import SIZE, placements_on_empty, rectangle_score

CELLS = SIZE * SIZE
LOW_BITS = (1 << 64) - 1


def split_mask(mask: int) -> tuple[np.uint64, np.uint64]:
    """An 81-bit mask as two unsigned 64-bit halves, for vectorised overlap tests."""
    return np.uint64(mask & LOW_BITS), np.uint64(mask >> 64)


def mask_vector(mask: int) -> np.ndarray:
    """The 81 cells of `mask` as a bool vector (index row * 9 + col)."""
    return np.array([(mask >> i) & 1 for i in range(CELLS)], dtype=bool)


@dataclass(frozen=True)
class PlacementTable:
    """All placements of one shape on the empty grid: masks as ints, as 64-bit halves and as a bool matrix."""

    masks: tuple[int, ...]
    low: np.ndarray
    high: np.ndarray
    matrix: np.ndarray  # (placements, 81) bool

    def legal(self, bits: int) -> np.ndarray:
        """The indices of the placements that do not overlap the covered cells `bits`."""
        low, high = split_mask(bits)
        return np.flatnonzero(((self.low & low) == 0) & ((self.high & high) == 0))


@lru_cache(maxsize=512)
def placement_table(shape: Polyomino) -> PlacementTable:
    masks = tuple(sorted({p.mask for p in placements_on_empty(shape)}))
    low = np.array([m & LOW_BITS for m in masks], dtype=np.uint64)
    high = np.array([m >> 64 for m in masks], dtype=np.uint64)
    matrix = np.array([mask_vector(m) for m in masks], dtype=bool).reshape(len(masks), CELLS)
    return PlacementTable(masks, low, high, matrix)


@dataclass(frozen=True)
class RectangleTable:
    """Rectangles as rows of a 0/1 float32 matrix (for a matrix product with empty cells) and their scores."""

    matrix: np.ndarray  # (rectangles, 81) float32
    scores: np.ndarray  # (rectangles,) float32
    areas: np.ndarray  # (rectangles,) int
    masks: tuple[int, ...]


def _rectangles(corner_only: bool) -> RectangleTable:
    rows, scores, areas, masks = [], [], [], []
    for top in range(SIZE):
        for bottom in range(top, SIZE):
            for left in range(SIZE):
                for right in range(left, SIZE):
                    if corner_only and not ((top == 0 or bottom == SIZE - 1) and (left == 0 or right == SIZE - 1)):
                        continue
                    mask = 0
                    for r in range(top, bottom + 1):
                        for c in range(left, right + 1):
                            mask |= 1 << (r * SIZE + c)
                    height, width = bottom - top + 1, right - left + 1
                    rows.append(mask_vector(mask))
                    scores.append(rectangle_score(height, width))
                    areas.append(height * width)
                    masks.append(mask)
    return RectangleTable(np.array(rows, dtype=np.float32), np.array(scores, dtype=np.float32),
                          np.array(areas), tuple(masks))


@lru_cache(maxsize=2)
def rectangles(corner_only: bool = False) -> RectangleTable:
    """Every rectangle of the grid (2025), or only those in a corner of it (the bots' planning targets)."""
    return _rectangles(corner_only)
