"""Pencil grain (doodle/sheet/grain.py): a pencil fill is speckled where graphite caught on the paper; a patch rubbed
out is smeared smooth. A grey tint with nothing drawn in or around it and no more texture than bare paper is in
doubt whatever its ink, in a photo sharp enough to show grain: its printed lines look about as wide as printed."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from doodle.sheet import layout
from doodle.sheet.grain import grain_of, print_line_width_mm
from doodle.sheet.scan import read_photo
from doodle.sheet.stages import PX_PER_MM, cell_boxes
from doodle.sheet.tuning import TUNING
from tests.photogen import make_photo
from tests.photogen_styles import styled_photo
from tests.test_scan import flagged, wrong_items

FINE = 10  # the synthetic sheet is drawn this many times finer than the sheet image, then shrunk to it


def _printed_ink(blur_mm: float = 0.0) -> np.ndarray:
    """The ink (0 paper .. 1 black) of a sheet image whose grid's inner lines are printed exactly as wide as the
    layout says, shrunk from a finer drawing, then blurred by `blur_mm`."""
    width, height = layout.canonical_size_px(PX_PER_MM * FINE)
    ink = np.zeros((height, width), np.float32)
    grid, half = layout.GRID_RECT, layout.GRID_INNER_LINE_MM / 2
    scale = PX_PER_MM * FINE
    for k in range(1, layout.GRID_SIZE):
        x = grid.x + k * layout.CELL_MM
        y = grid.y + k * layout.CELL_MM
        ink[round(grid.y * scale) : round(grid.y2 * scale), round((x - half) * scale) : round((x + half) * scale)] = 0.8
        ink[round((y - half) * scale) : round((y + half) * scale), round(grid.x * scale) : round(grid.x2 * scale)] = 0.8
    small = cv2.resize(ink, layout.canonical_size_px(PX_PER_MM), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (0, 0), blur_mm * PX_PER_MM) if blur_mm else small


def test_the_printed_lines_look_as_wide_as_printed_when_sharp_and_wider_when_blurred():
    widths = [print_line_width_mm(_printed_ink(blur), PX_PER_MM) for blur in (0.0, 0.1, 0.25, 0.5)]
    # A line 0.3 mm wide over pixels 0.25 mm wide spans two of them, as it falls.
    assert layout.GRID_INNER_LINE_MM <= widths[0] <= 2 * layout.GRID_INNER_LINE_MM
    assert widths == sorted(widths) and widths[-1] > 2 * widths[0]
    assert widths[1] <= TUNING.grain_shows_width_mm < widths[2]


def test_pencil_on_a_line_here_and_there_does_not_widen_it():
    ink = _printed_ink()
    grid = layout.GRID_RECT
    x = round((grid.x + 4 * layout.CELL_MM) * PX_PER_MM)
    ink[round(grid.y * PX_PER_MM) : round((grid.y + 3 * layout.CELL_MM) * PX_PER_MM), x - 3 : x + 4] = 0.5
    assert print_line_width_mm(ink, PX_PER_MM) == pytest.approx(print_line_width_mm(_printed_ink(), PX_PER_MM))


def test_grain_is_the_texture_beyond_the_papers_as_a_share_of_the_ink():
    rng = np.random.default_rng(1)
    width, height = layout.canonical_size_px(PX_PER_MM)
    noise = rng.normal(0.0, 0.002, (height, width)).astype(np.float32)  # the photo's noise, on paper and pencil alike
    ink = noise.copy()
    smooth, speckled = (cell_boxes(TUNING.cell_inset_mm)[index] for index in (0, 2))
    x0, y0, x1, y1 = cell_boxes(0.0)[0]
    ink[y0:y1, x0:x1] += 0.2  # a tint as even as the paper under it, over the whole cell
    x0, y0, x1, y1 = cell_boxes(0.0)[2]
    ink[y0:y1, x0:x1] += 0.2 * (0.6 + 0.8 * rng.random((y1 - y0, x1 - x0), dtype=np.float32))
    grain = grain_of(ink, np.ones(ink.shape, bool), PX_PER_MM)
    assert grain.paper_spread == pytest.approx(0.002, rel=0.3)
    assert grain.pencil_grain(smooth) < TUNING.pencil_grain_least
    assert grain.pencil_grain(speckled) > 10 * TUNING.pencil_grain_least
    assert grain_of(ink, np.zeros(ink.shape, bool), PX_PER_MM).paper_spread is None


@pytest.mark.parametrize(("seed", "ghost"), [(2, "f2"), (10012, "f1")])
def test_a_smooth_rubbed_out_patch_is_in_doubt_however_dark(seed, ghost):
    """Erased 2 (tuning) and 10012 (held out): a solid patch rubbed out, smeared smooth, 2.2-2.3 times the
    threshold with no strokes and no outline; read shaded and sure before (0.54-0.90), in doubt now."""
    photo = styled_photo(seed, "mild", distractor="erased")
    result = read_photo(photo.jpeg)
    wrong = wrong_items(result, photo.truth)
    assert ghost in wrong and not wrong - flagged(result)
    # Without either smoothness rule (the fainter band asks for grain too: erased 10012's f1 lies in it), nor the
    # smeared edge (`fill_edges`).
    before = read_photo(photo.jpeg, tuning=replace(TUNING, pencil_grain_least=0.0, faint_smooth_tint_share=0.0,
                                                   smeared_edge_ratio=float("inf")))
    assert ghost in wrong_items(before, photo.truth) - flagged(before), "without the grain the ghost was sure"


def test_a_blurred_photo_is_not_asked_for_grain():
    """Harsh 4: light fills blurred smooth; their printed lines show the photo cannot show grain, and they are
    read as without the grain rule, where asking would put them in doubt."""
    photo = make_photo(4, "harsh")
    result = read_photo(photo.jpeg)
    ignoring = read_photo(photo.jpeg, tuning=replace(TUNING, pencil_grain_least=0.0))
    asking = read_photo(photo.jpeg, tuning=replace(TUNING, grain_shows_width_mm=10.0))
    assert flagged(result) == flagged(ignoring)
    assert len(flagged(asking)) > len(flagged(result))
