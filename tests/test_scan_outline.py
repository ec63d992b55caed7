"""The drawn outline (issue 15): pencil along the printed lines around a patch, told from the print itself and
from hatching that runs along a side."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from doodle.quilt import SIZE
from doodle.sheet import layout
from doodle.sheet.measure import flat_field
from doodle.sheet.outline import drawn_sides, edge_lines, inside_outlines, outlined_alone, outlined_cells, shut_out
from doodle.sheet.scan import PX_PER_MM, read_photo
from doodle.sheet.tuning import TUNING
from tests.photogen_styles import styled_photo
from tests.test_scan import flagged, wrong_items

GREY = (95, 95, 100)


def _printed_sheet() -> np.ndarray:
    """A flattened sheet with the grid printed as the PDF prints it (thin inner lines, a thick border)."""
    width, height = layout.canonical_size_px(PX_PER_MM)
    sheet = np.full((height, width, 3), 235, np.uint8)
    grid = layout.GRID_RECT
    for k in range(SIZE + 1):
        x = round((grid.x + k * layout.CELL_MM) * PX_PER_MM)
        y = round((grid.y + k * layout.CELL_MM) * PX_PER_MM)
        thick = 3 if k in (0, SIZE) else 1
        cv2.line(sheet, (x, round(grid.y * PX_PER_MM)), (x, round(grid.y2 * PX_PER_MM)), (40, 36, 29), thick)
        cv2.line(sheet, (round(grid.x * PX_PER_MM), y), (round(grid.x2 * PX_PER_MM), y), (40, 36, 29), thick)
    return sheet


def _outline(sheet: np.ndarray, cells: set[tuple[int, int]], inset_mm: float = 0.8,
             grey: tuple[int, int, int] = GREY) -> None:
    for row, col in cells:
        r = layout.cell_rect(row, col).inset(inset_mm)
        for (dr, dc), (a, b) in (((-1, 0), ((r.x, r.y), (r.x2, r.y))), ((1, 0), ((r.x, r.y2), (r.x2, r.y2))),
                                 ((0, -1), ((r.x, r.y), (r.x, r.y2))), ((0, 1), ((r.x2, r.y), (r.x2, r.y2)))):
            if (row + dr, col + dc) not in cells:
                p = [(round(x * PX_PER_MM), round(y * PX_PER_MM)) for x, y in (a, b)]
                cv2.line(sheet, p[0], p[1], grey, 2, cv2.LINE_AA)


def _slash(sheet: np.ndarray, row: int, col: int) -> None:
    r = layout.cell_rect(row, col).inset(2.0)
    cv2.line(sheet, (round(r.x * PX_PER_MM), round(r.y * PX_PER_MM)), (round(r.x2 * PX_PER_MM),
             round(r.y2 * PX_PER_MM)), GREY, 2, cv2.LINE_AA)


def _lines(sheet: np.ndarray):
    return edge_lines(flat_field(sheet, np.ones(sheet.shape[:2], bool)).ink, PX_PER_MM)


def test_an_outline_is_found_on_its_own_side_of_the_print():
    sheet = _printed_sheet()
    _outline(sheet, {(2, 2), (2, 3)})
    drawn = drawn_sides(_lines(sheet))
    assert drawn["below"][2, 2] and drawn["below"][2, 3] and drawn["above"][3, 2]  # top and bottom, inside
    assert drawn["right"][2, 2] and drawn["left"][2, 4]  # left and right sides
    assert not drawn["above"][2, 2] and not drawn["below"][3, 2]  # not on the far side of the print
    assert not drawn["left"][2, 3] and not drawn["right"][2, 3]  # nor inside the patch
    assert sum(int(side.sum()) for side in drawn.values()) == 6


def test_hatching_along_a_side_is_not_an_outline():
    sheet = _printed_sheet()
    grid = layout.GRID_RECT
    for row in (4, 5):  # horizontal hatching 1.6 mm apart over two whole rows
        top = grid.y + row * layout.CELL_MM
        for k in range(1, 10):
            y = round((top + k * 1.6) * PX_PER_MM)
            cv2.line(sheet, (round(grid.x * PX_PER_MM), y), (round(grid.x2 * PX_PER_MM), y), GREY, 2, cv2.LINE_AA)
    drawn = drawn_sides(_lines(sheet))
    assert not any(side.any() for side in drawn.values())


def test_only_marked_cells_in_an_outline_are_outlined():
    sheet = _printed_sheet()
    patch = {(1, 1), (1, 2), (2, 2)}
    _outline(sheet, patch)
    for row, col in patch | {(2, 3), (6, 6)}:  # a slash beside the patch, outside its outline, and one far off
        _slash(sheet, row, col)
    marked = {r * SIZE + c for r, c in patch | {(2, 3), (6, 6)}}
    assert outlined_cells(_lines(sheet), marked) == {r * SIZE + c for r, c in patch}
    # the tuning passed in is the one decided with: asked for far more ink than a pencil line, none is drawn
    assert not outlined_cells(_lines(sheet), marked, dataclasses.replace(TUNING, outline_drawn=1.0))


def test_an_outline_around_unmarked_cells_does_not_make_a_marked_one_sure():
    """A patch outlined but left unshaded, with one mark in one of its cells (a pass of a scribble next door, loose
    scribble 80016), is no shaded patch: the marked cell opens into the unmarked ones inside the same outline."""
    sheet = _printed_sheet()
    patch = {(4, 4), (5, 4), (5, 5)}
    _outline(sheet, patch)
    _slash(sheet, 4, 4)
    assert outlined_cells(_lines(sheet), {4 * SIZE + 4}) == set()
    # shaded whole, the same outline holds it
    for row, col in patch - {(4, 4)}:
        _slash(sheet, row, col)
    marked = {r * SIZE + c for r, c in patch}
    assert outlined_cells(_lines(sheet), marked) == marked



def _draw_sides(sheet: np.ndarray, row: int, col: int, sides: str, inset_mm: float = 0.8) -> None:
    """Pencil lines just inside a cell along the sides named in `sides` (t, b, l, r)."""
    r = layout.cell_rect(row, col).inset(inset_mm)
    ends = {"t": ((r.x, r.y), (r.x2, r.y)), "b": ((r.x, r.y2), (r.x2, r.y2)),
            "l": ((r.x, r.y), (r.x, r.y2)), "r": ((r.x2, r.y), (r.x2, r.y2))}
    for side in sides:
        p = [(round(x * PX_PER_MM), round(y * PX_PER_MM)) for x, y in ends[side]]
        cv2.line(sheet, p[0], p[1], GREY, 2, cv2.LINE_AA)


def test_a_cell_open_toward_an_empty_cell_is_not_outlined_by_a_line_toward_another_patch():
    """An outlined L of d4, e4 and d5 (left open toward e5, in its notch) and a mark in e5: e5 joins the L. Its side
    toward f5, an empty cell, is open; a line along its side toward e6, which holds a mark of its own, is no patch's
    outline there (coffee ring 90022: a ring's rim along that side made d4 read as outlined, and so sure)."""
    sheet = _printed_sheet()
    _draw_sides(sheet, 3, 3, "tl")
    _draw_sides(sheet, 3, 4, "tr")
    _draw_sides(sheet, 4, 3, "lb")
    _draw_sides(sheet, 4, 4, "b")  # the rim, on e5's side of its line toward e6
    group = {3 * SIZE + 3, 3 * SIZE + 4, 4 * SIZE + 3, 4 * SIZE + 4}
    for index in group | {5 * SIZE + 4}:
        _slash(sheet, *divmod(index, SIZE))
    found = outlined_cells(_lines(sheet), group | {5 * SIZE + 4})
    assert found == group - {4 * SIZE + 4}
    # with its side toward f5 drawn too, e5 is outlined with the L
    _draw_sides(sheet, 4, 4, "r")
    assert outlined_cells(_lines(sheet), group | {5 * SIZE + 4}) >= group


def test_a_hole_the_outlines_around_it_leave_out_is_shut_out():
    """A U of cells outlined on their own sides around c3 (row 2, col 2), and c4's patch below it outlined too: c3
    is left out by every outline around it (a scribble turning in it came from next door); the U's cells and a
    cell outlined on its own sides are not."""
    sheet = _printed_sheet()
    _outline(sheet, {(1, 1), (1, 2), (1, 3), (2, 1), (2, 3)})
    _outline(sheet, {(3, 2)})
    drawn = drawn_sides(_lines(sheet))
    assert 2 * SIZE + 2 in shut_out(drawn)
    assert not shut_out(drawn) & {1 * SIZE + 1, 1 * SIZE + 2, 2 * SIZE + 1, 3 * SIZE + 2}
    _outline(sheet, {(2, 2)})  # c3 outlined as a patch of its own
    assert 2 * SIZE + 2 not in shut_out(drawn_sides(_lines(sheet)))


def test_a_sheet_outlined_mostly_still_tells_the_sides_left_undrawn():
    """Rows 2-7 outlined cell by cell in columns c-h, and a domino in columns a and b: three fifths of the inner
    sides are drawn, and the print's own reading is no longer the median one (slash outlined 2: 8 cells in doubt).
    Each patch is drawn with its own pressure and as near the print as its player's hand went; the print reads
    the same all over. The side inside each domino is print only; every side of the patches around it is drawn."""
    sheet = _printed_sheet()
    rng = np.random.default_rng(7)
    patches = [{(row, 0), (row, 1)} for row in range(1, 7)] + [{(row, col)} for row in range(1, 7)
                                                                for col in range(2, 8)]
    for patch in patches:
        grey = int(rng.integers(60, 150))
        _outline(sheet, patch, float(rng.uniform(0.5, 1.3)), (grey, grey, grey + 5))
    drawn = drawn_sides(_lines(sheet))
    for row in range(1, 7):
        assert not drawn["right"][row, 1] and not drawn["left"][row, 1]  # inside the domino
        for line in range(2, 8):
            assert drawn["right"][row, line] and drawn["left"][row, line]  # between patches
        assert drawn["left"][row, 8] and not drawn["right"][row, 8]  # h's side toward i
    for col in range(8):
        for row in range(1, 6):
            assert drawn["above"][row + 1, col] and drawn["below"][row + 1, col]
    assert not drawn["above"][8, 3] and not drawn["below"][8, 3]  # below row 7


def test_drawn_sides_clustering_closer_than_the_print_still_leave_the_print_its_own_level():
    """Dominoes in columns a-b, d-e and g-h and single cells in c, f and i, every row, all outlined with one
    pressure and as near the print: five of eight inner vertical lines are drawn, their readings alike, and they
    cluster more densely than the print's (scribble-outlined 830022, blind: 0.34-0.41 against 0.09-0.16; the
    drawn ones were taken for the print, f8's drawn sides read as print, and f8, an empty hole between outlined
    patches with a pass across it, read shaded and sure). Drawn lines only add ink: the print is the lowest
    reading that many sides share."""
    sheet = _printed_sheet()
    patches = [{(row, col), (row, col + 1)} for row in range(SIZE) for col in (0, 3, 6)] + [
        {(row, col)} for row in range(SIZE) for col in (2, 5, 8)]
    for patch in patches:
        _outline(sheet, patch, 0.8, (80, 80, 85))
    drawn = drawn_sides(_lines(sheet))
    for row in range(SIZE):
        for line in (1, 4, 7):  # inside a domino
            assert not drawn["left"][row, line] and not drawn["right"][row, line]
        for line in (2, 3, 5, 6, 8):  # between patches
            assert drawn["left"][row, line] and drawn["right"][row, line]


def test_an_outline_is_found_beside_a_print_its_two_sides_read_apart():
    """The printed lines a third of a millimetre below where the sheet's homography puts them: their upper side
    reads less ink than their lower one. A faint outline along the upper side of one is found against the upper
    readings of the others (loose scribble 170010: b6's outline toward b7, 0.06 above the print's upper side,
    0.01 below the median of both sides of all the lines, and b7 read as a cell of b6's patch, unflagged)."""
    sheet = _printed_sheet()
    shift = round(0.35 * PX_PER_MM)
    sheet[shift:] = sheet[:-shift].copy()
    grid = layout.GRID_RECT
    y = round((grid.y + 5 * layout.CELL_MM - 0.6) * PX_PER_MM)  # b5's bottom, from inside b5
    x0, x1 = (round((grid.x + k * layout.CELL_MM) * PX_PER_MM) for k in (1, 2))
    cv2.line(sheet, (x0, y), (x1, y), (170, 170, 175), 1, cv2.LINE_AA)
    drawn = drawn_sides(_lines(sheet))
    assert drawn["above"][5, 1]
    assert sum(int(side.sum()) for side in drawn.values()) == 1


def test_an_empty_looking_cell_inside_a_patchs_outline_is_found():
    """A patch a9-d9 outlined along the grid's bottom row, its corner cell a9 read as paper (light 4900003, blind):
    the outline takes a9 in with b9, shaded. Not a8 above it, whose side toward a9 is drawn on a9's side of the
    print; not e9 beside d9, across d9's outline; not a9 with its side toward b9 drawn (a patch of its own, left
    unshaded)."""
    sheet = _printed_sheet()
    _outline(sheet, {(8, col) for col in range(4)})
    drawn = drawn_sides(_lines(sheet))
    a9, b9, c9, d9, a8, e9 = 72, 73, 74, 75, 63, 76
    shaded = {b9, c9, d9}
    assert inside_outlines(drawn, shaded, {a9, a8, e9}) == {a9}
    assert inside_outlines(drawn, shaded - {b9}, {a9}) == set()  # no shaded cell joined to it
    _draw_sides(sheet, 8, 0, "r")  # a9 outlined on its own
    assert inside_outlines(drawn_sides(_lines(sheet)), shaded, {a9}) == set()


def test_a_cell_outlined_as_a_patch_of_its_own_is_found():
    """i8 (row 7, col 8) outlined on its own against the grid's right border: every inner side drawn on its own
    side. Not h8 beside it (its side toward i8 is drawn on i8's side of the print), nor i8 with its side toward
    i9 left undrawn, nor a9 in the corner with only its top drawn."""
    sheet = _printed_sheet()
    _draw_sides(sheet, 7, 8, "tlb")
    i8, h8, a9 = 7 * SIZE + 8, 7 * SIZE + 7, 8 * SIZE
    _draw_sides(sheet, 8, 0, "t")
    drawn = drawn_sides(_lines(sheet))
    assert outlined_alone(drawn, {i8, h8, a9}) == {i8}
    open_sheet = _printed_sheet()
    _draw_sides(open_sheet, 7, 8, "tl")
    assert outlined_alone(drawn_sides(_lines(open_sheet)), {i8}) == set()


def test_a_cell_in_the_middle_of_an_outline_needs_every_other_side_drawn():
    """d5 (row 4, col 3) inside an outline around d4, d5 and e5, shaded but for d5: found. With the outline open
    toward c5, away from the patch, it is not: an empty cell beside a patch whose outline was not drawn there."""
    sheet = _printed_sheet()
    _outline(sheet, {(3, 3), (4, 3), (4, 4)})
    d4, d5, e5 = 3 * SIZE + 3, 4 * SIZE + 3, 4 * SIZE + 4
    assert inside_outlines(drawn_sides(_lines(sheet)), {d4, e5}, {d5}) == {d5}
    open_sheet = _printed_sheet()
    _draw_sides(open_sheet, 3, 3, "tlr")
    _draw_sides(open_sheet, 4, 3, "b")  # d5: its left side, toward c5, left undrawn
    _draw_sides(open_sheet, 4, 4, "trb")
    assert inside_outlines(drawn_sides(_lines(open_sheet)), {d4, e5}, {d5}) == set()


def test_a_line_between_two_outlined_patches_is_the_border_of_both():
    """c3-d3 outlined all round on its own side of the print; c4-d4 below it outlined on its own side except
    toward c3-d3, where only the line of the patch above lies, on that patch's side (scribble-outlined 10000: b3 and
    c3, outlined on their neighbours' side of the print, were read as outlined by no one, and in doubt). The line
    parts the two patches and borders both. A mark in an empty cell beside a patch gets nothing from that patch's
    outline: c5 is open on every other side."""
    sheet = _printed_sheet()
    above, below = {(2, 2), (2, 3)}, {(3, 2), (3, 3)}
    _outline(sheet, above)
    for row, col in below:
        _draw_sides(sheet, row, col, "b" + ("l" if col == 2 else "r"))
    for row, col in above | below | {(4, 2)}:
        _slash(sheet, row, col)
    marked = {r * SIZE + c for r, c in above | below}
    assert outlined_cells(_lines(sheet), marked) == marked
    # c5 marked too, open toward b5, d5 and c6: not outlined, though c4's outline lies along its top
    assert outlined_cells(_lines(sheet), marked | {4 * SIZE + 2}) == marked


def test_a_hole_between_outlined_patches_is_not_outlined_by_their_lines():
    """c3 (row 2, col 2), empty but for a pass of a scribble next door, with a patch outlined on each of its four
    sides: every line around it is a neighbour's, on the neighbour's side of the print (scribble-outlined 21: b2
    so read as outlined, shaded and sure). The patches around it are outlined."""
    sheet = _printed_sheet()
    around = [{(1, 1), (1, 2), (1, 3)}, {(2, 1)}, {(2, 3)}, {(3, 1), (3, 2), (3, 3)}]
    for patch in around:
        _outline(sheet, patch)
    cells = {cell for patch in around for cell in patch} | {(2, 2)}
    for row, col in cells:
        _slash(sheet, row, col)
    marked = {r * SIZE + c for r, c in cells}
    assert outlined_cells(_lines(sheet), marked) == marked - {2 * SIZE + 2}


def test_strokes_in_an_outline_are_as_sure_over_the_threshold_as_under_it():
    """Scribble-outlined 15: every patch outlined and shaded with a loose zigzag, its passes 5-9 mm apart. Cells
    whose passes add up to a little over the threshold (0.03-0.05 of ink over 0.026) were in doubt for lying near
    it, 11 of them, though a few strokes under it in the same outline were a sure mark; now none is in doubt, and
    the quilt is read exact."""
    photo = styled_photo(15, "mild", style="loose scribble", outlines="always")
    result = read_photo(photo.jpeg)
    assert not wrong_items(result, photo.truth)
    assert not [doubt for doubt in result.uncertain if doubt.kind == "cell"]


def test_a_hole_between_patches_outlined_alike_is_never_read_shaded_without_a_doubt():
    """Scribble-outlined 830022, blind: patches outlined all over with one pressure, their drawn sides clustering
    more densely than the print's; f8, an empty hole between them crossed by a pass from e8's scribble into g8's,
    read shaded and sure when the drawn level was taken for the print's."""
    photo = styled_photo(830022, "mild", style="loose scribble", outlines="always")
    result = read_photo(photo.jpeg)
    assert wrong_items(result, photo.truth) <= flagged(result)
