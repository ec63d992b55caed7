"""Photos shaken by a moving hand (the style families shaken and shaken-hard of benchmarks/bench_scan_styles.py):
along the movement nothing is sharp. The player is told to hold the phone still, not sent after a shadow or a fold
that is not there."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from doodle.sheet.scan import BLURRED_NOTE, read_photo
from doodle.sheet.scan_errors import ScanError
from doodle.sheet.stages import _along_the_frame
from doodle.sheet.tuning import TUNING
from tests.photogen import make_photo
from tests.photogen_styles import styled_photo


def test_a_photo_blurred_by_a_moving_hand_is_refused_with_a_message_that_says_to_hold_still():
    """shaken-hard 12: the phone moved 52 pixels of a 10 MP photo while the shutter was open. Neither the markers
    nor the grid are found; the message said only to photograph the whole sheet, flat, which the player had done."""
    photo = styled_photo(12, "mild", shake=0.015)
    assert photo.details["shake_px"] > 20
    with pytest.raises(ScanError, match="no score sheet found.*hold the phone still"):
        read_photo(photo.jpeg)


def test_a_shaken_photo_read_with_cells_in_doubt_says_it_is_blurred():
    """shaken-hard 0: read from the grid alone, 28 cells in doubt, and nothing said of why. The printed lines
    barely show (a median contrast of 0.02, against 0.14 and more on every photo of the levels and families)."""
    result = read_photo(styled_photo(0, "mild", shake=0.015).jpeg)
    assert len([doubt for doubt in result.uncertain if doubt.kind == "cell"]) > 5
    assert BLURRED_NOTE in result.notes


@pytest.mark.parametrize("seed", [10, 67, 72])
def test_the_blurriest_harsh_photos_in_doubt_are_not_called_blurred(seed):
    """Harsh 10, 67 and 72, the blurriest of harsh 0-79 with cells in doubt (a Gaussian blur of 1.86-1.99 pixels at
    1-4 MP): the print still shows, and the doubts are the light's. (67 and 72 have none since a blurred photo's
    strokes are found at the contrast its print shows.)"""
    result = read_photo(make_photo(seed, "harsh").jpeg)
    assert BLURRED_NOTE not in result.notes


@pytest.mark.parametrize(("photo", "box"), [
    pytest.param(lambda: styled_photo(380016, "mild", shake=0.015), "twice", id="shaken-hard-380016"),
    pytest.param(lambda: make_photo(37014, "moderate"), "twice", id="moderate-37014"),
    pytest.param(lambda: styled_photo(890005, "mild", shake=0.015), "cut", id="shaken-hard-890005"),
])
def test_a_box_frame_smeared_into_the_box_reads_unused_in_doubt(photo, box):
    """shaken-hard 380016 (blind): the top of the unused 'twice' box's frame smeared 1.75 mm into it, a band along
    one side, read crossed with no doubt. Moderate 37014 (blind): the 'twice' frame's side, placed a little off
    beside a hand's shadow, read crossed (in doubt). Shaken-hard 890005 (blind): the unused 'cut' box's frame
    smeared in along its top and right sides by a shake at a slant, read crossed with no doubt. A cross or a tick
    goes through the middle of a box, and no player marks one with lines along its frame: such a box is read
    unused, in doubt."""
    photo = photo()
    assert box not in photo.truth.specials_used
    result = read_photo(photo.jpeg)
    assert box not in result.specials_used
    assert any(doubt.kind == "special" and doubt.special == box for doubt in result.uncertain)


def test_strokes_along_the_frame_are_told_from_a_cross_or_a_tick():
    """A band along one side, or along two that meet at a corner, lies along the box's frame; a cross, a tick and
    a fill go through its middle."""
    size, band = 36, 8

    def box(*lines: tuple[int, int, int, int]) -> np.ndarray:
        picture = np.zeros((size, size), np.uint8)
        for x0, y0, x1, y1 in lines:
            cv2.line(picture, (x0, y0), (x1, y1), 255, 3)
        return picture > 0

    top, right = (0, 2, size - 1, 2), (size - 3, 0, size - 3, size - 1)
    cross = ((0, 0, size - 1, size - 1), (0, size - 1, size - 1, 0))
    tick = ((4, 20, 14, 32), (14, 32, 32, 4))
    assert _along_the_frame(box(top), band, TUNING)
    assert _along_the_frame(box(top, right), band, TUNING)
    assert not _along_the_frame(box(*cross), band, TUNING)
    assert not _along_the_frame(box(*tick), band, TUNING)
    assert not _along_the_frame(np.ones((size, size), bool), band, TUNING)


def test_a_tick_blurred_below_the_strokes_threshold_is_in_doubt_by_its_ink():
    """shaken-hard 430007 (blind): a tick in 'cut', blurred along the hand's movement into 0.094 of strokes, under
    the threshold, read unused with no doubt. A blur spreads a mark's ink but keeps its sum: the box holds 0.06 more
    ink than the barest box, and is asked about. The unused box stays unused and sure."""
    photo = styled_photo(430007, "mild", shake=0.015)
    assert "cut" in photo.truth.specials_used and "twice" not in photo.truth.specials_used
    result = read_photo(photo.jpeg)
    assert any(doubt.kind == "special" and doubt.special == "cut" for doubt in result.uncertain)
    assert "twice" not in result.specials_used
    assert not any(doubt.kind == "special" and doubt.special == "twice" for doubt in result.uncertain)


def test_a_box_crossed_only_against_a_faint_frame_is_not_sure():
    """shaken-hard 940000 (blind): a shake and a hard shadow; the sheet is placed up to 4 mm off at the 'twice'
    box, unused, and its frame's smear reads 0.15 of strokes, near the threshold. Its frame, not where the box is
    read, shows 0.54 of the other frames' ink, and against that share 0.34: it read crossed, sure. The strokes
    against the usual contrast must say so too for the box to be sure."""
    photo = styled_photo(940000, "mild", shake=0.015)
    assert "twice" not in photo.truth.specials_used
    result = read_photo(photo.jpeg)
    assert "twice" not in result.specials_used or any(
        doubt.kind == "special" and doubt.special == "twice" for doubt in result.uncertain)
