"""Finding a 9x9 grid without our markers (the publisher's pad, a hand-ruled grid): by its outer border, checked
by its inner lines.

The result is a homography from our sheet frame to the photo that puts the found grid where our layout's grid
is, so the same cell reader works; nothing outside the grid (special actions, round scores) can be read this way.
The values it decides with are `tuning.ReaderTuning`'s `grid_*` and `code_*`, with their evidence.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from doodle.sheet import layout
from doodle.sheet.markers import Detection
from doodle.sheet.tuning import TUNING, ReaderTuning


def _order(quad: np.ndarray) -> np.ndarray:
    """Corners as top-left, top-right, bottom-right, bottom-left (the photo taken upright)."""
    points = quad.reshape(4, 2).astype(np.float64)
    total = points.sum(axis=1)
    diff = points[:, 0] - points[:, 1]
    return np.array(
        [points[np.argmin(total)], points[np.argmax(diff)], points[np.argmax(total)], points[np.argmin(diff)]]
    )


def _line_score(gray: np.ndarray, quad: np.ndarray, t: ReaderTuning) -> tuple[int, float]:
    """How many of the 16 inner lines of a 9x9 grid show inside `quad`, and their mean prominence (0-255)."""
    cell = t.grid_check_cell_px
    peak_px, (near, far) = t.grid_line_peak_px, t.grid_line_around_px
    side = 9 * cell
    target = np.float32([[0, 0], [side, 0], [side, side], [0, side]])
    warp = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
    flat = 255.0 - cv2.warpPerspective(gray, warp, (side, side), flags=cv2.INTER_AREA).astype(np.float32)
    count, prominence = 0, []
    for profile in (np.median(flat, axis=0), np.median(flat, axis=1)):
        for i in range(1, 9):
            at = i * cell
            peak = profile[at - peak_px : at + peak_px + 1].max()
            around = np.concatenate((profile[at - far : at - near], profile[at + near + 1 : at + far + 1])).mean()
            prominence.append(peak - around)
            if peak - around > t.grid_line_prominence:
                count += 1
    return count, float(np.mean(prominence))


def _at_edge(quad: np.ndarray, shape: tuple[int, ...], edge_margin: float) -> bool:
    """Whether a corner of `quad` lies at the edge of an image of `shape` (within `edge_margin` of its side): cut by
    the frame."""
    height, width = shape[:2]
    margin = edge_margin * max(height, width)
    points = quad.reshape(-1, 2)
    return bool((points.min(axis=0) < margin).any() or (points[:, 0] > width - 1 - margin).any()
                or (points[:, 1] > height - 1 - margin).any())


def find_grid_homography(image: np.ndarray, t: ReaderTuning = TUNING) -> np.ndarray | None:
    """The homography sheet mm -> photo pixels that maps our layout's grid onto the 9x9 grid in the photo."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    scale = min(1.0, t.grid_search_side / max(gray.shape))
    small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else gray
    block = max(t.grid_threshold_block_px, (max(small.shape) // t.grid_threshold_blocks) | 1)
    ink = cv2.adaptiveThreshold(small, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block,
                                t.grid_threshold_offset)
    ink = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, np.ones((t.grid_close_px,) * 2, np.uint8))
    contours, _ = cv2.findContours(ink, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    min_area = t.grid_min_area * small.shape[0] * small.shape[1]
    candidates = []
    for contour in contours:
        if cv2.contourArea(contour) < min_area:
            continue
        hull = cv2.convexHull(contour)
        approx = cv2.approxPolyDP(hull, t.grid_corner_approx * cv2.arcLength(hull, True), True)
        if len(approx) == 4 and cv2.isContourConvex(approx) and not _at_edge(approx, small.shape, t.grid_edge_margin):
            candidates.append((cv2.contourArea(approx), _order(approx)))
    candidates.sort(key=lambda item: -item[0])
    best: tuple[int, float, np.ndarray] | None = None
    for _, quad in candidates[: t.grid_candidates]:
        count, prominence = _line_score(small, quad, t)
        if count >= t.grid_min_lines and (best is None or (count, prominence) > best[:2]):
            best = (count, prominence, quad)
    if best is None:
        return None
    g = layout.GRID_RECT
    grid_mm = np.float64([[g.x, g.y], [g.x2, g.y], [g.x2, g.y2], [g.x, g.y2]])
    return cv2.getPerspectiveTransform(grid_mm.astype(np.float32), (best[2] / scale).astype(np.float32))


# --- which way up: the grid alone looks the same turned a quarter or mirrored ----------------------------------
UNKNOWN_REASON = (
    "which way up the sheet is could not be told (no corner marker or QR code of a doodle sheet was read, or they "
    "disagree): the quilt may be read turned or mirrored; check it against your sheet"
)


@dataclass(frozen=True)
class Facing:
    """Which way up the grid found by `find_grid_homography` is, told by what our sheet prints around it."""

    homography: np.ndarray  # sheet mm -> photo pixels, turned (and un-mirrored) the way the sheet is
    known: bool  # False: nothing decisive (a sheet without our print) or the evidence disagrees
    mirrored: bool
    evidence: tuple[str, ...]  # what told it: "marker tl", "QR code"


def _symmetries() -> tuple[tuple[bool, np.ndarray], ...]:
    """The 8 turns and mirrors of the sheet frame about the grid's centre (which map the grid onto itself), each
    with whether it mirrors; the identity first."""
    cx, cy = layout.GRID_RECT.center
    to_centre = np.array([[1, 0, -cx], [0, 1, -cy], [0, 0, 1]], np.float64)
    back = np.linalg.inv(to_centre)
    found = []
    for mirror in (False, True):
        flip = np.diag([-1.0, 1.0, 1.0]) if mirror else np.eye(3)
        for quarter in range(4):
            c, s = round(math.cos(quarter * math.pi / 2)), round(math.sin(quarter * math.pi / 2))
            turn = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]], np.float64)
            found.append((mirror, back @ turn @ flip @ to_centre))
    return tuple(found)


def _marker_votes(
    homographies: list[np.ndarray], markers: Sequence[Detection], tolerance_mm: float
) -> tuple[list[tuple[int, int, layout.MarkerPlace]], list[layout.MarkerPlace]]:
    """For each of our markers found in the photo, the way up (index) that puts its corners where it is printed
    (within `tolerance_mm`; any other way up puts them at least 22 mm away), with the marker's id and where it is
    printed; and the markers that fit no way up (of another sheet in view, or mirrored)."""
    votes: list[tuple[int, int, layout.MarkerPlace]] = []
    misfits: list[layout.MarkerPlace] = []
    for marker_id, quad in markers:
        place = layout.locate_marker(marker_id)
        if place is None:
            continue
        printed = np.array(layout.marker_corners_mm(marker_id), np.float64)
        errors = []
        for homography in homographies:
            back = cv2.perspectiveTransform(quad.reshape(-1, 1, 2), np.linalg.inv(homography)).reshape(-1, 2)
            errors.append(float(np.sqrt(((back - printed) ** 2).sum(axis=1).mean())))
        best = int(np.argmin(errors))
        if errors[best] <= tolerance_mm:
            votes.append((best, marker_id, place))
        else:
            misfits.append(place)
    return votes, misfits


@cache
def reads_mirrored(marker_id: int) -> bool:
    """Whether the marker, seen in a mirror, still reads as one of our ids (8 and 9 do: as themselves)."""
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, layout.ARUCO_DICTIONARY_NAME))
    white = 1 - np.array(layout.marker_bits(marker_id), np.uint8)[1:-1, 1:-1]  # the data bits, 1 = white
    rate = cv2.aruco.DetectorParameters().errorCorrectionRate
    ok, found, _ = dictionary.identify(np.ascontiguousarray(white[:, ::-1]), rate)
    return bool(ok) and layout.locate_marker(int(found)) is not None


def _qr_way(gray: np.ndarray, homographies: list[np.ndarray], ways: list[int], t: ReaderTuning) -> int | None:
    """The first of `ways` under which our QR code reads where a layout prints it: rectified that way, a turned
    code is upright and a mirrored one un-mirrored, and the code is printed at one place only (the 8 ways up put
    that place at least 60 mm apart)."""
    from doodle.sheet.qr import read_sheet_code  # QR decoding is only needed here when markers are missing

    for index in ways:
        if any(_looks_like_a_code(gray, homographies[index], marks.qr, t)
               and read_sheet_code(gray, homographies[index], marks, t) is not None for marks in layout.LAYOUT_MARKS):
            return index
    return None


def _looks_like_a_code(gray: np.ndarray, sheet_to_photo: np.ndarray, qr: layout.Rect, t: ReaderTuning) -> bool:
    """Whether the square where `qr` would be printed is dark enough to hold a code (about half its modules are
    dark; paper, text and boxes much less), judged coarsely so that a decode is not tried where no code is: each
    costs about 0.1 s."""
    px_per_mm = t.code_check_px_per_mm
    side = round(qr.w * px_per_mm)
    to_photo = sheet_to_photo @ np.array([[1 / px_per_mm, 0, qr.x], [0, 1 / px_per_mm, qr.y], [0, 0, 1]])
    square = cv2.warpPerspective(gray, to_photo, (side, side), flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=255).astype(np.float32)
    paper = float(np.percentile(square, t.code_paper_percentile))
    return float((square < t.code_dark_share * paper).mean()) >= t.code_min_dark


def orient(gray: np.ndarray, homography: np.ndarray, markers: Sequence[Detection], t: ReaderTuning = TUNING) -> Facing:
    """Which way up the grid that `homography` (from `find_grid_homography`) maps is, from the corner markers found
    (`markers`: (id, photo corners) pairs, as `markers.detect_markers` gives them; even one tells, its id saying which
    corner) and the QR code. Known only when the evidence agrees on one way up, and no marker of the same sheet
    contradicts it.

    Markers 8 and 9 read as themselves in a mirror, and mirrored, each fits a quarter turn in the other's place:
    unless a marker that cannot be read mirrored tells the way up, the QR code is looked for at every way up
    (starting with the one the markers tell; each way where no code reads costs 0.1-0.2 s), and a code that reads
    mirrored outweighs the markers."""
    ways = _symmetries()
    homographies = [homography @ symmetry for _, symmetry in ways]
    votes, misfits = _marker_votes(homographies, markers, t.grid_marker_tolerance_mm)
    told = {index for index, _, _ in votes}
    evidence = tuple(f"marker {place.corner}" for _, _, place in votes)
    unmirrored = any(not reads_mirrored(marker_id) for _, marker_id, _ in votes)
    rest = [] if unmirrored else [index for index in range(len(ways)) if index not in told]
    qr = _qr_way(gray, homographies, sorted(told) + rest, t)
    if qr is not None and ways[qr][0]:
        return Facing(homographies[qr], True, True, ("QR code, mirrored",))  # mirrored markers are no evidence
    if qr is not None:
        told.add(qr)
        evidence += ("QR code",)
    # A marker of the same sheet as those that fit, fitting no way up itself: something is not as it seems.
    sheets = {(place.marks, place.slot) for _, _, place in votes}
    if len(told) != 1 or any((place.marks, place.slot) in sheets for place in misfits):
        return Facing(homography, False, False, evidence)
    (index,) = told
    return Facing(homographies[index], True, ways[index][0], evidence)
