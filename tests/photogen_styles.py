"""More kinds of synthetic photo than tests/photogen.py makes: framing (a second sheet in view, a mirrored photo).

Each builds on `photogen.make_photo` and keeps its ground truth, so the same checks apply. Seeds from
HELD_OUT_FIRST_SEED on are kept out of tuning (see benchmarks/bench_scan_styles.py).

    photo = two_sheet_photo(3, "mild", "beside")   # photo.truths: what each sheet says, the readable one first
    photo = mirrored_photo(3, "mild")
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from doodle.sheet import layout as L
from tests.photogen import CONDITIONS, Conditions, SyntheticPhoto, Truth, make_photo

HELD_OUT_FIRST_SEED = 10_000
ARRANGEMENTS = ("beside", "under", "over")
"""Where the second sheet lies: beside the first (partly or wholly in view), partly under it, partly over it."""


@dataclass(frozen=True)
class TwoSheetPhoto:
    seed: int
    arrangement: str
    jpeg: bytes
    truths: tuple[Truth, ...]  # the sheets a reader may read right: the one on top first
    details: dict = field(default_factory=dict, compare=False)


def _page_corners_mm(paper: str) -> np.ndarray:
    """The page's corners (TL, TR, BR, BL) in sheet millimetres (the sheet frame's origin is its top-left)."""
    slot = L.page_slots(paper)[0]
    width, height = L.page_size(paper)
    x0, y0 = -slot.x, -slot.y
    return np.array([[x0, y0], [x0 + width, y0], [x0 + width, y0 + height], [x0, y0 + height]], np.float64)


def _page_mask(sheet_to_photo: np.ndarray, paper: str, size: tuple[int, int]) -> np.ndarray:
    corners = cv2.perspectiveTransform(_page_corners_mm(paper).reshape(1, 4, 2), sheet_to_photo)[0]
    mask = np.zeros((size[1], size[0]), np.uint8)
    cv2.fillConvexPoly(mask, np.round(corners * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
    return mask


def _inside(sheet_to_photo: np.ndarray, paper: str, size: tuple[int, int]) -> bool:
    corners = cv2.perspectiveTransform(_page_corners_mm(paper).reshape(1, 4, 2), sheet_to_photo)[0]
    return bool((corners >= 0).all() and (corners[:, 0] < size[0]).all() and (corners[:, 1] < size[1]).all())


def _blend(base: np.ndarray, top: np.ndarray, mask: np.ndarray) -> np.ndarray:
    alpha = (mask.astype(np.float32) / 255.0)[..., None]
    return np.clip(base * (1 - alpha) + top * alpha, 0, 255).astype(np.uint8)


def two_sheet_photo(seed: int, level: str | Conditions = "mild", arrangement: str = "beside") -> TwoSheetPhoto:
    """A photo of one filled sheet with a second filled sheet (same paper, same marker ids: another copy of the
    same print) in the same plane: beside it (partly or wholly in view), partly under it, or partly over it."""
    cond = CONDITIONS[level] if isinstance(level, str) else level
    rng = np.random.default_rng([seed, 2, ARRANGEMENTS.index(arrangement)])
    fill = (0.45, 0.65) if arrangement == "beside" else (0.55, 0.75)
    first = make_photo(seed, replace(cond, fill=fill))
    paper = first.truth.paper
    second = make_photo(seed + 1_000_000, cond, paper=paper)
    width, height = L.page_size(paper)
    if arrangement == "beside":
        across = rng.random() < 0.5
        gap = rng.uniform(2.0, 30.0)
        step = (width + gap, rng.uniform(-20, 20)) if across else (rng.uniform(-20, 20), height + gap)
        sign = 1 if rng.random() < 0.5 else -1
        offset = (sign * step[0], sign * step[1]) if across else (sign * step[0], sign * step[1])
    else:
        share = rng.uniform(0.25, 0.6)
        angle = rng.uniform(0, 2 * math.pi)
        offset = (share * width * math.cos(angle), share * height * math.sin(angle))
    turn = math.radians(rng.uniform(-8, 8))
    cos, sin = math.cos(turn), math.sin(turn)
    place = np.array([[cos, -sin, offset[0]], [sin, cos, offset[1]], [0, 0, 1]])  # second sheet mm -> first's mm
    second_to_photo = first.sheet_to_photo @ place
    image_a = first.image
    size = (image_a.shape[1], image_a.shape[0])
    image_b = second.image
    # The second photo's page, moved to where the second sheet lies in the first photo's plane.
    b_to_a = second_to_photo @ np.linalg.inv(second.sheet_to_photo)
    moved = cv2.warpPerspective(image_b, b_to_a, size, flags=cv2.INTER_LINEAR)
    mask_b = _page_mask(second_to_photo, paper, size)
    mask_a = _page_mask(first.sheet_to_photo, paper, size)
    composite = _blend(image_a, moved, mask_b)
    if arrangement != "over":
        composite = _blend(composite, image_a, mask_a)  # the first sheet lies on top
    truths: tuple[Truth, ...] = (first.truth,) if arrangement != "over" else (second.truth,)
    if arrangement == "beside":
        truths += (second.truth,)
    quality = int(rng.integers(cond.jpeg_quality[0], cond.jpeg_quality[1] + 1))
    ok, encoded = cv2.imencode(".jpg", composite, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    details = {"arrangement": arrangement, "offset_mm": [round(v) for v in offset],
               "second_in_view": _inside(second_to_photo, paper, size),
               "first_in_view": _inside(first.sheet_to_photo, paper, size)}
    return TwoSheetPhoto(seed, arrangement, encoded.tobytes(), truths, details)


def mirrored_photo(seed: int, level: str | Conditions = "mild") -> SyntheticPhoto:
    """A photo flipped left to right, as a selfie camera stores it (or as a sheet photographed through the paper
    shows its print)."""
    photo = make_photo(seed, level)
    flipped = cv2.flip(photo.image, 1)
    ok, encoded = cv2.imencode(".jpg", flipped, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    width = flipped.shape[1]
    flip = np.array([[-1.0, 0, width - 1], [0, 1, 0], [0, 0, 1]])
    return replace(photo, jpeg=encoded.tobytes(), sheet_to_photo=flip @ photo.sheet_to_photo,
                   details={**photo.details, "mirrored": True})
