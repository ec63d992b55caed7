"""Glare that saturates the paper (doodle.sheet.glare): what is under it is in doubt, and a note says where."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from doodle.quilt import SIZE, Quilt, cell_name, mask_of
from doodle.sheet import layout as L
from doodle.sheet.annotate import READ, annotate, sheet_top
from doodle.sheet.glare import GLARE_ADVICE, GLARE_FRINGE_REASON, GLARE_REASON, Glare, find_glare
from doodle.sheet.scan import read_photo
from doodle.sheet.stages import PX_PER_MM
from doodle.sheet.tuning import TUNING
from tests.photogen import make_photo
from tests.photogen_families import family_photo
from tests.test_scan import flagged, recode, wrong_items


def _most_shaded_cell(truth) -> tuple[int, int]:
    """The shaded cell with the most shaded neighbours: a glare over it hides pencil all around."""
    def shaded_around(cell):
        row, col = cell
        return sum(truth.quilt.is_covered(r, c) for r in range(row - 1, row + 2) for c in range(col - 1, col + 2)
                   if 0 <= r < SIZE and 0 <= col < SIZE and 0 <= c < SIZE)
    shaded = [(r, c) for r in range(SIZE) for c in range(SIZE) if truth.quilt.is_covered(r, c)]
    return max(shaded, key=shaded_around)


def _with_glare(photo, centre_mm: tuple[float, float], radius_mm: float, peak: float) -> np.ndarray:
    """The photo with a lamp's reflection added: a Gaussian of light `peak` grey levels high, clipped at white."""
    points = np.array([[centre_mm, (centre_mm[0] + radius_mm, centre_mm[1])]], np.float64)
    centre, side = cv2.perspectiveTransform(points, photo.sheet_to_photo)[0]
    radius = float(np.linalg.norm(side - centre))
    image = photo.image.astype(np.float32)
    ys, xs = np.mgrid[0 : image.shape[0], 0 : image.shape[1]].astype(np.float32)
    image += (peak * np.exp(-((xs - centre[0]) ** 2 + (ys - centre[1]) ** 2) / (2 * radius**2)))[..., None]
    return np.clip(image, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("seed", range(3))
def test_pencil_under_a_saturating_glare_is_in_doubt_and_the_note_says_where(seed):
    photo = make_photo(seed, "mild", megapixels=3.0)
    cell = _most_shaded_cell(photo.truth)
    result = read_photo(recode(_with_glare(photo, L.cell_rect(*cell).center, 14.0, 230.0)))
    assert not wrong_items(result, photo.truth) - flagged(result)  # never wrong without a doubt
    # Glare only adds light: a cell under it read as shaded is shaded, one read as empty may be washed out.
    under = [d for d in result.uncertain if d.reason == GLARE_REASON]
    assert under and all(d.kind == "cell" and not d.read and d.confidence == 0.0 for d in under)
    assert not result.quilt.is_covered(*cell) and any(d.cell == cell for d in under)
    assert result.confidence == 0.0
    note = next(note for note in result.notes if note.startswith("glare over"))
    assert GLARE_ADVICE in note
    assert cell_name(*cell) in note or "cells from" in note


def test_a_glare_over_the_bubbles_puts_the_round_in_doubt():
    photo = make_photo(4, "mild", megapixels=3.0)
    result = read_photo(recode(_with_glare(photo, L.bubble_rect(2, "tens", 4).center, 8.0, 230.0)))
    assert any(d.kind == "round" and d.round == 2 and d.reason and GLARE_REASON in d.reason for d in result.uncertain)
    assert "round 2" in result.notes[-1] or "rounds" in result.notes[-1]
    # glare.py decides with the tuning passed in: asked for more lift than any glare gives, it finds none
    lenient = dataclasses.replace(TUNING, glare_lift=1000.0, glare_min_contrast=0.0, glare_spread_contrast=0.0)
    unlit = read_photo(recode(_with_glare(photo, L.bubble_rect(2, "tens", 4).center, 8.0, 230.0)), tuning=lenient)
    assert not any(d.reason and GLARE_REASON in d.reason for d in unlit.uncertain)


def test_an_even_photo_has_no_glare():
    photo = make_photo(0, "mild", megapixels=3.0)
    result = read_photo(photo.jpeg)
    assert not any(note.startswith("glare") for note in result.notes)
    assert not any(d.reason == GLARE_REASON for d in result.uncertain)


@pytest.mark.parametrize("seed", [500013, 500023])
def test_a_broad_glare_on_paper_clipped_all_over_is_found_where_it_washes_pencil_out(seed):
    """A bright exposure clips the paper everywhere, and a broad glare over the grid lifts most of each printed
    line: no line is lighter than its own median there, yet the hatching under it is gone (families light 500013
    and 500023: 10 and 2 cells read empty, unflagged). Where the print keeps too little of its contrast, and
    around that while it keeps under half, the pencil is in doubt."""
    photo = family_photo(seed, "light")
    result = read_photo(photo.jpeg)
    assert not wrong_items(result, photo.truth) - flagged(result)
    assert any(note.startswith("glare over") for note in result.notes)
    # the spread is what finds them: without it, cells are wrong unflagged again
    narrow = read_photo(photo.jpeg, tuning=dataclasses.replace(TUNING, glare_spread_contrast=0.0))
    assert wrong_items(narrow, photo.truth) - flagged(narrow)


@pytest.mark.parametrize(("seed", "box"), [(800021, "single"), (1000005, "cut")])
def test_a_crossed_box_the_glare_reaches_is_in_doubt(seed, box):
    """Light 800021: the glare's edge reaches the 'single' box, crossed, whose print keeps 0.41 of the boxes'
    contrast; its cross washed out, it read as unused with no doubt. Light 1000005: the glare reaches all four
    boxes, so their usual contrast is lowered too, and the crossed 'cut' box kept 0.52 of it: read unused, no
    doubt. Either reading will do, in doubt; read unused, the glare's note names the box."""
    photo = family_photo(seed, "light")
    result = read_photo(photo.jpeg)
    assert box in flagged(result)
    assert wrong_items(result, photo.truth) <= flagged(result)
    if box not in result.specials_used:  # washed out past reading: the note names the box
        assert f"'{box}'" in next(note for note in result.notes if note.startswith("glare"))


def test_white_paper_clipped_by_a_gentle_reflection_is_not_glare():
    """Bright white paper clips at a little added light, but pencil and print stay dark: they can be read."""
    photo = make_photo(1, "mild", megapixels=3.0)
    cell = _most_shaded_cell(photo.truth)
    image = _with_glare(photo, L.cell_rect(*cell).center, 20.0, 15.0)
    assert (image.min(axis=2) >= 250).mean() > 0.05  # paper clipped
    result = read_photo(recode(image))
    assert not any(note.startswith("glare") for note in result.notes)


def test_paper_clipped_all_over_puts_no_box_in_doubt():
    """A bright exposure clips the whole sheet's paper, so a glare blob reaches all four special boxes, but the
    print stays as dark as ever: no glare, and no box in doubt (plain 100012 had its three unused boxes in doubt
    when any blob over all four put them under the glare)."""
    photo = make_photo(4, "mild", megapixels=3.0)  # 'single' crossed, the other three boxes unused
    image = cv2.imdecode(np.frombuffer(photo.jpeg, np.uint8), cv2.IMREAD_COLOR).astype(np.int16)
    image = np.clip(image + 45, 0, 255).astype(np.uint8)
    assert (image.min(axis=2) >= 250).mean() > 0.3  # paper clipped
    result = read_photo(recode(image))
    assert not [doubt.name for doubt in result.uncertain if doubt.kind == "special"]
    assert not wrong_items(result, photo.truth) - flagged(result)


def test_a_bright_exposure_is_no_glare_though_the_print_it_leaves_unclipped_is_beside_pencil():
    """A bright exposure clips the paper all over; the clipped blob misses only printed lines beside shading, as
    pencil keeps the paper there from clipping. Pencil darkens those lines (mild 35: 27-40 against 75-110 for the
    thin lines' print), and measured against them the print under the blob looked lifted: 20 empty cells were put
    under a glare there was not. Lines beside cells read as shaded are no measure of the print alone."""
    photo = make_photo(35, "mild")
    result = read_photo(photo.jpeg)
    assert not any(note.startswith("glare") for note in result.notes)
    assert not any(doubt.reason == GLARE_REASON for doubt in result.uncertain)
    assert not wrong_items(result, photo.truth) - flagged(result)
    # measured against every line the blob misses, pencil and all, the print looks lifted again
    assert find_glare(result.sheet_image, PX_PER_MM, shaded=()).cells
    assert not find_glare(result.sheet_image, PX_PER_MM, shaded=result.quilt.cells)


def test_a_glare_over_the_margin_does_not_bend_the_light_over_the_grid():
    """Clipped paper says nothing of the light's shape: fitted to it, the shape rose across the whole grid and 37
    empty cells read as shaded (families light 14: tungsten light, a glare over the bottom margin)."""
    photo = family_photo(14, "light")
    result = read_photo(photo.jpeg)
    assert not wrong_items(result, photo.truth) - flagged(result)
    assert result.quilt == photo.truth.quilt


def _faded_bubble(photo, number: int, place: str, digit: int, keep: float) -> np.ndarray:
    """The photo with one bubble's fill faded to `keep` of its ink (toward the paper around it), as a glare that
    does not quite clip would leave it."""
    rect = L.bubble_rect(number, place, digit)
    points = np.array([[rect.center, (rect.center[0] + rect.w * 0.6, rect.center[1])]], np.float64)
    centre, side = cv2.perspectiveTransform(points, photo.sheet_to_photo)[0]
    mask = np.zeros(photo.image.shape[:2], np.uint8)
    cv2.circle(mask, (round(centre[0]), round(centre[1])), round(float(np.linalg.norm(side - centre))), 1, -1)
    image = photo.image.astype(np.float32)
    paper = np.median(image[cv2.dilate(mask, np.ones((25, 25), np.uint8)) > mask], axis=0)
    image[mask > 0] = paper - keep * (paper - image[mask > 0])
    return np.clip(image, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("seed", range(3))
def test_a_fill_washed_out_in_one_row_puts_the_round_in_doubt(seed):
    """One row's fill washed out almost to paper, the other row's kept: the round was read as the kept row alone
    (mixed 400013: units 8 under a glare read as a score of 0, unflagged). The faint fill still stands out from
    the rest of its row, so the round is in doubt."""
    photo = make_photo(seed, "mild", megapixels=3.0)
    score = photo.truth.round_scores[0]
    assert score is not None
    result = read_photo(recode(_faded_bubble(photo, 1, "units", score % 10, keep=0.15)))
    assert result.round_scores[0] == score or "round 1" in flagged(result)
    assert wrong_items(result, photo.truth) <= flagged(result)


def test_a_round_washed_out_under_a_glare_is_not_read_without_a_doubt():
    photo = family_photo(400013, "mixed")
    result = read_photo(photo.jpeg)
    assert wrong_items(result, photo.truth) <= flagged(result)
    # Its units 8, washed out to 0.05 of ink, stands out alone in its row both ways it is read: it is read as a
    # mark fainter than a fill, in doubt (before `stages._faint_mark`, round 1 was read as 0 from its tens bubble
    # alone, the units 8 in doubt as empty).
    truth = photo.truth.round_scores[0]
    tens, units = divmod(truth, 10)
    assert result.round_scores[0] == truth
    assert any(doubt.kind == "bubble" and doubt.name == f"round 1 units {units}" and doubt.read
               for doubt in result.uncertain)
    # The picture rings only the bubbles read as filled: the units 0 bubble (empty on the sheet) is not drawn as
    # filled from the score read.
    picture = annotate(result)
    assert _ringed_green(picture, result, L.bubble_center(1, "tens", tens))
    assert not _ringed_green(picture, result, L.bubble_center(1, "units", 0))


def _ringed_green(picture: np.ndarray, result, centre_mm: tuple[float, float]) -> bool:
    """Whether the annotated picture draws a green ring (a bubble read as filled) around a point of the sheet."""
    k = result.px_per_mm
    caption = sheet_top(result)  # the header and the notes above the sheet
    radius = round((L.BUBBLE_RADIUS_MM + 0.8) * k)
    x, y = round(centre_mm[0] * k), caption + round(centre_mm[1] * k)
    angles = np.linspace(0, 2 * np.pi, 48, endpoint=False)
    ring = picture[np.round(y + radius * np.sin(angles)).astype(int), np.round(x + radius * np.cos(angles)).astype(int)]
    return bool((np.abs(ring.astype(int) - READ).sum(axis=1) < 60).mean() > 0.5)


def test_a_cross_under_a_glare_that_clips_no_paper_is_read_against_its_own_frame():
    """Added light that leaves the paper short of white washes a box's print and its cross alike: the cross keeps
    the share of its contrast that the box's printed frame keeps. Read against the stroke ink of an unwashed box,
    the crossed 'single' box read unused with no doubt (and no glare to say so)."""
    photo = make_photo(11, "mild", megapixels=3.0)
    assert photo.truth.specials_used == ("single",)
    box = L.special_box("single")
    result = read_photo(recode(_with_glare(photo, box.check.center, 10.0, 70.0)))
    assert not any(note.startswith("glare") for note in result.notes)  # nothing clipped: no glare to blame
    assert "single" in result.specials_used
    assert "single" in flagged(result)  # crossed only against its washed-out frame
    assert not wrong_items(result, photo.truth) - flagged(result)


def test_a_cross_under_a_glare_s_fringe_is_read_against_its_own_frame():
    """Light 3300011 (blind): the 'cut' box, crossed, lies under a glare's fringe where the paper does not clip;
    its frame keeps 0.68 of the other frames' ink and its cross 0.12-0.15 of ink: it read unused, unflagged."""
    photo = family_photo(3300011, "light")
    result = read_photo(photo.jpeg)
    assert "cut" in result.specials_used
    assert not wrong_items(result, photo.truth) - flagged(result)


def test_cells_settled_as_paper_from_the_glare_s_cells_are_in_doubt():
    """A glare over g3 and f4: f3, settled as paper beside them, and e3, settled beside f3, are in doubt; c3,
    settled too but apart from them, and f2, settled and then read shaded, are not."""
    glare = Glare(np.zeros((2, 2), bool), frozenset({(2, 6), (3, 5)}))
    settled = {(2, 5), (2, 4), (2, 2), (1, 5)}
    quilt = Quilt(mask_of([(1, 5)]))
    found = {doubt.cell: doubt.reason for doubt in glare.fringe_doubts(settled, quilt)}
    assert found == {(2, 5): GLARE_FRINGE_REASON, (2, 4): GLARE_FRINGE_REASON}


def test_a_fill_settled_as_paper_from_a_fill_the_glare_washed_out_is_in_doubt():
    """Mixed 5100013 (blind set): a glare washed h3 out to 0.03 of ink; g3 and then f3, a solid fill at 0.31,
    ran on into it through their lines and were settled as paper; f3, beside the glare's cells, was unflagged."""
    photo = family_photo(5100013, "mixed")
    result = read_photo(photo.jpeg)
    assert any(doubt.name == "f3" and doubt.reason == GLARE_FRINGE_REASON for doubt in result.uncertain)
    assert wrong_items(result, photo.truth) <= flagged(result)


def test_a_fill_the_glare_s_edge_washed_out_in_part_is_in_doubt():
    """Light 200028: b7, a solid fill at the edge of a glare over 53 cells, kept 0.059 of ink, under a threshold of
    0.162 that the glare and a soft shadow raised, and read as paper, unflagged. Beside the glare's cells, more ink
    than paper's is in doubt; paper beside it (a7, c7, b8, at 0.000) is not."""
    photo = family_photo(200028, "light")
    result = read_photo(photo.jpeg)
    fringe = {doubt.name for doubt in result.uncertain if doubt.reason == GLARE_FRINGE_REASON}
    assert "b7" in fringe and not fringe & {"a7", "c7", "b8"}
    assert not wrong_items(result, photo.truth) - flagged(result)
