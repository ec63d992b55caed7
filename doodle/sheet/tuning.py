"""The photo reader's tuning values in one frozen place, each with the evidence it was set on (after
OMRChecker's `CONFIG_DEFAULTS.threshold_params`).

`TUNING` is what the reader uses; `read_photo(..., tuning=replace(TUNING, cell_log_margin=1.0))` reads with
another value (a benchmark trying one). Geometry is not here: where things are on the sheet is `layout`, and the
flattened sheet's resolution `stages.PX_PER_MM`. Lengths are in sheet millimetres, ink in units of 0 (paper) to 1
(black), light in log brightness unless said otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ReaderTuning:
    """Every threshold, margin and window the reader decides with (see the module's docstring)."""

    # --- the corner markers (markers.py) ---
    # Markers are looked for in a copy of the photo no larger than this (they are big: 18-22 mm), which keeps
    # detection fast on 12-megapixel photos (not when it would shrink the photo by less than marker_reduce_below);
    # the full working image is tried when too few are found.
    marker_detect_side: int = 1600
    marker_reduce_below: float = 0.9
    # A set of markers belongs to one sheet when one homography maps the sheet's marker corners onto all of them
    # this well (RMS, sheet mm). Corners are found to a fraction of a pixel, so a real sheet fits within about 1 mm
    # even tilted and blurred; markers of two sheets, which no single sheet can hold where they are, miss by far
    # more.
    marker_consistent_mm: float = 2.5
    marker_max_copies: int = 4  # instances of one id tried (more is not a photo of a few sheets)
    # Another sheet's marker, in the same plane, looks about the size of this sheet's there: from a two-up sheet's
    # (0.69 of the size, half the area) to a bent or raised sheet's; a false detection in pencil or print is a speck.
    other_marker_area: tuple[float, float] = (0.2, 4.0)
    clear_area_ratio: float = 1.6  # of two whole sheets in view, one this much larger (nearer, filling the photo)
    # Another sheet's marker has the paper its layout keeps clear beside it (layout.MARKER_QUIET_MM) on the two sides
    # that face its sheet's middle: in a band this far out from it (mm, clear of the marker's blurred edge), under
    # this share darker than halfway between the marker's black and its white. A scribble that decodes as one of
    # our ids has pencil and grid lines there (lens 4300010: 0.21; printed markers 0.0).
    marker_quiet_band_mm: tuple[float, float] = (0.75, 3.5)
    marker_quiet_dark_share: float = 0.05

    # --- hard shadows (shadows.py; lengths in map pixels, 1 mm at 4 px/mm) ---
    shadow_map_scale: int = 4  # the map is built at this fraction of the sheet image's resolution
    shadow_log_blur: float = 0.8  # the map's log brightness is smoothed this much before its differences are taken
    # A change of log brightness per map pixel above this is a step (a 15% shadow over 2 mm gives about 0.06; a
    # light gradient across the whole sheet gives under 0.005 per pixel).
    shadow_step_min: float = 0.035
    shadow_step_max: float = 0.9  # steeper than any shadow: the edge of something printed in black
    shadow_step_blur: float = 1.0  # a step shows over a few pixels: its differences are pooled over this blur ...
    shadow_step_gain: float = 2.5  # ... and scaled back up by this (a blurred step's peak is lower)
    shadow_coherence: float = 0.75  # how one-signed the differences around a step must be (1: all one way) ...
    shadow_coherence_blur: float = 1.5  # ... over this neighbourhood
    shadow_aligned_ratio: float = 6.0  # a gradient this much more across a grid line than along it runs along it
    shadow_level_percentiles: tuple[float, float] = (1, 99)  # the integrated light's deepest and lit levels
    shadow_min_depth: float = 0.08  # log: shadows lighter than this are left to the smooth flat-field
    shadow_min_region: int = 100  # map pixels (1 mm each): a smaller dark region is not a shadow
    shadow_edge_band_px: int = 5  # a region's edge: the band this wide across its outline
    shadow_normal_blur: float = 1.0  # the integrated light is smoothed this much before the edge's direction
    shadow_across: float = 3.0  # map pixels either side of an edge where the step is measured
    shadow_min_edge: int = 20  # edge pixels (mm) needed to measure a region's step across its edge (2 cm of it)
    shadow_max_tint: float = 0.5  # a shadow's step differs between colour channels by less than this share of it
    # A shadow reaches the bare paper around the grid as well as the grid (over 400 synthetic photos with hard
    # shadows, at least 23% of every shadow region found was bare paper); a dark region found almost only where
    # the player draws is pencil whose edges happened to look like a shadow's.
    shadow_min_bare_share: float = 0.1
    shadow_min_shaded_paper: int = 20  # map pixels (mm²): paper shaded less than this shows no shadow
    shadow_label_rounds: int = 4  # refits of the paper's light and its shaded / lit labels, at most
    shadow_depth_rounds: int = 3  # the paper's labels settled with a depth fitted to them, at most ...
    shadow_depth_settled: float = 0.1  # ... until the depth changes by less than this share
    # Labellings of the paper whose outline is brighter on its shaded side along no more than this share of it are
    # told apart by how well they fit; the others come after them, the least so first (`shadows._steps_the_wrong_way`:
    # 0-1% for a shadow's own outline, 9-53% for labellings that are not one, on light 100017, 22, 800007, 100002).
    shadow_wrong_way_share: float = 0.05
    shadow_sample_block: int = 16  # map pixels (mm): the paper is sampled in blocks this wide ...
    shadow_sample_min_points: int = 20  # ... that hold this many paper pixels at least
    shadow_sample_size: int = 8  # blocks per sample (a smooth light has 6 coefficients)
    shadow_sample_trials: int = 300
    shadow_outlier_spreads: float = 4.0  # paper further off its fitted light than this many spreads is a mark
    shadow_outline_smoothing: float = 4.0  # map pixels (mm): the blur that smooths a shadow's outline (cut at half)
    shadow_paper_reach: int = 8  # map pixels (mm): the paper beside a shadow's part in the grid, in shadow too
    shadow_gain_blur: float = 0.7  # the map's gain is softened this much (a real shadow's edge is not a cliff)
    # The blurs of a shadow's outline tried against the paper (map pixels, about mm: `shadows.fit_edge`), on the
    # paper this close to the outline. Fitted: 1-2 on the hard shadows of harsh 600-639 and 4000-4039 (8 photos),
    # 4-16 on the soft ones of light 0-47 (14 photos, penumbra 12-44 mm: about the penumbra / 2.5), 0.5 under glare.
    shadow_edge_widths: tuple[float, ...] = (0.5, 1.0, 2.0, 3.0, 4.0, 6.0, 8.0, 10.0, 13.0, 16.0)
    shadow_fit_points: int = 2000  # about as many paper points fitted, on a regular lattice
    shadow_width_reach: float = 25.0  # past the widest penumbra's half (a narrower reach took some of it for light)
    shadow_outline_shifts: tuple[float, ...] = tuple(float(mm) for mm in range(-8, 9))  # a soft edge's outline moved
    shadow_parts_tried: int = 5  # a soft shadow's parts (the largest first) whose combinations are tried on the paper
    shadow_soft_width: float = 3.0  # an edge this wide or wider is soft: the shadow is taken out with that blur
    shadow_edge: float = 0.01  # log gain changing this much between neighbouring map pixels: a shadow's edge
    shadow_edge_widen: int = 2  # map pixels (mm) either side of an edge where the light taken out may be off
    shadow_unsupported_mm: int = 20  # map pixels (mm): a stretch of a shadow's outline longer than a cell with no step
    shadow_along_line: float = 0.87  # an outline whose normal is this close to square to a grid line runs along it

    # --- the light (measure.flat_field) ---
    thin_print_px: int = 5  # a max filter this wide (1.25 mm) takes thin print and strokes out of the paper
    light_coarse: int = 8  # the paper estimate is built at this fraction of the resolution (a 2 mm grid at 4 px/mm)
    light_sigmas: tuple[float, ...] = (1.5, 4.0, 12.0, 36.0)  # its scales (coarse pixels), blended broad to fine
    light_paper_share: float = 0.6  # a coarse pixel is paper when more than this share of it is known paper
    light_min_paper: int = 4  # coarse pixels of paper at least, or the whole sheet is taken as paper
    light_backing: float = 0.25  # a finer scale overrides a broader one fully where this much paper backs it
    # The light's broad shape (measure.light_trend) is fitted to this many coarse paper pixels at least (6
    # coefficients per channel), in light_trend_rounds fits, each without the paper further off the one before than
    # light_trend_outlier robust standard deviations (a shadow over a margin, a glare, ink).
    light_trend_min_pixels: int = 200
    light_trend_rounds: int = 3
    light_trend_outlier: float = 2.5
    # Paper clipped (glare_clip) is left out of that fit when less than this share of the paper is: a glare spot
    # (light 14: 6% of the paper, tungsten paper clipped in its blue channel only under the glare) rather than a
    # bright exposure of white paper, lit parts clipped all over (light 22: 25%, its light's shape bent by a hand's
    # shadow once they were left out).
    light_trend_clipped_share: float = 0.15
    # How sure the light is at a shaded cell (light.py): the worst prediction of the empty cells left out within
    # this many cells (in rows and columns) ...
    light_holdout_reach: int = 2
    # ... times this: the light at a shaded cell is predicted from paper a little further away than at an empty cell
    # left out of a grid of paper. So is the light the paper between the strokes beside it shows (mixed 7700013,
    # blind: 4 empty cells under a soft shadow not found, read shaded and sure at 0.25-0.27 of ink, the gaps beside
    # them showing 0.21-0.24 (log); on the 1040 seen and 936 held-out photos, 2 more cells in doubt in all).
    light_holdout_safety: float = 1.5
    # Where paper is far, the light follows its broad shape; the paper nearest may depart from that shape (a soft
    # shadow over a margin, which no quadratic follows), and the light here as much: the paper within this much
    # (mm) beyond the nearest is looked at (mixed 200036: a hand's shadow with a 42 mm penumbra over the top margin
    # read 4 empty cells 40 mm inside the grid as shaded, unflagged) ...
    light_far_reach_mm: float = 40.0
    # ... its departure at this percentile: the darkest, but for print and noise left in the coarse paper ...
    light_far_percentile: float = 0.5
    # ... once print and strips narrower than this (coarse pixels, 2 mm each) are closed and opened away (the
    # title's bold letters read as a shadow 0.16 deep without it: harsh 609).
    light_far_detail: int = 5
    # The light may be as much darker anywhere in the grid as `darker_nearby` says it may be near this share of its
    # cells (a shadow not taken out, loose on the sheet: stages.decide_cells). Over the 80 harsh photos of seeds
    # 600-639 and 4000-4039 at most 9 cells had it 0.2 darker (a thumb, the table beside the page; the quarter's
    # darkest at most 0.045); the soft shadows of light 300006 and mixed 200036, 25-26 cells.
    loose_shadow_share: float = 0.25
    # A shadow taken out whose light steps across the grid's border (by this share of its depth, between bands this
    # far out and in, mm) for this many cells in a row stops at the border (stages._border_steps).
    border_step_share: float = 0.5
    border_band_mm: tuple[float, float] = (1.5, 5.0)
    border_step_cells: int = 2
    border_step_reach_mm: float = 48.0  # ... and the cells within three cells' width of it may lie in it
    # Grain: the spread of the ink about its blur over grain_blur_mm, in grain_block_mm squares of bare paper
    # grain_margin_mm beside the grid. Faint tints with no strokes may be paper under misjudged light when their
    # grain is no more than paper_grain_ratio times the paper's (stages._as_grainy_as_paper): empty cells of mixed
    # 900012 0.9 times, light pencil fills of moderate 11016 4-5 times.
    grain_blur_mm: float = 0.75
    grain_block_mm: float = 9.0
    grain_margin_mm: float = 3.0
    paper_grain_ratio: float = 2.0
    # A grey tint with nothing drawn in or around it is in doubt whatever its ink when its grain beyond the paper's
    # is under pencil_grain_least of its ink (grain.Grain.pencil_grain) in a photo whose printed inner lines look
    # no wider than grain_shows_width_mm (grain.print_line_width_mm, each line's profile read print_width_reach_mm
    # either side of it). Rubbed-out patches' ghosts (erased 0-23, 10000-10023, mild: lines 0.40-0.58 mm):
    # half under 0.005. Light pencil fills with nothing drawn: moderate 0.005-0.03 (lines 0.40-1.0 mm), shaken,
    # sharpened, light, mixed and 5 more families 0.009 and up; harsh (lines 0.61-1.36 mm) down to 0, so a blurred
    # photo is not asked.
    pencil_grain_least: float = 0.005
    grain_shows_width_mm: float = 0.6
    print_width_reach_mm: float = 1.0
    # A grey tint with no strokes whose darkest pixels (the darkest_ink_percentile of its ink) are under
    # faint_tint_share of the sheet's own shading (the median of its cells surely pencil, given
    # shading_reference_cells of them), and whose grain (grain.Grain.pencil_grain) is under faint_tint_grain_most,
    # is in doubt, outlined or not: a patch rubbed out keeps a tenth to a third of its pencil, smeared. Ghosts read
    # shaded (erased 0-23, 10000-10023): 0.13-0.35 of the sheet's shading (the ones read sure before, 0.13-0.23),
    # grain 0-0.09. Light pencil fills read shaded and sure: 0.29 and up (levels 3000-3039, 9 families
    # 100000-100023); in sharpened photos, which darken thin strokes' cores more than a fill, 0.22 and up with grain
    # 0.19 and up, or 0.246 and up with less (sharpened 5 and 22).
    darkest_ink_percentile: float = 98.0
    faint_tint_share: float = 0.24
    # A grey tint in doubt under faint_offered_share of the sheet's shading, with no strokes and no drawn outline, is
    # offered as empty (`_far_fainter_than_shading`). Of such cells in doubt and offered as shaded (levels, 9
    # families and 7 styles 0-39 or 0-23, erased 10000-10023 and 20000-20023, blind erased 860000-860023), under
    # 0.22: 139 ghosts and smudges, 2 fills under a hand's shadow (light 6 and mixed 5: 0.199-0.203 of the shading
    # as the light was judged); under 0.24, 19 more ghosts and harsh 10's f1, a light fill at 0.240.
    faint_offered_share: float = 0.22
    faint_tint_grain_most: float = 0.12
    # Smoother, a tint may be fainter than a fill and still a ghost: in a photo sharp enough to show grain, one under
    # faint_smooth_tint_share of the sheet's shading with grain under faint_smooth_tint_grain_most is in doubt too.
    # Ghosts read shaded and sure before (blind erased 610001, 620017 and 620019): 0.26-0.29 of the shading, grain
    # 0.0056-0.011. Light fills under 0.31 of it read sure in sharp photos (levels, families and styles 0-39 or
    # 0-23, and held-out moderate 3016): grain 0.015 and up. A light fill as smooth as a ghost is in doubt already
    # (moderate 21: 0.29 of the shading, grain 0.005-0.007): the two look alike.
    faint_smooth_tint_share: float = 0.31
    faint_smooth_tint_grain_most: float = 0.012
    shading_reference_cells: int = 4
    # How sharp a tint's edge is (`fill_edges.edge_rise_mm`): each side's rows, edge_clear_mm short of the cell's
    # corners, read from the printed line inward; the tint's own darkness is the median edge_plateau_mm in, and a row
    # shows paper between line and tint where, within edge_gap_mm of the line, it dips under edge_gap_share of that
    # (a tint at edge_ink_least at least). Read where edge_rows_least of the rows show paper.
    edge_clear_mm: float = 2.0
    edge_plateau_mm: tuple[float, float] = (3.0, 5.0)
    edge_gap_mm: float = 2.5
    edge_gap_share: float = 0.5
    edge_ink_least: float = 0.05
    edge_rows_least: float = 0.2
    # A grey tint under smeared_share_most of the sheet's shading whose edge rises over more than smeared_edge_ratio
    # of the printed lines' width, running the way they look widest (`grain.print_line_width_mm`), is in doubt as
    # a patch rubbed out. Fills under 0.6 of the shading read shaded with an edge in view (levels moderate and harsh
    # 0-39 and 3000-3039, mild 0-39, light, mixed, sensor, lens, messaging, sharpened, shaken, felt-tip and smudge
    # 0-23: 512 cells in 123 photos): 0.87 of the lines' median width at most (shaken 13, a hand's motion the
    # width shows less of), 0.78 without shaking; the widest is wider than the median, so less of it. Ghosts read
    # shaded and sure (erased 630004 and 690003, blind): 0.99-1.97 of the widest. Of 95 ghost cells with an edge
    # in view (erased 0-23, 10000-10023, 20000-20023), 79 rise over 0.95, 71 of them in doubt already. Ghosts reach
    # 0.41 of the shading.
    # Only where the printed lines' contrast (cover.GridPrint) is at least smeared_print_contrast: mild photos
    # 0.86-1.48 (erased 0-23), harsh 0.15-0.66 (0-39), shaken 0.20-0.72; shaken-hard 0.02-0.32 (0-23), where a
    # hand's shake blurs edges one way more than the lines' width shows (shaken-hard 13, 15 and 18: 20 fills put in
    # doubt without this).
    smeared_share_most: float = 0.5
    smeared_edge_ratio: float = 0.95
    smeared_print_contrast: float = 0.5
    # Gaps and confidences are compared on a log scale offset by this much ink: empty paper measures about 0 with
    # noise of a few hundredths, so 0.01 -> 0.08 is a wider gap than 0.15 -> 0.45 (light pencil against heavy).
    ink_log_offset: float = 0.02
    # Bright lines narrower than this (0.75 mm) are a sharpened photo's halo: not the light, nor the paper beside a
    # printed line (refine.py).
    halo_px: int = 3

    # --- where marks are measured ---
    cell_inset_mm: float = 3.5  # measure a cell's interior only: away from printed lines and hand-drawn outlines
    check_inset_mm: float = 1.5
    # A box read crossed whose strokes lie, check_side_share of them at least, within check_side_mm of one of its
    # sides is in doubt: a cross or a tick goes through the middle, the box's own frame placed off does not
    # (shaken-hard 380016: 0.91 of its strokes in the top 2 mm of 'twice'). No box of 366 photos changed (moderate
    # and harsh 0-39, the families 0-23, shaken, shaken-hard and sharpened 0-23).
    check_side_mm: float = 2.0
    check_side_share: float = 0.8
    # Or check_corner_share of them within check_side_mm of two sides meeting at a corner: a frame smeared in at a
    # slant. The 538 crosses and ticks read crossed on 339 photos reached 0.90 (levels moderate and harsh 0-39;
    # curl, sensor, light, mixed and framing 0-23; shaken, sharpened and bubble-marks 0-23; shaken-hard 0-23,
    # 10000-10023 and 890000-890023); the 4 frames read crossed, 1.0 (shaken-hard 17's 'neighbour' and 'twice',
    # 890005's 'cut', 890008's 'single'), strokes all along both sides (0.96-1.0 of each side's length); a small tick
    # in a corner, near two sides (harsh 1082: 0.98), lies along 0.64 and 0.79 of them, and the crosses and ticks
    # nearest the rule (0.87-0.90) along 0.57-0.82.
    check_corner_share: float = 0.97
    check_corner_length: float = 0.9
    bubble_read_radius_mm: float = 1.6
    bubble_ring_mm: tuple[float, float] = (2.7, 3.1)  # the paper around a bubble, inside its neighbours

    # --- the paper known before anything is read (margins around what is printed or drawn, mm) ---
    paper_margin_mm: float = 1.0  # around markers, the QR code, special boxes and printed blocks
    paper_grid_margin_mm: float = 0.7  # around the grid
    paper_write_margin_mm: float = 1.5  # around the boxes where round scores are written
    paper_bubble_margin_mm: float = 0.6  # around each bubble
    grid_ring_mm: float = 5.0  # without markers, paper is taken from this far around the grid ...
    grid_ring_inner_mm: float = 1.5  # ... and no nearer than this

    # --- glare: paper washed out to white (glare.py; lengths in sheet mm) ---
    # Clipped: the darkest channel at least this high (0-255). A saturating glare on the families' photos (light 2,
    # 6, 9, 20) reads 253-255 after JPEG over its core.
    glare_clip: int = 250
    # Clipped paper alone is not glare: a bright photo of white paper clips too (mild photos of tests/photogen.py: up
    # to a third of the paper), and pencil stays as dark as ever there. Glare adds light to everything, the black
    # print as well: where a printed line under the clipped blob is this many grey levels lighter than the rest of
    # the same line (or than the other boxes, or bubbles), the light added is enough to wash out light pencil (pencil
    # at 0.8 of the paper's light, with the paper clipped, reads as paper from about 50 levels added). Lines differ
    # among themselves by up to 60 levels in a bright mild photo (thin inner lines against the border), hence each
    # against itself. Under the saturating glares of the families' light photos (tuning seeds 0-23) the lines rise
    # by 60-180.
    glare_lift: float = 50.0
    # A glare over most of a sheet that is clipped all over (a bright exposure) lifts most of each line, so the line
    # is not lighter than its own median there. Printed lines that keep less than this share of the contrast the
    # same print shows elsewhere on the sheet (against clipped paper) are washed out all the same: pencil, lighter
    # than print, cannot show. Under the glares of the families' light, mixed and print photos (seeds 0-47 and
    # 0-23) the inner grid lines keep 0.07-0.33 of it; in photos without glare, 0.39 at least (sensor 23: heavy
    # blur and noise), most over 0.5. Light 500013 and 500023 (10 and 2 cells read empty, unflagged): 0.11, 0.03.
    glare_min_contrast: float = 0.25
    glare_typical_percentile: float = 20  # the print's typical darkness: the darker fifth, as the glare spares it
    # Around cells found under a glare, the cells beside them whose lines keep less than this share of the print's
    # contrast are under it too (and beside those, in turn): light 500013's hatching read as paper in cells whose
    # lines keep 0.28-0.48 of it. Alone, such lines are no glare: photos without one go down to 0.39 (sensor 23).
    glare_spread_contrast: float = 0.5
    glare_line_mm: float = 0.6  # half the width of the strip along a printed line where its darkness is measured
    glare_line_percentile: float = 10  # the line's darkness: this percentile of the darkest channel over the strip
    glare_min_share: float = 0.5  # a millimetre square is clipped when this share of its pixels is
    glare_min_area_mm2: float = 12.0  # a clipped blob smaller than this (a 4 mm spot) hides no cell's shading
    glare_fringe_mm: float = 2.0  # around the clipped blob the paper is near white: pencil there is faint too
    glare_close_mm: int = 3  # printed lines and thin strokes across the blob are bridged (they are not clipped)
    # A cell beside the glare's cells (sharing a side) read as paper with more ink than this: pencil the glare's
    # fall-off washed out in part (light 200028: b7, a solid fill at the glare's edge, read 0.059 under a threshold of
    # 0.162). The 65 paper cells read beside a glare on light, mixed and framing 0-23 and light 200000-200031 read
    # 0.026 at most.
    glare_fringe_ink: float = 0.04

    # --- a cover over a corner marker not seen (cover.py; lengths in sheet mm) ---
    cover_reach_mm: float = 40.0  # a thumb holding the sheet down reaches this far past the marker's place, at most
    cover_paper_percentile: float = 75  # the paper around the marker: the brighter part of what lies around it
    cover_paper_share: float = 0.8  # the marker's middle, darkest channel against paper's: at least this is paper
    cover_print_share: float = 0.35  # ... brightest channel: at most this is the marker's own black print
    # A step between millimetres (grey levels, each channel) that ends the cover: a thumb against paper steps by 40
    # and more in the blue (harsh 26, 32); the light over the thumb changes by a few a millimetre, the noise of a
    # harsh photo averaged over a millimetre by 2.
    cover_step: int = 12
    cover_margin_mm: float = 2.0  # the cover's blurred edge
    # Something lying over the grid (cover.covered_cells): a grid line's pieces, cover_piece_mm long, where the line
    # (the row most a ridge within cover_line_pad_mm of where it is printed) is no darker in log than the brightest of
    # the sheet within cover_beside_mm of it on one side or the other, in the middle of the piece's columns, by
    # cover_line_contrast, cover_run_mm or more in a row, where that sheet is darker than cover_not_paper of the sheet's
    # usual beside a line in one colour at least (not paper). The contrast is the most of the colours with at least
    # cover_lit_share of the light of the brightest beside the line: a pencil's paint is dark in one colour or two,
    # where the grain alone passed 0.08 (a blue pencil over the grid of pencil-on-sheet 10001 measured 0.08-0.2 at most,
    # and -0.02-0.02 in the blue). Taken in the brightest colour alone, a line's contrast was lost to a lens's colour
    # fringes in that colour (lens 8000010), and with a colour's own darkest row, to a pencil outline darker than the
    # print beside it (lens 8000008): of 840 light, mixed, lens, sensor and curl photos with nothing over the sheet
    # (seeds 0, 100000 and 7900000-8300000), 20 were found covered over cells, and now 7 (one looked at: sensor 8000018,
    # a denoised line smoothed into a ramp between paper and a fill). The bubbles' rings and the boxes' frames are
    # measured at the darkest row in the brightest colour, as before. Printed lines measure 0.7-1.2 on mild photos (1st
    # percentile to median), 0.2-0.6 on moderate, and as little as 0.0-0.3 on harsh, where a blur fades the print into
    # dark fills (whole sides between solid cells of harsh 22 at 0.00): where the photo's median piece is under
    # cover_sharp_print, nothing is taken as hidden. A pencil's body is darker than 0.45 of paper in one colour at least
    # (yellow, red, blue, green or black paint, bare wood); a dense hatching blurred by a phone's denoising, 0.7-0.8
    # (sensor 23). With nothing over them, cells were found covered on 6 of 523 photos (mild, moderate and harsh 0-39,
    # harsh 40-79, moderate 3000-3039, families 0-23 and style families 0-11: 1 to 4 cells, where a blurred line fades
    # into a dark fill on one side); 0.5 of paper left 1, but lost a pencil's cells on 6 photos of 48. With the line's
    # darkest row found colour by colour (a coloured fill up to a line is darker than the print in one colour), on 2
    # (harsh 64, print 3). Leaving out lines beside cells shaded hard lost most pencils: over an empty cell a pencil's
    # body reads as hard shading.
    cover_piece_mm: float = 2.0
    cover_line_pad_mm: float = 0.35
    cover_lit_share: float = 0.5
    cover_beside_mm: float = 1.6
    cover_line_contrast: float = 0.08
    cover_sharp_print: float = 0.6
    cover_run_mm: float = 6.0
    cover_not_paper: float = 0.6
    # ... or of another hue than paper: its colours, each over paper's, apart by cover_hue (a light skin in red and
    # blue: 0.2-0.3; blind finger-on-sheet 400021). No cell more found covered on the 523 photos with nothing over
    # them, nor on the pencils.
    cover_hue: float = 0.15
    cover_link_mm: float = 24.0  # hidden pieces this near belong to one object (a cell's diagonal and more)
    cover_box_mm: float = 4.0  # a special box's frame hidden this long in all (cover._covered_boxes)
    cover_tip_mm: float = 16.0  # what lies over the grid may reach this far past the next line it would hide
    # Something lying over a round's bubbles (cover._covered_rounds): more than cover_ring_share of a bubble's printed
    # ring hidden, as a line is above (pieces of cover_piece_mm, 7 a ring), with the sheet on both sides of it not
    # paper, against the brighter part of the round (this percentile; against the paper measured along the grid's
    # lines, which felt-tip fills over them move off paper, 20 rounds of felt-tip 0-23's 72 read covered). Over the
    # 702 rounds with nothing over them on photos sharp enough to look (of 888: mild 0-23, moderate and harsh 0-39,
    # light, mixed, lens, sensor, curl, felt-tip, bubble marks and sharpened 0-23), at most 3 of a ring's 7 pieces
    # were hidden (in the deep soft shadows of light 18 and 22, where the faint ring fades into the noise); with a
    # pencil or a finger over the bubbles (pencil- and finger-over-bubbles 0-39, pencil- and finger-on-sheet 0-23),
    # 4 or more on 115 of the 116 rounds they made read wrong (the other, finger 29, was in doubt already).
    cover_round_paper_percentile: float = 90
    cover_ring_share: float = 0.5
    # ... and beside a round so covered, more than this share of a ring: the tip of what lies over the one reaching
    # over a bubble of the other (finger-over-bubbles 430008, blind: a fingertip over round 2's units 6, 3 pieces
    # of its ring hidden, read as a score of 6 where none was filled, unflagged). The rounds beside a covered one
    # with nothing over them had at most 1 piece hidden (finger- and pencil-over-bubbles 0-39, 47 rounds).
    cover_tip_ring_share: float = 0.25
    # The grid's printed lines barely show (their median contrast, see cover.GridPrint) under this: the photo is
    # blurred: a reading with cells in doubt says so, and the printed lines settle no cell (a blur spreads a
    # fill's step at a line into a ramp). 0.14 and more on 571 photos of the levels, the families
    # and the style families (the blurriest harsh ones); 0.02-0.06 on 6 of 12 photos shaken by a moving hand up to
    # 1.5% of their side (shaken-hard 0-11), told before of a hard shadow or a sheet not flat, or of nothing.
    blurred_print: float = 0.1

    # --- the cells: threshold and confidence ---
    # Cell threshold window (ink units): empty paper measures about 0, the lightest pencil fill well above 0.05.
    cell_lowest: float = 0.02
    cell_highest: float = 0.22
    # Confidence 1 at this log distance (see measure.log_distance) from the threshold; uncertain below half of it.
    cell_log_margin: float = 0.8
    # A grey tint with no strokes and no drawn outline, lighter than tint_sure, is sure only this many times further
    # from the threshold: a mark with nothing drawn about it may be a patch rubbed out or a smudge (issue 15). Not a
    # coloured one (a fill in colour is meant; a stain's brown is judged as a stain). Rubbed-out patches' ghosts
    # read 1.7-3.0 times the threshold (erased 0-23 and 10000-10023, mild), light fills from 1.6 times it (harsh,
    # sharpened): at 1.5, erased held out went from 39 cells wrong and unflagged to 20, and harsh photos over 5
    # cells in doubt from 10% to 12.5% (levels 3000-3039); at 2.0, to 27.5%.
    bare_tint_margin_factor: float = 1.5
    # A tint in doubt as a ghost leaves in doubt the grey tints side by side with it whose ink is within this ratio
    # of a neighbour's (`_alike_to_ghosts`): a patch rubbed out is one tint, even when smeared smooth (erased
    # 600006: six cells at 0.119-0.120 of ink), a little less when the hatching shows through (erased 20023: 0.104
    # to 0.116). On erased 0-23, 20000-20039 and 30000-30039 it put 8 empty cells in doubt at 1.2, 7 at 1.1, and no
    # fill; on levels moderate and harsh 0-39 and 3000-3039, 6 fills in one photo at either (moderate 21: a light
    # fill as faint and as smooth as a ghost, beside a cell of it already in doubt as one).
    alike_tint_ratio: float = 1.2
    paper_cell: float = 0.03  # a cell measuring less ink than this (and under a share of the threshold) ...
    paper_cell_share: float = 0.5  # ... of paper_cell_share is taken as paper
    max_passes: int = 5  # rounds of empty cells joining the paper and the light estimated again, at most
    uncertain_below: float = 0.5  # anything read with less confidence than this is listed as uncertain
    # With more than this share of the grid's cells in doubt, every cell with no strokes is in doubt too (the light
    # is not known anywhere in the grid): a photo to take again, whatever the rest reads.
    most_in_doubt_share: float = 0.5
    # Where the light is steep, grey cells in doubt with nothing drawn whose ink lies below a gap this wide are the
    # light misjudged (`stages._misjudged_light`): residues 0.07-0.26 of ink, solid fills 0.35-0.65 (light 8, 18).
    misjudged_gap: float = 0.1
    between_strokes_share: float = 0.1  # a stroked cell's brightest tenth is the paper between its strokes
    # ... taken only this many times the printed lines' width (how wide blur shows a thin line: its area over its
    # peak, about 2.5 sigma of a Gaussian blur) from the strokes' edges (half-way up their ink), about 1.75 sigma: a
    # stroke's blurred ink is a few percent of its peak there. Stricter than the blur needs (in the blurriest
    # photos most stroked cells then show no paper at all: harsh 15, none of 37), but at 0.5 the harsh photos kept
    # 23 cells more in doubt, and at 0.9 no fewer. The gaps of dense hatching are narrower in a blurred photo,
    # their brightest pixels the strokes' ink (harsh 65037, blind: f6-f8's gaps read 0.12-0.18 darker than the
    # light, and g6-g8, light fills beside them, were in doubt as paper under light as dark). On harsh 0-39,
    # 3000-3039, 65000-65039 and 66000-66039, 48 shaded cells were in doubt for such gaps alone, and one empty cell
    # (66019 c4, still in doubt, as are mixed 100011's a5, d6, h5 and i5).
    between_strokes_clear_width: float = 0.7
    between_strokes_around_mm: float = 2.0  # ... and from the strokes this far around the cell as well
    between_strokes_lit: float = 0.25  # ... and the stroked cells' lower quarter of it is their gaps in plain light

    # --- the cells under hard shadows ---
    grid_line_reach_mm: float = 3.0  # pencil edges lie this close to a printed grid line (shading over or short)
    grid_domain_margin_mm: float = 1.0  # shadows' steps are believed this far outside the grid too
    split_min_share: float = 0.3  # a cell crossed by a shadow's edge is measured away from it when this much is left
    cell_line_clearance_mm: float = 1.5  # a shadow's step is measured inside a cell this far from its printed lines
    shadow_near_mm: float = 3.0  # cells this close to such a shadow are read with doubt when grey ...
    shadow_margin_factor: float = 2.0  # ... and sure only this many times further from the threshold
    overbright: float = 1.06  # a cell's median brightness this far above the paper estimate: the estimate is wrong
    shadow_doubt: float = 0.3  # the confidence given to cells and bubbles where the light around them is in doubt
    # Where no empty cell is near a cell, the light is taken as off there by as much as it changes (max - min of
    # its log) within this window: a hard shadow edge may have been bridged (light.py). A shadow taken out and the
    # light over the paper still changing by more than shadow_variation within it: the shadow may be misjudged.
    shadow_window_mm: float = 24.0
    shadow_variation: float = 0.12
    # Paper whose light is that steep this close to the grid: the shadow may be misjudged over the grid (one and a
    # half cells, as far as the steepness is measured, shadow_window_mm).
    shadow_steep_reach_mm: float = 24.0
    # ... leaving out, for a hard shadow, the light this close to the edge taken out: an edge 1-2 mm off leaves a
    # strip lit wrongly along it, which the coarse light estimate spreads over 3-4 mm more (harsh 4000, 4011, 4018,
    # 613: steep with the strip, 0.07-0.11 without it from 4 mm on; light 100009, where a part of the shadow was
    # missed, stays at 0.18-0.19).
    steep_edge_band_mm: float = 6.0
    unsupported_reach_mm: float = 4.0  # a cell this close to a stretch of a shadow's outline with no step is beside it
    in_shadow_gain: float = 0.97  # a cell whose light was raised by more than this share lies inside a shadow
    # The cells read as paper inside a shadow taken out and outside it, against the margins' light: 0.013 apart at
    # most on harsh 603-638 (8 photos with a shadow over empty cells), against thresholds of 0.046-0.108. Within
    # depth_check_share of the threshold, over depth_check_cells cells or more on each side, the depth is confirmed.
    depth_check_cells: int = 3
    depth_check_share: float = 0.5
    shallow_shadow: float = 0.15  # a hard shadow this shallow may be a smooth fall of the light (stages.decide_cells)
    # A cell beside a shadow's edge whose blocks' means (away from the edge) lie within this share of the shadow's
    # depth has no strip lit wrongly: a strip of 1 mm in a 3 mm block shifts its mean by a third of the depth. Cells
    # read right beside an edge on harsh 4000-4039 spread 0-0.08 of the depth (one 0.21); the 6 read wrong there
    # were crossed by the edge, with too little clear of it to judge (in doubt as before).
    shadow_even_share: float = 0.25
    shadow_max_ink: float = 0.6  # a shadow darkens paper by at most this much ink; heavier pencil is sure ...
    steep_max_ink: float = 0.8  # ... one misjudged (the light steep) this much: 70% of the light, in a lens's corner
    neutral_chroma: float = 0.12  # grey: channels within this share of each other (the paper's colour divided out)
    paper_block_mm: float = 4.0  # bare paper this wide inside a cell near a shadow's edge ...
    paper_block_share: float = 0.3  # ... over this share of its interior: the cell is paper, darkened in part
    paper_block_ink: float = 0.05  # ink below this is bare paper

    # --- strokes against tints (strokes.py) ---
    stroke_reach_mm: float = 2.5  # ink narrower than this (a pencil line, 0.3-1 mm, blurred) is a stroke
    stroke_ink: float = 0.15  # a pixel this much darker than the light around it is on a stroke
    # Blur spreads a line's ink over the width it shows, and the printed lines show that width
    # (grain.print_line_width_mm): in a photo whose printed lines look wider than stroke_blur_width_mm, a stroke
    # stands out by stroke_ink times stroke_blur_width_mm over that width, and by no less than stroke_blur_least
    # times stroke_ink. The widths seen: mild 0-9 0.37-0.58 mm, moderate 0-9 0.42-0.62, harsh 0-19 0.74-1.24; at
    # 0.6, stray-line 7 (0.60 wide) read its stray line's cell otherwise, so photos as sharp as the mild and
    # moderate ones are read as before. Harsh 66012 (blind): zigzags and hatching at 1.2 mm, their strokes under
    # stroke_ink, 16 cells in doubt as stains and tints; 1 after. Harsh 0-39, 3000-3039 and 66000-66039: 265 cells
    # in doubt to 197, photos over 5 cells 9 to 8; shaken-hard 0-23 (a hand's movement) 132 to 62, over 5 9 to 5;
    # shaken 0-23 29 to 14; sharpened and the families as before.
    stroke_blur_width_mm: float = 0.7
    stroke_blur_least: float = 0.6
    stroke_least_mm2: float = 1.0  # a piece of stroke smaller than this is the grain, sharpened (a dot drawn is larger)
    # A cell whose interior has strokes over this share holds a deliberate mark (a slash across a 9 mm interior
    # covers 7-16% of it; over 360 synthetic photos empty cells never over 0.0005, cells crossed by a coffee ring's
    # rim up to 0.3); under it, whatever darkens the cell is a tint.
    stroke_mark: float = 0.05
    tint_sure: float = 0.35  # a tint this dark is pencil pressed hard, never a stain or a smudge
    # A cell the light leaves in doubt, settled by the printed lines around it (line_steps.py). Either side of a
    # line, strips line_step_near_mm and line_step_far_mm from it (clear of the line and of an outline drawn along
    # it), along it but line_step_clear_mm short of the cell's corners. A step under line_step_smooth (log), the
    # ramp's slope changing by under line_step_bend, runs on through the line as light does (98% of empty cells
    # beside paper bend under 0.04; a fill fading to its line over 6 mm bends 0.07-0.15); over line_step_fill, with
    # the slope changing by under line_step_flat of the step, it is a fill's flat step. Set on the cells in doubt
    # of tuning photos (light and mixed 0-47, moderate and harsh 0-39; curl, lens, sensor, framing and 9 style
    # families 0-23): empty cells beside paper stepped under 0.015 (95%), fills beside paper 0.14-0.82 (the
    # lightest fills step about 0.12).
    line_step_near_mm: tuple[float, float] = (1.5, 3.0)
    line_step_far_mm: tuple[float, float] = (4.0, 5.5)
    line_step_clear_mm: float = 3.0
    line_step_smooth: float = 0.03
    line_step_bend: float = 0.05
    line_step_fill: float = 0.2
    line_step_flat: float = 0.25
    line_step_confidence: float = 0.7  # a cell settled so: sure, but less than one read clear of the threshold
    line_step_object: float = 0.06  # a line darker than this on the cell's side, to paper: the cell is not paper
    # A cell in a pencil's colour whose middle differs in colour (`line_steps.colour_gap`, log) from grey paper
    # beside it by more than this is not paper. Tints settled as paper on the tuning photos (levels 0-39, families
    # and 16 style families 0-23: 71 cells) differed by 0.025 at most from the paper they ran on from; a pale yellow
    # fill faded to paper at its line, by 0.057 (harsh 58028, blind).
    line_step_colour: float = 0.04
    # A cell settled as paper has no more fine texture (spread about its brightness blurred over line_step_grain_mm,
    # in 8-bit levels) than line_step_grain times the sure paper cells' median: empty cells in doubt up to 1.2
    # (sharpened 390021, light 2800007), scribbles a shaken photo hid from the stroke finder 6-10 (in log units:
    # shaken 8, 12, 13, 21; empty cells settled on light and mixed 0-47 up to 2.5).
    line_step_grain_mm: float = 2.0
    line_step_grain: float = 4.0
    uneven_blocks: int = 3  # a cell's interior split into this many blocks a side: does a tint cover it evenly?
    uneven_share: float = 0.5  # blocks differing by this share of the tint's ink: the tint's edge runs through
    uneven_least: float = 0.03  # ... and by at least this much ink (paper noise)
    uneven_min_share: float = 0.3  # a block is judged on what lies between its strokes when that is this much of it
    # Strokes over this share of a cell's interior shade it densely (hatching and scribbles: over 30 tuning photos at
    # mild, moderate and harsh, 95% of such cells over 0.2); under it, a cell holds a few strokes only: a slash, a
    # loose scribble, or a line that is not a mark (a stray line, a coffee ring's rim: up to 0.34 where two rims
    # cross a cell), which its outline and its colour tell apart.
    stroke_dense: float = 0.2
    # A line or two across a cell darkens it by this much at most (slashes 0.03-0.08 over 4 tuning photos; a loose
    # scribble's line run on across an empty cell 0.05-0.06; two stray lines across one 0.077-0.088, their strokes
    # as dense as hatching: stray-line 2); the lightest pencil fills start at 0.107 (pale yellow, harsh; hatched or
    # scribbled in pale yellow, 0.077-0.091 at moderate, in coloured strokes). A cell shaded by so little ink, in grey
    # strokes, with no outline around it and not its own mark (crossings.py) may hold stray lines (no graphite
    # hatching of 20 harsh and 20 moderate photos, seeds 600-619, is so light without an outline).
    stray_ink: float = 0.1
    # A pass through a cell the outlines around it leave out is a line or two: one piece of stroke in its interior
    # (or two that cross), or two. Of 73 such cells under stray_ink (the 888 stroke photos, loose-scribble
    # 900000-910023 and sensor 8500023), the 69 empty held 1 piece (68) or 2 (1); the 4 shaded held 1, 1, 2 and 4
    # (the 4: faint blue hatching in a dim photo, sensor 8500023, blind).
    pass_most_strokes: int = 2
    # --- strokes crossing a cell's sides (crossings.py) ---
    crossing_reach_mm: float = 2.5  # a side is read this far on either side of its printed line ...
    crossing_clear_mm: float = 1.0  # ... past this much of it (the printed line's width and blur; the border's too)
    crossing_along_mm: float = 5.0  # ink running this far along the side is a line along it (printed or drawn)
    crossing_meet_mm: float = 0.75  # a stroke carried on across the line lands on ink within this ...
    crossing_landed_share: float = 0.6  # ... in this share of the rows of the other strip
    crossing_stroke_mm: float = 3.0  # a stroke runs no further along the line than this per row (a blob does)
    crossing_break_px: int = 5  # breaks this long in a thin printed line's strokes are closed
    # A line through a corner runs on this far from the line on both sides; a slash's end there does not, however
    # near an outline's corner or a printed line's end lies (slash 0-11: every cell of 4 photos in doubt when it
    # only had to land past the strips, 2.5 mm); a stray line that ran 3-4 mm into the next cell through a corner
    # passed 5 mm (slash-stray-line 10010).
    crossing_run_on_mm: float = 3.5
    # Into a cell as full of strokes as shading, a line through the corner is followed in the strokes that run this
    # far along its slant (a diagonal): a scribble's passes, at other slants, do not (stray-line 150022: a line from
    # f8's corner 10 mm on into g7's nearly level passes; slash 0-23 and slash-stray-line 0-23 read the same).
    crossing_slant_mm: float = 3.0
    # A cell's strokes lie along a diagonal from end to end when those within crossing_diagonal_reach of it (a
    # share of the cell, 1 mm inside its lines) reach within crossing_diagonal_ends of both its ends: the
    # generator's slashes end within 2.5 mm of the corners, 0.11 of the way, and lie up to 0.07 off the diagonal;
    # a stray line through one corner ended 70% of the way along (slash-stray-line 40010).
    crossing_diagonal_reach: float = 0.15
    crossing_diagonal_ends: float = 0.2
    # A cell whose strokes cover this share of its interior is shaded, no slash: the generator's slashes cover at
    # most 0.16 (slash 0-5, slash-outlined 0-3), an X twice that; hatching and scribbles 0.4-0.6 (stray-line 60007).
    crossing_full_share: float = 0.35
    # Near a corner, a stroke runs at least this far along the line per unit across it to cross (a slant of 60
    # degrees from the line or less): the line across at the corner, or an outline wobbling beside it, runs square.
    crossing_corner_slope: float = 0.58
    # A cell's own mark runs across it: its strokes span this share of the interior both ways, pieces under
    # crossing_speck_px pixels left out (slashes of slash 0 and 2: 0.81-1.0; the ends of stray lines that come in
    # through a corner of slash-stray-line 0-11: 0.42-0.78).
    crossing_span_share: float = 0.8
    crossing_speck_px: int = 4
    # A line through a corner that runs on this far beside the slash of the cell across it, along the half of that
    # cell's diagonal next to the corner, is no slash of the cell it comes from (slash-stray-line 90005 c3 and
    # 270003 h9: 6.0-7.4 mm beside the slashes across their corners; 8 and 800006 (blind) c9: 3.9 mm, 800006's
    # read as a slash, unflagged, at 4.0. The slashes of slash and slash-outlined 0-23 and 20000-20023,
    # slash-partial-outline 0-23 and slash-stray-line 0-23 and 20000-20047 that meet a corner: 1.06 mm at most,
    # of 1558 pairs measured; one pair of slashes, both shaded, lay 7.1 mm side by side and read right).
    crossing_beside_mm: float = 2.5
    # --- scribbles (scribbles.py): where the pen turned back ---
    # Straight pieces of strokes: at least scribble_piece_mm long, gaps up to scribble_gap_mm bridged (a pencil line
    # breaks up at 4 px/mm); within scribble_square_deg of a grid line's direction and near it, a piece is the print
    # or an outline.
    scribble_piece_mm: float = 3.0
    scribble_gap_mm: float = 1.0
    # A pass whose far end lies this far outside the grid ran on past the border's print (about 1 mm wide, taken
    # out of the strokes, and a turn on it may overshoot it a little): no scribble's.
    scribble_beyond_grid_mm: float = 2.0
    scribble_square_deg: float = 12.0
    # Two pieces turn back where their ends meet within scribble_meet_mm at an angle within scribble_turn_deg (a
    # loose scribble's turns: 15-60 degrees; under 12, two pieces of one thick stroke; from 75, a corner of two
    # lines, such as a stray line ending on an outline: stray-line 8), with no ink from scribble_clear_mm past the
    # tip, straight out or scribble_clear_deg to either side (a stray line that runs on under a scribble's strokes
    # ends in them: stray-line 5 and 16, loose-scribble 13).
    scribble_meet_mm: float = 1.5
    # Ends up to scribble_tip_mm apart turn back too where their lines meet ahead of both within it, the ends joined
    # by the stroke or the print and no other piece running on past that point: the pieces found along a pass stop
    # short of a sharp turn's tip, where its strokes run together (loose-scribble 4: g7, 2.8 mm apart). At 3 mm
    # with no such checks, loose-scribble and scribble-outlined 0-23, 10000-10023 and 930000-930023 lost 78 cells
    # in doubt, and stray-line 930003 (blind) gained a turn where a line ends beside another: d1 read shaded, sure.
    scribble_tip_mm: float = 4.0
    scribble_turn_deg: tuple[float, float] = (12.0, 75.0)
    # ... and part: a far end this far (mm) off the other's line. Two pieces of one line lie within 0.05 mm of each
    # other's (slash-stray-line 10003); at 0.25 mm some sharp turns were lost (held-out scribble-outlined
    # 10000-10023: 2 more photos over 5 cells in doubt, none on seeds 0-23), so that set is seen for this value.
    scribble_apart_mm: float = 0.1
    # A straight piece carries a cell's strokes when this share of them lies along it (passes.on_doubted_lines).
    line_carry_share: float = 0.3
    # A piece carrying a cell's strokes that ends this deep inside an empty cell (past a slash's or a scribble's
    # overshoot at a patch's side, crossing_reach_mm) is a line from nowhere (passes.ending_in_paper; stray-line
    # 150023: two of three lines across f6 from 3-3.5 mm inside empty e6). Over the seen styles 0-23, only
    # stray-line moved: 82 to 85 cells in doubt.
    line_end_depth_mm: float = 2.5
    # ... or this far out in the margin beyond the grid's border (stray-line 570019, blind: a3, crossed by a line from
    # 4.5 mm out). The pieces of marks in the edge cells end at most 0.5 mm out on mild and moderate 0-39 and the slash,
    # scribble and stray-line styles 0-23, but for a zigzag's tip 2.5 mm over the top border (mild 3010, g1); the
    # stray lines' pieces in empty cells, 3-4.5 mm in 11 of 12 (the stroke map reaches 4.5 mm past the border).
    margin_end_mm: float = 3.0
    scribble_clear_mm: tuple[float, float] = (1.5, 3.0)
    scribble_clear_deg: float = 25.0
    # ... and neither piece's line runs on past the tip: ink along it at this share of the points this far past
    # (a line met there, not a turn; slash-stray-line 190005: a line ran on 10 mm past another's end).
    scribble_runs_on_mm: tuple[float, float] = (2.0, 4.5)
    scribble_runs_on_share: float = 0.75
    # ... and another turn lies ahead along one of its pieces, within scribble_pass_mm (a pass across a patch:
    # patches are at most 5 cells long) and scribble_aside_mm of its line.
    scribble_pass_mm: float = 45.0
    scribble_aside_mm: float = 3.0
    # ... or further along the stroke, through the pieces it bends on into, where it turns back however narrowly:
    # at more than scribble_back_deg, its pieces parting by more than scribble_along_mm (loose-scribble 0: a turn in
    # c8 at 10 degrees, parting by 3.8 mm; the pieces found along one line drawn from a point where another starts
    # lie within 1 degree of one another there, their ends up to 1.2 mm apart). Loose-scribble 0-23: 137 cells in
    # doubt to 125, 12 photos over 5 to 9; scribble-outlined 0-23: 54 to 46; stray-line and slash-stray-line 0-23 as
    # before.
    scribble_back_deg: float = 5.0
    # A cell holds a scribble's mark when a turn lies in it and scribble_along_share of its strokes (at least
    # scribble_least_mm2 of them) lie within scribble_along_mm of pieces that turn back (a pencil line's width
    # and the pieces' wobble; the empty cell a pass runs across to a turn in the next: loose-scribble 14).
    scribble_along_mm: float = 1.125
    scribble_along_share: float = 0.6
    scribble_least_mm2: float = 0.6
    # --- passes (passes.py): a straight stroke from deep in the next cell, across a drawn outline ---
    # From the far half of the cell beyond (8 mm of its 16): passes into an outlined empty cell came from 8 mm and
    # further (scribble-outlined 20023, 30007, 90022); a scribble's turns past its own outline mostly reach less
    # far: of the 263 candidate cells of scribble-outlined and loose-scribble 0-23, 3 are crossed from 8 mm or
    # more (in doubt now), 6 from 5 mm.
    pass_reach_mm: float = 8.0
    # A pass is cut into pieces where it crosses the grid's printed lines (taken out of the strokes, 1 mm on either
    # side): pieces within a line's reach of one line, slanted alike, with gaps up to pass_chain_gap_mm are one line
    # (scribble-outlined 200021: gaps of 1.6 mm at each side crossed; the pieces of one thick line lie within 3
    # degrees, a scribble's next pass 15 or more away).
    pass_chain_gap_mm: float = 3.0
    pass_chain_deg: float = 6.0
    pass_corner_mm: float = 2.0  # a pass crosses a side this far or more from its ends (a slash ends within 1 mm)
    pass_slash_deg: float = 20.0  # a slash lies within this of its cell's diagonal (the generator's: 45 degrees)
    # --- stray lines (stray.py): a long straight line that turns back at neither end ---
    # The generator's stray lines are 25-70 mm long; a slash is 22 mm corner to corner, and a cell's worth of line
    # is no line across the page.
    stray_line_least_mm: float = 20.0
    # A line is asked of, at least stray_off_grid_least_mm long, when it is seen from within stray_border_reach_mm
    # of the grid's border, or from a cell with a mark of its own, to such a cell and runs on straight through the
    # marks (`stray._cut_short_at_both_ends`; stray-line 12 and 600005): the border taken out of the strokes and the
    # next cell's hatching can cut it to one cell's length (stray-line 790008, blind: a line from the top margin
    # through i1 into i2's hatching, 15.7 mm seen, read as i1's mark in an outline, shaded and sure). What lies past
    # the border tells nothing: the column letters, the code and the special actions' boxes are printed there (a
    # first version read the line on into the margin; the code over h1 and i1 ran on as a line).
    stray_off_grid_least_mm: float = 12.0
    stray_border_reach_mm: float = 1.5
    # A turn: the next pass starts beside the line's end, and the print taken out of the strokes hides the tip where
    # it lies on a cell's side (the generator's scribbles turn 0.5-2.5 mm inside the patch's sides). A piece at
    # another slant ending within stray_meet_mm, or strokes (stray_turn_mm2 or more: no speck of grain) behind the
    # end and off the line within stray_free_mm, or within stray_free_near_mm where the end lies in an empty cell
    # or off the grid. Either alone read passes as stray lines (loose-scribble 24-71: 36 exact before, 30 with the
    # strokes alone, 31 with the pieces alone, 35 with both); stray-line 0-23: 4 exact before, 10 after.
    stray_meet_mm: float = 3.0
    stray_free_mm: float = 4.0
    stray_free_near_mm: float = 2.5
    stray_turn_mm2: float = 0.3
    # ... and not along another long line (at another slant) that runs on past the end both ways, by stray_free_mm
    # (stray-line 0, d1). An end whose way on, stray_way_on_mm from 1 mm past it, ends off the grid with strokes at
    # stray_way_on_share of its points was cut at the border, not turned (stray-line 0 and 6). Stray-line 0-23: 10
    # photos exact before, 12 after (held out, 10000-10023: 7 and 9); slash-stray-line 3 to 4 (3 to 4); slash,
    # slash-outlined, slash-partial-outline, loose-scribble and scribble-outlined the same. (Counting strokes as
    # many ahead of an end as behind it as no turn made 14 exact, but lost two slash-partial-outline photos: slashes
    # lined up corner to corner, with strokes all round their ends.)
    stray_way_on_mm: float = 4.5
    stray_way_on_share: float = 0.6
    # Slashes of cells that touch corner to corner make one line along their diagonals, its ends near cell corners:
    # a slash starts up to 2.5 mm in from each side at a corner, 3.5 mm off it (slash 0-23: 3 photos lost a slash
    # to such a line before this was looked for; slash with part outlines 5, 19 and 20, ends 2.0-3.0 mm off, 3 more
    # with 2 mm).
    # Stray lines crossing a cell together, each across another midway and running on past the cell both ways, are
    # no mark of it however much ink they add up to (passes.lines_through), when, at slants of their own, they hold
    # stray_lines_share of its strokes and ink: nothing else lies there (stray-line 820020, blind: a2, empty, three
    # lines, 0.115 of ink, 0.99 of its strokes, read shaded and sure). A zigzag or hatching that lines cross keeps
    # strokes of its own off them: 0.59-0.76 (plain 15: g3, a zigzag whose passes chain on into the next cells' at
    # slants of their own; erased 730005: h7, a zigzag under a long stroke).
    stray_lines_share: float = 0.9
    stray_diagonal_deg: float = 10.0
    stray_corner_mm: float = 4.0
    # With more tints with no strokes than this that their own split puts with the paper (decide_cells), the
    # reading says the light is uneven and asks for another photo: more than 5 cells in doubt make a photo close to
    # useless (light 600006: 53; on levels 0-39 and light and mixed 0-23, at most 3 but for mixed 5: 8).
    uneven_light_cells: int = 5
    # Brown: a tea or coffee stain. Ink is 1 - the darkest channel; the chroma (brightest less darkest channel) over
    # the ink is a pigment's own (about the same at any strength): graphite under 0.12, a coffee tint 0.5-0.63, the
    # coloured pencils of the generator 0.5 (green, purple: not warm) to 1 (orange, pale yellow); red 0.81. Warm
    # (red over green over blue) and within stain_chroma: the colour of a stain (under its low end: graphite).
    stain_chroma: tuple[float, float] = (0.3, 0.72)
    # A stain's brown lies between red and yellow (its green ink midway between its red's and blue's: `Pigment`,
    # yellowness): the 140 stained and smudged cells read brown on coffee- and tea-ring 0-11, hand-smear, smudge,
    # mixed, moderate and harsh 0-5 lie at 0.40-0.84 (real coffee on paper, about 0.5); 124 cells of red pencil read
    # brown there at 0.02-0.28, their chroma under stain_chroma's top where a blur or a messaging app's recompression
    # dulls it (messaging 5600006, blind: 17 red-hatched cells in doubt as tea). Redder than this: a pencil's.
    stain_yellowness_least: float = 0.3
    # A warm tint in doubt as tea is offered as shaded when its hue is as yellow as a pencil's, over this: tea and
    # coffee lie between red and yellow (coffee- and tea-ring 0-23: 294 tinted cells at 0.02-0.69, 95% under 0.61),
    # pale yellow fills at yellow (levels, light, mixed, sensor, lens and messaging 0-23 or 0-39: 693 cells at
    # 0.77-0.98, 95% over 0.86). Only the reading offered: the doubt stays (a lamp's yellow on paper reads 0.84-0.95).
    stain_yellowness_most: float = 0.75
    # A warm tint with at least this chroma is a yellow or orange pencil, never a stain: tea and coffee rings' tinted
    # cells measured 0.11-0.83 (24 photos, mild and moderate), pale yellow fills 0.94 and over, harsh and moderate
    # (40 photos). Judged as stains, a pale yellow fill's JPEG-blurred colour put whole patches in doubt (harsh 625).
    pencil_chroma: float = 0.9
    # A mug's ring (stain_rings.py). Candidates: circles of radius stain_ring_radius_mm (a cup's or a mug's base is
    # 25-45 mm; under 11 mm, the corners of orange hatching were found) in the sheet's warmth (red over blue, full
    # at stain_ring_warmth_full) at stain_ring_px_per_mm, blurred stain_ring_blur_mm, by both of OpenCV's Hough
    # methods: the gradient's edge (stain_ring_edge) and votes (stain_ring_votes), and the ALT method's roundness
    # (stain_ring_roundness); circles stain_ring_apart_mm apart or one. Kept where, in stain_ring_share of
    # stain_ring_directions directions, the warmest point within stain_ring_rim_mm of the circle is stain_ring_ridge
    # warmer than the stain_ring_beside_percentile of the sheet from stain_ring_gap_mm to gap + stain_ring_side_mm
    # off it on both sides (hatching's stripes lie there too), and the rim's colour is a stain's (stain_chroma).
    # Of circles following one ring, the one that follows it furthest stands for it (middles stain_ring_same of the
    # radius apart). On coffee-ring 0-11, 24 of 25 rings found (the other lay within a larger one, nearly
    # concentric), and one circle more, inside three rings that overlap; on moderate, harsh, light, mixed, sensor,
    # felt-tip and mild 0-23, two found (mixed 11 and 18: a tan outline, a lens's colour fringes), neither over
    # brown cells in doubt.
    stain_ring_radius_mm: tuple[float, float] = (11.0, 50.0)
    stain_ring_px_per_mm: float = 2.0
    stain_ring_warmth_full: float = 0.25
    stain_ring_blur_mm: float = 0.75
    stain_ring_edge: float = 50.0
    stain_ring_votes: float = 20.0
    stain_ring_roundness: float = 0.5
    stain_ring_apart_mm: float = 4.0
    stain_ring_side_mm: float = 3.0
    stain_ring_gap_mm: float = 2.5
    stain_ring_beside_percentile: float = 90
    stain_ring_rim_mm: float = 1.5
    stain_ring_ridge: float = 0.03
    stain_ring_directions: int = 90
    stain_ring_share: float = 0.6
    stain_ring_same: float = 0.35  # circles whose middles are this share of the radius apart follow one ring
    # A cell read empty in doubt under a ring, brown and with brown strokes, is the ring's when stain_ring_rim_share
    # of its strokes lie within stain_ring_on_rim_mm of the ring's circle: on coffee- and tea-ring 0-11, 90 of 96
    # such empty cells had 0.55-1.0 of them there, 6 none (strokes of a ring not found, left in doubt).
    stain_ring_on_rim_mm: float = 2.0
    stain_ring_rim_share: float = 0.5
    # A cell read shaded under a ring, brown (its strokes, if any, along the rim), is the ring's inside when the
    # ring's circle cuts it, stain_ring_cut_share of it or more on either side, and its tint outside the circle is
    # at most stain_ring_tint_outside of its tint inside (a fill keeps to the grid, across the circle); and so is
    # a cell the circle does not cut beside such a cell, up to stain_ring_tint_even times its tint. Coffee- and
    # tea-ring 0-14: the cut cells' outside tint 0.0-0.24 of their inside's where the tint stopped at the circle,
    # 0.30-0.40 and over where two rings overlap or the circle found lies a little off the ring.
    stain_ring_cut_share: float = 0.15
    stain_ring_tint_outside: float = 0.25
    stain_ring_tint_even: float = 1.5
    # Between stain_chroma and pencil_chroma a warm tint with no strokes may be tea or a red or orange pencil: tea
    # when fainter than this (tea rings' insides there: 0.056-0.119, tea-ring 70000-70023; pencil fills there:
    # 0.237 and over, sharpened 70000-70023, tea and coffee rings 0-23).
    stain_tint_faint: float = 0.18
    fall_margin_mm: tuple[float, float] = (2.0, 3.5)  # between a cell's interior and its lines, clear of an outline
    spill_band_mm: tuple[float, float] = (5.5, 7.0)  # from the interior's edge: 2.0-3.5 mm past the cell's line
    # A tint fading near one of its lines to less than fall_stain of its ink, or spilling over a line into a cell
    # left empty at more than spill_stain of it, is no pencil shading. Over 28 tuning photos (seeds 4-10: mild,
    # harsh, smudges, coffee rings) pencil tints (light, solid, coloured, pale yellow, blurred hatching) kept
    # 0.74-1.0 of it near every line (once 0.56, pale yellow at harsh) and spilled at most 0.13; eraser smudges kept
    # 0.21-0.57 near their faintest side, or spilled 0.07-0.5.
    fall_stain: float = 0.65
    spill_stain: float = 0.3
    # ... and a tint whose loss by its lines (1 - kept) and spill past them add up to soft_edge may be a stain (in
    # doubt): pencil tints came to 0.39 at most (harsh 36 c2: kept 0.70, spilled 0.09; levels 0-39 and smudge, hand
    # smear and coffee ring 0-23, 614 cells), an eraser smudge missed by both bounds to 0.64 (smudge 170015).
    soft_edge: float = 0.5
    # ... as does one that keeps less than this share near its lines on average over the four (a blob fading all
    # round: smudge 230014 g8, an eraser smudge round in the middle, kept 0.73-0.84 by each side and spilled 0.22;
    # read shaded and sure). Pencil tints kept 0.87 or more (levels harsh 0-39, moderate and mild 0-19, seven
    # families 0-11, smudge 0-23: 504 cells; a faint scribble of 0.036 ink 0.77); smudges, smears and rings' insides
    # 0.28-0.83.
    blob_keep: float = 0.8
    # Such a blot is read as paper (in doubt) when fainter than this: eraser smudges measured 0.05-0.1, the lightest
    # pencil fills 0.114 (harsh seeds 4-10); on 40 harsh photos (seeds 600-639) light and pale yellow fills on the
    # grid's edge faded or spilled so (a blur over its thick border) at 0.09-0.24.
    blot_faint: float = 0.1
    # A group of tinted cells is a blot as a whole when at least this share of its cells fade or spill (a smudge's
    # cells each fade on their open sides); in a wider patch only those cells are (one of 55 solid fills fades
    # beside the blurred grid border in examples/photos/expert-1-harsh.jpg).
    blot_stray_share: float = 0.5

    # --- the drawn outline (outline.py; lengths in sheet mm) ---
    outline_band_mm: float = 2.5  # a hand-drawn outline lies within this of the printed line, on either side
    outline_far_band_mm: tuple[float, float] = (3.0, 5.5)  # deeper in the cell: parallel hatching shows here as much
    outline_line_reach_mm: float = 2.0  # a line (printed, drawn, or both side by side) is narrower than this across
    outline_edge_span: tuple[float, float] = (0.15, 0.85)  # the part of a side read: away from its corners ...
    outline_edge_parts: int = 3  # ... in this many parts; the middle reading counts (a curve runs along one only)
    # Over 4 tuning photos of single slashes per cell (seeds 0-3, mild), a side's reading less the photo's median
    # reading of an inner side: sides not outlined at most 0.1 (99%: 0.04), outlined at least 0.04 (95%: 0.13).
    # The print's own reading is each reading's lowest dense cluster this wide (outline._print_level; the border's:
    # its densest): the two sides of a line read up to 0.05 apart (loose scribble 170010), slash outlined 2 had most
    # inner sides drawn, and scribble-outlined 830022's drawn sides clustered tighter than the print's.
    outline_drawn: float = 0.07  # mm of full ink: a side reading this much above the print's own is drawn over
    outline_enclosed_share: float = 0.75  # a region is outlined when this share of its border sides is drawn ...
    outline_own_share: float = 0.5  # ... and a cell of it on that border when this share of its own border sides is
    outlined_confidence: float = 0.8  # a few strokes inside a drawn outline: a deliberate mark
    # Something dark in the margin beside a fill along the grid's border, from off_grid_band_mm[0] to [1] past the
    # border (a felt-tip bleeds up to 2 mm over its lines), off_grid_thick_mm thick or more (the printed row
    # numbers, column letters and box frames are thin strokes), puts the fill in doubt: something lies over the
    # sheet there. A shadow taken out of the margin may leave it as dark (light 100019, held out: 3 cells more in
    # doubt); leaving shadows out lost the pencil of 940006, which the shadow finder took for one.
    off_grid_band_mm: tuple[float, float] = (2.5, 6.0)
    off_grid_thick_mm: float = 2.0
    # ... and at least this dark: beside a light fill, half its ink is as faint as a shadow left in the margin
    # (sharpened 10020, held out: d9 and e9, light fills at the grid's foot, in doubt at half their ink; a pencil
    # over the sheet reads 0.3-0.4 of ink)
    off_grid_least_ink: float = 0.15

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
    # harsh seeds 0-1599 and moderate 0-1199, only beside a shadow's edge), a reading over check_faint
    # (check_threshold / 2) is in doubt: there, the 4 unused boxes with false ink and 25 of the 4993 crossed ones.
    # Before the thirty-sixth stop only a reading under check_sure was; a box deep in a shadow that narrows to a tip
    # over it reads as solid ink against the lit paper beyond (mixed 6000000, blind: 'cut', unused, 1.0 of strokes,
    # unflagged). Over levels 0-39 and 3000-3039 (harsh, moderate), light, mixed and framing 0-23, light and mixed
    # 100000-100023 and finger-on-sheet and finger-over-bubbles 0-23 (328 photos) 16 more boxes are in doubt so, in 13
    # photos, 2 of which had no doubt before (harsh 3020, 3033).
    check_ring_mm: tuple[float, float] = (1.5, 6.0)
    check_ring_percentiles: tuple[float, float] = (5, 95)
    check_ring_uneven: float = 0.2
    check_sure: float = 0.3
    # A box read unused whose mean ink is more than this over the barest box's is in doubt: a blur keeps a mark's
    # ink, not its strokes. Unused boxes read up to 0.032 over the barest (light 18, sensor 9; levels 0-39, light,
    # mixed, lens, sensor, curl, sharpened, shaken and shaken-hard 0-23: 1188 boxes); a tick shaken into 0.094 of
    # strokes 0.061 (shaken-hard 430007).
    check_mean_unsure: float = 0.045
    # A channel's ink on bare paper (the median of check_paper_cells empty cells, the last in the grid, nearest the
    # boxes; without any, the barest of the four boxes), over which it is noise (see stages._box_inks); a clean
    # photo's paper reads up to 0.03 in every channel (seen sets; a dim tungsten photo's blue 0.09).
    check_paper_floor: float = 0.03
    check_paper_cells: int = 6
    # Strokes in a box are measured against its own printed frame: the darker part (check_frame_percentile) of a
    # band check_frame_mm either side of it, against the second darkest frame of the four (one may be darker for
    # pencil over it; and the darkest of four frames in even light is above their usual by chance: a blue channel
    # left noisy by a dim lamp put an empty box at 0.121 of strokes, and its frame at 0.99 of the darkest would
    # have crossed it). A glare adds light to print and pencil alike, so a frame kept at a share of that contrast
    # keeps a cross at the same share, and strokes count from that share of check_stroke_ink (light 3300011,
    # blind: 'cut' crossed under a glare's fringe, its frame at 0.76 of the usual, its cross at 0.12-0.15 of ink,
    # read unused unflagged). Over 275 photos (families 0-23, moderate and harsh 0-29) no box changed reading;
    # unused boxes read at most 0.0013 of strokes so. A frame kept below check_frame_least is a glare's (glare.py
    # doubts it).
    check_frame_mm: float = 0.8
    check_frame_percentile: float = 97
    check_frame_least: float = 0.5
    # Strokes in a box of which box_line_share lie along one straight line (within scribble_along_mm) that runs on
    # pass_reach_mm past the printed frame (passes.ends_running_on) are a line across the page, not the box's mark:
    # in doubt, and read unused when the line runs on past both sides (stray-line 460014, blind: a line on from g9
    # through 'cut', read crossed, unflagged). A cross lies along two lines and a tick's short leg holds a third of
    # its strokes; a single slash can lie along one line, and it stops near the box.
    box_line_share: float = 0.85

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
    # A row with no bubble filled beside a row with one: its darkest bubble this share of the threshold above the
    # row's median is in doubt (empty bubbles measure 0.00-0.02, the row's median about 0.01: mixed 400013's washed
    # out fill 0.05 against a threshold of 0.125).
    bubble_faint_share: float = 0.25
    bubble_ring_paper_percentile: float = 80  # the ring's paper: its brighter part (print and pencil taken out)
    bubble_ring_percentiles: tuple[float, float] = (10, 90)  # the ring's light, darkest to brightest, for ...
    bubble_ring_uneven: float = 0.12  # ... log: the paper around a bubble this much brighter on one side: an edge
    bubble_sectors: int = 8  # directions in which a bubble crossed by a shadow's edge is read side by side
    # A ring drawn round a bubble (bubble_rings.py), looked for from bubble_drawn_ring_mm[0] to [1] from its middle
    # (the printed ring at 2.3, the neighbours' at 3.3 and more; the rings of tests/photogen_styles.py run at
    # 2.3-3.2 mm, a little flattened), unrolled at bubble_drawn_ring_scale times the sheet's pixels a millimetre into
    # bubble_drawn_ring_directions directions. Pencil there: bubble_drawn_ring_ink darker than the row's usual in
    # that direction (each bubble against its paper, the bubble_drawn_ring_paper_percentile of what is round it);
    # a ring's stroke, blurred, reads 0.3-0.6, JPEG noise and the print's registration under 0.1.
    bubble_drawn_ring_mm: tuple[float, float] = (2.0, 3.1)
    bubble_drawn_ring_scale: float = 2.0
    bubble_drawn_ring_directions: int = 72
    bubble_drawn_ring_ink: float = 0.15
    bubble_drawn_ring_paper_percentile: float = 80
    # That paper's colours are the same over a known light (white: 46 rings read on bubble-marks 0-23 and
    # 740000-740023, at most 0.008 apart in log); a misjudged light's are not (0.32 and 0.80 beside a finger or a
    # pencil lying by a row, read as rings there, in finger-over-bubbles 790000 and pencil-over-bubbles 890014).
    bubble_drawn_ring_paper_tint: float = 0.1
    # On 48 sheets of bubble-marks (seeds 0-47), rings showed in 0.74-1.0 of the directions round their bubble and
    # pencil round any other bubble of their rows in at most 0.22; crosses and scribbles reached 0.53 (they are read
    # as marks first). Rows read empty under a pencil or a finger: up to 0.64, two bubbles or more over 0.4.
    bubble_drawn_ring_share: float = 0.7
    bubble_drawn_ring_unsure: float = 0.4
    # A ringed bubble's middle (within bubble_read_radius_mm) is bare: at most 0.057 darker than the row's usual on
    # 24 harsh sheets ringed (blur, heavy JPEG), against 0.19 and more for the fills of 12 harsh sheets.
    bubble_drawn_ring_middle: float = 0.1
    # A blank row beside a read one is looked at this far out for a ring wider than those read (its neighbours'
    # printed rings, the same round every bubble, taken out).
    bubble_drawn_ring_far_mm: float = 4.2

    # --- a page that is not flat: where the print really is (refine.py; lengths in sheet mm) ---
    # A closing this wide (1.75 mm) takes out thin print and strokes, leaving the paper they lie on (a sharpened
    # photo's bright rings beside them, narrower than halo_px, are taken out first).
    refine_line_paper_px: int = 7
    # The fit: refine_bending weighs the field's second differences against one probe's squared error (mm); probes
    # off the field by more than refine_robust_mm weigh less (Cauchy), so a stroke taken for a line does not pull
    # it. On the curl family (seeds 0-23, folds and bows up to 20 mm moving the grid up to 6 mm) the field then lies
    # within 0.25 mm of the truth at the cells' centres, 0.3 mm at the bubbles and 0.7 mm at the check squares (an
    # edge curl, seed 4).
    refine_bending: float = 0.1
    refine_robust_mm: float = 0.4
    refine_fit_rounds: int = 4  # reweightings of the last fit ...
    refine_first_fit_rounds: int = 2  # ... and of the first looks' fits
    refine_marker_weight: float = 2.0  # a marker's corner weighs this many grid line segments ...
    refine_box_weight: float = 2.0  # ... and a check square or a whole round block this many (a bubble row half: 1)
    refine_wide_search_mm: float = 7.0  # first look: up to this far from the homography (a 20 mm fold moves 6 mm)
    refine_narrow_search_mm: float = 2.5  # second look, around the fitted field: under half the bubbles' pitch (5.6)
    refine_segment_gap_mm: float = 1.5  # line segments are measured this far from the crossings (a step there)
    refine_line_min_ink: float = 0.06  # a printed line's profile peak stands this far above the profile's median
    refine_line_distinct: float = 0.7  # ... and the next peak, beyond refine_line_apart_mm, at most this share of it
    refine_line_apart_mm: float = 1.5
    refine_near_share: float = 0.5  # looking close, a peak this high against the highest may be the printed line
    # The least normalised correlation of a box or bubble-row template where it is found: of 480 such looks close
    # around the field (curl, mixed and harsh photos, seeds 0-9), the 469 at 0.45 or more all lay within 0.25 mm of
    # the truth; right places on harsh photos score down to 0.40 (not found then: the field reads them, or doubts
    # them).
    refine_match_min: float = 0.45
    refine_template_blur_px: float = 0.7  # the templates are blurred this much: the photo's own blur, roughly
    refine_shift_ok_mm: float = 1.0  # a box or row not found is read where the field puts it when this near ...
    refine_neighbour_mm: float = 25.0  # ... nor when one this near was found moved that much (a block's pitch: 17)
    refine_box_tolerance_mm: float = 1.0  # a check square found this far from the fitted field: not explained
    refine_row_tolerance_mm: float = 0.7  # bubbles: the read square (1.3 mm half side) stays in the ring (2.3 mm)
    refine_cell_tolerance_mm: float = 1.5  # cells are read 3.5 mm inside their lines
    refine_cell_bad_sides: int = 3  # sides of a cell off the field (or unseen where it moves far): in doubt
    # The field moving the grid's crossings less than refine_flat_grid_mm and the check squares and bubbles less
    # than refine_flat_marks_mm, the sheet is read through the homography alone: cells are read 3.5 mm inside their
    # lines, bubbles 1.3 mm around their centre inside a 2.3 mm ring. On flat pages (photogen moderate and harsh,
    # seeds 0-29) the fitted field moves the crossings by up to 0.75 mm and the marks by up to 0.4 (the truth: at
    # most 0.4), and a warp through that noise only moves the printed lines the shadow finder looks along (it read
    # harsh 607 and 635 of seeds 600-639 with 56 and 81 cells in doubt, against 4 and 4). The pages one homography
    # misread had their bubbles 1.9 mm or more off and their check squares 2.7 mm (curl 2, 20, 21).
    refine_flat_grid_mm: float = 1.0
    refine_flat_marks_mm: float = 0.6
    refine_marker_reach_mm: float = 3.0  # a marker of this sheet lies within this of where the homography puts it
    unflat_confidence: float = 0.2  # what is read where the field does not explain the print

    # --- the phone's processing: printed-but-empty marks (processing.py) ---
    # What an empty bubble reads (local ink over its read square) on photos without strong processing: the median
    # of the 60 bubbles was 0.030-0.031 on moderate photos of tests/photogen.py (seeds 1-3). With an unsharp mask of
    # 3 (sigma 2 and 4 photo pixels) it rose to 0.091-0.115, and the emptiest-looking filled bubble stayed above 0.47
    # while the darkest empty one reached 0.131, over the 0.125 threshold.
    empty_bubble_ink: float = 0.031
    # A lift this large is processing, not noise: without processing the median stays within 0.01 of
    # empty_bubble_ink.
    lift_seen: float = 0.03
    # A box with no strokes in it (its ink from its 10th to its 90th percentile within the stroke ink) reads as a
    # level. An empty box under a sharpening of 3 read a level of 0.21-0.27 all over; a box shaded solid with light
    # pencil 0.28 (moderate seed 1, unprocessed). Below solid_sure, such a level is in doubt on a processed photo.
    level_percentiles: tuple[float, float, float] = (10, 50, 90)
    solid_sure: float = 0.5

    # --- the sheet's QR code (qr.py) ---
    # The code's square is rectified at this resolution: up to here more pixels per module kept decoding more 1-4 MP
    # photos (benchmarks/bench_qr.py).
    qr_px_per_mm: float = 20.0
    qr_margin_mm: float = 2.0  # paper kept around the code's printed square
    qr_search_px_per_mm: float = 8.0  # the fallback detector looks at a smaller copy (slower, and needs no more)
    qr_sharpen_sigma_px: float = 2.0  # a sharpened copy (unsharp mask this wide, of this amount) helps blurred photos
    qr_sharpen_amount: float = 1.0

    # --- a 9x9 grid found without markers (grid_fallback.py; pixels of the copy searched, or of a candidate grid
    # rectified with cells grid_check_cell_px wide) ---
    grid_search_side: int = 1000  # the grid is looked for in a copy of the photo this large
    # Ink: this far (0-255) darker than the mean over a block of the copy's side / grid_threshold_blocks (odd, at
    # least grid_threshold_block_px), closed over grid_close_px.
    grid_threshold_blocks: int = 30
    grid_threshold_block_px: int = 15
    grid_threshold_offset: float = 10
    grid_close_px: int = 3
    grid_min_area: float = 0.04  # a candidate border encloses at least this fraction of the photo
    grid_corner_approx: float = 0.02  # its outline is simplified to this share of its length: 4 corners
    grid_candidates: int = 12  # the largest this many candidates are checked by their inner lines
    grid_check_cell_px: int = 40  # resolution of the candidate grid while checking its lines: a cell this wide
    # An inner line shows when its profile's peak (within grid_line_peak_px of where it should be) stands more than
    # grid_line_prominence (0-255) above the profile grid_line_around_px away on either side.
    grid_line_peak_px: int = 4
    grid_line_around_px: tuple[int, int] = (8, 16)
    grid_line_prominence: float = 6
    grid_min_lines: int = 13  # of the 16 inner lines, this many must show as lines
    # A border with a corner this close to the photo's edge (share of the search image's side) runs along the frame:
    # the grid goes on beyond it (framing 16 of tests/photogen_families.py: the top row cut off, its corners found 0
    # and 3 pixels from the edge, read as a whole grid with 7 cells wrong). A whole grid lies inside a sheet's
    # margins, well inside the photo.
    grid_edge_margin: float = 0.005
    # Which way up: a found marker's corners lie within this (RMS, sheet mm) of where a way up puts them (any other
    # way up puts them at least 22 mm away).
    grid_marker_tolerance_mm: float = 10.0
    code_check_px_per_mm: float = 2.0  # the coarse look at where a QR code would be (a decode costs about 0.1 s)
    code_paper_percentile: float = 90  # the paper's brightness there ...
    code_dark_share: float = 0.6  # ... and darker than this share of it: a dark module
    code_min_dark: float = 0.2  # a code's square (white border included) is about 40% dark modules

    # --- the layout placed from the grid and the markers in view (placement.py) ---
    # How far a found point lies from where it truly is, one standard deviation along each axis (sheet mm). Measured
    # on photos whose 4 markers all show (tests/photogen_families.py, plain seeds 0-7): the grid corners that
    # `grid_fallback.find_grid_homography` finds lie a median 0.27 mm, at most 0.5 mm, from where the 4 markers' fit
    # puts the outer edge of the grid's border (placement.FOUND_OUTLINE_MM); marker corners (subpixel) fit within
    # 0.1-0.25 mm RMS.
    grid_corner_sigma_mm: float = 0.25
    marker_corner_sigma_mm: float = 0.1
    # A marker that fits the grid's way up (within grid_marker_tolerance_mm) but lies this far (RMS) from where the
    # joint fit puts it: the points are not of one flat sheet, and the layout is not placed.
    placed_consistent_mm: float = 2.0
    # All points (grid corners and markers) fit within this (RMS, sheet mm), or the layout is not placed: in the 360
    # fits of placed_sure_mm's check (below) at most 0.34 mm.
    placed_fit_limit_mm: float = 0.8
    # A box or bubble placed with an uncertainty (one standard deviation, sheet mm) up to placed_sure_mm is read as
    # on a sheet with all its markers; up to placed_unsure_mm it is read in doubt; beyond, not read. Checked by
    # leaving markers out of photos whose 4 markers show (plain and framing seeds 0-23, 360 fits of the grid and 1
    # or 2 markers, against the fit of all 4): the true misplacement of a box or bubble was at most 3 of its
    # standard deviations; fits whose every item is within 0.25 misplaced none by more than 0.61 mm (a bubble's read
    # square reaches 1.3 mm from its centre, its printed ring 2.1 mm), the others by up to 0.81 mm.
    placed_sure_mm: float = 0.25
    placed_unsure_mm: float = 0.5
    placed_in_view_mm: float = 1.0  # a box or bubble is in the photo when this much paper around it is
    placed_unsure_confidence: float = 0.3  # a box read where its place is in doubt: as sure as shadow_doubt

    # --- the photo as a whole ---
    too_dark_level: float = 40.0  # paper darker than this (0-255) leaves too little contrast between pencil and paper
    # Without markers, the photo is judged on a copy this wide: too dark when its bright part (this percentile)
    # is darker than too_dark_level; too blurred when it has contrast (its brightness between these percentiles
    # spreads more than blur_min_spread) but its sharpest edges (this percentile of the Laplacian) are weak against it.
    focus_width_px: int = 640
    bright_percentile: float = 95
    blur_spread_percentiles: tuple[float, float] = (1, 99)
    blur_min_spread: float = 40
    blur_edge_percentile: float = 99.5
    blur_max_sharpness: float = 0.06
    grid_confidence_cap: float = 0.8  # a markerless read is never reported as more certain than this
    unknown_way_up_confidence: float = 0.25  # a grid whose way up is not known: one of four turns is right
    mirror_evidence: int = 2  # at least this many markers seen flipped back, more than unflipped: mirrored

    @property
    def shadow_label_noise(self) -> float:
        """Log: paper further than this off its light (or its shadow's) fits neither."""
        return self.shadow_min_depth / 2

    @property
    def check_faint(self) -> float:
        """Less than this is no mark in a special box, uneven paper around it or not."""
        return self.check_threshold / 2


TUNING = ReaderTuning()
"""The reader's tuning as measured (see each value's comment)."""
