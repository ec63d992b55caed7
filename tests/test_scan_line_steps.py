"""Cells the light leaves in doubt are settled by the printed lines around them (doodle/sheet/line_steps.py):
pencil steps at the grid's lines, light runs on through them."""

from __future__ import annotations

import cv2
import numpy as np

from doodle.quilt import SIZE
from doodle.sheet import layout
from doodle.sheet.line_steps import (
    LineStep,
    colour_gap,
    fine_texture,
    line_crosses,
    line_step,
    middle_against_sides,
    settle,
)
from doodle.sheet.scan import PX_PER_MM, read_photo
from doodle.sheet.tuning import TUNING
from tests.photogen import make_photo
from tests.photogen_families import family_photo
from tests.photogen_styles import styled_photo
from tests.test_scan import flagged, wrong_items
from tests.test_scan_cover import _grid_sheet
from tests.test_scan_stain_rings import cell_index


def _soft_shadow(sheet: np.ndarray, edge_x_mm: float, width_mm: float, depth: float) -> np.ndarray:
    """`sheet` under a shadow `depth` deep to the left of `edge_x_mm`, its penumbra `width_mm` wide."""
    xs = (np.arange(sheet.shape[1]) + 0.5) / PX_PER_MM
    lit = 1.0 / (1.0 + np.exp(-(xs - edge_x_mm) * 8.0 / width_mm))  # 0 in the shadow, 1 in the light
    gain = (1.0 - depth) + depth * lit
    return np.clip(sheet.astype(np.float32) * gain[None, :, None], 0, 255).astype(np.uint8)


def _filled(sheet: np.ndarray, name: str, ink: float, inset_mm: float = -0.3) -> None:
    """Cell `name` filled evenly with `ink` (its share of the light taken), to `inset_mm` inside its lines."""
    x0, y0, x1, y1 = layout.cell_rect(*divmod(cell_index(name), SIZE)).inset(inset_mm).to_px(PX_PER_MM)
    sheet[y0:y1, x0:x1] = (sheet[y0:y1, x0:x1] * (1.0 - ink)).astype(np.uint8)


def _cell(name: str) -> tuple[int, int]:
    return divmod(cell_index(name), SIZE)


def _step(sheet: np.ndarray, first: str, second: str) -> LineStep:
    found = line_step(sheet, np.ones(sheet.shape[:2], bool), PX_PER_MM, _cell(first), _cell(second), TUNING)
    assert found is not None
    return found


def test_a_soft_shadow_runs_on_through_the_lines_and_a_fill_steps_at_them():
    """A hand's shadow half deep with a 40 mm penumbra across columns c to f: paper runs on through every line.
    Fills under it and beside it step at their lines, darker inside, whatever the light (a light fill too)."""
    grid = layout.GRID_RECT
    sheet = _grid_sheet()
    _filled(sheet, "b2", 0.15)
    _filled(sheet, "g7", 0.45)
    _filled(sheet, "d8", 0.45)
    sheet = _soft_shadow(sheet, grid.x + 4 * layout.CELL_MM, 40.0, 0.5)
    for first, second in (("c5", "d5"), ("d5", "e5"), ("e5", "f5"), ("e5", "e6")):
        assert abs(_step(sheet, first, second).step) < TUNING.line_step_smooth, (first, second)
    light = _step(sheet, "b2", "a2")
    assert light.step > 2 * TUNING.line_step_smooth  # brighter beyond: b2 is darker than its neighbour
    for first, second in (("g7", "h7"), ("d8", "e8"), ("d8", "c8")):  # in the light, in the penumbra, both sides
        found = _step(sheet, first, second)
        assert found.step >= TUNING.line_step_fill and abs(found.bend) < TUNING.line_step_flat * found.step
    assert _step(sheet, "h7", "g7").step <= -TUNING.line_step_fill  # the other way round: darker beyond


def test_a_fill_stopping_short_of_its_line_or_fading_towards_it_is_neither_a_flat_step_nor_light():
    """A fill 2.5 mm short of its lines bends the ramp at the line: no flat step. A light fill that fades out
    towards its line over 6 mm (light shading, feathered) carries on the ramp the strips show, but bends it: it is
    not taken for light running on (which would read it as paper)."""
    sheet = _grid_sheet()
    _filled(sheet, "c3", 0.45, inset_mm=2.5)
    found = _step(sheet, "c3", "d3")
    assert not (found.step >= TUNING.line_step_fill and abs(found.bend) < TUNING.line_step_flat * found.step)
    feathered = _grid_sheet()
    x0, y0, x1, y1 = layout.cell_rect(*divmod(cell_index("f6"), SIZE)).to_px(PX_PER_MM)
    depth = np.clip((x1 - np.arange(x0, x1) - 0.5) / (6.0 * PX_PER_MM), 0.0, 1.0)  # 0 at g6's line, full 6 mm in
    feathered[y0:y1, x0:x1] = (feathered[y0:y1, x0:x1] * (1.0 - 0.3 * depth)[None, :, None]).astype(np.uint8)
    found = _step(feathered, "f6", "g6")
    assert not (abs(found.step) < TUNING.line_step_smooth and abs(found.bend) < TUNING.line_step_bend)


def test_clipped_paper_beside_a_line_settles_nothing():
    """A glare washes a fill out to white: where the strips reach clipped paper, no step is measured."""
    sheet = _grid_sheet()
    _filled(sheet, "e5", 0.4)
    x0, y0, x1, y1 = layout.cell_rect(4, 5).to_px(PX_PER_MM)
    sheet[y0 + 20 : y0 + 30, x0 + 8 : x0 + 16] = 255
    inside = np.ones(sheet.shape[:2], bool)
    assert line_step(sheet, inside, PX_PER_MM, _cell("e5"), _cell("f5"), TUNING) is None
    assert line_step(sheet, inside, PX_PER_MM, _cell("e5"), _cell("d5"), TUNING) is not None


def test_steps_under_a_shadow_taken_out_too_deep_are_measured_over_its_gain_where_lifting_it_clips():
    """A hand's soft shadow half deep over the left half, taken out as 0.7 deep: lifted to 8 bits, its paper clips
    at 255 and a strip there measures nothing. Measured over the gain, in floats, paper runs on through its lines
    (the shadow and the gain are both smooth) and a fill under the shadow steps at them. The photo's own clipped
    paper still settles nothing."""
    grid = layout.GRID_RECT
    xs = (np.arange(_grid_sheet().shape[1]) + 0.5) / PX_PER_MM
    lit = 1.0 / (1.0 + np.exp(-(xs - (grid.x + 5 * layout.CELL_MM)) * 8.0 / 30.0))
    sheet = _grid_sheet()
    _filled(sheet, "b5", 0.3)
    photo = (sheet * (0.5 + 0.5 * lit)[None, :, None]).astype(np.uint8)
    gain = np.repeat((0.3 + 0.7 * lit).astype(np.float32)[None, :], sheet.shape[0], axis=0)
    inside = np.ones(photo.shape[:2], bool)
    lifted = np.clip(photo / gain[..., None], 0, 255).astype(np.uint8)
    assert line_step(lifted, inside, PX_PER_MM, _cell("c5"), _cell("d5"), TUNING) is None  # clipped
    for first, second in (("c5", "d5"), ("c4", "c5"), ("a4", "b4"), ("c6", "d6")):
        found = line_step(photo, inside, PX_PER_MM, _cell(first), _cell(second), TUNING, gain)
        assert found is not None and found.runs_on(TUNING), (first, second, found)
    for other in ("a5", "c5", "b4", "b6"):
        found = line_step(photo, inside, PX_PER_MM, _cell("b5"), _cell(other), TUNING, gain)
        assert found is not None and found.flat_step(TUNING), (other, found)
    assert abs(middle_against_sides(photo, PX_PER_MM, _cell("c5"), TUNING, gain)) < TUNING.line_step_smooth
    x0, y0, x1, y1 = layout.cell_rect(*_cell("d5")).to_px(PX_PER_MM)
    photo[y0 + 20 : y0 + 30, x0 + 8 : x0 + 16] = 255  # a glare spot just inside d5's left side
    assert line_step(photo, inside, PX_PER_MM, _cell("d5"), _cell("c5"), TUNING, gain) is None


SMOOTH, FLAT, BENT = LineStep(0.005, 0.0), LineStep(0.5, 0.02), LineStep(0.5, 0.3)


def test_settling_runs_from_paper_through_smooth_lines_and_stops_at_steps():
    """Cells b1-e1 in doubt, in a row beside a1 (paper): b1 and c1 run on from it, d1 is a flat step darker than c1
    (so shaded), e1 runs on from d1 (shaded too). b3, beside paper only across a bent ramp, stays in doubt; b5
    runs on from a faint sure fill (not heavy: a stain or an erased patch's ghost may be read so) and stays too;
    b7 runs on from a heavy fill; a9 runs on from the margin beside the grid."""
    a1, b1, c1, d1, e1 = (0, 0), (0, 1), (0, 2), (0, 3), (0, 4)
    a3, b3, a5, b5, a7, b7, a9 = (2, 0), (2, 1), (4, 0), (4, 1), (6, 0), (6, 1), (8, 0)
    margin = (8, -1)
    steps = {
        b1: {a1: SMOOTH, c1: SMOOTH},
        c1: {b1: SMOOTH, d1: LineStep(-0.5, 0.02)},
        d1: {c1: FLAT, e1: SMOOTH},
        e1: {d1: SMOOTH},
        b3: {a3: BENT},
        b5: {a5: SMOOTH},
        b7: {a7: SMOOTH},
        a9: {margin: SMOOTH},
    }
    settled = settle(steps.keys(), paper={a1, a3}, heavy={a7}, step_between=steps, t=TUNING, margin={margin})
    assert settled == {b1: False, c1: False, d1: True, e1: True, b7: True, a9: False}
    # A step against the margin (its labels printed there) settles nothing; nor does one into a tint that may be a
    # stain's (a tea ring's edge may lie along a line by chance); light running on from paper still settles it.
    assert settle({a9}, paper=set(), heavy=set(), step_between={a9: {margin: FLAT}}, t=TUNING, margin={margin}) == {}
    assert settle({d1}, paper={c1}, heavy=set(), step_between={d1: {c1: FLAT}}, t=TUNING, tints={d1}) == {}
    assert settle({d1}, paper={c1}, heavy=set(), step_between={d1: {c1: SMOOTH}}, t=TUNING, tints={d1}) == {
        d1: False}
    assert settle({b1}, paper={a1}, heavy=set(), step_between={b1: {a1: None}}, t=TUNING) == {}


def test_a_cell_darker_than_any_neighbour_by_a_fill_s_flat_step_is_shaded():
    """c4 and d4 in doubt, no cell beside them known: c4 is darker than d4 by an even fill's step with flat sides,
    so c4 is no paper, whatever d4 is (nothing but a fill is darker than its neighbour so); d4, brighter than a
    fill, may be paper or a lighter fill, and stays in doubt. Not a tint that may be a stain's."""
    c4, d4 = (3, 2), (3, 3)
    steps = {c4: {d4: FLAT}, d4: {c4: FLAT.reversed()}}
    assert settle({c4, d4}, paper=set(), heavy=set(), step_between=steps, t=TUNING) == {c4: True}
    assert settle({c4, d4}, paper=set(), heavy=set(), step_between=steps, t=TUNING, tints={c4}) == {}


def test_a_solid_patch_among_cells_in_doubt_under_a_deep_soft_shadow_is_settled():
    """Light 8 (tuning): a hand's soft shadow 0.4 deep over a sheet of steep light, only 3 cells known as paper. A
    solid patch (c4, d4, e4, d5, 0.57-0.60 of ink) stepped at its lines into cells in doubt only, and stayed in
    doubt: 10 cells in all. Darker than its neighbours by a fill's step, it is settled as shaded."""
    photo = family_photo(8, "light")
    result = read_photo(photo.jpeg)
    assert not {"c4", "d4", "e4", "d5"} & flagged(result)
    assert not wrong_items(result, photo.truth) - flagged(result)
    assert sum(doubt.kind == "cell" for doubt in result.uncertain) <= 4


def test_the_margin_beside_the_grid_is_measured_and_the_photo_s_edge_is_not():
    """Paper runs on from a1 into the margin above it and to its left; a fill in i9 steps at the grid's outer
    line. Where the strips reach beyond the photo, nothing is measured."""
    sheet = _grid_sheet()
    _filled(sheet, "i9", 0.45)
    inside = np.ones(sheet.shape[:2], bool)
    for margin in ((-1, 0), (0, -1)):
        found = line_step(sheet, inside, PX_PER_MM, (0, 0), margin, TUNING)
        assert found is not None and abs(found.step) < TUNING.line_step_smooth, margin
    found = line_step(sheet, inside, PX_PER_MM, (8, 8), (8, 9), TUNING)
    assert found is not None and found.step >= TUNING.line_step_fill
    x0 = round((layout.GRID_RECT.x - 4.0) * PX_PER_MM)
    inside[:, :x0] = False
    assert line_step(sheet, inside, PX_PER_MM, (0, 0), (0, -1), TUNING) is None
    assert line_step(sheet, inside, PX_PER_MM, (0, 0), (-1, 0), TUNING) is not None


def test_a_soft_shadow_over_the_grid_leaves_few_cells_in_doubt():
    """Light 36 and 38 (tuning seeds): a hand's shadow 14 mm soft, and a lamp's tungsten with a glare beside the
    grid. 29 and 20 cells were in doubt before the lines settled them; every cell reads right."""
    for seed in (36, 38):
        photo = family_photo(seed, "light")
        result = read_photo(photo.jpeg)
        assert result.quilt == photo.truth.quilt, seed
        assert sum(doubt.kind == "cell" for doubt in result.uncertain) <= 5, seed


def test_cells_under_a_soft_shadow_taken_out_too_deep_are_settled_by_their_lines():
    """Light 156 and 198 (tuning seeds): hands' soft shadows taken out deeper than they were, their paper lifted
    past 8 bits. Measured on the lifted 8-bit sheet, the lines there showed nothing and 27 and 3 cells were in doubt;
    measured over the gain, at most 10 and 1 are, and nothing is wrong without a doubt."""
    for seed, most in ((156, 10), (198, 1)):
        photo = family_photo(seed, "light")
        result = read_photo(photo.jpeg)
        assert not wrong_items(result, photo.truth) - flagged(result), seed
        assert sum(doubt.kind == "cell" for doubt in result.uncertain) <= most, seed


def test_with_no_cell_sure_to_be_paper_the_paper_beside_the_grid_tells_paper_s_texture():
    """Mixed 5400008 (blind): mixed lamps and a photo sharpened hard, not denoised. Every empty cell read 0.09 of
    ink over a threshold of 0.04, in doubt, and with no sure paper cell to tell how much texture paper has in the
    photo, none was settled: 61 cells in doubt, 37 read shaded. The bare paper beside the grid tells it."""
    photo = family_photo(5400008, "mixed")
    result = read_photo(photo.jpeg)
    assert not wrong_items(result, photo.truth) - flagged(result)
    assert sum(doubt.kind == "cell" for doubt in result.uncertain) <= 3


def test_a_mark_in_the_middle_of_a_cell_clear_of_the_strips_shows_against_its_sides():
    """A light dab of pencil in the middle of e5 (5 mm across, clear of every strip the lines are measured in) and
    a soft shadow's ramp across f5: the dab's middle is darker than its sides say, the ramp's is not."""
    grid = layout.GRID_RECT
    sheet = _grid_sheet()
    x0, y0, x1, y1 = layout.cell_rect(4, 4).inset(5.5).to_px(PX_PER_MM)
    sheet[y0:y1, x0:x1] = (sheet[y0:y1, x0:x1] * 0.85).astype(np.uint8)
    sheet = _soft_shadow(sheet, grid.x + 5.5 * layout.CELL_MM, 30.0, 0.5)
    assert middle_against_sides(sheet, PX_PER_MM, (4, 4), TUNING) < -2 * TUNING.line_step_smooth
    assert abs(middle_against_sides(sheet, PX_PER_MM, (4, 5), TUNING)) < TUNING.line_step_smooth / 2


def test_strokes_a_blur_hid_are_texture_paper_has_not_and_are_never_settled_as_paper():
    """A scribble shaken into horizontal bands over f4 (the stroke finder may miss them, and strips along a line can
    fall between two bands): its fine texture is several times paper's, and a smooth line from paper does not
    settle it as paper (a step from a heavy fill still settles a cell)."""
    sheet = _grid_sheet()
    x0, y0, x1, y1 = layout.cell_rect(3, 5).inset(-0.3).to_px(PX_PER_MM)
    for y in range(y0 + 4, y1, 10):  # a band every 2.5 mm
        sheet[y : y + 4, x0:x1] = (sheet[y : y + 4, x0:x1] * 0.75).astype(np.uint8)
    sheet = cv2.GaussianBlur(sheet, (0, 0), 1.0)
    texture = fine_texture(sheet, PX_PER_MM, [(3, 5), (3, 4), (5, 5)], TUNING)
    paper = (texture[(3, 4)] + texture[(5, 5)]) / 2
    assert texture[(3, 5)] > TUNING.line_step_grain * max(paper, 1e-3)
    f4, e4, g4 = (3, 5), (3, 4), (3, 6)
    steps = {f4: {e4: SMOOTH}}
    assert settle({f4}, paper={e4}, heavy=set(), step_between=steps, t=TUNING, textured={f4}) == {}
    assert settle({f4}, paper=set(), heavy={g4}, step_between={f4: {g4: SMOOTH}}, t=TUNING, textured={f4}) == {
        f4: True}


def test_in_a_blurred_photo_the_lines_settle_nothing():
    """Shaken-hard 580007 (blind): a phone moved as the photo was taken, the grid's printed lines barely show. The
    blur hid d1's zigzag from the stroke finder and spread its step at the grid's border into a ramp, which ran on
    into the margin: d1 was settled as paper, unflagged. In a photo so blurred the lines settle no cell. (Since a
    blurred photo's strokes are found at the contrast its print shows, d1's zigzag is found and d1 read shaded.)"""
    photo = styled_photo(580007, "mild", shake=0.015)
    result = read_photo(photo.jpeg)
    assert not result.rounds_read  # read from the grid alone: its markers blurred away, its rounds not read
    assert photo.truth.quilt.is_covered(0, 3)
    assert result.quilt.is_covered(0, 3) or "d1" in flagged(result)
    assert not {name for name in wrong_items(result, photo.truth) if not name.startswith("round")} - flagged(result)


def test_a_cell_is_settled_only_where_its_neighbours_agree():
    """e5 shaded over its top half runs on into paper below it and steps from paper above it: neither paper nor
    shaded. A line to paper darker on the cell's side objects to paper, whatever else runs on."""
    e5, e4, e6, d5 = (4, 4), (3, 4), (5, 4), (4, 3)
    half = {e5: {e6: SMOOTH, e4: FLAT}}
    assert settle({e5}, paper={e4, e6}, heavy=set(), step_between=half, t=TUNING) == {}
    darker = {e5: {e6: SMOOTH, d5: LineStep(0.1, 0.2)}}  # a bent step, darker on e5's side
    assert settle({e5}, paper={d5, e6}, heavy=set(), step_between=darker, t=TUNING) == {}


def test_a_fill_s_edge_is_paper_brighter_beyond_its_line_without_a_bend():
    """Light running on shows no fill's edge, nor does a line where the paper beyond is darker than the cell's side
    (mixed 5000018: e6, empty, against e7's paper, -0.033); paper brighter by a fill's least step, or a bend, is
    one, or may be."""
    assert SMOOTH.no_fill_edge(TUNING)
    assert LineStep(-0.033, -0.017, 0.033, 0.017).no_fill_edge(TUNING)
    assert not LineStep(-0.033, -0.017, 0.033, 0.017).runs_on(TUNING)
    assert not LineStep(TUNING.line_step_smooth + 0.005, 0.0, TUNING.line_step_smooth + 0.005, 0.0).no_fill_edge(TUNING)
    assert not LineStep(0.0, 0.0, 0.0, TUNING.line_step_bend + 0.01).no_fill_edge(TUNING)
    assert not FLAT.no_fill_edge(TUNING) and not BENT.no_fill_edge(TUNING)


def test_a_pale_yellow_fill_fading_to_its_line_does_not_run_on():
    """A pale yellow fill darkens blue alone; fading to its line over 6 mm it bends there in blue, while red and
    green run on: the sheet runs on through the line only where every channel does."""
    sheet = _grid_sheet()
    x0, y0, x1, y1 = layout.cell_rect(*divmod(cell_index("f6"), SIZE)).to_px(PX_PER_MM)
    depth = np.clip((x1 - np.arange(x0, x1) - 0.5) / (6.0 * PX_PER_MM), 0.0, 1.0)
    blue = sheet[y0:y1, x0:x1, 0].astype(np.float32) * (1.0 - 0.35 * depth)[None, :]
    sheet[y0:y1, x0:x1, 0] = blue.astype(np.uint8)
    # Red a little brighter beyond the line (as noise may make it): red steps most, and bends not at all.
    gx0, gy0, gx1, gy1 = layout.cell_rect(*divmod(cell_index("g6"), SIZE)).inset(0.5).to_px(PX_PER_MM)
    sheet[gy0:gy1, gx0:gx1, 2] = np.clip(sheet[gy0:gy1, gx0:gx1, 2] * 1.025, 0, 255).astype(np.uint8)
    found = _step(sheet, "f6", "g6")
    assert abs(found.bend) < TUNING.line_step_bend < found.largest_bend  # the step's channel is not blue
    assert not found.runs_on(TUNING)
    assert abs(_step(_grid_sheet(), "f6", "g6").step) < TUNING.line_step_smooth


def test_a_coloured_cell_unlike_the_paper_it_runs_on_from_is_not_settled_as_paper():
    """A pale yellow fill in f6 that fades to nothing over the 6 mm before g6 runs on through the line in every
    channel, but its middle is yellower than g6's: not paper, whichever line says so, measured or not. A grey
    shadow's ramp across paper changes no colour."""
    sheet = _grid_sheet()
    x0, y0, x1, y1 = layout.cell_rect(*_cell("f6")).to_px(PX_PER_MM)
    depth = np.clip((x1 - np.arange(x0, x1) - 0.5) / (6.0 * PX_PER_MM), 0.0, 1.0)
    blue = sheet[y0:y1, x0:x1, 0].astype(np.float32) * (1.0 - 0.1 * depth)[None, :]
    sheet[y0:y1, x0:x1, 0] = blue.astype(np.uint8)
    assert _step(sheet, "f6", "g6").runs_on(TUNING)
    assert colour_gap(sheet, PX_PER_MM, _cell("f6"), _cell("g6"), TUNING) > TUNING.line_step_colour
    shaded = _soft_shadow(_grid_sheet(), edge_x_mm=layout.cell_rect(*_cell("g6")).x, width_mm=30.0, depth=0.5)
    assert colour_gap(shaded, PX_PER_MM, _cell("f6"), _cell("g6"), TUNING) < TUNING.line_step_colour / 4  # rounding
    f6, g6 = _cell("f6"), _cell("g6")
    smooth = {f6: {g6: SMOOTH}}
    assert settle({f6}, paper={g6}, heavy=set(), step_between=smooth, t=TUNING) == {f6: False}
    assert settle({f6}, paper={g6}, heavy=set(), step_between=smooth, t=TUNING, unlike={(f6, g6)}) == {}
    f5 = _cell("f5")
    unmeasured = {f6: {g6: None, f5: SMOOTH}}  # the line to g6 clipped: f5's paper alone says paper
    assert settle({f6}, paper={g6, f5}, heavy=set(), step_between=unmeasured, t=TUNING, unlike={(f6, g6)}) == {}


def test_a_pale_yellow_fill_under_a_hard_shadow_fading_at_its_line_is_not_settled_as_paper():
    """Harsh 58028 (a blind finding): d1, a pale yellow fill at 0.105 of ink under a hard shadow, faded to paper at
    its line to e1 (0.028 of step) and was settled as paper, unflagged."""
    photo = make_photo(58028, "harsh")
    result = read_photo(photo.jpeg)
    assert not wrong_items(result, photo.truth) - flagged(result)
    assert any(doubt.cell == (0, 3) for doubt in result.uncertain)


def test_a_coloured_cell_is_compared_with_the_margin_s_paper_beside_the_border():
    """i5, a pale yellow fill fading to nothing toward the grid's right border, against the margin's paper beyond it:
    they differ in colour, as f6 and g6 do above; bare i5 does not, the column letters and row numbers printed in
    the margin notwithstanding. A grey shadow's ramp across the border changes no colour."""
    i5, margin = _cell("i5"), (4, SIZE)
    sheet = _grid_sheet()
    x0, y0, x1, y1 = layout.cell_rect(*i5).to_px(PX_PER_MM)
    depth = np.clip((x1 - np.arange(x0, x1) - 0.5) / (6.0 * PX_PER_MM), 0.0, 1.0)
    sheet[y0:y1, x0:x1, 0] = (sheet[y0:y1, x0:x1, 0].astype(np.float32) * (1.0 - 0.1 * depth)[None, :]).astype(
        np.uint8)
    assert colour_gap(sheet, PX_PER_MM, i5, margin, TUNING) > TUNING.line_step_colour
    assert colour_gap(_grid_sheet(), PX_PER_MM, i5, margin, TUNING) < TUNING.line_step_colour / 4
    grid = layout.GRID_RECT
    shaded = _soft_shadow(_grid_sheet(), edge_x_mm=grid.x2, width_mm=30.0, depth=0.5)
    assert colour_gap(shaded, PX_PER_MM, i5, margin, TUNING) < TUNING.line_step_colour / 4
    for square in [(-1, 0), (SIZE, 8), (0, -1), (8, SIZE)]:  # the labels' side and the others
        assert colour_gap(_grid_sheet(), PX_PER_MM, (0, 0) if square[0] <= 0 else (8, 8), square, TUNING) < (
            TUNING.line_step_colour / 4)


def test_a_pale_yellow_fill_in_a_hatched_patch_by_the_border_is_not_settled_as_the_margin_s_paper():
    """Harsh 88001 (blind): g9, pale yellow hatching at 0.07 of ink under a hard shadow, its neighbours its own
    patch's cells in doubt, ran on into the margin below the grid and was settled as paper, unflagged."""
    photo = make_photo(88001, "harsh")
    result = read_photo(photo.jpeg)
    assert photo.truth.quilt.is_covered(8, 6)
    assert not wrong_items(result, photo.truth) - flagged(result)


def test_a_line_across_a_hard_shadow_s_edge_settles_nothing():
    """Over a line a hard shadow's edge crosses, neither a flat step nor light running on settles a cell: the depth
    taken out there may be off, leaving a step or hiding a light fill's. The edge is found in the strips of the
    lines it reaches, and of no other."""
    e5, e4, e6 = (4, 4), (3, 4), (5, 4)
    steps = {e5: {e4: FLAT}}
    assert settle({e5}, paper={e4}, heavy=set(), step_between=steps, t=TUNING) == {e5: True}
    assert settle({e5}, paper={e4}, heavy=set(), step_between=steps, t=TUNING, over_edges={(e5, e4)}) == {}
    smooth = {e5: {e6: SMOOTH}}
    assert settle({e5}, paper={e6}, heavy=set(), step_between=smooth, t=TUNING) == {e5: False}
    assert settle({e5}, paper={e6}, heavy=set(), step_between=smooth, t=TUNING, over_edges={(e5, e6)}) == {}
    both = {e5: {e6: SMOOTH, e4: SMOOTH}}
    assert settle({e5}, paper={e4, e6}, heavy=set(), step_between=both, t=TUNING, over_edges={(e5, e6)}) == {
        e5: False}, "the other line still settles it"
    edge = np.zeros(_grid_sheet().shape[:2], bool)
    y = round((layout.GRID_RECT.y + 4 * layout.CELL_MM + 1.0) * PX_PER_MM)  # 1 mm below e4's bottom line
    edge[y, :] = True
    assert line_crosses(edge, PX_PER_MM, e5, e4, TUNING)
    assert not line_crosses(edge, PX_PER_MM, e5, e6, TUNING)


def test_a_light_fill_beside_a_shadow_s_edge_is_not_settled_as_paper():
    """Harsh 46007 (a blind finding): e4, a light fill at 0.135 of ink under the edge of a hard shadow taken out,
    ran on across that edge into e3's paper, lifted out of the shadow, and was settled as paper, unflagged."""
    photo = make_photo(46007, "harsh")
    result = read_photo(photo.jpeg)
    assert not wrong_items(result, photo.truth) - flagged(result)
    assert result.quilt.is_covered(3, 4)


def test_a_wide_faint_smudge_runs_on_through_its_lines_and_a_faint_fill_steps_at_them():
    """What `stages._tints_running_on` stands on: an eraser's smudge 9% dark in the middle of c4, fading over 7 mm,
    and f6 filled evenly at 0.07 of ink, each among paper: the smudge fades across every line, as light does; the
    fill, as faint, steps at every one."""
    sheet = _grid_sheet()
    _filled(sheet, "f6", 0.07)
    x0, y0, x1, y1 = layout.cell_rect(*_cell("c4")).to_px(PX_PER_MM)
    ys, xs = np.mgrid[0 : sheet.shape[0], 0 : sheet.shape[1]]
    smudge = 0.09 * np.exp(-((xs - (x0 + x1) / 2) ** 2 + (ys - (y0 + y1) / 2) ** 2) / (2 * (7.0 * PX_PER_MM) ** 2))
    sheet = (sheet * (1.0 - smudge[..., None])).astype(np.uint8)
    assert all(_step(sheet, "c4", other).runs_on(TUNING) for other in ("b4", "d4", "c3", "c5"))
    assert not any(_step(sheet, "f6", other).runs_on(TUNING) for other in ("e6", "g6", "f5", "f7"))


def test_a_faint_tint_read_shaded_that_runs_on_into_paper_at_every_line_is_in_doubt():
    """Smudge 430015 (blind): a4, a wide eraser smudge 0.069 of ink over a threshold of 0.040, no strokes, read
    shaded and sure; it runs on into the paper of a3, b4 and a5. Now in doubt (and, far fainter than the sheet's
    shading, offered as empty), and nothing else of the sheet."""
    photo = styled_photo(430015, "mild", distractor="smudge")
    result = read_photo(photo.jpeg)
    assert wrong_items(result, photo.truth) <= {"a4"}
    assert "a4" in flagged(result)


def test_a_tint_in_doubt_no_darker_than_paper_the_lines_settled_near_it_is_offered_as_empty():
    """Mixed 8200013 (blind): a phone's shadow 40 mm soft over the middle of the grid, which the light missed. The
    lines settled c4, c5, d6 and e6 as paper at 0.26-0.28 of ink; f4, empty at 0.22, between three patches whose
    outlines run along its sides and e4 in doubt, was offered as shaded. Mixed 8100000 (blind): a8, empty under a
    hand's shadow, outlined by its neighbours only, likewise. Both are now offered as empty, still in doubt."""
    for seed, cell in ((8200013, "f4"), (8100000, "a8")):
        photo = family_photo(seed, "mixed")
        result = read_photo(photo.jpeg)
        row, col = int(cell[1:]) - 1, ord(cell[0]) - ord("a")
        assert not photo.truth.quilt.is_covered(row, col)
        assert not result.quilt.is_covered(row, col)
        assert cell in flagged(result)
