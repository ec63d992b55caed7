"""What covers a corner marker (doodle/sheet/cover.py): a thumb holding the sheet down is left out of the paper."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from doodle.sheet import layout
from doodle.sheet.cover import cover_over
from doodle.sheet.scan import PX_PER_MM, read_photo
from tests.photogen import make_photo

SKIN = (120, 150, 205)  # BGR


def _sheet(seed: int = 0) -> np.ndarray:
    """A flattened sheet: paper in a light falling off to one side, a little noise, the four markers printed."""
    width, height = layout.canonical_size_px(PX_PER_MM)
    light = np.linspace(1.0, 0.75, width, dtype=np.float32)[None, :, None]
    sheet = np.full((height, width, 3), (228, 234, 238), np.float32) * light
    sheet += np.random.default_rng(seed).normal(0, 4, sheet.shape)
    sheet = np.clip(sheet, 0, 255).astype(np.uint8)
    for marker in layout.MARKERS:
        x0, y0, x1, y1 = marker.rect.to_px(PX_PER_MM)
        sheet[y0:y1, x0:x1] = 30
    return sheet


def _thumb(sheet: np.ndarray, corner: str) -> np.ndarray:
    """A thumb over the marker of `corner`: an ellipse of skin 16 by 26 mm across its middle (bool, where)."""
    marker = next(m for m in layout.MARKERS if m.corner == corner)
    cx, cy = (round(v * PX_PER_MM) for v in marker.rect.center)
    where = np.zeros(sheet.shape[:2], np.uint8)
    cv2.ellipse(where, (cx, cy), (round(16 * PX_PER_MM), round(26 * PX_PER_MM)), 30, 0, 360, 1, -1)
    sheet[where > 0] = SKIN
    return where > 0


def test_a_thumb_over_a_marker_is_found_and_the_paper_around_is_not():
    sheet = _sheet()
    thumb = _thumb(sheet, "tl")
    marker = layout.MARKERS[0].rect
    found = cover_over(sheet, marker, PX_PER_MM)
    assert found[thumb].mean() > 0.97
    beyond = cv2.dilate(thumb.astype(np.uint8), np.ones((4 * round(PX_PER_MM),) * 2, np.uint8)) == 0
    assert not (found & beyond).any()  # no further than its margin past the thumb's edge
    # the other markers, printed as ever, cover nothing; nor does a marker washed out to paper (a glare over it)
    assert not any(cover_over(sheet, m.rect, PX_PER_MM).any() for m in layout.MARKERS[1:])
    washed = _sheet()
    x0, y0, x1, y1 = marker.to_px(PX_PER_MM)
    washed[y0:y1, x0:x1] = 240
    assert not cover_over(washed, marker, PX_PER_MM).any()


@pytest.mark.parametrize(("seed", "most"), [(26, 7), (69, 5), (78, 5), (139, 5)])
def test_a_thumb_over_a_corner_marker_leaves_the_light_beside_it_alone(seed, most):
    """Harsh 26, 69, 78 and 139: a thumb over a corner marker, read as paper, darkened the light estimated beside
    it; the light there looked steep, as a shadow's wrongly taken out would, and 20, 22, 13 and 20 cells were put in
    doubt (26 keeps 7, at a hard shadow's edge). The thumb is left out of the paper."""
    photo = make_photo(seed, "harsh")
    assert photo.details["occluded_marker"]
    result = read_photo(photo.jpeg)
    assert result.markers_found == 3
    assert len([doubt for doubt in result.uncertain if doubt.kind == "cell"]) <= most
    assert result.quilt == photo.truth.quilt


def test_a_thumb_over_a_cell_is_no_stains_edge_and_the_cell_is_read_on_what_shows():
    """Harsh 32: a thumb over the top-right marker reached over the top of i1, empty. i1's ink was uneven (0.41
    from block to block), as where a tint's edge runs through a cell, and the nine cells of the light fill beside it
    were put in doubt as a stain. A cell is read on what shows of it, and the thumb's edge is no tint's edge."""
    photo = make_photo(32, "harsh")
    assert photo.details["occluded_marker"] == "tr"
    result = read_photo(photo.jpeg)
    assert result.quilt == photo.truth.quilt
    assert len([doubt for doubt in result.uncertain if doubt.kind == "cell"]) <= 1
