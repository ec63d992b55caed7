"""The reader's measuring steps on their own: the largest-gap threshold, the flat-field correction and the ink
against the local light."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from doodle.sheet.measure import _paper_blur, flat_field, largest_gap_threshold, local_ink, paper_between_strokes
from doodle.sheet.scan_errors import ScanError

LOWEST, HIGHEST = 0.02, 0.22

empty_values = st.lists(st.floats(0.0, 0.015), max_size=81)
shaded_values = st.lists(st.floats(0.09, 0.9), max_size=81)


@given(empty_values, shaded_values)
def test_threshold_separates_paper_from_any_pencil(empty, shaded):
    """Empty cells (paper noise) and shaded ones (light to heavy pencil, in any mix) are split between them,
    also when the sheet is all empty or all shaded."""
    threshold = largest_gap_threshold(np.array(empty + shaded), LOWEST, HIGHEST)
    assert all(v < threshold for v in empty)
    assert all(v > threshold for v in shaded)


def test_threshold_is_not_fooled_by_light_and_heavy_pencil():
    values = np.array([0.005] * 40 + [0.11] * 10 + [0.6] * 31)  # light graphite beside solid fills
    assert 0.015 < largest_gap_threshold(values, LOWEST, HIGHEST) < 0.11


def test_flat_field_removes_a_light_gradient_and_a_shadow_on_paper():
    height, width = 400, 300
    gain = np.linspace(0.55, 1.0, width, dtype=np.float32)[None, :].repeat(height, axis=0)
    gain[:, 200:] *= 0.6  # a hard shadow over the right third
    paper = np.full((height, width, 3), 230, np.float32)
    mark = paper.copy()
    mark[180:220, 100:140] *= 0.5  # a pencil mark where the paper is lit
    image = np.clip(mark * gain[..., None], 0, 255).astype(np.uint8)
    trusted = np.ones((height, width), bool)
    trusted[170:230, 90:150] = False  # the reader never trusts where the player draws
    field = flat_field(image, trusted)
    assert field.ink[20:160, 20:180].max() < 0.05  # lit paper
    assert field.ink[20:380, 230:290].max() < 0.05  # paper in the shadow, away from its edge
    assert abs(float(np.median(field.ink[185:215, 105:135])) - 0.5) < 0.06  # the mark keeps its darkness


def test_flat_field_counts_pale_yellow_as_ink():
    image = np.full((200, 200, 3), 235, np.uint8)
    image[80:120, 80:120] = (130, 225, 235)  # BGR: pale yellow pencil takes the blue away
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    assert 235 - int(gray[100, 100]) < 20  # hardly darker in grey
    trusted = np.ones((200, 200), bool)
    trusted[70:130, 70:130] = False
    assert float(flat_field(image, trusted).ink[100, 100]) > 0.3


def _box_with_a_shadow(angle_deg: float, cross: bool) -> np.ndarray:
    """A printed 40 px box on paper, maybe crossed, with a shadow's soft edge through its middle at an angle."""
    image = np.full((160, 160, 3), 235, np.float32)
    cv2.rectangle(image, (60, 60), (100, 100), (40, 40, 40), 2)
    if cross:
        cv2.line(image, (62, 62), (98, 98), (70, 70, 70), 3)
        cv2.line(image, (98, 62), (62, 98), (70, 70, 70), 3)
    ys, xs = np.mgrid[0:160, 0:160].astype(np.float32)
    angle = np.radians(angle_deg)
    across = (xs - 80) * np.cos(angle) + (ys - 80) * np.sin(angle)
    gain = 1.0 - 0.5 / (1.0 + np.exp(-across / 2.0))  # half the light gone past the edge, over a few pixels
    return np.clip(image * gain[..., None], 0, 255).astype(np.uint8)


@given(st.floats(0.0, 180.0))
def test_local_ink_sees_strokes_and_not_a_shadow_edge(angle):
    """An empty box under a shadow's edge reads as paper, a crossed one as strokes, whatever the edge's angle."""
    box, reach = (64, 64, 96, 96), 52
    empty = local_ink(_box_with_a_shadow(angle, cross=False), box, reach)
    crossed = local_ink(_box_with_a_shadow(angle, cross=True), box, reach)
    assert float((empty > 0.2).mean()) < 0.02
    assert float((crossed > 0.2).mean()) > 0.15


def test_a_sharpened_photos_bright_halo_beside_printed_lines_is_not_taken_for_the_light():
    """Sharpening rings brighter than paper beside every printed line (issue 15 item 5): an empty printed box must
    still read as paper inside, and a pencil cross in it as ink."""
    image = np.full((120, 120, 3), 200, np.uint8)
    cv2.rectangle(image, (40, 40), (80, 80), (255, 255, 255), 4)  # the halo, each side of the line
    cv2.rectangle(image, (40, 40), (80, 80), (60, 60, 60), 1)  # the printed box
    empty = local_ink(image, (46, 46, 75, 75), 52)
    assert empty.max() < 0.05
    crossed = image.copy()
    cv2.line(crossed, (46, 46), (74, 74), (90, 90, 90), 2)
    assert local_ink(crossed, (46, 46, 75, 75), 52).max() > 0.4


@given(st.integers(2, 140), st.integers(2, 140), st.sampled_from([None, 1, 3]), st.floats(8.0, 40.0),
       st.sampled_from([np.float32, np.float64]), st.integers(0, 2**32 - 1))
def test_a_broad_blur_is_opencvs_gaussian_to_float_rounding(height, width, channels, sigma, dtype, seed):
    """The light's broad blurs are matrix products along each axis (`_paper_blur`): the same numbers as OpenCV's
    Gaussian with the border replicated, whatever the map's size (a kernel wider than the map too), channels and
    sigma, to float32 rounding, in the map's own shape."""
    shape = (height, width) if channels is None else (height, width, channels)
    image = (np.random.default_rng(seed).random(shape) * 255).astype(dtype)
    expected = cv2.GaussianBlur(image, (0, 0), sigma, borderType=cv2.BORDER_REPLICATE).reshape(shape)
    blurred = _paper_blur(image, sigma)
    assert blurred.shape == shape
    assert np.allclose(blurred, expected, rtol=0, atol=1e-5 * 255)


def test_a_photo_is_read_with_one_blas_thread(monkeypatch):
    """The reading's linear algebra is small (`_paper_blur`, the light's fits, the page field): BLAS threads that
    spin while other work wants the cores made it several times slower, so a read holds BLAS to one thread, and
    gives the program's own setting back after."""
    from threadpoolctl import threadpool_info, threadpool_limits

    from doodle.sheet import scan
    from tests.photogen import make_photo

    def blas_threads() -> set[int]:
        return {pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"}

    seen: list[set[int]] = []
    read_sheet = scan.read_sheet

    def watched(*args, **kwargs):
        seen.append(blas_threads())
        return read_sheet(*args, **kwargs)

    monkeypatch.setattr(scan, "read_sheet", watched)
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    with threadpool_limits(limits=2, user_api="blas"):  # the program's own setting, whatever the machine's
        scan.read_photo(make_photo(0, "mild").jpeg)
        assert seen == [{1}]
        assert blas_threads() == {2}
        with pytest.raises(ScanError):  # given back after a failed read too
            scan.read_photo(np.zeros((600, 800, 3), np.uint8))
        assert blas_threads() == {2}


def _hatched_cell(period_px: int, sigma_px: float, shadow: float) -> np.ndarray:
    """A 64 px square (16 mm at 4 px/mm, a cell with its lines) of horizontal hatching, 2 px strokes of ink 0.5
    every `period_px`, blurred by `sigma_px`, under light `shadow` darker (its ink added), with 8 px around it."""
    ink = np.zeros((80, 80), np.float32)
    for y in range(0, 80, period_px):
        ink[y : y + 2] = 0.5
    return cv2.GaussianBlur(ink, (0, 0), sigma_px) + shadow


@pytest.mark.parametrize("shadow", [0.0, 0.3])
def test_the_paper_between_strokes_shows_the_light_where_the_gaps_are_wide(shadow):
    """Hatching 3 mm apart in a sharp photo (print 0.5 mm wide): its gaps show the paper, and so the light, shadow
    and all."""
    ink = _hatched_cell(12, 0.6, shadow)
    paper = paper_between_strokes(ink, (8, 8, 72, 72), clear_px=0.7 * 2.0, share=0.1, around_px=8)
    assert paper == pytest.approx(shadow, abs=0.01)


def test_the_gaps_of_dense_hatching_blurred_show_no_paper():
    """Hatching 1.5 mm apart blurred as a print 1 mm wide shows: the brightest tenth of the cell still holds 0.15 of
    ink from the strokes beside it, as much as a shadow; no gap lies far enough from the strokes to show paper."""
    ink = _hatched_cell(6, 1.7, 0.0)
    assert float(np.quantile(ink[8:72, 8:72], 0.1)) > 0.1
    assert paper_between_strokes(ink, (8, 8, 72, 72), clear_px=0.7 * 4.0, share=0.1, around_px=8) is None
