"""Where the printed lines really are on a sheet flattened by the homography: a page that is not flat.

The marker homography assumes a flat sheet. A page curled from the printer, bowed or folded in a pocket puts its
grid, its special boxes and its bubbles several millimetres from where one homography says (5-20 mm of sag moves
them up to 6 mm), which is more than the bubbles' pitch allows: a round's score is read from the next bubble, an
unused box from its neighbour's border. So the printed marks themselves are looked for near where the
homography puts them (after the template alignment of OMR tools such as OMRChecker, written for this layout):

- the 10 + 10 grid lines, segment by segment, each in a profile of the thin dark print across it;
- the special boxes' check squares and the round blocks (the box a score is written in and its 20 bubble rings),
  by template matching in small windows;
- the corner markers, whose corners were found to a fraction of a pixel (their residual from the homography).

A smooth displacement field is fitted to what was found (bilinear on a lattice as fine as a cell, its bending
penalised, outliers down-weighted), and the sheet is warped again through it (`sheet_maps`), so that cells,
boxes and bubbles are read where they really are. Where the field does not explain what was seen (a box or a
bubble row not found where a displaced sheet would need it, or found far from the fitted field) the items there
are named (`Refinement.doubtful_*`), to be read with doubt and a request to flatten the sheet and retake it. The
values it decides with are `tuning.ReaderTuning`'s `refine_*`, with their evidence.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

import cv2
import numpy as np

from doodle.quilt import Quilt
from doodle.sheet import layout
from doodle.sheet.doubts import Uncertain
from doodle.sheet.markers import Detection, MarkerFit
from doodle.sheet.stages import PX_PER_MM
from doodle.sheet.tuning import TUNING, ReaderTuning

LATTICE_MM = layout.CELL_MM  # the field's nodes lie on the grid lines, one cell apart
LATTICE_ORIGIN_MM = (layout.GRID_RECT.x - 2 * LATTICE_MM, layout.GRID_RECT.y - 2 * LATTICE_MM)
LATTICE_SHAPE = (  # rows, columns: enough to cover the sheet
    int(np.ceil((layout.SHEET_HEIGHT_MM - LATTICE_ORIGIN_MM[1]) / LATTICE_MM)) + 1,
    int(np.ceil((layout.SHEET_WIDTH_MM - LATTICE_ORIGIN_MM[0]) / LATTICE_MM)) + 1,
)


class Probe(NamedTuple):
    """A printed mark looked for on the flattened sheet."""

    at: tuple[float, float]  # where it is printed (sheet mm)
    shift: tuple[float, float]  # where it was found less where it is printed (mm); nan for an axis not measured
    found: bool
    item: str  # what it places: "line", "marker", "check NAME", "round N"
    weight: float = 1.0


@dataclass(frozen=True)
class Refinement:
    """The displacement field (where each point of the sheet shows on the flattened image, less where it is
    printed), and what it leaves in doubt."""

    field: np.ndarray  # LATTICE_SHAPE + (2,), mm
    probes: tuple[Probe, ...]
    residuals: tuple[float, ...]  # each probe's distance from the fitted field (mm; nan when not found)
    doubtful_specials: frozenset[str] = frozenset()
    doubtful_rounds: frozenset[int] = frozenset()
    doubtful_cells: frozenset[tuple[int, int]] = frozenset()
    flat: bool = True  # the homography alone places what is read well enough (no warp through the field is needed)

    @property
    def in_doubt(self) -> bool:
        return bool(self.doubtful_specials or self.doubtful_rounds or self.doubtful_cells)

    def at(self, points_mm: np.ndarray) -> np.ndarray:
        return _field_at(self.field, np.asarray(points_mm, np.float64).reshape(-1, 2))


def refine(sheet: np.ndarray, marker_residuals: list[tuple[tuple[float, float], tuple[float, float]]],
           t: ReaderTuning = TUNING) -> Refinement:
    """Find the printed marks on `sheet` (BGR, flattened by the homography at PX_PER_MM) and fit the field.

    `marker_residuals`: (corner in sheet mm, where the homography puts the detected corner less that, mm) for
    each corner marker of the sheet seen in the photo."""
    ink = _line_ink(sheet, t)
    sums = _running_sums(ink)
    anchors = [Probe(at, shift, True, "marker", t.refine_marker_weight) for at, shift in marker_residuals]
    field = np.zeros(LATTICE_SHAPE + (2,))
    lines = _line_probes(sums, field, t.refine_wide_search_mm, t)
    field, _ = _fit(anchors + lines, t.refine_first_fit_rounds, t)
    boxes = _box_probes(ink, field, t.refine_wide_search_mm, t)
    field, _ = _fit(anchors + lines + boxes, t.refine_first_fit_rounds, t)
    probes = [*anchors, *_line_probes(sums, field, t.refine_narrow_search_mm, t),
              *_box_probes(ink, field, t.refine_narrow_search_mm, t, rows=True)]
    field, residuals = _fit(probes, t.refine_fit_rounds, t)
    return _judged(Refinement(field, tuple(probes), tuple(residuals)), t)


@cache
def _read_points() -> np.ndarray:
    """Where the reader reads (sheet mm): the grid's crossings, the check squares' centres, the bubbles' centres."""
    grid = layout.GRID_RECT
    points = [(grid.x + i * layout.CELL_MM, grid.y + j * layout.CELL_MM)
              for i in range(layout.GRID_SIZE + 1) for j in range(layout.GRID_SIZE + 1)]
    points += [special.check.center for special in layout.SPECIALS]
    points += [layout.bubble_center(block.number, place, digit)
               for block in layout.ROUNDS for place in layout.PLACES for digit in range(10)]
    array = np.array(points)
    array.setflags(write=False)
    return array


def sheet_maps(refinement: Refinement, homography: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Photo pixel coordinates (x, y maps for cv2.remap) of each pixel of the refined flattened sheet: the point
    the field says shows there, through the homography (sheet mm -> photo pixels)."""
    rows, cols = _pixel_lattice()
    shift = cv2.remap(refinement.field.astype(np.float32), cols, rows, cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_REPLICATE)
    width, height = layout.canonical_size_px(PX_PER_MM)
    x = np.arange(width, dtype=np.float32)[None, :] / PX_PER_MM + shift[..., 0]
    y = np.arange(height, dtype=np.float32)[:, None] / PX_PER_MM + shift[..., 1]
    h = homography.astype(np.float32)
    w = h[2, 0] * x + h[2, 1] * y + h[2, 2]
    return (h[0, 0] * x + h[0, 1] * y + h[0, 2]) / w, (h[1, 0] * x + h[1, 1] * y + h[1, 2]) / w


@cache
def _pixel_lattice() -> tuple[np.ndarray, np.ndarray]:
    """Each sheet pixel's place in lattice units (row, column), for interpolating the field with cv2.remap."""
    width, height = layout.canonical_size_px(PX_PER_MM)
    cols = (np.arange(width, dtype=np.float32) / PX_PER_MM - LATTICE_ORIGIN_MM[0]) / LATTICE_MM
    rows = (np.arange(height, dtype=np.float32) / PX_PER_MM - LATTICE_ORIGIN_MM[1]) / LATTICE_MM
    cols_map, rows_map = np.meshgrid(cols, rows)
    cols_map.setflags(write=False)
    rows_map.setflags(write=False)
    return rows_map, cols_map


def _line_ink(sheet: np.ndarray, t: ReaderTuning) -> np.ndarray:
    """The ink of thin dark things (print, strokes) against the paper right around them: 0 paper, 1 black."""
    gray = cv2.cvtColor(sheet, cv2.COLOR_BGR2GRAY)
    # Filtered as 8 bits: the minima and maxima are the same numbers as the floats'.
    lit = cv2.morphologyEx(gray, cv2.MORPH_OPEN, np.ones((t.halo_px, t.halo_px), np.uint8))
    paper = cv2.morphologyEx(lit, cv2.MORPH_CLOSE, np.ones((t.refine_line_paper_px,) * 2, np.uint8))
    share = np.divide(gray, np.maximum(paper, 1), dtype=np.float32)  # (8-bit values divided as floats)
    return np.subtract(1.0, np.clip(share, 0.0, 1.0, out=share), out=share)


# --- the grid lines ---------------------------------------------------------------------------------------------
@cache
def _segments() -> tuple[np.ndarray, np.ndarray]:
    """The middle of each grid line segment between crossings (sheet mm), vertical lines' first, and which are
    vertical."""
    grid, cell = layout.GRID_RECT, layout.CELL_MM
    lines, cells = range(layout.GRID_SIZE + 1), range(layout.GRID_SIZE)
    vertical = [(grid.x + k * cell, grid.y + (j + 0.5) * cell) for k in lines for j in cells]
    horizontal = [(grid.x + (j + 0.5) * cell, grid.y + k * cell) for k in lines for j in cells]
    at = np.array(vertical + horizontal)
    is_vertical = np.arange(len(at)) < len(vertical)
    at.setflags(write=False)
    is_vertical.setflags(write=False)
    return at, is_vertical


def _running_sums(ink: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Running sums of the ink down the columns and along the rows (each with a leading zero), for the mean ink
    along any segment of a column or a row: a difference of two of them. (Those along the rows are indexed as the
    columns' are, (position along, position across): the transpose of np.cumsum along the rows, which adds each
    row's values one after another as adding the columns one by one would, with no transposed copy made.)"""
    along_rows = np.zeros((ink.shape[0], ink.shape[1] + 1), np.float32)
    np.cumsum(ink, axis=1, out=along_rows[:, 1:])
    return _running(ink), along_rows.T


def _running(rows: np.ndarray) -> np.ndarray:
    """np.cumsum(rows, axis=0) after a row of zeros, added row by row (the same sums in the same order, faster
    than numpy's accumulation down the columns)."""
    sums = np.zeros((rows.shape[0] + 1, rows.shape[1]), np.float32)
    for i, row in enumerate(rows):
        np.add(sums[i], row, out=sums[i + 1])
    return sums


def _line_probes(sums: tuple[np.ndarray, np.ndarray], field: np.ndarray, search_mm: float, t: ReaderTuning
                 ) -> list[Probe]:
    """Each grid line, cell by cell: where the vertical lines cross each row and the horizontal lines each column.

    A segment's profile across the line is the mean ink along it (`sums`: `_running_sums`; all segments at once),
    over `search_mm` either side of where the field puts it."""
    at, is_vertical = _segments()
    predicted = at + _field_at(field, at)
    reach = round(search_mm * PX_PER_MM)
    half = round((layout.CELL_MM / 2 - t.refine_segment_gap_mm) * PX_PER_MM)
    offsets = np.arange(-reach, reach + 1)
    profiles = np.zeros((len(at), offsets.size), np.float32)
    inside = np.zeros(len(at), bool)
    for vertical, running in zip((True, False), sums, strict=True):
        rows = np.flatnonzero(is_vertical == vertical)
        length, span = running.shape[0] - 1, running.shape[1]
        across = np.rint(predicted[rows, 0 if vertical else 1] * PX_PER_MM).astype(int)
        along = np.rint(predicted[rows, 1 if vertical else 0] * PX_PER_MM).astype(int)
        inside[rows] = (across - reach >= 0) & (across + reach < span) & (along - half >= 0) & (along + half <= length)
        columns = np.clip(across[:, None] + offsets[None, :], 0, span - 1)
        top, bottom = np.clip(along - half, 0, length), np.clip(along + half, 0, length)
        profiles[rows] = (running[bottom[:, None], columns] - running[top[:, None], columns]) / (2 * half)
    peaks = _profile_peaks(profiles, search_mm < t.refine_wide_search_mm, t)
    found = inside & ~np.isnan(peaks)
    position = np.where(is_vertical, predicted[:, 0], predicted[:, 1])
    measured = (np.rint(position * PX_PER_MM) - reach + peaks) / PX_PER_MM - np.where(is_vertical, at[:, 0], at[:, 1])
    return [Probe((float(x), float(y)), (float(m), np.nan) if v else (np.nan, float(m)), bool(f), "line")
            for (x, y), m, v, f in zip(at, measured, is_vertical, found, strict=True)]


def _profile_peaks(profiles: np.ndarray, nearest: bool, t: ReaderTuning) -> np.ndarray:
    """The place (pixels, subpixel) of the printed line's peak in each profile (row), or nan.

    Looking wide (`nearest` False), the one clear peak: the highest, with no other nearly as high beyond
    `t.refine_line_apart_mm`. Looking close around the fitted field (`nearest`), the peak nearest the middle among
    those at least `t.refine_near_share` as high as the highest: a player's outline drawn beside the printed line,
    darker than it, is then not taken for it."""
    smooth = profiles.copy()
    smooth[:, 1:-1] = 0.25 * profiles[:, :-2] + 0.5 * profiles[:, 1:-1] + 0.25 * profiles[:, 2:]
    base = np.median(smooth, axis=1)[:, None]
    rows = np.arange(len(smooth))
    inner = smooth[:, 1:-1]
    local = (inner >= smooth[:, :-2]) & (inner >= smooth[:, 2:]) & (inner - base >= t.refine_line_min_ink)
    highest = np.where(local, inner, -np.inf).max(axis=1, keepdims=True)
    if nearest:
        candidates = local & (inner - base >= t.refine_near_share * (highest - base))
        distance = np.abs(np.arange(1, smooth.shape[1] - 1) - (smooth.shape[1] - 1) / 2)[None, :]
        top = np.argmin(np.where(candidates, distance, np.inf), axis=1) + 1
        clear = candidates.any(axis=1)
    else:
        top = np.argmax(np.where(local, inner, -np.inf), axis=1) + 1
        apart = round(t.refine_line_apart_mm * PX_PER_MM)
        away = np.abs(np.arange(smooth.shape[1])[None, :] - top[:, None]) > apart
        second = np.where(away, smooth, -np.inf).max(axis=1) - base[:, 0]
        clear = local.any(axis=1) & (second <= t.refine_line_distinct * (smooth[rows, top] - base[:, 0]))
    left, centre, right = smooth[rows, top - 1], smooth[rows, top], smooth[rows, top + 1]
    curve = left - 2 * centre + right
    vertex = np.where(curve < 0, np.clip(0.5 * (left - right) / np.where(curve < 0, curve, -1.0), -0.5, 0.5), 0.0)
    return np.where(clear, top + vertex, np.nan)


def _vertex(left: float, centre: float, right: float) -> float:
    """The offset (-0.5..0.5) of the top of the parabola through three equally spaced values."""
    curve = left - 2 * centre + right
    return 0.0 if curve >= 0 else float(np.clip(0.5 * (left - right) / curve, -0.5, 0.5))


# --- the check squares and the round blocks ---------------------------------------------------------------------
def _box_probes(ink: np.ndarray, field: np.ndarray, search_mm: float, t: ReaderTuning, rows: bool = False
                ) -> list[Probe]:
    """The check squares of the special boxes and the round blocks (whole, or row by row in halves: `rows`)."""
    blur, weight = t.refine_template_blur_px, t.refine_box_weight
    probes = [_match(ink, *_check_template(special.name, blur), field, search_mm, f"check {special.name}", weight, t)
              for special in layout.SPECIALS]
    for block in layout.ROUNDS:
        if not rows:
            probes.append(_match(ink, *_block_template(block.number, blur), field, search_mm,
                                 f"round {block.number}", weight, t))
            continue
        for place in layout.PLACES:
            for first in (0, 5):
                probes.append(_match(ink, *_bubbles_template(block.number, place, first, blur), field, search_mm,
                                     f"round {block.number}", 1.0, t))
    return probes


def _match(ink: np.ndarray, template: np.ndarray, corner: tuple[float, float], field: np.ndarray, search_mm: float,
           item: str, weight: float, t: ReaderTuning) -> Probe:
    """Where `template` (whose top-left pixel is printed at `corner`, sheet mm) best matches the sheet's ink,
    within `search_mm` of where the field puts it."""
    th, tw = template.shape
    at = (corner[0] + tw / 2 / PX_PER_MM, corner[1] + th / 2 / PX_PER_MM)
    predicted = _field_at(field, np.array([at]))[0]
    reach = round(search_mm * PX_PER_MM)
    x0 = round((corner[0] + predicted[0]) * PX_PER_MM) - reach
    y0 = round((corner[1] + predicted[1]) * PX_PER_MM) - reach
    window = _window(ink, x0, y0, tw + 2 * reach, th + 2 * reach)
    scores = cv2.matchTemplate(window, template, cv2.TM_CCOEFF_NORMED)
    _, best, _, (i, j) = cv2.minMaxLoc(scores)
    if best < t.refine_match_min:
        return Probe(at, (np.nan, np.nan), False, item, weight)
    sub_x = _vertex(*scores[j, i - 1 : i + 2]) if 0 < i < scores.shape[1] - 1 else 0.0
    sub_y = _vertex(*scores[j - 1 : j + 2, i]) if 0 < j < scores.shape[0] - 1 else 0.0
    shift = ((x0 + i + sub_x) / PX_PER_MM - corner[0], (y0 + j + sub_y) / PX_PER_MM - corner[1])
    return Probe(at, shift, True, item, weight)


def _window(ink: np.ndarray, x0: int, y0: int, width: int, height: int) -> np.ndarray:
    """ink[y0 : y0 + height, x0 : x0 + width], as bare paper (0) where that passes the sheet's edge (the last
    special box's check square is 2.5 mm from it)."""
    h, w = ink.shape
    inner = ink[max(y0, 0) : max(min(y0 + height, h), 0), max(x0, 0) : max(min(x0 + width, w), 0)]
    top, left = max(-y0, 0), max(-x0, 0)
    bottom, right = height - top - inner.shape[0], width - left - inner.shape[1]
    if not (top or left or bottom or right):
        return inner
    if inner.size == 0:
        return np.zeros((height, width), ink.dtype)
    return cv2.copyMakeBorder(inner, top, bottom, left, right, cv2.BORDER_CONSTANT, value=0)


TEMPLATE_MARGIN_MM = 1.5
SUPERSAMPLE = 4


def _drawing(rect: layout.Rect) -> tuple[np.ndarray, float, float]:
    """A blank canvas covering `rect` (plus a margin) at SUPERSAMPLE times the sheet resolution."""
    x0, y0 = rect.x - TEMPLATE_MARGIN_MM, rect.y - TEMPLATE_MARGIN_MM
    w = round((rect.w + 2 * TEMPLATE_MARGIN_MM) * PX_PER_MM) * SUPERSAMPLE
    h = round((rect.h + 2 * TEMPLATE_MARGIN_MM) * PX_PER_MM) * SUPERSAMPLE
    return np.zeros((h, w), np.float32), x0, y0


def _finished(canvas: np.ndarray, blur: float) -> np.ndarray:
    """The template at the sheet's resolution, blurred `blur` pixels as the photo is."""
    small = cv2.resize(canvas, (canvas.shape[1] // SUPERSAMPLE, canvas.shape[0] // SUPERSAMPLE),
                       interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), blur)
    small.setflags(write=False)
    return small


def _px(value_mm: float, origin_mm: float) -> int:
    """A supersampled pixel: pixel u of the canvas lies at (u - (SUPERSAMPLE - 1) / 2) / SUPERSAMPLE once reduced."""
    return round((value_mm - origin_mm) * PX_PER_MM * SUPERSAMPLE + (SUPERSAMPLE - 1) / 2)


def _outline(canvas: np.ndarray, rect: layout.Rect, x0: float, y0: float, width_mm: float, ink: float) -> None:
    cv2.rectangle(canvas, (_px(rect.x, x0), _px(rect.y, y0)), (_px(rect.x2, x0), _px(rect.y2, y0)), ink,
                  max(1, round(width_mm * PX_PER_MM * SUPERSAMPLE)))


def _ring(canvas: np.ndarray, centre: tuple[float, float], x0: float, y0: float, ink: float) -> None:
    cv2.circle(canvas, (_px(centre[0], x0), _px(centre[1], y0)), round(layout.BUBBLE_RADIUS_MM * PX_PER_MM *
               SUPERSAMPLE), ink, max(1, round(0.25 * PX_PER_MM * SUPERSAMPLE)))


@cache
def _check_template(name: str, blur: float) -> tuple[np.ndarray, tuple[float, float]]:
    check = layout.special_box(name).check
    canvas, x0, y0 = _drawing(check)
    _outline(canvas, check, x0, y0, 0.4, 1.0)
    return _finished(canvas, blur), (x0, y0)


RING_INK = 0.5  # the rings are printed grey (pdf.MUTED), the box a score is written in black


@cache
def _block_template(number: int, blur: float) -> tuple[np.ndarray, tuple[float, float]]:
    block = layout.ROUNDS[number - 1]
    last = layout.bubble_rect(number, "units", 9)
    whole = layout.Rect(block.write.x, block.write.y, last.x2 - block.write.x, block.write.h)
    canvas, x0, y0 = _drawing(whole)
    _outline(canvas, block.write, x0, y0, 0.4, 1.0)
    for place in layout.PLACES:
        for digit in range(10):
            _ring(canvas, layout.bubble_center(number, place, digit), x0, y0, RING_INK)
    return _finished(canvas, blur), (x0, y0)


@cache
def _bubbles_template(number: int, place: str, first: int, blur: float) -> tuple[np.ndarray, tuple[float, float]]:
    one, five = layout.bubble_rect(number, place, first), layout.bubble_rect(number, place, first + 4)
    canvas, x0, y0 = _drawing(layout.Rect(one.x, one.y, five.x2 - one.x, one.h))
    for digit in range(first, first + 5):
        _ring(canvas, layout.bubble_center(number, place, digit), x0, y0, 1.0)
    return _finished(canvas, blur), (x0, y0)


# --- the field --------------------------------------------------------------------------------------------------
def _weights(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The 4 lattice nodes (flat indices) around each point and their bilinear weights."""
    rows, cols = LATTICE_SHAPE
    u = np.clip((points[:, 0] - LATTICE_ORIGIN_MM[0]) / LATTICE_MM, 0, cols - 1.001)
    v = np.clip((points[:, 1] - LATTICE_ORIGIN_MM[1]) / LATTICE_MM, 0, rows - 1.001)
    i, j = np.floor(u).astype(int), np.floor(v).astype(int)
    fu, fv = u - i, v - j
    nodes = np.stack([j * cols + i, j * cols + i + 1, (j + 1) * cols + i, (j + 1) * cols + i + 1], axis=1)
    weights = np.stack([(1 - fu) * (1 - fv), fu * (1 - fv), (1 - fu) * fv, fu * fv], axis=1)
    return nodes, weights


def _field_at(field: np.ndarray, points: np.ndarray) -> np.ndarray:
    nodes, weights = _weights(points)
    flat = field.reshape(-1, 2)
    return (flat[nodes] * weights[..., None]).sum(axis=1)


@cache
def _bending() -> np.ndarray:
    """The sum of squared second differences of the lattice (along rows, along columns and across), as a
    quadratic form over the node values."""
    rows, cols = LATTICE_SHAPE
    index = np.arange(rows * cols).reshape(rows, cols)
    terms = []
    for a, b, c in ((index[:, :-2], index[:, 1:-1], index[:, 2:]), (index[:-2], index[1:-1], index[2:])):
        for p, q, r in zip(a.ravel(), b.ravel(), c.ravel(), strict=True):
            terms.append({p: 1.0, q: -2.0, r: 1.0})
    for p, q, r, s in zip(index[:-1, :-1].ravel(), index[:-1, 1:].ravel(), index[1:, :-1].ravel(),
                          index[1:, 1:].ravel(), strict=True):
        terms.append({p: 1.0, q: -1.0, r: -1.0, s: 1.0})
    matrix = np.zeros((len(terms), rows * cols))
    for row, term in enumerate(terms):
        for node, value in term.items():
            matrix[row, node] = value
    form = matrix.T @ matrix
    form.setflags(write=False)
    return form


def _fit(probes: list[Probe], rounds: int, t: ReaderTuning) -> tuple[np.ndarray, list[float]]:
    """The field through the probes found (each axis on its own, robustly: `rounds` reweightings), and each
    probe's distance from it."""
    size = LATTICE_SHAPE[0] * LATTICE_SHAPE[1]
    field = np.zeros((size, 2))
    found = [p for p in probes if p.found]
    if found:
        nodes, weights = _weights(np.array([p.at for p in found]))
        shifts = np.array([p.shift for p in found])
        base = np.array([p.weight for p in found])
        for axis in (0, 1):
            measured = ~np.isnan(shifts[:, axis])
            if not measured.any():
                continue
            n, a, b, w = nodes[measured], weights[measured], shifts[measured, axis], base[measured]
            scale = w.copy()
            for _ in range(rounds):  # (one BLAS thread: `scan.read_photo`)
                values = _solve(n, a, b, scale, t.refine_bending)
                scale = w / (1.0 + (((values[n] * a).sum(axis=1) - b) / t.refine_robust_mm) ** 2)
            field[:, axis] = values
    field = field.reshape(LATTICE_SHAPE + (2,))
    off = np.array([p.shift for p in probes]) - _field_at(field, np.array([p.at for p in probes]))
    residuals = np.sqrt(np.nansum(off**2, axis=1))
    return field, [float(r) if p.found else float("nan") for r, p in zip(residuals, probes, strict=True)]


@cache
def _regularised(bending: float) -> np.ndarray:
    """The normal equations' part that no probe changes: the bending (weighed by `bending`) and a little on the
    diagonal. Read only: cached, shared by every read."""
    normal = bending * _bending() + 1e-6 * np.eye(LATTICE_SHAPE[0] * LATTICE_SHAPE[1])
    normal.setflags(write=False)
    return normal


def _solve(nodes: np.ndarray, weights: np.ndarray, values: np.ndarray, scale: np.ndarray, bending: float
           ) -> np.ndarray:
    """The node values minimising the weighted squared misfit to `values` (each a bilinear mix of 4 nodes) plus
    the bending (weighed by `bending`). The normal equations are summed pair by pair (4 nodes per probe) and solved
    by OpenCV's Cholesky (OpenBLAS's, for a lattice this size: called with one thread, see `_fit`); a dense product
    or numpy's solver would start OpenBLAS threads, which cost far more than this on a busy machine."""
    size = LATTICE_SHAPE[0] * LATTICE_SHAPE[1]
    normal = _regularised(bending).copy()
    # Each pair of a probe's nodes (p, q) adds scale * w_p * w_q at (node p, node q): all pairs in one call, pair
    # by pair and probe by probe as a loop over the pairs would add them (the same sums in the same order).
    pairs = (scale[:, None, None] * weights[:, :, None]) * weights[:, None, :]  # probe, p, q
    at = nodes[:, :, None] * size + nodes[:, None, :]
    np.add.at(normal.reshape(-1), at.transpose(1, 2, 0).ravel(), pairs.transpose(1, 2, 0).ravel())
    right = np.bincount(nodes.ravel(), (weights * (scale * values)[:, None]).ravel(), minlength=size)
    _, solution = cv2.solve(normal, right.reshape(-1, 1), flags=cv2.DECOMP_CHOLESKY)
    return solution.ravel()


# --- what the field leaves in doubt -----------------------------------------------------------------------------
def _judged(refinement: Refinement, t: ReaderTuning) -> Refinement:
    """The items whose place the field does not explain: a box or a bubble row found far from it, or not found
    where the sheet moves (the field moves it, or moves what was found near it: then nothing says how far)."""
    specials, rounds = set(), set()
    boxes = [(probe, residual) for probe, residual in zip(refinement.probes, refinement.residuals, strict=True)
             if probe.item.startswith(("check ", "round "))]
    moving = np.array([probe.at for probe, _ in boxes
                       if probe.found and np.hypot(*probe.shift) > t.refine_shift_ok_mm]).reshape(-1, 2)
    for probe, residual in boxes:
        if probe.found:
            tolerance = t.refine_box_tolerance_mm if probe.item.startswith("check") else t.refine_row_tolerance_mm
            unexplained = residual > tolerance
        else:
            apart = np.hypot(*(moving - np.array(probe.at)).T)  # from each box or row found moved
            moved = float(np.hypot(*refinement.at(np.array([probe.at]))[0]))
            unexplained = moved > t.refine_shift_ok_mm or bool((apart < t.refine_neighbour_mm).any())
        if unexplained:
            name = probe.item.split(" ", 1)[1]
            if probe.item.startswith("check"):
                specials.add(name)
            else:
                rounds.add(int(name))
    # A cell is in doubt when three of its sides were found off the field, or not found where the field moves the
    # cell far: one or two sides off are strokes beside the lines taken for them (hatching parallel to a line, an
    # outline drawn inside a cell: photogen harsh seed 14), which the fit outweighs.
    bad: dict[tuple[int, int], int] = {}
    grid = layout.GRID_RECT
    for probe, residual in zip(refinement.probes, refinement.residuals, strict=True):
        if probe.item != "line" or (probe.found and residual <= t.refine_cell_tolerance_mm):
            continue
        col, row = (probe.at[0] - grid.x) / layout.CELL_MM, (probe.at[1] - grid.y) / layout.CELL_MM
        for cell in ((int(np.floor(row - 0.01)), int(np.floor(col - 0.01))), (int(row), int(col))):  # either side
            if not (0 <= cell[0] < layout.GRID_SIZE and 0 <= cell[1] < layout.GRID_SIZE):
                continue
            centre = (grid.x + (cell[1] + 0.5) * layout.CELL_MM, grid.y + (cell[0] + 0.5) * layout.CELL_MM)
            if probe.found or float(np.hypot(*refinement.at(np.array([centre]))[0])) > t.refine_cell_tolerance_mm:
                bad[cell] = bad.get(cell, 0) + 1
    cells = {cell for cell, count in bad.items() if count >= t.refine_cell_bad_sides}
    return Refinement(refinement.field, refinement.probes, refinement.residuals, frozenset(specials),
                      frozenset(rounds), frozenset(cells), _is_flat(refinement, t))


def _is_flat(refinement: Refinement, t: ReaderTuning) -> bool:
    """Whether the field moves what is read so little that the homography alone places it well enough."""
    shift = np.hypot(*refinement.at(_read_points()).T)
    grid = layout.GRID_SIZE + 1
    return (float(shift[: grid * grid].max()) < t.refine_flat_grid_mm
            and float(shift[grid * grid :].max()) < t.refine_flat_marks_mm)


# --- for the reader ---------------------------------------------------------------------------------------------
def marker_residuals(found: list[Detection], fit: MarkerFit, t: ReaderTuning = TUNING
                     ) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Each corner of the sheet's markers seen in the photo: (where it is printed, where the homography puts
    what was seen less that), in sheet mm. Markers of another sheet (the same ids) lie far off and are left out."""
    inverse = np.linalg.inv(fit.homography)
    residuals = []
    for marker_id, quad in found:
        place = layout.locate_marker(marker_id)
        if place is None or place.marks != fit.marks or place.slot != fit.slot:
            continue
        printed = np.array(layout.marker_corners_mm(marker_id))
        seen = cv2.perspectiveTransform(quad.reshape(1, -1, 2).astype(np.float64), inverse)[0]
        if np.abs(seen - printed).max() > t.refine_marker_reach_mm:
            continue
        residuals += [((float(p[0]), float(p[1])), (float(s[0] - p[0]), float(s[1] - p[1])))
                      for p, s in zip(printed, seen, strict=True)]
    return residuals


UNFLAT_NOTE = (
    "the sheet is not flat (curled, bowed or folded): where the printed lines could not be found where the bend "
    "puts them, the boxes, bubbles or cells there are in doubt; flatten the sheet and take the photo again"
)


def unflat_doubts(refinement: Refinement, quilt: Quilt, specials_used: tuple[str, ...] | None,
                  round_scores: tuple[int | None, ...], t: ReaderTuning = TUNING) -> tuple[Uncertain, ...]:
    """The doubts a sheet that is not flat leaves: the items (as read) whose place the field does not explain."""
    doubts = [Uncertain.of_cell(cell, quilt.is_covered(*cell), t.unflat_confidence)
              for cell in sorted(refinement.doubtful_cells)]
    if specials_used is not None:
        doubts += [Uncertain.of_special(name, name in specials_used, t.unflat_confidence)
                   for name in layout.SPECIAL_NAMES if name in refinement.doubtful_specials]
    doubts += [Uncertain.of_round(number, round_scores[number - 1] is not None,
                                  f"round {number}: its bubbles could not be placed on the bent sheet; check the score")
               for number in sorted(refinement.doubtful_rounds)]
    return tuple(doubts)
