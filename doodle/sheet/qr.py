"""Reading the sheet's QR code (`DOODLE/<layout version>/<sheet id>`) from a photo whose markers were found.

The markers already say where the code is, so it is not searched for: its square is rectified out of the photo
itself (not the flattened sheet, which is too coarse for 1 mm modules) at a fixed, generous resolution, and
decoded with its four corners given. Measured on synthetic photos (benchmarks/bench_qr.py) this reads far more
codes than letting OpenCV find the code at the photo's own resolution, in under 10 ms; a sharpened copy helps
blurred photos, and OpenCV's own detector is the last resort (it copes with a code of an unexpected size).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from doodle.sheet import layout

PX_PER_MM = 20.0  # rectified resolution: up to here more pixels per module kept decoding more 1-4 MP photos
MARGIN_MM = 2.0  # paper kept around the code's printed square
SEARCH_PX_PER_MM = 8.0  # the fallback detector looks at a smaller copy (it is slower, and does not need more)
MODULE_COUNT = 21  # a version 1 code, as printed for every sheet id of up to 5 digits (longer ones: the fallback)
SHARPEN_SIGMA_PX = 2.0


@dataclass(frozen=True)
class SheetCode:
    """What a sheet's QR code says."""

    layout: str
    sheet_id: str


_DETECTOR = cv2.QRCodeDetector()


def read_sheet_code(gray: np.ndarray, sheet_to_photo: np.ndarray, marks: layout.LayoutMarks) -> SheetCode | None:
    """The layout version and sheet id in the QR code of the sheet that `sheet_to_photo` (sheet mm -> photo
    pixels) maps, printed where the layout `marks` say; None when it cannot be read (covered, blurred, torn off)
    or is not one of ours."""
    square = _rectified(gray, sheet_to_photo, marks.qr, PX_PER_MM)
    if square is None:
        return None
    corners = _code_corners(marks)
    for image in (square, _sharpened(square)):
        found = _parsed(_decode_at(image, corners))
        if found is not None:
            return found
    small = _rectified(gray, sheet_to_photo, marks.qr, SEARCH_PX_PER_MM)
    return None if small is None else _parsed(_detect_and_decode(small))


def _rectified(gray: np.ndarray, sheet_to_photo: np.ndarray, qr: layout.Rect, px_per_mm: float) -> np.ndarray | None:
    """The code's square (with MARGIN_MM of paper round it) flattened out of the photo, upright, at `px_per_mm`;
    None when part of it is outside the photo."""
    x0, y0 = qr.x - MARGIN_MM, qr.y - MARGIN_MM
    x1, y1 = qr.x2 + MARGIN_MM, qr.y2 + MARGIN_MM
    size = round((qr.w + 2 * MARGIN_MM) * px_per_mm)
    corners = np.array([[(x0, y0), (x1, y0), (x1, y1), (x0, y1)]], np.float64)
    seen = cv2.perspectiveTransform(corners, sheet_to_photo)[0]
    height, width = gray.shape
    if not ((seen >= 0).all() and (seen[:, 0] < width).all() and (seen[:, 1] < height).all()):
        return None
    to_photo = sheet_to_photo @ np.array([[1 / px_per_mm, 0, x0], [0, 1 / px_per_mm, y0], [0, 0, 1]])
    return cv2.warpPerspective(gray, to_photo, (size, size), flags=cv2.INTER_CUBIC | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)


def _code_corners(marks: layout.LayoutMarks) -> np.ndarray:
    """The corners of the code's modules (inside its printed white border) in the rectified square, for a code of
    MODULE_COUNT modules a side drawn as the PDF writer draws it."""
    code = marks.qr_code_rect(MODULE_COUNT)
    start = (MARGIN_MM + code.x - marks.qr.x) * PX_PER_MM
    end = start + code.w * PX_PER_MM
    return np.array([[(start, start), (end, start), (end, end), (start, end)]], np.float32)


def _sharpened(image: np.ndarray) -> np.ndarray:
    blurred = cv2.GaussianBlur(image, (0, 0), SHARPEN_SIGMA_PX)
    return cv2.addWeighted(image, 2.0, blurred, -1.0, 0)


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
