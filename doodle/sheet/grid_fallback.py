"""Finding a 9x9 grid without our markers (the publisher's pad, a hand-ruled grid): by its outer border, checked
by its inner lines.

The result is a homography from our sheet frame to the photo that puts the found grid where our layout's grid
is, so the same cell reader works; nothing outside the grid (special actions, round scores) can be read this way.
"""

from __future__ import annotations

import cv2
import numpy as np

from doodle.sheet import layout

SEARCH_SIDE = 1000  # the grid is looked for in a copy of the photo this large
CELL_PX = 40  # resolution of the candidate grid while checking its lines
MIN_AREA = 0.04  # a candidate border encloses at least this fraction of the photo
MIN_LINES = 13  # of the 16 inner lines, this many must show as lines


def _order(quad: np.ndarray) -> np.ndarray:
    """Corners as top-left, top-right, bottom-right, bottom-left (the photo taken upright)."""
    points = quad.reshape(4, 2).astype(np.float64)
    total = points.sum(axis=1)
    diff = points[:, 0] - points[:, 1]
    return np.array(
        [points[np.argmin(total)], points[np.argmax(diff)], points[np.argmax(total)], points[np.argmin(diff)]]
    )


def _line_score(gray: np.ndarray, quad: np.ndarray) -> tuple[int, float]:
    """How many of the 16 inner lines of a 9x9 grid show inside `quad`, and their mean prominence (0-255)."""
    side = 9 * CELL_PX
    target = np.float32([[0, 0], [side, 0], [side, side], [0, side]])
    warp = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
    flat = 255.0 - cv2.warpPerspective(gray, warp, (side, side), flags=cv2.INTER_AREA).astype(np.float32)
    count, prominence = 0, []
    for profile in (np.median(flat, axis=0), np.median(flat, axis=1)):
        for i in range(1, 9):
            at = i * CELL_PX
            peak = profile[at - 4 : at + 5].max()
            around = np.concatenate((profile[at - 16 : at - 8], profile[at + 9 : at + 17])).mean()
            prominence.append(peak - around)
            if peak - around > 6:
                count += 1
    return count, float(np.mean(prominence))


def find_grid_homography(image: np.ndarray) -> np.ndarray | None:
    """The homography sheet mm -> photo pixels that maps our layout's grid onto the 9x9 grid in the photo."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    scale = min(1.0, SEARCH_SIDE / max(gray.shape))
    small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else gray
    block = max(15, (max(small.shape) // 30) | 1)
    ink = cv2.adaptiveThreshold(small, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, 10)
    ink = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(ink, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    min_area = MIN_AREA * small.shape[0] * small.shape[1]
    candidates = []
    for contour in contours:
        if cv2.contourArea(contour) < min_area:
            continue
        hull = cv2.convexHull(contour)
        approx = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True)
        if len(approx) == 4 and cv2.isContourConvex(approx):
            candidates.append((cv2.contourArea(approx), _order(approx)))
    candidates.sort(key=lambda item: -item[0])
    best: tuple[int, float, np.ndarray] | None = None
    for _, quad in candidates[:12]:
        count, prominence = _line_score(small, quad)
        if count >= MIN_LINES and (best is None or (count, prominence) > best[:2]):
            best = (count, prominence, quad)
    if best is None:
        return None
    g = layout.GRID_RECT
    grid_mm = np.float64([[g.x, g.y], [g.x2, g.y], [g.x2, g.y2], [g.x, g.y2]])
    return cv2.getPerspectiveTransform(grid_mm.astype(np.float32), (best[2] / scale).astype(np.float32))
