"""Light that varies smoothly (vignetting, a lamp to one side) is light, not doubt (doodle.sheet.light)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from doodle.sheet.light import either_side
from doodle.sheet.scan import read_photo
from tests.photogen import make_photo
from tests.test_scan import assert_exact, recode

MANY_DOUBTS = 5  # more cells in doubt than this make a photo close to useless to a player


def _vignetted(image: np.ndarray, fall: float) -> np.ndarray:
    """A lens's cos^4 fall-off about the photo's centre, losing `fall` of the light in the corners."""
    height, width = image.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    r = np.hypot(xs - width / 2, ys - height / 2) / math.hypot(width / 2, height / 2)
    tan_corner = math.sqrt(1 / (1 - fall) ** 0.5 - 1)
    gain = np.cos(np.arctan(r * tan_corner)) ** 4
    return np.clip(image * gain[..., None], 0, 255).astype(np.uint8)


def _lamp_to_one_side(image: np.ndarray, fall: float) -> np.ndarray:
    """Light falling off smoothly across the photo (a lamp to one side), by `fall` from one edge to the other,
    on a curve rather than a straight ramp."""
    width = image.shape[1]
    u = np.linspace(0.0, 1.0, width, dtype=np.float32)
    gain = 1.0 - fall * u**2
    return np.clip(image * gain[None, :, None], 0, 255).astype(np.uint8)


@pytest.mark.parametrize("seed", range(3))
def test_vignetting_is_smooth_light_not_doubt(seed):
    photo = make_photo(seed, "mild", megapixels=3.0)
    result = read_photo(recode(_vignetted(photo.image, 0.45)))
    assert_exact(result, photo.truth)
    assert sum(doubt.kind == "cell" for doubt in result.uncertain) <= MANY_DOUBTS


@pytest.mark.parametrize("seed", range(3, 5))
def test_a_lamp_to_one_side_is_smooth_light_not_doubt(seed):
    photo = make_photo(seed, "mild", megapixels=3.0)
    result = read_photo(recode(_lamp_to_one_side(photo.image, 0.6)))
    assert_exact(result, photo.truth)
    assert sum(doubt.kind == "cell" for doubt in result.uncertain) <= MANY_DOUBTS


def test_a_cell_is_in_doubt_only_when_the_light_could_move_it_across_the_threshold():
    assert either_side(0.08, 0.1, 0.05)  # light pencil: 5% more light reads it as paper
    assert not either_side(0.4, 0.1, 0.2)  # heavy pencil stays pencil
    assert not either_side(0.0, 0.1, 0.05)  # paper stays paper
    assert either_side(0.0, 0.1, 0.2)  # unless the light may be 20% off
