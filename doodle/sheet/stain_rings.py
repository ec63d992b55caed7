"""A mug's ring on the sheet: tea or coffee dries into a brown circle (whole, or the arc of one) with a fainter tint
inside. Its shape is what tells it from a player's fill, which keeps to the grid: a warm ridge along a circle.

Candidates are circles in the sheet's warmth (red over blue, which graphite does not have) found with
`cv2.HoughCircles`; each is kept when, unrolled about its middle (`cv2.warpPolar`), a ridge of warmth runs along
its radius for much of the way round and that ridge is a stain's brown, not a pencil's purer red, orange or yellow.
"""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

from doodle.sheet import layout
from doodle.sheet.measure import Colours
from doodle.sheet.strokes import pigment_of, stain_pigment
from doodle.sheet.tuning import ReaderTuning


class StainRing(NamedTuple):
    x: float  # the middle, sheet mm
    y: float
    radius: float  # mm, to the middle of the rim
    round_share: float  # the share of directions round the middle in which the rim shows

    def off(self, x_mm: np.ndarray | float, y_mm: np.ndarray | float) -> np.ndarray:
        """How far points (sheet mm) lie outside the ring's circle, in mm: under 0 inside it."""
        return np.hypot(np.asarray(x_mm) - self.x, np.asarray(y_mm) - self.y) - self.radius


def stain_rings(normalised: Colours, px_per_mm: float, t: ReaderTuning) -> list[StainRing]:
    """The rings of tea or coffee over the grid and the sheet around it (`normalised`: BGR over the paper)."""
    grid = layout.GRID_RECT
    reach = t.stain_ring_radius_mm[1]
    height, width = normalised.shape[:2]
    x0, y0 = max(int((grid.x - reach) * px_per_mm), 0), max(int((grid.y - reach) * px_per_mm), 0)
    x1, y1 = min(int((grid.x2 + reach) * px_per_mm), width), min(int((grid.y2 + reach) * px_per_mm), height)
    # Where the light estimate has no value (the sheet beyond the photo), paper.
    region = np.nan_to_num(normalised[y0:y1, x0:x1].astype(np.float32), nan=1.0, posinf=1.0, neginf=1.0)
    scale = t.stain_ring_px_per_mm / px_per_mm
    small = cv2.resize(region, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    warmth = np.clip(small[..., 2] - small[..., 0], 0.0, 1.0)
    picture = np.clip(warmth * (255.0 / t.stain_ring_warmth_full), 0, 255).astype(np.uint8)
    picture = cv2.GaussianBlur(picture, (0, 0), t.stain_ring_blur_mm * t.stain_ring_px_per_mm)
    low, high = (round(r * t.stain_ring_px_per_mm) for r in t.stain_ring_radius_mm)
    apart = t.stain_ring_apart_mm * t.stain_ring_px_per_mm
    # Two ways of voting for circles, each finding rings the other misses (the gradient's sum, and its direction's
    # agreement along the circle).
    found = [cv2.HoughCircles(picture, cv2.HOUGH_GRADIENT, 1.0, apart, param1=t.stain_ring_edge,
                              param2=t.stain_ring_votes, minRadius=low, maxRadius=high),
             cv2.HoughCircles(picture, cv2.HOUGH_GRADIENT_ALT, 1.5, apart, param1=t.stain_ring_edge,
                              param2=t.stain_ring_roundness, minRadius=low, maxRadius=high)]
    candidates = []
    for cx, cy, radius in (circle for circles in found if circles is not None for circle in circles[0]):
        share = _rim_share(small, warmth, (float(cx), float(cy)), float(radius), t)
        if share >= t.stain_ring_share:
            candidates.append(StainRing((x0 + cx / scale) / px_per_mm, (y0 + cy / scale) / px_per_mm,
                                        float(radius) / t.stain_ring_px_per_mm, share))
    # A ring is found again as circles a little off it, each following its rim part of the way round: the one that
    # follows it furthest stands for it.
    rings: list[StainRing] = []
    for ring in sorted(candidates, key=lambda ring: -ring.round_share):
        if not any(np.hypot(ring.x - kept.x, ring.y - kept.y) < t.stain_ring_same * max(ring.radius, kept.radius)
                   for kept in rings):
            rings.append(ring)
    return rings


def _rim_share(small: np.ndarray, warmth: np.ndarray, centre: tuple[float, float], radius: float,
               t: ReaderTuning) -> float:
    """The share of directions round `centre` in which a ridge of warmth runs at `radius` (pixels of `small`),
    warmer than the sheet on both sides of it, a little way off; 0 when that ridge's colour is not a stain's.
    Stripes of a warm pencil's hatching lie on both sides as well: no ridge."""
    ppm = t.stain_ring_px_per_mm
    half, gap, side = t.stain_ring_rim_mm * ppm, t.stain_ring_gap_mm * ppm, t.stain_ring_side_mm * ppm
    outer = radius + gap + side
    radii, directions = max(round(outer), 8), t.stain_ring_directions
    # Beyond the picture's edge, nothing (without WARP_FILL_OUTLIERS those pixels are left as they were made).
    unrolling = cv2.WARP_POLAR_LINEAR + cv2.INTER_LINEAR + cv2.WARP_FILL_OUTLIERS
    polar = cv2.warpPolar(warmth, (radii, directions), centre, outer, unrolling)
    at = np.arange(radii) * outer / radii
    rim = np.abs(at - radius) <= half
    beside = (np.abs(at - radius) >= gap) & (np.abs(at - radius) <= gap + side)
    if not (rim.any() and beside.any()):
        return 0.0
    ridge = polar[:, rim].max(axis=1) - np.percentile(polar[:, beside], t.stain_ring_beside_percentile, axis=1)
    shows = ridge >= t.stain_ring_ridge
    if not shows.any():
        return 0.0
    # The rim's own colour where it shows, at its warmest point in each direction (a pencil's strokes it crosses
    # are not the rim): a stain's chroma over its ink, red over green over blue.
    colours = cv2.warpPolar(small, (radii, directions), centre, outer, unrolling)
    band = colours[:, rim][shows]  # direction, radius, colour
    warmest = band[np.arange(len(band)), polar[:, rim][shows].argmax(axis=1)]  # direction, colour
    if not stain_pigment(pigment_of(np.median(warmest, axis=0)), t):
        return 0.0
    return float(shows.mean())


def cells_under(rings: list[StainRing], cell_boxes_mm: list[layout.Rect], t: ReaderTuning) -> set[int]:
    """The cells (by index in `cell_boxes_mm`) that a ring's rim or its inside reaches."""
    under = set()
    for ring in rings:
        reach = ring.radius + t.stain_ring_rim_mm
        for index, box in enumerate(cell_boxes_mm):
            nearest_x = min(max(ring.x, box.x), box.x2)
            nearest_y = min(max(ring.y, box.y), box.y2)
            if np.hypot(nearest_x - ring.x, nearest_y - ring.y) <= reach:
                under.add(index)
    return under


def share_on_rims(rings: list[StainRing], where: np.ndarray, box: tuple[int, int, int, int], px_per_mm: float,
                  t: ReaderTuning) -> float:
    """The share of the pixels `where` (a mask over `box`, sheet-image pixels) within t.stain_ring_on_rim_mm of a
    ring's rim (its circle): 0 when there are none."""
    ys, xs = np.nonzero(where)
    if not len(xs):
        return 0.0
    x_mm, y_mm = (box[0] + xs + 0.5) / px_per_mm, (box[1] + ys + 0.5) / px_per_mm
    on = np.zeros(len(xs), bool)
    for ring in rings:
        on |= np.abs(ring.off(x_mm, y_mm)) <= t.stain_ring_on_rim_mm
    return float(on.mean())


def tint_across_circle(rings: list[StainRing], ink: np.ndarray, off_strokes: np.ndarray, box: tuple[int, int, int, int],
                       px_per_mm: float, t: ReaderTuning) -> tuple[float, float] | None:
    """A cell's tint on either side of a ring's circle that crosses it: the medians of `ink` (the sheet image's)
    over `off_strokes` (a mask over `box`) more than t.stain_ring_on_rim_mm inside the circle and outside it, for
    the ring that leaves the most of the cell on its lesser side, when that is at least t.stain_ring_cut_share of
    it; None when no circle so crosses the cell. A stain's tint stops where the ring does; a fill keeps to the
    grid, across the ring."""
    x0, y0, x1, y1 = box
    ys, xs = np.mgrid[y0:y1, x0:x1]
    x_mm, y_mm = (xs + 0.5) / px_per_mm, (ys + 0.5) / px_per_mm
    cell = ink[y0:y1, x0:x1]
    best, split = t.stain_ring_cut_share, None
    for ring in rings:
        off = ring.off(x_mm, y_mm)
        inside, outside = (off < -t.stain_ring_on_rim_mm) & off_strokes, (off > t.stain_ring_on_rim_mm) & off_strokes
        lesser = min(inside.mean(), outside.mean())
        if lesser >= best:
            best, split = lesser, (float(np.median(cell[inside])), float(np.median(cell[outside])))
    return split
