"""Pencil grain, and whether the photo is sharp enough to show it.

Graphite catches on the paper's tooth: a pencil fill, however light, is speckled at a fraction of a millimetre. A
patch rubbed out leaves its graphite smeared smooth; a smudge or a tint of light is smooth too. The speckle shows
only in a photo that resolves a fraction of a millimetre, and that is measured on the print itself: the grid's
inner lines are printed `layout.GRID_INNER_LINE_MM` wide, and blur, a coarse photo or a soft warp widen them.

Grain is the spread of the ink about its own blur over t.grain_blur_mm, less the spread that bare paper beside the
grid shows in the same photo (its noise, its sharpening, its JPEG), as a share of the ink: the texture the marks
add, whatever their darkness.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from doodle.sheet import layout
from doodle.sheet.pictures import Box
from doodle.sheet.tuning import TUNING, ReaderTuning


@dataclass(frozen=True)
class Grain:
    """The fine texture of a sheet image (`fine`: the ink less its blur), and the spread of the bare paper beside
    the grid (`paper_spread`: the cleanest quarter of its squares', as the grid's row numbers are printed in some;
    None when no margin paper is in view)."""

    ink: np.ndarray
    fine: np.ndarray
    paper_spread: float | None

    def spread(self, box: Box) -> float:
        """The spread of the fine texture inside `box`."""
        x0, y0, x1, y1 = box
        return float(np.std(self.fine[y0:y1, x0:x1]))

    def pencil_grain(self, box: Box) -> float:
        """The texture inside `box` beyond the paper's, as a share of its ink (0: as smooth as bare paper)."""
        x0, y0, x1, y1 = box
        paper = self.paper_spread or 0.0
        beyond = max(self.spread(box) ** 2 - paper**2, 0.0) ** 0.5
        return beyond / max(float(np.mean(self.ink[y0:y1, x0:x1])), 1e-3)


def grain_of(ink: np.ndarray, trusted: np.ndarray, px_per_mm: float, t: ReaderTuning = TUNING) -> Grain:
    """The fine texture of the sheet image's `ink` (0 paper .. 1 black), with the paper's spread measured in
    t.grain_block_mm squares t.grain_margin_mm beside the grid, where the photo is `trusted`."""
    fine = ink - cv2.GaussianBlur(ink, (0, 0), t.grain_blur_mm * px_per_mm)
    paper = [float(np.std(fine[y0:y1, x0:x1])) for x0, y0, x1, y1 in paper_blocks(trusted, px_per_mm, t)]
    return Grain(ink, fine, cleanest_quarter(paper))


def paper_blocks(trusted: np.ndarray, px_per_mm: float, t: ReaderTuning = TUNING) -> list[Box]:
    """The t.grain_block_mm squares of bare paper t.grain_margin_mm beside the grid, left and right, where the
    photo is `trusted` (bool, the sheet image's size), in pixels."""
    grid, size = layout.GRID_RECT, t.grain_block_mm
    blocks = []
    for y in np.arange(grid.y, grid.y2 - size, size):
        for x in (grid.x - t.grain_margin_mm - size, grid.x2 + t.grain_margin_mm):
            x0, y0, x1, y1 = layout.Rect(x, y, size, size).to_px(px_per_mm)
            if x0 >= 0 and x1 <= trusted.shape[1] and trusted[y0:y1, x0:x1].all():
                blocks.append((x0, y0, x1, y1))
    return blocks


def cleanest_quarter(spreads: list[float]) -> float | None:
    """The spread of the cleanest quarter of the paper's blocks (the grid's row numbers are printed in some), None
    when there are none."""
    return float(np.percentile(spreads, 25)) if spreads else None


def print_line_width_mm(ink: np.ndarray, px_per_mm: float, t: ReaderTuning = TUNING,
                        running: str | None = None) -> float:
    """How wide the grid's inner printed lines look in the sheet image, in mm: the ink across each line (its
    profile, the median along the line so that pencil over parts of it counts for little) divided by its peak, the
    median over the 16 lines, or over the 8 `running` "down" or "across" alone (a hand's shake blurs across the
    lines it crosses, not along those it follows). A sharp photo shows them about as wide as printed; blur widens
    them."""
    grid = layout.GRID_RECT
    reach = round(t.print_width_reach_mm * px_per_mm)
    widths = []
    lines = {"down": (ink, grid.x, (grid.y, grid.y2)), "across": (ink.T, grid.y, (grid.x, grid.x2))}
    for image, across, along in (lines.values() if running is None else [lines[running]]):
        start, stop = round(along[0] * px_per_mm) + reach, round(along[1] * px_per_mm) - reach  # clear of the ends
        for k in range(1, layout.GRID_SIZE):
            centre = round((across + k * layout.CELL_MM) * px_per_mm)
            profile = np.median(image[start:stop, centre - reach : centre + reach + 1], axis=0)
            rise = np.clip(profile - min(float(profile[:2].mean()), float(profile[-2:].mean())), 0.0, None)
            if rise.max() > 0:
                widths.append(float(rise.sum() / rise.max()) / px_per_mm)
    return float(np.median(widths)) if widths else float("inf")
