"""What covers part of the sheet: a thumb or a finger holding the sheet down over a corner marker.

A corner marker that was not seen, although its place is inside the photo, is covered. Whatever covers it covers
the paper around it too, and is darker than paper: taken as paper, it darkens the light estimated around it, and
the cells and print near it read in a light that is not there (harsh 26, 69, 78 and 139: a thumb over a corner
made the light beside it look steep, and 13 to 22 cells were put in doubt; 0 to 7 now). So the cover is found
and left out of the paper: from the middle of the marker's place, the area of the same colour, grown as long as
the colour changes gradually (a thumb's edge against paper is a step; the light over the thumb changes smoothly).
A marker lost to glare or blur is not covered: its middle looks like paper or print, and nothing is left out.
"""

from __future__ import annotations

import cv2
import numpy as np

from doodle.sheet import layout
from doodle.sheet.tuning import TUNING, ReaderTuning


def cover_over(sheet: np.ndarray, marker: layout.Rect, px_per_mm: float, t: ReaderTuning = TUNING) -> np.ndarray:
    """The part of the flattened sheet `sheet` (BGR uint8, `px_per_mm`) covered by what hides the marker whose
    place is `marker` (bool, the sheet's size; nothing when its middle shows paper or print)."""
    height, width = sheet.shape[:2]
    covered = np.zeros((height, width), bool)
    x0, y0, x1, y1 = marker.inset(-t.cover_reach_mm).to_px(px_per_mm)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return covered
    window = sheet[y0:y1, x0:x1]
    size = (max(1, round((x1 - x0) / px_per_mm)), max(1, round((y1 - y0) / px_per_mm)))
    small = cv2.resize(window, size, interpolation=cv2.INTER_AREA)  # 1 px per mm: the sheet's grain averaged out
    cx, cy = marker.center  # mm, and the window's own millimetres start at x0, y0 pixels
    seed = (int(np.clip(round(cx - x0 / px_per_mm), 0, size[0] - 1)),
            int(np.clip(round(cy - y0 / px_per_mm), 0, size[1] - 1)))
    paper = np.percentile(small.reshape(-1, 3), t.cover_paper_percentile, axis=0)
    middle = small[seed[1], seed[0]].astype(np.float64)
    darkest = float(np.min(middle / np.maximum(paper, 1.0)))
    brightest = float(np.max(middle / np.maximum(paper, 1.0)))
    if darkest >= t.cover_paper_share or brightest <= t.cover_print_share:
        return covered  # paper (a marker washed out) or the marker's own print (blurred past reading)
    mask = np.zeros((size[1] + 2, size[0] + 2), np.uint8)
    step = (t.cover_step,) * 3
    cv2.floodFill(small, mask, seed, (0, 0, 0), step, step, 4 | cv2.FLOODFILL_MASK_ONLY | (1 << 8))
    region = mask[1:-1, 1:-1]
    margin = 2 * round(t.cover_margin_mm) + 1
    region = cv2.dilate(region, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (margin, margin)))
    covered[y0:y1, x0:x1] = cv2.resize(region, (x1 - x0, y1 - y0), interpolation=cv2.INTER_NEAREST) > 0
    return covered
