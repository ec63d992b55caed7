"""The annotated picture: the flattened sheet with what was read drawn on it, to check at a glance."""

from __future__ import annotations

import cv2
import numpy as np

from doodle.quilt import SIZE
from doodle.sheet import layout
from doodle.sheet.scan import ScanResult

SHADED = (200, 120, 30)  # BGR: blue wash over shaded cells
WASH = 0.35  # how much of SHADED a shaded cell shows (the rest is the photo); the legend's swatch matches it
EMPTY = (150, 150, 150)  # a small grey ring in empty cells (each costs a point): quiet, not an alarm
RECTANGLE = (40, 150, 40)  # green frame around the best rectangle, its score on a green plate
DOUBT = (0, 140, 255)  # orange ring around anything to check
READ = (40, 170, 40)  # green ring around crossed boxes and filled bubbles
INK = (30, 30, 30)
NOTE = (20, 60, 170)  # dark red-brown: the reader's notes on how the photo was taken, above the sheet
LEGEND = (
    ("wash", SHADED, "shaded cell"),
    ("ring", EMPTY, "empty cell (-1 point)"),
    ("frame", RECTANGLE, "best rectangle"),
    ("box", READ, "crossed box / filled bubble"),
    ("box", DOUBT, "to check (reader's confidence)"),
)


def _px(value: float, px_per_mm: float) -> int:
    return round(value * px_per_mm)


def annotate(result: ScanResult) -> np.ndarray:
    """A BGR image of the flattened sheet with shaded cells, empty cells, the best rectangle, the crossed special
    boxes, the filled bubbles and every uncertain item (with its confidence) drawn on it."""
    image = result.sheet_image.copy()
    k = result.px_per_mm
    wash = image.copy()
    for row in range(SIZE):
        for col in range(SIZE):
            x0, y0, x1, y1 = layout.cell_rect(row, col).inset(1.0).to_px(k)
            if result.quilt.is_covered(row, col):
                cv2.rectangle(wash, (x0, y0), (x1, y1), SHADED, -1)
            else:
                cv2.circle(image, ((x0 + x1) // 2, (y0 + y1) // 2), _px(1.4, k), EMPTY, max(1, _px(0.3, k)),
                           cv2.LINE_AA)
    image = cv2.addWeighted(wash, WASH, image, 1 - WASH, 0)
    rect = result.quilt.best_rectangle()
    if rect is not None:
        top_left = layout.cell_rect(rect.row, rect.col)
        bottom_right = layout.cell_rect(rect.row + rect.height - 1, rect.col + rect.width - 1)
        cv2.rectangle(
            image,
            (_px(top_left.x, k), _px(top_left.y, k)),
            (_px(bottom_right.x2, k), _px(bottom_right.y2, k)),
            RECTANGLE,
            max(2, _px(0.9, k)),
            cv2.LINE_AA,
        )
        _plate(image, f"{rect.width}x{rect.height} = {rect.score}", (_px(top_left.x, k), _px(top_left.y, k)), k)
    if result.specials_used is not None:  # read (with the markers, or placed from the grid and markers in view)
        for special in layout.SPECIALS:
            if special.name in result.specials_used:
                _ring(image, special.check.inset(-1.0), READ, k)
    for cx, cy in _filled_bubbles(result):
        cv2.circle(image, (_px(cx, k), _px(cy, k)), _px(layout.BUBBLE_RADIUS_MM + 0.8, k), READ, 2, cv2.LINE_AA)
    for doubt in result.doubts:
        places = [layout.cell_rect(*cell) for cell in sorted(doubt.cells)] or [doubt.where]
        for where in places:
            if where is not None:
                _ring(image, where.inset(-0.8), DOUBT, k)
        if doubt.where is not None and doubt.kind != "quilt":
            label = "check" if doubt.reason else f"{doubt.confidence:.2f}"
            _text(image, label, (_px(doubt.where.x, k), _px(doubt.where.y2 + 3.5, k)), DOUBT, k)
    return cv2.vconcat([*_top_bands(result), image, _legend(image.shape[1], k)])


def sheet_top(result: ScanResult) -> int:
    """How far down the annotated picture the sheet starts (below the header and the reader's notes)."""
    return sum(band.shape[0] for band in _top_bands(result))


def _top_bands(result: ScanResult) -> list[np.ndarray]:
    """The header (method, confidence, empty cells, how many to check) and, when there are any, the notes."""
    k, width = result.px_per_mm, result.sheet_image.shape[1]
    header = f"{result.method}, confidence {result.confidence:.2f}, empty {result.quilt.empty_count()}"
    if result.doubts:
        header += f", {len(result.doubts)} to check (orange)"
    band = np.full((_px(9.0, k), width, 3), 255, np.uint8)
    _text(band, header, (_px(2.0, k), _px(6.0, k)), INK, k, scale=k / 7)
    return [band, _notes(result.notes, width, k)] if result.notes else [band]


def _notes(notes: tuple[str, ...], width: int, k: float) -> np.ndarray:
    """A band with the reader's notes (a shadow, glare, uneven light, another sheet in view), each wrapped to the
    picture's width: a player who only looks at the picture still sees that the photo should be taken again."""
    scale, thickness = k / 8, max(1, round(k / 6))
    margin, line_h = _px(2.0, k), _px(5.0, k)
    lines = [line for note in notes for line in _wrapped(f"- {note}", width - 2 * margin, scale, thickness)]
    band = np.full((len(lines) * line_h + _px(3.0, k), width, 3), 255, np.uint8)
    for index, line in enumerate(lines):
        cv2.putText(band, line, (margin, _px(1.0, k) + (index + 1) * line_h), cv2.FONT_HERSHEY_SIMPLEX, scale,
                    NOTE, thickness, cv2.LINE_AA)
    return band


def _wrapped(text: str, width: int, scale: float, thickness: int) -> list[str]:
    """`text` split between words into lines no wider than `width` pixels in the notes' type."""
    lines: list[str] = []
    for word in text.split():
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and cv2.getTextSize(joined, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)[0][0] <= width:
            lines[-1] = joined
        else:
            lines.append(word)
    return lines


def _filled_bubbles(result: ScanResult) -> list[tuple[float, float]]:
    """The centres of the bubbles read as filled, in the rounds whose score is still the one they make (a score a
    player gave instead is not something seen on the photo, so none of its bubbles is drawn as read)."""
    found = []
    for block, score, digits in zip(layout.ROUNDS, result.round_scores, result.round_bubbles, strict=False):
        tens, units = digits
        if score is None or score != (tens or 0) * 10 + (units or 0):
            continue
        found += [layout.bubble_center(block.number, place, digit)
                  for place, digit in zip(layout.PLACES, digits, strict=True) if digit is not None]
    return found


def _legend(width: int, k: float) -> np.ndarray:
    """A band saying what each colour and mark means, two entries a row, in type readable on a phone."""
    row_h, columns = _px(9.0, k), 2
    rows = -(-len(LEGEND) // columns)
    band = np.full((rows * row_h + _px(2.0, k), width, 3), 255, np.uint8)
    cv2.line(band, (0, 0), (width, 0), (200, 200, 200), 1)
    for index, (mark, color, text) in enumerate(LEGEND):
        x = _px(3.0, k) + (index % columns) * (width // columns)
        y = _px(1.5, k) + (index // columns) * row_h
        x1, y1 = x + _px(7.0, k), y + _px(7.0, k)
        if mark == "wash":
            cv2.rectangle(band, (x, y), (x1, y1), tuple(round(255 * (1 - WASH) + c * WASH) for c in color), -1)
        elif mark == "ring":
            cv2.circle(band, ((x + x1) // 2, (y + y1) // 2), _px(1.4, k), color, max(1, _px(0.3, k)), cv2.LINE_AA)
            cv2.rectangle(band, (x, y), (x1, y1), (200, 200, 200), 1)
        else:
            cv2.rectangle(band, (x, y), (x1, y1), color, max(2, _px(0.6 if mark == "box" else 0.9, k)), cv2.LINE_AA)
        _text(band, text, (x1 + _px(2.0, k), y1 - _px(0.5, k)), INK, k, scale=k / 6.5)
    return band


def _plate(image: np.ndarray, text: str, corner: tuple[int, int], k: float) -> None:
    """`text` in white on a solid green plate at the rectangle's top-left corner: readable at phone size."""
    scale, thickness = k / 4.5, max(2, round(k / 2))
    (w, h), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
    pad = _px(1.0, k)
    x, y = corner
    cv2.rectangle(image, (x, y), (x + w + 2 * pad, y + h + base + 2 * pad), RECTANGLE, -1)
    cv2.putText(image, text, (x + pad, y + pad + h), cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 255), thickness,
                cv2.LINE_AA)


def _ring(image: np.ndarray, rect: layout.Rect, color: tuple[int, int, int], k: float) -> None:
    x0, y0, x1, y1 = rect.to_px(k)
    cv2.rectangle(image, (x0, y0), (x1, y1), color, max(2, _px(0.6, k)), cv2.LINE_AA)


def _text(
    image: np.ndarray, text: str, origin: tuple[int, int], color: tuple[int, int, int], k: float, scale: float = 0
) -> None:
    scale = scale or k / 10
    cv2.putText(image, text, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 255), 5, cv2.LINE_AA)
    cv2.putText(image, text, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, color, 2, cv2.LINE_AA)


def annotated_png(result: ScanResult) -> bytes:
    """The annotated picture as PNG bytes (to be written atomically by the caller)."""
    ok, data = cv2.imencode(".png", annotate(result))
    if not ok:  # pragma: no cover - OpenCV always encodes a valid BGR image
        raise RuntimeError("could not encode the annotated picture")
    return data.tobytes()
