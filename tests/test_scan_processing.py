"""A phone's processing must not pass for pencil: an over-sharpened photo's empty boxes and bubbles are measured
against what printed-but-empty ones look like in that same photo (issue 15 item 5, doodle/sheet/processing.py)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from benchmarks.bench_scan import flagged_items
from doodle.sheet.scan import read_photo
from tests.photogen import make_photo


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
