"""A pass from next door: a straight stroke that runs into an outlined cell across its drawn side from deep in the
cell beyond is no mark of it, and the outline does not vouch for it (issue 15: scribble-outlined 20023, 30007 and
90022 read such cells as shaded and sure)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from doodle.quilt import SIZE
from doodle.sheet import layout
from doodle.sheet.crossings import crossing_margin_px, without_grid_lines
from doodle.sheet.measure import flat_field
from doodle.sheet.outline import drawn_sides
from doodle.sheet.passes import (
    chained,
    ending_in_paper,
    ends_running_on,
    lines_through,
    on_doubted_lines,
    passed_cells,
    turned_through_cells,
)
from doodle.sheet.scan import read_photo
from doodle.sheet.scribbles import sparse_pieces
from doodle.sheet.stages import PX_PER_MM, cell_boxes
from doodle.sheet.strokes import StrokeMap
from doodle.sheet.tuning import TUNING
from tests.photogen_styles import styled_photo
from tests.test_scan import flagged, wrong_items
from tests.test_scan_crossings import PENCIL, _at
from tests.test_scan_outline import _lines, _outline, _printed_sheet

E5, F5 = 4 * SIZE + 4, 4 * SIZE + 5


def _strokes(sheet: np.ndarray) -> tuple[np.ndarray, np.ndarray, tuple[int, int], tuple]:
    """The sheet's straight pieces, its strokes without the grid's lines, their origin, and the cells' boxes, as
    the reader makes them."""
    boxes = cell_boxes()
    strokes = StrokeMap(sheet, boxes, PX_PER_MM, margin_px=crossing_margin_px(PX_PER_MM))
    clean = without_grid_lines(strokes, PX_PER_MM)
    origin = (strokes.x0, strokes.y0)
    return sparse_pieces(clean, origin, strokes.shares, PX_PER_MM), clean, origin, boxes


def _passed(sheet, cells: set[int], slashed: frozenset[int] = frozenset()) -> set[int]:
    return passed_cells(cells, *_strokes(sheet), drawn_sides(_lines(sheet)), PX_PER_MM, slashed=slashed)


def _polyline(sheet: np.ndarray, points: list[tuple[float, float]]) -> None:
    """A pencil stroke through points given in cells (row, col)."""
    cv2.polylines(sheet, [np.array([_at(row, col) for row, col in points], np.int32)], False, PENCIL, 3,
                  cv2.LINE_AA)


def test_a_line_from_deep_in_the_cells_beside_runs_through_an_outlined_pair():
    """e5 and f5 outlined together; a line from the middle of c5 to the middle of g5 crosses the outline at e5's
    left and f5's right, and is all either cell holds."""
    sheet = _printed_sheet()
    _outline(sheet, {(4, 4), (4, 5)})
    _polyline(sheet, [(4.45, 2.5), (4.6, 6.5)])
    assert _passed(sheet, {E5, F5}) == {E5, F5}


def test_a_pass_that_turns_at_the_outline_still_runs_in_from_the_next_cell():
    """The line comes from c5 and turns on e5's drawn left side, then runs on to the middle of g5: e5 alone is
    crossed from no further than the turn, but f5, which it joins with no side drawn between, is crossed from deep
    in g5 (scribble-outlined 20023)."""
    sheet = _printed_sheet()
    _outline(sheet, {(4, 4), (4, 5)})
    _polyline(sheet, [(4.8, 2.5), (4.25, 3.97), (4.6, 6.5)])
    assert _passed(sheet, {E5, F5}) == {E5, F5}
    assert _passed(sheet, {E5}) == set()


def test_a_scribble_overshooting_its_own_outline_is_no_pass():
    """A loose scribble over e5 and f5 whose turns lie 1.6 mm past the outline on either side: its own passes."""
    sheet = _printed_sheet()
    _outline(sheet, {(4, 4), (4, 5)})
    _polyline(sheet, [(4.15, 3.9), (4.4, 6.1), (4.6, 3.9), (4.85, 6.1)])
    assert _passed(sheet, {E5, F5}) == set()


@pytest.mark.parametrize("seed", [20023, 30007, 90022, 170011])
def test_passes_into_outlined_empty_cells_are_never_read_without_a_doubt(seed):
    """Scribble-outlined 20023 (a pass from d7 over e7 and f7 to g7), 30007 (from f2 over g2 and h2 to i2) and
    90022 (into d6): each such cell read shaded and sure. In 170011, two passes between a8's and c8's scribbles
    ran across b8, a gap between outlined cells, and added up to 0.053 of ink, over a threshold of 0.026 (a sheet
    of scribbles and no fills): shaded by its ink, it was not looked at as a pass."""
    photo = styled_photo(seed, "mild", style="loose scribble", outlines="always")
    result = read_photo(photo.jpeg)
    assert wrong_items(result, photo.truth) <= flagged(result)


def _judged(judge, sheet, cells: set[int], others: set[int]) -> set[int]:
    """`judge` (`on_doubted_lines` or `ending_in_paper`) of `cells` against `others`, on the sheet's strokes."""
    return judge(cells, others, *_strokes(sheet), PX_PER_MM)


def test_a_line_is_judged_as_one_through_every_cell_it_crosses():
    """A long line across d5, e5 and f5 (stray-line 140019: two crossing in c5 read shaded and sure while the cells
    the lines ran on through were in doubt): with d5 in doubt as a stray line, e5 and f5 are too; a slash of e4's
    own, on no line through a doubted cell, is not."""
    sheet = _printed_sheet()
    cv2.line(sheet, _at(4.45, 3.2), _at(4.6, 5.8), PENCIL, 3, cv2.LINE_AA)
    cv2.line(sheet, _at(3.15, 4.15), _at(3.85, 4.85), PENCIL, 3, cv2.LINE_AA)  # e4's slash
    D5, E4 = 4 * SIZE + 3, 3 * SIZE + 4
    assert _judged(on_doubted_lines, sheet, {E5, F5, E4}, {D5}) == {E5, F5}
    assert _judged(on_doubted_lines, sheet, {E5, F5, E4}, set()) == set()


def test_a_line_from_deep_in_an_empty_cell_is_no_mark_where_it_runs():
    """A line from the middle of d5, an empty cell, across e5 and f5 (stray-line 150023: three stray lines across
    f6, two of them from deep in empty e6, read it shaded and sure at 0.12 of ink). Lines that start and end at
    the sides of the cells they cross, as a patch's hatching does, end in no empty cell."""
    D5 = 4 * SIZE + 3
    sheet = _printed_sheet()
    cv2.line(sheet, _at(4.5, 3.5), _at(4.7, 5.95), PENCIL, 3, cv2.LINE_AA)
    assert _judged(ending_in_paper, sheet, {E5, F5}, {D5}) == {E5, F5}
    assert _judged(ending_in_paper, sheet, {E5, F5}, set()) == set()  # d5 not known to be empty
    sheet = _printed_sheet()
    cv2.line(sheet, _at(4.5, 4.03), _at(4.7, 5.95), PENCIL, 3, cv2.LINE_AA)
    assert _judged(ending_in_paper, sheet, {E5, F5}, {D5}) == set()


def test_a_line_from_out_in_the_margin_is_no_mark_where_it_runs():
    """A straight piece from 4.2 mm out in the margin, left of the grid, across a5 into b5 (stray-line 570019,
    blind: a3, crossed by such a line and another, read shaded and sure): it ends as far outside the grid as a line
    from nowhere ends inside an empty cell. A pencil overshooting the grid's border by 2.5 mm, as a zigzag's tip
    over a5 may (mild 3010: g1's, over the top border), is a mark's."""
    A5, B5 = 4 * SIZE, 4 * SIZE + 1
    boxes = cell_boxes()
    origin = (boxes[0][0] - crossing_margin_px(PX_PER_MM), boxes[0][1] - crossing_margin_px(PX_PER_MM))
    shape = (boxes[-1][3] + crossing_margin_px(PX_PER_MM) - origin[1], boxes[-1][2] + crossing_margin_px(PX_PER_MM)
             - origin[0])
    for outside_mm, found in ((4.2, {A5, B5}), (2.5, set())):
        start, end = np.subtract(_at(4.3, -outside_mm / layout.CELL_MM), origin), np.subtract(_at(4.6, 1.9), origin)
        clean = np.zeros(shape, np.uint8)
        cv2.line(clean, tuple(int(v) for v in start), tuple(int(v) for v in end), 1, 3)
        pieces = np.array([[*start, *end]], np.float64)
        assert ending_in_paper({A5, B5}, set(), pieces, clean.astype(bool), origin, boxes, PX_PER_MM) == found


def test_a_pass_between_two_scribbles_across_a_hole_in_their_outline_is_in_doubt():
    """Scribble-outlined 350018 (blind): g7 empty in a U of cells outlined as one patch (f7, h7 and the row below),
    crossed side to side by one pass from f7's scribble to h7's. f7's return pass wobbles and was found as short
    pieces at other slants, none reaching 8 mm past g7's side, so the pass did not count as turning there: g7 read
    shaded and sure. A piece that turns into a cell with a scribble of its own runs on in that scribble."""
    photo = styled_photo(350018, "mild", style="loose scribble", outlines="always")
    result = read_photo(photo.jpeg)
    assert not photo.truth.quilt.is_covered(6, 6)
    assert wrong_items(result, photo.truth) <= flagged(result)
    assert "g7" in flagged(result)


def test_a_pass_cut_by_the_grid_lines_it_crosses_is_one_line():
    """Scribble-outlined 200021: one pass from g2's turn across h2 to i2's corner, g2 and i2 outlined on their own
    and h2 left empty between them. The grid's printed lines are taken out of the strokes, so the pass was found as
    pieces cut at each side, none reaching far past h2's; h2 read shaded and sure."""
    photo = styled_photo(200021, "mild", style="loose scribble", outlines="always")
    result = read_photo(photo.jpeg)
    assert not photo.truth.quilt.is_covered(1, 7)
    assert wrong_items(result, photo.truth) <= flagged(result)


def test_pieces_of_one_line_are_chained_across_gaps_and_no_further():
    """Three pieces of one line with 1.6 mm gaps between them are one line from the first's start to the last's
    end; a piece slanted 20 degrees off it, one parallel to it 3 mm aside and one in line 8 mm past its end are not
    part of it."""
    mm = PX_PER_MM
    pieces = np.array([
        [0, 0, 10 * mm, 0], [11.6 * mm, 0, 20 * mm, 0], [21.6 * mm, 0, 30 * mm, 0],  # one line, cut twice
        [12 * mm, 1 * mm, 20 * mm, 1 * mm + 8 * mm * np.tan(np.radians(20))],  # slanted off it
        [5 * mm, 3 * mm, 25 * mm, 3 * mm],  # beside it
        [38 * mm, 0, 45 * mm, 0],  # in line, past a gap of 8 mm
    ], np.float64)
    lines = chained(pieces, PX_PER_MM)
    assert np.allclose(lines[:3], [0, 0, 30 * mm, 0], atol=1e-6)
    assert np.allclose(lines[3:], pieces[3:])


ZIGZAG = [(4.6, 3.15), (4.03, 3.97), (4.97, 5.03), (4.3, 5.85)]  # d5 -> e5's top-left -> its bottom-right -> f5


def test_a_pass_that_turns_at_both_corners_of_an_outlined_cell_runs_through_it():
    """Loose-scribble 220018: b1, outlined on its own and left empty between scribbled cells, was crossed corner to
    corner by one pass of the scribble next door, which turned just past both corners; b1 read shaded, 0.6 sure.
    Here e5 is outlined alone and a zigzag from deep in d5 turns at its top-left corner, crosses it and turns at its
    bottom-right into f5: a pass between two turns beyond its outline. A slash alone is e5's own, and so is the
    pass when e5 is outlined with f5 (it turns inside e5's own patch), or when d5 and f5 hold slashes of their own
    (slashes of the two slants side by side make the same zigzag: slash with stray lines 10001, g8)."""
    sheet = _printed_sheet()
    _outline(sheet, {(4, 4)})
    _polyline(sheet, ZIGZAG)
    assert _passed(sheet, {E5}) == {E5}
    assert _passed(sheet, {E5}, slashed=frozenset({E5 - 1, F5})) == set()

    slashed = _printed_sheet()
    _outline(slashed, {(4, 4)})
    _polyline(slashed, ZIGZAG[1:3])
    assert _passed(slashed, {E5}) == set()

    one_patch = _printed_sheet()
    _outline(one_patch, {(4, 4), (4, 5)})
    _polyline(one_patch, ZIGZAG)
    assert E5 not in _passed(one_patch, {E5})


def test_a_turn_s_pass_on_is_followed_past_the_pieces_it_was_found_in():
    """Scribble-outlined 930015 (blind): c5, empty and closed by its neighbours' outlines, was crossed by a pass
    from b5's turn to a turn on its side with d5; the pass on from there across d5 wobbled and was found as short
    pieces, the first reaching 1.2 mm past c5's side, and c5 read shaded and sure. Here the zigzag through e5 turns
    at its bottom-right corner into f5, and the pass on into f5 is found as two pieces with a gap of 1.5 mm: the
    first alone reaches 4 mm past e5's side, the pass they lie on 13 mm."""
    mm = PX_PER_MM
    sheet = _printed_sheet()
    _outline(sheet, {(4, 4)})
    _polyline(sheet, ZIGZAG)
    pieces, clean, origin, boxes = _strokes(sheet)
    tip, far = (np.array(_at(*point), np.float64) - origin for point in ZIGZAG[2:])
    way = (far - tip) / np.linalg.norm(far - tip)
    found_before = pieces[pieces[:, [0, 2]].min(axis=1) < tip[0] - mm]  # all but those along the pass on
    wobbling = np.array([[*(tip + 0.5 * mm * way), *(tip + 5 * mm * way)], [*(tip + 6.5 * mm * way), *far]])
    drawn = drawn_sides(_lines(sheet))
    assert passed_cells({E5}, np.vstack([found_before, wobbling]), clean, origin, boxes, drawn, PX_PER_MM) == {E5}
    assert passed_cells({E5}, np.vstack([found_before, wobbling[:1]]), clean, origin, boxes, drawn,
                        PX_PER_MM) == set()


def test_an_empty_cell_crossed_by_a_pass_between_turns_next_door_is_in_doubt():
    photo = styled_photo(930015, "mild", style="loose scribble", outlines="always")
    result = read_photo(photo.jpeg)
    assert not photo.truth.quilt.is_covered(4, 2)
    assert wrong_items(result, photo.truth) <= flagged(result)


def test_an_outlined_cell_a_scribble_passes_through_is_in_doubt():
    photo = styled_photo(220018, "mild", style="loose scribble")
    result = read_photo(photo.jpeg)
    assert not photo.truth.quilt.is_covered(0, 1)
    assert wrong_items(result, photo.truth) <= flagged(result)


def test_a_mark_within_a_cells_lines_may_be_a_pass_between_turns_at_its_corners():
    """Scribble-outlined 150019: h1, left empty between two scribbled cells outlined apart (its strokes within its
    lines, a mark of its own), was crossed corner to corner by one pass that turned at both corners into the
    scribbles; h1 read as a slash, sure. Here d5 and f5 are outlined on their own; a pass at a shallow slant from
    deep in d5 turns just inside e5's top-left corner, crosses e5 and turns by its bottom-right into f5. The
    scribbles hold marks of their own (their strokes within their lines) but no slash, so the pass runs through
    e5. Where d5 and f5 hold slashes meeting e5's at its corners, e5's is a slash."""
    D5 = E5 - 1
    sheet = _printed_sheet()
    for cell in ((4, 3), (4, 5)):
        _outline(sheet, {cell})
    _polyline(sheet, [(4.4, 3.1), (4.12, 4.05), (4.88, 4.95), (4.6, 5.9)])
    own = frozenset({D5, E5, F5})
    assert turned_through_cells({E5}, *_strokes(sheet), drawn_sides(_lines(sheet)), PX_PER_MM, slashed=own) == {E5}

    slashes = _printed_sheet()
    for cell in ((4, 3), (4, 5)):
        _outline(slashes, {cell})
    _polyline(slashes, [(4.97, 3.03), (4.03, 3.97), (4.97, 5.03), (4.03, 5.97)])
    assert turned_through_cells({E5}, *_strokes(slashes), drawn_sides(_lines(slashes)), PX_PER_MM,
                                slashed=own) == set()


def test_a_pass_between_turns_at_an_empty_cells_corners_is_in_doubt():
    photo = styled_photo(150019, "mild", style="loose scribble", outlines="always")
    result = read_photo(photo.jpeg)
    assert not photo.truth.quilt.is_covered(0, 7)
    assert wrong_items(result, photo.truth) <= flagged(result)


def test_slashes_along_a_diagonal_are_no_pass_through_its_corners():
    """Slash-outlined 12: g5's slash and h4's, each corner to corner, make one straight line through their corners,
    and g5 read as crossed by a pass from 8 mm and more beyond its side. A line through a corner crosses no side."""
    photo = styled_photo(12, "mild", style="slash", outlines="always")
    result = read_photo(photo.jpeg)
    assert photo.truth.quilt.is_covered(4, 6)
    assert result.quilt.is_covered(4, 6)
    assert (4, 6) not in {doubt.cell for doubt in result.uncertain if doubt.kind == "cell"}


def test_a_slash_on_a_line_through_doubted_cells_is_in_doubt_too():
    """Slash with stray lines 220023 (a blind set): a stray line from g2 through h3, corner to corner, and on along
    i4's diagonal to the grid's edge. h3 and g3 were in doubt as stray lines; i4, beside h4's slash, read as a slash
    of its own, shaded and sure. A slash is judged with the line it lies on, as any stroke is."""
    photo = styled_photo(220023, "mild", style="slash", distractor="stray line")
    result = read_photo(photo.jpeg)
    assert not photo.truth.quilt.is_covered(3, 8)
    assert wrong_items(result, photo.truth) <= flagged(result)


def _graphite(sheet: np.ndarray, points: list[tuple[float, float]], darken: float = 0.45) -> None:
    """A pencil stroke through points given in cells (row, col), darkening what it is drawn over (graphite over
    graphite is darker still)."""
    mask = np.zeros(sheet.shape[:2], np.uint8)
    cv2.polylines(mask, [np.array([_at(row, col) for row, col in points], np.int32)], False, 255, 3, cv2.LINE_AA)
    sheet[:] = (sheet * (1.0 - darken * mask[..., None] / 255.0)).astype(np.uint8)


def _hatched(sheet: np.ndarray, row: int, col: int) -> None:
    """A cell hatched full: steep strokes ("/", about 70 degrees) 2 mm apart, as dense as shading."""
    for k in range(-3, 11):
        x = col + 0.05 + k * 0.125
        _graphite(sheet, [(row + 0.97, x), (row + 0.03, x + 0.34)])


def _through(sheet: np.ndarray, cells: set[int]) -> set[int]:
    paper = np.ones(sheet.shape[:2], bool)  # the light known from the margins, as the reader knows it
    x0, y0, x1, y1 = layout.GRID_RECT.to_px(PX_PER_MM)
    paper[y0:y1, x0:x1] = False
    ink = flat_field(sheet, paper).ink
    return lines_through(cells, *_strokes(sheet), ink, PX_PER_MM)


def test_a_line_through_hatched_cells_is_no_mark_of_the_empty_cell_between():
    """A line at 45 degrees from deep in d6's hatching across e5, just off its corners, and on into f4's hatching
    (stray-line 200010: f7, empty between hatched cells, read shaded and sure at 0.106 of ink). The line is cut
    into pieces where it runs through hatching; it is followed there along its own slant. A line that stops
    3 mm past e5, or a scribble's two passes across it, is no line through; nor is a line through a cell filled
    evenly, whose ink is mostly the fill's (the stroke map sees no strokes in a fill; mirrored 18: e3, hatched
    dense, its strokes mostly lost to the stroke map's light, and hatched on along the slant next door)."""
    D6, F4 = 5 * SIZE + 3, 3 * SIZE + 5
    sheet = _printed_sheet()
    _hatched(sheet, 5, 3)
    _hatched(sheet, 3, 5)
    _graphite(sheet, [(5.9, 3.1), (3.12, 5.88)])
    assert _through(sheet, {E5, D6, F4}) == {E5}
    sheet = _printed_sheet()
    _hatched(sheet, 5, 3)
    _graphite(sheet, [(5.9, 3.1), (3.83, 5.17)])
    assert _through(sheet, {E5}) == set()
    sheet = _printed_sheet()
    _graphite(sheet, [(4.25, 2.5), (4.3, 6.5), (4.7, 6.6), (4.75, 2.5)])  # two passes 6 mm apart, turning in g5
    assert _through(sheet, {E5}) == set()
    sheet = _printed_sheet()
    for row, col in ((5, 3), (4, 4), (3, 5)):  # filled evenly (no strokes), and the line on through them all
        x0, y0 = _at(row + 0.03, col + 0.03)
        x1, y1 = _at(row + 0.97, col + 0.97)
        sheet[y0:y1, x0:x1] = (sheet[y0:y1, x0:x1] * 0.7).astype(np.uint8)
    _graphite(sheet, [(5.9, 3.1), (3.12, 5.88)])
    assert _through(sheet, {E5}) == set()


def test_stray_lines_crossing_a_cell_together_are_no_mark_of_it():
    """Three long, light lines cross one another in e5, none holding most of its strokes alone (stray-line 820020,
    blind: a2, empty, crossed by three lines, 0.115 of ink, read shaded and sure). A zigzag a line crosses is the
    cell's mark: its passes do not run on."""
    lines = ([(2.3, 2.4), (6.6, 6.2)], [(2.6, 5.3), (6.4, 3.9)], [(2.2, 4.6), (6.8, 4.35)])
    sheet = _printed_sheet()
    for line in lines:
        _graphite(sheet, list(line), 0.3)
    assert _through(sheet, {E5}) == {E5}
    sheet = _printed_sheet()
    _graphite(sheet, list(lines[0]))
    _graphite(sheet, [(4.1, 4.15), (4.9, 4.3), (4.1, 4.5), (4.9, 4.65), (4.1, 4.85)])  # a zigzag's, kept in e5
    assert _through(sheet, {E5}) == set()


def _box_lines(strokes_mm: list[list[tuple[float, float]]]) -> int:
    """How many ends of a line through the 'cut' box run on, with `strokes_mm` (points in mm from the box's
    printed top left) drawn over its printed frame, as the reader measures the box (`stages.read_specials`)."""
    width, height = layout.canonical_size_px(PX_PER_MM)
    sheet = np.full((height, width, 3), 235, np.uint8)
    check = layout.special_box("cut").check
    frame = check.to_px(PX_PER_MM)
    cv2.rectangle(sheet, frame[:2], frame[2:], (40, 36, 29), 1)
    for stroke in strokes_mm:
        points = [(round((check.x + x) * PX_PER_MM), round((check.y + y) * PX_PER_MM)) for x, y in stroke]
        cv2.polylines(sheet, [np.array(points, np.int32)], False, PENCIL, 3, cv2.LINE_AA)
    ink = flat_field(sheet, np.ones(sheet.shape[:2], bool)).ink
    x0, y0, x1, y1 = check.inset(TUNING.check_inset_mm).to_px(PX_PER_MM)
    return ends_running_on(ink[y0:y1, x0:x1] > TUNING.check_stroke_ink, (x0, y0), frame, ink, PX_PER_MM)


def test_a_line_across_the_page_through_a_special_box_is_told_from_a_mark():
    """A long line through the box runs on past both its sides, or one where it starts inside (stray-line 460014,
    blind: a line on from g9 across 'cut', read crossed, unflagged). A cross that overshoots the frame by 2 mm, a
    tick, and a slash that overshoots by 2 mm are marks (the box is 10 mm square)."""
    assert _box_lines([[(-12.0, -25.0), (22.0, 35.0)]]) == 2
    assert _box_lines([[(5.0, 5.0), (22.0, 35.0)]]) == 1
    assert _box_lines([[(-2.0, -2.0), (12.0, 12.0)], [(12.0, -2.0), (-2.0, 12.0)]]) == 0
    assert _box_lines([[(1.5, 5.0), (4.5, 8.8), (11.0, -1.0)]]) == 0
    assert _box_lines([[(-2.0, 12.0), (12.0, -2.0)]]) == 0


def test_a_stray_line_through_a_special_box_is_not_read_as_its_cross_without_a_doubt():
    """stray-line 460014 (blind): the line from g9 runs on through 'cut', unused; read crossed, unflagged."""
    photo = styled_photo(460014, "mild", distractor="stray line")
    result = read_photo(photo.jpeg)
    assert "cut" not in wrong_items(result, photo.truth) - flagged(result)
    assert "cut" not in result.specials_used
