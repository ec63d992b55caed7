"""Strokes against tints: what a player draws is pencil strokes, with edges; a stain, a smudge or a shadow is a
smooth tint. Two signals for the cells beside their mean ink (issue 15):

- the share of a cell's interior covered by strokes (ink narrower than a few millimetres against the light
  right around it, as the special boxes are read): a cell crossed by a single slash has little ink on average
  but clear strokes; a smooth tint has none;
- whether a tint keeps to the printed grid: pencil shading fills the cells it shades evenly and stops at their
  lines, while a stain or a smudge is a blob whose edge runs across cells, so some of its cells (or the cells
  beside it) are tinted on one side only, or it fades before a cell's lines, or spills over them into a cell
  left empty;
- its colour: tea and coffee stain paper brown, which neither graphite nor the usual coloured pencils are.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from doodle.quilt import SIZE
from doodle.sheet.measure import local_ink
from doodle.sheet.tuning import TUNING, ReaderTuning

# Strokes over this share of a cell's interior shade it densely (hatching and scribbles: over 30 tuning photos at
# mild, moderate and harsh, 95% of such cells over 0.2); under it, a cell holds a few strokes only: a slash, a
# loose scribble, or a line that is not a mark (a stray line, a coffee ring's rim: up to 0.34 where two rims
# cross a cell), which its outline and its colour tell apart.
STROKE_DENSE = 0.2
# A line or two across a cell darkens it by this much at most (slashes 0.03-0.08 over 4 tuning photos; a loose
# scribble's line run on across an empty cell 0.05-0.06); the lightest pencil fills start at 0.107 (pale yellow,
# harsh; hatched or scribbled in pale yellow, 0.077-0.091 at moderate, in coloured strokes). A cell shaded by so
# little ink, in a few grey strokes, with no outline around it may hold a stray line.
STRAY_INK = 0.1
# Brown: a tea or coffee stain. Ink is 1 - the darkest channel; the chroma (brightest less darkest channel) over
# the ink is a pigment's own (about the same at any strength): graphite under 0.12, a coffee tint 0.5-0.63, the
# coloured pencils of the generator 0.5 (green, purple: not warm) to 1 (orange, pale yellow); red 0.81. Warm
# (red over green over blue) and under STAIN_CHROMA: the colour of a stain, not of graphite or a coloured pencil.
STAIN_CHROMA = (0.3, 0.72)
FALL_MARGIN_MM = (2.0, 3.5)  # between a cell's interior and its lines, clear of an outline (inset up to 1.8 mm)
SPILL_BAND_MM = (5.5, 7.0)  # from the interior's edge: 2.0-3.5 mm past the cell's line, clear of an outline there
# A tint fading near one of its lines to less than FALL_STAIN of its ink, or spilling over a line into a cell
# left empty at more than SPILL_STAIN of it, is no pencil shading. Over 28 tuning photos (seeds 4-10: mild, harsh,
# smudges, coffee rings) pencil tints (light, solid, coloured, pale yellow, blurred hatching) kept 0.74-1.0 of
# it near every line (once 0.56, pale yellow at harsh) and spilled at most 0.13; eraser smudges kept 0.21-0.57
# near their faintest side, or spilled 0.07-0.5.
FALL_STAIN = 0.65
SPILL_STAIN = 0.3
# Such a blot is read as paper (in doubt) when fainter than this: eraser smudges measured 0.05-0.1, the lightest
# pencil fills 0.114 (harsh seeds 4-10); on 40 harsh photos (seeds 600-639) light and pale yellow fills on the
# grid's edge faded or spilled so (a blur over its thick border) at 0.09-0.24.
BLOT_FAINT = 0.1


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
                boxes: tuple[tuple[int, int, int, int], ...], px_per_mm: float,
                t: ReaderTuning = TUNING) -> tuple[set[int], set[int]]:
    """Cells read as shaded that may be a stain, and those that are blots. Each group of touching shaded cells
    darkened by a tint alone (no strokes, not dark) may be a stain when a cell of it, or beside it, is tinted
    unevenly (a tint's edge runs through it: in doubt, since a light pencil fill beside a misjudged light reads
    so too), and is a blot when a cell of it fades before its lines or spills over them into a cell left empty
    (a smudge, a smear). Cells with strokes are not judged so: the paper between hatching strokes is not even
    enough to tell."""
    plain = {i for i in range(SIZE * SIZE) if strokes.shares[i] < t.stroke_mark and values[i] < t.tint_sure}
    tint = {i for i in plain if shaded[i]}
    spread = {i: _unevenness(ink, strokes, boxes[i], t) for i in plain}
    stains: set[int] = set()
    blots: set[int] = set()
    for group in touching_groups(tint, lambda _a, _b: True):
        if any(_stray_tint(ink, boxes, i, shaded, px_per_mm) for i in group):
            blots |= group
            continue
        limit = max(t.uneven_least, t.uneven_share * float(np.median([values[i] for i in group])))
        around = {r * SIZE + c for i in group for r, c in _beside(i)}
        if any(spread.get(i, 0.0) > limit for i in around | group):
            stains |= group
    return stains | blots, blots


def _stray_tint(ink: np.ndarray, boxes: tuple[tuple[int, int, int, int], ...], index: int, shaded: np.ndarray,
                px_per_mm: float) -> bool:
    """Whether the tint of a cell fades before its lines or spills over them into a cell left empty."""
    row, col = divmod(index, SIZE)

    def empty(r: int, c: int) -> bool:
        return 0 <= r < SIZE and 0 <= c < SIZE and not shaded[r * SIZE + c]

    open_sides = (empty(row - 1, col), empty(row, col + 1), empty(row + 1, col), empty(row, col - 1))
    near, past = grid_keeping(ink, boxes[index], px_per_mm, open_sides)
    return near < FALL_STAIN or past > SPILL_STAIN


def touching_groups(cells: set[int], joins: Callable[[int, int], bool]) -> list[set[int]]:
    """The groups of `cells` (index row * 9 + col) that touch side by side, where `joins(a, b)` lets them."""
    groups: list[set[int]] = []
    seen: set[int] = set()
    for start in sorted(cells):
        if start in seen:
            continue
        group, todo = set(), [start]
        while todo:
            index = todo.pop()
            if index not in group:
                group.add(index)
                todo += [other for other in (r * SIZE + c for r, c in _beside(index))
                         if other in cells and other not in group and joins(index, other)]
        seen |= group
        groups.append(group)
    return groups


def _beside(index: int) -> list[tuple[int, int]]:
    row, col = divmod(index, SIZE)
    return [(r, c) for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
            if 0 <= r < SIZE and 0 <= c < SIZE]


def _pigment(normalised: np.ndarray, box: tuple[int, int, int, int],
             where: np.ndarray | None = None) -> tuple[float, float, bool] | None:
    """The ink of the box (its pixels `where`, when given), its chroma over its ink (a pigment's own, about the
    same at any strength), and whether it is warm (red over green over blue); None for bare paper."""
    x0, y0, x1, y1 = box
    pixels = normalised[y0:y1, x0:x1]
    if where is not None:
        if not where.any():
            return None
        pixels = pixels[where]
    b, g, r = (float(v) for v in pixels.reshape(-1, 3).mean(axis=0))
    ink = 1.0 - min(b, g, r)
    if ink <= 0.01:
        return None
    return ink, (max(b, g, r) - min(b, g, r)) / ink, r >= g >= b


def stain_coloured(normalised: np.ndarray, box: tuple[int, int, int, int], where: np.ndarray | None = None) -> bool:
    """Whether the box (its pixels `where`, when given) is tinted brown, as tea or coffee stains paper
    (`normalised`: BGR over the paper's own)."""
    pigment = _pigment(normalised, box, where)
    return pigment is not None and pigment[2] and STAIN_CHROMA[0] <= pigment[1] <= STAIN_CHROMA[1]


def graphite(normalised: np.ndarray, box: tuple[int, int, int, int]) -> bool:
    """Whether the box is tinted grey (graphite, a smudge of it), not by a coloured pencil, however faint."""
    pigment = _pigment(normalised, box)
    return pigment is None or pigment[1] < STAIN_CHROMA[0]


def _band(ink: np.ndarray, box: tuple[int, int, int, int], side: int, reach: tuple[float, float]) -> np.ndarray:
    """The strip along one side of `box` (0 top, 1 right, 2 bottom, 3 left) from reach[0] to reach[1] pixels
    out of it."""
    x0, y0, x1, y1 = box
    a, b = round(reach[0]), round(reach[1])
    if side == 0:
        return ink[max(y0 - b, 0) : max(y0 - a, 0), x0:x1]
    if side == 2:
        return ink[y1 + a : y1 + b, x0:x1]
    if side == 3:
        return ink[y0:y1, max(x0 - b, 0) : max(x0 - a, 0)]
    return ink[y0:y1, x1 + a : x1 + b]


def grid_keeping(ink: np.ndarray, box: tuple[int, int, int, int], px_per_mm: float,
                 open_sides: tuple[bool, bool, bool, bool]) -> tuple[float, float]:
    """Whether a cell's tint keeps to its printed lines: the least share of its interior's (median) ink left near
    a line (pencil shading reaches its lines; a smudge or a blot fades before them), and the most spilled past a
    line into a neighbour left empty (`open_sides`: top, right, bottom, left)."""
    inner = float(np.median(ink[box[1] : box[3], box[0] : box[2]]))
    if inner <= 0:
        return 1.0, 0.0
    margin = (1.0, (FALL_MARGIN_MM[1] - FALL_MARGIN_MM[0]) * px_per_mm)  # the interior's own edge pixel left out
    spill = (SPILL_BAND_MM[0] * px_per_mm, SPILL_BAND_MM[1] * px_per_mm)
    near, past = [], []
    for side in range(4):
        band = _band(ink, box, side, margin)
        if band.size:
            near.append(float(np.median(band)) / inner)
        band = _band(ink, box, side, spill)
        if open_sides[side] and band.size:
            past.append(float(np.median(band)) / inner)
    return min(near, default=1.0), max(past, default=0.0)
