"""The photo reader's stages (doodle/sheet/stages.py) and its tuning (doodle/sheet/tuning.py)."""

from __future__ import annotations

import dataclasses

import pytest

from doodle.sheet import layout
from doodle.sheet.refine import UNFLAT_NOTE
from doodle.sheet.scan import read_photo
from doodle.sheet.scan_errors import ScanError
from doodle.sheet.stages import STAGES, SheetRead
from doodle.sheet.tuning import TUNING, ReaderTuning
from tests.photogen import make_photo
from tests.photogen_families import family_photo
from tests.test_scan import SMALL, cover_markers, recode


def test_the_tuning_is_frozen_and_its_default_is_the_one_used():
    with pytest.raises(dataclasses.FrozenInstanceError):
        TUNING.cell_log_margin = 1.0  # type: ignore[misc]
    assert hash(ReaderTuning()) == hash(TUNING)  # hashable: it may key a cache
    assert TUNING.check_faint == TUNING.check_threshold / 2


def test_a_tuning_passed_in_is_the_one_read_with():
    photo = make_photo(3, "mild", megapixels=SMALL)
    default = read_photo(photo.jpeg)
    assert read_photo(photo.jpeg, tuning=TUNING) == default
    # nothing read with confidence 1 is listed as uncertain by default; with the bar above 1, everything is
    assert not [doubt for doubt in default.uncertain if doubt.kind == "cell"]
    everything = read_photo(photo.jpeg, tuning=dataclasses.replace(TUNING, uncertain_below=1.01))
    assert len([doubt for doubt in everything.uncertain if doubt.kind == "cell"]) == 81
    assert everything.quilt == default.quilt
    # a threshold window above every pencil fill: the threshold lies in it, and only cells with strokes are shaded
    blind = read_photo(photo.jpeg, tuning=dataclasses.replace(TUNING, cell_lowest=2.0, cell_highest=3.0))
    assert blind.threshold >= 2.0 and blind.quilt.bits != default.quilt.bits



def test_the_tuning_reaches_the_qr_code_the_print_lift_and_the_bent_page():
    """`read_photo(..., tuning=)` is what qr.py, processing.py and refine.py decide with, not values of their own."""
    photo = make_photo(3, "mild", megapixels=SMALL)
    default = read_photo(photo.jpeg)
    assert default.sheet_id is not None and default.round_scores == tuple(photo.truth.round_scores)
    assert UNFLAT_NOTE not in default.notes
    # the code's square rectified with a margin wider than the photo: not read
    assert read_photo(photo.jpeg, tuning=dataclasses.replace(TUNING, qr_margin_mm=1000.0)).sheet_id is None
    # empty print said to read far lighter than it does: every bubble's ink is taken as the photo's processing, and
    # no bubble is read as filled; a fill standing out alone in its row is read only as a lighter mark, in doubt
    lifted = read_photo(photo.jpeg, tuning=dataclasses.replace(TUNING, empty_bubble_ink=-1.0))
    read_rounds = {number for number, score in enumerate(lifted.round_scores, 1) if score is not None}
    assert read_rounds  # the photo's rounds are filled in
    doubted = {doubt.round for doubt in lifted.uncertain if doubt.kind == "bubble" and doubt.read
               and doubt.confidence == 0.0}
    assert read_rounds <= doubted
    assert not {doubt.round for doubt in default.uncertain if doubt.kind == "bubble"}
    # no box or bubble row found anywhere is close enough to the field: all in doubt, the sheet taken as bent
    strict = dataclasses.replace(TUNING, refine_box_tolerance_mm=-1.0, refine_row_tolerance_mm=-1.0)
    bent = read_photo(photo.jpeg, tuning=strict)
    assert UNFLAT_NOTE in bent.notes and bent.confidence <= strict.unflat_confidence
    assert {doubt.special for doubt in bent.uncertain if doubt.kind == "special"} == set(layout.SPECIAL_NAMES)


def test_the_tuning_reaches_the_grid_finder_and_the_layout_placed_from_it():
    """Without all the markers, grid_fallback.py and placement.py decide with the tuning passed in."""
    photo = make_photo(5, "mild", megapixels=SMALL)
    no_markers = recode(cover_markers(photo, ("tl", "tr", "br", "bl")))
    assert read_photo(no_markers).quilt == photo.truth.quilt
    with pytest.raises(ScanError, match="no score sheet found"):  # more inner lines asked for than a grid has
        read_photo(no_markers, tuning=dataclasses.replace(TUNING, grid_min_lines=17))
    cut = family_photo(1, "framing")  # a corner marker cut by the frame: the others place the boxes and bubbles
    assert read_photo(cut.jpeg).specials_used is not None
    unplaced = read_photo(cut.jpeg, tuning=dataclasses.replace(TUNING, placed_unsure_mm=0.0))
    assert unplaced.specials_used is None and not unplaced.rounds_read

def test_each_stage_fills_in_what_the_next_reads():
    """The stages run in order on one SheetRead: each finds what it says, and none reads what is not there yet."""
    import cv2
    import numpy as np

    from doodle.sheet.markers import detect_markers, fit_markers
    from doodle.sheet.scan import _warp

    photo = make_photo(3, "mild", megapixels=SMALL)
    image = photo.image
    fit = fit_markers(detect_markers(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)), image.shape[:2]).fit
    sheet, inside = _warp(image, fit.homography)
    read = SheetRead(sheet, inside, marks=True)
    names = [stage.__name__ for stage in STAGES]
    assert names == ["find_paper", "take_out_shadows", "light_and_cells", "shadow_doubts", "find_strokes",
                     "decide_cells", "measure_print", "read_specials", "read_rounds"]
    with pytest.raises(AttributeError):
        STAGES[1](read)  # the shadows need the paper first
    for stage in STAGES:
        stage(read)
    assert read.trusted.shape == sheet.shape[:2] and read.trusted.any()
    assert read.values.shape == (81,) and 0.0 < read.threshold < 1.0
    assert read.quilt == photo.truth.quilt
    assert set(read.specials) == set(photo.truth.specials_used)
    assert read.rounds == tuple(photo.truth.round_scores)
    assert 0.0 <= read.print_lift < TUNING.lift_seen  # an unprocessed photo's empty print reads as such
    assert len(read.confidences) == 81 + len(layout.SPECIALS) + 60 and np.all(np.asarray(read.confidences) <= 1.0)
