"""A phone's processing must not pass for pencil: an over-sharpened photo's empty boxes and bubbles are measured
against what printed-but-empty ones look like in that same photo (issue 15 item 5, doodle/sheet/processing.py)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from benchmarks.bench_scan import flagged_items
from doodle.sheet.scan import read_photo
from tests.photogen import make_photo
from tests.photogen_families import family_photo


def _sharpened(jpeg: bytes, amount: float, sigma_px: float) -> bytes:
    """The photo through an unsharp mask far stronger than a phone's usual (a halo `sigma_px` wide)."""
    image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    sharp = cv2.addWeighted(image, 1 + amount, cv2.GaussianBlur(image, (0, 0), sigma_px), -amount, 0)
    return cv2.imencode(".jpg", sharp, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()


@pytest.mark.parametrize(("seed", "sigma_px"), [(1, 4.0), (2, 4.0), (3, 2.0), (3, 4.0)])
def test_an_over_sharpened_photo_never_reads_its_empty_boxes_or_bubbles_as_marks_without_a_doubt(seed, sigma_px):
    photo = make_photo(seed, "moderate")
    result = read_photo(_sharpened(photo.jpeg, 3.0, sigma_px))
    flagged = flagged_items(result.doubts)
    wrong_boxes = set(result.specials_used) ^ set(photo.truth.specials_used)
    assert wrong_boxes <= flagged
    for number, (read, truth) in enumerate(zip(result.round_scores, photo.truth.round_scores, strict=True), 1):
        assert read == truth or f"round {number}" in flagged
    # the bubbles stand out from the empty ones: read right, not just flagged
    assert result.round_scores == photo.truth.round_scores


def test_a_box_shaded_grey_all_over_is_sure_on_a_photo_without_processing():
    """The doubt is for processed photos only: light solid shading in a box (moderate seed 1's "cut") reads like a
    halo's grey, but without a halo on the empty print it is a mark."""
    photo = make_photo(1, "moderate")
    result = read_photo(photo.jpeg)
    assert set(result.specials_used) == set(photo.truth.specials_used)
    assert not any(doubt.kind == "special" for doubt in result.doubts)


def _dim_blue(jpeg: bytes, seed: int, share: int, grain: float, quality: int) -> bytes:
    """The photo's blue channel as a dim tungsten lamp leaves it: 1/`share` of the light, with noise in grains a
    few pixels wide (demosaiced, sharpened; `grain` levels), pushed back up by the phone, then recompressed hard
    (a messaging app), which bleeds the frames' colour."""
    image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR).astype(np.float32)
    height, width = image.shape[:2]
    noise = np.random.default_rng(seed).normal(0.0, grain, (height // 4, width // 4)).astype(np.float32)
    blue = image[:, :, 0] / share + cv2.resize(noise, (width, height), interpolation=cv2.INTER_LINEAR)
    image[:, :, 0] = np.clip(blue * share, 0, 255)
    return cv2.imencode(".jpg", image.astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, quality])[1].tobytes()


@pytest.mark.parametrize(("seed", "share", "grain", "quality"), [(2, 4, 12, 45), (3, 4, 12, 45), (3, 6, 10, 40)])
def test_a_noisy_channel_crosses_no_empty_box_without_a_doubt(seed, share, grain, quality):
    """A channel noisy in every box, the barest one too, is noise, not pencil: measured against the barest box's
    paper, the empty boxes read empty (before, mild 2's and 3's "single" read crossed, 2's unflagged), and a
    little ink over such noise is in doubt (a sixth of the light: the noise varies from box to box)."""
    photo = make_photo(seed, "mild")
    result = read_photo(_dim_blue(photo.jpeg, seed, share, grain, quality))
    wrong = set(result.specials_used) ^ set(photo.truth.specials_used)
    assert wrong <= {doubt.name for doubt in result.doubts if doubt.kind == "special"}
    if share == 4:
        assert not wrong


def test_four_filled_boxes_one_in_pale_green_all_read_crossed():
    """Print 3700002 (blind): all four boxes filled, 'cut' in pale green. The least of the boxes in each channel was
    taken as what bare paper reads there: the grey fills' red and blue were taken off as noise, which left the green
    at 0.08 of ink, read unused and unflagged. Bare paper is read in the empty cells."""
    photo = family_photo(3700002, "print")
    assert set(photo.truth.specials_used) == {"neighbour", "single", "cut", "twice"}
    result = read_photo(photo.jpeg)
    assert set(result.specials_used) == set(photo.truth.specials_used)
    assert not any(doubt.kind == "special" for doubt in result.doubts)


def test_a_dim_tungsten_photo_reads_its_unused_boxes_as_unused():
    """Mixed 1500007 (a blind set): tungsten at 4% of a good exposure, sharpened, recompressed twice; the blue
    channel read 0.09 of ink over every box's paper, and 'neighbour' and 'single', unused, read crossed, unflagged."""
    photo = family_photo(1500007, "mixed")
    result = read_photo(photo.jpeg)
    assert set(result.specials_used) == set(photo.truth.specials_used) == {"cut"}
    assert not any(doubt.kind == "special" for doubt in result.doubts)
