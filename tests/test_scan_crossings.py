"""A mark drawn within one cell's lines is that cell's; a line that runs on through its sides is not (issue 15:
slashes read without an outline, stray lines never read as shading without a doubt)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from doodle.quilt import SIZE
from doodle.sheet import layout
from doodle.sheet.crossings import confined_cells, crossing_margin_px, crossings, passed_through, without_grid_lines
from doodle.sheet.outline import drawn_sides
from doodle.sheet.scan import read_photo
from doodle.sheet.stages import PX_PER_MM, cell_boxes
from doodle.sheet.strokes import StrokeMap
from tests.photogen_families import family_photo
from tests.photogen_styles import styled_photo
from tests.test_scan import flagged, wrong_items
from tests.test_scan_outline import _lines, _outline

PENCIL = (95, 95, 95)


def _printed_sheet() -> np.ndarray:
    """A blank sheet with the grid's lines printed on it."""
    sheet = np.full((262 * 4, 190 * 4, 3), 235, np.uint8)
    grid, k = layout.GRID_RECT, PX_PER_MM
    for line in range(SIZE + 1):
        x, y = round((grid.x + line * layout.CELL_MM) * k), round((grid.y + line * layout.CELL_MM) * k)
        cv2.line(sheet, (x, round(grid.y * k)), (x, round(grid.y2 * k)), (40, 40, 40), 1)
        cv2.line(sheet, (round(grid.x * k), y), (round(grid.x2 * k), y), (40, 40, 40), 1)
    return sheet


def _at(row: float, col: float) -> tuple[int, int]:
    """The sheet-image pixel at a point of the grid given in cells (row 1.5: the middle of the second row)."""
    grid = layout.GRID_RECT
    return (round((grid.x + col * layout.CELL_MM) * PX_PER_MM), round((grid.y + row * layout.CELL_MM) * PX_PER_MM))


def _slash(sheet: np.ndarray, row: int, col: int, inset: float = 0.08) -> None:
    """A slash from near the top-left corner of a cell to near its bottom-right."""
    cv2.line(sheet, _at(row + inset, col + inset), _at(row + 1 - inset, col + 1 - inset), PENCIL, 3, cv2.LINE_AA)


def _own_marks(sheet: np.ndarray, marked: set[int], outlines: bool = False) -> set[int]:
    """`confined_cells` of the sheet's strokes; with `outlines`, knowing where outlines are drawn on it."""
    boxes = cell_boxes()
    strokes = StrokeMap(sheet, boxes, PX_PER_MM, margin_px=crossing_margin_px(PX_PER_MM))
    return confined_cells(strokes, boxes, marked, PX_PER_MM, drawn=drawn_sides(_lines(sheet)) if outlines else None)


def test_a_slash_within_its_cell_is_its_own_mark_and_a_line_through_cells_is_not():
    sheet = _printed_sheet()
    _slash(sheet, 4, 4)
    cv2.line(sheet, _at(1.3, 0.4), _at(1.7, 3.6), PENCIL, 3, cv2.LINE_AA)  # a stray line through a1 .. d1
    assert _own_marks(sheet, {40, 9, 10, 11, 12}) == {40}


def test_slashes_meeting_corner_to_corner_in_patches_are_their_own_marks():
    """Two patches of slashes whose cells touch corner to corner (c3 and d4): their slashes meet at the corner as a
    line through it would."""
    sheet = _printed_sheet()
    for row, col in ((2, 1), (2, 2), (3, 3), (3, 4)):
        _slash(sheet, row, col)
    assert _own_marks(sheet, {19, 20, 30, 31}) == {19, 20, 30, 31}


def _scribble(sheet: np.ndarray, row: int, col: int) -> None:
    """A cell scribbled full, with nearly level passes to and fro (as full of strokes as shading)."""
    points = [_at(row + 0.08 + k * 0.12, col + (0.05 if k % 2 else 0.95)) for k in range(8)]
    cv2.polylines(sheet, [np.array(points, np.int32)], False, PENCIL, 3, cv2.LINE_AA)


def _crowded_corner(line: tuple[tuple[float, float], tuple[float, float]]) -> np.ndarray:
    """e5, f5 and f4 each outlined on its own, f4 and f5 scribbled full, and a line from `line[0]` to `line[1]`
    (row, col)."""
    sheet = _printed_sheet()
    for row, col in ((3, 5), (4, 5)):
        _scribble(sheet, row, col)
    for cell in ((3, 5), (4, 5), (4, 4)):
        _outline(sheet, {cell})
    cv2.line(sheet, _at(*line[0]), _at(*line[1]), PENCIL, 3, cv2.LINE_AA)
    return sheet


def test_a_line_running_on_from_a_corner_into_a_scribbled_cell_is_no_slash():
    """A line from e5's bottom-left corner to its top-right, then 7 mm on into f4's scribble, where outlines
    crowd the corner (stray-line 150022: the corner's strips held no single stroke, and the cell read as slashed):
    it runs on through the corner, and e5 holds no mark of its own. A slash that ends at that corner is e5's."""
    E5, F4, F5 = 40, 32, 41
    assert E5 not in _own_marks(_crowded_corner(((5.0, 4.0), (3.7, 5.3))), {E5, F4, F5})
    assert E5 in _own_marks(_crowded_corner(((4.92, 4.08), (4.05, 4.95))), {E5, F4, F5})


def test_a_line_a_little_off_the_diagonal_running_on_into_hatching_is_no_slash():
    """A line 38 degrees from level from d4's hatching down through e5's middle and on into f6's: it crosses e5's
    sides 1.8 mm from its corners. Where such a crossing goes unseen in the hatching (blind stray-line 800016: c6,
    1.9 mm beside its corner in b5's hatching, read as a slash, unflagged), the line is followed past the cell along
    its own slant, not the diagonal's, and runs on into both. A slash that ends at the corners is e5's."""
    from tests.test_scan_passes import _hatched  # it imports this module's helpers

    D4, E5, F6 = 3 * SIZE + 3, 4 * SIZE + 4, 5 * SIZE + 5

    def own_unless_crossings_seen(start: tuple[float, float], end: tuple[float, float]) -> bool:
        sheet = _printed_sheet()
        _hatched(sheet, 3, 3)
        _hatched(sheet, 5, 5)
        cv2.line(sheet, _at(*start), _at(*end), PENCIL, 3, cv2.LINE_AA)
        boxes = cell_boxes()
        strokes = StrokeMap(sheet, boxes, PX_PER_MM, margin_px=crossing_margin_px(PX_PER_MM))
        crossed, corners = crossings(strokes, without_grid_lines(strokes, PX_PER_MM), PX_PER_MM)
        unseen = {corner for corner in corners if E5 not in corner[0]}
        return E5 in confined_cells(strokes, boxes, {D4, E5, F6}, PX_PER_MM, found=(crossed, unseen))

    assert not own_unless_crossings_seen((4.5 - 0.78 * 1.2, 3.3), (4.5 + 0.78 * 1.2, 5.7))
    assert own_unless_crossings_seen((4.08, 4.08), (4.92, 4.92))


def test_a_line_along_the_cells_diagonals_is_no_ones_mark():
    """A stray line through c3 and d4 corner to corner, ending inside e5 (where it does not run across the cell),
    beside a patch of slashes (b3 and c4): as a slash chain it would read as marks."""
    sheet = _printed_sheet()
    cv2.line(sheet, _at(2.05, 2.05), _at(4.55, 4.55), PENCIL, 3, cv2.LINE_AA)
    _slash(sheet, 2, 1)
    _slash(sheet, 3, 2)
    marked = {19, 20, 29, 30, 40}
    assert _own_marks(sheet, marked) == {19, 29}


def test_a_slash_beside_a_patch_outlined_apart_does_not_vouch_for_a_line_through_a_corner():
    """A line "/" corner to corner through d5 and e4, which touch there; d5 beside c5's slash and e4 beside f4's,
    each of them outlined on its own (slash-stray-line 230016: g3 and h2, read as two slashes, unflagged). With no
    outline between them, c5 and f4 could be of one patch with d5 and e4, and the line two slashes meeting; with
    the outlines, the line is no one's mark; with d5 outlined on its own too, they are d5's and e4's slashes."""
    C5, D5, E4, F4 = 4 * SIZE + 2, 4 * SIZE + 3, 3 * SIZE + 4, 3 * SIZE + 5
    sheet = _printed_sheet()
    cv2.line(sheet, _at(5.0, 3.0), _at(3.0, 5.0), PENCIL, 3, cv2.LINE_AA)
    _slash(sheet, 4, 2)
    _slash(sheet, 3, 5)
    marked = {C5, D5, E4, F4}
    assert {D5, E4} <= _own_marks(sheet, marked)
    _outline(sheet, {(4, 2)})
    _outline(sheet, {(3, 5)})
    own = _own_marks(sheet, marked, outlines=True)
    assert own & {D5, E4} == set()
    assert {C5, F4} <= own
    _outline(sheet, {(4, 3)})  # d5 outlined on its own: a patch of one cell, its slash the player's
    assert {C5, D5, E4, F4} <= _own_marks(sheet, marked, outlines=True)


def test_a_line_ending_in_a_slashed_cell_is_not_its_slash():
    """A stray line ("/") across b4 corner to corner, on through the corner into c3 and ending 65% of the way
    along c3's diagonal, where c3 holds its own slash of the other slant and an outline's corner at the top
    right (slash-stray-line 90019): c3's strokes reach both ends of "/" with a gap between, no slash of that slant,
    so the line through the corner is no one's mark."""
    sheet = _printed_sheet()
    cv2.line(sheet, _at(4.0, 1.0), _at(2.35, 2.65), PENCIL, 3, cv2.LINE_AA)
    _slash(sheet, 2, 2)
    _slash(sheet, 2, 1)  # b3, beside both
    corner = [_at(2.04, 2.82), _at(2.04, 2.96), _at(2.18, 2.96)]  # the outline's corner, drawn inside the lines
    cv2.polylines(sheet, [np.array(corner, np.int32)], False, PENCIL, 3, cv2.LINE_AA)
    assert 28 not in _own_marks(sheet, {19, 20, 28})


def test_a_line_running_on_beside_the_slashes_across_its_corners_is_no_slash():
    """A stray line ("\\") from inside b2 through c3, corner to corner, and on into d4, 1.5 mm beside b2's and d4's
    own slashes (slash-stray-line 90005: c3 read as a slash, unflagged, between two patches of slashes). Two
    slashes meet at a corner as one line; this one runs on beside the slash across each corner, so it is a line of
    its own: c3 holds no mark of its own, and the slashes keep theirs. A slash of c3's own, meeting them, is c3's."""
    B2, B3, C3, D4, D5 = 1 * SIZE + 1, 2 * SIZE + 1, 2 * SIZE + 2, 3 * SIZE + 3, 4 * SIZE + 3
    aside = 1.5 / layout.CELL_MM / np.sqrt(2)  # 1.5 mm square to the diagonal, in cells along each axis

    def patches() -> np.ndarray:
        sheet = _printed_sheet()
        for row, col, shift in ((1, 1, aside), (2, 1, 0.0), (3, 3, -aside), (4, 3, 0.0)):
            cv2.line(sheet, _at(row + 0.08 - shift, col + 0.08 + shift), _at(row + 0.92 - shift, col + 0.92 + shift),
                     PENCIL, 2, cv2.LINE_AA)
        return sheet

    marked = {B2, B3, C3, D4, D5}
    sheet = patches()
    cv2.line(sheet, _at(1.35, 1.35), _at(3.7, 3.7), PENCIL, 2, cv2.LINE_AA)
    assert _own_marks(sheet, marked) == {B2, B3, D4, D5}
    # From 4 mm before b2's slash ends (5.7 mm from the corner) to just past c3's far corner (slash-stray-line
    # 800006, blind: 3.9 mm beside b8's slash, and c9 read as a slash, unflagged).
    sheet = patches()
    cv2.line(sheet, _at(1.75, 1.75), _at(3.05, 3.05), PENCIL, 2, cv2.LINE_AA)
    assert _own_marks(sheet, marked) == {B2, B3, D4, D5}
    sheet = patches()
    _slash(sheet, 2, 2)
    assert _own_marks(sheet, marked) == marked


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_slashes_without_outlines_are_read_as_marks_without_doubt(seed):
    """One slash per cell and no outline drawn: every slashed cell was in doubt (a stray line?)."""
    photo = styled_photo(seed, "mild", style="slash", outlines="never")
    result = read_photo(photo.jpeg)
    assert result.quilt == photo.truth.quilt
    assert len([doubt for doubt in result.uncertain if doubt.kind == "cell"]) <= 5


@pytest.mark.parametrize(("style", "seed"), [(None, 2), ("slash", 0), ("slash", 6), ("slash", 9), ("slash", 10),
                                           ("slash", 90019), ("slash", 230016), (None, 200010),
                                           ("slash", 90005), ("slash", 270003), ("slash", 800006), (None, 570014),
                                           (None, 570019), (None, 680023), (None, 820022), (None, 820020)])
def test_a_stray_line_is_never_read_as_shading_without_a_doubt(style, seed):
    """Stray pencil lines over empty cells: two through e9-g9 read as three shaded cells, unflagged (as dense as
    hatching, with the ink of a line); lines coming in through a corner, or along the cells' diagonals beside a
    patch of slashes, read as slashes (230016: beside patches outlined apart); a line at 45 degrees through
    hatched cells and an empty one between them, off their corners (200010: f7, 0.106 of ink); lines along an empty
    cell's diagonal and on beside the slashes across its corners (90005: c3; 270003: h9, from inside it; 800006,
    blind: c9, from 6 mm inside b8 and 4 mm beside its slash, steeper than the diagonal); a line
    from the margin through the grid's border a millimetre from b9's corner, ending in b9 (570014, blind), one
    from 4.5 mm out in the margin across a3 (570019, blind), one from the grid's corner to a9's far corner, a
    slash to the eye with nothing marked beside it (680023, blind), and one from inside h5 along i6's diagonal and
    out past the grid's border at its corner, followed there on its own slant (820022, blind: i6); three crossing
    a2, 0.115 of ink, none of them most of its strokes alone (820020, blind)."""
    photo = styled_photo(seed, "mild", style=style, distractor="stray line")
    result = read_photo(photo.jpeg)
    assert wrong_items(result, photo.truth) <= flagged(result)


@pytest.mark.parametrize(("outlines", "seed", "cell"), [("partial", 2, "h1"), ("partial", 10003, "b7"),
                                                       ("some", 10005, "f5")])
def test_a_slash_alone_with_no_outline_is_read_shaded_in_doubt(outlines, seed, cell):
    """A patch of one cell (the Single square) marked by a slash, with no outline and nothing marked beside it:
    a stray line along the cell's diagonal looks the same. Offered as shaded, in doubt."""
    photo = styled_photo(seed, "mild", style="slash", outlines=outlines)
    result = read_photo(photo.jpeg)
    assert result.quilt == photo.truth.quilt
    assert cell in {doubt.name for doubt in result.uncertain if doubt.kind == "cell" and doubt.read}


def test_a_line_through_cells_crosses_two_sides_of_each_it_passes_and_a_slash_none():
    """A line enters and leaves the cells it passes through (`passed_through`); a slash stays within its cell."""
    sheet = _printed_sheet()
    cv2.line(sheet, _at(4.4, 2.3), _at(4.6, 5.7), PENCIL, 3, cv2.LINE_AA)  # ends in c5 and f5, through d5 and e5
    _slash(sheet, 1, 1)
    strokes = StrokeMap(sheet, cell_boxes(), PX_PER_MM, margin_px=crossing_margin_px(PX_PER_MM))
    found = crossings(strokes, without_grid_lines(strokes, PX_PER_MM), PX_PER_MM)
    every = set(range(SIZE * SIZE))
    assert passed_through(found, every) == {4 * SIZE + 3, 4 * SIZE + 4}
    assert passed_through(found, every, least=1) == {4 * SIZE + col for col in range(2, 6)}


@pytest.mark.parametrize(("style", "outlines", "seed", "cell"), [("loose scribble", "some", 720005, "g7"),
                                                                 ("loose scribble", "some", 720003, "e4"),
                                                                 ("loose scribble", "always", 21, "b2"),
                                                                 ("loose scribble", "some", 17, "f5"),
                                                                 ("loose scribble", "always", 19, "b2")])
def test_a_pass_through_a_cell_the_outlines_leave_out_offers_it_empty_in_doubt(style, outlines, seed, cell):
    """A cell outlined around on three or four sides by its neighbours' outlines (the notch of a U, a gap between
    patches), that a scribble's pass crosses on its way between two turns: the pass is no mark of its. Offered as
    empty, in doubt (a patch of one cell, not outlined, would look the same)."""
    photo = styled_photo(seed, "mild", style=style, outlines=outlines)
    result = read_photo(photo.jpeg)
    assert result.quilt == photo.truth.quilt
    assert cell in {doubt.name for doubt in result.uncertain if doubt.kind == "cell" and not doubt.read}


def test_a_faint_hatching_run_on_through_the_sides_of_a_cell_the_outlines_leave_out_offers_it_shaded():
    """Sensor 8500023 (blind): f3, hatched in pale blue with its patch, its hatching run on through its sides, in a
    dim photo whose hatching reads under the ink of a line or two (0.098). The outlines around it leave it out, so
    it is in doubt as a pass; but more than two strokes lie apart in it (a hatching's lines), and it is offered as
    shaded. A line or two through such a cell leaves one piece of stroke in it, or two."""
    photo = family_photo(8500023, "sensor")
    result = read_photo(photo.jpeg)
    assert result.quilt == photo.truth.quilt
    assert "f3" in {doubt.name for doubt in result.uncertain if doubt.kind == "cell" and doubt.read}
