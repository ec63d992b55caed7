"""Placing the layout from the grid's corners and the markers in view (doodle/sheet/placement.py)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from doodle.sheet import layout as L
from doodle.sheet.placement import FOUND_OUTLINE_MM, grid_corners_mm, place_layout

# A sheet seen at a slant: sheet mm -> photo pixels.
SLANTED = np.array([[5.0, 0.4, 300.0], [-0.3, 4.6, 200.0], [1e-4, 2e-4, 1.0]])


def _grid_homography(truth: np.ndarray) -> np.ndarray:
    """What grid_fallback finds: our layout's grid mapped onto the outer edge of the printed border."""
    found = cv2.perspectiveTransform(grid_corners_mm(FOUND_OUTLINE_MM).reshape(-1, 1, 2), truth).reshape(-1, 2)
    return cv2.getPerspectiveTransform(grid_corners_mm().astype(np.float32), found.astype(np.float32))


def _marker(marker_id: int, truth: np.ndarray) -> tuple[int, np.ndarray]:
    corners = np.array(L.marker_corners_mm(marker_id), np.float64).reshape(-1, 1, 2)
    return marker_id, cv2.perspectiveTransform(corners, truth).reshape(-1, 2)


def _ids(*corners: str) -> list[int]:
    ids = {L.locate_marker(i).corner: i for i in L.PRINTED_MARKS.marker_ids_by_slot[0]}
    return [ids[c] for c in corners]


def test_the_grid_and_markers_in_view_give_the_sheet_and_are_surest_near_them():
    markers = [_marker(i, SLANTED) for i in _ids("tl", "bl")]
    placed = place_layout(_grid_homography(SLANTED), markers)
    assert placed is not None and placed.error_mm < 1e-3
    assert np.allclose(placed.homography / placed.homography[2, 2], SLANTED, rtol=1e-4, atol=1e-7)
    near, far = placed.uncertainty_mm((5.0, 250.0)), placed.uncertainty_mm((185.0, 250.0))
    assert 0 < near < far  # beside the markers in view, then across the sheet from them


@pytest.mark.parametrize("shift_mm", [4.0, 9.0])
def test_a_marker_that_does_not_fit_the_grid_places_nothing(shift_mm):
    """A marker near where the grid puts it, but not of one flat sheet with it (another sheet's, or a bent page)."""
    moved = SLANTED @ np.array([[1, 0, shift_mm], [0, 1, 0], [0, 0, 1]])
    assert place_layout(_grid_homography(SLANTED), [_marker(_ids("br")[0], moved)]) is None
    assert place_layout(_grid_homography(SLANTED), []) is None
