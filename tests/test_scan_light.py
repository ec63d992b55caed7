"""Light that varies smoothly (vignetting, a lamp to one side) is light, not doubt (doodle.sheet.light)."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from doodle.sheet import layout, stages
from doodle.sheet.light import could_be_paper, darker_nearby, either_side
from doodle.sheet.measure import coarse_estimate
from doodle.sheet.scan import UNEVEN_LIGHT_NOTE, read_photo
from doodle.sheet.stages import PX_PER_MM, cell_boxes
from doodle.sheet.tuning import TUNING
from tests.photogen import make_photo
from tests.photogen_families import family_photo
from tests.photogen_styles import styled_photo
from tests.test_scan import assert_exact, flagged, recode, wrong_items

MANY_DOUBTS = 5  # more cells in doubt than this make a photo close to useless to a player


def _vignetted(image: np.ndarray, fall: float) -> np.ndarray:
    """A lens's cos^4 fall-off about the photo's centre, losing `fall` of the light in the corners."""
    height, width = image.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    r = np.hypot(xs - width / 2, ys - height / 2) / math.hypot(width / 2, height / 2)
    tan_corner = math.sqrt(1 / (1 - fall) ** 0.5 - 1)
    gain = np.cos(np.arctan(r * tan_corner)) ** 4
    return np.clip(image * gain[..., None], 0, 255).astype(np.uint8)


def _lamp_to_one_side(image: np.ndarray, fall: float) -> np.ndarray:
    """Light falling off smoothly across the photo (a lamp to one side), by `fall` from one edge to the other,
    on a curve rather than a straight ramp."""
    width = image.shape[1]
    u = np.linspace(0.0, 1.0, width, dtype=np.float32)
    gain = 1.0 - fall * u**2
    return np.clip(image * gain[None, :, None], 0, 255).astype(np.uint8)


@pytest.mark.parametrize("seed", range(3))
def test_vignetting_is_smooth_light_not_doubt(seed):
    photo = make_photo(seed, "mild", megapixels=3.0)
    result = read_photo(recode(_vignetted(photo.image, 0.45)))
    assert_exact(result, photo.truth)
    assert sum(doubt.kind == "cell" for doubt in result.uncertain) <= MANY_DOUBTS


@pytest.mark.parametrize("seed", range(3, 5))
def test_a_lamp_to_one_side_is_smooth_light_not_doubt(seed):
    photo = make_photo(seed, "mild", megapixels=3.0)
    result = read_photo(recode(_lamp_to_one_side(photo.image, 0.6)))
    assert_exact(result, photo.truth)
    assert sum(doubt.kind == "cell" for doubt in result.uncertain) <= MANY_DOUBTS


def test_a_cell_is_in_doubt_only_when_the_light_could_move_it_across_the_threshold():
    assert either_side(0.08, 0.1, 0.05)  # light pencil: 5% more light reads it as paper
    assert not either_side(0.4, 0.1, 0.2)  # heavy pencil stays pencil
    assert not either_side(0.0, 0.1, 0.05)  # paper stays paper
    assert either_side(0.0, 0.1, 0.2)  # unless the light may be 20% off


def _grid_left_out(gain: np.ndarray) -> np.ndarray:
    """darker_nearby for a blank sheet lit by `gain` (per pixel), the grid not known as paper."""
    width, height = layout.canonical_size_px(PX_PER_MM)
    sheet = np.clip(230.0 * gain[..., None], 0, 255).astype(np.uint8).repeat(3, axis=2)
    trusted = np.ones((height, width), bool)
    grid = layout.GRID_RECT
    rows, cols = slice(round(grid.y * PX_PER_MM), round(grid.y2 * PX_PER_MM)), slice(round(grid.x * PX_PER_MM),
                                                                                     round(grid.x2 * PX_PER_MM))
    trusted[rows, cols] = False
    return darker_nearby(coarse_estimate(sheet, trusted), cell_boxes(), PX_PER_MM)


def _lighting(soft_shadow: bool) -> np.ndarray:
    width, height = layout.canonical_size_px(PX_PER_MM)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32) / PX_PER_MM
    gain = 1.0 - 0.15 * xs / xs.max()  # a lamp to one side: the broad shape
    if soft_shadow:  # a hand's shadow, 40 mm soft, over the top-left corner of the grid and its margins
        centre = (layout.GRID_RECT.x + 20.0, layout.GRID_RECT.y + 10.0)
        gain *= 1.0 - 0.35 * np.exp(-((xs - centre[0]) ** 2 + (ys - centre[1]) ** 2) / (2 * 40.0**2))
    return gain


def test_a_soft_shadow_over_a_margin_makes_the_light_beside_it_unsure():
    """The grid's light is only interpolated; a soft shadow the margin shows may reach into it, a lamp to one side
    (a smooth broad shape) does not leave that doubt."""
    shadowed = _grid_left_out(_lighting(soft_shadow=True)).reshape(9, 9)
    lamp = _grid_left_out(_lighting(soft_shadow=False))
    # Inside the grid near the shadow, where the estimate has gone back to the broad shape, the light may be as
    # much darker as the margin is (about 0.3 in log); far from it, not.
    assert shadowed[:4, :4].max() > 0.2
    assert shadowed[6:, 6:].max() < 0.05
    assert lamp.max() < 0.05


def test_a_tint_could_be_paper_only_under_light_that_much_darker():
    assert could_be_paper(0.2, 0.1, 0.15)  # 0.2 ink under light 14% darker than thought is paper
    assert not could_be_paper(0.2, 0.1, 0.05)
    assert not could_be_paper(0.6, 0.1, 0.3)  # solid pencil is never a shadow's paper


def test_faint_tints_the_split_of_the_unstroked_cells_puts_with_paper_are_in_doubt():
    """Light 600006 (a glare beside the grid, daylight and a warm lamp): only 5 corner cells joined the paper, the
    threshold fell between them and every other cell, and the light fitted to the margins left 14 empty cells in the
    middle at 0.10-0.15 of ink, shaded and sure. Split alone, the cells with no strokes put them with the paper,
    below the solid fills: each such cell is in doubt. The printed lines then settle them (line_steps.py): the
    light runs on from the corner cells' paper through the lines, and every cell reads right, with no note asking
    for another photo (it is given while more than 5 such cells stay in doubt: mixed 900012 below)."""
    photo = family_photo(600006, "light")
    result = read_photo(photo.jpeg)
    assert not wrong_items(result, photo.truth)
    assert UNEVEN_LIGHT_NOTE not in result.notes
    plain = read_photo(family_photo(600006, "plain").jpeg)  # the same sheet in plain light
    assert UNEVEN_LIGHT_NOTE not in plain.notes


def test_with_no_paper_found_in_the_grid_its_faintest_tints_are_in_doubt():
    """Mixed 900012 (a bowed sheet under mixed tungsten light, sharpened): no cell joined the paper, its 27 empty
    cells read 0.10-0.15 of ink, as even as paper, and the window's largest gap put the threshold under them all;
    6 read shaded and sure. The faintest tints with no strokes, split from the rest at their own widest gap, may
    be paper when nothing in the grid shows its light, and when they have no more grain than the margins' paper
    (these: 0.9 times): in doubt, with the note asking for another photo."""
    photo = family_photo(900012, "mixed")
    result = read_photo(photo.jpeg)
    assert not wrong_items(result, photo.truth) - flagged(result)
    assert UNEVEN_LIGHT_NOTE in result.notes
    plain = read_photo(family_photo(900012, "plain").jpeg)  # the same sheet in plain light: its paper is found
    assert_exact(plain, photo.truth)
    assert UNEVEN_LIGHT_NOTE not in plain.notes


@pytest.mark.parametrize(("level", "seed"), [("harsh", 8), ("moderate", 11016)])
def test_a_full_quilt_of_light_fills_is_not_taken_for_paper(level, seed):
    """Full quilts: no cell is paper. Harsh 8's fills run on from the faintest (0.165) to the heaviest with no gap;
    moderate 11016's 23 light fills (0.13-0.18) form a group of their own, but with 4-5 times the grain of the
    paper in the margins: pencil, read as shaded without a doubt."""
    photo = make_photo(seed, level)
    result = read_photo(photo.jpeg)
    assert_exact(result, photo.truth)
    assert photo.truth.quilt.empty_count() == 0
    assert UNEVEN_LIGHT_NOTE not in result.notes
    assert sum(doubt.kind == "cell" for doubt in result.uncertain) <= 5


def test_with_most_of_the_grid_in_doubt_no_tint_is_read_sure(monkeypatch):
    """Mixed 4700007 (a blind finding): glare, mixed lamps and a dim, sharpened exposure leave 78 cells in doubt;
    five empty cells read as tints 5-7 times the threshold were shaded and sure. The light is known nowhere in
    such a grid: every cell with no strokes is in doubt. (The lines put those five in doubt too, now that the
    paper beside the grid tells them how much texture paper has where no cell is sure to be paper; without that,
    as for a grid the lines do not settle, the rule does; so does the doubt a ghost-like tint shares with the tints
    as deep beside it, `alike_tint_ratio`.)"""
    photo = family_photo(4700007, "mixed")
    result = read_photo(photo.jpeg)
    assert not wrong_items(result, photo.truth) - flagged(result)
    assert sum(doubt.kind == "cell" for doubt in result.uncertain) > TUNING.most_in_doubt_share * 81
    monkeypatch.setattr(stages, "paper_blocks", lambda *args, **kwargs: [])  # no paper's texture to settle by
    before = read_photo(photo.jpeg, tuning=replace(TUNING, most_in_doubt_share=1.0, alike_tint_ratio=1.0))
    assert wrong_items(before, photo.truth) - flagged(before)


def test_dense_strokes_read_shaded_are_sure_under_a_threshold_a_deep_shadow_raised():
    """Light 30 (tuning): a hand's soft shadow 0.72 deep put the threshold at 0.109 of ink; 7 zigzag cells, 0.33-0.48
    of them strokes, read 0.14-0.16, shaded but in doubt for how near the threshold they were. Dense strokes are a
    mark whatever the light (measured against the light right around them): those cells are sure."""
    photo = family_photo(30, "light")
    result = read_photo(photo.jpeg)
    assert not wrong_items(result, photo.truth) - flagged(result)
    assert not {"d2", "c3", "d3", "b4", "c4", "h4", "d5"} & flagged(result)
    assert sum(doubt.kind == "cell" for doubt in result.uncertain) <= 2


def test_paper_lifted_out_of_a_shadow_in_a_colour_is_in_doubt_and_grey_paper_is_not():
    """Light 5500020 (blind): e5 and f5, a green patch under a hand's soft shadow beside a glare. Taken out with the
    shadow, e5 read 0.00 of ink, paper and sure, and f5 was settled as paper from it. A shadow adds no colour:
    paper lifted out of one that is coloured in the photo's own light is in doubt, offered as shaded, and settles
    nothing (harsh 27: h8, a pale yellow fill a shadow leaked over, lifted to 0.00 of ink, was offered as empty).
    Grey lifted paper is paper, and settles its neighbours (moderate 54010, blind: e4, f4 and g4, beside paper
    lifted out of a hard shadow; 7 cells in doubt when it did not)."""
    photo = family_photo(5500020, "light")
    result = read_photo(photo.jpeg)
    assert {"e5", "f5"} <= flagged(result)
    assert not wrong_items(result, photo.truth) - flagged(result)
    assert result.quilt.is_covered(4, 4)  # e5, offered as shaded
    leaked = make_photo(27, "harsh")
    result = read_photo(leaked.jpeg)
    assert "h8" in flagged(result)
    assert_exact(result, leaked.truth)
    grey = make_photo(54010, "moderate")
    result = read_photo(grey.jpeg)
    assert not wrong_items(result, grey.truth) - flagged(result)
    assert sum(doubt.kind == "cell" for doubt in result.uncertain) <= 4


def test_paper_outlined_as_a_patch_of_its_own_under_a_shadow_is_in_doubt(monkeypatch):
    """Sharpened 840009 (blind): i8, a light fill outlined on its own against the grid's border, under a hard
    shadow that took it in, read 0.035 of ink once the shadow was taken out: paper, sure. Read in the photo's own
    light it is pencil, and a player outlines a patch to shade it: in doubt."""
    photo = styled_photo(840009, "moderate", sharpen=2.0)
    assert photo.truth.quilt.is_covered(7, 8)
    result = read_photo(photo.jpeg)
    assert not wrong_items(result, photo.truth) - flagged(result)
    monkeypatch.setattr(stages, "outlined_alone", lambda drawn, cells: set())
    before = read_photo(photo.jpeg)
    assert "i8" in wrong_items(before, photo.truth) - flagged(before)


def test_paper_in_a_patchs_outline_under_a_shadow_is_in_doubt(monkeypatch):
    """Light 4900003 (blind): a9, a grey fill in the grid's corner outlined with b9-d9 (shaded), under a hand's soft
    shadow taken out as a hard one 0.35 deep, read 0.03 of ink: paper, sure. A cell a drawn outline takes in with
    shaded cells, read as paper only because a shadow was taken out, is in doubt now."""
    from doodle.sheet import stages

    photo = family_photo(4900003, "light")
    result = read_photo(photo.jpeg)
    assert "a9" in wrong_items(result, photo.truth)
    assert not wrong_items(result, photo.truth) - flagged(result)
    monkeypatch.setattr(stages, "inside_outlines", lambda drawn, shaded, cells: set())
    before = read_photo(photo.jpeg)
    assert "a9" in wrong_items(before, photo.truth) - flagged(before)
