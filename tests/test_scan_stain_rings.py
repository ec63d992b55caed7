"""A mug's ring on the sheet is found by its shape and colour (doodle/sheet/stain_rings.py), and the cells it stains
are offered as empty (doodle/sheet/stages.py `_under_stain_rings`)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from doodle.quilt import SIZE
from doodle.sheet import layout
from doodle.sheet.scan import PX_PER_MM, read_photo
from doodle.sheet.stain_rings import StainRing, cells_under, share_on_rims, stain_rings, tint_across_circle
from doodle.sheet.tuning import TUNING
from tests.photogen import make_photo
from tests.photogen_styles import styled_photo
from tests.test_scan import flagged, wrong_items
from tests.test_scan_cover import _grid_sheet


def _stained(reflectance_rgb: tuple[float, float, float], strength: float) -> tuple[int, int, int]:
    """The BGR a pigment of `reflectance_rgb` leaves on white paper at `strength`."""
    return tuple(round(255 * (1 - strength * (1 - value))) for value in reversed(reflectance_rgb))


COFFEE = (0.78, 0.62, 0.45)


def cell_index(name: str) -> int:
    """The index (row * 9 + col) of a cell named as on the sheet ('b4': column b, row 4)."""
    return (int(name[1:]) - 1) * SIZE + "abcdefghi".index(name[0])


def _found(sheet: np.ndarray) -> list[tuple[float, float, float]]:
    return [(ring.x, ring.y, ring.radius) for ring in stain_rings(sheet.astype(np.float32) / 255.0, PX_PER_MM, TUNING)]


def _px(x_mm: float, y_mm: float) -> tuple[int, int]:
    return round(x_mm * PX_PER_MM * 16), round(y_mm * PX_PER_MM * 16)


def test_a_coffee_ring_over_the_grid_is_found_where_it_lies():
    """A whole ring and the arc of one (two thirds of the way round), tinted inside or not, over grid lines and
    cells: each found within a millimetre and a half of where it lies."""
    sheet = _grid_sheet()
    grid = layout.GRID_RECT
    rings = ((grid.x + 30.0, grid.y + 35.0, 16.0), (grid.x + 70.0, grid.y + 70.0, 13.0))
    tint = np.zeros(sheet.shape[:2], np.uint8)
    cv2.circle(tint, _px(*rings[0][:2]), round(rings[0][2] * PX_PER_MM * 16), 255, -1, cv2.LINE_AA, 4)
    sheet[tint > 0] = np.minimum(sheet[tint > 0], _stained(COFFEE, 0.2))
    rim = _stained(COFFEE, 0.8)
    cv2.circle(sheet, _px(*rings[0][:2]), round(rings[0][2] * PX_PER_MM * 16), rim, 5, cv2.LINE_AA, 4)
    centre, radius = _px(*rings[1][:2]), round(rings[1][2] * PX_PER_MM * 16)
    cv2.ellipse(sheet, centre, (radius, radius), 0, 30, 270, rim, 4, cv2.LINE_AA, 4)
    rings_found = stain_rings(cv2.GaussianBlur(sheet, (0, 0), 1.0).astype(np.float32) / 255.0, PX_PER_MM, TUNING)
    assert len(rings_found) == 2
    for x, y, radius in rings:
        assert any(np.hypot(x - ring.x, y - ring.y) < 1.5 and abs(radius - ring.radius) < 1.5 for ring in rings_found)
    cells = cells_under(rings_found, [layout.cell_rect(*divmod(index, SIZE)) for index in range(SIZE * SIZE)],
                        TUNING)
    # Cells are 16 mm. The whole ring (middle in b3, 16 mm round) reaches c3 and a2 (its rim); a1 lies 6 mm beyond
    # it. The arc's (middle in e5, 13 mm) reaches d5 and f5; g5, e3 and e7 lie 7-11 mm beyond.
    assert {cell_index(name) for name in ("b3", "c3", "a2", "e5", "d5", "f5")} <= cells
    assert not {cell_index(name) for name in ("a1", "g5", "e3", "e7")} & cells


def test_what_is_not_a_stain_ring_is_not_found():
    """Brown hatching over a block of cells (stripes on both sides of any circle through it), a ring drawn in
    graphite (no warmth) and one in a pure orange pencil (a pencil's chroma, not a stain's): none is a ring."""
    sheet = _grid_sheet()
    grid = layout.GRID_RECT
    x0, y0 = grid.x + 12.0, grid.y + 12.0
    for k in range(24):
        offset = k * 1.6
        cv2.line(sheet, _px(x0 + offset, y0), _px(x0, y0 + offset), _stained(COFFEE, 0.8), 2, cv2.LINE_AA, 4)
        cv2.line(sheet, _px(x0 + 36, y0 + offset), _px(x0 + offset, y0 + 36), _stained(COFFEE, 0.8), 2,
                 cv2.LINE_AA, 4)
    cv2.circle(sheet, _px(grid.x + 70, grid.y + 25), round(14 * PX_PER_MM * 16), (90, 90, 95), 4, cv2.LINE_AA, 4)
    cv2.circle(sheet, _px(grid.x + 70, grid.y + 70), round(14 * PX_PER_MM * 16), _stained((0.95, 0.55, 0.12), 0.8),
               4, cv2.LINE_AA, 4)
    assert _found(cv2.GaussianBlur(sheet, (0, 0), 1.0)) == []


@pytest.mark.parametrize("seed", [3, 4])
def test_cells_under_a_coffee_ring_read_empty_in_doubt(seed):
    """Coffee-ring 3: f4, f5, f6 and i7, empty under two rings, read shaded (in doubt); 4: b3, f5 and e6 (and f4,
    whose tint stops at the ring's circle: sure). A brown tint alone may be a pencil's, so they stay in doubt, but
    what the reader offers is now the sheet as it is, and a note names them."""
    photo = styled_photo(seed, "mild", distractor="coffee ring")
    result = read_photo(photo.jpeg)
    assert result.quilt == photo.truth.quilt
    offered_empty = {doubt.name for doubt in result.uncertain if doubt.kind == "cell" and not doubt.read}
    assert offered_empty >= set(STAINED[seed])
    [note] = [note for note in result.notes if note.startswith("a ring of tea or coffee stains")]
    assert all(name in note for name in STAINED[seed]) and "check them on the sheet" in note


@pytest.mark.parametrize(("seed", "stained"), [(670009, {"e4", "d5", "e5", "f5"}),
                                               (670005, {"d2", "g8", "h8", "f9", "g9"})])
def test_a_brown_tint_in_doubt_as_a_stain_is_offered_as_tea(seed, stained):
    """Tea-ring 670009 and 670005 (blind): the inside of rings over empty cells, with no outline around them, in
    doubt as stains (a tint whose edge does not keep to the grid) and offered as shaded. Brown with no outline is
    offered as tea, empty, as it is where no stain's edge was seen."""
    photo = styled_photo(seed, "mild", distractor="tea ring")
    result = read_photo(photo.jpeg)
    assert not wrong_items(result, photo.truth)
    assert stained <= {doubt.name for doubt in result.uncertain if doubt.kind == "cell" and not doubt.read}


def test_a_ring_s_rim_across_a_cell_amid_outlines_is_no_sure_mark():
    """Tea-ring 460013 (blind set): g7, empty amid outlined patches, so inside their outlines, with a tea ring's rim
    curving across it: 0.068 of ink under a threshold of 0.120, and the rim's arc read as g7's own mark (a few
    strokes in an outline), shaded and sure. Brown strokes in an outline may be a rim: g7 is asked about."""
    photo = styled_photo(460013, "mild", distractor="tea ring")
    result = read_photo(photo.jpeg)
    assert "g7" in {doubt.name for doubt in result.uncertain}
    assert wrong_items(result, photo.truth) <= flagged(result)


def test_strokes_along_a_ring_s_rim_are_on_it_and_a_slash_inside_it_is_not():
    """A ring 16 mm round about (50, 50) mm: an arc of its rim across a cell lies on it; a slash across a cell
    inside the ring, 6 mm and more from the rim, does not; nor does nothing."""
    ring = StainRing(50.0, 50.0, 16.0, 1.0)
    box = tuple(round(v * PX_PER_MM) for v in (58.0, 30.0, 74.0, 46.0))  # x0, y0, x1, y1: the rim crosses it
    arc = np.zeros((box[3] - box[1], box[2] - box[0]), np.uint8)
    centre = tuple(round((v - o) * PX_PER_MM * 16) for v, o in ((50.0, 58.0), (50.0, 30.0)))
    radius = round(16.5 * PX_PER_MM * 16)  # drawn half a millimetre off the circle found, as a rim is
    cv2.ellipse(arc, centre, (radius, radius), 0, 0, 360, 255, 3, cv2.LINE_AA, 4)
    assert arc.any() and share_on_rims([ring], arc > 0, box, PX_PER_MM, TUNING) > 0.9
    inside = tuple(round(v * PX_PER_MM) for v in (42.0, 42.0, 58.0, 58.0))
    slash = np.zeros((inside[3] - inside[1], inside[2] - inside[0]), np.uint8)
    cv2.line(slash, (round(4 * PX_PER_MM), round(4 * PX_PER_MM)), (round(12 * PX_PER_MM), round(12 * PX_PER_MM)),
             255, 3)
    assert share_on_rims([ring], slash > 0, inside, PX_PER_MM, TUNING) == 0.0
    assert share_on_rims([ring], np.zeros_like(slash, bool), inside, PX_PER_MM, TUNING) == 0.0


@pytest.mark.parametrize(("distractor", "seed"), [("coffee ring", 0), ("tea ring", 1)])
def test_a_ring_s_rim_and_inside_read_empty_are_sure(distractor, seed):
    """Coffee-ring 0: two rings, their rims' arcs across 8 empty cells and their brown inside over 2 more, each
    read empty and in doubt (10 cells in doubt); tea-ring 1: a rim's arcs across 5 empty cells, read so (5). The
    rings explain them: exact, and at most one cell in doubt (a rim's strokes off the circle found)."""
    photo = styled_photo(seed, "mild", distractor=distractor)
    result = read_photo(photo.jpeg)
    assert result.quilt == photo.truth.quilt
    assert len([doubt for doubt in result.uncertain if doubt.kind == "cell"]) <= 1
    assert wrong_items(result, photo.truth) <= flagged(result)


def test_a_tint_that_stops_at_a_ring_s_circle_is_told_from_a_fill_across_it():
    """A ring 16 mm round about (50, 50) mm cuts a cell (58-74, 42-58 mm), its tint inside the circle only: dark
    inside, none outside. A fill over the whole cell: as dark on both sides. A cell the circle does not cut: None."""
    ring = StainRing(50.0, 50.0, 16.0, 1.0)
    ink = np.zeros((round(100 * PX_PER_MM), round(100 * PX_PER_MM)), np.float32)
    ys, xs = np.mgrid[0 : ink.shape[0], 0 : ink.shape[1]]
    within = np.hypot((xs + 0.5) / PX_PER_MM - 50.0, (ys + 0.5) / PX_PER_MM - 50.0) < 16.0
    box = tuple(round(v * PX_PER_MM) for v in (58.0, 42.0, 74.0, 58.0))
    everywhere = np.ones((box[3] - box[1], box[2] - box[0]), bool)
    tea = np.where(within, 0.1, 0.0).astype(np.float32)
    inside, outside = tint_across_circle([ring], tea, everywhere, box, PX_PER_MM, TUNING)
    assert inside == pytest.approx(0.1) and outside == pytest.approx(0.0)
    fill = tea.copy()
    fill[box[1] : box[3], box[0] : box[2]] = 0.1
    inside, outside = tint_across_circle([ring], fill, everywhere, box, PX_PER_MM, TUNING)
    assert inside == pytest.approx(0.1) and outside == pytest.approx(0.1)
    far = tuple(round(v * PX_PER_MM) for v in (2.0, 2.0, 18.0, 18.0))
    assert tint_across_circle([ring], tea, everywhere, far, PX_PER_MM, TUNING) is None


def test_a_ring_s_tint_that_stops_at_its_circle_is_sure():
    """Tea-ring 0: a ring over g6-i8, its tint read shaded in six cells (0.07-0.14 of ink), each offered as empty
    in doubt. In g7 and i7 the ring's circle cuts the cell and the tint stops at it, and h7 lies beside them in
    the circle, as even: the ring's inside, read empty and sure. The others stay in doubt, named in the note."""
    photo = styled_photo(0, "mild", distractor="tea ring")
    result = read_photo(photo.jpeg)
    assert result.quilt == photo.truth.quilt
    in_doubt = {doubt.name for doubt in result.uncertain if doubt.kind == "cell"}
    assert not in_doubt & {"g7", "h7", "i7"}
    [note] = [note for note in result.notes if note.startswith("a ring of tea or coffee stains")]
    assert "h6" in note and "h6" in in_doubt
    assert wrong_items(result, photo.truth) <= flagged(result)


def test_no_stain_is_noted_where_no_ring_is():
    """A sheet with no ring (moderate 3, a hard shadow): its notes name no stain."""
    result = read_photo(make_photo(3, "moderate").jpeg)
    assert not [note for note in result.notes if "tea or coffee" in note]


STAINED = {3: ("f4", "f5", "f6", "i7"), 4: ("b3", "f5", "e6")}


def test_a_stain_s_brown_in_its_neighbours_outlines_under_a_ring_is_in_doubt():
    """Coffee-ring 880022 (the blind set of the forty-seventh stop): h4, an empty cell enclosed by its neighbours'
    outlines, under a ring's tint with two arcs of its rim across it, read shaded and sure (a brown fill in an
    outline, as a brown pencil's); i4 beside it was in doubt as a stain. The outline may be only the neighbours':
    h4 is in doubt too."""
    photo = styled_photo(880022, "mild", distractor="coffee ring")
    result = read_photo(photo.jpeg)
    assert "h4" in flagged(result)
    assert not wrong_items(result, photo.truth) - flagged(result)
