"""A patch rubbed out leaves a ghost of its pencil: a grey tint with no strokes in it and no outline drawn about it
is read shaded only well away from the threshold, and in doubt nearer it (doodle/sheet/stages.py `decide_cells`,
tuning `bare_tint_margin_factor`). A coloured tint is meant, and an outlined one is a patch, unless its darkest
pencil is far fainter than the sheet's own shading (tuning `faint_tint_share`): an outline is rubbed out with it.
A tint in doubt that faint, with no outline drawn about it, is offered as empty."""

from __future__ import annotations

from dataclasses import replace

import pytest

from doodle.sheet.scan import read_photo
from doodle.sheet.tuning import TUNING
from tests.photogen import make_photo
from tests.photogen_styles import styled_photo
from tests.test_scan import flagged, wrong_items

NO_EDGE = float("inf")  # a tint's smeared edge (`fill_edges`) not asked about: to see another rule alone


@pytest.mark.parametrize("seed", [10015, 7])
def test_a_rubbed_out_patch_is_never_read_shaded_without_a_doubt(seed):
    """Held-out erased 10015 (7 cells) and erased 7 (4 cells, g7-h8): a solid patch rubbed out to a third of its
    darkness, 1.9-2.0 times the threshold, no strokes, no outline; read shaded and sure before. (Erased 10019 was
    one too, before the generator rubbed each patch out once.)"""
    photo = styled_photo(seed, "mild", distractor="erased")
    result = read_photo(photo.jpeg)
    wrong = wrong_items(result, photo.truth)
    assert wrong, "the ghost is read shaded (in doubt): a light fill looks the same"
    assert not wrong - flagged(result)
    # The wider margin alone catches it (so do the ghost's faintness beside the sheet's shading, in either band,
    # and its smeared edge: see below).
    margin_alone = replace(TUNING, faint_tint_share=0.0, faint_smooth_tint_share=0.0, alike_tint_ratio=1.0,
                           smeared_edge_ratio=NO_EDGE)
    alone = read_photo(photo.jpeg, tuning=margin_alone)
    assert not wrong_items(alone, photo.truth) - flagged(alone)
    before = read_photo(photo.jpeg, tuning=replace(margin_alone, bare_tint_margin_factor=1.0))
    assert wrong_items(before, photo.truth) - flagged(before), "the reader without the wider margin missed it"


def test_a_pale_yellow_fill_in_doubt_for_its_tint_is_not_settled_as_paper():
    """Harsh 14: d3, a pale yellow fill washed grey, in doubt; the printed lines would have settled it as paper,
    wrong and unflagged, had a doubt for its bare tint been settled by them."""
    photo = make_photo(14, "harsh")
    result = read_photo(photo.jpeg)
    assert not wrong_items(result, photo.truth) - flagged(result)
    assert result.quilt.is_covered(2, 3)


def test_a_ghost_far_fainter_than_the_sheets_shading_is_in_doubt_outlined_or_not():
    """Held-out erased 10014: a scribbled patch rubbed out, its texture kept and its outline too in part, at 0.20-0.23
    of the darkness of the sheet's shading, no strokes found in it: d7 and e9 (in the ghost's outline), d8 and f9
    were read shaded and sure before the ghost's faintness was asked about."""
    photo = styled_photo(10014, "mild", distractor="erased")
    result = read_photo(photo.jpeg)
    assert {"d7", "d8", "e9", "f9"} <= flagged(result)
    assert not wrong_items(result, photo.truth) - flagged(result)


def test_a_ghost_far_fainter_than_the_sheets_shading_is_in_doubt_for_that():
    """Erased 20003: a patch rubbed out to 0.24 of the sheet's shading, grain 0.016-0.018 (a pencil's, not smeared
    smooth), 3.1 times the threshold, no outline: a6, a7, b6 and b7, in doubt for their faintness beside the sheet's
    shading alone; without it, read shaded and sure. (Held-out 10014 was such a ghost too, before the generator
    rubbed each patch out once; its cells are in doubt for other reasons as well now.)"""
    photo = styled_photo(20003, "mild", distractor="erased")
    ghost = {"a6", "a7", "b6", "b7"}
    result = read_photo(photo.jpeg)
    assert ghost <= flagged(result)
    assert not wrong_items(result, photo.truth) - flagged(result)
    before = read_photo(photo.jpeg, tuning=replace(TUNING, faint_tint_share=0.0, smeared_edge_ratio=NO_EDGE))
    assert ghost <= wrong_items(before, photo.truth) - flagged(before)


def test_a_light_fill_beside_heavy_shading_stays_sure():
    """Moderate 3016: a patch of light pencil (no strokes found) at 0.29-0.30 of the darkness of the sheet's heavy
    shading is a fill, read shaded and sure; a rule that reached a little further would doubt it."""
    photo = make_photo(3016, "moderate")
    light = {"a8", "f8", "f9", "g9"}
    result = read_photo(photo.jpeg)
    assert all(result.quilt.is_covered(int(name[1:]) - 1, ord(name[0]) - ord("a")) for name in light)
    assert not light & flagged(result)
    further = read_photo(photo.jpeg, tuning=replace(TUNING, faint_tint_share=0.35))
    assert light <= flagged(further)


def test_a_faint_fill_that_shows_pencil_grain_stays_sure():
    """Held-out sharpened 10020: light fills at 0.22-0.24 of the darkness of the sheet's strokes (sharpening darkens
    thin strokes' cores more than a fill) but speckled as pencil is (grain 0.19-0.22), read shaded and sure; without
    asking for grain, they would be in doubt (e8, d9, e9, the faintest at 0.22-0.23, at least)."""
    photo = styled_photo(10020, "moderate", sharpen=2.0)
    light = {"d6", "e6", "e7", "e8", "f8", "d9", "e9"}
    result = read_photo(photo.jpeg)
    assert not wrong_items(result, photo.truth) - flagged(result) and not light & flagged(result)
    grainless = read_photo(photo.jpeg, tuning=replace(TUNING, faint_tint_grain_most=1.0))
    assert {"e8", "d9", "e9"} <= flagged(grainless)


def test_a_ghosts_cells_share_the_doubt_one_of_them_is_in():
    """Erased 20023: a hatched patch rubbed out, g4-i4, h5, i5 and i6 at 0.104-0.116 of ink. h4, faint beside the
    sheet's shading, is in doubt as a ghost; g4, h5 and i6, of the same tint but just less faint, were read shaded
    and sure. One patch rubbed out is one tint: they share h4's doubt (tuning `alike_tint_ratio`)."""
    photo = styled_photo(20023, "mild", distractor="erased")
    ghost = {"g4", "h4", "i4", "h5", "i5", "i6"}
    result = read_photo(photo.jpeg)
    assert ghost <= flagged(result)
    assert not wrong_items(result, photo.truth) - flagged(result)
    alone = read_photo(photo.jpeg, tuning=replace(TUNING, alike_tint_ratio=1.0, smeared_edge_ratio=NO_EDGE))
    assert {"g4", "h5", "i6"} <= wrong_items(alone, photo.truth) - flagged(alone)


@pytest.mark.parametrize(("seed", "ghost"), [(620017, {"d6", "e6"}), (610001, {"b4", "c4", "b5", "c5"})])
def test_a_ghost_as_faint_as_a_light_fill_but_smoother_is_in_doubt(seed, ghost):
    """Erased 620017 and 610001 (blind sets of earlier stops, sharp photos): solid patches rubbed out to 0.28-0.29
    of the sheet's shading, as faint as a light fill, but smeared smoother than pencil (grain 0.0056-0.011, light
    fills 0.015 and up), no outline: read shaded and sure before the smoother band (tuning
    `faint_smooth_tint_share`) asked about them."""
    photo = styled_photo(seed, "mild", distractor="erased")
    result = read_photo(photo.jpeg)
    assert ghost <= flagged(result)
    assert not wrong_items(result, photo.truth) - flagged(result)
    before = read_photo(photo.jpeg, tuning=replace(TUNING, faint_smooth_tint_share=0.0, smeared_edge_ratio=NO_EDGE))
    assert ghost <= wrong_items(before, photo.truth) - flagged(before)


def test_a_ghost_s_doubt_stops_at_a_line_drawn_between_two_patches():
    """Moderate 64014 (blind, an earlier stop): d4, a cell of a smooth light fill b4-d4, c5, is in doubt as a
    ghost, faint beside the sheet's shading. e4-h4, e5 and h5, a light fill of the same depth beside it, outlined in
    green, shared that doubt through d4-e4. A line drawn between two cells parts two patches, and one patch rubbed
    out is one tint: the outlined fill is read shaded and sure."""
    photo = make_photo(64014, "moderate")
    result = read_photo(photo.jpeg)
    assert not wrong_items(result, photo.truth)
    assert "d4" in flagged(result)
    assert not {"e4", "f4", "g4", "h4", "e5", "h5"} & flagged(result)


@pytest.mark.parametrize(("seed", "ghost"), [(690003, {"g3", "g4", "g5", "h5", "i5", "i6", "i7"}),
                                             (630004, {"h8", "i8", "h9", "c9"})])
def test_a_ghost_whose_edge_the_eraser_smeared_is_in_doubt(seed, ghost):
    """Erased 690003 and 630004 (blind sets of earlier stops): patches rubbed out to 0.25-0.40 of the sheet's
    shading, in photos a little too soft to show pencil grain (printed lines 0.65-0.67 mm wide), read shaded and
    sure. Their edges rise from the paper beside the lines over 0.67-1.34 mm, where the sheet's fills rise over
    0.3; fills rise over 0.87 of the print's width at most (`fill_edges`). The cells within the ghost, with no edge
    of their own in view, share the doubt (g5 and i5; h9)."""
    photo = styled_photo(seed, "mild", distractor="erased")
    result = read_photo(photo.jpeg)
    assert ghost <= flagged(result)
    assert not wrong_items(result, photo.truth) - flagged(result)
    before = read_photo(photo.jpeg, tuning=replace(TUNING, smeared_edge_ratio=NO_EDGE))
    assert ghost <= wrong_items(before, photo.truth) - flagged(before)


@pytest.mark.parametrize(("seed", "ghost"), [(860009, {"e5", "d6", "e6", "e7"}), (860010, {"e1", "f1", "e2", "e3"}),
                                             (860015, {"b3", "c3", "a4", "b4", "a5"})])
def test_a_ghost_in_doubt_far_fainter_than_any_fill_is_offered_as_empty(seed, ghost):
    """Erased 860009, 860010 and 860015 (the blind set of the forty-seventh stop): patches rubbed out to 0.13-0.19
    of the sheet's shading, no strokes, no outline, in doubt as ghosts but offered as shaded. The lightest pencil
    fills read 0.24 of the shading and up; ghosts that faint are offered as empty, still in doubt."""
    photo = styled_photo(seed, "mild", distractor="erased")
    result = read_photo(photo.jpeg)
    assert ghost <= flagged(result)
    assert not ghost & wrong_items(result, photo.truth)
    assert not wrong_items(result, photo.truth) - flagged(result)
