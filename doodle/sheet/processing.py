"""What the phone's processing (sharpening above all) does to printed-but-empty marks, measured in the photo itself.

An unsharp mask rings brighter than paper beside every printed line; read against that bright ring, the paper
inside a printed bubble or box looks grey, as if lightly filled. How much is measured on the 60 bubbles of the
same photo: at most 6 are filled, and the digit printed in each is the same print everywhere, so their median is
what a printed-but-empty bubble reads in this photo. Marks are then measured against it: a bubble must stand out
from the empty ones as much as on an unprocessed photo, and a box that is grey all over (no strokes in it, only a
level) is in doubt when the photo lifts empty print that much, since a halo and a light solid fill then look alike.
The values (`empty_bubble_ink`, `lift_seen`, `solid_sure`) are in `tuning.ReaderTuning` with their evidence.
"""

from __future__ import annotations

import numpy as np

from doodle.sheet.tuning import TUNING, ReaderTuning


def print_lift(bubble_values: np.ndarray, t: ReaderTuning = TUNING) -> float:
    """How much more ink the photo's empty print reads than an unprocessed photo's (0 when not more)."""
    return max(0.0, float(np.median(bubble_values)) - t.empty_bubble_ink)


def level_only(box_ink: np.ndarray, stroke_ink: float, lift: float, t: ReaderTuning = TUNING) -> bool:
    """Whether a box reads as marked only by a grey level, not by strokes, on a photo whose processing lifts empty
    print (`lift`, from `print_lift`): a halo and a light fill are then alike, and the box is in doubt."""
    if lift < t.lift_seen:
        return False
    low, middle, high = np.percentile(box_ink, t.level_percentiles)
    return bool(high - low < stroke_ink and middle < t.solid_sure)
