"""Finding the sheet's ArUco corner markers and the homography from sheet millimetres to photo pixels.

A photo may show more than one sheet (another player's sheet beside it, a pile of sheets), and copies of one print
carry the same marker ids. So every marker seen is kept, sets of markers are tried as one sheet's only when one
homography fits them all (sizes, distances and the sheet's proportions together), and of the sheets so found the
one to read is chosen by what the photo shows: a sheet with another sheet's marker over it is under that sheet; of
the others the one whose grid is in view, with more markers, clearly larger. When no choice can be made the search
says so (`ambiguous`) rather than guess.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import cv2
import numpy as np

from doodle.sheet import layout
from doodle.sheet.tuning import TUNING, ReaderTuning


@dataclass(frozen=True)
class MarkerFit:
    marks: layout.LayoutMarks  # the layout version the marker ids belong to, with its marks' geometry
    slot: int  # which sheet of the page (0, or 1 for the second sheet of a two-up page)
    corners: tuple[str, ...]  # the corners whose markers were found ("tl", "tr", "br", "bl")
    homography: np.ndarray  # 3x3, sheet mm -> photo pixels
    error_mm: float  # RMS reprojection error of the marker corners, in sheet mm


@dataclass(frozen=True)
class MarkerSearch:
    fit: MarkerFit | None  # None when no sheet shows 3 consistent markers, or when no choice could be made
    found: int  # how many of the 4 corner markers of the best sheet were seen
    other_sheet: bool = False  # markers of another sheet were seen too, and not used
    ambiguous: bool = False  # two sheets in view, neither under the other nor clearly the one meant
    covered: bool = False  # the sheet found lies under another one (whose markers show over it)


Detection = tuple[int, np.ndarray]
"""One marker seen: its id and its 4 corners (pixels, cv2.aruco order)."""


def _detector() -> cv2.aruco.ArucoDetector:
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, layout.ARUCO_DICTIONARY_NAME))
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(dictionary, params)


_DETECTOR = _detector()


def _detect(gray: np.ndarray) -> list[Detection]:
    """Every one of our markers seen in `gray` (an id may be seen twice: two copies of a sheet)."""
    corners, ids, _ = _DETECTOR.detectMarkers(gray)
    if ids is None:
        return []
    return [(marker_id, quad.reshape(4, 2).astype(np.float64))
            for marker_id, quad in zip(ids.ravel().tolist(), corners, strict=True)
            if layout.locate_marker(marker_id) is not None]


def detect_markers(gray: np.ndarray, t: ReaderTuning = TUNING) -> list[Detection]:
    """Our markers in the photo (grayscale), trying a reduced copy first for speed and the full image after."""
    height, width = gray.shape
    scale = t.marker_detect_side / max(height, width)
    found: list[Detection] = []
    if scale < t.marker_reduce_below:
        small = cv2.resize(gray, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_AREA)
        found = [(i, quad / scale) for i, quad in _detect(small)]
    if _best_count(found) < 4:
        full = _detect(gray)
        if _best_count(full) >= _best_count(found):
            found = full
    return found


def _place(marker_id: int) -> layout.MarkerPlace:
    place = layout.locate_marker(marker_id)
    assert place is not None, "detect_markers keeps only the ids we print"
    return place


def _best_count(found: list[Detection]) -> int:
    by_sheet: dict[tuple[str, int], set[int]] = {}
    for marker_id, _ in found:
        place = _place(marker_id)
        by_sheet.setdefault((place.marks.version, place.slot), set()).add(marker_id)
    return max((len(ids) for ids in by_sheet.values()), default=0)


@dataclass(frozen=True)
class _Candidate:
    fit: MarkerFit
    used: frozenset[int]  # indices into the detections
    quad: np.ndarray  # the sheet's outline in the photo (4x2)
    area: float


def _fit(found: list[Detection], used: tuple[int, ...]) -> MarkerFit | None:
    ids = [found[k][0] for k in used]
    place = _place(ids[0])
    sheet = np.array([p for i in ids for p in layout.marker_corners_mm(i)], dtype=np.float64)
    photo = np.concatenate([found[k][1] for k in used])
    homography, _ = cv2.findHomography(sheet, photo, 0)
    if homography is None or not np.isfinite(homography).all():
        return None
    try:
        back = cv2.perspectiveTransform(photo.reshape(-1, 1, 2), np.linalg.inv(homography)).reshape(-1, 2)
    except np.linalg.LinAlgError:
        return None
    # Error measured back in sheet mm, where it means the same at every photo resolution.
    error = float(np.sqrt(((back - sheet) ** 2).sum(axis=1).mean()))
    corners = tuple(_place(i).corner for i in ids)
    return MarkerFit(place.marks, place.slot, corners, homography, error)


def _outline(homography: np.ndarray) -> np.ndarray:
    w, h = layout.SHEET_WIDTH_MM, layout.SHEET_HEIGHT_MM
    return cv2.perspectiveTransform(np.array([[(0, 0), (w, 0), (w, h), (0, h)]], np.float64), homography)[0]


def _candidates(found: list[Detection], t: ReaderTuning) -> list[_Candidate]:
    """Every set of 3 or 4 markers of one sheet (one per corner) that one homography fits, largest sets only."""
    groups: dict[tuple[str, int], dict[str, list[int]]] = {}
    for k, (marker_id, _) in enumerate(found):
        place = _place(marker_id)
        corners = groups.setdefault((place.marks.version, place.slot), {})
        copies = corners.setdefault(place.corner, [])
        if len(copies) < t.marker_max_copies:
            copies.append(k)
    fitted: list[_Candidate] = []
    for corners in groups.values():
        if len(corners) < 3:
            continue
        options = [copies + [-1] for copies in corners.values()]  # -1: that corner's marker left out
        for choice in itertools.product(*options):
            used = tuple(k for k in choice if k >= 0)
            if len(used) < 3:
                continue
            fit = _fit(found, used)
            if fit is None or fit.error_mm > t.marker_consistent_mm:
                continue
            quad = _outline(fit.homography)
            fitted.append(_Candidate(fit, frozenset(used), quad, abs(float(cv2.contourArea(quad.astype(np.float32))))))
    return [c for c in fitted if not any(c.used < other.used for other in fitted)]


def _others(candidate: _Candidate, found: list[Detection], t: ReaderTuning,
            gray: np.ndarray | None = None) -> list[np.ndarray]:
    """The markers seen that are not this sheet's and are the size a printed marker would be there, were it in the
    sheet's plane (a speck of pencil or print that decodes as one of our ids is far smaller), and, in `gray` (the
    photo) when given, with the paper clear beside them that a printed marker has (`_quiet_inside`)."""
    inverse = np.linalg.inv(candidate.fit.homography)
    others = []
    for k, (marker_id, quad) in enumerate(found):
        if k in candidate.used:
            continue
        centre = cv2.perspectiveTransform(quad.mean(axis=0).reshape(1, 1, 2), inverse)[0, 0]
        half = _place(marker_id).marks.marker_size_mm / 2
        square = centre + np.array([(-half, -half), (half, -half), (half, half), (-half, half)])
        expected = cv2.contourArea(cv2.perspectiveTransform(square.reshape(1, 4, 2), candidate.fit.homography)[0]
                                   .astype(np.float32))
        area = cv2.contourArea(quad.astype(np.float32))
        if t.other_marker_area[0] * expected <= area <= t.other_marker_area[1] * expected and (
                gray is None or _quiet_inside(gray, marker_id, quad, t)):
            others.append(quad)
    return others


def _quiet_inside(gray: np.ndarray, marker_id: int, quad: np.ndarray, t: ReaderTuning) -> bool:
    """Whether the paper beside a marker seen as `quad` is clear, on the two sides that face its sheet's middle
    (the layout prints nothing there, layout.MARKER_QUIET_MM; the outer sides may run to the paper's edge): a
    scribble or a patch of hatching that decodes as one of our ids has pencil and grid lines there. Only what lies
    in the photo is looked at; with less than half of it in view, the marker is given the benefit."""
    place = _place(marker_id)
    size = place.marks.marker_size_mm
    near, far = t.marker_quiet_band_mm
    square = np.array([(0, 0), (size, 0), (size, size), (0, size)], np.float32)
    to_photo = cv2.getPerspectiveTransform(square, quad.astype(np.float32))
    inward_x = (size + near, size + far) if place.corner in ("tl", "bl") else (-far, -near)
    inward_y = (size + near, size + far) if place.corner in ("tl", "tr") else (-far, -near)
    bands = [np.array([[(x0, y0), (x1, y0), (x1, y1), (x0, y1)]], np.float32) for (x0, y0), (x1, y1) in
             (((inward_x[0], 0.0), (inward_x[1], size)), ((0.0, inward_y[0]), (size, inward_y[1])))]
    polygons = [cv2.perspectiveTransform(band, to_photo)[0] for band in bands]
    expected = sum(abs(float(cv2.contourArea(polygon))) for polygon in polygons)
    # Masks over the marker and its bands alone, not the whole photo (specks are many in a busy photo).
    corners = np.concatenate([quad, *polygons])
    height, width = gray.shape
    x0, y0 = np.clip(np.floor(corners.min(axis=0)).astype(int), 0, (width, height))
    x1, y1 = np.clip(np.ceil(corners.max(axis=0)).astype(int) + 1, 0, (width, height))
    if x1 <= x0 or y1 <= y0:
        return True
    region = gray[y0:y1, x0:x1]
    offset = np.array([x0, y0], np.float32)
    beside_mask = np.zeros(region.shape, np.uint8)
    cv2.fillPoly(beside_mask, [np.round(polygon - offset).astype(np.int32) for polygon in polygons], 255)
    marker_mask = np.zeros(region.shape, np.uint8)
    cv2.fillPoly(marker_mask, [np.round(quad - offset).astype(np.int32)], 255)
    own, beside = region[marker_mask > 0], region[beside_mask > 0]
    if own.size == 0 or beside.size < 0.5 * expected:
        return True
    dark, light = np.percentile(own, (10, 90))
    return float((beside < (dark + light) / 2).mean()) < t.marker_quiet_dark_share


def _covered(candidate: _Candidate, found: list[Detection], t: ReaderTuning, gray: np.ndarray | None) -> bool:
    """Whether another sheet's marker shows inside this sheet's outline: that sheet lies over this one."""
    outline = candidate.quad.astype(np.float32).reshape(-1, 1, 2)
    return any(cv2.pointPolygonTest(outline, tuple(float(v) for v in quad.mean(axis=0)), False) > 0
               for quad in _others(candidate, found, t, gray))


def _grid_in_view(candidate: _Candidate, shape: tuple[int, int] | None) -> bool:
    if shape is None:
        return True
    g = layout.GRID_RECT
    grid = cv2.perspectiveTransform(np.array([[(g.x, g.y), (g.x2, g.y), (g.x2, g.y2), (g.x, g.y2)]], np.float64),
                                    candidate.fit.homography)[0]
    height, width = shape
    return bool((grid >= 0).all() and (grid[:, 0] < width).all() and (grid[:, 1] < height).all())


def _two_sheets_seen(found: list[Detection], t: ReaderTuning) -> bool:
    """Whether the markers seen (specks aside) are of more than one sheet: an id twice, or two sheets' ids."""
    areas = [cv2.contourArea(quad.astype(np.float32)) for _, quad in found]
    typical = float(np.median(areas)) if areas else 0.0
    seen = [(_place(i).marks.version, _place(i).slot, _place(i).corner)
            for (i, _), area in zip(found, areas, strict=True) if area >= t.other_marker_area[0] * typical]
    return len(set(seen)) < len(seen) or len({where[:2] for where in seen}) > 1


def fit_markers(
    found: list[Detection], shape: tuple[int, int] | None = None, t: ReaderTuning = TUNING,
    gray: np.ndarray | None = None,
) -> MarkerSearch:
    """The homography of the one sheet to read among the markers found (3 or 4 of one sheet are needed), in a
    photo of `shape` (height, width) when given (a sheet whose grid is cut off by the photo's edge is then the
    lesser choice). With the photo itself (`gray`), a marker not of the sheet chosen counts as another sheet's
    only with the clear paper beside it that a printed marker has."""
    candidates = _candidates(found, t)
    if not candidates:
        return MarkerSearch(None, _best_count(found), other_sheet=_two_sheets_seen(found, t))
    on_top = [c for c in candidates if not _covered(c, found, t, gray)]
    if not on_top:  # another sheet (maybe not whole in view) lies over each sheet found
        return MarkerSearch(None, max(len(c.used) for c in candidates), other_sheet=True, covered=True)
    ranked = sorted(on_top, key=lambda c: (_grid_in_view(c, shape), len(c.used), c.area), reverse=True)
    best = ranked[0]
    other = bool(_others(best, found, t, gray))
    if len(ranked) > 1:
        second = ranked[1]
        if (_grid_in_view(best, shape), len(best.used)) == (_grid_in_view(second, shape), len(second.used)) and \
                best.area < t.clear_area_ratio * second.area:
            return MarkerSearch(None, len(best.used), other_sheet=True, ambiguous=True)
    return MarkerSearch(best.fit, len(best.used), other_sheet=other)
