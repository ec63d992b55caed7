"""The photo reader's tuning values in one frozen place, each with the evidence it was set on (after
OMRChecker's `CONFIG_DEFAULTS.threshold_params`).

`TUNING` is what the reader uses; `read_photo(..., tuning=replace(TUNING, cell_log_margin=1.0))` reads with
another value (a benchmark trying one). Geometry is not here: where things are on the sheet is `layout`, and the
flattened sheet's resolution `stages.PX_PER_MM`. Lengths are in sheet millimetres, ink in units of 0 (paper) to 1
(black), light in log brightness unless said otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass

from doodle.sheet.shadows import EDGE_CHANGE


@dataclass(frozen=True)
class ReaderTuning:
    """Every threshold, margin and window the reader decides with (see the module's docstring)."""

    # --- where marks are measured ---
    cell_inset_mm: float = 3.5  # measure a cell's interior only: away from printed lines and hand-drawn outlines
    check_inset_mm: float = 1.5
    bubble_read_radius_mm: float = 1.6
    bubble_ring_mm: tuple[float, float] = (2.7, 3.1)  # the paper around a bubble, inside its neighbours

    # --- the paper known before anything is read (margins around what is printed or drawn, mm) ---
    paper_margin_mm: float = 1.0  # around markers, the QR code, special boxes and printed blocks
    paper_grid_margin_mm: float = 0.7  # around the grid
    paper_write_margin_mm: float = 1.5  # around the boxes where round scores are written
    paper_bubble_margin_mm: float = 0.6  # around each bubble
    grid_ring_mm: float = 5.0  # without markers, paper is taken from this far around the grid ...
    grid_ring_inner_mm: float = 1.5  # ... and no nearer than this

    # --- the cells: threshold and confidence ---
    # Cell threshold window (ink units): empty paper measures about 0, the lightest pencil fill well above 0.05.
    cell_lowest: float = 0.02
    cell_highest: float = 0.22
    # Confidence 1 at this log distance (see measure.log_distance) from the threshold; uncertain below half of it.
    cell_log_margin: float = 0.8
    paper_cell: float = 0.03  # a cell measuring less ink than this (and under half the threshold) is taken as paper
    max_passes: int = 5  # rounds of empty cells joining the paper and the light estimated again, at most
    uncertain_below: float = 0.5  # anything read with less confidence than this is listed as uncertain

    # --- the cells under hard shadows ---
    grid_line_reach_mm: float = 3.0  # pencil edges lie this close to a printed grid line (shading over or short)
    grid_domain_margin_mm: float = 1.0  # shadows' steps are believed this far outside the grid too
    split_min_share: float = 0.3  # a cell crossed by a shadow's edge is measured away from it when this much is left
    cell_line_clearance_mm: float = 1.5  # a shadow's step is measured inside a cell this far from its printed lines
    shadow_edge: float = EDGE_CHANGE  # log gain changing this much between neighbouring pixels: a shadow's edge
    shadow_near_mm: float = 3.0  # cells this close to such a shadow are read with doubt when grey
    overbright: float = 1.06  # a cell's median brightness this far above the paper estimate: the estimate is wrong
    shadow_doubt: float = 0.3  # the confidence given to cells and bubbles where the light around them is in doubt
    shadow_window_mm: float = 24.0  # light changing by more than shadow_variation (log) within this: a hard edge
    shadow_variation: float = 0.12
    in_shadow_gain: float = 0.97  # a cell whose light was raised by more than this share lies inside a shadow
    shadow_max_ink: float = 0.6  # a shadow darkens paper by at most this much ink; heavier pencil is sure
    neutral_chroma: float = 0.12  # grey: channels within this share of each other (the paper's colour divided out)
    paper_block_mm: float = 4.0  # bare paper this wide inside a cell near a shadow's edge ...
    paper_block_share: float = 0.3  # ... over this share of its interior: the cell is paper, darkened in part
    paper_block_ink: float = 0.05  # ink below this is bare paper

    # --- crossed special boxes ---
    # The share of the box's inside covered by pencil strokes (pixels of more than check_stroke_ink against the
    # local light: measure.local_ink, with a closing wider than the box), against a fixed threshold. Over 2400
    # synthetic photos (seeds 0-1199 at moderate and harsh) unused boxes read 0 except under a shadow's edge (at
    # most 0.112) and crossed ones at least 0.135. Strokes are counted from a faint 0.14: from 0.2, a thin tick on
    # a blurred low-resolution photo read as little as 0.033. The mean ink separates them less well, since a
    # shadow's soft edge adds a little everywhere but no strokes.
    check_reach_mm: float = 13.0
    check_stroke_ink: float = 0.14
    check_threshold: float = 0.123
    check_log_margin: float = 0.40  # uncertain from about 0.10 to 0.155
    # A narrow shadow beside a box is dark and narrower than the closing, so it reads as ink at the box's side (an
    # unused box of harsh seed 1225 read 0.18 so). Where the paper around the box is uneven (brightness p5 to p95
    # within a ring 1.5 to 6 mm out, thin print taken out, more than check_ring_uneven in log: over 2800 photos,
    # harsh seeds 0-1599 and moderate 0-1199, only beside a shadow's edge), a reading between check_faint
    # (check_threshold / 2) and check_sure is in doubt: there, the 4 unused boxes with false ink and 25 of the 4993
    # crossed ones.
    check_ring_mm: tuple[float, float] = (1.5, 6.0)
    check_ring_percentiles: tuple[float, float] = (5, 95)
    check_ring_uneven: float = 0.2
    check_sure: float = 0.3

    # --- filled bubbles ---
    # The same local ink (a closing wider than a filled bubble, narrower than the gap to the next filled one), over
    # the square inside the printed ring. Over 600 photos (seeds 0-199 at mild, moderate and harsh) empty bubbles
    # (their printed digit included) read at most 0.098 and filled ones at least 0.157 (filled bubbles just inside
    # a shadow's edge: the closing cannot lift the shadow next to them). A second reading against the paper ring
    # around the bubble must agree, or the bubble is in doubt.
    bubble_reach_mm: float = 7.0
    bubble_local_half_mm: float = 1.3
    bubble_local_threshold: float = 0.125
    bubble_threshold: float = 0.2  # for the reading against the ring (empty bubbles up to 0.05, filled from 0.3)
    bubble_log_margin: float = 0.5
    bubble_ring_paper_percentile: float = 80  # the ring's paper: its brighter part (print and pencil taken out)
    bubble_ring_percentiles: tuple[float, float] = (10, 90)  # the ring's light, darkest to brightest, for ...
    bubble_ring_uneven: float = 0.12  # ... log: the paper around a bubble this much brighter on one side: an edge
    bubble_sectors: int = 8  # directions in which a bubble crossed by a shadow's edge is read side by side

    # --- the photo as a whole ---
    too_dark_level: float = 40.0  # paper darker than this (0-255) leaves too little contrast between pencil and paper
    # Without markers, the photo is judged on a copy this wide: too dark when its bright part (this percentile)
    # is darker than too_dark_level; too blurred when it has contrast (its 1st to 99th percentile spread more
    # than blur_min_spread) but its sharpest edges (this percentile of the Laplacian) are weak against it.
    focus_width_px: int = 640
    bright_percentile: float = 95
    blur_min_spread: float = 40
    blur_edge_percentile: float = 99.5
    blur_max_sharpness: float = 0.06
    grid_confidence_cap: float = 0.8  # a markerless read is never reported as more certain than this
    unknown_way_up_confidence: float = 0.25  # a grid whose way up is not known: one of four turns is right
    mirror_evidence: int = 2  # at least this many markers seen flipped back, more than unflipped: mirrored

    @property
    def check_faint(self) -> float:
        """Less than this is no mark in a special box, uneven paper around it or not."""
        return self.check_threshold / 2


TUNING = ReaderTuning()
"""The reader's tuning as measured (see each value's comment)."""
