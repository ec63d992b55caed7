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
from doodle.sheet.tuning import TUNING, ReaderTuning


class StrokeMap:
    """Where the strokes are over the boxes' bounds, in sheet-image pixels."""

    def __init__(self, sheet: np.ndarray, boxes: tuple[tuple[int, int, int, int], ...], px_per_mm: float,
                 t: ReaderTuning = TUNING) -> None:
        self.x0, self.y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
        x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
        reach = round(t.stroke_reach_mm * px_per_mm)
        self.mask = local_ink(sheet, (self.x0, self.y0, x1, y1), reach, t) > t.stroke_ink
        self.shares = np.array([float(self.at(box).mean()) for box in boxes])

    def at(self, box: tuple[int, int, int, int]) -> np.ndarray:
        x0, y0, x1, y1 = box
        return self.mask[y0 - self.y0 : y1 - self.y0, x0 - self.x0 : x1 - self.x0]


def _unevenness(ink: np.ndarray, strokes: StrokeMap, box: tuple[int, int, int, int], t: ReaderTuning) -> float:
    """The spread over the blocks of the box of the ink between its strokes (0 for an even tint, with strokes
    on it or not; a hatched cell's paper between its strokes is even too)."""
    x0, y0, x1, y1 = box
    blocks = t.uneven_blocks
    xs = np.linspace(0, x1 - x0, blocks + 1).round().astype(int)
    ys = np.linspace(0, y1 - y0, blocks + 1).round().astype(int)
    cell, on_stroke = ink[y0:y1, x0:x1], strokes.at(box)
    means = []
    for j in range(blocks):
        for i in range(blocks):
            block = (slice(ys[j], ys[j + 1]), slice(xs[i], xs[i + 1]))
            between = cell[block][~on_stroke[block]]
            if between.size >= t.uneven_min_share * cell[block].size:
                means.append(float(np.median(between)))
    return max(means) - min(means) if len(means) > 1 else 0.0


def stain_cells(ink: np.ndarray, values: np.ndarray, shaded: np.ndarray, strokes: StrokeMap,
                boxes: tuple[tuple[int, int, int, int], ...], t: ReaderTuning = TUNING) -> set[int]:
    """Cells read as shaded that may be a stain: each group of touching shaded cells darkened by a tint alone (no
    strokes, not dark) when a cell of it, or beside it, is tinted unevenly (a tint's edge runs through it). Cells
    with strokes are not judged so: the paper between hatching strokes is not even enough to tell."""
    plain = {i for i in range(SIZE * SIZE) if strokes.shares[i] < t.stroke_mark and values[i] < t.tint_sure}
    tint = {i for i in plain if shaded[i]}
    spread = {i: _unevenness(ink, strokes, boxes[i], t) for i in plain}
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
        limit = max(t.uneven_least, t.uneven_share * float(np.median([values[i] for i in group])))
        around = {r * SIZE + c for i in group for r, c in _beside(i)}
        if any(spread.get(i, 0.0) > limit for i in around | group):
            found |= group
    return found


def _beside(index: int) -> list[tuple[int, int]]:
    row, col = divmod(index, SIZE)
    return [(r, c) for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
            if 0 <= r < SIZE and 0 <= c < SIZE]
