"""How sure the paper's light is at each cell, measured by how well it predicts paper it was not told about.

Light that varies smoothly (a lens's vignetting, a lamp to one side, a shadow too soft to be taken for a step) is
measured on the bare paper around the grid and in the empty cells, and interpolated over the shaded cells
(`measure.coarse_estimate`). How far off that interpolation can be is seen on the empty cells themselves: each is
left out in turn (a quarter of them at a time, none beside another), its light predicted from the rest, and
compared with what it shows. A shaded cell is as unsure as the worst prediction among the empty cells near it, and
it is in doubt only when a light that far off would put it on the other side of the threshold: steep but smooth
light that the paper around follows leaves heavy and light pencil alike sure, and a hard edge the paper does not
pin down leaves the cells near it in doubt.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import cv2
import numpy as np

from doodle.quilt import SIZE
from doodle.sheet.measure import CoarsePaper, blend_paper, blend_scales, light_trend
from doodle.sheet.tuning import TUNING, ReaderTuning


def light_uncertainty(
    light: CoarsePaper, paper_cells: Collection[int], boxes: Sequence[tuple[int, int, int, int]],
    fallback: np.ndarray, t: ReaderTuning = TUNING,
) -> np.ndarray:
    """Per cell (81, row by row), how far off (in log brightness) the paper's `light` (`measure.coarse_estimate`)
    may be.

    `paper_cells` are the cells taken as paper (their interiors `boxes` are in the light's paper): 0 for them. A
    cell with no paper cell within `t.light_holdout_reach` gets its `fallback` (81 values), or more where the
    estimates with and without the light's broad shape disagree more."""
    colours, weight = light.values, light.weight
    values = colours.max(axis=2, keepdims=True)  # the brightest channel alone: a third of the work
    seen = np.log(np.maximum(values[..., 0], 1.0))
    trend = light_trend(values, weight, t)  # the broad shape barely changes with a quarter of the cells left out
    coarse = _coarse_spans(boxes, t)
    errors: dict[int, float] = {}
    for group in range(4):  # each cell's four neighbours are in the other groups
        held = [i for i in paper_cells if 2 * (i // SIZE % 2) + i % SIZE % 2 == group]
        if not held:
            continue
        without = weight.copy()
        for i in held:
            x0, y0, x1, y1 = coarse[i]
            without[y0:y1, x0:x1] = 0.0
        predicted = np.log(np.maximum(blend_scales(values, without, trend, t)[..., 0], 1.0))
        for i in held:
            x0, y0, x1, y1 = coarse[i]
            paper = weight[y0:y1, x0:x1] > 0
            if paper.any():
                errors[i] = abs(float(np.median((predicted[y0:y1, x0:x1] - seen[y0:y1, x0:x1])[paper])))
    uncertainty = np.zeros(SIZE * SIZE)
    shapes = None  # made only when a cell has no empty cell near it
    for i in range(SIZE * SIZE):
        if i in paper_cells:
            continue
        near = [error for j, error in errors.items() if near_each_other(i, j, t.light_holdout_reach)]
        if near:
            uncertainty[i] = t.light_holdout_safety * max(near)
        else:
            shapes = _shape_departure(light, t) if shapes is None else shapes
            x0, y0, x1, y1 = coarse[i]
            uncertainty[i] = max(float(fallback[i]), float(np.median(shapes[y0:y1, x0:x1])))
    return uncertainty


def _shape_departure(light: CoarsePaper, t: ReaderTuning) -> np.ndarray:
    """How far (log, per coarse pixel, the most of the colours) the light estimated differs from the light had it
    followed the paper around instead of its broad shape.

    Where no empty cell is near to tell, the light follows its broad shape; had it followed the paper around
    instead, it would be this different: as unsure as that, at least (a shape bent by a shadow over a margin).
    Each colour on its own: ink is read in the darkest of them (the blue, under a tungsten lamp). (With too little
    paper, or none to fit a shape to, the light has no broad shape: nothing to compare.)"""
    colours, weight = light.values, light.weight
    if weight.sum() < t.light_min_paper or light.trend is None:
        return np.zeros(weight.shape, np.float32)
    shaped = np.log(np.maximum(light.estimate, 1.0))
    blended = blend_paper(colours, weight, t, light.weight_blurs)  # the weight's blurs made for the light
    return np.abs(shaped - np.log(np.maximum(blended, 1.0))).max(axis=2)


def near_each_other(index: int, other: int, reach: int) -> bool:
    """Whether two cells (row * 9 + col) are at most `reach` rows and `reach` columns apart."""
    return abs(index // SIZE - other // SIZE) <= reach and abs(index % SIZE - other % SIZE) <= reach


def _coarse_spans(boxes: Sequence[tuple[int, int, int, int]], t: ReaderTuning) -> list[tuple[int, int, int, int]]:
    """The sheet-pixel `boxes` (x0, y0, x1, y1) on the light's coarse map (`measure.coarse_estimate`), covering them."""
    step = t.light_coarse
    return [(x0 // step, y0 // step, -(-x1 // step), -(-y1 // step)) for x0, y0, x1, y1 in boxes]


def darker_nearby(light: CoarsePaper, boxes: Sequence[tuple[int, int, int, int]], px_per_mm: float,
                  t: ReaderTuning = TUNING) -> np.ndarray:
    """Per cell (81, row by row), how much darker (log) than the estimate the light there may be: as much darker
    than the light's broad shape as the paper nearest it is (t.light_far_*), times t.light_holdout_safety.

    Where paper is far, the estimate follows the light's broad shape (`measure.light_trend`). A soft shadow over a
    margin departs from any such shape, and reaches further in than the estimate does (mixed 200036: a hand's
    shadow with a 42 mm penumbra over the top margin read 4 empty cells 40 mm inside the grid as shaded, with no
    doubt), and what the margin shows of it is the least of its depth. Light brighter than its shape (a glare) is
    left to glare.py: this is about paper read as pencil."""
    darker = np.zeros(SIZE * SIZE)
    paper = light.weight > 0
    if light.trend is None or not paper.any():
        return darker
    broad = light.trend.max(axis=2)
    estimated = np.log(np.maximum(light.estimate.max(axis=2), 1.0)) - broad
    departure = np.where(paper, np.log(np.maximum(light.values.max(axis=2), 1.0)) - broad, estimated)
    # Print left in the paper (the title's bold letters) and a strip lit wrongly along a shadow's edge taken out
    # are narrower than a shadow: closed and opened away (off the paper, the estimate stands in).
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (t.light_far_detail,) * 2)
    departure = cv2.morphologyEx(departure.astype(np.float32), cv2.MORPH_CLOSE, kernel)
    departure = cv2.morphologyEx(departure, cv2.MORPH_OPEN, kernel)
    distance = cv2.distanceTransform((~paper).astype(np.uint8), cv2.DIST_L2, 3)
    ys, xs = np.nonzero(paper[::2, ::2])  # every other coarse pixel (4 mm apart) tells as much
    if xs.size == 0:
        return darker
    ys, xs = 2 * ys, 2 * xs
    order = np.argsort(departure[ys, xs], kind="stable")  # the paper from its darkest departure up
    ys, xs, lowest_first = ys[order], xs[order], departure[ys, xs][order]
    spans = np.array(_coarse_spans(boxes, t))
    cx, cy = (spans[:, 0] + spans[:, 2]) / 2.0, (spans[:, 1] + spans[:, 3]) / 2.0
    centre = np.minimum(cy.astype(int), paper.shape[0] - 1), np.minimum(cx.astype(int), paper.shape[1] - 1)
    radius = distance[centre] + t.light_far_reach_mm * px_per_mm / t.light_coarse
    # All cells at once: which paper each looks at, and the one at the percentile's rank among them.
    inside = (xs[None, :] - cx[:, None]) ** 2 + (ys[None, :] - cy[:, None]) ** 2 <= (radius**2)[:, None]
    count = inside.sum(axis=1)
    rank = np.floor(t.light_far_percentile / 100.0 * np.maximum(count - 1, 0)).astype(int)
    at_rank = np.minimum((np.cumsum(inside, axis=1) <= rank[:, None]).sum(axis=1), len(lowest_first) - 1)
    here = estimated[centre]  # the estimate is smooth over a cell
    return np.where(count > 0, t.light_holdout_safety * np.maximum(here - lowest_first[at_rank], 0.0), 0.0)


def darkness(ink: float) -> float:
    """How much darker (log) than the light paper with `ink` reads: the light that would make paper read so."""
    return -float(np.log(max(1.0 - ink, 1e-3)))


def could_be_paper(value: float, threshold: float, darker: float) -> bool:
    """Whether ink `value` would be under `threshold` with the light `darker` (log) than estimated."""
    return bool(1.0 - (1.0 - value) * np.exp(darker) <= threshold)


def either_side(value: float, threshold: float, uncertainty: float) -> bool:
    """Whether ink `value` could lie on either side of `threshold` with the light off by `uncertainty` (log): the
    light divides what the cell shows, so ink 1 - (1 - value) * exp(+-uncertainty)."""
    darker = 1.0 - (1.0 - value) * np.exp(-uncertainty)
    lighter = 1.0 - (1.0 - value) * np.exp(uncertainty)
    return bool(lighter <= threshold <= darker)
