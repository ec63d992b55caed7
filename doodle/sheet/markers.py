"""Finding the sheet's ArUco corner markers and the homography from sheet millimetres to photo pixels."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from doodle.sheet import layout

# Markers are looked for in a copy of the photo no larger than this (they are big: 18-22 mm), which keeps detection
# fast on 12-megapixel photos; the full working image is tried when too few are found.
DETECT_SIDE = 1600


@dataclass(frozen=True)
class MarkerFit:
    marks: layout.LayoutMarks  # the layout version the marker ids belong to, with its marks' geometry
    slot: int  # which sheet of the page (0, or 1 for the second sheet of a two-up page)
    corners: tuple[str, ...]  # the corners whose markers were found ("tl", "tr", "br", "bl")
    homography: np.ndarray  # 3x3, sheet mm -> photo pixels
    error_mm: float  # RMS reprojection error of the marker corners, in sheet mm


@dataclass(frozen=True)
class MarkerSearch:
    fit: MarkerFit | None  # None when fewer than 3 markers of one sheet were found
    found: int  # how many of the 4 corner markers of the best sheet were seen
    slots_complete: int  # how many sheets in the photo had 3 or more markers


def _detector() -> cv2.aruco.ArucoDetector:
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, layout.ARUCO_DICTIONARY_NAME))
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(dictionary, params)


_DETECTOR = _detector()


def _detect(gray: np.ndarray) -> dict[int, np.ndarray]:
    """Our marker ids seen in `gray` -> their 4 corners (pixels, cv2.aruco order)."""
    corners, ids, _ = _DETECTOR.detectMarkers(gray)
    found: dict[int, np.ndarray] = {}
    if ids is None:
        return found
    for marker_id, quad in zip(ids.ravel().tolist(), corners, strict=True):
        if layout.locate_marker(marker_id) is not None and marker_id not in found:
            found[marker_id] = quad.reshape(4, 2).astype(np.float64)
    return found


def detect_markers(gray: np.ndarray) -> dict[int, np.ndarray]:
    """Our markers in the photo (grayscale), trying a reduced copy first for speed and the full image after."""
    height, width = gray.shape
    scale = DETECT_SIDE / max(height, width)
    found: dict[int, np.ndarray] = {}
    if scale < 0.9:
        small = cv2.resize(gray, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_AREA)
        found = {k: v / scale for k, v in _detect(small).items()}
    if _best_count(found) < 4:
        full = _detect(gray)
        if _best_count(full) >= _best_count(found):
            found = full
    return found


def _by_slot(found: dict[int, np.ndarray]) -> dict[tuple[layout.LayoutMarks, int], list[int]]:
    """The marker ids found, by sheet: (layout version, slot on the page)."""
    slots: dict[tuple[layout.LayoutMarks, int], list[int]] = {}
    for marker_id in found:
        place = _place(marker_id)
        slots.setdefault((place.marks, place.slot), []).append(marker_id)
    return slots


def _place(marker_id: int) -> layout.MarkerPlace:
    place = layout.locate_marker(marker_id)
    assert place is not None, "detect_markers keeps only the ids we print"
    return place


def _best_count(found: dict[int, np.ndarray]) -> int:
    return max((len(ids) for ids in _by_slot(found).values()), default=0)


def fit_markers(found: dict[int, np.ndarray]) -> MarkerSearch:
    """The homography of the sheet with the most markers seen (3 or 4 are needed)."""
    slots = _by_slot(found)
    if not slots:
        return MarkerSearch(None, 0, 0)
    key = max(slots, key=lambda s: (len(slots[s]), -s[1], layout.LAYOUT_MARKS.index(s[0])))
    ids = sorted(slots[key])
    complete = sum(1 for s in slots.values() if len(s) >= 3)
    if len(ids) < 3:
        return MarkerSearch(None, len(ids), complete)
    sheet = np.array([p for i in ids for p in layout.marker_corners_mm(i)], dtype=np.float64)
    photo = np.concatenate([found[i] for i in ids])
    homography, _ = cv2.findHomography(sheet, photo, 0)
    if homography is None:
        return MarkerSearch(None, len(ids), complete)
    # Error measured back in sheet mm, where it means the same at every photo resolution.
    back = cv2.perspectiveTransform(photo.reshape(-1, 1, 2), np.linalg.inv(homography)).reshape(-1, 2)
    error = float(np.sqrt(((back - sheet) ** 2).sum(axis=1).mean()))
    corners = tuple(_place(i).corner for i in ids)
    return MarkerSearch(MarkerFit(key[0], key[1], corners, homography, error), len(ids), complete)
