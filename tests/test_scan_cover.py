"""What covers the sheet (doodle/sheet/cover.py): a thumb holding the sheet down over a corner marker is left out of
the paper; what lies over the grid (a pencil left on it) puts the cells under it in doubt."""

from __future__ import annotations

import re

import cv2
import numpy as np
import pytest

from doodle.quilt import Quilt
from doodle.sheet import layout
from doodle.sheet.cover import (
    COVER_REASON,
    GridPrint,
    cover_doubts,
    cover_note,
    cover_over,
    covered_cells,
    covered_rounds,
    grid_print,
)
from doodle.sheet.scan import PX_PER_MM, ScanResult, read_photo
from doodle.sheet.stages import read_sheet
from tests.photogen import make_photo
from tests.photogen_families import family_photo
from tests.photogen_styles import styled_photo
from tests.test_scan import flagged, wrong_items
from tests.test_scan_outline import _printed_sheet

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


def _grid_sheet() -> np.ndarray:
    """`_sheet` with the grid's lines printed as the PDF prints them."""
    sheet = _sheet()
    grid = layout.GRID_RECT
    for k in range(layout.GRID_SIZE + 1):
        width = layout.GRID_OUTER_LINE_MM if k in (0, layout.GRID_SIZE) else layout.GRID_INNER_LINE_MM
        thick = max(1, round(width * PX_PER_MM))
        x, y = (round((start + k * layout.CELL_MM) * PX_PER_MM) for start in (grid.x, grid.y))
        x0, y0, x1, y1 = grid.to_px(PX_PER_MM)
        sheet[y - thick // 2 : y - thick // 2 + thick, x0:x1] = 25
        sheet[y0:y1, x - thick // 2 : x - thick // 2 + thick] = 25
    return cv2.GaussianBlur(sheet, (0, 0), 0.6)


def test_a_bar_over_the_grid_covers_the_cells_it_crosses_and_print_or_pencil_beside_a_line_none():
    sheet = _grid_sheet()
    assert covered_cells(sheet, PX_PER_MM) == frozenset()
    # Pencil of every kind beside and over the lines: a dark fill over c3 and d3, an outline drawn 1 mm inside
    # e5's sides, a stroke across a line: the print shows through all of it.
    marked = sheet.copy()
    for row, col in ((2, 2), (2, 3)):
        x0, y0, x1, y1 = layout.cell_rect(row, col).inset(-0.3).to_px(PX_PER_MM)
        marked[y0:y1, x0:x1] = (marked[y0:y1, x0:x1] * 0.35).astype(np.uint8)
    x0, y0, x1, y1 = layout.cell_rect(4, 4).inset(1.0).to_px(PX_PER_MM)
    cv2.rectangle(marked, (x0, y0), (x1, y1), (70, 70, 70), 3)
    cx, cy = (round(v * PX_PER_MM) for v in layout.cell_rect(6, 6).center)
    cv2.line(marked, (cx - 40, cy + 50), (cx + 40, cy - 50), (60, 60, 60), 3)
    assert covered_cells(marked, PX_PER_MM) == frozenset()
    # A yellow bar 8 mm wide from the middle of b2 to the middle of f6: the cells it crosses, and past each end the
    # cells a pencil's tip could reach along its axis (a1 and g7), no others.
    covered = sheet.copy()
    start, end = ((round(v * PX_PER_MM) for v in layout.cell_rect(*cell).center) for cell in ((1, 1), (5, 5)))
    cv2.line(covered, tuple(start), tuple(end), (40, 200, 235), round(8 * PX_PER_MM))
    found = covered_cells(covered, PX_PER_MM)
    assert {(2, 2), (3, 3), (4, 4)} <= found
    assert all(abs(row - col) <= 1 and 0 <= row <= 6 for row, col in found)


def test_a_coloured_fill_up_to_a_line_darker_than_the_print_in_one_colour_hides_nothing():
    """A red fill right up to the printed line under it (blind framing 3600012, d8): in the blue it is darker than
    the grey print, and taken for the line it made the line look hidden, and d7 and d8 covered. Each colour has
    its own darkest row: in the red the print is the darkest, a ridge between paper and the fill."""
    sheet = _grid_sheet()
    x0, y0, x1, y1 = layout.cell_rect(3, 3).to_px(PX_PER_MM)
    line = round(layout.GRID_INNER_LINE_MM * PX_PER_MM / 2) + 1
    sheet[y0 + line : y1 - line, x0 + line : x1 - line] = (75, 100, 208)  # BGR: a red pencil's fill
    assert covered_cells(sheet, PX_PER_MM) == frozenset()


def test_a_painted_pencil_over_the_grid_is_found_through_the_grain_of_its_dark_colours():
    """A blue pencil's paint is dark in the red: there the grain alone made the hidden line look darker than the
    paint beside it (0.08-0.2), and a blue pencil across the grid went unseen. The line is measured in the colour
    that is brightest beside it."""
    sheet = _grid_sheet()
    start, end = ((round(v * PX_PER_MM) for v in layout.cell_rect(*cell).center) for cell in ((1, 6), (6, 1)))
    cv2.line(sheet, tuple(start), tuple(end), (190, 70, 35), round(7 * PX_PER_MM))  # BGR: blue paint
    grain = np.random.default_rng(3).normal(0.0, 4.0, sheet.shape)
    grainy = np.clip(sheet + grain, 0, 255).astype(np.uint8)
    found = covered_cells(grainy, PX_PER_MM)
    assert {(2, 5), (3, 4), (4, 3)} <= found
    assert all(abs(row + col - 7) <= 1 for row, col in found)


def test_a_pencil_s_tip_inside_a_cell_beyond_the_last_line_it_hides_is_covered_too():
    """A pencil along row 7 from the left margin, its body (8 mm) over the lines left of d7, its sharpened tip
    (2 mm wide, 14 mm long) on into e7: the tip hides no 6 mm of any line, and e7 was read with it as shaded,
    with no doubt (blind pencil-on-sheet 370023, a8). The axis of the lines it hides runs on into e7."""
    sheet = _grid_sheet()
    grid, cell = layout.GRID_RECT, layout.CELL_MM
    y = round((grid.y + 6 * cell + cell / 2) * PX_PER_MM)
    body_end = grid.x + 3 * cell + 4.0  # 4 mm into d7
    cv2.line(sheet, (0, y), (round(body_end * PX_PER_MM), y), (40, 200, 235), round(8 * PX_PER_MM))
    cv2.line(sheet, (round(body_end * PX_PER_MM), y), (round((body_end + 14.0) * PX_PER_MM), y), (45, 45, 45),
             round(2 * PX_PER_MM))
    found = covered_cells(sheet, PX_PER_MM)
    assert {(6, 0), (6, 1), (6, 2), (6, 3), (6, 4)} <= found
    assert not {(6, 6), (6, 7), (6, 8)} & found
    assert all(row in (5, 6, 7) for row, _ in found)


def _boxed_sheet() -> np.ndarray:
    """`_grid_sheet` with the special actions' squares printed too."""
    sheet = _grid_sheet()
    thick = max(1, round(layout.CHECK_LINE_MM * PX_PER_MM))
    for special in layout.SPECIALS:
        x0, y0, x1, y1 = special.check.to_px(PX_PER_MM)
        cv2.rectangle(sheet, (x0, y0), (x1, y1), (25, 25, 25), thick)
    return sheet


def test_a_pencil_over_a_special_box_covers_it_and_a_cross_or_a_fill_does_not():
    """Blind pencil-on-sheet 390000: a pencil past the grid's edge lay over the 'twice' box, read crossed, with no
    doubt. Its frame does not show through the pencil; it shows through a player's cross and a dark fill."""
    sheet = _boxed_sheet()
    assert grid_print(sheet, PX_PER_MM).covered_specials == ()
    marked = sheet.copy()
    x0, y0, x1, y1 = layout.special_box("neighbour").check.inset(-0.5).to_px(PX_PER_MM)
    cv2.line(marked, (x0, y0), (x1, y1), (60, 60, 60), 3)
    cv2.line(marked, (x0, y1), (x1, y0), (60, 60, 60), 3)
    x0, y0, x1, y1 = layout.special_box("cut").check.inset(-0.3).to_px(PX_PER_MM)
    marked[y0:y1, x0:x1] = (marked[y0:y1, x0:x1] * 0.35).astype(np.uint8)
    assert grid_print(marked, PX_PER_MM).covered_specials == ()
    # A yellow pencil 7 mm wide from above the 'twice' box's middle down through it.
    cx, cy = (round(v * PX_PER_MM) for v in layout.special_box("twice").check.center)
    cv2.line(marked, (cx + 20, cy - 120), (cx - 10, cy + 60), (40, 200, 235), round(7 * PX_PER_MM))
    assert grid_print(marked, PX_PER_MM).covered_specials == ("twice",)


def test_no_box_is_covered_where_the_boxes_are_not_read():
    """A sheet placed from its grid alone (no markers: a hand-ruled grid, a cut sheet) has no boxes read; where
    they would be, the table or anything dark hides no printed frame the reader looks at."""
    sheet = _grid_sheet()
    x0, y0, x1, y1 = layout.special_box("neighbour").box.to_px(PX_PER_MM)
    sheet[y0 - 20 :, :] = (60, 50, 40)  # a dark table beyond the sheet's grid
    assert grid_print(sheet, PX_PER_MM).covered_specials  # looked at, every frame is hidden
    assert grid_print(sheet, PX_PER_MM, boxes=False).covered_specials == ()


def test_a_light_skinned_finger_over_the_grid_is_not_paper():
    """Blind finger-on-sheet 400021: a finger of the lightest skin reached in over g9-i9 from the bottom edge. In blue
    it is 0.65 of paper, over the 0.6 that a pencil's body or a dark fill is under, and the bottom line hidden under
    it was not taken as covered: i9 read shaded, with no doubt. Skin is not paper's hue: bright in red, dim in
    blue."""
    photo = styled_photo(400021, "mild", distractor="finger on sheet")
    assert not photo.truth.quilt.is_covered(8, 8)
    result = read_photo(photo.jpeg)
    assert wrong_items(result, photo.truth) <= flagged(result)
    assert any(doubt.name == "i9" and doubt.reason == COVER_REASON for doubt in result.uncertain)


def test_a_pencil_left_over_a_box_puts_the_box_in_doubt():
    """Blind pencil-on-sheet 390000: the pencil ran from i1 past the grid's edge over the unused 'twice' box,
    which read crossed, with no doubt."""
    photo = styled_photo(390000, "mild", distractor="pencil on sheet")
    assert "twice" not in photo.truth.specials_used
    result = read_photo(photo.jpeg)
    assert wrong_items(result, photo.truth) <= flagged(result)
    assert any(doubt.kind == "special" and doubt.special == "twice" and doubt.reason == COVER_REASON
               for doubt in result.uncertain)
    assert any("'twice' box" in note for note in result.notes)


@pytest.mark.parametrize("seed", [1, 2, 4, 7, 12, 13, 22, 10000])
def test_a_pencil_left_on_the_sheet_puts_the_cells_under_it_in_doubt(seed):
    """A pencil lying across the grid reads as shading where it lies over empty cells, and hides shading where it
    lies over shaded ones: its cells read wrongly, with no doubt, on 20 of pencil-on-sheet 0-23. The print does
    not show through it: the cells beside where the lines are hidden are in doubt, and a note says so."""
    photo = styled_photo(seed, "mild", distractor="pencil on sheet")
    result = read_photo(photo.jpeg)
    assert wrong_items(result, photo.truth) <= flagged(result)
    assert any(doubt.reason == COVER_REASON for doubt in result.uncertain)
    assert any(note.startswith("something lies over") for note in result.notes)


def test_a_pencil_s_tip_may_reach_past_the_next_line_along_a_steep_axis():
    """Blind pencil-on-sheet 520021: the pencil slants down along column c; the last line it hid was c7's top, its
    body ended in c7, and its tip over c8, more than 16 mm past that line, read shaded with no doubt. Along so
    steep an axis the next line is 17 mm on, and the tip may reach 16 mm past that."""
    photo = styled_photo(520021, "mild", distractor="pencil on sheet")
    assert not photo.truth.quilt.is_covered(7, 2)
    result = read_photo(photo.jpeg)
    assert any(doubt.name == "c8" and doubt.reason == COVER_REASON for doubt in result.uncertain)
    assert wrong_items(result, photo.truth) <= flagged(result)


@pytest.mark.parametrize("seed", [0, 5, 11])
def test_a_finger_holding_the_sheet_down_over_the_grid_puts_the_cells_under_it_in_doubt(seed):
    """A finger over the grid (finger-on-sheet, a family the cover was not tuned on): skin reads as a coloured fill
    over empty cells. The print does not show through it either, so its cells are in doubt and a note says so;
    nothing is read wrong without a doubt."""
    photo = styled_photo(seed, "mild", distractor="finger on sheet")
    result = read_photo(photo.jpeg)
    assert wrong_items(result, photo.truth) <= flagged(result)
    assert any(doubt.reason == COVER_REASON for doubt in result.uncertain)
    assert any(note.startswith("something lies over") for note in result.notes)


def test_a_finger_s_skin_is_not_a_fill_s_colour():
    """Finger-on-sheet 4: a fingertip lies over i6, which is empty. In doubt as covered, it is offered as its lines
    show it, paper: the skin's warm hue beside the paper of h6 is what lies over the cell, not a pencil's fill
    fading at its line; nor does the skin's ink (0.15, over a threshold of 0.056) make it sure enough to be left
    unsettled (with the finger's shadow drawn whole, i6's ink read sure, and while only cells in doubt were
    settled by their lines, it was offered as shaded)."""
    photo = styled_photo(4, "mild", distractor="finger on sheet")
    assert not photo.truth.quilt.is_covered(5, 8)
    result = read_photo(photo.jpeg)
    assert any(doubt.name == "i6" and doubt.reason == COVER_REASON for doubt in result.uncertain)
    assert not result.quilt.is_covered(5, 8)
    assert wrong_items(result, photo.truth) == set()


@pytest.mark.parametrize(("level", "seed"), [("mild", 0), ("harsh", 2), ("harsh", 25)])
def test_a_sheet_with_nothing_over_it_has_no_cover(level, seed):
    _assert_no_cover(read_photo(make_photo(seed, level).jpeg))


@pytest.mark.parametrize(("family", "seed"), [("lens", 8000008), ("lens", 8000010), ("sensor", 8300005)])
def test_a_line_shows_beside_an_outline_darker_than_it_or_through_a_lens_s_colour_fringes(family, seed):
    """What makes a printed line look hidden where nothing lies over it (each was found covered, with a note
    sending the player to look for a pencil):
    - lens 8000008: g1's outline, drawn 0.6 mm inside its side and darker than the print, was taken for the f1-g1
      line (the darkest row near it), and against g1's fill beyond it the line was no ridge. The line is the row
      that is most a ridge.
    - lens 8000010: colour fringes smeared the b1-c1 line in the blue, where it was measured (the colour brightest
      beside it), and it was no darker there than c1's grey fill. The line is measured in each colour with light
      enough beside it, and shows by the colour it stands out most in.
    - sensor 8300005: beside i3's red fill the line stands out in the red only (taking the middle of the three
      colours lost it)."""
    _assert_no_cover(read_photo(family_photo(seed, family).jpeg))


def _assert_no_cover(result: ScanResult) -> None:
    assert not any(note.startswith("something lies over") for note in result.notes)
    assert not any(doubt.reason == COVER_REASON for doubt in result.uncertain)


def _bubbled_sheet() -> np.ndarray:
    """`_grid_sheet` with the rounds' bubbles printed: thin grey rings, a faint digit in each."""
    sheet = _grid_sheet()
    for block in layout.ROUNDS:
        for place in layout.PLACES:
            for digit in range(10):
                cx, cy = layout.bubble_center(block.number, place, digit)
                centre = (round(cx * PX_PER_MM * 16), round(cy * PX_PER_MM * 16))
                cv2.circle(sheet, centre, round(layout.BUBBLE_RADIUS_MM * PX_PER_MM * 16), (110, 110, 110), 1,
                           cv2.LINE_AA, 4)
                cv2.putText(sheet, str(digit), (round(cx * PX_PER_MM) - 2, round(cy * PX_PER_MM) + 3),
                            cv2.FONT_HERSHEY_PLAIN, 0.5, (170, 170, 170), 1, cv2.LINE_AA)
    return sheet


def _bubble_px(number: int, place: str, digit: int) -> tuple[int, int]:
    x, y = layout.bubble_center(number, place, digit)
    return round(x * PX_PER_MM), round(y * PX_PER_MM)


def test_a_pencil_or_a_finger_over_the_bubbles_covers_their_round_and_a_fill_a_mark_or_a_shadow_does_not():
    """A pencil's end lay over an empty bubble of round 1, read as a score of 0 with no doubt. What lies over a
    bubble hides its printed ring, and the paper on both sides of it; a player's fill hides the thin ring too, but
    paper lies around it. A ring drawn round a bubble, a cross, and a shadow (the ring shows in it) cover
    nothing."""
    sheet = _bubbled_sheet()
    assert grid_print(sheet, PX_PER_MM).covered_rounds == ()
    marked = sheet.copy()
    for number, place, digit in ((1, "tens", 3), (1, "units", 7), (2, "units", 0), (3, "tens", 9)):
        cv2.circle(marked, _bubble_px(number, place, digit), round(2.6 * PX_PER_MM), (55, 55, 55), -1)  # spills over
    cx, cy = _bubble_px(2, "tens", 5)
    cv2.circle(marked, (cx, cy), round(3.1 * PX_PER_MM), (70, 70, 70), 2)  # a ring drawn round a bubble
    cx, cy = _bubble_px(3, "units", 4)
    cv2.line(marked, (cx - 10, cy - 10), (cx + 10, cy + 10), (70, 70, 70), 2)
    cv2.line(marked, (cx - 10, cy + 10), (cx + 10, cy - 10), (70, 70, 70), 2)
    shadowed = marked.copy()
    x0, y0, x1, y1 = layout.ROUNDS[1].box.to_px(PX_PER_MM)
    half = shadowed[y0 - 20 : y1 + 20, (x0 + x1) // 2 :]
    half[:] = (half * 0.5).astype(np.uint8)  # a shadow over half of round 2
    assert grid_print(marked, PX_PER_MM).covered_rounds == ()
    assert grid_print(shadowed, PX_PER_MM).covered_rounds == ()
    # A red pencil 7 mm wide, its end over round 3's bubbles; a light-skinned finger's tip over round 1's.
    cx, cy = _bubble_px(3, "units", 2)
    cv2.line(marked, (cx - 150, cy + 120), (cx, cy), (40, 40, 190), round(7 * PX_PER_MM))
    cx, cy = _bubble_px(1, "tens", 8)
    cv2.ellipse(marked, (cx, cy - 30), (round(8 * PX_PER_MM), round(20 * PX_PER_MM)), 0, 0, 360, (170, 200, 235), -1)
    shown = grid_print(marked, PX_PER_MM)
    assert shown.covered_rounds == (1, 3)
    assert "the bubbles of rounds 1 and 3" in cover_note(shown, (12, None, 40))
    doubts = cover_doubts(shown, Quilt.from_cells({}), (), (12, None, 40))
    assert [(d.kind, d.round, d.read) for d in doubts] == [("round", 1, True), ("round", 3, True)]
    assert all(COVER_REASON in d.reason for d in doubts)


def test_the_tip_of_what_covers_one_round_over_a_bubble_of_the_next_covers_it_too():
    """A finger over round 3's bubbles, its tip 2 mm over the foot of round 2's units 6, hides less than half of
    that ring (finger-over-bubbles 430008, blind: round 2 read as a score of 6, unflagged). What lies over one
    round is long: the round its tip reaches is covered too. The same tip with nothing over round 3 is not."""
    sheet = _bubbled_sheet()
    cx, cy = _bubble_px(2, "units", 6)
    tip = cy + round((layout.BUBBLE_RADIUS_MM - 2.0) * PX_PER_MM)
    finger = sheet.copy()
    cv2.ellipse(finger, (cx, tip + round(30 * PX_PER_MM)), (round(8 * PX_PER_MM), round(30 * PX_PER_MM)), 0, 0, 360,
                (170, 200, 235), -1)
    assert grid_print(finger, PX_PER_MM).covered_rounds == (2, 3)
    alone = sheet.copy()
    cv2.circle(alone, (cx, tip + round(2.5 * PX_PER_MM)), round(2.5 * PX_PER_MM), (170, 200, 235), -1)
    assert grid_print(alone, PX_PER_MM).covered_rounds == ()


def test_a_bubble_read_filled_beside_a_covered_round_with_its_ring_hidden_in_part_puts_its_round_in_doubt():
    """What lies over round 3 hides a little of round 2's units 6 ring, less than a tip over it would: round 2 is in
    doubt when its score was read with a 6 in the units (the cover may be all that fills it), not otherwise."""
    shown = GridPrint(frozenset(), 1.0, (), (3,), ((2, "units", 6),))
    assert covered_rounds(shown, (None, 6, 40)) == (2, 3)
    assert covered_rounds(shown, (None, 16, 40)) == (2, 3)
    assert covered_rounds(shown, (None, 61, 40)) == (3,)
    assert covered_rounds(shown, (None, None, 40)) == (3,)
    assert "the bubbles of rounds 2 and 3" in cover_note(shown, (None, 6, 40))
    assert "the bubbles of round 3" in cover_note(shown, (None, 5, 40))
    assert [(d.kind, d.round) for d in cover_doubts(shown, Quilt.from_cells({}), (), (None, 6, 40))] == [
        ("round", 2), ("round", 3)]


def test_no_round_is_covered_where_the_bubbles_are_not_read_or_not_in_the_photo():
    sheet = _bubbled_sheet()
    cx, cy = _bubble_px(2, "units", 4)
    cv2.line(sheet, (cx + 200, cy + 5), (cx, cy), (40, 40, 190), round(7 * PX_PER_MM))  # along the units row
    assert grid_print(sheet, PX_PER_MM).covered_rounds == (2,)
    assert grid_print(sheet, PX_PER_MM, boxes=False).covered_rounds == ()
    inside = np.ones(sheet.shape[:2], bool)
    inside[cy:, :] = False  # the photo ends across round 2
    assert grid_print(sheet, PX_PER_MM, inside=inside).covered_rounds == ()


@pytest.mark.parametrize(("seed", "distractor"), [(0, "pencil on sheet"), (4, "finger on sheet"),
                                                 (430008, "finger on sheet"), (830000, "pencil on sheet")])
def test_a_pencil_or_a_finger_over_the_bubbles_is_named_and_its_round_in_doubt(seed, distractor):
    """A pencil or a finger laid through a round's bubble (style families pencil- and finger-over-bubbles): the
    rounds it lies over are in doubt, and the note says what lies over which bubbles, so the player moves it
    (830000, blind: the pencil's side over round 1's units 9 too, a seventh of its ring hidden, read as a score
    of 9 where none was written)."""
    photo = styled_photo(seed, "mild", distractor=distractor, over="bubbles")
    result = read_photo(photo.jpeg)
    assert not wrong_items(result, photo.truth) - flagged(result)
    laid = photo.details["laid_over_round"]
    note = next(note for note in result.notes if note.startswith("something lies over"))
    named = re.search(r"the bubbles of rounds? ([\d, and]+)", note)  # "round 2", "rounds 1, 2 and 3"
    assert named and str(laid) in re.findall(r"\d+", named.group(1))
    assert any(doubt.kind == "round" and doubt.round == laid and COVER_REASON in (doubt.reason or "")
               for doubt in result.uncertain)


def _fills_by_the_foot(bar: bool, letters: bool) -> np.ndarray:
    """A flattened sheet with its grid printed, h8-i9 and d3 filled (blue-grey); with `letters`, the column letters
    under the grid (thin printed strokes); with `bar`, a pencil 7 mm thick lying in the margin beside i9, from 2 mm
    under the grid's foot on down the sheet."""
    sheet = _printed_sheet()
    for row, col in ((8, 8), (8, 7), (7, 8), (2, 3)):
        x0, y0, x1, y1 = layout.cell_rect(row, col).inset(0.6).to_px(PX_PER_MM)
        sheet[y0:y1, x0:x1] = (200, 150, 120)
    grid = layout.GRID_RECT
    if letters:
        for col in range(9):
            at = (round((grid.x + (col + 0.4) * layout.CELL_MM) * PX_PER_MM), round((grid.y2 + 4.0) * PX_PER_MM))
            cv2.putText(sheet, "abcdefghi"[col], at, cv2.FONT_HERSHEY_SIMPLEX, 0.45, (40, 36, 29), 1, cv2.LINE_AA)
    if bar:
        start = (round((grid.x + 8.2 * layout.CELL_MM) * PX_PER_MM), round((grid.y2 + 2.0) * PX_PER_MM))
        end = (round((grid.x + 9.5 * layout.CELL_MM) * PX_PER_MM), round((grid.y2 + 30.0) * PX_PER_MM))
        cv2.line(sheet, start, end, (150, 60, 20), round(7 * PX_PER_MM))
    return sheet


@pytest.mark.parametrize(("bar", "letters", "in_doubt"), [
    (False, False, set()), (False, True, set()), (True, True, {(8, 7), (8, 8)})])
def test_something_dark_in_the_margin_beside_a_fill_along_the_border_puts_it_in_doubt(bar, letters, in_doubt):
    """No player shades the margin. Pencil-over-bubbles 940006 (blind): a blue pencil lay across the grid's foot,
    its end over b9, empty, read as a fill, shaded and sure; the pencil runs on out of the grid, past where a
    felt-tip bleeds. Here a pencil lies in the margin beside i9's fill: i9 and h9 (within half a cell of it) are
    in doubt, still read shaded; the column letters printed there are no such thing, nor is d3 far from it."""
    sheet = _fills_by_the_foot(bar, letters)
    read = read_sheet(sheet, np.ones(sheet.shape[:2], bool), False)
    assert read.quilt.is_covered(8, 8) and read.quilt.is_covered(2, 3)
    assert {doubt.cell for doubt in read.uncertain if doubt.kind == "cell"} == in_doubt


def test_a_pencil_over_the_grid_s_foot_and_the_bubbles_puts_the_cell_under_its_end_in_doubt():
    photo = styled_photo(940006, "mild", distractor="pencil on sheet", over="bubbles")
    result = read_photo(photo.jpeg)
    assert not photo.truth.quilt.is_covered(8, 1)
    assert wrong_items(result, photo.truth) <= flagged(result)
