"""How sharp a tint's edge is (doodle/sheet/fill_edges.py): a pencil's edge rises over what the photo blurs, an
eraser's smear over a millimetre and more. Measured here on drawn sheets of ink, where the answer is known."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doodle.sheet import layout
from doodle.sheet.fill_edges import edge_rise_mm
from doodle.sheet.tuning import TUNING

PX_PER_MM = 4.0
CELL = (4, 4)
OVER = -0.5  # a side of the tint drawn over its printed line: no paper between them


def _sheet(insets: float | tuple[float, float, float, float], ink: float, smear_mm: float,
           photo_blur_mm: float = 0.0, noise: float = 0.0, seed: int = 0) -> np.ndarray:
    """An ink map (0 paper .. 1 black) of the grid's printed lines (0.3 mm, as printed), with the middle cell
    filled at `ink`, `insets` mm inside its lines (top, right, bottom, left, or one for all; negative: over them),
    smeared over `smear_mm` (a Gaussian's sigma), the whole blurred over `photo_blur_mm`, with `noise`."""
    top, right, bottom, left = insets if isinstance(insets, tuple) else (insets,) * 4
    grid = layout.GRID_RECT
    scale = 4  # drawn finer, then brought to the sheet's pixels as a photo's are
    fine = PX_PER_MM * scale
    height, width = round((grid.y2 + 10) * fine), round((grid.x2 + 10) * fine)
    fill = np.zeros((height, width), np.float32)
    rect = layout.cell_rect(*CELL)
    fill[round((rect.y + top) * fine) : round((rect.y2 - bottom) * fine),
         round((rect.x + left) * fine) : round((rect.x2 - right) * fine)] = ink
    if smear_mm:
        fill = cv2.GaussianBlur(fill, (0, 0), smear_mm * fine)
    lines = np.zeros_like(fill)
    half = layout.GRID_INNER_LINE_MM / 2 * fine
    for k in range(layout.GRID_SIZE + 1):
        for at, view in ((grid.x + k * layout.CELL_MM, lines.T), (grid.y + k * layout.CELL_MM, lines)):
            view[round(at * fine - half) : round(at * fine + half)] = 0.9
    sheet = 1.0 - (1.0 - fill) * (1.0 - lines)
    if photo_blur_mm:
        sheet = cv2.GaussianBlur(sheet, (0, 0), photo_blur_mm * fine)
    sheet = cv2.resize(sheet, (width // scale, height // scale), interpolation=cv2.INTER_AREA)
    if noise:
        sheet = sheet + np.random.default_rng(seed).normal(0.0, noise, sheet.shape).astype(np.float32)
    return sheet


def test_a_pencil_edge_rises_within_a_pixel_or_two_and_a_smeared_one_over_its_smear():
    sharp = edge_rise_mm(_sheet(2.0, 0.3, 0.0, photo_blur_mm=0.1), PX_PER_MM, CELL)
    smeared = edge_rise_mm(_sheet(2.0, 0.3, 0.8, photo_blur_mm=0.1), PX_PER_MM, CELL)
    assert sharp is not None and sharp < 0.4
    # A Gaussian edge rises from a fifth to four fifths over 1.68 sigmas: read from the paper's lowest point, a
    # little less of it.
    assert smeared is not None and 0.75 * 1.68 * 0.8 < smeared <= 1.05 * 1.68 * 0.8


@pytest.mark.parametrize("side", range(4))
def test_each_side_is_read_from_its_printed_line_inward(side):
    """One side of four showing paper between line and tint is enough, whichever it is."""
    insets = [OVER] * 4
    insets[side] = 1.5
    sharp = edge_rise_mm(_sheet(tuple(insets), 0.3, 0.0, photo_blur_mm=0.1), PX_PER_MM, CELL)
    smeared = edge_rise_mm(_sheet(tuple(insets), 0.3, 0.6, photo_blur_mm=0.1), PX_PER_MM, CELL)
    assert sharp is not None and sharp < 0.4
    assert smeared is not None and smeared > 0.7


def test_an_edge_is_read_only_where_enough_of_the_sides_show_paper():
    """One side of four showing paper is a quarter of the rows read."""
    one_side = _sheet((1.5, OVER, OVER, OVER), 0.3, 0.6, photo_blur_mm=0.1)
    assert edge_rise_mm(one_side, PX_PER_MM, CELL, replace(TUNING, edge_rows_least=0.2)) is not None
    assert edge_rise_mm(one_side, PX_PER_MM, CELL, replace(TUNING, edge_rows_least=0.3)) is None


def test_a_tint_over_its_lines_shows_no_paper_to_rise_from():
    assert edge_rise_mm(_sheet(OVER, 0.3, 0.0), PX_PER_MM, CELL) is None
    assert edge_rise_mm(_sheet(1.5, 0.0, 0.0), PX_PER_MM, CELL) is None  # and paper has no edge at all
    assert edge_rise_mm(_sheet(1.5, 0.3, 0.0)[:200], PX_PER_MM, CELL) is None  # nor a cell off the image


def test_noise_does_not_make_a_pencil_edge_look_smeared():
    for seed in range(3):
        sharp = edge_rise_mm(_sheet(1.5, 0.2, 0.0, photo_blur_mm=0.15, noise=0.02, seed=seed), PX_PER_MM, CELL)
        smeared = edge_rise_mm(_sheet(1.5, 0.2, 0.6, photo_blur_mm=0.15, noise=0.02, seed=seed), PX_PER_MM, CELL)
        assert sharp is not None and smeared is not None
        assert sharp < 0.45 < 0.7 < smeared


@settings(max_examples=25, deadline=None)
@given(ink=st.floats(0.1, 0.8), smear=st.floats(0.0, 0.5), more=st.floats(0.2, 0.4), blur=st.floats(0.0, 0.2))
def test_the_more_a_tint_is_smeared_the_wider_its_edge_rises_whatever_its_darkness(ink, smear, more, blur):
    less_smeared = edge_rise_mm(_sheet(2.5, ink, smear, blur), PX_PER_MM, CELL)
    more_smeared = edge_rise_mm(_sheet(2.5, ink, smear + more, blur), PX_PER_MM, CELL)
    assert less_smeared is not None and more_smeared is not None
    assert more_smeared > less_smeared
