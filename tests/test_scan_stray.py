"""Stray lines (doodle.sheet.stray): a long straight line that turns back at neither end marks no cell, a
scribble's pass that turns back at both ends and slashes lined up corner to corner do."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from doodle.quilt import SIZE
from doodle.sheet.scan import read_photo
from doodle.sheet.stages import PX_PER_MM
from doodle.sheet.stray import stray_line_cells
from tests.photogen_styles import styled_photo
from tests.test_scan import wrong_items
from tests.test_scan_crossings import PENCIL, _at
from tests.test_scan_outline import _printed_sheet
from tests.test_scan_passes import _hatched, _polyline, _strokes

D5, E5, F5, G5 = 4 * SIZE + 3, 4 * SIZE + 4, 4 * SIZE + 5, 4 * SIZE + 6
ROW_5 = {D5, E5, F5}


def _stray(sheet: np.ndarray, cells: set[int], paper: set[int] = frozenset(), off_grid: bool = False,
           marked: set[int] = frozenset(), sure: set[int] | None = None) -> set[int]:
    ink = np.clip(1.0 - sheet.min(axis=2).astype(np.float32) / 235.0, 0.0, 1.0)  # the paper is 235 grey
    return stray_line_cells(cells, set(paper), *_strokes(sheet), PX_PER_MM, off_grid=off_grid, marked=marked,
                            ink=ink, sure=sure)


def test_a_long_line_with_free_ends_is_a_stray_line_in_every_cell_it_crosses():
    """A line 56 mm long from the middle of c5 to the middle of g5, nothing near either end."""
    sheet = _printed_sheet()
    cv2.line(sheet, _at(4.35, 2.5), _at(4.7, 6.0), PENCIL, 3, cv2.LINE_AA)
    assert _stray(sheet, ROW_5) == ROW_5


def test_only_a_line_from_off_the_grid_is_stray_when_asked_so():
    """Asked of cells in a drawn outline (`off_grid`), a line counts only when it comes in from off the grid:
    players draw within it. A line from 8 mm out in the left margin, at 18 degrees, to low in c5 crosses a5
    (after a4's corner), b5 and c5; the line across row 5 from c5 to g5's left side stays within the grid."""
    from_margin = _printed_sheet()
    cv2.line(from_margin, _at(3.8, -0.5), _at(4.8, 2.5), PENCIL, 3, cv2.LINE_AA)
    row_start = {4 * SIZE, 4 * SIZE + 1, 4 * SIZE + 2}
    assert _stray(from_margin, row_start, off_grid=True) == row_start
    within = _printed_sheet()
    cv2.line(within, _at(4.35, 2.5), _at(4.7, 6.0), PENCIL, 3, cv2.LINE_AA)
    assert _stray(within, ROW_5) == ROW_5
    assert _stray(within, ROW_5, off_grid=True) == set()


@pytest.mark.parametrize(("seed", "cell"), [(640016, (5, 8)), (790008, (0, 8)), (930012, (0, 8))])
def test_a_line_from_off_the_grid_through_a_cell_in_an_outline_is_in_doubt(seed, cell):
    """Blind stray-line 640016: a line from the margin through i6, empty, ended in h6's scribble; i6 was joined to
    h6's outlined patch (no line drawn between them). Blind 790008: a line from the top margin through i1, empty,
    on through i2's hatching and down the grid's right side; with the border and the hatching taken out, 15.7 mm
    of it lay in i1, which the drawn outlines around it closed (the code is printed above i1: a first version,
    reading the line on into the margin, found it there whether or not the line ran on). Each cell read shaded and
    sure for its strokes; each now reads empty, in doubt. Blind 930012: a line from 4 mm into the right margin
    through i1 into h1's hatching, where it ends; 19.5 mm of it seen, i1 closed by the grid's border and its
    neighbours' outlines."""
    photo = styled_photo(seed, "mild", distractor="stray line")
    assert not photo.truth.quilt.is_covered(*cell)
    result = read_photo(photo.jpeg)
    assert wrong_items(result, photo.truth) <= {doubt.name for doubt in result.uncertain}
    assert any(doubt.cell == cell and not doubt.read for doubt in result.uncertain)


def test_a_line_from_the_border_on_through_a_mark_is_from_off_the_grid():
    """A line from the grid's top border down through a1, on through a2's hatching and into a3, nothing of it seen
    past the border (in a photo the column letters and the code are printed there, and the line can be lost among
    them: stray-line 790008). The border and a2's hatching are taken out of the strokes, so they show 15.5 mm of it,
    a1's alone: short of a long line's 20 mm. Seen from the border to a mark of a2's own and running on straight
    through it, it came from off the grid. Not so when it stops at a2's hatching, when it starts 4 mm inside the
    border, nor when a2 holds no mark of its own."""
    a1, a2 = {0}, {SIZE}

    def drawn(start: float, end: float) -> np.ndarray:
        sheet = _printed_sheet()
        _hatched(sheet, 1, 0)
        cv2.line(sheet, _at(start, 0.45), _at(end, 0.45 + 0.08 * (end - start)), PENCIL, 3, cv2.LINE_AA)
        return sheet

    assert _stray(drawn(0.03, 2.6), a1, off_grid=True, marked=a2) == a1
    assert _stray(drawn(0.03, 1.0), a1, off_grid=True, marked=a2) == set()
    assert _stray(drawn(0.25, 2.6), a1, off_grid=True, marked=a2) == set()
    assert _stray(drawn(0.03, 2.6), a1, off_grid=True) == set()


def test_a_slash_whose_line_runs_on_through_shading_both_ways_is_in_doubt():
    """Blind stray-line 800016: a line from a5 on through b5's hatching, along c6's diagonal corner to corner and
    into d7's zigzag. Its crossing at c6's corner, 1.9 mm off it inside the hatching, was not seen, and the line
    was followed on past the corner along the diagonal, which it leaves: c6 (empty) held a slash of its own,
    beside marked cells, shaded and sure. Followed along its own slant, it runs on into both: in doubt."""
    photo = styled_photo(800016, "mild", distractor="stray line")
    assert not photo.truth.quilt.is_covered(5, 2)
    result = read_photo(photo.jpeg)
    assert "c6" in {doubt.name for doubt in result.uncertain}
    assert wrong_items(result, photo.truth) <= {doubt.name for doubt in result.uncertain}


def test_a_scribbles_pass_turns_back_at_both_ends():
    """The same passes to and fro as a loose scribble draws them over d5 to f5, turning back just inside c5's and
    g5's near sides: each pass is as long and as straight as a stray line, but the pen turned at both its ends."""
    sheet = _printed_sheet()
    _polyline(sheet, [(4.15, 2.9), (4.35, 6.1), (4.55, 2.9), (4.75, 6.1), (4.9, 2.9)])
    assert _stray(sheet, ROW_5) == set()


@pytest.mark.parametrize("inset", [0.03, 0.08])
def test_slashes_lined_up_corner_to_corner_are_no_stray_line(inset):
    """The slashes of d4, e5 and f6, cells that touch corner to corner: one straight line 68 mm long along their
    diagonals, from d4's top-left corner to f6's bottom-right (each slash drawn from `inset` of a cell in)."""
    sheet = _printed_sheet()
    for k in range(3):
        cv2.line(sheet, _at(3 + k + inset, 3 + k + inset), _at(4 + k - inset, 4 + k - inset), PENCIL, 3,
                 cv2.LINE_AA)
    diagonal = {3 * SIZE + 3, E5, 5 * SIZE + 5}
    assert _stray(sheet, diagonal) == set()
    # The same slant from the middle of c3 to the middle of g7 ends in no corner: a line across the page.
    sheet = _printed_sheet()
    cv2.line(sheet, _at(2.5, 2.5), _at(6.5, 6.5), PENCIL, 3, cv2.LINE_AA)
    assert _stray(sheet, diagonal) == diagonal


def test_a_line_is_no_stray_line_where_it_ends_beside_other_strokes_unless_in_an_empty_cell():
    """A line from the middle of c5 to g5, its right end 2 mm beside the end of a stroke that starts back across
    g5 (a turn, or a line that ends beside another): a turn within 4 mm, unless the end lies in a cell known to be
    empty, where only 2.5 mm counts (a line from nowhere)."""
    sheet = _printed_sheet()
    cv2.line(sheet, _at(4.35, 2.5), _at(4.7, 6.5), PENCIL, 3, cv2.LINE_AA)
    cv2.line(sheet, _at(4.9, 6.44), _at(5.5, 6.2), PENCIL, 3, cv2.LINE_AA)  # 3.2 mm below the end, running back
    assert _stray(sheet, ROW_5) == set()
    assert _stray(sheet, ROW_5, paper={G5}) == ROW_5


def test_a_line_from_the_margin_cut_at_the_border_does_not_turn_back_there():
    """A line from 4 mm out in the left margin across a5 to d5, cut where the grid's thick border is (as taking the
    print out of a photo's strokes cuts it), a short stroke 3 mm below its end inside a5 (strokes behind the end,
    as a turn leaves them): the line runs on beyond the border, so it turns back at neither end."""
    sheet = _printed_sheet()
    cv2.line(sheet, _at(4.4, -0.25), _at(4.4, -0.04), PENCIL, 3, cv2.LINE_AA)  # in the margin, up to the border
    cv2.line(sheet, _at(4.4, 0.04), _at(4.45, 3.5), PENCIL, 3, cv2.LINE_AA)  # from just inside it
    cv2.line(sheet, _at(4.6, 0.12), _at(4.62, 0.3), PENCIL, 3, cv2.LINE_AA)
    B5, C5 = 4 * SIZE + 1, 4 * SIZE + 2
    assert {B5, C5} <= _stray(sheet, {4 * SIZE, B5, C5, D5})


def test_two_lines_meeting_past_the_border_turn_only_in_an_outline():
    """Two stray lines from one point 4 mm above the grid: one down through d1 to d3 and into d4, one out to the
    right. Where they meet looks like a scribble's turn, but it lies off the grid, and a scribble that shades cells
    with no outline turns within them (stray-line 790001, blind: f1-f3 so offered as shaded). In an outline (asked
    of as `off_grid`) a scribble may overshoot the border and turn past it, so there it is still a turn."""
    sheet = _printed_sheet()
    apex = _at(-0.25, 3.5)
    cv2.line(sheet, apex, _at(3.5, 3.2), PENCIL, 3, cv2.LINE_AA)
    cv2.line(sheet, apex, _at(2.0, 6.5), PENCIL, 3, cv2.LINE_AA)
    column = {3, SIZE + 3, 2 * SIZE + 3}
    assert _stray(sheet, column) == column
    assert _stray(sheet, column, off_grid=True) == set()


def test_another_line_passing_beside_a_line_s_end_is_no_turn():
    """A line from c5 to f5 along row 5, and another long line at 30 degrees to it that passes 3 mm beside its end
    and runs on past it both ways (two stray lines): its strokes lie behind the end, as a turn's do, but they are
    a line of their own. The first turns back at neither end; the same strokes as a short stroke would be a turn."""
    sheet = _printed_sheet()
    cv2.line(sheet, _at(4.4, 2.4), _at(4.4, 5.6), PENCIL, 3, cv2.LINE_AA)
    cv2.line(sheet, _at(3.806, 4.122), _at(5.369, 6.828), PENCIL, 3, cv2.LINE_AA)
    assert {D5, E5} <= _stray(sheet, ROW_5)
    sheet = _printed_sheet()
    cv2.line(sheet, _at(4.4, 2.4), _at(4.4, 5.6), PENCIL, 3, cv2.LINE_AA)
    cv2.line(sheet, _at(4.52, 5.35), _at(4.65, 5.58), PENCIL, 3, cv2.LINE_AA)
    assert _stray(sheet, ROW_5) == set()


def _fill_g5(sheet: np.ndarray) -> None:
    cv2.rectangle(sheet, _at(4.06, 6.06), _at(4.94, 6.94), PENCIL, -1)


def _hatch_g5(sheet: np.ndarray) -> None:
    for k in range(6):  # lines at 45 degrees, 1.7 mm apart, across g5's upper right half
        cv2.line(sheet, _at(4.05, 6.05 + 0.15 * k), _at(4.95 - 0.15 * k, 6.95), PENCIL, 3, cv2.LINE_AA)


@pytest.mark.parametrize(("mark", "end"), [(_fill_g5, 6.3), (_hatch_g5, 6.65)])
def test_an_end_in_a_cell_with_a_mark_of_its_own_is_no_turn(mark, end):
    """A line from the middle of c5 that ends in g5: 3.8 mm into g5's solid fill, or in its hatching, between its
    two lowest strokes (0.6 mm above one, 1.3 mm below the next). The edge of the fill, or the hatching's strokes,
    lie behind the end, as a turn's would. Where g5 is known to hold a mark of its own (`marked`), they are that
    mark's, and the line turns back at neither end. (The end was once 1.1 mm below the lowest stroke, in the
    middle of g5: there it was read as turning back only for a piece of its own tail found at another slant, which
    `_turns_back` no longer takes for a turn; a stroke that crosses the line past its end runs on past it both
    ways, no turn.)"""
    sheet = _printed_sheet()
    cv2.line(sheet, _at(4.35, 2.5), _at(4.6, end), PENCIL, 3, cv2.LINE_AA)
    mark(sheet)
    assert _stray(sheet, ROW_5) == set()
    assert _stray(sheet, ROW_5, marked={G5}) == ROW_5


@pytest.mark.parametrize(("seed", "crossed"), [(12, {"i5", "i6"}), (600005, {"c4"})])
def test_a_line_seen_only_between_marks_or_the_border_marks_no_cell_it_crosses(seed, crossed):
    """Stray-line 12: two lines from h5's and h6's zigzags out through i5 and i6, empty, and off the grid's right
    side; 600005: a line 50 mm long across hatched cells, through c4. The marks hide them, so each is seen for
    12-16 mm only, short of a stray line's 20: the cells were offered as shaded, in doubt. Cut short by the border
    or by a mark they run on through, at both ends, they are offered as empty."""
    photo = styled_photo(seed, "mild", distractor="stray line")
    result = read_photo(photo.jpeg)
    assert wrong_items(result, photo.truth) <= {doubt.name for doubt in result.uncertain}
    assert crossed <= {doubt.name for doubt in result.uncertain if doubt.kind == "cell" and not doubt.read}


@pytest.mark.parametrize(("seed", "crossed"), [(670000, {"h7"}), (670003, {"c7", "d7", "e8"})])
def test_a_line_ending_in_a_shaded_cell_marks_no_cell_it_crosses(seed, crossed):
    """Blind stray-line 670000: a line from h6's hatching down through h7, empty; 670003: a line from c7 on to
    its end in f8's solid fill, through d7 and e8, empty. The strokes around the end in the shaded cell were taken
    for a turn, and the cells crossed were offered as shaded, in doubt. They are now offered as empty, in doubt."""
    photo = styled_photo(seed, "mild", distractor="stray line")
    result = read_photo(photo.jpeg)
    assert not wrong_items(result, photo.truth)
    assert crossed <= {doubt.name for doubt in result.uncertain if doubt.kind == "cell" and not doubt.read}


@pytest.mark.parametrize("seed", [7, 18, 21, 6, 19, 640013, 600002, 630009, 600000])
def test_cells_crossed_only_by_stray_lines_read_empty_in_doubt(seed):
    """Stray-line 7 (g4, h6 and i6), 18 (b9, f1 and f2) and 21 (d1, e1 and i1): empty cells crossed by lines 25-70
    mm long read shaded, in doubt; they now read empty, still in doubt, and the quilt is read exactly. So too 6 (a3
    and a4: a line from the margin, cut short at the grid's border beside a5's strokes), 19 (a6-a8: a line on
    through a9's hatching and off the grid, found only as far as a9's side), 640013 (blind: e5 and f5), and 600002
    and 630009 (f1 and g1, e2 and e3: lines cut short on a printed line, where what the print's removal left of
    it lay behind their ends and was taken for a turn), and 600000 (g5 and h5: a line from e5's top, where e4's
    hatching ran 1 mm over the line between them, taken for its turn)."""
    photo = styled_photo(seed, "mild", distractor="stray line")
    result = read_photo(photo.jpeg)
    assert not wrong_items(result, photo.truth)
    crossed = {u.cell for u in result.uncertain if u.kind == "cell" and not u.read}
    assert crossed and not any(photo.truth.quilt.is_covered(*cell) for cell in crossed)


def test_a_short_line_from_a_cells_middle_out_through_its_corner_into_a_scribble_is_no_slash():
    """Blind stray-line 400016: a line from b1's middle out through its bottom-right corner, 5 mm on into c2's
    scribble, read as b1's slash, shaded and sure. Its strokes do not lie along b1's diagonal from end to end, so
    where they ran on past the corner was not looked for; they run into the corner, and on into c2 along their
    slant."""
    photo = styled_photo(400016, "mild", distractor="stray line")
    assert not photo.truth.quilt.is_covered(0, 1)
    result = read_photo(photo.jpeg)
    assert wrong_items(result, photo.truth) <= {doubt.name for doubt in result.uncertain}
    assert "b1" in {doubt.name for doubt in result.uncertain}


def test_a_line_s_own_wobbly_tail_is_no_turn():
    """Slash-stray-line 0: a line from the bottom of d1 through d2 and d3 to the middle of d4, its last 3 mm found
    as a piece 10 degrees off it but on it, was read as turning back there; d3 and d4, empty, were offered as
    shaded, in doubt. Now they are offered as empty (d2, crossed by two more lines, is still offered as shaded); d3,
    which the line from d1's empty foot runs on past both ways, is read empty and sure."""
    photo = styled_photo(0, "mild", style="slash", distractor="stray line")
    result = read_photo(photo.jpeg)
    offered_empty = {u.name for u in result.uncertain if u.kind == "cell" and not u.read}
    assert "d4" in offered_empty and not result.quilt.is_covered(2, 3)  # d3, in the line's middle, is sure
    assert not wrong_items(result, photo.truth) - {u.name for u in result.uncertain}


def test_cells_read_over_a_low_threshold_for_stray_lines_alone_are_offered_as_empty():
    """Stray-line 870018 (the blind set of the forty-seventh stop): lines across c1, d1, d2, d3 and e2, empty, on a
    sheet of few fills whose threshold fell under their ink. In doubt for their faint strokes, they were offered
    as shaded: only cells whose ink says empty were asked whether a stray line is all that marks them."""
    photo = styled_photo(870018, "mild", distractor="stray line")
    result = read_photo(photo.jpeg)
    offered_empty = {u.name for u in result.uncertain if u.kind == "cell" and not u.read}
    assert {"c1", "d1", "d2", "d3", "e2"} <= offered_empty
    assert not wrong_items(result, photo.truth)


def test_a_line_from_nowhere_is_no_mark_where_it_runs_on_past_a_cell_both_ways():
    """A cell whose strokes nearly all lie along a line from nowhere (an end off the grid, or in a cell known
    empty) that runs on 8 mm or more past it both ways holds no patch's mark: a patch's mark stays in its patch.
    A line from 8 mm out in the left margin to the middle of e5 runs on past b5-d5 both ways; not past e5, where
    it ends, nor, as far as it is seen, past a5 (the strokes are found within the grid: it is seen to run on out
    of the grid in the sheet's ink). The line from c5's middle to g5's left side comes from nowhere only when c5
    is known empty: then d5 and e5 lie in its middle, and f5, at its end, does not."""
    row = {4 * SIZE + col for col in range(5)}
    from_margin = _printed_sheet()
    cv2.line(from_margin, _at(4.3, -0.5), _at(4.7, 4.5), PENCIL, 3, cv2.LINE_AA)
    sure: set[int] = set()
    assert _stray(from_margin, row, sure=sure) == row
    assert sure == row - {4 * SIZE, E5}
    within = _printed_sheet()
    cv2.line(within, _at(4.35, 2.5), _at(4.7, 6.0), PENCIL, 3, cv2.LINE_AA)
    sure = set()
    assert _stray(within, ROW_5, sure=sure) == ROW_5 and sure == set()
    assert _stray(within, ROW_5, paper={4 * SIZE + 2}, sure=sure) == ROW_5 and sure == {D5, E5}


def test_cells_crossed_by_lines_from_the_margin_read_empty_and_sure():
    """Slash with stray lines 10: c1 and b2, empty, crossed by a line from the top margin, and d8, by one that runs
    on off the grid's foot, were read empty, in doubt, among 9 cells in doubt; now they are sure, and nothing is
    read wrong."""
    photo = styled_photo(10, "mild", style="slash", distractor="stray line")
    result = read_photo(photo.jpeg)
    assert not wrong_items(result, photo.truth)
    in_doubt = {u.name for u in result.uncertain if u.kind == "cell"}
    assert not {"c1", "b2", "d8"} & in_doubt
