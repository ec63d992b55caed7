"""A ring drawn round a bubble: some players circle their score's digits rather than fill the bubbles in.

The ring lies just outside the bubble's printed ring, where an empty or filled bubble leaves bare paper. Each
bubble of a row is unrolled (`cv2.warpPolar`: each row of the result a radius, each column a direction), and the
row's printed rings, the same around every bubble, are taken out as the row's usual darkness at each radius. What
is left is pencil: a ring drawn round the bubble shows in most directions, a stroke passing by (a neighbour's
ring, a stray line, a cross that reaches past the ring) in a few.
"""

from __future__ import annotations

import cv2
import numpy as np

from doodle.sheet import layout
from doodle.sheet.measure import Colours
from doodle.sheet.tuning import ReaderTuning


def ringed_shares(normalised: Colours, number: int, place: str, px_per_mm: float, t: ReaderTuning) -> np.ndarray:
    """For each of the ten bubbles of round `number`'s `place` row, the share of directions around it in which
    pencil runs between t.bubble_drawn_ring_mm from its middle: each direction's darkest point there at least
    t.bubble_drawn_ring_ink darker than the row's bubbles usually are as far from their middles. Zero for a bubble
    whose middle is darker than theirs (a faint fill), and for all where part of the row lies outside the sheet's
    picture."""
    inner, outer = t.bubble_drawn_ring_mm
    scale = t.bubble_drawn_ring_scale * px_per_mm  # unrolled pixels a millimetre
    radii, directions = round(outer * scale), t.bubble_drawn_ring_directions
    first, last = layout.bubble_center(number, place, 0), layout.bubble_center(number, place, 9)
    x0, y0 = int((first[0] - outer) * px_per_mm) - 1, int((first[1] - outer) * px_per_mm) - 1
    x1, y1 = int((last[0] + outer) * px_per_mm) + 2, int((last[1] + outer) * px_per_mm) + 2
    height, width = normalised.shape[:2]
    if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
        return np.zeros(10)
    patch = normalised[y0:y1, x0:x1].astype(np.float32)
    polar = np.stack([
        cv2.warpPolar(patch, (radii, directions), (cx * px_per_mm - x0, cy * px_per_mm - y0), outer * px_per_mm,
                      cv2.WARP_POLAR_LINEAR + cv2.INTER_LINEAR)
        for cx, cy in (layout.bubble_center(number, place, digit) for digit in range(10))
    ])  # bubble, direction, radius, colour
    # Against the paper right around each bubble (its brighter part), so that a shadow across the row does not read
    # as pencil: the darkest colour's share of the paper missing.
    paper = np.percentile(polar.reshape(10, -1, 3), t.bubble_ring_paper_percentile, axis=1)
    ink = 1.0 - np.clip((polar / np.maximum(paper, 1e-3)[:, None, None, :]).min(axis=3), 0.0, 1.0)
    pencil = ink - np.median(ink, axis=(0, 1))  # less the printed ring and digit, the same at each radius
    shares = (pencil[:, :, round(inner * scale):].max(axis=2) >= t.bubble_drawn_ring_ink).mean(axis=1)
    # A ring leaves the bubble's middle bare. A fill too faint to read as one (washed out by glare, or taken for
    # the phone's processing) darkens it as it darkens the edge: it is no ring.
    middle = pencil[:, :, : round(t.bubble_read_radius_mm * scale)].mean(axis=(1, 2))
    return np.where(middle < t.bubble_drawn_ring_middle, shares, 0.0)


def ringed_digit(shares: np.ndarray, t: ReaderTuning) -> tuple[int | None, int | None, float]:
    """From a row's `ringed_shares`: the digit a ring is drawn round (None: none), the digit in doubt (None: none)
    and the reading's confidence. A ring shows in t.bubble_drawn_ring_share of the directions round its bubble or
    more, and pencil passing by in under t.bubble_drawn_ring_unsure round any other. A pencil or a finger laid
    over the row shows round several bubbles: the best is read, in doubt; a partial ring, no more than unsure,
    is not read, in doubt."""
    order = np.argsort(shares)[::-1]
    best, second = float(shares[order[0]]), float(shares[order[1]])
    digit = int(order[0])
    if best < t.bubble_drawn_ring_unsure:
        return None, None, 1.0
    if best < t.bubble_drawn_ring_share:
        return None, digit, 0.0
    if second >= t.bubble_drawn_ring_unsure:
        return digit, digit, 0.0
    return digit, None, min(1.0, (best - second) / t.bubble_drawn_ring_share)
