"""How sharp a tint's edge is: a pencil keeps its edge, an eraser smears it.

A fill stops at its cell's sides, a little inside the printed line or over it. Where it stops inside, a strip of
paper lies between the line and the fill, and the ink rises from that paper to the fill's own darkness as sharply as
the pencil drew it and the photo resolves it. A patch rubbed out keeps a share of its graphite, smeared by the eraser
over half a millimetre and more: its edge rises over a millimetre, where a fill's rises over a pixel or two of the
flattened sheet in a photo sharp enough to show the print's thin lines as thin.

Each side of a cell is read as profiles across it, one per row of pixels along it (clear of the corners), from the
printed line inward: a stroke ending there, the wobble of a hand's edge, move where each row rises, not how steeply.
"""

from __future__ import annotations

import numpy as np

from doodle.sheet import layout
from doodle.sheet.tuning import TUNING, ReaderTuning


def edge_rise_mm(ink: np.ndarray, px_per_mm: float, cell: tuple[int, int], t: ReaderTuning = TUNING
                 ) -> float | None:
    """How far (mm) the ink of a tint in `cell` (row, col) rises from the paper beside its printed lines to its
    own darkness (from a fifth of the way to four fifths, the median over the rows of its sides that show paper
    between line and tint), on the flattened sheet's `ink` (0 paper .. 1 black). None where fewer than
    t.edge_rows_least of the rows show paper there: the tint runs over its lines, or is too faint.

    The rise is measured from the lowest point between line and tint, so a smeared edge whose tail reaches the
    line reads narrower than it is (a Gaussian smear rises over 1.68 sigmas; at 1 mm from the line, a sigma of 0.8
    reads 1.0 mm): what is read is the part in view, and the tuning was set on it."""
    rect = layout.cell_rect(*cell)
    x0, y0 = round(rect.x * px_per_mm), round(rect.y * px_per_mm)
    x1, y1 = round(rect.x2 * px_per_mm), round(rect.y2 * px_per_mm)
    clear, depth = round(t.edge_clear_mm * px_per_mm), round(t.edge_plateau_mm[1] * px_per_mm)
    height, width = ink.shape
    if x0 < 0 or y0 < 0 or x1 >= width or y1 >= height or x1 - x0 <= 2 * depth:
        return None
    sides = [ink[y0 + clear : y1 - clear, x0 : x0 + depth],  # from the left line inward, a row per pixel row
             ink[y0 + clear : y1 - clear, x1 - depth + 1 : x1 + 1][:, ::-1],
             ink[y0 : y0 + depth, x0 + clear : x1 - clear].T,
             ink[y1 - depth + 1 : y1 + 1, x0 + clear : x1 - clear][::-1].T]
    profiles = np.concatenate(sides).astype(np.float32)
    rises = _rises(profiles, px_per_mm, t)
    if not len(rises) or len(rises) < t.edge_rows_least * len(profiles):
        return None
    return float(np.median(rises))


def _rises(profiles: np.ndarray, px_per_mm: float, t: ReaderTuning) -> np.ndarray:
    """Of the `profiles` (rows, offsets from the printed line inward) that dip to paper before rising to a tint,
    the distance (mm) between where each passes a fifth and four fifths of its rise, found between pixels."""
    near, far = (round(v * px_per_mm) for v in t.edge_plateau_mm)
    plateau = np.median(profiles[:, near:far], axis=1)
    gap = round(t.edge_gap_mm * px_per_mm)
    lowest = profiles[:, :gap].argmin(axis=1)
    floor = profiles[np.arange(len(profiles)), lowest]
    shows_paper = (plateau >= t.edge_ink_least) & (floor < t.edge_gap_share * plateau)
    profiles, plateau = profiles[shows_paper], plateau[shows_paper]
    lowest, floor = lowest[shows_paper], floor[shows_paper]
    offsets = np.arange(profiles.shape[1])

    def passes(share: float) -> tuple[np.ndarray, np.ndarray]:
        """Where each profile first reaches `share` of its rise past its lowest point (pixels, between pixels),
        and whether it does."""
        level = floor + share * (plateau - floor)
        reached = (offsets >= lowest[:, None]) & (profiles >= level[:, None])
        first = reached.argmax(axis=1)  # past the lowest point, which is under the level: at least 1
        before = np.maximum(first - 1, 0)
        rows = np.arange(len(profiles))
        low, high = profiles[rows, before], profiles[rows, first]
        between = np.where(high > low, (level - low) / np.maximum(high - low, 1e-6), 0.0)
        return before + np.clip(between, 0.0, 1.0), reached.any(axis=1)

    start, started = passes(0.2)
    end, ended = passes(0.8)
    return ((end - start) / px_per_mm)[started & ended]
