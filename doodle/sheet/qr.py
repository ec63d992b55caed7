"""Reading the sheet's QR code (`DOODLE/<layout version>/<sheet id>`) from a photo whose markers were found.

The markers already say where the code is, so it is not searched for: its square is rectified out of the photo
itself (not the flattened sheet, which is too coarse for 1 mm modules) at a fixed, generous resolution, and
decoded with its four corners given. Measured on synthetic photos (benchmarks/bench_qr.py) this reads far more
codes than letting OpenCV find the code at the photo's own resolution, in under 10 ms; a sharpened copy helps
blurred photos, and OpenCV's own detector is the last resort (it copes with a code of an unexpected size). The
resolutions, margin and sharpening are `tuning.ReaderTuning`'s `qr_*`.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from doodle.sheet import layout
from doodle.sheet.tuning import TUNING, ReaderTuning

MODULE_COUNT = 21  # a version 1 code, as printed for every sheet id of up to 5 digits (longer ones: the fallback)


@dataclass(frozen=True)
class SheetCode:
    """What a sheet's QR code says."""

    layout: str
    sheet_id: str


_DETECTOR = cv2.QRCodeDetector()


def read_sheet_code(gray: np.ndarray, sheet_to_photo: np.ndarray, marks: layout.LayoutMarks, t: ReaderTuning = TUNING
                    ) -> SheetCode | None:
    """The layout version and sheet id in the QR code of the sheet that `sheet_to_photo` (sheet mm -> photo
    pixels) maps, printed where the layout `marks` say; None when it cannot be read (covered, blurred, torn off)
    or is not one of ours."""
    square = _rectified(gray, sheet_to_photo, marks.qr, t.qr_px_per_mm, t.qr_margin_mm)
    if square is None:
        return None
    corners = _code_corners(marks, t.qr_px_per_mm, t.qr_margin_mm)
    for sharpen in (False, True):  # sharpened only when needed
        found = _parsed(_decode_at(_sharpened(square, t) if sharpen else square, corners))
        if found is not None:
            return found
    small = _rectified(gray, sheet_to_photo, marks.qr, t.qr_search_px_per_mm, t.qr_margin_mm)
    return None if small is None else _parsed(_detect_and_decode(small))


def _rectified(gray: np.ndarray, sheet_to_photo: np.ndarray, qr: layout.Rect, px_per_mm: float, margin_mm: float
               ) -> np.ndarray | None:
    """The code's square (with `margin_mm` of paper round it) flattened out of the photo, upright, at `px_per_mm`;
    None when part of it is outside the photo."""
    x0, y0 = qr.x - margin_mm, qr.y - margin_mm
    x1, y1 = qr.x2 + margin_mm, qr.y2 + margin_mm
    size = round((qr.w + 2 * margin_mm) * px_per_mm)
    corners = np.array([[(x0, y0), (x1, y0), (x1, y1), (x0, y1)]], np.float64)
    seen = cv2.perspectiveTransform(corners, sheet_to_photo)[0]
    height, width = gray.shape
    if not ((seen >= 0).all() and (seen[:, 0] < width).all() and (seen[:, 1] < height).all()):
        return None
    to_photo = sheet_to_photo @ np.array([[1 / px_per_mm, 0, x0], [0, 1 / px_per_mm, y0], [0, 0, 1]])
    return cv2.warpPerspective(gray, to_photo, (size, size), flags=cv2.INTER_CUBIC | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)


def _code_corners(marks: layout.LayoutMarks, px_per_mm: float, margin_mm: float) -> np.ndarray:
    """The corners of the code's modules (inside its printed white border) in the square `_rectified` at
    `px_per_mm` with `margin_mm`, for a code of MODULE_COUNT modules a side drawn as the PDF writer draws it."""
    code = marks.qr_code_rect(MODULE_COUNT)
    start = (margin_mm + code.x - marks.qr.x) * px_per_mm
    end = start + code.w * px_per_mm
    return np.array([[(start, start), (end, start), (end, end), (start, end)]], np.float32)


def _sharpened(image: np.ndarray, t: ReaderTuning) -> np.ndarray:
    blurred = cv2.GaussianBlur(image, (0, 0), t.qr_sharpen_sigma_px)
    return cv2.addWeighted(image, 1.0 + t.qr_sharpen_amount, blurred, -t.qr_sharpen_amount, 0)


def _decode_at(image: np.ndarray, corners: np.ndarray) -> str:
    try:
        text, _ = _DETECTOR.decode(image, corners)
    except cv2.error:
        return ""
    return text or ""


def _detect_and_decode(image: np.ndarray) -> str:
    try:
        text, _, _ = _DETECTOR.detectAndDecode(image)
    except cv2.error:
        return ""
    return text or ""


def _parsed(text: str) -> SheetCode | None:
    found = layout.parse_qr_payload(text) if text else None
    return None if found is None else SheetCode(*found)
