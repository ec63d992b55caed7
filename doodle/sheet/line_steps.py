"""Whether the sheet steps at the printed line between two cells, or runs on through it: pencil keeps to the grid,
light does not.

A fill changes the sheet's brightness at the printed line between a shaded cell and an empty one, and is about as
even on either side of it as paper is. A soft shadow, a lens's vignetting or a lamp's fall-off change it as
smoothly across a line as within a cell. Either side of the line two strips parallel to it are measured (clear of
the line and of an outline drawn along it, and clear of the cell's corners), in log brightness, each colour
channel alone: the ramp the strips show on both sides, carried to the line, says what the far side would show if
only the light changed there; what it shows beyond that is the step. An even fill against paper is a step with
flat sides; a ramp that bends at the line (a fill that fades towards it, or stops short of it) is neither a flat
step nor light running on.

What this cannot tell: a hard shadow whose edge lies along a printed line, that the shadow finder missed (it
looks for edges that do not follow the lines), steps there as a fill does.

This settles cells the light leaves in doubt, from their neighbours, where the middle of the cell (which no strip
reaches) is as its sides say the light there is: a cell with no strokes that runs on through
a line from a cell known to be paper is paper; one a flat step darker than any neighbour (paper, a fill, or a
cell in doubt: nothing but a fill is darker than its neighbour so) is shaded; one that runs on from a cell settled
as shaded, or from a heavy fill (which neither a stain nor a smudge is), is shaded too. Nothing is settled
across a line where the photo's paper is clipped (a glare washes a fill out to paper).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import NamedTuple

import cv2
import numpy as np

from doodle.geometry import Cell
from doodle.quilt import SIZE
from doodle.sheet import layout
from doodle.sheet.tuning import ReaderTuning

_LEAST_GAIN = 1e-3  # a shadow's gain is never taken as deeper than this (its log stays finite)


class LineStep(NamedTuple):
    """From one cell across the line into its neighbour, in the colour channel that steps most; and the most any
    channel steps or bends (a pale yellow fill shows in blue alone)."""

    step: float  # log brightness: how much brighter the neighbour is at the line than the ramp says
    bend: float  # how much the ramp's slope changes at the line (0 for a straight ramp, or for flat sides)
    largest_step: float = 0.0  # the largest |step| of any channel
    largest_bend: float = 0.0  # the largest |bend| of any channel

    def runs_on(self, t: ReaderTuning) -> bool:
        """Whether the sheet runs on through the line in every channel, as light does."""
        return (max(abs(self.step), self.largest_step) < t.line_step_smooth
                and max(abs(self.bend), self.largest_bend) < t.line_step_bend)

    def no_fill_edge(self, t: ReaderTuning) -> bool:
        """Whether the neighbour is brighter at the line by less than a fill's least step (in the channel that
        steps most; darker is no fill's edge either: a fill darkens its own side), with no bend in any channel."""
        return self.step < t.line_step_smooth and max(abs(self.bend), self.largest_bend) < t.line_step_bend

    def flat_step(self, t: ReaderTuning) -> bool:
        """Whether the neighbour is brighter by an even fill's step, with flat sides."""
        return self.step >= t.line_step_fill and abs(self.bend) < t.line_step_flat * self.step

    def reversed(self) -> LineStep:
        """The same line, measured from the neighbour."""
        return LineStep(-self.step, self.bend, self.largest_step, self.largest_bend)


def neighbours(cell: Cell) -> list[Cell]:
    """The squares that share a printed line with `cell`: cells of the grid, or squares of the margin around it
    (row or column -1 or SIZE)."""
    row, col = cell
    return [(row, col + 1), (row + 1, col), (row, col - 1), (row - 1, col)]


def margin_squares() -> set[Cell]:
    """The margin beside the grid, a cell's width deep, as squares in line with the cells."""
    return ({(-1, k) for k in range(SIZE)} | {(SIZE, k) for k in range(SIZE)} | {(k, -1) for k in range(SIZE)}
            | {(k, SIZE) for k in range(SIZE)})


class _Band(NamedTuple):
    """Where the strips across the line between two squares lie in the sheet image."""

    along: slice  # the rows (or columns) along the line, clear of the squares' corners
    lo: int  # the pixels across the line: from lo to hi
    hi: int
    line: float  # the line's place, in pixels across
    across: bool  # the line runs down (between two squares of a row)

    def of(self, image: np.ndarray) -> np.ndarray:
        """The band of `image`, rows along the line and columns across it."""
        if self.across:
            return image[self.along, self.lo : self.hi]
        return image[self.lo : self.hi, self.along].swapaxes(0, 1)


def _band(shape: tuple[int, ...], px_per_mm: float, first: Cell, second: Cell, t: ReaderTuning) -> _Band | None:
    """The band the strips of the line between `first` and `second` lie in, or None where it leaves the sheet."""
    low, high = sorted((first, second))
    grid = layout.GRID_RECT
    x, y = grid.x + low[1] * layout.CELL_MM, grid.y + low[0] * layout.CELL_MM
    across = high[0] == low[0]
    line = ((x if across else y) + layout.CELL_MM) * px_per_mm
    start = y if across else x
    along = slice(round((start + t.line_step_clear_mm) * px_per_mm),
                  round((start + layout.CELL_MM - t.line_step_clear_mm) * px_per_mm))
    reach = t.line_step_far_mm[1] * px_per_mm
    lo, hi = int(np.floor(line - reach)), int(np.ceil(line + reach))
    length, width = (shape[0], shape[1]) if across else (shape[1], shape[0])
    if lo < 0 or hi > width or along.start < 0 or along.stop > length:
        return None
    return _Band(along, lo, hi, line, across)


def line_crosses(mask: np.ndarray, px_per_mm: float, first: Cell, second: Cell, t: ReaderTuning) -> bool:
    """Whether `mask` (bool, the sheet image's size) reaches the strips of the line between two squares."""
    band = _band(mask.shape, px_per_mm, first, second, t)
    return band is not None and bool(band.of(mask).any())


def line_step(sheet: np.ndarray, inside: np.ndarray, px_per_mm: float, first: Cell, second: Cell,
              t: ReaderTuning, gain: np.ndarray | None = None) -> LineStep | None:
    """The step from square `first` into its neighbour `second` (cells, or squares of the margin) on the flattened
    sheet (BGR uint8; `inside`: its pixels that were in the photo) divided by the shadows' `gain` (float32, the
    sheet's size; None: none), or None where the strips reach paper the photo clipped or go beyond the photo.

    Divided here, in floats, not on a lifted 8-bit sheet: a deep shadow's paper lifted past 255 clips there, and a
    clipped strip shows no step (light 5300001, blind: a hand's soft shadow 0.68 deep under mixed lamps, its paper
    lifted to 255 in blue; 10 empty cells in it had no line to measure and stayed in doubt)."""
    placed = _band(sheet.shape, px_per_mm, first, second, t)
    if placed is None:
        return None
    band = placed.of(sheet)
    if not placed.of(inside).all() or (band.min(axis=2) >= t.glare_clip).any():
        return None
    line, lo = placed.line, placed.lo
    logs = np.log(np.maximum(band.astype(np.float32), 1.0))
    if gain is not None:
        logs -= np.log(np.maximum(placed.of(gain), _LEAST_GAIN))[..., None]

    def strip(near: float, far: float) -> np.ndarray:
        """Each row's median over the strip from `near` to `far` mm past the line (negative: before it)."""
        a, b = sorted((line + near * px_per_mm - lo, line + far * px_per_mm - lo))
        return np.median(logs[:, round(a) : round(b)], axis=1)  # rows x channels

    # Medians, row by row and then over the rows: a label printed in the margin, a speck, a sharpened halo do not
    # move them. (Sparse strokes can hide between the rows' medians: such cells have more texture than paper and
    # are never settled as paper: see `fine_texture`.)
    (n0, n1), (f0, f1) = t.line_step_near_mm, t.line_step_far_mm
    before_far, before_near, after_near, after_far = strip(-f1, -f0), strip(-n1, -n0), strip(n0, n1), strip(f0, f1)
    gap = (f0 + f1 - n0 - n1) / 2  # mm between a near strip's middle and its far one's
    slope = (before_near - before_far + after_far - after_near) / (2 * gap)
    steps = np.median(after_near - before_near - (n0 + n1) * slope, axis=0)
    bends = np.median((after_far - after_near) - (before_near - before_far), axis=0)
    channel = int(np.argmax(np.abs(steps)))
    sign = 1.0 if first < second else -1.0
    return LineStep(sign * float(steps[channel]), float(bends[channel]), float(np.abs(steps).max()),
                    float(np.abs(bends).max()))


def _log_median(sheet: np.ndarray, gain: np.ndarray | None, box: tuple[int, int, int, int]) -> np.ndarray:
    """The median log brightness of each channel of the `sheet` (BGR) in `box` (x0, y0, x1, y1, pixels), divided
    by the `gain` there (None: 1)."""
    x0, y0, x1, y1 = box
    logs = np.log(np.maximum(sheet[y0:y1, x0:x1].reshape(-1, 3).astype(np.float32), 1.0))
    if gain is not None:
        logs -= np.log(np.maximum(gain[y0:y1, x0:x1].reshape(-1, 1), _LEAST_GAIN))
    return np.median(logs, axis=0)


def middle_against_sides(sheet: np.ndarray, px_per_mm: float, cell: Cell, t: ReaderTuning,
                         gain: np.ndarray | None = None) -> float:
    """How much brighter (log; negative: darker) the middle of `cell` is than the light its sides carry there, in
    the colour channel that differs most: the mean of four strips inside its sides, as far from them as
    `line_step`'s far strips (and only as long as the middle), which a ramp of light across the cell averages to
    its middle. A smudge or a dot in the middle, clear of the strips, shows here."""
    rect = layout.cell_rect(*cell)
    near, far = t.line_step_far_mm  # the strips' distances from the cell's sides
    sides = []
    for strip in (layout.Rect(rect.x + near, rect.y + far, far - near, rect.h - 2 * far),
                  layout.Rect(rect.x2 - far, rect.y + far, far - near, rect.h - 2 * far),
                  layout.Rect(rect.x + far, rect.y + near, rect.w - 2 * far, far - near),
                  layout.Rect(rect.x + far, rect.y2 - far, rect.w - 2 * far, far - near)):
        sides.append(_log_median(sheet, gain, strip.to_px(px_per_mm)))
    differences = _log_median(sheet, gain, rect.inset(far).to_px(px_per_mm)) - np.mean(sides, axis=0)
    return float(differences[int(np.argmax(np.abs(differences)))])


def colour_gap(sheet: np.ndarray, px_per_mm: float, first: Cell, second: Cell, t: ReaderTuning,
               gain: np.ndarray | None = None) -> float:
    """How far apart in colour the middles of two squares are (`_middle`): the largest difference of a channel's log
    brightness about the mean of the three, between them (a grey light, a shadow, a gain cancel out). Paper beside
    paper is one colour; a coloured fill that fades to paper at its line, and runs on through it, is not."""
    colours = []
    for square in (first, second):
        logs = _log_median(sheet, gain, _middle(square, t).to_px(px_per_mm))
        colours.append(logs - logs.mean())
    return float(np.abs(colours[0] - colours[1]).max())


def _middle(square: Cell, t: ReaderTuning) -> layout.Rect:
    """Where a square's colour is read: a cell's middle, t.line_step_far_mm[1] in from its lines; for a square of
    the margin, the strip of it as long, as far from the grid's border as the far strips of a line step (the
    labels printed there are thin, and a median passes over them)."""
    row, col = square
    if 0 <= row < SIZE and 0 <= col < SIZE:
        return layout.cell_rect(row, col).inset(t.line_step_far_mm[1])
    grid, near, far = layout.GRID_RECT, *t.line_step_far_mm
    x, y = grid.x + col * layout.CELL_MM, grid.y + row * layout.CELL_MM
    length = layout.CELL_MM - 2 * far
    if row in (-1, SIZE):
        top = grid.y - far if row < 0 else grid.y2 + near
        return layout.Rect(x + far, top, length, far - near)
    left = grid.x - far if col < 0 else grid.x2 + near
    return layout.Rect(left, y + far, far - near, length)


def fine_texture(sheet: np.ndarray, px_per_mm: float, cells: Collection[Cell], t: ReaderTuning) -> dict[Cell, float]:
    """Each cell's fine texture: the spread (standard deviation, in 8-bit levels) of its darkest channel about
    that channel blurred over t.line_step_grain_mm, in its interior. Paper has little (its grain and the photo's noise,
    which a shadow does not raise in these units); strokes a blur left too faint to be found have much (a scribble
    shaken into bands)."""
    if not cells:
        return {}
    fine = _fine(sheet, px_per_mm, t)
    return {cell: _spread(fine, layout.cell_rect(*cell).inset(t.cell_inset_mm).to_px(px_per_mm)) for cell in cells}


def boxes_texture(sheet: np.ndarray, px_per_mm: float, boxes: Collection[tuple[int, int, int, int]],
                  t: ReaderTuning) -> list[float]:
    """The fine texture (as `fine_texture` measures it) in each of `boxes` (x0, y0, x1, y1, pixels)."""
    if not boxes:
        return []
    fine = _fine(sheet, px_per_mm, t)
    return [_spread(fine, box) for box in boxes]


def _fine(sheet: np.ndarray, px_per_mm: float, t: ReaderTuning) -> np.ndarray:
    """The sheet's darkest channel (the one any pencil darkens: a red one leaves red) less its blur."""
    darkest = sheet.min(axis=2).astype(np.float32)
    return darkest - cv2.GaussianBlur(darkest, (0, 0), t.line_step_grain_mm * px_per_mm)


def _spread(fine: np.ndarray, box: tuple[int, int, int, int]) -> float:
    x0, y0, x1, y1 = box
    return float(fine[y0:y1, x0:x1].std())


def steps_around(sheet: np.ndarray, inside: np.ndarray, px_per_mm: float, cells: Collection[Cell],
                 beside: Collection[Cell], t: ReaderTuning, gain: np.ndarray | None = None
                 ) -> dict[Cell, dict[Cell, LineStep | None]]:
    """For each of `cells`, the step into each neighbour among `cells` or `beside` (`line_step`, over `gain`), each
    line measured once."""
    measured: dict[tuple[Cell, Cell], LineStep | None] = {}
    around: dict[Cell, dict[Cell, LineStep | None]] = {}
    for cell in cells:
        around[cell] = {}
        for other in neighbours(cell):
            if other not in cells and other not in beside:
                continue
            if (other, cell) in measured:
                back = measured[other, cell]
                around[cell][other] = None if back is None else back.reversed()
            else:
                found = line_step(sheet, inside, px_per_mm, cell, other, t, gain)
                around[cell][other] = measured[cell, other] = found
    return around


def settle(doubtful: Collection[Cell], paper: Collection[Cell], heavy: Collection[Cell],
           step_between: Mapping[Cell, Mapping[Cell, LineStep | None]], t: ReaderTuning,
           margin: Collection[Cell] = frozenset(), tints: Collection[Cell] = frozenset(),
           textured: Collection[Cell] = frozenset(),
           over_edges: Collection[tuple[Cell, Cell]] = frozenset(),
           unlike: Collection[tuple[Cell, Cell]] = frozenset()) -> dict[Cell, bool]:
    """Which of the `doubtful` cells (with no strokes) their neighbours settle, and as what (True: shaded).

    `paper`: cells known to be paper; `margin`: the margin's squares beside the grid (paper too, but printed with
    the grid's labels: no step is measured against them); `heavy`: cells shaded by a fill too dark for a stain or a
    smudge; none of them hold strokes. `tints`: doubtful cells that may be a stain's tint, whose edge may lie
    along a line by chance: no step settles them as shaded. `textured`: doubtful cells with more fine texture than
    paper (strokes a blur hid, whose sparse bands the strips may miss): not settled as paper.
    `step_between[c][d]`: the step from doubtful cell c into its neighbour d (`line_step`). `over_edges`: the
    lines (c, d) a hard shadow's edge crosses, which settle nothing: a depth taken out amiss there leaves a step
    where there is none, or hides a light fill's. `unlike`: the pairs (c, d) of a cell in a pencil's colour and grey
    paper beside it whose colours differ (`colour_gap`): c is not paper, whatever its line to d says.

    A flat step darker on the cell's side settles it as shaded whatever lies beyond (light 8: a solid patch under
    a deep soft shadow, beside cells in doubt only, stepped 0.4-0.7 into them and stayed in doubt). A cell is
    settled only where every neighbour that says anything says the same (a cell shaded over half its width runs
    on into paper on one side and steps on another), and as paper only where no line to paper is darker on its
    side by t.line_step_object."""
    settled: dict[Cell, bool] = {}
    unlike_paper = {cell for cell, _ in unlike}  # measured between the cells' middles, whatever their line shows
    changed = True
    while changed:  # a cell settled may settle the next
        changed = False
        for cell in sorted(doubtful):
            if cell in settled:
                continue
            # Coloured unlike paper beside it: a fill that fades at its line, not paper.
            verdicts, objections = set(), {False} if cell in unlike_paper else set()
            for other, found in step_between[cell].items():
                if (cell, other) in over_edges or found is None:
                    continue
                if other not in margin and cell not in tints and found.flat_step(t):
                    verdicts.add(True)  # darker than its neighbour by an even fill's step: not paper, whatever that is
                known = other in paper or other in margin
                label = False if known else True if other in heavy else settled.get(other)
                if label is None:
                    continue
                if found.runs_on(t) and not (label is False and cell in textured):
                    verdicts.add(label)
                elif label is False and found.step >= t.line_step_object:
                    objections.add(False)  # darker than paper beside it: not paper, whatever else says so
            if len(verdicts) == 1 and not verdicts & objections:
                settled[cell] = verdicts.pop()
                changed = True
    return settled
