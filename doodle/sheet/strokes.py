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

The values it decides with are in `tuning.ReaderTuning` (strokes against tints), with their evidence.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import cv2
import numpy as np

from doodle.quilt import SIZE
from doodle.sheet.measure import Colours, local_ink, medians_of
from doodle.sheet.tuning import TUNING, ReaderTuning


class StrokeMap:
    """Where the strokes are over the boxes' bounds and `margin_px` around them, in sheet-image pixels."""

    def __init__(self, sheet: np.ndarray, boxes: tuple[tuple[int, int, int, int], ...], px_per_mm: float,
                 t: ReaderTuning = TUNING, margin_px: int = 0, stroke_ink: float | None = None) -> None:
        """`stroke_ink`: the ink a stroke stands out by, if not `t.stroke_ink` (a blurred photo's strokes stand
        out less); `sharp_drawn` is then `drawn` at `t.stroke_ink`."""
        height, width = sheet.shape[:2]
        self.x0, self.y0 = max(min(b[0] for b in boxes) - margin_px, 0), max(min(b[1] for b in boxes) - margin_px, 0)
        x1, y1 = min(max(b[2] for b in boxes) + margin_px, width), min(max(b[3] for b in boxes) + margin_px, height)
        reach = round(t.stroke_reach_mm * px_per_mm)
        ink = local_ink(sheet, (self.x0, self.y0, x1, y1), reach, t)
        self.stroke_ink = t.stroke_ink if stroke_ink is None else stroke_ink
        self.mask = ink > self.stroke_ink
        # The share of each box on strokes: its count over its size, the very quotient a bool mean gives.
        self.shares = self._shares(self.mask, boxes)
        # The share on pieces of stroke of t.stroke_least_mm2 or more: where the light is in doubt, only these show
        # a hand drew them (`_without_specks`).
        least = t.stroke_least_mm2 * px_per_mm**2
        self.drawn = self._shares(_without_specks(self.mask, least), boxes)
        self.sharp_drawn = self.drawn if self.stroke_ink == t.stroke_ink else self._shares(
            _without_specks(ink > t.stroke_ink, least), boxes)

    def _shares(self, mask: np.ndarray, boxes: tuple[tuple[int, int, int, int], ...]) -> np.ndarray:
        """The share of each box that `mask` (the map's size) covers."""
        return np.array([np.count_nonzero(part) / part.size for part in (self._inside(mask, box) for box in boxes)])

    def at(self, box: tuple[int, int, int, int]) -> np.ndarray:
        return self._inside(self.mask, box)

    def separate(self, box: tuple[int, int, int, int], least_px: float) -> int:
        """How many separate pieces of stroke, `least_px` pixels or more each, lie within `box`: one for a line
        across it or two that cross, one for each line of a hatching."""
        _, _, stats, _ = cv2.connectedComponentsWithStats(self.at(box).astype(np.uint8), connectivity=8)
        return int(np.count_nonzero(stats[1:, cv2.CC_STAT_AREA] >= least_px))

    def _inside(self, mask: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
        x0, y0, x1, y1 = box
        return mask[y0 - self.y0 : y1 - self.y0, x0 - self.x0 : x1 - self.x0]


def _without_specks(mask: np.ndarray, least_area: float) -> np.ndarray:
    """`mask` without its pieces smaller than `least_area` pixels. A pencil line is millimetres long; in a dark,
    noisy part of a photo brightened and sharpened by the phone, the grain stands out of the light around it in
    specks of a few pixels (mixed 3000008: empty cells under a hand's deep shadow had 46-59 specks, none over 7
    pixels, over 5% of their interior, and passed for marks where the light was in doubt). Not for every use: a
    faint stroke in a blurred, noisy photo breaks into pieces as small (harsh 22: a light fill's strokes, pieces of
    8-26 pixels)."""
    count, parts, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    large = stats[:, cv2.CC_STAT_AREA] >= least_area
    large[0] = False  # the background
    return large[parts]


def _unevenness(ink: np.ndarray, strokes: StrokeMap, boxes: tuple[tuple[int, int, int, int], ...],
                cells: set[int], t: ReaderTuning, skip: np.ndarray | None = None) -> dict[int, float]:
    """Per cell, the spread over the blocks of its box of the ink between its strokes (0 for an even tint, with
    strokes on it or not; a hatched cell's paper between its strokes is even too), leaving out `skip` (bool, sheet
    image size) too. The cells of one box size are measured together: each block's median is np.median's of the
    ink between its strokes."""
    spread: dict[int, float] = {}
    by_size: dict[tuple[int, int], list[int]] = {}
    for index in sorted(cells):
        x0, y0, x1, y1 = boxes[index]
        by_size.setdefault((y1 - y0, x1 - x0), []).append(index)
    blocks = t.uneven_blocks
    for (height, width), group in by_size.items():
        ink_at = np.stack([ink[y0:y1, x0:x1] for x0, y0, x1, y1 in (boxes[index] for index in group)])
        on_stroke = np.stack([strokes.at(boxes[index]) for index in group])
        if skip is not None:
            on_stroke |= np.stack([skip[y0:y1, x0:x1] for x0, y0, x1, y1 in (boxes[index] for index in group)])
        xs = np.linspace(0, width, blocks + 1).round().astype(int)
        ys = np.linspace(0, height, blocks + 1).round().astype(int)
        medians = []
        for row in range(blocks):
            for col in range(blocks):
                block = (slice(None), slice(ys[row], ys[row + 1]), slice(xs[col], xs[col + 1]))
                between = ~on_stroke[block].reshape(len(group), -1)
                count = between.sum(axis=1)
                ordered = np.sort(np.where(between, ink_at[block].reshape(len(group), -1), np.nan), axis=1)
                rows = np.arange(len(group))
                # The middle one or two of the values between the strokes (nan sorts last), averaged as np.median
                # does (in the ink's own float32: halving is exact).
                middle = (ordered[rows, np.maximum(count - 1, 0) // 2] + ordered[rows, count // 2]) / 2
                enough = (count > 0) & (count >= t.uneven_min_share * between.shape[1])
                medians.append(np.where(enough, middle, np.nan))
        for k, index in enumerate(group):
            means = [float(m[k]) for m in medians if not np.isnan(m[k])]
            spread[index] = max(means) - min(means) if len(means) > 1 else 0.0
    return spread


def stain_cells(ink: np.ndarray, normalised: Colours, values: np.ndarray, shaded: np.ndarray,
                strokes: StrokeMap, boxes: tuple[tuple[int, int, int, int], ...], px_per_mm: float,
                t: ReaderTuning = TUNING, light_steps: np.ndarray | None = None) -> tuple[set[int], set[int]]:
    """Cells read as shaded that may be a stain, and those that are blots. Each group of touching shaded cells
    darkened by a tint alone (no strokes, not dark, not in a coloured pencil's colour) may be a stain when a cell
    of it, or beside it, is tinted unevenly (a tint's edge runs through it: in doubt, since a light pencil fill
    beside a misjudged light reads so too), and is a blot when its cells fade before their lines or spill over
    them into a cell left empty (a smudge, a smear; in a wide group, only its cells that do). A cell whose tint
    fades and spills a little, both, or fades a little all round, may be a stain too (a soft edge, a blob: see
    `_stray_tints`). Cells with strokes are not judged so: the paper between hatching strokes is not even enough
    to tell. (`normalised`: the sheet's
    BGR over the paper's own, for the tints' colour; `light_steps`, bool, sheet image size: where the light itself
    steps, a shadow's edge taken out, which is no tint's edge.)"""
    plain = {i for i in range(SIZE * SIZE) if strokes.shares[i] < t.stroke_mark and values[i] < t.tint_sure
             and not pencil_coloured(normalised, boxes[i], t)}
    tint = {i for i in plain if shaded[i]}
    spread = _unevenness(ink, strokes, boxes, plain, t, light_steps)
    stains: set[int] = set()
    blots: set[int] = set()
    strays, soft = _stray_tints(ink, boxes, tint, shaded, px_per_mm, t)
    # A tint that fades towards its lines and spills past them, each less than a blot's, has a soft edge on the
    # whole, as no pencil fill does: it may be a stain (smudge 170015: an eraser smudge round in h3, 0.137 of ink,
    # kept 0.65 of it by its lines and spilled 0.29, each just inside pencil's bounds; read shaded and sure).
    stains |= soft
    for group in touching_groups(tint, lambda _a, _b: True):
        stray = group & strays
        if stray and len(stray) >= t.blot_stray_share * len(group):
            blots |= group
            continue
        # A smudge or a smear is a few cells, most of them fading or spilling; in a wide patch of solid fill one
        # cell may fade where a blur meets the grid's thick border (the example expert-1-harsh: one of 55): that
        # cell is a blot, and the rest of the patch is judged as any other tint.
        blots |= stray
        # Each cell's spread against its own tint, or the group's where that is more: two light fills side by side
        # make one group, and the grain of the darker one is uneven against the lighter's (harsh 4016: 0.2 and
        # 0.13 ink, the darker's blocks 0.06-0.08 apart, a stain against the group's median). A tint's edge through
        # a cell leaves it between paper and the tint, uneven against either.
        median = float(np.median([values[i] for i in group]))
        around = {r * SIZE + c for i in group for r, c in side_neighbours(i)}
        if any(spread.get(i, 0.0) > max(t.uneven_least, t.uneven_share * max(median, float(values[i])))
               for i in around | group):
            stains |= group
    return stains | blots, blots


def _stray_tints(ink: np.ndarray, boxes: tuple[tuple[int, int, int, int], ...], cells: set[int], shaded: np.ndarray,
                 px_per_mm: float, t: ReaderTuning) -> tuple[set[int], set[int]]:
    """The `cells` whose tint fades before their lines or spills over them into a cell left empty; and those
    whose tint's edge is soft on the whole: the share it loses by its lines and the share it spills past them add
    up to `t.soft_edge` or more, or it keeps less than `t.blob_keep` near its lines on average (a blob)."""

    def empty(r: int, c: int) -> bool:
        return 0 <= r < SIZE and 0 <= c < SIZE and not shaded[r * SIZE + c]

    order = sorted(cells)
    sides = [(empty(row - 1, col), empty(row, col + 1), empty(row + 1, col), empty(row, col - 1))
             for row, col in (divmod(index, SIZE) for index in order)]
    keeping = _grid_keeping_all(ink, [boxes[index] for index in order], px_per_mm, sides, t)
    stray = {index for index, kept in zip(order, keeping, strict=True)
             if kept.near < t.fall_stain or kept.past > t.spill_stain}
    # A blob (an eraser smudge round in the middle of a cell) fades all round, each side a little: pencil shading
    # keeps to every line of its cell.
    soft = {index for index, kept in zip(order, keeping, strict=True)
            if 1.0 - kept.near + kept.past >= t.soft_edge or kept.mean_near < t.blob_keep}
    return stray, soft


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
                todo += [other for other in (r * SIZE + c for r, c in side_neighbours(index))
                         if other in cells and other not in group and joins(index, other)]
        seen |= group
        groups.append(group)
    return groups


def side_neighbours(index: int) -> list[tuple[int, int]]:
    """The cells (row, column) that share a side with cell `index` (row * 9 + col)."""
    row, col = divmod(index, SIZE)
    return [(r, c) for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
            if 0 <= r < SIZE and 0 <= c < SIZE]


class Pigment(NamedTuple):
    """A colour's ink (1 - its darkest channel, over the paper's own), its chroma over that ink (a pigment's own,
    about the same at any strength), whether it is warm (red over green over blue), and where its hue lies between
    red (0: green as dark as blue) and yellow (1: green as bright as red), when warm."""

    ink: float
    chroma: float
    warm: bool
    yellowness: float


def _pigment(normalised: Colours, box: tuple[int, int, int, int], where: np.ndarray | None = None) -> Pigment | None:
    """The pigment of the box (its pixels `where`, when given); None for bare paper."""
    x0, y0, x1, y1 = box
    pixels = normalised[y0:y1, x0:x1]
    if where is not None:
        if not where.any():
            return None
        pixels = pixels[where]
    return pigment_of(pixels.reshape(-1, 3).mean(axis=0))


def pigment_of(colour: np.ndarray) -> Pigment | None:
    """A colour's (BGR over the paper's own) pigment; None for paper."""
    b, g, r = (float(v) for v in colour)
    ink = 1.0 - min(b, g, r)
    if ink <= 0.01:
        return None
    warm = r >= g >= b
    return Pigment(ink, (max(b, g, r) - min(b, g, r)) / ink, warm, (g - b) / (r - b) if warm and r > b else 0.0)


def stain_pigment(pigment: Pigment | None, t: ReaderTuning = TUNING, up_to: float | None = None) -> bool:
    """Whether a pigment is a stain's brown: warm, its hue no redder than t.stain_yellowness_least, its chroma
    within t.stain_chroma (`up_to`: a higher chroma that may still be a stain's)."""
    highest = t.stain_chroma[1] if up_to is None else up_to
    return (pigment is not None and pigment.warm and pigment.yellowness >= t.stain_yellowness_least
            and t.stain_chroma[0] <= pigment.chroma <= highest)


def stain_coloured(normalised: Colours, box: tuple[int, int, int, int], where: np.ndarray | None = None,
                   t: ReaderTuning = TUNING, up_to: float | None = None) -> bool:
    """Whether the box (its pixels `where`, when given) is tinted brown, as tea or coffee stains paper
    (`normalised`: BGR over the paper's own); `up_to`: a higher chroma that may still be a stain's."""
    return stain_pigment(_pigment(normalised, box, where), t, up_to)


def yellow_as_a_pencil(normalised: Colours, box: tuple[int, int, int, int], t: ReaderTuning = TUNING) -> bool:
    """Whether the box is tinted a yellow (coloured, not grey: `graphite`; a warm hue past
    t.stain_yellowness_most): a pale yellow pencil's hue, where tea and coffee are browner. Their chromas overlap
    when faint, and a lamp can tint paper as yellow: this says which is likelier, never that it is so."""
    pigment = _pigment(normalised, box)
    return (pigment is not None and pigment.chroma >= t.stain_chroma[0] and pigment.warm
            and pigment.yellowness > t.stain_yellowness_most)


def pencil_coloured(normalised: Colours, box: tuple[int, int, int, int], t: ReaderTuning = TUNING) -> bool:
    """Whether the box is tinted in a colour no stain has: blue, green or purple (a stain is grey or brown), a red
    (tea and coffee are browner), or a yellow or orange as pure as a pencil's (tea and coffee are duller)."""
    pigment = _pigment(normalised, box)
    if pigment is None or pigment.chroma < t.stain_chroma[0]:
        return False
    return not pigment.warm or pigment.yellowness < t.stain_yellowness_least or pigment.chroma >= t.pencil_chroma


def graphite(normalised: Colours, box: tuple[int, int, int, int], t: ReaderTuning = TUNING) -> bool:
    """Whether the box is tinted grey (graphite, a smudge of it), not by a coloured pencil, however faint."""
    pigment = _pigment(normalised, box)
    return pigment is None or pigment.chroma < t.stain_chroma[0]


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


class Keeping(NamedTuple):
    """How a cell's tint keeps to its printed lines, as shares of its interior's (median) ink."""

    near: float  # the least left near one of its lines (pencil shading reaches its lines; a blot fades before them)
    past: float  # the most spilled past a line into a neighbour left empty
    mean_near: float  # left near its lines, on average over its sides


def grid_keeping(ink: np.ndarray, box: tuple[int, int, int, int], px_per_mm: float,
                 open_sides: tuple[bool, bool, bool, bool], t: ReaderTuning = TUNING) -> Keeping:
    """Whether a cell's tint keeps to its printed lines (`open_sides`, top, right, bottom, left: the neighbours left
    empty, into which a tint may spill)."""
    return _grid_keeping_all(ink, [box], px_per_mm, [open_sides], t)[0]


def _grid_keeping_all(ink: np.ndarray, boxes: list[tuple[int, int, int, int]], px_per_mm: float,
                     open_sides: list[tuple[bool, bool, bool, bool]], t: ReaderTuning = TUNING
                     ) -> list[Keeping]:
    """`grid_keeping` of each box with its open sides, the medians of all of them taken together."""
    margin = (1.0, (t.fall_margin_mm[1] - t.fall_margin_mm[0]) * px_per_mm)  # the interior's own edge pixel left out
    spill = (t.spill_band_mm[0] * px_per_mm, t.spill_band_mm[1] * px_per_mm)
    regions = [[ink[box[1] : box[3], box[0] : box[2]],
                *(_band(ink, box, side, reach) for side in range(4) for reach in (margin, spill))] for box in boxes]
    medians = iter(medians_of([region for own in regions for region in own if region.size]))
    keeping = []
    for own, sides in zip(regions, open_sides, strict=True):
        inner_region, bands = own[0], own[1:]
        inner = next(medians) if inner_region.size else float("nan")
        ink_at = [next(medians) if band.size else None for band in bands]  # near and past, side by side
        if inner <= 0:
            keeping.append(Keeping(1.0, 0.0, 1.0))
            continue
        near = [value / inner for value in ink_at[0::2] if value is not None]
        past = [value / inner for value, open_ in zip(ink_at[1::2], sides, strict=True) if open_ and value is not None]
        keeping.append(Keeping(min(near, default=1.0), max(past, default=0.0),
                               sum(near) / len(near) if near else 1.0))
    return keeping

