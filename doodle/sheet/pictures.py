"""Pictures of what the reader's stages found (`stages.SheetRead.trace`, `doodle score --trace`), to see where a
reading went wrong. Each is a BGR image of the flattened sheet's size, drawn from plain arrays (these helpers
know nothing of the stages)."""

from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np

Colour = tuple[int, int, int]  # BGR
Box = tuple[int, int, int, int]

NOT_PAPER = (200, 80, 200)  # magenta wash over what is not taken as paper
SHADOW = (200, 120, 30)  # blue wash inside a shadow taken out
EDGE = (0, 0, 255)  # red: a shadow's edge, cells near one
PAPER = (40, 170, 40)  # green: cells that joined the paper, crossed boxes, filled bubbles
SHADED = (200, 120, 30)  # blue: cells read as shaded
EMPTY = (150, 150, 150)
DOUBT = (0, 140, 255)  # orange: in doubt, stains


def washed(image: np.ndarray, where: np.ndarray, colour: Colour, share: float = 0.5) -> np.ndarray:
    """`image` (copied) with `colour` over the pixels of `where`, at `share` of it."""
    out = image.copy()
    tint = np.array(colour, np.float32)
    out[where] = (out[where].astype(np.float32) * (1 - share) + tint * share).astype(np.uint8)
    return out


def grey(values: np.ndarray, low: float, high: float) -> np.ndarray:
    """`values` from `low` (black) to `high` (white) as a BGR picture."""
    scaled = np.clip((values.astype(np.float32) - low) / (high - low), 0.0, 1.0) * 255
    return cv2.cvtColor(scaled.astype(np.uint8), cv2.COLOR_GRAY2BGR)


def ink(ink_map: np.ndarray) -> np.ndarray:
    """Ink (0 paper .. 1 black) as it would look: paper white, black black."""
    return grey(1.0 - ink_map, 0.0, 1.0)


def framed(image: np.ndarray, boxes: Iterable[tuple[Box, Colour, str]]) -> np.ndarray:
    """`image` (copied) with each box outlined in its colour and its label (if any) written under it."""
    out = image.copy()
    for (x0, y0, x1, y1), colour, label in boxes:
        cv2.rectangle(out, (x0, y0), (x1 - 1, y1 - 1), colour, 2)
        if label:
            cv2.putText(out, label, (x0, y1 + 11), cv2.FONT_HERSHEY_SIMPLEX, 0.35, colour, 1, cv2.LINE_AA)
    return out


def pasted(shape: tuple[int, ...], parts: Iterable[tuple[Box, np.ndarray]], background: int = 255) -> np.ndarray:
    """A picture of `shape` (BGR) of `background` grey with each BGR part pasted at its box."""
    out = np.full(shape, background, np.uint8)
    for (x0, y0, x1, y1), part in parts:
        out[y0:y1, x0:x1] = part
    return out
