"""What the phone's processing (sharpening above all) does to printed-but-empty marks, measured in the photo itself.

An unsharp mask rings brighter than paper beside every printed line; read against that bright ring, the paper
inside a printed bubble or box looks grey, as if lightly filled. How much is measured on the 60 bubbles of the
same photo: at most 6 are filled, and the digit printed in each is the same print everywhere, so their median is
what a printed-but-empty bubble reads in this photo. Marks are then measured against it: a bubble must stand out
from the empty ones as much as on an unprocessed photo, and a box that is grey all over (no strokes in it, only a
level) is in doubt when the photo lifts empty print that much, since a halo and a light solid fill then look alike.
"""

from __future__ import annotations

import numpy as np

# What an empty bubble reads (local ink over its read square) on photos without strong processing: the median of
# the 60 bubbles was 0.030-0.031 on moderate photos of tests/photogen.py (seeds 1-3). With an unsharp mask of 3
# (sigma 2 and 4 photo pixels) it rose to 0.091-0.115, and the emptiest-looking filled bubble stayed above 0.47
# while the darkest empty one reached 0.131, over the 0.125 threshold.
EMPTY_BUBBLE_INK = 0.031
# A lift this large is processing, not noise: without processing the median stays within 0.01 of EMPTY_BUBBLE_INK.
LIFT_SEEN = 0.03
# A box with no strokes in it (its ink from its 10th to its 90th percentile within the stroke ink) reads as a
# level. An empty box under a sharpening of 3 read a level of 0.21-0.27 all over; a box shaded solid with light
# pencil 0.28 (moderate seed 1, unprocessed). Below SOLID_SURE, such a level is in doubt on a processed photo.
SOLID_SURE = 0.5


def print_lift(bubble_values: np.ndarray) -> float:
    """How much more ink the photo's empty print reads than an unprocessed photo's (0 when not more)."""
    return max(0.0, float(np.median(bubble_values)) - EMPTY_BUBBLE_INK)


def level_only(box_ink: np.ndarray, stroke_ink: float, lift: float) -> bool:
    """Whether a box reads as marked only by a grey level, not by strokes, on a photo whose processing lifts empty
    print (`lift`, from `print_lift`): a halo and a light fill are then alike, and the box is in doubt."""
    if lift < LIFT_SEEN:
        return False
    low, middle, high = np.percentile(box_ink, (10, 50, 90))
    return bool(high - low < stroke_ink and middle < SOLID_SURE)
