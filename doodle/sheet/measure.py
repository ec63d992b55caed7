"""Measuring pencil on a flattened sheet: flat-field correction, ink per region, the largest-gap threshold.

Ink is measured as `1 - min(B, G, R)` after each channel is divided by the paper's own brightness there. Paper
is 0 whatever the light; graphite darkens all three channels; a coloured pencil darkens at least its
complementary channel (pale yellow takes away blue), so colour saturation and darkness are one number.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

# The paper estimate is built at this fraction of the sheet image's resolution (a 2 mm grid at 4 px/mm).
COARSE = 8
# Scales (in coarse pixels) tried from fine to broad when filling the paper estimate where paper is hidden.
SIGMAS = (1.5, 4.0, 12.0, 36.0)


@dataclass(frozen=True)
class FlatField:
    ink: np.ndarray  # float32, 0 = paper, 1 = black, per pixel of the sheet image
    paper_level: float  # median paper brightness (0-255) before correction: how much light there was


def paper_estimate(bgr: np.ndarray, trusted: np.ndarray) -> np.ndarray:
    """Per-channel paper brightness (float32, same size as `bgr`) interpolated from the `trusted` paper pixels.

    Thin dark strokes (printed text, lines, hatching) are removed by a small max filter first; where a large area
    has no trusted paper (a fully shaded grid), the estimate comes from broader and broader neighbourhoods, so a
    hard shadow edge stays sharp where paper shows and a big shaded patch is never mistaken for paper.
    """
    height, width = bgr.shape[:2]
    opened = cv2.dilate(bgr, cv2.getStructuringElement(cv2.MORPH_RECT, (5, 5)))
    coarse_size = (max(1, width // COARSE), max(1, height // COARSE))
    values = cv2.resize(opened, coarse_size, interpolation=cv2.INTER_AREA).astype(np.float32)
    weight = (cv2.resize(trusted.astype(np.float32), coarse_size, interpolation=cv2.INTER_AREA) > 0.99).astype(
        np.float32
    )
    if weight.sum() < 4:
        weight = np.ones_like(weight)
    # From the broadest scale to the finest, each scale overrides the broader estimate in proportion to how much
    # trusted paper backs it: a smooth blend, with no seams where one scale takes over from another.
    estimate = None
    for sigma in sorted(SIGMAS, reverse=True):
        w = cv2.GaussianBlur(weight, (0, 0), sigma, borderType=cv2.BORDER_REPLICATE)
        v = cv2.GaussianBlur(values * weight[..., None], (0, 0), sigma, borderType=cv2.BORDER_REPLICATE)
        local = v / np.maximum(w, 1e-6)[..., None]
        if estimate is None:
            estimate = local
            continue
        alpha = np.clip(w / 0.25, 0.0, 1.0)[..., None]
        estimate = alpha * local + (1 - alpha) * estimate
    return cv2.resize(estimate, (width, height), interpolation=cv2.INTER_LINEAR)


def flat_field(bgr: np.ndarray, trusted: np.ndarray) -> FlatField:
    """Divide by the paper estimate and turn the result into ink (0 paper .. 1 black)."""
    paper = paper_estimate(bgr, trusted)
    b, g, r = cv2.split(cv2.divide(bgr.astype(np.float32), np.maximum(paper, 1.0)))
    ink = 1.0 - np.clip(cv2.min(cv2.min(b, g), r), 0.0, 1.0)
    brightest = cv2.max(cv2.max(*cv2.split(paper)[:2]), cv2.split(paper)[2])
    level = float(np.median(brightest[trusted])) if trusted.any() else float(np.median(brightest))
    return FlatField(ink=ink, paper_level=level)


def region_ink(ink: np.ndarray, box: tuple[int, int, int, int]) -> float:
    """Mean ink inside `box` = (x0, y0, x1, y1) in pixels of the sheet image."""
    x0, y0, x1, y1 = box
    patch = ink[max(y0, 0) : max(y1, 0), max(x0, 0) : max(x1, 0)]
    return float(patch.mean()) if patch.size else 0.0


@dataclass(frozen=True)
class Threshold:
    value: float  # cells above are shaded
    gap: float  # width of the gap it sits in (0 when the sheet is all one kind)
    low: float  # the highest value below the threshold (or the threshold when none)
    high: float  # the lowest value above


def largest_gap_threshold(values: np.ndarray, lowest: float, highest: float, default: float) -> Threshold:
    """The per-sheet threshold: the middle of the largest gap in the sorted values.

    Only the part of each gap inside the window [`lowest`, `highest`] counts, and the threshold is kept inside
    it: below lies the paper's own noise, and above, a gap between light pencil and heavy pencil is not the gap
    between empty and shaded. With no gap in the window (all cells alike), the threshold is `default`.
    """
    ordered = np.concatenate(([-1.0], np.sort(np.asarray(values, dtype=np.float64)), [2.0]))
    best = Threshold(value=default, gap=0.0, low=default, high=default)
    best_inside = 0.0
    for a, b in zip(ordered[:-1], ordered[1:], strict=True):
        inside = min(b, highest) - max(a, lowest)
        if inside > best_inside:
            middle = float(np.clip((a + b) / 2, lowest, highest))
            best_inside = inside
            best = Threshold(value=middle, gap=float(min(b, 1.0) - max(a, 0.0)), low=float(a), high=float(b))
    return best
