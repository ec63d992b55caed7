"""Placing the whole layout on a sheet read from its grid: the grid's outline and the corner markers in view.

When a corner marker is cut by the photo's edge, fewer than 3 markers fit and the sheet is found by its 9x9 grid
(`grid_fallback`). Once which way up it is is known, the grid's 4 corners and each marker in view (4 corners
each) are points of the same sheet: together they over-determine the homography, and a least-squares fit of all
of them places the special boxes and the bubbles, which lie outside the grid. How sure each place is follows from
the fit: with the corners' own uncertainty (a marker's corners are found to a tenth of a millimetre, the grid's
outline much less well) propagated through the fit to the point, in sheet millimetres. Far from the points that
fix it (the bubbles, with only the grid and one marker on the other side) the place is least sure. The corners'
uncertainties and the limits of a placement are in `tuning.ReaderTuning` (`grid_corner_sigma_mm`, `placed_*`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from doodle.sheet import layout
from doodle.sheet.doubts import Uncertain
from doodle.sheet.markers import Detection
from doodle.sheet.tuning import TUNING, ReaderTuning

# The grid's outline is found on the outer edge of its printed border (grid_fallback thresholds the ink), half the
# border's width outside the line's middle, where layout.GRID_RECT lies.
FOUND_OUTLINE_MM = layout.GRID_OUTER_LINE_MM / 2


@dataclass(frozen=True)
class Placement:
    """The layout placed on a grid read: the homography and how sure it is where."""

    homography: np.ndarray  # sheet mm -> photo pixels
    markers: tuple[int, ...]  # the ids of the markers that joined the grid's corners
    error_mm: float  # RMS of all points from where the fit puts them
    covariance: np.ndarray  # of the 8 homography parameters (h33 = 1)

    def uncertainty_mm(self, point_mm: tuple[float, float]) -> float:
        """One standard deviation (largest direction, sheet mm) of where the fit puts `point_mm`."""
        jac = _point_jacobian(self.homography, np.array([point_mm], np.float64))[0]  # 2 x 8, photo pixels
        cov_px = jac @ self.covariance @ jac.T
        scale = _px_per_mm(self.homography, point_mm)
        return float(np.sqrt(max(np.linalg.eigvalsh(cov_px).max(), 0.0))) / scale


def grid_corners_mm(outward_mm: float = 0.0) -> np.ndarray:
    g = layout.GRID_RECT.inset(-outward_mm)
    return np.float64([[g.x, g.y], [g.x2, g.y], [g.x2, g.y2], [g.x, g.y2]])


def place_layout(grid_homography: np.ndarray, markers: Sequence[Detection], t: ReaderTuning = TUNING
                 ) -> Placement | None:
    """The layout placed from the grid (`grid_homography`: sheet mm -> photo, turned the way the sheet is) and the
    markers among `markers` that lie within `t.grid_marker_tolerance_mm` of where it puts them (as when the way up
    was told); None when no marker joins (the grid's corners alone leave the boxes and bubbles unsure) or the points
    do not fit one sheet."""
    inverse = np.linalg.inv(grid_homography)
    sheet_pts = [grid_corners_mm(FOUND_OUTLINE_MM)]
    photo_pts = [cv2.perspectiveTransform(grid_corners_mm().reshape(-1, 1, 2), grid_homography).reshape(-1, 2)]
    sigmas = [np.full(4, t.grid_corner_sigma_mm)]
    used = []
    for marker_id, quad in markers:
        if layout.locate_marker(marker_id) is None or marker_id in used:
            continue
        printed = np.array(layout.marker_corners_mm(marker_id), np.float64)
        back = cv2.perspectiveTransform(quad.reshape(-1, 1, 2), inverse).reshape(-1, 2)
        if float(np.sqrt(((back - printed) ** 2).sum(axis=1).mean())) <= t.grid_marker_tolerance_mm:
            used.append(marker_id)
            sheet_pts.append(printed)
            photo_pts.append(np.asarray(quad, np.float64).reshape(-1, 2))
            sigmas.append(np.full(4, t.marker_corner_sigma_mm))
    if not used:
        return None
    sheet, photo, sigma = np.concatenate(sheet_pts), np.concatenate(photo_pts), np.concatenate(sigmas)
    homography = _weighted_fit(sheet, photo, sigma, grid_homography)
    if homography is None:
        return None
    back = cv2.perspectiveTransform(photo.reshape(-1, 1, 2), np.linalg.inv(homography)).reshape(-1, 2)
    distances = np.sqrt(((back - sheet) ** 2).sum(axis=1))
    markers_error = distances[4:].reshape(-1, 4)
    if (np.sqrt((markers_error**2).mean(axis=1)) > t.placed_consistent_mm).any():
        return None
    error = float(np.sqrt((distances**2).mean()))
    if error > t.placed_fit_limit_mm:
        return None
    return Placement(homography, tuple(used), error, _covariance(homography, sheet, sigma))


def _weighted_fit(sheet: np.ndarray, photo: np.ndarray, sigma: np.ndarray, start: np.ndarray) -> np.ndarray | None:
    """The homography minimising the points' distances (each in units of its sigma, sheet mm), by Gauss-Newton
    from the grid's own homography."""
    h = (start / start[2, 2]).ravel()[:8].astype(np.float64)
    for _ in range(10):
        homography = np.append(h, 1.0).reshape(3, 3)
        projected = _apply(homography, sheet)
        if projected is None:
            return None
        scale = np.array([_px_per_mm(homography, tuple(p)) for p in sheet])
        weight = 1.0 / (sigma * scale)  # photo pixels -> standard deviations
        residual = ((projected - photo) * weight[:, None]).ravel()
        jac = (_point_jacobian(homography, sheet) * weight[:, None, None]).reshape(-1, 8)
        step, *_ = np.linalg.lstsq(jac, -residual, rcond=None)
        h = h + step
        if np.abs(step).max() < 1e-12 * max(1.0, np.abs(h).max()):
            break
    result = np.append(h, 1.0).reshape(3, 3)
    return result if np.isfinite(result).all() else None


def _covariance(homography: np.ndarray, sheet: np.ndarray, sigma: np.ndarray) -> np.ndarray:
    scale = np.array([_px_per_mm(homography, tuple(p)) for p in sheet])
    jac = (_point_jacobian(homography, sheet) / (sigma * scale)[:, None, None]).reshape(-1, 8)
    return np.linalg.pinv(jac.T @ jac)


def _apply(homography: np.ndarray, points: np.ndarray) -> np.ndarray | None:
    ones = np.hstack([points, np.ones((len(points), 1))])
    mapped = ones @ homography.T
    if (np.abs(mapped[:, 2]) < 1e-9).any():
        return None
    return mapped[:, :2] / mapped[:, 2:]


def _point_jacobian(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    """d(photo point)/d(h11..h32) for each sheet point (h33 = 1): shape (n, 2, 8)."""
    h = homography / homography[2, 2]
    x, y = points[:, 0], points[:, 1]
    w = h[2, 0] * x + h[2, 1] * y + 1.0
    u = (h[0, 0] * x + h[0, 1] * y + h[0, 2]) / w
    v = (h[1, 0] * x + h[1, 1] * y + h[1, 2]) / w
    zero, one = np.zeros_like(x), np.ones_like(x)
    du = np.stack([x, y, one, zero, zero, zero, -u * x, -u * y], axis=1) / w[:, None]
    dv = np.stack([zero, zero, zero, x, y, one, -v * x, -v * y], axis=1) / w[:, None]
    return np.stack([du, dv], axis=1)


def _px_per_mm(homography: np.ndarray, point_mm: tuple[float, float]) -> float:
    """The photo's scale at a sheet point (pixels per sheet mm, geometric mean of the two directions)."""
    jac = _affine_at(homography, point_mm)
    return float(np.sqrt(abs(np.linalg.det(jac))))


def _affine_at(homography: np.ndarray, point_mm: tuple[float, float]) -> np.ndarray:
    h = homography / homography[2, 2]
    x, y = point_mm
    w = h[2, 0] * x + h[2, 1] * y + h[2, 2]
    u = (h[0, 0] * x + h[0, 1] * y + h[0, 2]) / w
    v = (h[1, 0] * x + h[1, 1] * y + h[1, 2]) / w
    return np.array([[h[0, 0] - u * h[2, 0], h[0, 1] - u * h[2, 1]],
                     [h[1, 0] - v * h[2, 0], h[1, 1] - v * h[2, 1]]]) / w


# --- what a placement lets the reader read ----------------------------------------------------------------------
@dataclass(frozen=True)
class PlacedItems:
    """How sure the places of the boxes and of each round's bubbles are (sheet mm, one standard deviation), and
    which of them are in the photo."""

    specials: dict[str, float]
    rounds: dict[int, float]
    specials_in_view: frozenset[str]
    rounds_in_view: frozenset[int]
    unsure_mm: float = TUNING.placed_unsure_mm  # beyond this, a place is too unsure to read at all

    @property
    def read_specials(self) -> bool:
        return any(self.specials[name] <= self.unsure_mm for name in self.specials_in_view)

    @property
    def read_rounds(self) -> bool:
        return any(self.rounds[number] <= self.unsure_mm for number in self.rounds_in_view)


def placed_items(placement: Placement, inside: np.ndarray, px_per_mm: float, t: ReaderTuning = TUNING) -> PlacedItems:
    """`inside`: the flattened sheet's pixels (at `px_per_mm`) that were in the photo."""
    specials = {special.name: max(placement.uncertainty_mm(corner) for corner in _corners(special.box))
                for special in layout.SPECIALS}
    rounds = {block.number: max(placement.uncertainty_mm(layout.bubble_center(block.number, place, digit))
                                for place in layout.PLACES for digit in (0, 9)) for block in layout.ROUNDS}
    return replace(items_in_view(inside, px_per_mm, t), specials=specials, rounds=rounds)


def items_in_view(inside: np.ndarray, px_per_mm: float, t: ReaderTuning = TUNING) -> PlacedItems:
    """The boxes and round scores of a sheet placed surely (by its corner markers) that are in the photo
    (`inside`, as in `placed_items`). Beyond the photo's edge the flattened sheet repeats the edge's last pixels:
    a box there reads whatever the edge shows (second-sheet-over 370017: a crossed 'twice' box cut off by the
    photo's top edge read as unused, with no doubt)."""
    around = -t.placed_in_view_mm
    boxes_in_view = frozenset(special.name for special in layout.SPECIALS
                              if all_inside(inside, special.check.inset(around), px_per_mm))
    bubbles_in_view = frozenset(
        block.number for block in layout.ROUNDS
        if all(all_inside(inside, layout.bubble_rect(block.number, place, digit).inset(around), px_per_mm)
               for place in layout.PLACES for digit in range(10)))
    return PlacedItems({special.name: 0.0 for special in layout.SPECIALS},
                       {block.number: 0.0 for block in layout.ROUNDS}, boxes_in_view, bubbles_in_view,
                       t.placed_unsure_mm)


def _corners(rect: layout.Rect) -> tuple[tuple[float, float], ...]:
    return ((rect.x, rect.y), (rect.x2, rect.y), (rect.x2, rect.y2), (rect.x, rect.y2))


def all_inside(inside: np.ndarray, rect: layout.Rect, px_per_mm: float) -> bool:
    """Whether all of `rect` (sheet mm) lies on the sheet image's pixels marked `inside`."""
    x0, y0, x1, y1 = rect.to_px(px_per_mm)
    height, width = inside.shape
    if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
        return False
    return bool(inside[y0:y1, x0:x1].all())


UNSURE_ROUND_REASON = (
    "round {number}: its bubbles were placed from the grid and the corner markers in view, not surely enough to "
    "trust the score read ({score}); check it on the sheet"
)
OUT_OF_VIEW_REASON = "round {number}: its bubbles are not all in the photo, so its score was not read"
BOX_OUT_OF_VIEW_REASON = "not all in the photo, so it was not read: check it on the sheet"


def placed_reading(items: PlacedItems, specials_used: tuple[str, ...] | None, round_scores: tuple[int | None, ...],
                   uncertain: tuple[Uncertain, ...], t: ReaderTuning = TUNING
                   ) -> tuple[tuple[str, ...] | None, tuple[int | None, ...], tuple[Uncertain, ...]]:
    """The boxes, round scores and doubts of a reading of the whole layout: the boxes or the bubbles not read at all
    when none of them can be placed (None), what lies outside the photo not read (a box not crossed and a round
    without a score, each in doubt), and what was placed unsurely (between `t.placed_sure_mm` and the unsure limit)
    in doubt."""
    doubts = []
    if not items.read_specials:
        specials_used = None
        uncertain = tuple(d for d in uncertain if d.kind != "special")
    if not items.read_rounds:
        round_scores = (None,) * len(round_scores)
        uncertain = tuple(d for d in uncertain if d.kind != "bubble")
    if specials_used is not None:
        unseen = {name for name in items.specials if name not in items.specials_in_view}
        specials_used = tuple(name for name in specials_used if name not in unseen)
        uncertain = tuple(d for d in uncertain if d.special not in unseen)
        doubts += [Uncertain.of_special(name, False, 0.0, BOX_OUT_OF_VIEW_REASON) for name in sorted(unseen)]
        doubts += [Uncertain.of_special(name, name in specials_used, t.placed_unsure_confidence)
                   for name, spread in items.specials.items() if name not in unseen and spread > t.placed_sure_mm]
    if items.read_rounds:
        unseen_rounds = {number for number in items.rounds if number not in items.rounds_in_view}
        round_scores = tuple(None if number in unseen_rounds else score
                             for number, score in enumerate(round_scores, start=1))
        uncertain = tuple(d for d in uncertain if d.kind != "bubble" or d.round not in unseen_rounds)
        for number, spread in items.rounds.items():
            score = round_scores[number - 1]
            if number in unseen_rounds:
                doubts.append(Uncertain.of_round(number, False, OUT_OF_VIEW_REASON.format(number=number)))
            elif spread > t.placed_sure_mm:
                shown = "none" if score is None else str(score)
                doubts.append(Uncertain.of_round(number, score is not None,
                                                 UNSURE_ROUND_REASON.format(number=number, score=shown)))
    return specials_used, round_scores, uncertain + tuple(doubts)


def placed_note(items: PlacedItems, markers: int) -> str:
    """What a grid read with the layout placed says about how it was read."""
    groups = (("the special boxes", items.read_specials), ("the round scores", items.read_rounds))
    read = [what for what, done in groups if done]
    unread = [what for what, done in groups if not done]
    seen = f"{markers} corner marker{'s' if markers > 1 else ''}"
    note = (f"read from the grid lines and the {seen} in view (not all four): less certain than a whole sheet, "
            "check the quilt")
    if read:
        note += f"; {' and '.join(read)} were placed from them"
    if unread:
        note += f"; {' and '.join(unread)} could not be placed surely and were not read"
    return note
