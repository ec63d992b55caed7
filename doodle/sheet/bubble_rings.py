"""A ring drawn round a bubble: some players circle their score's digits rather than fill the bubbles in.

The ring lies just outside the bubble's printed ring, where an empty or filled bubble leaves bare paper. Each
bubble of a row is unrolled (`cv2.warpPolar`: each row of the result a direction, each column a radius), and the
print, the same round every bubble in each direction (its printed ring and digit, its neighbours' rings), is taken
out as the row's usual darkness there. What is left is pencil: a ring drawn round the bubble shows in most
directions, a stroke passing by (a neighbour's ring, a stray line, a cross that reaches past the ring) in a few.
"""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

from doodle.sheet import layout
from doodle.sheet.measure import Colours
from doodle.sheet.tuning import ReaderTuning


class RowRings(NamedTuple):
    shares: np.ndarray  # per bubble of a row: the share of directions round it in which pencil runs
    unlit: np.ndarray  # per bubble (bool): the paper round it is not paper-coloured, so its light is not known


class RingReading(NamedTuple):
    digit: int | None  # the digit read from a ring round its bubble; None: none
    unsure: tuple[int, ...]  # the digits whose bubbles are in doubt
    confidence: float


def ringed_shares(normalised: Colours, number: int, place: str, px_per_mm: float, t: ReaderTuning,
                  reach_mm: float | None = None) -> RowRings:
    """For each of the ten bubbles of round `number`'s `place` row, the share of directions around it in which
    pencil runs between t.bubble_drawn_ring_mm[0] and `reach_mm` (t.bubble_drawn_ring_mm[1]) from its middle: each
    direction's darkest point there at least t.bubble_drawn_ring_ink darker than the row's bubbles usually are in
    that direction, as far from their middles. Zero for a bubble whose middle is at least
    t.bubble_drawn_ring_middle darker than theirs (a fill), and for all where part of the row lies outside the
    sheet's picture.

    And which bubbles' paper is not paper-coloured in `normalised` (the sheet over its light, in which paper is
    white): its colours apart by more than t.bubble_drawn_ring_paper_tint. There the light was misjudged, and what
    reads as pencil against that paper may be the light alone (pencil-over-bubbles 890014, blind: the light
    estimated beside a yellow pencil lying by round 1's units 9 left the paper round it 2.5 times as bright as white
    in blue, and every direction read as pencil: a ring, a score of 9 where none was written, unflagged)."""
    inner, outer = t.bubble_drawn_ring_mm[0], t.bubble_drawn_ring_mm[1] if reach_mm is None else reach_mm
    scale = t.bubble_drawn_ring_scale * px_per_mm  # unrolled pixels a millimetre
    radii, directions = round(outer * scale), t.bubble_drawn_ring_directions
    first, last = layout.bubble_center(number, place, 0), layout.bubble_center(number, place, 9)
    x0, y0 = int((first[0] - outer) * px_per_mm) - 1, int((first[1] - outer) * px_per_mm) - 1
    x1, y1 = int((last[0] + outer) * px_per_mm) + 2, int((last[1] + outer) * px_per_mm) + 2
    height, width = normalised.shape[:2]
    if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
        return RowRings(np.zeros(10), np.zeros(10, bool))
    # No light estimate (the sheet beyond the photo): paper.
    patch = np.nan_to_num(normalised[y0:y1, x0:x1].astype(np.float32), nan=1.0, posinf=1.0, neginf=1.0)
    polar = np.stack([
        cv2.warpPolar(patch, (radii, directions), (cx * px_per_mm - x0, cy * px_per_mm - y0), outer * px_per_mm,
                      cv2.WARP_POLAR_LINEAR + cv2.INTER_LINEAR)
        for cx, cy in (layout.bubble_center(number, place, digit) for digit in range(10))
    ])  # bubble, direction, radius, colour
    # Against the paper right around each bubble (its brighter part), so that a shadow across the row does not read
    # as pencil: the darkest colour's share of the paper missing.
    paper = np.maximum(np.percentile(polar.reshape(10, -1, 3), t.bubble_drawn_ring_paper_percentile, axis=1), 1e-3)
    unlit = np.log(paper.max(axis=1) / paper.min(axis=1)) > t.bubble_drawn_ring_paper_tint
    ink = 1.0 - np.clip((polar / paper[:, None, None, :]).min(axis=3), 0.0, 1.0)
    pencil = ink - np.median(ink, axis=0)  # less the print, the same round every bubble in each direction
    at = np.arange(radii) * outer / radii  # each column's distance from the middle, mm
    shares = (pencil[:, :, at >= inner].max(axis=2) >= t.bubble_drawn_ring_ink).mean(axis=1)
    # A ring leaves the bubble's middle bare. A fill the reading of fills did not take (washed out by glare, or
    # taken for the phone's processing) darkens it as it darkens the edge: it is no ring.
    middle = pencil[:, :, at < t.bubble_read_radius_mm].mean(axis=(1, 2))
    return RowRings(np.where(middle < t.bubble_drawn_ring_middle, shares, 0.0), unlit)


def ringed_digit(rings: RowRings, t: ReaderTuning) -> RingReading:
    """From a row's `ringed_shares`: the digit a ring is drawn round, if any. A ring shows in
    t.bubble_drawn_ring_share of the directions round its bubble or more, and pencil passing by in under
    t.bubble_drawn_ring_unsure round any other. Rings round two bubbles (or a pencil or a finger laid over the
    row): the clearest is read, both in doubt. A partial ring, no more than unsure, is not read, in doubt. A ring
    read where the light is not known (`RowRings.unlit`) is read, in doubt. The confidence falls as the row's next
    clearest comes nearer; under t.uncertain_below its bubble is in doubt."""
    shares = rings.shares
    order = np.argsort(shares)[::-1]
    best, second = float(shares[order[0]]), float(shares[order[1]])
    digit, runner_up = int(order[0]), int(order[1])
    if best < t.bubble_drawn_ring_unsure:
        return RingReading(None, (), 1.0)
    if best < t.bubble_drawn_ring_share:
        return RingReading(None, (digit,), 0.0)
    if second >= t.bubble_drawn_ring_unsure:
        return RingReading(digit, (digit, runner_up), 0.0)
    if rings.unlit[digit]:
        return RingReading(digit, (digit,), 0.0)
    confidence = min(1.0, (best - second) / t.bubble_drawn_ring_share)
    return RingReading(digit, (digit,) if confidence < t.uncertain_below else (), confidence)
