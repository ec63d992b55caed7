"""Strokes against tints: what a player draws is pencil strokes, with edges; a stain, a smudge or a shadow is a
smooth tint. Two signals for the cells beside their mean ink (issue 15):

- the share of a cell's interior covered by strokes (ink narrower than a few millimetres against the light
  right around it, as the special boxes are read): a cell crossed by a single slash has little ink on average
  but clear strokes; a smooth tint has none;
- whether a tint keeps to the printed grid: pencil shading fills the cells it shades evenly and stops at their
  lines, while a stain or a smudge is a blob whose edge runs across cells, so some of its cells (or the cells
  beside it) are tinted on one side only.
"""

from __future__ import annotations

import numpy as np

from doodle.quilt import SIZE
from doodle.sheet.measure import local_ink

STROKE_REACH_MM = 2.5  # ink narrower than this (a pencil line, 0.3-1 mm, blurred) is a stroke
STROKE_INK = 0.15  # a pixel this much darker than the light around it is on a stroke
# A cell whose interior has strokes over this share holds a deliberate mark (a slash across a 9 mm interior covers
# 7-16% of it; over 360 synthetic photos empty cells never over 0.0005, cells crossed by a coffee ring's rim up to
# 0.3); under it, whatever darkens the cell is a tint.
STROKE_MARK = 0.05
TINT_SURE = 0.35  # a tint this dark is pencil pressed hard, never a stain or a smudge
UNEVEN_BLOCKS = 3  # a cell's interior split into this many blocks a side to see whether a tint covers it evenly
UNEVEN_SHARE = 0.5  # blocks differing by this share of the tint's ink: the tint's edge runs through the cell
UNEVEN_LEAST = 0.03  # ... and by at least this much ink (paper noise)
UNEVEN_MIN_SHARE = 0.3  # a block is judged on what lies between its strokes when that is this much of it


class StrokeMap:
    """Where the strokes are over the boxes' bounds, in sheet-image pixels."""

    def __init__(self, sheet: np.ndarray, boxes: tuple[tuple[int, int, int, int], ...], px_per_mm: float) -> None:
        self.x0, self.y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
        x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
        reach = round(STROKE_REACH_MM * px_per_mm)
        self.mask = local_ink(sheet, (self.x0, self.y0, x1, y1), reach) > STROKE_INK
        self.shares = np.array([float(self.at(box).mean()) for box in boxes])

    def at(self, box: tuple[int, int, int, int]) -> np.ndarray:
        x0, y0, x1, y1 = box
        return self.mask[y0 - self.y0 : y1 - self.y0, x0 - self.x0 : x1 - self.x0]


def _unevenness(ink: np.ndarray, strokes: StrokeMap, box: tuple[int, int, int, int]) -> float:
    """The spread over the blocks of the box of the ink between its strokes (0 for an even tint, with strokes
    on it or not; a hatched cell's paper between its strokes is even too)."""
    x0, y0, x1, y1 = box
    xs = np.linspace(0, x1 - x0, UNEVEN_BLOCKS + 1).round().astype(int)
    ys = np.linspace(0, y1 - y0, UNEVEN_BLOCKS + 1).round().astype(int)
    cell, on_stroke = ink[y0:y1, x0:x1], strokes.at(box)
    means = []
    for j in range(UNEVEN_BLOCKS):
        for i in range(UNEVEN_BLOCKS):
            block = (slice(ys[j], ys[j + 1]), slice(xs[i], xs[i + 1]))
            between = cell[block][~on_stroke[block]]
            if between.size >= UNEVEN_MIN_SHARE * cell[block].size:
                means.append(float(np.median(between)))
    return max(means) - min(means) if len(means) > 1 else 0.0


def stain_cells(ink: np.ndarray, values: np.ndarray, shaded: np.ndarray, strokes: StrokeMap,
                boxes: tuple[tuple[int, int, int, int], ...]) -> set[int]:
    """Cells read as shaded that may be a stain: each group of touching shaded cells darkened by a tint alone (no
    strokes, not dark) when a cell of it, or beside it, is tinted unevenly (a tint's edge runs through it). Cells
    with strokes are not judged so: the paper between hatching strokes is not even enough to tell."""
    plain = {i for i in range(SIZE * SIZE) if strokes.shares[i] < STROKE_MARK and values[i] < TINT_SURE}
    tint = {i for i in plain if shaded[i]}
    spread = {i: _unevenness(ink, strokes, boxes[i]) for i in plain}
    found: set[int] = set()
    seen: set[int] = set()
    for start in sorted(tint):
        if start in seen:
            continue
        group, todo = set(), [start]
        while todo:  # the tinted cells touching this one, side by side
            index = todo.pop()
            if index not in group:
                group.add(index)
                todo += [r * SIZE + c for r, c in _beside(index) if r * SIZE + c in tint]
        seen |= group
        limit = max(UNEVEN_LEAST, UNEVEN_SHARE * float(np.median([values[i] for i in group])))
        around = {r * SIZE + c for i in group for r, c in _beside(i)}
        if any(spread.get(i, 0.0) > limit for i in around | group):
            found |= group
    return found


def _beside(index: int) -> list[tuple[int, int]]:
    row, col = divmod(index, SIZE)
    return [(r, c) for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
            if 0 <= r < SIZE and 0 <= c < SIZE]
