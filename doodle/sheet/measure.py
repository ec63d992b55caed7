"""Measuring pencil on a flattened sheet: flat-field correction, ink against the light right around a mark
(`local_ink`), ink per region, the largest-gap threshold.

Ink is measured as `1 - min(B, G, R)` after each channel is divided by the paper's own brightness there. Paper
is 0 whatever the light; graphite darkens all three channels; a coloured pencil darkens at least its
complementary channel (pale yellow takes away blue), so colour saturation and darkness are one number.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property

import cv2
import numpy as np

from doodle.sheet.tuning import TUNING, ReaderTuning


class Planes:
    """A colour picture kept as its channels' planes, read a region at a time: `planes[y0:y1, x0:x1]` is the
    region's pixels with the channels last (the same numbers as the region of the whole picture interleaved, which
    is never made: only small regions of it are read)."""

    def __init__(self, planes: list[np.ndarray]) -> None:
        self._planes = planes

    @property
    def shape(self) -> tuple[int, ...]:
        return (*self._planes[0].shape, len(self._planes))

    def __getitem__(self, region: tuple[slice, slice]) -> np.ndarray:
        return np.stack([plane[region] for plane in self._planes], axis=-1)


Colours = np.ndarray | Planes
"""A colour picture (channels last) or its planes, either read a region at a time (`picture[y0:y1, x0:x1]`)."""


class FlatField:
    """The sheet over the paper's light (`flat_field`). The paper's level is found when first asked for: most
    estimates of the light are passes that read only the ink and the brightness."""

    def __init__(self, bgr: np.ndarray, trusted: np.ndarray, coarse: CoarsePaper,
                 channels: list[np.ndarray] | None = None) -> None:
        height, width = bgr.shape[:2]
        self.coarse = coarse
        self.channels = cv2.split(bgr) if channels is None else channels  # the sheet's own, for another field of it
        self._trusted = trusted.copy()  # the caller may change its own after (light_and_cells grows it)
        # Channel by channel (cv2.resize and cv2.divide give the same values one channel at a time) and in place
        # where the values allow: full-size pictures are few, and each new one costs more than the arithmetic.
        pb, pg, pr = (cv2.resize(channel, (width, height), interpolation=cv2.INTER_LINEAR)
                      for channel in cv2.split(coarse.estimate))
        brightest = cv2.max(pb, pg)
        self.paper: np.ndarray = cv2.max(brightest, pr, dst=brightest)  # float32: the estimate's brightest channel
        # Each channel over its paper, into the paper's own picture (8-bit values divided as floats).
        self._normalised = [cv2.divide(channel, np.maximum(paper, 1.0, out=paper), dst=paper, dtype=cv2.CV_32F)
                            for channel, paper in zip(self.channels, (pb, pg, pr), strict=True)]
        b, g, r = self._normalised
        darkest = cv2.min(b, g)
        cv2.min(darkest, r, dst=darkest)
        np.clip(darkest, 0.0, 1.0, out=darkest)
        self.ink: np.ndarray = np.subtract(1.0, darkest, out=darkest)  # float32, 0 paper .. 1 black
        brightest = cv2.max(b, g)
        self.brightness: np.ndarray = cv2.max(brightest, r, dst=brightest)  # the brightest channel: about 1 on paper

    @cached_property
    def normalised(self) -> Planes:
        """float32 BGR over the paper estimate (1 = paper), read a region at a time."""
        return Planes(self._normalised)

    @cached_property
    def paper_level(self) -> float:
        """The median paper brightness (0-255) before correction: how much light there was."""
        trusted = self._trusted
        return float(np.median(self.paper[trusted])) if trusted.any() else float(np.median(self.paper))


@dataclass(frozen=True, eq=False)
class CoarsePaper:
    """The paper's light at 1/t.light_coarse of the sheet's resolution (`coarse_estimate`)."""

    values: np.ndarray  # float32 BGR: the sheet with thin dark strokes taken out (`coarse_sheet`)
    weight: np.ndarray  # float32, 1 where the coarse pixel is trusted paper
    trend: np.ndarray | None  # the light's broad shape the estimate follows (`light_trend`), None without one
    estimate: np.ndarray  # float32 BGR: the paper's light at every coarse pixel (`blend_scales`)
    # `weight` blurred at each scale (`weight_blurs`), as the estimate was blended with it; None when the estimate
    # was blended over the whole sheet (too little paper)
    weight_blurs: tuple[np.ndarray, ...] | None = None


def coarse_estimate(bgr: np.ndarray, trusted: np.ndarray, t: ReaderTuning = TUNING,
                    coarse: np.ndarray | None = None, same_paper: CoarsePaper | None = None) -> CoarsePaper:
    """The paper's light (per channel, at the coarse resolution) interpolated from the `trusted` paper pixels.

    Thin dark strokes (printed text, lines, hatching) are removed by a small max filter first; where a large area
    has no trusted paper (a fully shaded grid), the estimate comes from broader and broader neighbourhoods, so a
    hard shadow edge stays sharp where paper shows and a big shaded patch is never mistaken for paper. `coarse`:
    `coarse_sheet(bgr)`, when made already (the light estimated again with more paper). `same_paper`: an estimate
    made from the same `trusted` mask (of another picture of the sheet), whose weight and its blurs serve again.
    """
    values = coarse_sheet(bgr, t) if coarse is None else coarse
    weight = coarse_weight(trusted, t) if same_paper is None else same_paper.weight
    enough = weight.sum() >= t.light_min_paper
    trend = light_trend(values, weight if enough else np.ones_like(weight), t)
    blurs = None
    if enough:
        blurs = same_paper.weight_blurs if same_paper is not None else None
        blurs = weight_blurs(weight, t) if blurs is None else blurs
    return CoarsePaper(values, weight, trend, blend_scales(values, weight, trend, t, blurs), blurs)


def coarse_sheet(bgr: np.ndarray, t: ReaderTuning = TUNING, opened: np.ndarray | None = None) -> np.ndarray:
    """The sheet at 1/t.light_coarse of its resolution with thin dark strokes taken out (float32 BGR). `opened`:
    `without_thin_print(bgr)`, when made already."""
    height, width = bgr.shape[:2]
    opened = without_thin_print(bgr, t) if opened is None else opened
    return cv2.resize(opened, _coarse_size(width, height, t), interpolation=cv2.INTER_AREA).astype(np.float32)


def without_thin_print(bgr: np.ndarray, t: ReaderTuning = TUNING) -> np.ndarray:
    """The sheet with thin dark things (printed text and lines, pencil strokes) taken out by a small max filter."""
    return cv2.dilate(bgr, cv2.getStructuringElement(cv2.MORPH_RECT, (t.thin_print_px,) * 2))


def coarse_weight(trusted: np.ndarray, t: ReaderTuning = TUNING) -> np.ndarray:
    """The weight of each coarse pixel as paper: 1 where most of it is `trusted` paper, else 0 (float32)."""
    # (The max filter of `coarse_sheet` has already widened the paper over thin printed lines; thin strips of paper
    # between printed things still count.)
    height, width = trusted.shape
    return (cv2.resize(trusted.astype(np.float32), _coarse_size(width, height, t), interpolation=cv2.INTER_AREA)
            > t.light_paper_share).astype(np.float32)


def _coarse_size(width: int, height: int, t: ReaderTuning) -> tuple[int, int]:
    return max(1, width // t.light_coarse), max(1, height // t.light_coarse)


def blend_scales(
    values: np.ndarray, weight: np.ndarray, trend: np.ndarray | None = None, t: ReaderTuning = TUNING,
    blurs: tuple[np.ndarray, ...] | None = None,
) -> np.ndarray:
    """The paper's light at every coarse pixel, from the `values` where `weight` is 1 (see `coarse_estimate`).

    The light's broad shape (a low-order surface in log brightness, fitted robustly to the paper: `light_trend`,
    unless `trend` is given) is taken out first and put back after, so that where paper is far the estimate
    follows that shape (vignetting: brighter in the middle of the grid than at its margins) rather than the
    average of the paper around. `blurs`: `weight_blurs(weight)`, when made already (unused with too little paper)."""
    if weight.sum() < t.light_min_paper:
        weight, blurs = np.ones_like(weight), None
    if trend is None:
        trend = light_trend(values, weight, t)
    if trend is not None:
        return np.exp(trend + blend_paper(np.log(np.maximum(values, 1.0)) - trend, weight, t, blurs))
    return blend_paper(values, weight, t, blurs)


def light_trend(values: np.ndarray, weight: np.ndarray, t: ReaderTuning = TUNING) -> np.ndarray | None:
    """A quadratic surface per channel fitted to the log of the paper (refitted without the points far off it), or
    None with too little paper (`t.light_trend_*`)."""
    # Paper clipped in every channel by a glare shows only that the light is at least so bright there: nothing of
    # its shape (a glare over a margin bent the shape up across the grid: light 14 read 37 empty cells as shaded).
    paper = weight > 0
    darkest = values[..., 0]
    for channel in range(1, values.shape[-1]):
        darkest = np.minimum(darkest, values[..., channel])
    clipped = paper & (darkest >= t.glare_clip)
    if np.count_nonzero(clipped) < t.light_trend_clipped_share * np.count_nonzero(paper):
        paper &= ~clipped
    ys, xs = np.nonzero(paper)
    if xs.size < t.light_trend_min_pixels:
        return None
    grid = quadratic_terms(*weight.shape)
    rows = grid[ys, xs]
    target = np.log(np.maximum(values[ys, xs], 1.0)).astype(np.float64)
    keep: np.ndarray | None = None  # None: all the paper (the first fit, made with no copy of it)
    for _ in range(t.light_trend_rounds):
        fit_rows, fit_target = (rows, target) if keep is None else (rows[keep], target[keep])
        coefficients = _least_squares(fit_rows, fit_target)
        residual = np.abs(target - rows @ coefficients).max(axis=1)
        fitted = residual if keep is None else residual[keep]
        keep = residual < t.light_trend_outlier * 1.4826 * float(np.median(fitted)) + 1e-3
        if keep.sum() < t.light_trend_min_pixels:
            break
    return (grid @ coefficients).astype(np.float32)


@cache
def quadratic_terms(height: int, width: int) -> np.ndarray:
    """The terms of a quadratic surface (a smooth light) at each pixel of a map (height, width, 6), x and y scaled
    to about -1..1. Read only: cached, shared by every read."""
    scale = max(height, width) / 2.0
    y, x = np.mgrid[0:height, 0:width].astype(np.float64)
    u, v = (x - width / 2.0) / scale, (y - height / 2.0) / scale
    design = np.stack([np.ones_like(u), u, v, u * u, u * v, v * v], axis=-1)
    design.setflags(write=False)  # cached: shared by every read
    return design


def _least_squares(design: np.ndarray, target: np.ndarray) -> np.ndarray:
    """By the normal equations: 6 well-scaled columns over some thousand points, many times faster than lstsq."""
    return np.linalg.solve(design.T @ design + 1e-9 * np.eye(design.shape[1]), design.T @ target)


def weight_blurs(weight: np.ndarray, t: ReaderTuning = TUNING) -> tuple[np.ndarray, ...]:
    """The paper's `weight` blurred at each of t.light_sigmas, the broadest first, as `blend_paper` blends with
    them (one mask's are made once, whatever is blended over it)."""
    return tuple(_paper_blur(weight, sigma) for sigma in _scales(t))


def _scales(t: ReaderTuning) -> list[float]:
    return sorted(t.light_sigmas, reverse=True)


BROAD_SIGMA = 8.0  # coarse pixels: a blur this broad or broader is two small matrix products (`_paper_blur`)


def _paper_blur(image: np.ndarray, sigma: float) -> np.ndarray:
    """`cv2.GaussianBlur(image, (0, 0), sigma, borderType=cv2.BORDER_REPLICATE)` of a float coarse map (to float
    rounding), in the map's own shape. OpenCV filters tap by tap, and a broad blur over a map this small has more
    taps than the map has pixels across (289 at sigma 36 over 95): as a matrix product along each axis
    (`_blur_matrix`), the same sums take a third (sigma 12) to an eighth (sigma 36) of the time."""
    if sigma < BROAD_SIGMA or image.dtype.kind != "f":
        return cv2.GaussianBlur(image, (0, 0), sigma, borderType=cv2.BORDER_REPLICATE).reshape(image.shape)
    height, width = image.shape[:2]
    down = (_blur_matrix(height, sigma) @ image.reshape(height, -1)).reshape(image.shape)
    across = _blur_matrix(width, sigma)
    return down @ across.T if image.ndim == 2 else np.matmul(across, down)


@cache
def _blur_matrix(size: int, sigma: float) -> np.ndarray:
    """The Gaussian blur along one axis of `size` pixels as a (size, size) matrix: OpenCV's kernel for a float
    image (8 sigma wide), each tap off the end counted on the end pixel (BORDER_REPLICATE). Read only: cached."""
    kernel = cv2.getGaussianKernel(int(round(sigma * 8 + 1)) | 1, sigma, cv2.CV_64F).ravel()
    taps = np.arange(kernel.size) - kernel.size // 2
    matrix = np.zeros((size, size))
    for row in range(size):
        np.add.at(matrix[row], np.clip(row + taps, 0, size - 1), kernel)
    matrix = matrix.astype(np.float32)
    matrix.setflags(write=False)
    return matrix


def blend_paper(values: np.ndarray, weight: np.ndarray, t: ReaderTuning = TUNING,
                blurs: tuple[np.ndarray, ...] | None = None) -> np.ndarray:
    """`values` where `weight` is 1 spread over the rest: the paper around at broader and broader scales.
    `blurs`: `weight_blurs(weight)`, when made already."""
    # From the broadest scale to the finest, each scale overrides the broader estimate in proportion to how much
    # trusted paper backs it: a smooth blend, with no seams where one scale takes over from another.
    estimate = None
    weighted = values * weight[..., None]
    for sigma, w in zip(_scales(t), weight_blurs(weight, t) if blurs is None else blurs, strict=True):
        v = _paper_blur(weighted, sigma)
        local = v / np.maximum(w, 1e-6)[..., None]
        if estimate is None:
            estimate = local
            continue
        alpha = np.clip(w / t.light_backing, 0.0, 1.0)[..., None]
        estimate = alpha * local + (1 - alpha) * estimate
    return estimate


def flat_field(bgr: np.ndarray, trusted: np.ndarray, t: ReaderTuning = TUNING,
               coarse: np.ndarray | None = None, same_paper: FlatField | None = None,
               channels: list[np.ndarray] | None = None) -> FlatField:
    """Divide by the paper estimate and turn the result into ink (0 paper .. 1 black). `coarse`: the coarse sheet
    (`coarse_sheet(bgr)`) when made already; `same_paper`: a flat field made from the same `trusted` mask (of
    another picture of the sheet), whose paper weight serves again; `channels`: cv2.split(bgr), when made already
    (`FlatField.channels` of another field of `bgr`)."""
    same = None if same_paper is None else same_paper.coarse
    return FlatField(bgr, trusted, coarse_estimate(bgr, trusted, t, coarse, same), channels)


def light_variation(field: FlatField, window_px: int, t: ReaderTuning = TUNING,
                    ignore: np.ndarray | None = None) -> np.ndarray:
    """How much the light changes within `window_px` of each pixel, as max - min of log paper brightness.

    Smooth lighting changes little over a few centimetres; a hard shadow edge changes a lot, and where the
    estimate had to bridge such an edge from afar, the cells there cannot be read with confidence. `ignore` (bool,
    the sheet's size): where the light is not looked at (0 where a window holds nothing else).
    """
    coarse = t.light_coarse
    small = cv2.resize(field.paper, None, fx=1 / coarse, fy=1 / coarse, interpolation=cv2.INTER_AREA)
    log = np.log(np.maximum(small, 1.0))
    k = max(3, (window_px // coarse) | 1)
    kernel = np.ones((k, k), np.uint8)
    if ignore is None:
        spread = cv2.dilate(log, kernel) - cv2.erode(log, kernel)
    else:
        left_out = cv2.resize(ignore.astype(np.uint8), (log.shape[1], log.shape[0]), interpolation=cv2.INTER_AREA) > 0
        highest = cv2.dilate(np.where(left_out, -np.inf, log).astype(np.float32), kernel)
        lowest = cv2.erode(np.where(left_out, np.inf, log).astype(np.float32), kernel)
        seen = (highest > -1e9) & (lowest < 1e9)  # not all left out (OpenCV pads with the type's extremes)
        spread = np.zeros_like(log, dtype=np.float32)
        spread[seen] = highest[seen] - lowest[seen]
    return cv2.resize(spread, (field.paper.shape[1], field.paper.shape[0]), interpolation=cv2.INTER_NEAREST)


def local_ink(
    bgr: np.ndarray, box: tuple[int, int, int, int], reach_px: int, t: ReaderTuning = TUNING
) -> np.ndarray:
    """The ink (0 paper .. 1 black) of each pixel inside `box` = (x0, y0, x1, y1), against the light around it.

    The reference is a morphological closing of the photo with a square of side `reach_px`, wider than the mark
    being read: closing fills in whatever dark is narrower than the square (a cross, a filled box or bubble) and
    keeps what is wider, which is the light itself, a shadow's edge included (a step or a ramp survives a
    closing where it is). So a mark reads the same in light and in shadow, and a shadow's edge across an empty
    box reads as paper, without any estimate of where the shadow is. A pixel's ink is its darkest channel's (a
    yellow pencil shows in blue alone).
    """
    # The darkest channel's ink is 1 - the least of the channels' shares: the same numbers as the most of their
    # inks (1 - x and clipping keep the order), without a stack of the three.
    least, *others = _light_shares(bgr, box, reach_px, t)
    for share in others:
        np.minimum(least, share, out=least)
    return 1.0 - np.clip(least, 0.0, 1.0, out=least)


def local_channel_ink(
    bgr: np.ndarray, box: tuple[int, int, int, int], reach_px: int, t: ReaderTuning = TUNING
) -> np.ndarray:
    """`local_ink` of each channel, (3, height, width) in the image's channel order."""
    return 1.0 - np.clip(np.stack(_light_shares(bgr, box, reach_px, t)), 0.0, 1.0)


def _light_shares(
    bgr: np.ndarray, box: tuple[int, int, int, int], reach_px: int, t: ReaderTuning
) -> list[np.ndarray]:
    """Each channel inside `box` over the light around it (`local_ink`), float32, not clipped."""
    x0, y0, x1, y1 = box
    height, width = bgr.shape[:2]
    cx0, cy0 = max(x0 - reach_px, 0), max(y0 - reach_px, 0)
    cx1, cy1 = min(x1 + reach_px, width), min(y1 + reach_px, height)
    around = bgr[cy0:cy1, cx0:cx1]
    square = cv2.getStructuringElement(cv2.MORPH_RECT, (reach_px | 1, reach_px | 1))
    # Bright lines narrower than halo_px first taken out: a sharpened photo rings brighter than paper beside every
    # printed line, and the closing would take that halo for the light (every box's paper then reads as ink).
    # (Filtered in the image's own type: the minima and maxima of 8-bit values are the same numbers as of their
    # floats, and far quicker to find.)
    lit = cv2.morphologyEx(around, cv2.MORPH_OPEN, np.ones((t.halo_px, t.halo_px), np.uint8),
                           borderType=cv2.BORDER_REPLICATE)
    light = cv2.morphologyEx(lit, cv2.MORPH_CLOSE, square, borderType=cv2.BORDER_REPLICATE)
    inner = (slice(max(y0, 0) - cy0, max(y1, 0) - cy0), slice(max(x0, 0) - cx0, max(x1, 0) - cx0))
    return [channel[inner].astype(np.float32) / np.maximum(lit_channel[inner].astype(np.float32), 1.0)
            for channel, lit_channel in zip(cv2.split(around), cv2.split(light), strict=True)]


def region_ink(ink: np.ndarray, box: tuple[int, int, int, int]) -> float:
    """Mean ink inside `box` = (x0, y0, x1, y1) in pixels of the sheet image."""
    x0, y0, x1, y1 = box
    patch = ink[max(y0, 0) : max(y1, 0), max(x0, 0) : max(x1, 0)]
    return float(patch.mean()) if patch.size else 0.0


def paper_between_strokes(ink: np.ndarray, box: tuple[int, int, int, int], clear_px: float, share: float,
                          around_px: int) -> float | None:
    """The ink of the paper between the strokes in `box` of `ink`: the brightest `share` of the box, taken only from
    pixels at least `clear_px` from the strokes (the pixels past the midway between the box's brightest and
    darkest `share`, within `around_px` around it too: a stroke beside the box reaches in). None when fewer pixels
    than that lie so far from every stroke.

    Blur spreads a stroke's ink a distance around it, and the gaps of dense hatching are narrower than that in a
    blurred photo: their brightest pixels hold the strokes' ink and tell nothing of the paper."""
    x0, y0, x1, y1 = box
    inside = ink[y0:y1, x0:x1]
    low, high = np.quantile(inside, [share, 1.0 - share])
    height, width = ink.shape
    wx0, wy0, wx1, wy1 = max(x0 - around_px, 0), max(y0 - around_px, 0), min(x1 + around_px, width), \
        min(y1 + around_px, height)
    between = (ink[wy0:wy1, wx0:wx1] <= (low + high) / 2).astype(np.uint8)
    clear = cv2.distanceTransform(between, cv2.DIST_L2, 3)[y0 - wy0 : y1 - wy0, x0 - wx0 : x1 - wx0] >= clear_px
    brightest = int(np.ceil(share * inside.size))
    paper = inside[clear]
    if len(paper) < brightest:
        return None
    return float(np.partition(paper, brightest - 1)[brightest - 1])


def medians_of(regions: list[np.ndarray]) -> list[float]:
    """float(np.median(region)) of each region: the regions of one shape are stacked and done in one call (the same
    values: np.median along an axis picks the same middle values and averages them alike)."""
    medians = [0.0] * len(regions)
    by_shape: dict[tuple[int, ...], list[int]] = {}
    for k, region in enumerate(regions):
        by_shape.setdefault(region.shape, []).append(k)
    for same in by_shape.values():
        stacked = np.stack([regions[k] for k in same]).reshape(len(same), -1)
        for k, median in zip(same, np.median(stacked, axis=1), strict=True):
            medians[k] = float(median)
    return medians


def log_distance(a: float, b: float, t: ReaderTuning = TUNING) -> float:
    """How far apart two amounts of ink are, on a log scale offset by `t.ink_log_offset`."""
    offset = t.ink_log_offset
    return abs(float(np.log((b + offset) / (a + offset))))


def largest_gap_threshold(values: np.ndarray, lowest: float, highest: float, t: ReaderTuning = TUNING) -> float:
    """The per-sheet threshold: the middle of the largest gap in the sorted values (OMRChecker's idea).

    Gaps are measured on a log scale and only the part of each gap inside the window [`lowest`, `highest`]
    counts: below it lies the paper's own noise, and above it a gap between light and heavy pencil is not the
    gap between empty and shaded. All values alike (an empty or a full grid) gives the gap that runs off the
    end of the window, so an all-empty sheet reads as empty and an all-shaded one as shaded.
    """
    ordered = np.concatenate(([-1.0], np.sort(np.asarray(values, dtype=np.float64)), [2.0]))
    best, best_size = lowest, -1.0
    for a, b in zip(ordered[:-1], ordered[1:], strict=True):
        lo, hi = max(a, lowest), min(b, highest)
        if hi <= lo:
            continue
        size = log_distance(lo, hi, t)
        if size > best_size:
            offset = t.ink_log_offset
            best, best_size = float(np.sqrt((lo + offset) * (hi + offset)) - offset), size
    return best
