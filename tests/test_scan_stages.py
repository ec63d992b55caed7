"""The photo reader's stages (doodle/sheet/stages.py) and its tuning (doodle/sheet/tuning.py)."""

from __future__ import annotations

import dataclasses

import pytest

from doodle.sheet import layout
from doodle.sheet.scan import read_photo
from doodle.sheet.stages import STAGES, SheetRead
from doodle.sheet.tuning import TUNING, ReaderTuning
from tests.photogen import make_photo
from tests.test_scan import SMALL


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
                     "decide_cells", "read_specials", "read_rounds"]
    with pytest.raises(AttributeError):
        STAGES[1](read)  # the shadows need the paper first
    for stage in STAGES:
        stage(read)
    assert read.trusted.shape == sheet.shape[:2] and read.trusted.any()
    assert read.values.shape == (81,) and 0.0 < read.threshold < 1.0
    assert read.quilt == photo.truth.quilt
    assert set(read.specials) == set(photo.truth.specials_used)
    assert read.rounds == tuple(photo.truth.round_scores)
    assert len(read.confidences) == 81 + len(layout.SPECIALS) + 60 and np.all(np.asarray(read.confidences) <= 1.0)
