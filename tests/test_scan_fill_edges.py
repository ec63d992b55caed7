"""How sharp a tint's edge is (doodle/sheet/fill_edges.py): a pencil's edge rises over what the photo blurs, an
eraser's smear over a millimetre and more. Measured here on drawn sheets of ink, where the answer is known."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doodle.sheet import layout
from doodle.sheet.fill_edges import edge_rise_mm

PX_PER_MM = 4.0
CELL = (4, 4)


def _sheet(inset_mm: float, ink: float, smear_mm: float, photo_blur_mm: float = 0.0) -> np.ndarray:
    """An ink map (0 paper .. 1 black) of the grid's printed lines, with the middle cell filled at `ink`, `inset_mm`
    inside its lines (negative: over them), smeared over `smear_mm` (a Gaussian's sigma) and the whole blurred over
    `photo_blur_mm`."""
    grid = layout.GRID_RECT
    height = round((grid.y2 + 10) * PX_PER_MM)
    width = round((grid.x2 + 10) * PX_PER_MM)
    fill = np.zeros((height, width), np.float32)
    rect = layout.cell_rect(*CELL)
    x0, y0 = (round((v + inset_mm) * PX_PER_MM) for v in (rect.x, rect.y))
    x1, y1 = (round((v - inset_mm) * PX_PER_MM) for v in (rect.x2, rect.y2))
    fill[y0:y1, x0:x1] = ink
    if smear_mm:
        fill = cv2.GaussianBlur(fill, (0, 0), smear_mm * PX_PER_MM)
    lines = np.zeros_like(fill)
    for k in range(layout.GRID_SIZE + 1):
        at = round((grid.x + k * layout.CELL_MM) * PX_PER_MM)
        lines[:, at : at + 1] = 0.9
        at = round((grid.y + k * layout.CELL_MM) * PX_PER_MM)
        lines[at : at + 1, :] = 0.9
    sheet = 1.0 - (1.0 - fill) * (1.0 - lines)
    if photo_blur_mm:
        sheet = cv2.GaussianBlur(sheet, (0, 0), photo_blur_mm * PX_PER_MM)
    return sheet


def test_a_pencil_edge_rises_within_a_pixel_or_two_and_a_smeared_one_over_its_smear():
    sharp = edge_rise_mm(_sheet(1.0, 0.3, 0.0, photo_blur_mm=0.1), PX_PER_MM, CELL)
    smeared = edge_rise_mm(_sheet(1.0, 0.3, 0.8, photo_blur_mm=0.1), PX_PER_MM, CELL)
    assert sharp is not None and sharp < 0.4
    # A Gaussian edge rises from a fifth to four fifths over 1.68 sigmas.
    assert smeared is not None and smeared == pytest.approx(1.68 * 0.8, rel=0.25)


def test_a_tint_over_its_lines_shows_no_paper_to_rise_from():
    assert edge_rise_mm(_sheet(-0.5, 0.3, 0.0), PX_PER_MM, CELL) is None
    assert edge_rise_mm(_sheet(1.0, 0.0, 0.0), PX_PER_MM, CELL) is None  # and paper has no edge at all


@settings(max_examples=25, deadline=None)
@given(inset=st.floats(0.8, 1.6), ink=st.floats(0.1, 0.8), smear=st.floats(0.3, 0.7), more=st.floats(0.2, 0.5),
       blur=st.floats(0.0, 0.2))
def test_the_more_a_tint_is_smeared_the_wider_its_edge_rises_whatever_its_darkness(inset, ink, smear, more, blur):
    less_smeared = edge_rise_mm(_sheet(inset, ink, smear, blur), PX_PER_MM, CELL)
    more_smeared = edge_rise_mm(_sheet(inset + more, ink, smear + more, blur), PX_PER_MM, CELL)
    assert less_smeared is not None and more_smeared is not None
    assert more_smeared > less_smeared
