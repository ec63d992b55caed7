"""Reading the flattened sheet in stages, after OMRChecker's processors: one `SheetRead` is passed along, and each
stage fills in what it finds (the paper, the shadows, the light and the cells, the cell decisions, the special
boxes, the bubbles). `read_sheet` runs them; `scan.py` finds the sheet in the photo before and makes the
`ScanResult` after. The values they decide with are `tuning.ReaderTuning`.

The cells are read with the hard shadows taken out (`shadows`: steps of the light that do not run along the grid
lines) and the smooth light corrected (`measure.flat_field`): the ink in each cell's interior against a per-sheet
threshold at the largest gap of the sorted cell values, with strokes as a second signal (`strokes`: a slash is a
mark, a stain is not). Special boxes and bubbles are read against the light right around them
(`measure.local_ink`), which needs no shadow estimate. Every cell, box and bubble gets a confidence, and the
doubtful ones are listed.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

import cv2
import numpy as np

from doodle.geometry import Cell
from doodle.quilt import MAX_ROUND_SCORE, SIZE, Quilt, mask_of
from doodle.sheet import layout, pictures
from doodle.sheet.bubble_rings import ringed_digit, ringed_shares
from doodle.sheet.cover import GridPrint, cover_over, grid_print
from doodle.sheet.crossings import confined_cells, crossing_margin_px, crossings, passed_through, without_grid_lines
from doodle.sheet.doubts import Uncertain
from doodle.sheet.fill_edges import edge_rise_mm
from doodle.sheet.grain import Grain, cleanest_quarter, grain_of, paper_blocks, print_line_width_mm
from doodle.sheet.light import (
    could_be_paper,
    darker_nearby,
    darkness,
    either_side,
    light_uncertainty,
    near_each_other,
)
from doodle.sheet.line_steps import (
    LineStep,
    boxes_texture,
    colour_gap,
    fine_texture,
    line_crosses,
    margin_squares,
    middle_against_sides,
    neighbours,
    settle,
    steps_around,
)
from doodle.sheet.measure import (
    FlatField,
    coarse_sheet,
    flat_field,
    largest_gap_threshold,
    light_variation,
    local_channel_ink,
    local_ink,
    log_distance,
    medians_of,
    paper_between_strokes,
    region_ink,
    without_thin_print,
)
from doodle.sheet.outline import (
    drawn_sides,
    edge_lines,
    inside_outlines,
    joined,
    outlined_alone,
    outlined_cells,
    shut_out,
    sides_drawn,
)
from doodle.sheet.passes import (
    ending_in_paper,
    ends_running_on,
    lines_through,
    on_doubted_lines,
    passed_cells,
    turned_through_cells,
)
from doodle.sheet.processing import level_only, print_lift
from doodle.sheet.scan_errors import TooDarkError
from doodle.sheet.scribbles import scribbled_cells, sparse_pieces
from doodle.sheet.shadows import ShadowMap, find_shadows
from doodle.sheet.stain_rings import StainRing, cells_under, share_on_rims, stain_rings, tint_across_circle
from doodle.sheet.stray import stray_line_cells
from doodle.sheet.strokes import (
    StrokeMap,
    graphite,
    pencil_coloured,
    side_neighbours,
    stain_cells,
    stain_coloured,
    touching_groups,
    yellow_as_a_pencil,
)
from doodle.sheet.tuning import TUNING, ReaderTuning

PX_PER_MM = 4.0
"""Resolution of the flattened sheet image: a 16 mm cell is 64 pixels, a bubble 18."""

TOO_DARK_MESSAGE = "the photo is too dark to read: take it in better light (or with the flash, avoiding glare)"

Box = tuple[int, int, int, int]
"""A region of the sheet image in pixels: x0, y0, x1, y1."""


@dataclass(eq=False, repr=False)  # arrays: their repr says nothing
class SheetRead:
    """What is known of a flattened sheet so far: the stages of `read_sheet` fill it in, in order.

    The sheet image and the mask of its pixels that were inside the photo come first; `marks` says whether the
    sheet has our layout (corner markers found: its boxes and bubbles are read too) or only a grid. With a `trace`
    (a dict), each stage puts a picture of what it found in it, by name, in the order found (see `show`)."""

    sheet: np.ndarray  # BGR, the sheet frame at PX_PER_MM
    inside: np.ndarray  # bool: the pixels that were inside the photo
    marks: bool
    tuning: ReaderTuning = TUNING
    trace: dict[str, np.ndarray] | None = None  # BGR pictures of the sheet's size, by name: see `show`
    covered_corners: tuple[str, ...] = ()  # the corners ("tl", ...) whose markers were not seen, though in the photo
    # find_paper
    trusted: np.ndarray = field(init=False)  # bool: the paper known before anything is read
    covered: np.ndarray = field(init=False)  # bool: what covers a corner and the sheet around it (cover.py)
    shown: GridPrint = field(init=False)  # how the print shows: what lies over it, how blurred it is (cover.py)
    # take_out_shadows
    shadows: ShadowMap = field(init=False)
    plain: FlatField = field(init=False)  # the photo's own light, shadows and all
    unshadowed: np.ndarray = field(init=False)  # the sheet with the hard shadows taken out
    # light_and_cells
    margin_light: FlatField = field(init=False)  # the light from the bare paper alone (shadows taken out)
    light: FlatField = field(init=False)  # the light the cells are read in
    values: np.ndarray = field(init=False)  # the ink in each cell's interior, row by row
    threshold: float = field(init=False)
    paper_cells: set[int] = field(init=False)  # empty cells that joined the paper
    overbright: set[int] = field(init=False)  # cells brighter than the paper estimate: it is wrong around them
    # shadow_doubts
    variation: np.ndarray = field(init=False)  # how steeply the light changes around each pixel
    uncertainty: np.ndarray = field(init=False)  # per cell, how far off (log) the light may be there (light.py)
    darker: np.ndarray = field(init=False)  # per cell, how much darker (log) the light may be (light.darker_nearby)
    unseen: np.ndarray = field(init=False)  # ... and where a shadow taken out may go on into the grid unseen
    in_shadow: set[int] = field(init=False)  # cells whose light a shadow taken out raised (`_cells_in_shadow`)
    shadowed: set[int] = field(init=False)  # cells near a shadow's edge (all, when the light is steep)
    steep: bool = field(init=False)  # a shadow was taken out and the light still changes steeply near the grid
    lifted: set[int] = field(init=False)  # cells read as paper only because a shadow was taken out
    brightened: set[int] = field(init=False)  # ... of them, those in doubt for it (where the cells do not confirm
    # the shadow's depth, or beside a stretch of its outline with no step: `leaked`)
    leaked: set[int] = field(init=False)  # those of them beside a stretch of its outline with no step
    depth_confirmed: bool = field(init=False)  # the cells read as paper confirm the shadows' depth (see below)
    # find_strokes
    strokes: StrokeMap = field(init=False)
    stains: set[int] = field(init=False)  # cells shaded by a tint that may not keep to the grid
    blots: set[int] = field(init=False)  # ... of them, those whose tint fades before their lines or spills over
    stained: set[int] = field(init=False)  # cells under a mug's ring, offered as empty (`_under_stain_rings`)
    outlined: set[int] = field(init=False)  # marked cells inside a drawn outline (see `outline`)
    drawn: dict[str, np.ndarray] = field(init=False)  # the sides of cells with a line drawn (`outline.drawn_sides`)
    confined: set[int] = field(init=False)  # cells with strokes, none crossing their sides (see `crossings`)
    scribbled: set[int] = field(init=False)  # cells where a scribble's passes turn back (see `scribbles`)
    passed: set[int] = field(init=False)  # outlined cells whose strokes are a pass from beyond a drawn side (`passes`)
    left_out: set[int] = field(init=False)  # cells a line passes through, left out by the outlines around them
    clean: np.ndarray = field(init=False)  # the stroke map without the grid's lines (`crossings.without_grid_lines`)
    pieces: np.ndarray = field(init=False)  # the strokes' straight pieces in it (`scribbles.sparse_pieces`)
    # measure_print
    bubble_values: dict[tuple[int, str, int], float] = field(init=False)  # each bubble's, by (round, place, digit)
    bubble_ink: tuple[Box, np.ndarray] = field(init=False)  # the local ink over all the bubbles, for the trace
    print_lift: float = field(init=False, default=0.0)  # how much more empty print reads than unprocessed (processing)
    # decide_cells, read_specials, read_rounds
    quilt: Quilt = field(init=False)
    unlit: set[int] = field(init=False)  # tints with no strokes that the split of such cells alone puts with paper
    settled: dict[int, bool] = field(init=False)  # cells in doubt the printed lines settle (True: shaded; line_steps)
    # grey tints in doubt only for what else they may be (`decide_cells`: nothing drawn in or around them, or far
    # fainter than the sheet's shading): the printed lines tell a fill from light, not a fill from a patch rubbed
    # out, and do not settle them
    bare_tints: set[int] = field(init=False, default_factory=set)
    grain: Grain | None = field(init=False, default=None)  # the fine texture, made when first needed
    print_width_mm: float | None = field(init=False, default=None)  # the printed lines' width seen, when needed
    widest_print_mm: float | None = field(init=False, default=None)  # the wider of the lines down's and across's
    specials: tuple[str, ...] | None = field(init=False, default=None)  # None: not read (no layout)
    rounds: tuple[int | None, ...] = field(init=False, default=(None,) * layout.ROUND_COUNT)
    # The bubbles read as filled, per round: (tens digit, units digit), None where that row has none.
    bubbles: tuple[tuple[int | None, int | None], ...] = field(
        init=False, default=((None, None),) * layout.ROUND_COUNT)
    uncertain: list[Uncertain] = field(init=False, default_factory=list)
    confidences: list[float] = field(init=False, default_factory=list)  # the cells' first, row by row

    def show(self, name: str, draw: Callable[[SheetRead], np.ndarray]) -> None:
        """Keep `draw(self)` (BGR, the sheet's size) in the trace as `name`, when there is a trace: drawn only
        then."""
        if self.trace is not None:
            self.trace[name] = draw(self)

    @property
    def shadow(self) -> bool:
        """Whether a hard shadow was found near the cells."""
        return bool(self.shadowed)


Stage = Callable[[SheetRead], None]


def find_paper(read: SheetRead) -> None:
    """The paper known before anything is read: with our layout, everywhere except where the player draws (cells,
    boxes, bubbles, written scores) and the large printed areas (markers, QR code, tinted boxes). Printed text and
    thin lines are taken out later by a small max filter, so the paper between them counts, close around the grid
    too. Without our layout, only a narrow ring just outside the grid's border."""
    t = read.tuning
    read.covered = np.zeros_like(read.inside)
    read.shown = grid_print(read.sheet, PX_PER_MM, t, read.inside, boxes=read.marks)
    if not read.marks:
        ring = np.zeros_like(read.inside)
        _set(ring, layout.GRID_RECT.inset(-t.grid_ring_mm), True)
        _set(ring, layout.GRID_RECT.inset(-t.grid_ring_inner_mm), False)
        read.trusted = ring & read.inside
        read.show("paper", _paper_picture)
        return
    trusted = read.inside.copy()
    margin = -t.paper_margin_mm
    for marker in layout.MARKERS:
        _set(trusted, marker.rect.inset(margin), False)
        if marker.corner in read.covered_corners:  # a thumb holding the sheet down, say: no paper (cover.py)
            read.covered |= cover_over(read.sheet, marker.rect, PX_PER_MM, t)
    trusted &= ~read.covered
    _set(trusted, layout.QR_RECT.inset(margin), False)
    _set(trusted, layout.GRID_RECT.inset(-t.paper_grid_margin_mm), False)
    for special in layout.SPECIALS:
        _set(trusted, special.box.inset(margin), False)
    for rect in (layout.RULE_RECT, layout.PENALTY_RECT, layout.TOTAL_RECT, *layout.OLDER_LAYOUT_BLOCKS):
        _set(trusted, rect.inset(margin), False)
    for block in layout.ROUNDS:
        _set(trusted, block.write.inset(-t.paper_write_margin_mm), False)
        for place in layout.PLACES:
            for digit in range(10):
                _set(trusted, layout.bubble_rect(block.number, place, digit).inset(-t.paper_bubble_margin_mm), False)
    read.trusted = trusted
    read.show("paper", _paper_picture)


def take_out_shadows(read: SheetRead) -> None:
    """The hard shadows on the sheet, told from pencil by not running along the printed grid lines, and the sheet
    with them taken out. The boxes and bubbles, read against fixed thresholds and their own surroundings, are
    read in the photo's own light (`plain`)."""
    t, sheet = read.tuning, read.sheet
    height, width = sheet.shape[:2]
    near_columns = np.zeros((height, width), bool)
    near_rows = np.zeros((height, width), bool)
    grid, reach = layout.GRID_RECT, t.grid_line_reach_mm
    for k in range(SIZE + 1):
        _set(near_columns, layout.Rect(grid.x + k * layout.CELL_MM - reach, grid.y - reach, 2 * reach,
                                       grid.h + 2 * reach), True)
        _set(near_rows, layout.Rect(grid.x - reach, grid.y + k * layout.CELL_MM - reach, grid.w + 2 * reach,
                                    2 * reach), True)
    domain = read.trusted.copy()
    _set(domain, grid.inset(-t.grid_domain_margin_mm), True)
    cells = _cell_interiors(height, width, t.cell_line_clearance_mm)
    opened = without_thin_print(sheet, t)  # the shadows and the light are both looked for in the paper alone
    read.shadows = find_shadows(sheet, near_columns, near_rows, domain, read.trusted, cells, t, opened)
    read.plain = flat_field(sheet, read.trusted, t, coarse_sheet(sheet, t, opened))
    read.unshadowed = sheet if read.shadows.depth <= 0.0 else _lifted(sheet, read.shadows.gain)
    read.show("shadows", _shadows_picture)


def _lifted(sheet: np.ndarray, gain: np.ndarray) -> np.ndarray:
    """The sheet over the shadows' `gain` (float32): each 8-bit channel divided as floats, clipped and cut to 8
    bits, a channel at a time through one float plane (cv2.divide gives numpy's quotients, faster)."""
    plane = np.empty(gain.shape, np.float32)
    lifted = []
    for channel in cv2.split(sheet):
        cv2.divide(channel, gain, dst=plane, dtype=cv2.CV_32F)
        lifted.append(np.clip(plane, 0, 255, out=plane).astype(np.uint8))
    return cv2.merge(lifted)


def light_and_cells(read: SheetRead) -> None:
    """The light over the sheet, the ink in each cell, the threshold, and the cells taken as paper, starting from
    the light estimated from the known paper alone.

    The empty cells are paper too: with them the light is known inside the grid, which matters under a hard
    shadow across it. Cells surely empty join the paper and the light is estimated again, until no more join:
    the paper grows from the margins into the grid through the empty cells.
    """
    t, sheet = read.tuning, read.unshadowed
    field_ = read.plain if sheet is read.sheet else flat_field(sheet, read.trusted, t, same_paper=read.plain)
    read.margin_light = field_
    if field_.paper_level < t.too_dark_level:
        raise TooDarkError(TOO_DARK_MESSAGE)
    trusted = read.trusted.copy()
    boxes = cell_boxes(t.cell_inset_mm)
    joined: set[int] = set()
    unseen = read.shadows.edge | read.covered  # a cell is read on what shows of it, in the light it shows in
    for _ in range(t.max_passes):
        values = _cell_values(field_, unseen, t)
        threshold = largest_gap_threshold(values, t.cell_lowest, t.cell_highest, t)
        overbright = _overbright_cells(field_, t)
        limit = min(t.paper_cell, threshold * t.paper_cell_share)
        new = {i for i, value in enumerate(values) if i not in joined | overbright and value < limit}
        if not new:
            break
        for i in new:
            x0, y0, x1, y1 = boxes[i]
            trusted[y0:y1, x0:x1] = True
        joined |= new
        # The same sheet (its coarse picture and channels made already), more paper.
        field_ = flat_field(sheet, trusted, t, field_.coarse.values, channels=field_.channels)
    else:
        values = _cell_values(field_, unseen, t)
        threshold = largest_gap_threshold(values, t.cell_lowest, t.cell_highest, t)
        overbright = _overbright_cells(field_, t)
    read.light, read.values, read.threshold, read.paper_cells = field_, values, threshold, joined
    read.overbright = overbright
    read.show("light", _light_picture)
    read.show("ink", _ink_picture)


def shadow_doubts(read: SheetRead) -> None:
    """Where the light is least sure: how far off it may be at each cell (`light.light_uncertainty`: how well the
    empty cells near it, left out in turn, are predicted; where none is near, how steeply the light changes
    around it: a hard shadow edge may have been bridged), cells near a shadow's edge, cells brightened into paper
    by a shadow taken out."""
    t = read.tuning
    boxes = cell_boxes(t.cell_inset_mm)
    read.variation = variation = light_variation(read.light, round(t.shadow_window_mm * PX_PER_MM), t)
    around = np.array([variation[(y0 + y1) // 2, (x0 + x1) // 2] for x0, y0, x1, y1 in boxes])
    read.uncertainty = light_uncertainty(read.light.coarse, read.paper_cells, boxes, around, t)
    read.darker = darker_nearby(read.light.coarse, boxes, PX_PER_MM, t)
    read.in_shadow = in_shadow = _cells_in_shadow(read)
    unlifted = _near_border_steps(read) - in_shadow
    read.unseen = np.zeros(SIZE * SIZE)
    if unlifted:
        # Near where the shadow taken out stops along the grid's border, it may go on into the grid unseen: a cell
        # it left as it was is read in the photo's own light, so the paper near it tells how dark that light may be
        # as the photo shows it, not as lifted (mixed 800001: a fold's lower half in a hand's shadow, taken out of
        # the margins only; 14 empty cells within three rows of the border read 0.15-0.27 of ink, shaded and sure).
        brighter = np.log(np.maximum(_box_medians(read.light.paper, boxes), 1.0)) - np.log(
            np.maximum(_box_medians(read.plain.paper, boxes), 1.0))  # the light read in, over the photo's own
        shown = darker_nearby(read.plain.coarse, boxes, PX_PER_MM, t) + np.maximum(brighter, 0.0)
        read.unseen = np.where([index in unlifted for index in range(SIZE * SIZE)], shown, 0.0)
    # A shadow was taken out and the light still changes steeply over the paper near the grid: the shadow may have
    # been misjudged anywhere in the grid (a soft hand shadow taken for a hard one: light 26, 35, 36 read empty cells
    # as shaded, and one can brighten light pencil into paper), or a part of it missed (light 100009, 100035: the
    # corner of a shadow left in, away from the part taken out), so every grey cell may be shadow, known paper or
    # not. Not so when that paper is far from the grid: a shadow misjudged around the round boxes put every cell of
    # harsh 601, 604, 612 and 637 in doubt. Nor, for a hard shadow, within t.steep_edge_band_mm of the edge taken
    # out: an edge a millimetre off leaves a strip lit wrongly along it, steep, which the cells beside the edge are
    # in doubt for already (harsh 4000, 613: every grey cell was in doubt for it). A soft shadow misjudged leaves the
    # light wrong close to its edge too (light 40: 13 empty cells read as shaded beside it, unflagged, without it).
    # Smooth light with no shadow taken out (vignetting, a lamp to one side) is left to `uncertainty`.
    # (Leaving out the cells read as paper away from a hard shadow taken out, as a part missed only darkens, took
    # harsh 660 and 678 from 61 and 62 cells in doubt to 17 and 16; but a soft shadow judged hard and taken out too
    # deep read 7 fills of light 200014 as paper, unflagged, so it was not done. What is done below leaves out only
    # the paper the shadow taken out did not lift at all, and those 7 fills were lifted.)
    read.steep = read.shadows.depth > 0.0 and _steep_near_grid(read)
    read.shadowed = _shadowed_cells(read.shadows, t)
    if read.steep:
        # A shadow misjudged, or a part of it missed, only darkens the paper; it can lighten a cell only where it was
        # taken out. So a cell the shadow taken out left as it was, read as paper in that light and in the photo's
        # own, is paper however steep the light is elsewhere (harsh 26: a title's blur beside the shadow's edge read
        # as steep light, and 73 cells were in doubt, 50 of them clear paper far from the shadow). Not so a cell
        # it lifted, even when the cells confirm its depth: a hand's shadow judged hard can be confirmed all the
        # same (light 1400001: 0.52 deep, taken out at 0.26), and its depth changes across it.
        read.shadowed = {index for index in range(SIZE * SIZE)
                         if index in in_shadow or read.values[index] > read.threshold
                         or region_ink(read.plain.ink, boxes[index]) > read.threshold}
    read.depth_confirmed = _depth_confirmed(read, in_shadow)
    # Cells confirming the depth say nothing of where the shadow's outline runs: beside a stretch of it that
    # shows no step, the shadow may have leaked over light fills (`shadows.unsupported_outline`).
    brightened = read.lifted = _brightened_cells(read, in_shadow)
    read.leaked = brightened & _beside_unsupported(read, in_shadow)
    read.brightened = read.leaked if read.depth_confirmed else brightened
    read.show("light-variation", _variation_picture)


def find_strokes(read: SheetRead) -> None:
    """The strokes over the cells, the shaded cells whose tint may be a stain (see `strokes`), the marked cells
    inside a drawn outline (see `outline`), the cells whose strokes are a mark of their own (see `crossings`) and
    those where a scribble turns back (see `scribbles`)."""
    t = read.tuning
    boxes = cell_boxes(t.cell_inset_mm)
    read.strokes = StrokeMap(read.sheet, boxes, PX_PER_MM, t, margin_px=crossing_margin_px(PX_PER_MM, t),
                             stroke_ink=_stroke_ink(read))
    shaded = read.values > read.threshold
    # A shadow's edge taken out, or a thumb's over the cells, is no tint's edge (harsh 32: a thumb over i1's top,
    # 0.41 uneven, put the 9 cells of the patch beside it in doubt as a stain).
    read.stains, read.blots = stain_cells(read.light.ink, read.light.normalised, read.values, shaded, read.strokes,
                                         boxes, PX_PER_MM, t, read.shadows.edge | read.covered)
    marked = {i for i in range(SIZE * SIZE) if shaded[i] or read.strokes.shares[i] >= t.stroke_mark}
    lines = edge_lines(read.light.ink, PX_PER_MM, t)
    read.outlined = outlined_cells(lines, marked, t)
    drawn = read.drawn = drawn_sides(lines, t)
    stroked = {i for i in marked if read.strokes.shares[i] >= t.stroke_mark}
    clean = without_grid_lines(read.strokes, PX_PER_MM, t)
    found = crossings(read.strokes, clean, PX_PER_MM, t) if stroked else (set(), set())
    read.confined = confined_cells(read.strokes, boxes, stroked, PX_PER_MM, t, clean, drawn, found)
    origin = (read.strokes.x0, read.strokes.y0)
    read.scribbled, read.passed = set(), set()
    read.clean, read.pieces = clean, np.zeros((0, 4))
    turning: set[int] = set()
    left_out_by_outlines = shut_out(drawn)
    if stroked:
        pieces = read.pieces = sparse_pieces(clean, origin, read.strokes.shares, PX_PER_MM, t)
        # A scribble that turns in a cell the outlines around it leave out is a patch's next door, run on past its
        # outline (scribble-outlined 130003: c3, a hole in a U of cells outlined on their own sides; d3's scribble
        # turned back 2 mm inside c3's far side, and c3 read shaded and sure).
        turning = scribbled_cells(clean, origin, boxes, read.strokes.shares, pieces, PX_PER_MM, t) & stroked
        # Unless its passes keep to that cell, none running in from a pass's reach beyond any of its sides: a patch
        # of its own, scribbled and not outlined, amid outlined ones (loose-scribble 4: c3, g2 and d5, each a
        # scribble turning well inside its lines between neighbours' outlines, in doubt as stray lines).
        walled = {name: np.ones_like(sides) for name, sides in drawn.items()}
        kept_in = turning & left_out_by_outlines
        kept_in -= passed_cells(kept_in, pieces, clean, origin, boxes, walled, PX_PER_MM, t,
                                scribbled=turning - left_out_by_outlines)
        read.scribbled = turning - (left_out_by_outlines - kept_in)
        # An outlined cell marked by its strokes alone, not its own nor a scribble's, may hold a pass from next
        # door (see `passes`).
        # Its strokes may add up past the threshold (where it is low: a sheet of scribbles, no fills), as a pass
        # or two does in a cell between outlined patches (scribble-outlined 170011: b8, 0.053 of ink, over 0.026).
        lone = (read.outlined & stroked) - read.confined - read.scribbled - {
            i for i in marked if shaded[i] and read.values[i] >= t.stray_ink}
        slashed = read.confined - read.scribbled
        read.passed = passed_cells(lone, pieces, clean, origin, boxes, drawn, PX_PER_MM, t, slashed=slashed,
                                   scribbled=read.scribbled)
        # A mark within a cell's lines may be a pass between turns at its corners, next door.
        turned = turned_through_cells(slashed, pieces, clean, origin, boxes, drawn, PX_PER_MM, t, slashed=slashed,
                                      scribbled=read.scribbled)
        read.confined -= turned
        read.passed |= turned
    # A cell the neighbours' outlines leave out (three sides or four), that a line enters and leaves without
    # turning in it, is the notch of a U or a gap between patches that a scribble passed over on its way
    # (loose-scribble 720005, blind: g7, in the notch of a U outlined around it, crossed by the pass between two
    # turns, offered shaded in doubt). A turn there may be its own scribble's (loose-scribble 610002: d4, a patch
    # of one cell, its outline not seen). On loose-scribble 0-23, 10000-10023, 600000-610023 and 720000-720023,
    # scribble-outlined 0-23 and 10000-10023 and seeds 0-23 of the other styles, 27 empty cells were offered
    # shaded for such a pass, and 4 shaded ones are now offered empty (3 with a scribble turning on their sides, 1
    # under glare); with all four sides drawn, 7 and none.
    read.left_out = passed_through(found, stroked & left_out_by_outlines) - read.confined - turning
    read.show("strokes", _strokes_picture)


def decide_cells(read: SheetRead) -> None:
    """Each cell shaded or not, with its confidence: the threshold, then the doubts of the light, the strokes and
    the stains."""
    t, field_, values, threshold = read.tuning, read.light, read.values, read.threshold
    boxes = cell_boxes(t.cell_inset_mm)
    # A cell that joined the paper only because a shadow was taken out is not known paper.
    joined = read.paper_cells - read.brightened
    shadowed = read.shadowed | read.brightened
    doubtful = set()
    # Cells that are not known paper, read on either side of the threshold as the light there may be off (a hard
    # shadow edge bridged, or smooth light the paper nearby does not follow): see light.py.
    doubtful |= {index for index in range(SIZE * SIZE)
                 if index not in joined and either_side(float(values[index]), threshold, read.uncertainty[index])}
    # A tint with no strokes may be paper under light darker than the estimate, as dark as the paper near it shows
    # (a soft shadow reaching in from a margin: see light.darker_nearby). Strokes are marks whatever the light, when
    # drawn (`StrokeMap.drawn`: specks of grain in a dark, sharpened part of the photo are none). Such a
    # shadow, not taken out, over a wide part of the grid (t.loose_shadow_share of its cells) may reach further than
    # the paper shows it near each cell: a tint with no outline around it either may be paper under it anywhere
    # (light 300006: a phone's shadow, 45 mm soft, read 5 empty cells beside lit paper as shaded, unflagged).
    loose = float(np.quantile(read.darker, 1.0 - t.loose_shadow_share))
    # A soft shadow taken out is modelled from the paper that shows it: a tint with no cell taken as paper near it
    # (within t.light_holdout_reach) is read in a light nothing near it checks, and may be paper under the shadow as
    # deep as the shadow is (mixed 2100005: g4 and h4, empty in a ring of scribbled cells under a phone's shadow,
    # read 0.30 and 0.25 of ink, shaded and sure).
    log_depth = darkness(read.shadows.depth)
    deepest = log_depth if read.shadows.soft else 0.0
    # A shallow hard shadow (under t.shallow_shadow deep) may be a smooth fall of the light taken for a step. Taken
    # out where the paper cells in it do not confirm its depth and no paper cell lies outside it, the light outside
    # is checked by nothing but the margins and the lifted paper, and may be off by as much as the depth (sharpened
    # 390021, blind: a shadow 8% deep; 13 empty cells in it were lifted to paper, and the 23 beyond it, none taken
    # as paper, read 0.04-0.09 of ink: 4 shaded and sure). A deeper step is a shadow's (moderate 3016: 38% deep,
    # solid fills beyond it at 0.4 of ink would be in doubt).
    lifted_only = (read.shadow and not read.shadows.soft and read.shadows.depth < t.shallow_shadow
                   and not read.depth_confirmed
                   and not read.paper_cells - read.in_shadow
                   and len(read.paper_cells & read.in_shadow) >= t.depth_check_cells)

    # Such a tint may also be paper under light as dark as the paper between the strokes of the cells beside it
    # shows: that paper shows the light inside the grid where no empty cell and no margin does (light 3100022:
    # `_light_between_strokes`). Only paper right beside the cell outweighs it: paper two cells away can lie beyond
    # a soft shadow no one found (mixed 600046: a hand's shadow over a vignetted sheet's left half, not taken out;
    # c5, empty amid hatched cells whose gaps read 0.33 darker than the light, read 0.23 of ink, shaded and sure,
    # as two cells of paper in plain light checked it).
    gaps = _gaps_between_strokes(read, boxes)
    between = _light_between_strokes(read, gaps)

    def unchecked(index: int) -> float:
        """How much darker the light may be at a cell: as dark as the paper between the strokes beside it shows,
        unless a cell of paper beside it checks it; and, where no paper near it checks it, as deep as a soft
        shadow, but no deeper than t.light_holdout_safety times the darkest gaps beside it (`_gaps_beside`), and
        t.light_holdout_safety times what those gaps show found or not (mixed 7700013, blind: a hand's soft
        shadow, not found, over c6-e8, empty amid hatched and scribbled cells whose gaps showed light 0.24 darker
        (log) than read; they read 0.25-0.27 of ink, four of them shaded and sure)."""
        if lifted_only and index not in read.in_shadow:
            return max(log_depth, float(between[index]))
        if _checked_by_paper(read, index, reach=1):
            return 0.0
        if _checked_by_paper(read, index):
            return float(between[index])
        return max(min(deepest, t.light_holdout_safety * _gaps_beside(read, index, gaps)),
                   t.light_holdout_safety * float(between[index]))

    doubtful |= {index for index in range(SIZE * SIZE)
                 if values[index] > threshold and read.strokes.drawn[index] < t.stroke_mark
                 and could_be_paper(float(values[index]), threshold, max(
                    read.darker[index] if index in read.outlined else max(read.darker[index], loose),
                    read.unseen[index], unchecked(index)))}
    # The same split made from the cells with no strokes alone (paper, solid fills, tints): a tint with no strokes
    # that it puts with the paper may be paper under light the margins misjudge, in a part of the grid with no
    # empty cell to tell (light 600006: a glare beside the grid and mixed lamps; only 5 corner cells joined the
    # paper, the threshold fell between them and the rest, and 14 empty cells in the middle read 0.10-0.15 of ink,
    # shaded and sure, below a gap to the first stroked cell at 0.18 and the solid fills at 0.45).
    plain = [index for index in range(SIZE * SIZE) if read.strokes.drawn[index] < t.stroke_mark]
    read.unlit = set()
    if plain:
        plain_threshold = largest_gap_threshold(values[plain], t.cell_lowest, t.cell_highest, t)
        read.unlit = {index for index in plain if threshold < values[index] <= plain_threshold}
        if not read.paper_cells:
            # No cell joined the paper: nothing inside the grid shows how bright its paper is, and the faintest
            # tints with no strokes, split from the rest at their own widest gap, may be paper (mixed 900012: a
            # bowed sheet under mixed tungsten light, sharpened; its 27 empty cells read 0.10-0.15 of ink, as even
            # as paper, and the window's largest gap put the threshold under all of them: 6 read shaded and sure).
            # Only a group of their own, all of it under the window's top (a full quilt of light and heavy fills
            # runs on from its faintest: harsh 8, 0.165 to 0.363 with no gap), with no more grain than the paper
            # in the margins (pencil leaves grain: moderate 11016, a full quilt whose 23 light fills at 0.13-0.18
            # form a group of their own, 4-5 times the paper's; 900012's empty cells 0.9 times).
            faint = values[plain]
            split = largest_gap_threshold(faint, float(faint.min()), float(faint.max()), t)
            lower = [index for index in plain if values[index] < split]
            if lower and max(values[index] for index in lower) <= t.cell_highest and _as_grainy_as_paper(
                    read, [boxes[index] for index in lower]):
                read.unlit |= {index for index in lower if values[index] > threshold}
    doubtful |= read.unlit
    # The split made from the cells in plain light alone (no shadow taken out lifted them): a shadow lifted amiss
    # leaves its cells between paper and pencil, where they can fill the gap the threshold needs, and a light fill
    # in plain light falls below it (harsh 28003: a7 and a8, 0.05 and 0.07 of ink left by a shadow taken out,
    # bridged the gap between the paper at 0.01 and five pale yellow fills at 0.10; the threshold fell at 0.16 and
    # they read empty and sure). A tint with no strokes in plain light, above that split and not above the
    # threshold, is in doubt (strokes are marks whatever the light).
    plain_light_threshold = _threshold_away_from(read.in_shadow, values, threshold, t)
    doubtful |= {index for index in range(SIZE * SIZE) if plain_light_threshold < values[index] <= threshold
                 and index not in read.in_shadow and read.strokes.drawn[index] < t.stroke_mark
                 and index not in joined}
    # Near the edge of a shadow that was taken out, a cell near the threshold is less sure (a wider band, see the
    # confidence below), and a grey cell may be paper under a misjudged shadow rather than light pencil, or the
    # other way round. A shadow never adds colour, never darkens paper as much as heavy pencil does, and never
    # draws strokes (they are measured against the light right around them, with no shadow estimate: harsh 603,
    # 626, 627, 638 had hatched and scribbled cells in doubt beside a shadow measured right).
    # Where the cells confirm the depth (to within half the threshold's ink), a shadow misjudged in place darkens
    # paper by no more than that depth and a threshold's ink (moderate 628: solid fills twice as dark were in doubt).
    # Where the light is steep, the shadow's depth is not known either: a deep soft shadow in a vignetted corner left
    # empty cells at 0.61-0.65 ink (mixed 100042: unflagged, as darker than any shadow).
    darkest = t.steep_max_ink if read.steep else t.shadow_max_ink
    if read.depth_confirmed and not read.steep:
        darkest = min(darkest, read.shadows.depth + threshold)
    # A shadow's edge placed a little off leaves a strip of the cell lit wrongly, as dark or as light as the depth
    # against the rest: a cell even over its blocks away from the edge has none (unless the light is steep: a soft
    # shadow misjudged is smooth over a cell, and even).
    # A shadow leaked over whole cells leaves none either, but lifts them whole (`shadows.unsupported_outline`).
    even = set() if read.steep else {index for index in shadowed - read.leaked
                                     if _even_beside_shadow(read, boxes[index])}
    for index, box in enumerate(boxes):
        known_paper = index in joined and not read.steep
        if (index in shadowed and not known_paper and values[index] < darkest and index not in even
                and read.strokes.drawn[index] < t.stroke_mark and _neutral(field_, box, t)):
            doubtful.add(index)
    # Cells brighter than paper: the light estimate is wrong around them, but not the strokes of a cell read as
    # shaded, which are measured against the light right around them (light 1, 6, 9: 13-15 hatched cells beside a
    # glare in doubt each).
    for index in read.overbright:
        row, col = divmod(index, SIZE)
        doubtful |= {
            r * SIZE + c
            for r in range(row - 1, row + 2)
            for c in range(col - 1, col + 2)
            if 0 <= r < SIZE and 0 <= c < SIZE
            and not (values[r * SIZE + c] > threshold and read.strokes.shares[r * SIZE + c] >= t.stroke_mark)
        }

    @cache
    def shading() -> float | None:
        """The darkness of the sheet's own shading, measured when first needed."""
        return _shading_darkness(read, boxes)

    # A cell away from the shadow's edges is measured against the split made without the cells near them too: an
    # edge placed a little off leaves empty cells there between paper and pencil, and the threshold they raise
    # leaves fills close to it that are well clear of the paper away from the edges (harsh 28: empty cells at the
    # edge read 0.05-0.07 of ink, the threshold fell at 0.117, and 7 fills at 0.2 were in doubt). Only to be surer
    # of a cell above both: the cells at the edge never decide which side a cell is on.
    away_from_edges = _threshold_away_from(shadowed, values, threshold, t)
    light_doubted = set(doubtful)  # in doubt for the light alone, before the strokes and stains have their say
    decided: list[tuple[bool, float]] = []  # each cell's reading and confidence
    by_strokes_alone: set[int] = set()  # cells whose ink says empty, read shaded in doubt for their strokes
    outlined_strokes_alone: set[int] = set()  # cells whose ink says empty, read shaded for strokes in an outline
    grey_tints: set[int] = set()  # cells read shaded for a grey tint with no strokes in it
    # grey tints in doubt as an eraser leaves them: smooth, faint beside the shading, or with a smeared edge
    ghostly: set[int] = set()
    smeared: set[int] = set()  # of them, those whose edge the eraser smeared (`fill_edges`)
    for index, value in enumerate(values):
        shaded = bool(value > threshold)
        if shaded and index in shadowed and _paper_block(field_, boxes[index], t):
            # Pencil never leaves a wide block of bare paper inside a shaded cell: what darkens the rest of it is
            # a shadow whose edge was placed a little off.
            shaded = False
            doubtful.add(index)
        ink_says_empty = not shaded and index not in doubtful
        shaded, sure = _marks(read, index, shaded, doubtful)
        if ink_says_empty and shaded and index in doubtful:
            by_strokes_alone.add(index)
        elif ink_says_empty and shaded and index in read.outlined:
            outlined_strokes_alone.add(index)
        # Near a shadow the light is less sure, so the margin is wider; not for dense strokes (hatching, a
        # scribble), which are measured against the light right around them (harsh 638: hatched cells beside a
        # shadow measured right were in doubt), nor for a cell even beside it (no strip lit wrongly).
        unsure_light = index in shadowed and read.strokes.shares[index] < t.stroke_dense and index not in even
        margin = t.cell_log_margin * (t.shadow_margin_factor if unsure_light else 1.0)
        distance = log_distance(float(value), threshold, t)
        if value > max(threshold, away_from_edges) and index not in shadowed:
            distance = max(distance, log_distance(float(value), away_from_edges, t))
        conf = min(1.0, distance / margin)
        # A grey tint with no strokes, not yet in doubt: a fill, or a patch rubbed out, a smudge?
        grey_tint = (shaded and index not in doubtful and read.strokes.drawn[index] < t.stroke_mark
                     and value < t.tint_sure and _neutral(field_, boxes[index], t))
        if grey_tint:
            grey_tints.add(index)
        if grey_tint and not sure and index not in read.outlined:
            # With nothing drawn in or around it: sure only further off; and in doubt whatever its ink when as
            # smooth as paper in a photo that shows pencil grain (erased 10012: a rubbed-out patch's ghost at 2.2
            # times the threshold, smeared smooth, read shaded and sure).
            bare = min(conf, distance / (t.cell_log_margin * t.bare_tint_margin_factor))
            if _smooth_in_sharp_photo(read, boxes[index]):
                bare = min(bare, t.shadow_doubt)
                ghostly.add(index)
            if bare < t.uncertain_below <= conf:
                read.bare_tints.add(index)
            conf = bare
        # Dense strokes (hatching, a scribble) are a mark whatever the light: they are measured against the light
        # right around them. Read shaded, a cell so drawn is as sure as a few strokes in an outline, however little
        # its ink adds up to over a threshold a deep shadow raised (light 30: a hand's soft shadow 0.72 deep put the
        # threshold at 0.109; 7 zigzag cells, 0.33-0.48 of them strokes, read 0.14-0.16 of ink, in doubt).
        if sure or (shaded and read.strokes.drawn[index] >= t.stroke_dense):
            conf = max(conf, t.outlined_confidence)
        # Far fainter than the sheet's own shading and with little grain, outlined or not: a patch rubbed out
        # keeps a tenth to a third of its pencil, outline and all, smeared (erased 10014: a scribbled patch's
        # ghost, its texture kept, read shaded and sure in its faint outline). Or its edge smeared wider than the
        # photo blurs the print: an eraser's, not a pencil's (erased 690003, blind: a patch rubbed out to 0.37 of
        # the sheet's shading, its grain hidden by a photo a little soft).
        faint = grey_tint and _faint_beside_shading(read, boxes[index], shading())
        if grey_tint and _smeared_edge(read, index, boxes[index], shading()):
            smeared.add(index)
        if faint or index in smeared:
            if conf >= t.uncertain_below or index in smeared:
                read.bare_tints.add(index)  # the printed lines do not settle it: they tell a fill from light only
            conf = min(conf, t.shadow_doubt)
            ghostly.add(index)
        if index in doubtful:
            conf = min(conf, t.shadow_doubt)
        decided.append((shaded, conf))
    for index in _alike_to_ghosts(read, decided, ghostly, smeared, grey_tints):
        decided[index] = (True, min(decided[index][1], t.shadow_doubt))
        read.bare_tints.add(index)
    # A line's strokes are judged together: a cell marked only by lines that run on through a cell in doubt as
    # a stray line is in doubt too.
    stroked = {index for index in range(SIZE * SIZE) if read.strokes.shares[index] >= t.stroke_mark}
    lone = stroked - read.confined - read.scribbled - read.outlined
    faint_and_sure = {index for index, (shaded, conf) in enumerate(decided)
                      if shaded and conf >= t.uncertain_below and values[index] < t.tint_sure}
    sure = lone & faint_and_sure
    # So is a slash (strokes kept within the cell) outside an outline: a stray line corner to corner lies on it
    # (slash with stray lines 220023: a line through h3, in doubt as a stray line, and on along i4's diagonal).
    slashed = (read.confined - read.outlined) & faint_and_sure
    origin = (read.strokes.x0, read.strokes.y0)
    paper = {index for index, (shaded, conf) in enumerate(decided)
             if not shaded and conf >= t.uncertain_below and read.strokes.shares[index] < t.stroke_mark}
    doubted_lines = on_doubted_lines(sure | slashed, lone & doubtful, read.pieces, read.clean, origin, boxes,
                                     PX_PER_MM, t)
    # A line that enters a cell and leaves it, running on well past it both ways, and holds most of its strokes and
    # ink is not the cell's mark (stray-line 200010: a line at 45 degrees through d9, e8, f7 and g6, just off their
    # corners; f7, empty between hatched cells, read 0.106 of ink, shaded and sure). It runs on where it stands out
    # as the photo's strokes do (less in a blurred photo: `_stroke_ink`).
    through = lines_through(sure, read.pieces, read.clean, origin, boxes, field_.ink, PX_PER_MM, t,
                            stroke_ink=read.strokes.stroke_ink)
    for index in (doubted_lines | through
                  | ending_in_paper(sure, paper, read.pieces, read.clean, origin, boxes, PX_PER_MM, t)):
        decided[index] = (True, min(decided[index][1], t.shadow_doubt))
    # A cell whose only mark is a long line that turns back at neither end is more likely empty than shaded. Where
    # the line ends in a cell with a mark of its own (ink over the threshold, a slash kept in its lines, strokes
    # sure in an outline) the strokes around that end are the mark's, no turn (stray-line 670000 and 670003,
    # blind: lines ending in hatching and in a solid fill; the empty cells they crossed were offered as shaded). A
    # scribble's turns alone do not make such a mark: its passes turn back where they end (loose-scribble 0-23,
    # 10000-10023 and 670000-670023 lost 9 exact photos so, gaining 1).
    own_marks = set(np.flatnonzero(values > threshold).tolist()) | read.confined | {
        index for index in read.outlined if decided[index][0] and decided[index][1] >= t.uncertain_below}
    # So is one whose ink, over the threshold, is a stray line's at most, read shaded in doubt for that (stray-line
    # 870018, blind: c1, d1, d2, d3 and e2, empty, crossed by lines over a threshold a sheet of few fills set low,
    # offered as shaded). Its own ink is no mark of its own that the line ends in. Not beside a scribble: a loose
    # scribble's passes on a sheet of scribbles read over the threshold too, and where its turns hide on the
    # printed lines a pass reads as a line that turns back at neither end (loose-scribble 0-23 and 10000-10023: 10
    # exact photos lost without this, 1 with it; stray-line's 384 photos gain 20).
    faint_lines = {index for index in lone if decided[index][0] and decided[index][1] < t.uncertain_below
                   and values[index] < t.stray_ink
                   and not any(r * SIZE + c in read.scribbled for r, c in side_neighbours(index))}
    asked = lone & (by_strokes_alone | faint_lines)
    from_nowhere: set[int] = set()
    for index in stray_line_cells(asked, paper, read.pieces, read.clean, origin, boxes, PX_PER_MM, t,
                                  marked=own_marks - asked, ink=field_.ink, stroke_ink=read.strokes.stroke_ink,
                                  sure=from_nowhere):
        decided[index] = (False, decided[index][1])
    # Sure of it where the line comes from nowhere (off the grid, or an empty cell) and runs on well past the cell
    # both ways, nearly all its strokes along it, and its ink says empty: a patch's mark stays in its patch, and a
    # fill under the line would show in its ink (slash with stray lines 10: c1, b2 and d8, empty, crossed by lines
    # from the margins, each in doubt).
    for index in from_nowhere & by_strokes_alone:
        decided[index] = (False, max(decided[index][1], t.outlined_confidence))
    # Nor is a line from off the grid a mark in an outline: players draw within the grid (stray-line 640016,
    # blind: a line from the margin through i6, empty, ended in h6's scribble; i6, joined to h6's outlined patch
    # with no line drawn between them, read shaded and sure for its strokes). Only from off the grid: slashes
    # lined up corner to corner across an outlined patch chain into one line as long (slash-outlined 12: g5). The
    # cells asked of are not the marks the line may end in: their strokes are in question.
    for index in stray_line_cells(outlined_strokes_alone - read.confined - read.scribbled, paper, read.pieces,
                                  read.clean, origin, boxes, PX_PER_MM, t, off_grid=True,
                                  marked=own_marks - outlined_strokes_alone, ink=field_.ink,
                                  stroke_ink=read.strokes.stroke_ink):
        decided[index] = (False, min(decided[index][1], t.shadow_doubt))
    for index in _misjudged_light(read, decided, boxes, light_doubted):
        decided[index] = (False, decided[index][1])
    read.stained, rims, enclosed = _under_stain_rings(read, decided, boxes)
    for index in read.stained:
        decided[index] = (False, decided[index][1])
    for index in rims:
        decided[index] = (False, max(decided[index][1], t.outlined_confidence))
    for index in enclosed:
        decided[index] = (decided[index][0], min(decided[index][1], t.shadow_doubt))
    # A shadow adds no colour: paper lifted out of one that is coloured in the photo's own light may be a fill
    # lifted with the shadow, and is in doubt before the lines settle anything (light 5500020, blind: e5, a green
    # fill under a hand's soft shadow beside a glare, read 0.00 of ink, paper and sure; f5, of the same patch, was
    # settled as paper from it). The lifted paper of the seen sets is grey, fills so lifted are not (186 empty cells
    # at most 0.031 of chroma over the paper's, 2 fills 0.16 and 0.29, against t.neutral_chroma's 0.12). Grey lifted
    # paper is paper (moderate 54010, blind: e4, f4 and g4 were settled from it; unsettled, 7 cells in doubt).
    # So a coloured one is offered as shaded (harsh 27: h8, a pale yellow fill a shadow leaked over, lifted to 0.00
    # of ink, offered as empty).
    for index in read.lifted:
        if not decided[index][0] and not _neutral(read.plain, boxes[index], t):
            decided[index] = (True, min(decided[index][1], t.shadow_doubt))
    read.settled = _settled_by_line_steps(read, decided, boxes)
    for index, shaded in read.settled.items():
        decided[index] = (shaded, t.line_step_confidence)
    running_on = _tints_running_on(read, decided)
    for index in running_on | _beside_settled_paper(read, decided, running_on):
        decided[index] = (True, min(decided[index][1], t.shadow_doubt))
    for index in _running_off_the_grid(read, decided):
        decided[index] = (True, min(decided[index][1], t.shadow_doubt))
    # The rules have a patch outlined, then shaded: a cell that a drawn outline takes in with shaded cells, read as
    # paper only because a shadow was taken out (pencil in the photo's own light), may be a fill lifted with the
    # shadow, whatever the other cells say of its depth (light 4900003, blind: a9, a grey fill in the grid's
    # corner, outlined with the row beside it, under a hand's soft shadow taken out as a hard one 0.35 deep, read
    # 0.03 of ink: paper, sure). So may one outlined as a patch of its own (sharpened 840009, blind: i8, a light
    # fill outlined alone by the grid's border, taken in by a hard shadow, read 0.035 of ink: paper, sure; the
    # cost, an outlined cell left unshaded under a shadow is in doubt: sharpened 10013's g2).
    # Elsewhere, paper in an outline is the player's to fill. A cell in doubt may be shaded, whichever way it is
    # offered: one offered as the light's (`_misjudged_light`) or as a stray line's still takes such paper in.
    sure_paper = {index for index, (shaded, conf) in enumerate(decided)
                  if not shaded and conf >= t.uncertain_below and index in read.lifted}
    if sure_paper:
        maybe_shaded = {index for index, (shaded, conf) in enumerate(decided) if shaded or conf < t.uncertain_below}
        for index in inside_outlines(read.drawn, maybe_shaded, sure_paper) | outlined_alone(read.drawn, sure_paper):
            decided[index] = (False, min(decided[index][1], t.shadow_doubt))
    # A tint in doubt with nothing drawn in or around it is offered as empty when it is far fainter than the sheet's
    # own shading (the lightest pencil fills are not so faint, a patch rubbed out often is:
    # `_far_fainter_than_shading`), or no darker than paper the lines settled near it (`_as_dark_as_settled_paper`).
    tints = _grey_tints_offered_shaded(read, decided, boxes)
    for index in _far_fainter_than_shading(read, tints, boxes, shading()) | _as_dark_as_settled_paper(read, tints):
        decided[index] = (False, decided[index][1])
    if sum(conf < t.uncertain_below for _, conf in decided) > t.most_in_doubt_share * SIZE * SIZE:
        # Most of the grid in doubt: the light is known nowhere in it, and a tint read sure is read in the same
        # light (mixed 4700007, blind: glare, mixed lamps and a dim, sharpened exposure; 78 cells in doubt, and 5
        # empty cells read shaded and sure at 5-7 times a threshold of 0.024). Strokes are measured against the
        # light right around them.
        for index, (shaded, conf) in enumerate(decided):
            if read.strokes.drawn[index] < t.stroke_mark:
                decided[index] = (shaded, min(conf, t.shadow_doubt))
    shaded_cells = []
    for index, (shaded, conf) in enumerate(decided):
        row, col = divmod(index, SIZE)
        read.confidences.append(conf)
        if shaded:
            shaded_cells.append((row, col))
        if conf < t.uncertain_below:
            read.uncertain.append(Uncertain.of_cell((row, col), shaded, conf))
    read.quilt = Quilt(mask_of(shaded_cells))
    read.show("cells", _cells_picture)


def measure_print(read: SheetRead) -> None:
    """The ink in every bubble, and from the empty ones (most of them) how much the photo's processing lifts empty
    print (`processing.print_lift`), which the boxes and bubbles are then measured against."""
    if not read.marks:
        return
    t = read.tuning
    squares = _bubble_squares(t.bubble_local_half_mm)
    # One closing over all the bubbles: each bubble's values are the same as from a closing of its own surroundings
    # (the closing reaches no further than bubble_reach_mm), at a quarter of the cost of 60 overlapping ones.
    ax0, ay0 = min(b[0] for b in squares.values()), min(b[1] for b in squares.values())
    ax1, ay1 = max(b[2] for b in squares.values()), max(b[3] for b in squares.values())
    ink = local_ink(read.sheet, (ax0, ay0, ax1, ay1), round(t.bubble_reach_mm * PX_PER_MM), t)
    read.bubble_values = {key: float(ink[y0 - ay0 : y1 - ay0, x0 - ax0 : x1 - ax0].mean())
                          for key, (x0, y0, x1, y1) in squares.items()}
    read.bubble_ink = ((ax0, ay0, ax1, ay1), ink)
    read.print_lift = print_lift(np.array(list(read.bubble_values.values())), t)


def _strokes_apart(read: SheetRead, box: Box) -> int:
    """How many separate strokes lie in a cell's `box`: pieces of t.stroke_least_mm2 or more (less is grain)."""
    return read.strokes.separate(box, read.tuning.stroke_least_mm2 * PX_PER_MM**2)


def _marks(read: SheetRead, index: int, shaded: bool, doubtful: set[int]) -> tuple[bool, bool]:
    """What the strokes, the stains and the drawn outline say of a cell read `shaded` or not by its ink: whether
    it is shaded, and whether it is sure to be (a few strokes inside an outline). Doubts go into `doubtful`."""
    t = read.tuning
    strokes, value, outlined = read.strokes.shares[index], read.values[index], index in read.outlined
    box = cell_boxes(t.cell_inset_mm)[index]
    few_strokes = value < t.tint_sure and strokes < t.stroke_dense
    if (index in read.confined or index in read.scribbled) and not stain_coloured(
            read.light.normalised, box, on_strokes := read.strokes.at(box), t):
        if index in read.in_shadow and stain_coloured(read.plain.normalised, box, on_strokes, t):
            # Brown in the photo's own light only: a shadow multiplies every channel alike, so that light keeps a
            # stroke's colour where a soft shadow taken out too deep or too shallow leaves it off (tea-ring 360009,
            # blind: a tea ring's rim curving within d9, empty, under a hand's soft shadow: 0.79 of chroma over its
            # ink in the light read in, 0.52 in the photo's own; read as d9's own mark, shaded, unflagged). Only a
            # doubt: that light is blurred across a hard shadow's edge, and browned pale yellow fills there (asked
            # of every faint cell's strokes, harsh 0-39 and 3000-3039 lost 3 exact photos). Only where a shadow was
            # taken out: elsewhere the photo's own light is the one read in, less well (harsh 65028, blind: orange
            # zigzags in c2-c5, d2 and d5, 0.90-0.92 of chroma in the light read in and 0.59-0.69 in the photo's
            # own, far from the shadow, were in doubt as a ring's rim).
            doubtful.add(index)
        else:
            # DECISION: strokes drawn within one cell's lines, none running on through its sides, are a mark of that
            # cell, as a player means it (a slash from corner to corner, an X), outlined or not. A stray line runs on
            # into the next cell (crossings.py); a tea ring's rim is brown, on its strokes (tea-ring 20008: a faint rim
            # whose curve crossings.py does not follow, brown on its strokes and not over the cell).
            # DECISION: so is a cell in which a scribble's passes turn back, its strokes those passes: a stray line
            # never turns back (scribbles.py).
            if (index in read.confined and few_strokes and not outlined
                    and not _marked_beside(read, index)):
                # A few strokes alone, no outline around them and nothing marked beside them: a patch of one cell
                # (the Single square), or a stray line lying along the cell's diagonal, corner to corner; nothing
                # tells them apart (stray-line 680023, blind: a line from the grid's corner to a9's far corner,
                # read as a9's slash, shaded and sure). Shaded, in doubt (a cell in `doubtful` is capped at
                # t.shadow_doubt however sure its marks).
                doubtful.add(index)
            return True, True
    if index in read.left_out and value < t.stray_ink:
        # A line or two passing through a cell the outlines around it leave out: a pass on its way, no mark (not
        # dense hatching whose lines reach its sides: stray-line 680000, b6, 0.32 of ink). Offered as empty, in
        # doubt: a patch of one cell, not outlined, may lie there too. Offered as shaded where more than two
        # strokes lie apart in it: a hatching's lines, faint (sensor 8500023, blind: f3, blue hatching at 0.098
        # of ink in a dim photo, its patch's hatching run on through its sides, offered as empty).
        doubtful.add(index)
        return _strokes_apart(read, box) > t.pass_most_strokes, False
    if not shaded and strokes >= t.stroke_mark:
        # Little ink on average, but strokes: a deliberate mark (a slash, a loose scribble) when the player
        # outlined the cell, else maybe a stray line (or a ring's rim: see below). Brown strokes in an outline may
        # be a ring's rim too (tea-ring 460013, blind: g7, empty amid outlined patches, a rim's arc across it read as
        # its mark, 0.068 of ink under a threshold of 0.120, shaded and sure): in doubt.
        if _outlined_strokes(read, index, box):
            return True, True
        shaded = True
        doubtful.add(index)
    if index in read.passed:
        doubtful.add(index)  # a pass from next door may be all that marks it, whatever its ink adds up to
    if shaded and not outlined and _brown(read, index, box):
        # Brown, with no outline around it: tea or coffee (a few brown strokes: a ring's rim, no mark). A rim across
        # a corner of the cell is told by its strokes' colour, which the paper around them dilutes (tea-ring 60003).
        # A faint warm tint with no strokes up to a pencil's chroma may be tea too: their chromas overlap a red
        # pencil's (tea-ring 70001: the inside of a ring, 0.723). Offered as tea, empty, unless its hue is a
        # yellow pencil's (harsh 10, and 58010, 58025, blind: pale yellow fills under a hard shadow, read 0.14-0.26
        # of ink at chromas of 0.65-0.74, offered as empty; a ring found around it still offers it so). So too where
        # its edge does not keep to the grid, a stain's (tea-ring 670009 and 670005, blind: e4, d5, e5 and f5, and
        # d2, g8, h8, f9 and g9, inside rings over empty cells, were offered as shaded, in doubt as stains).
        doubtful.add(index)
        return not few_strokes or yellow_as_a_pencil(read.light.normalised, box, t), False
    if index in read.stains:
        # A tint whose edge may not keep to the grid: a stain, a smudge? A faint grey one that fades before its
        # lines or spills over them is a blot of graphite, no mark (unless outlined). A grey tint read shaded in a
        # drawn outline is the patch's fill, whatever its edge: the rules have a patch outlined, then shaded (harsh
        # 61031, blind: b7, b8 and b9, a light fill in its outline, blurred over its lines, were in doubt as stains;
        # on levels, erased, smudge, ring and hand-smear photos, 560 of them, no other photo changed).
        grey = graphite(read.light.normalised, box, t)
        if not (shaded and outlined and grey):
            doubtful.add(index)
        blot = index in read.blots and value < t.blot_faint and grey
        return bool(shaded and (outlined or not blot)), False
    if shaded and strokes >= t.stroke_mark and _outlined_strokes(read, index, box):
        # Strokes inside a drawn outline are a deliberate mark whatever their ink adds up to: as sure over the
        # threshold as under it (scribble-outlined 15: 11 cells of zigzag passes in their patches' outlines, 0.03 to
        # 0.05 of ink over a threshold of 0.026, in doubt for lying near it).
        return True, True
    if (shaded and not outlined and strokes >= t.stroke_mark and value < t.stray_ink
            and not pencil_coloured(read.light.normalised, box, t)):
        # A line or a few across a cell, not its own mark and with no outline around it: stray lines? (Two of them
        # read as strokes as dense as hatching, and as little ink: stray-line 2, three empty cells read as shaded,
        # unflagged.) Hatching mostly darkens a cell more; a light scribble does not (mild 3028: in doubt). Unless
        # in a colour only a pencil has: a ring's rim across a corner, too little of it to show brown, is no more
        # grey than brown (tea-ring 330001, blind: a1, 0.07 of ink, read shaded and sure).
        doubtful.add(index)
    if shaded and strokes < t.stroke_mark and value < t.blot_faint and not _checked_by_paper(read, index):
        # A faint even tint and no strokes: the lightest pencil fill, or paper whose light was misjudged (an empty
        # cell amid shaded ones, far from the paper that tells the light, on a bent page under a lamp: mixed 5).
        # Its neighbours' outlines can enclose it, so an outline does not make it sure. With a cell read as paper
        # near it, the light there is checked (`light.light_uncertainty`, and the tints with no strokes split at
        # their own gap: `unlit`), and the lightest fills, blurred to under blot_faint at harsh, are read as
        # they are (harsh 3010: six light fills at 0.067-0.097 of ink, the threshold 0.039, in doubt for this alone).
        doubtful.add(index)
    return shaded, False


def _checked_by_paper(read: SheetRead, index: int, reach: int | None = None) -> bool:
    """Whether a cell read as paper lies within `reach` cells of `index` (by default t.light_holdout_reach, or 1
    in a soft shadow: see below), and, for a cell a shadow taken out lifted, was lifted too: paper in plain light
    says nothing of how deep the shadow is (light 2800007: f3, empty under a hand's soft shadow 44 mm wide, read
    0.18 of ink, shaded and sure, checked by two paper cells beyond the shadow). In a soft shadow, only paper beside
    the cell (a side or a corner) checks it: the light changes across the whole of a penumbra 1 to 3 cells wide,
    which is taken out as one edge of one width, and two cells away it can be right where it is off at the cell
    (light 4100014 and mixed 4200010, blind: d7 and d5, empty amid fills in a phone's soft shadow, read 0.108 and
    0.171 of ink, shaded and sure, checked by paper two cells away in the same light taken out)."""
    inside = index in read.in_shadow
    paper = read.paper_cells & read.in_shadow if inside else read.paper_cells
    if reach is None:
        reach = 1 if inside and read.shadows.soft else read.tuning.light_holdout_reach
    return any(near_each_other(index, other, reach) for other in paper)


def read_specials(read: SheetRead) -> None:
    """The crossed boxes, each read against the light right around it (so a shadow needs no estimate here)."""
    if not read.marks:
        return
    t, sheet = read.tuning, read.sheet
    specials = []
    seen: list[tuple[Box, np.ndarray, pictures.Colour]] = []  # each box's strokes, for the trace
    boxes = [special.check.inset(t.check_inset_mm).to_px(PX_PER_MM) for special in layout.SPECIALS]
    framed = [special.check.inset(-t.check_frame_mm).to_px(PX_PER_MM) for special in layout.SPECIALS]
    # Cells read empty and sure show what bare paper reads in each channel here: the last of them in the grid,
    # the nearest the boxes by row. Not those the lines settled: the light there was in doubt (a shadow's paper).
    empty = [index for index, conf in enumerate(read.confidences[: SIZE * SIZE])
             if conf >= t.uncertain_below and not read.quilt.is_covered(*divmod(index, SIZE))
             and index not in read.settled]
    paper = [cell_boxes(t.cell_inset_mm)[index] for index in empty[-t.check_paper_cells:]]
    inks, frames, noisy = _box_inks(sheet, boxes, framed, paper, t)
    usual = sorted(frames)[-2]  # the second darkest: one frame may be darker for pencil over it
    barest = min(float(ink.mean()) for ink in inks)
    for special, box, ink, frame in zip(layout.SPECIALS, boxes, inks, frames, strict=True):
        # Strokes against the box's own printed frame: a glare's fringe that keeps the frame at a share of the
        # boxes' usual contrast keeps a cross at that share too (light 3300011, blind: the 'cut' box's frame at
        # 0.76 of the usual, its cross at 0.12-0.15 of ink, read unused at 0.03 of strokes, unflagged).
        kept = min(1.0, max(frame / max(usual, 1e-6), t.check_frame_least))
        stroke_ink = t.check_stroke_ink * kept
        strokes = ink > stroke_ink
        value = float(strokes.mean())
        crossed = value > t.check_threshold
        # Sure only when the strokes against the usual contrast say so too: a frame reads faint where the box is
        # not where it is read (shaken-hard 940000, blind: the sheet placed 4 mm off under a shake, 'twice' unused;
        # its frame's smear read 0.15 of strokes, near the threshold, and 0.34 against its frame's 0.54 share of the
        # usual: crossed and sure).
        plain = float((ink > t.check_stroke_ink).mean())
        conf = min(1.0, log_distance(value, t.check_threshold, t) / t.check_log_margin,
                   log_distance(plain, t.check_threshold, t) / t.check_log_margin)
        if crossed != (plain > t.check_threshold):
            conf = min(conf, t.shadow_doubt)  # crossed only against its washed-out frame: a glare's fringe
        if t.check_faint < value and uneven_around(sheet, special.check, t):
            # A shadow's edge beside the box: the light around it is no measure of the paper inside, however much
            # ink that makes (mixed 6000000, blind: 'cut', unused, deep in a hand's shadow narrowing to a tip over
            # it, read 1.0 of strokes against the lit paper beyond, crossed and sure).
            conf = min(conf, t.shadow_doubt)
        if crossed and level_only(ink, stroke_ink, read.print_lift, t):
            conf = min(conf, t.shadow_doubt)  # grey all over on a processed photo: a halo or a light solid fill
        if crossed and noisy and value < t.check_sure:
            conf = min(conf, t.shadow_doubt)  # a little ink over a noisy channel: the noise may vary from box to box
        if crossed and stain_coloured(read.plain.normalised, box, strokes, t):
            conf = min(conf, t.shadow_doubt)  # brown strokes: a tea or coffee ring's rim across the box?
        if not crossed and float(ink.mean()) - barest > t.check_mean_unsure:
            # A blur spreads a mark's ink, and fewer of its pixels count as strokes, but keeps its sum: more ink in
            # all than the barest box holds may be a mark (shaken-hard 430007, blind: a tick in 'cut' blurred to
            # 0.094 of strokes, read unused, unflagged; 0.061 more ink than the barest box).
            conf = min(conf, t.shadow_doubt)
        printed = special.check.to_px(PX_PER_MM)
        running_on = ends_running_on(strokes, box[:2], printed, read.plain.ink, PX_PER_MM, t) if crossed else 0
        if running_on:  # a line across the page passes through the box: read unused where it runs on both ways
            crossed, conf = running_on < 2, min(conf, t.shadow_doubt)
        if crossed and _along_the_frame(strokes, round(t.check_side_mm * PX_PER_MM), t):
            # The box's own frame, placed off or smeared into it: more likely unused than crossed, and in doubt.
            crossed, conf = False, min(conf, t.shadow_doubt)
        read.confidences.append(conf)
        if crossed:
            specials.append(special.name)
        if conf < t.uncertain_below:
            read.uncertain.append(Uncertain.of_special(special.name, crossed, conf))
        if read.trace is not None:
            seen.append((box, strokes, _verdict(conf, crossed, t)))
    read.specials = tuple(specials)
    read.show("specials", lambda read: pictures.framed(
        pictures.pasted(read.sheet.shape, [(box, pictures.ink(strokes)) for box, strokes, _ in seen]),
        [(box, colour, "") for box, _, colour in seen]))


def _along_the_frame(strokes: np.ndarray, band: int, t: ReaderTuning) -> bool:
    """Whether a box's `strokes` (bool) lie almost all within `band` pixels of its sides: t.check_side_share of
    them along one side, or t.check_corner_share along two that meet at a corner and all along both of them
    (t.check_corner_length of each side's length). A cross or a tick goes through the box's middle; its own frame
    placed off does not (shaken-hard 380016, blind: the top of the 'twice' frame smeared 1.75 mm into the box, read
    crossed, with no doubt), nor the frame smeared along two sides by a shake at a slant (shaken-hard 890005,
    blind: 'cut', unused, its top and right sides smeared in, all of the strokes read within 2 mm of them, 0.68 of
    them along the top; read crossed, with no doubt). A small tick in a corner lies near two sides too, but not
    along their whole length (harsh 1082: 0.98 of its strokes near the bottom and right sides, along 0.64 and 0.79
    of them)."""
    ys, xs = np.nonzero(strokes)
    if not ys.size:
        return False
    height, width = strokes.shape
    rows, cols = (ys < band, ys >= height - band), (xs < band, xs >= width - band)
    if max(float(side.mean()) for side in rows + cols) >= t.check_side_share:
        return True
    bands = (strokes[:band].any(axis=0), strokes[height - band :].any(axis=0))  # along the top and the bottom
    sides = (strokes[:, :band].any(axis=1), strokes[:, width - band :].any(axis=1))  # along the left and the right
    return any(float((row | col).mean()) >= t.check_corner_share
               and min(float(along.mean()), float(side.mean())) >= t.check_corner_length
               for row, along in zip(rows, bands, strict=True) for col, side in zip(cols, sides, strict=True))


def _box_inks(sheet: np.ndarray, boxes: list[Box], framed: list[Box], paper: list[Box], t: ReaderTuning
              ) -> tuple[list[np.ndarray], list[float], bool]:
    """The ink inside each special box (`boxes`), over what bare paper shows in this photo; the ink of its printed
    frame (the darker part of the band `framed` less t.check_frame_mm on each side, `framed` holding its box);
    and whether any channel was noisy.

    A channel in which bare paper reads as ink (over t.check_paper_floor) is noise there, and that much is taken off
    it in every box: a dim tungsten photo's blue channel, amplified and recompressed by a messaging app, read 0.09 of
    ink over a bare box's paper and spilled the frames' colour inside (mixed 1500007: two unused boxes read crossed
    at 0.18 and 0.20, unflagged; red and green read 0.01-0.02 there). Over the seen sets (levels 0-39, families 0-23
    and 100000-100023) no channel's floor reached 0.03. Such noise also varies from box to box (a sixth of the light
    in blue, noise in 1 mm grains, left an unused box at 0.16 over the barest box's floor), which the caller doubts.

    Bare paper is the median of the empty cells in `paper` where there are any: the barest of the four boxes may be
    filled (print 3700002, blind: all four filled, 'cut' in pale green; the least of the boxes in each channel, the
    grey ones' red and blue taken as noise, left the green at 0.08 of ink, read unused, unflagged). Without any, it
    is the barest of the boxes in each channel."""
    reach = round(t.check_reach_mm * PX_PER_MM)
    band = round(2 * t.check_frame_mm * PX_PER_MM)
    height, width = sheet.shape[:2]

    def clipped(box: Box) -> Box:
        x0, y0, x1, y1 = box
        return min(max(x0, 0), width), min(max(y0, 0), height), min(max(x1, 0), width), min(max(y1, 0), height)

    def median(channels: np.ndarray) -> np.ndarray:
        return np.median(channels.reshape(3, -1), axis=1)

    insides, rings, medians = [], [], []
    for box, outer in zip(boxes, framed, strict=True):
        ox0, oy0, ox1, oy1 = outer = clipped(outer)
        x0, y0, x1, y1 = clipped(box)
        channels = local_channel_ink(sheet, outer, reach, t)
        inside = channels[:, y0 - oy0 : y1 - oy0, x0 - ox0 : x1 - ox0]
        ring = np.ones(channels.shape[1:], bool)
        ring[band : oy1 - oy0 - band, band : ox1 - ox0 - band] = False
        insides.append(inside)
        rings.append(channels[:, ring])
        if inside.size:
            medians.append(median(inside))
    bare = [median(local_channel_ink(sheet, box, reach, t)) for box in map(clipped, paper)
            if box[2] > box[0] and box[3] > box[1]]
    floor = np.median(bare, axis=0) if bare else np.min(medians, axis=0) if medians else np.zeros(3)
    noise = np.maximum(floor - t.check_paper_floor, 0.0).astype(np.float32)
    frames = [(ring - noise[:, None]).max(axis=0) for ring in rings]
    return ([(inside - noise[:, None, None]).max(axis=0) for inside in insides],
            [float(np.percentile(frame, t.check_frame_percentile)) if frame.size else 0.0 for frame in frames],
            bool(noise.any()))


def read_rounds(read: SheetRead) -> None:
    """The round scores from their bubbles, each read against the light right around it, and checked against the
    paper in a ring around it in the photo's own light."""
    if not read.marks:
        return
    t = read.tuning
    rounds: list[int | None] = []
    bubbles: list[tuple[int | None, int | None]] = []
    # Filled: standing out from the empty bubbles of this photo as much as on an unprocessed one.
    threshold = t.bubble_local_threshold + read.print_lift
    centers = {(block.number, place, digit): layout.bubble_center(block.number, place, digit)
               for block in layout.ROUNDS for place in layout.PLACES for digit in range(10)}
    against_rings = _bubble_values(read.plain, centers, t)
    for block in layout.ROUNDS:
        digits: dict[str, int | None] = {}
        faint: dict[str, int | None] = {}  # a row's one bubble marked fainter than a fill (`_faint_mark`), see below
        blank_doubts: dict[str, dict[int, Uncertain]] = {place: {} for place in layout.PLACES}
        for place in layout.PLACES:
            filled = []
            doubts: dict[int, Uncertain] = {}
            marked = _sparse_mark(read, against_rings, block.number, place, threshold)
            for digit in range(10):
                value = read.bubble_values[block.number, place, digit]
                conf = min(1.0, log_distance(value, threshold, t) / t.bubble_log_margin)
                against_ring, doubtful = against_rings[block.number, place, digit]
                if doubtful or ((against_ring > t.bubble_threshold) != (value > threshold) and digit != marked):
                    conf = min(conf, t.shadow_doubt)
                read.confidences.append(conf)
                if value > threshold:
                    filled.append((value, digit))
                if conf < t.uncertain_below:
                    doubts[digit] = Uncertain.of_bubble(block.number, place, digit, value > threshold, conf)
            filled.sort(reverse=True)
            # Two bubbles filled in one row: the darker is taken, and the others are reported as uncertain.
            for _, digit in filled[1:]:
                doubts[digit] = Uncertain.of_bubble(block.number, place, digit, True, 0.0)
                read.confidences.append(0.0)
            digits[place] = filled[0][1] if filled else None
            if not filled:
                # Nothing filled in: the player may have drawn a ring round the bubble instead.
                ring = ringed_digit(ringed_shares(read.plain.normalised, block.number, place, PX_PER_MM, t), t)
                digits[place] = ring.digit
                for digit in ring.unsure:
                    doubt = Uncertain.of_bubble(block.number, place, digit, digit == ring.digit, ring.confidence)
                    if ring.digit is None:
                        blank_doubts[place][digit] = doubt  # a partial ring: see below
                    else:
                        doubts[digit] = doubt
                if ring.digit is not None or ring.unsure:
                    read.confidences.append(ring.confidence)
            faint[place] = (_faint_mark(read, against_rings, block.number, place, threshold)
                            if digits[place] is None else None)
            if faint[place] is not None:
                doubts.pop(faint[place], None)  # its doubt as empty gives way to the one as marked, below
            read.uncertain.extend(doubts[d] for d in sorted(doubts))
        # One row read and the other not: the score stands on the blank row being blank (a score under 10 leaves
        # its tens row so). A bubble of it may be marked all the same:
        # - standing out from the rest of its row, if not as far as the threshold: a fill the light washed out (mixed
        #   400013: units 8 at 0.05 ink under a glare, the rest of its row at 0.01, read as a score of 0 where 8 was
        #   filled, unflagged);
        # - a partial ring round it;
        # - a ring wider than the rings looked for, out to t.bubble_drawn_ring_far_mm (a hand's ring of 3.7 mm round
        #   units 5 beside a ringed tens 2 read 20, unflagged).
        # With neither row read, the round is asked for as a whole. But a bubble that stands out so both read
        # locally and against the ring around it, alone in its row (`_faint_mark`), is a mark fainter than a fill (a
        # thin slash, a light tick: bubble-marks 740001, blind, units 2 at 0.09 of ink, the rest of its row
        # 0.02-0.04, was offered as empty): it is read as the row's digit, in doubt, whatever the other row holds.
        for place, other in (("tens", "units"), ("units", "tens")):
            if digits[place] is None and (digits[other] is not None or faint[place] is not None
                                          or faint[other] is not None):
                row = np.array([read.bubble_values[block.number, place, digit] for digit in range(10)])
                darkest = int(np.argmax(row))
                if faint[place] is not None:
                    blank_doubts[place][faint[place]] = Uncertain.of_bubble(block.number, place, faint[place], True,
                                                                            0.0)
                elif row[darkest] - float(np.median(row)) > t.bubble_faint_share * threshold:
                    blank_doubts[place][darkest] = Uncertain.of_bubble(block.number, place, darkest, False, 0.0)
                far = ringed_shares(read.plain.normalised, block.number, place, PX_PER_MM, t,
                                    reach_mm=t.bubble_drawn_ring_far_mm).shares
                widest = int(np.argmax(far))
                if far[widest] >= t.bubble_drawn_ring_unsure and widest != faint[place]:
                    blank_doubts[place][widest] = Uncertain.of_bubble(block.number, place, widest, False, 0.0)
                read.uncertain.extend(blank_doubts[place][d] for d in sorted(blank_doubts[place]))
                read.confidences.extend(0.0 for _ in blank_doubts[place])
        for place in layout.PLACES:
            if faint[place] is not None:
                digits[place] = faint[place]
        score = _round_score(digits["tens"], digits["units"])
        if score is not None and score > MAX_ROUND_SCORE:
            # No rectangle scores more than 81: the bubbles were misread or misfilled.
            for place in layout.PLACES:
                digit = digits[place]
                if digit is not None:
                    read.uncertain.append(Uncertain.of_bubble(block.number, place, digit, True, 0.0))
            read.confidences.append(0.0)
        rounds.append(score)
        bubbles.append((digits["tens"], digits["units"]))
    read.rounds, read.bubbles = tuple(rounds), tuple(bubbles)
    squares = _bubble_squares(t.bubble_local_half_mm)
    area, ink = read.bubble_ink
    read.show("bubbles", lambda read: pictures.framed(
        pictures.pasted(read.sheet.shape, [(area, pictures.ink(ink))]),
        [(squares[block.number, place, digit], pictures.PAPER, "")
         for block, digits in zip(layout.ROUNDS, read.bubbles, strict=True)
         for place, digit in zip(layout.PLACES, digits, strict=True) if digit is not None]))


STAGES: tuple[Stage, ...] = (
    find_paper,
    take_out_shadows,
    light_and_cells,
    shadow_doubts,
    find_strokes,
    decide_cells,
    measure_print,
    read_specials,
    read_rounds,
)


def read_sheet(
    sheet: np.ndarray, inside: np.ndarray, marks: bool, tuning: ReaderTuning = TUNING,
    trace: dict[str, np.ndarray] | None = None, covered_corners: tuple[str, ...] = (),
) -> SheetRead:
    """The flattened sheet read by each of `STAGES` in turn (into `trace`, when given, each stage's picture);
    `covered_corners`: those whose markers were not seen although their place is in the photo. Raises `TooDarkError`
    when there was too little light to tell pencil from paper."""
    read = SheetRead(sheet, inside, marks, tuning, trace, covered_corners)
    read.show("sheet", lambda read: read.sheet.copy())
    for stage in STAGES:
        stage(read)
    return read


# --- what the stages measure with ------------------------------------------------------------------------------
def _set(mask: np.ndarray, rect: layout.Rect, value: bool) -> None:
    x0, y0, x1, y1 = rect.to_px(PX_PER_MM)
    mask[max(y0, 0) : max(y1, 0), max(x0, 0) : max(x1, 0)] = value


@cache
def cell_boxes(inset_mm: float = TUNING.cell_inset_mm) -> tuple[Box, ...]:
    """Each cell's interior (`inset_mm` inside its printed lines) in sheet-image pixels, row by row."""
    return tuple(layout.cell_rect(r, c).inset(inset_mm).to_px(PX_PER_MM) for r in range(SIZE) for c in range(SIZE))


@cache
def _cell_interiors(height: int, width: int, clearance_mm: float) -> np.ndarray:
    """Each cell's interior away from its printed lines, numbered 1 to 81 row by row (0 elsewhere)."""
    cells = np.zeros((height, width), np.int32)
    for index in range(SIZE * SIZE):
        x0, y0, x1, y1 = layout.cell_rect(*divmod(index, SIZE)).inset(clearance_mm).to_px(PX_PER_MM)
        cells[y0:y1, x0:x1] = index + 1
    cells.setflags(write=False)  # cached: shared by every read
    return cells


def _steep_near_grid(read: SheetRead) -> bool:
    """Whether the light over the bare paper within t.shadow_steep_reach_mm of the grid changes steeply (see
    `shadow_doubts`), leaving out the strip along a hard shadow's edge, over a patch of paper as large as a shadow
    at least (t.shadow_min_region mm²; without our layout, any). The photos this rule was made for had 291 mm² of
    steep paper in one piece and more (light 36, 40, 100009, 100035, 200014, 1400001, mixed 100042); a speck as
    small as a printed letter is the print's blur (harsh 145: 13 mm² of paper between the grid's border and a
    column's letter put 32 cells in doubt; harsh 98, 114, 119 and light 3, 5 had 1-76 mm², and read the same
    without the rule, with 0-6 cells in doubt and none wrong unflagged). The paper around the title and the name is
    left out: the title's bold letters are wider than the filter that takes print out of the paper, and a name may
    be written in any pen; blurred, they darken the light estimated around them (harsh 146: 1272 mm² of steep light
    there, 34 cells in doubt). Only this test leaves it out: the light estimated without that paper moved elsewhere
    too (light 100014: 4 empty cells read shaded, unflagged)."""
    t = read.tuning
    if read.shadows.soft:
        steep = read.variation > t.shadow_variation
    else:
        band = round(2 * t.steep_edge_band_mm * PX_PER_MM) + 1
        beside_edge = cv2.dilate(read.shadows.edge.astype(np.uint8), np.ones((band, band), np.uint8)) > 0
        beyond = light_variation(read.light, round(t.shadow_window_mm * PX_PER_MM), t, ignore=beside_edge)
        steep = ~beside_edge & (beyond > t.shadow_variation)
    x0, y0, x1, y1 = layout.GRID_RECT.inset(-t.shadow_steep_reach_mm).to_px(PX_PER_MM)
    near = (slice(max(y0, 0), y1), slice(max(x0, 0), x1))
    paper = read.trusted.copy()
    for rect in (layout.TITLE_RECT, layout.NAME_RECT):
        _set(paper, rect.inset(-t.paper_margin_mm), False)
    steep_paper = (paper[near] & steep[near]).astype(np.uint8)
    if not read.marks:  # without our layout the paper is a ring around the grid 3.5 mm wide: no patch is large
        return bool(steep_paper.any())
    count, _, stats, _ = cv2.connectedComponentsWithStats(steep_paper, connectivity=8)
    return count > 1 and int(stats[1:, cv2.CC_STAT_AREA].max()) >= t.shadow_min_region * PX_PER_MM**2


def _shadowed_cells(shadows: ShadowMap, t: ReaderTuning) -> set[int]:
    """Cells near the edge of a shadow that was taken out: there the light is least sure, and an error could
    pass for light pencil. Inside a shadow, away from its edge, the light taken out was measured on paper."""
    if shadows.depth <= 0.0:
        return set()
    log_gain = np.log(np.maximum(shadows.gain, 1e-3))
    k = np.ones((3, 3), np.uint8)
    dark = (cv2.dilate(log_gain, k) - cv2.erode(log_gain, k)) > t.shadow_edge
    found = set()
    for index, rect in enumerate(layout.cell_rect(r, c) for r in range(SIZE) for c in range(SIZE)):
        x0, y0, x1, y1 = rect.inset(-t.shadow_near_mm).to_px(PX_PER_MM)
        if dark[max(y0, 0) : y1, max(x0, 0) : x1].any():
            found.add(index)
    return found


def _as_grainy_as_paper(read: SheetRead, boxes: list[Box]) -> bool:
    """Whether the cells' interiors (`boxes`) have, as a median, no more fine grain (`grain.py`) than
    t.paper_grain_ratio times the bare paper in the margins beside the grid, in the same photo: its noise, its
    sharpening, its JPEG. True when no margin paper is in view."""
    texture = _grain(read)
    paper = texture.paper_spread
    if paper is None:
        return True
    return float(np.median([texture.spread(box) for box in boxes])) <= read.tuning.paper_grain_ratio * paper


def _grain(read: SheetRead) -> Grain:
    """The sheet image's fine texture (`grain.py`), made once."""
    if read.grain is None:
        read.grain = grain_of(read.light.ink, read.trusted, PX_PER_MM, read.tuning)
    return read.grain


def _darkest_ink(read: SheetRead, box: Box) -> float:
    """The ink of a region's darkest pixels (its t.darkest_ink_percentile): how hard the pencil was pressed, however
    little of the region it covers."""
    x0, y0, x1, y1 = box
    return float(np.percentile(read.light.ink[y0:y1, x0:x1], read.tuning.darkest_ink_percentile))


def _shading_darkness(read: SheetRead, boxes: tuple[Box, ...]) -> float | None:
    """How dark the sheet's own shading is: the median `_darkest_ink` of its cells surely pencil (strokes drawn, or
    a tint of t.tint_sure), when there are t.shading_reference_cells of them; None otherwise."""
    t = read.tuning
    pencil = [index for index in range(SIZE * SIZE) if read.values[index] > read.threshold
              and (read.strokes.drawn[index] >= t.stroke_mark or read.values[index] >= t.tint_sure)]
    if len(pencil) < t.shading_reference_cells:
        return None
    return float(np.median([_darkest_ink(read, boxes[index]) for index in pencil]))


def _grey_tints_offered_shaded(read: SheetRead, decided: list[tuple[bool, float]], boxes: tuple[Box, ...]
                               ) -> set[int]:
    """The cells read shaded in doubt with nothing drawn in them, in graphite's colour (`strokes.graphite`): a tint
    the rules below may offer as empty. Not paper lifted with a shadow (`read.lifted`: see `decide_cells`; harsh
    27's h8, a pale yellow fill lifted to 0.00 of ink), whose reading stands. A tint in a pencil's colour keeps its
    reading too (harsh 10: pale yellow fills under a hard shadow, faint and grey enough to pass as neutral)."""
    t = read.tuning
    return {index for index, (shaded, conf) in enumerate(decided)
            if shaded and conf < t.uncertain_below and read.strokes.drawn[index] < t.stroke_mark
            and index not in read.lifted and graphite(read.light.normalised, boxes[index], t)}


def _far_fainter_than_shading(read: SheetRead, tints: set[int], boxes: tuple[Box, ...], shading: float | None
                              ) -> set[int]:
    """Of the grey `tints` (`_grey_tints_offered_shaded`), those with no drawn outline whose darkest pencil
    (`_darkest_ink`) is under t.faint_offered_share of the sheet's shading: what a patch rubbed out leaves, more
    often than the lightest fill (erased 860009, 860010 and 860015, blind: ghosts at 0.13-0.19 of the shading in
    doubt, offered as shaded). Whichever way it is offered, the player is asked."""
    t = read.tuning
    if shading is None:
        return set()
    return {index for index in tints - read.outlined
            if _darkest_ink(read, boxes[index]) < t.faint_offered_share * shading}


def _as_dark_as_settled_paper(read: SheetRead, tints: set[int]) -> set[int]:
    """Of the grey `tints` (`_grey_tints_offered_shaded`), those with no strokes that the lines did not settle, no
    darker than a cell near them (within t.light_holdout_reach) that they settled as paper: paper there reads so
    under the light as it is, and a tint no deeper is more likely that light than a fill (mixed 8200013, blind: a
    phone's shadow 40 mm soft over the middle of the grid, missed by the light; the lines settled c4, c5, d6 and e6
    as paper at 0.26-0.28 of ink, but not f4, at 0.22 among fills with only e4 beside it in doubt, offered as
    shaded). A drawn outline keeps a tint's reading, unless each side drawn around it faces a marked cell: the
    outline may be only its neighbours' (f4, a hole between three patches). A cell under something lying over the
    sheet, whose ink is that cover's, is neither asked about nor asked of (finger-on-sheet 10022: c7 and d7, fills
    under a finger). Whichever way it is offered, the player is asked."""
    t = read.tuning
    covered = {row * SIZE + col for row, col in read.shown.covered}
    papers = [index for index, shaded in read.settled.items() if not shaded and index not in covered]
    return {index for index in tints - covered - read.settled.keys()
            if _plain(read, index) and (index not in read.outlined or _outline_may_be_neighbours(read, index))
            and any(near_each_other(index, other, t.light_holdout_reach) and read.values[other] >= read.values[index]
                    for other in papers)}


def _outline_may_be_neighbours(read: SheetRead, index: int) -> bool:
    """Whether each side drawn around a cell lies between it and a marked cell (`_marked`): a hole between patches
    shows their outlines on its sides. The grid's border tells nothing."""
    return all(_marked(read, row * SIZE + col) for (row, col), across in sides_drawn(read.drawn, index)
               if across and 0 <= row < SIZE and 0 <= col < SIZE)


def _marked(read: SheetRead, index: int) -> bool:
    """Whether a cell is marked: ink over the threshold, or strokes."""
    return read.values[index] > read.threshold or read.strokes.shares[index] >= read.tuning.stroke_mark


def _marked_beside(read: SheetRead, index: int) -> bool:
    """Whether a cell that shares a printed line with the cell `index` is marked (`_marked`)."""
    return any(_marked(read, r * SIZE + c) for r, c in side_neighbours(index))


def _brown(read: SheetRead, index: int, box: Box) -> bool:
    """Whether a cell is tinted brown, as tea or coffee stain paper: the cell, or a few strokes over little ink or a
    faint tint (a ring's rim over its own tint: tea-ring 120012, 0.12 of ink, the rim brown at 0.68 and the tint
    0.74 over it: their colour is theirs), or an even faint tint up to a pencil's chroma (a pencil's, or tea's?)."""
    t, normalised = read.tuning, read.light.normalised
    strokes, value = read.strokes.shares[index], read.values[index]
    rim = strokes >= t.stroke_mark and value < t.stain_tint_faint
    tint = strokes < t.stroke_mark and value < t.stain_tint_faint
    return (stain_coloured(normalised, box, t=t)
            or rim and stain_coloured(normalised, box, read.strokes.at(box), t)
            or tint and stain_coloured(normalised, box, t=t, up_to=t.pencil_chroma))


def _outlined_strokes(read: SheetRead, index: int, box: Box) -> bool:
    """Whether a cell's strokes lie in a drawn outline, none of them a pass from next door (`read.passed`) or brown
    (a ring's rim): a deliberate mark, the player's own."""
    return (index in read.outlined and index not in read.passed
            and not stain_coloured(read.light.normalised, box, read.strokes.at(box), read.tuning))


def _alike_to_ghosts(read: SheetRead, decided: list[tuple[bool, float]], ghostly: set[int], smeared: set[int],
                     grey_tints: set[int]) -> set[int]:
    """The grey tints read sure that lie side by side with a tint in doubt as a patch rubbed out (`ghostly`: as
    smooth as paper, far fainter than the sheet's shading, or `smeared` at its edge), through tints as deep as
    each other (within t.alike_tint_ratio): one patch rubbed out is one tint, and what leaves one of its cells in
    doubt leaves all of them so (erased 600006, blind: f6, g7, e8 and f8 of a ghost in doubt, smeared smooth; e7
    and f7 between them, at the same 0.12 of ink, kept a little grain and were read shaded and sure). Not from a
    tint in doubt only for
    lying near the threshold: its neighbours as deep are as near it, and a neighbour read sure is so for another
    reason (an outline; harsh and moderate 0-39 and 3000-3039: 26 fills so put in doubt, none empty). In a photo
    too blurred to show pencil grain (`_shows_grain`), only from a smeared edge: there every tint is smooth, and
    what leaves a cell in doubt as a ghost otherwise is its faintness alone, which the tints beside it, a little
    less faint, do not share (harsh 10: a light fill at 0.24-0.25 of the sheet's shading, one cell of it under
    0.24, print 1.1 mm wide); a smeared edge is the patch's, and the cells within it show none. Nor across
    a line drawn between two cells: it parts two patches, and a patch rubbed out is one (moderate 64014, blind: a
    light fill outlined in green, e4-h4, e5 and h5, was put in doubt from a cell of another patch beside it, d4)."""
    t = read.tuning
    values = read.values
    # A smeared edge (`smeared`) is seen in a photo too soft to show grain: the cells of its patch beside it, with
    # no edge of their own to see, are doubted from it (erased 690003, blind: g5 and i5 between cells smeared so).
    doubted = {index for index in (ghostly if _shows_grain(read) else smeared)
               if decided[index][1] < t.uncertain_below}
    if not doubted:
        return set()

    def alike(a: int, b: int) -> bool:
        low, high = sorted((float(values[a]), float(values[b])))
        return high <= t.alike_tint_ratio * low and joined(read.drawn, a, b)

    return {index for group in touching_groups(grey_tints | doubted, alike) if group & doubted for index in group
            if decided[index][0] and decided[index][1] >= t.uncertain_below}


def _faint_beside_shading(read: SheetRead, box: Box, shading: float | None) -> bool:
    """Whether a region's darkest pencil is under t.faint_tint_share of the sheet's shading (`_shading_darkness`),
    with less grain than a pencil fill's (under t.faint_tint_grain_most: the eraser smears what it leaves); or, in
    a photo sharp enough to show grain (`_shows_grain`), under t.faint_smooth_tint_share of it and smoother still
    (under t.faint_smooth_tint_grain_most): the fainter band where a ghost and a light fill differ in grain alone."""
    t = read.tuning
    if shading is None:
        return False
    share = _darkest_ink(read, box) / shading
    if share >= max(t.faint_tint_share, t.faint_smooth_tint_share):
        return False  # the grain (made once for the sheet, on first asking) is not needed
    grain = _grain(read).pencil_grain(box)
    return ((share < t.faint_tint_share and grain < t.faint_tint_grain_most)
            or (share < t.faint_smooth_tint_share and grain < t.faint_smooth_tint_grain_most and _shows_grain(read)))


def _smeared_edge(read: SheetRead, index: int, box: Box, shading: float | None) -> bool:
    """Whether a tint under t.smeared_share_most of the sheet's shading rises from the paper beside its lines
    over more than t.smeared_edge_ratio of the width the printed lines show, running the way they look widest
    (`fill_edges.edge_rise_mm`): the photo blurs a pencil's edge as it blurs the print, and an eraser smears it
    further. Only where the printed lines show crisp (their contrast at least t.smeared_print_contrast, measured):
    a hand's shake blurs one way more than the lines' width says (shaken-hard 13, 15 and 18, the last two read
    from their grid alone)."""
    t = read.tuning
    contrast = read.shown.contrast
    if not (np.isfinite(contrast) and contrast >= t.smeared_print_contrast):
        return False
    if shading is None or _darkest_ink(read, box) >= t.smeared_share_most * shading:
        return False
    width = _widest_print(read)
    if not np.isfinite(width):
        return False
    rise = edge_rise_mm(read.light.ink, PX_PER_MM, divmod(index, SIZE), t)
    return rise is not None and rise > t.smeared_edge_ratio * width


def _smooth_in_sharp_photo(read: SheetRead, box: Box) -> bool:
    """Whether a region shows no pencil grain (under t.pencil_grain_least) in a photo sharp enough to show it (its
    printed lines no wider than t.grain_shows_width_mm): see `grain.py`."""
    t = read.tuning
    return _shows_grain(read) and _grain(read).pencil_grain(box) < t.pencil_grain_least


def _stroke_ink(read: SheetRead) -> float:
    """How much darker than the light around it a pixel on a pencil stroke is, at least, in this photo: blur
    spreads a thin line's ink over the width it shows, and the printed lines show that width."""
    t = read.tuning
    width = _print_width(read)
    if not np.isfinite(width):
        return t.stroke_ink  # no printed line seen to tell the blur by
    return t.stroke_ink * min(1.0, max(t.stroke_blur_width_mm / width, t.stroke_blur_least))


def _print_width(read: SheetRead) -> float:
    """How wide the printed lines look (`grain.print_line_width_mm`), measured when first needed."""
    if read.print_width_mm is None:
        read.print_width_mm = print_line_width_mm(read.light.ink, PX_PER_MM, read.tuning)
    return read.print_width_mm


def _widest_print(read: SheetRead) -> float:
    """How wide the printed lines running one way look, the wider way (`grain.print_line_width_mm`), measured when
    first needed: the photo's blur across an edge is at most that."""
    if read.widest_print_mm is None:
        read.widest_print_mm = max(print_line_width_mm(read.light.ink, PX_PER_MM, read.tuning, running)
                                   for running in ("down", "across"))
    return read.widest_print_mm


def _shows_grain(read: SheetRead) -> bool:
    """Whether the photo is sharp enough to show pencil grain: its printed lines no wider than
    t.grain_shows_width_mm."""
    return _print_width(read) <= read.tuning.grain_shows_width_mm


def _border_steps(read: SheetRead) -> list[tuple[int, int, layout.Rect]]:
    """Where the shadow taken out stops along the grid's border, t.border_step_cells cells' length or more: the
    bands just inside the border (one cell long each) across which its light is lifted on one side and not on the
    other, each with its side (0 top, 1 right, 2 bottom, 3 left) and its cell along it. Light does not know where
    the grid is printed: such a shadow was traced on the paper and not inside the grid, where pencil's edges along
    the lines hide its edge. Not where the photo shows the inside lit beside the shadow outside."""
    t = read.tuning
    log_gain = np.log(np.maximum(read.shadows.gain, 1e-3))
    step = t.border_step_share * -np.log(1.0 - read.shadows.depth)

    def patch(plane: np.ndarray, rect: layout.Rect) -> np.ndarray:
        x0, y0, x1, y1 = rect.to_px(PX_PER_MM)
        return plane[max(y0, 0) : y1, max(x0, 0) : x1]

    def lifted(rect: layout.Rect) -> float:
        gains = patch(log_gain, rect)
        return float(np.median(gains)) if gains.size else 0.0

    def shown(rect: layout.Rect) -> float:
        """The photo's own light there, in log: its brightest channel (paper and pencil of any colour are bright
        in some channel when lit, and none of them is in shadow)."""
        pixels = patch(read.sheet, rect)
        return float(np.log(max(float(np.median(pixels.max(axis=2))), 1.0))) if pixels.size else 0.0

    def may_go_on(outside: layout.Rect, inside: layout.Rect) -> bool:
        """The shadow taken out steps across the border here, and the photo does not show the inside lit: in a
        shadow, paper is the brightest there is, so an inside brighter than the shadow beside it is out of it (moderate
        28007: a round shadow's top in the margin, beside the border for six columns)."""
        step_in = lifted(outside) - lifted(inside)
        return abs(step_in) > step and not (step_in < 0 and shown(inside) - shown(outside) > step)

    found: list[tuple[int, int, layout.Rect]] = []
    for side in range(4):
        pairs = [_border_bands(side, k, t.border_band_mm) for k in range(SIZE)]
        stepped = [may_go_on(outside, inside) for outside, inside in pairs]
        for is_step, run in itertools.groupby(enumerate(stepped), key=lambda item: item[1]):
            cells = [k for k, _ in run]
            if is_step and len(cells) >= t.border_step_cells:
                found += [(side, k, pairs[k][1]) for k in cells]
    return found


def _border_bands(side: int, k: int, reach: tuple[float, float]) -> tuple[layout.Rect, layout.Rect]:
    """The bands along the `k`th cell of the grid's border on `side` (0 top, 1 right, 2 bottom, 3 left) from
    reach[0] to reach[1] mm outside it and inside it."""
    grid, size = layout.GRID_RECT, layout.CELL_MM
    near, far = reach
    if side in (0, 2):
        y, out = (grid.y, -1) if side == 0 else (grid.y2, 1)
        outside, inside = (layout.Rect(grid.x + k * size, min(y + s * near, y + s * far), size, far - near)
                           for s in (out, -out))
    else:
        x, out = (grid.x2, 1) if side == 1 else (grid.x, -1)
        outside, inside = (layout.Rect(min(x + s * near, x + s * far), grid.y + k * size, far - near, size)
                           for s in (out, -out))
    return outside, inside


def _near_border_steps(read: SheetRead) -> set[int]:
    """The cells within t.border_step_reach_mm of where the shadow taken out stops along the grid's border, and
    the cells between two such stretches facing each other across the grid: a shadow seen to stop along both the top
    and the bottom of the same columns (or both sides of the same rows) lies across the grid between them (light
    1200012: a hand's shadow over the right half, lifted in the top and bottom margins only; e6, an empty cell
    five rows from the top and four from the bottom, read 0.27 of ink, shaded and sure)."""
    steps = _border_steps(read) if read.shadows.depth > 0.0 else []
    reach = read.tuning.border_step_reach_mm
    near = {row * SIZE + col for row in range(SIZE) for col in range(SIZE)
            if any(rect.inset(-reach).contains(layout.Rect(*layout.cell_rect(row, col).center, 0.0, 0.0))
                   for _, _, rect in steps)}
    along = {side: {k for step_side, k, _ in steps if step_side == side} for side in range(4)}
    across_columns = along[0] & along[2]  # columns stepped at the top and at the bottom
    across_rows = along[1] & along[3]
    return near | {row * SIZE + col for row in range(SIZE) for col in range(SIZE)
                   if col in across_columns or row in across_rows}


def _cells_in_shadow(read: SheetRead) -> set[int]:
    """The cells whose light a shadow taken out raised (their median gain under t.in_shadow_gain)."""
    t = read.tuning
    if read.shadows.depth <= 0.0:
        return set()
    gains = _box_medians(read.shadows.gain, cell_boxes(t.cell_inset_mm))
    return {index for index, gain in enumerate(gains) if gain < t.in_shadow_gain}


def _beside_unsupported(read: SheetRead, cells: set[int]) -> set[int]:
    """Those of `cells` within t.unsupported_reach_mm of a stretch of a shadow's outline with no step."""
    unsupported = read.shadows.unsupported
    if unsupported is None or not unsupported.any():
        return set()
    reach = round(read.tuning.unsupported_reach_mm * PX_PER_MM)
    height, width = unsupported.shape
    boxes = cell_boxes(read.tuning.cell_inset_mm)
    return {index for index in cells if unsupported[
        max(boxes[index][1] - reach, 0):min(boxes[index][3] + reach, height),
        max(boxes[index][0] - reach, 0):min(boxes[index][2] + reach, width)].any()}


def _brightened_cells(read: SheetRead, in_shadow: set[int]) -> set[int]:
    """The cells `in_shadow` that read as paper only because the shadow was taken out (read in the photo's own
    light, they read as pencil). Light pencil under a shadow that was not there (or deeper than it was) comes out
    just like paper, so these are in doubt like the cells near a shadow's edge (unless the cells confirm the
    shadow's depth: `_depth_confirmed`)."""
    t, boxes = read.tuning, cell_boxes(read.tuning.cell_inset_mm)
    return {index for index in in_shadow
            if read.values[index] <= read.threshold < region_ink(read.plain.ink, boxes[index])
            and _neutral(read.light, boxes[index], t)}


def _even_beside_shadow(read: SheetRead, box: Box) -> bool:
    """Whether the cell's ink is even over its blocks (t.uneven_blocks a side) away from a shadow's edge taken out:
    their means (a strip of a block shifts its mean, where a median would not see it) within t.shadow_even_share of
    the shadow's depth. False when fewer than two blocks lie clear of the edge."""
    t = read.tuning
    x0, y0, x1, y1 = box
    ink, edge = read.light.ink[y0:y1, x0:x1], read.shadows.edge[y0:y1, x0:x1]
    xs = np.linspace(0, x1 - x0, t.uneven_blocks + 1).round().astype(int)
    ys = np.linspace(0, y1 - y0, t.uneven_blocks + 1).round().astype(int)
    means = []
    for row in range(t.uneven_blocks):
        for col in range(t.uneven_blocks):
            block = (slice(ys[row], ys[row + 1]), slice(xs[col], xs[col + 1]))
            clear = ~edge[block]
            if np.count_nonzero(clear) >= t.uneven_min_share * clear.size:
                means.append(float(ink[block][clear].mean()))
    return len(means) > 1 and max(means) - min(means) < t.shadow_even_share * read.shadows.depth


def _depth_confirmed(read: SheetRead, in_shadow: set[int]) -> bool:
    """Whether the cells read as paper inside the shadows taken out are as bright as those outside, against the
    light of the bare paper alone (the margins, where the depth was fitted). A shadow taken out too deep brightens
    light pencil into paper only by brightening the paper under it past paper by as much; so when they match to
    within half the threshold's ink, pencil well clear of the threshold was not brightened away (nearer it, its
    confidence is low anyway), and the depth is right to as much. Needs a few such cells on each side."""
    t = read.tuning
    if not in_shadow:
        return False
    levels = _box_medians(read.margin_light.brightness, cell_boxes(t.cell_inset_mm))
    inside, outside = [], []
    for index, level in enumerate(levels):
        if read.values[index] <= read.threshold:
            (inside if index in in_shadow else outside).append(level)
    if min(len(inside), len(outside)) < t.depth_check_cells:
        return False
    return abs(float(np.median(inside)) - float(np.median(outside))) < t.depth_check_share * read.threshold


def _cell_values(field_: FlatField, skip: np.ndarray, t: ReaderTuning) -> np.ndarray:
    """The ink in each cell's interior. A cell crossed by a shadow's edge is measured on its parts away from
    the edge (`skip`), where the light taken out matches the light that was there, when enough of it is left; so
    is a cell partly under a thumb (`skip` too)."""
    values = []
    for x0, y0, x1, y1 in cell_boxes(t.cell_inset_mm):
        keep = ~skip[y0:y1, x0:x1]
        if t.split_min_share * keep.size <= keep.sum() < keep.size:
            values.append(float(field_.ink[y0:y1, x0:x1][keep].mean()))
            continue
        values.append(region_ink(field_.ink, (x0, y0, x1, y1)))
    return np.array(values)


def _threshold_away_from(cells: set[int], values: np.ndarray, threshold: float, t: ReaderTuning) -> float:
    """The threshold the other cells make alone (`threshold` when there are no others, or no cells to leave out)."""
    others = [index for index in range(SIZE * SIZE) if index not in cells]
    if not cells or not others:
        return threshold
    return largest_gap_threshold(values[others], t.cell_lowest, t.cell_highest, t)


def _gaps_between_strokes(read: SheetRead, boxes: tuple[Box, ...]) -> np.ndarray:
    """Per cell with strokes, how much darker (log) than the light read in it the paper between its strokes is: the
    ink of its brightest t.between_strokes_share of its interior (inf for a cell with none, or none wide enough).

    Hatching and scribbles leave paper between their strokes, and it shows the light there as the margins do (their
    brightest pixels: the gaps of dense hatching are narrow and the strokes' blur runs into them, so they read as
    dark as the light there, or darker). Only between strokes that stand out by `stroke_ink`: in a blurred photo,
    strokes are found at a lower contrast (`_stroke_ink`), and between those the blur leaves no paper (harsh 15:
    h3 and i3, fills at 0.29 of ink whose strokes only the lower contrast found, put 3 pale fills beside them in
    doubt). Nor in gaps narrower than the blur's reach, which the printed lines' width shows
    (`measure.paper_between_strokes`): a cell of dense hatching in a blurred photo tells nothing of the light."""
    t = read.tuning
    gaps = np.full(SIZE * SIZE, np.inf)
    width = _print_width(read)
    clear = t.between_strokes_clear_width * width * PX_PER_MM if np.isfinite(width) else 0.0
    for index in range(SIZE * SIZE):
        if read.strokes.sharp_drawn[index] >= t.stroke_mark:
            ink = paper_between_strokes(read.light.ink, boxes[index], clear, t.between_strokes_share,
                                        round(t.between_strokes_around_mm * PX_PER_MM))
            if ink is not None:
                gaps[index] = darkness(ink)
    return gaps


def _light_between_strokes(read: SheetRead, gaps: np.ndarray) -> np.ndarray:
    """Per cell, how much darker (log) than the light read in it the paper between the strokes of the cells beside
    it is, at most (`gaps`: `_gaps_between_strokes`), over the stroked cells' lower t.between_strokes_lit of it
    (their gaps in plain light).

    A shadow not taken out over a nearly full grid shows nowhere else (light 3100022, blind: a phone's shadow 0.56
    deep over the grid's middle, its penumbra over the margin judged a hard shadow's edge; d2, f3 and c6, empty,
    read 0.35-0.41 of ink, shaded and sure, beside hatched cells whose paper read 0.3-0.5)."""
    stroked = np.isfinite(gaps)
    # A blurred photo runs the strokes into their gaps everywhere: the gaps are measured against those of the lit
    # part of the grid (harsh 3, 6, 15: 4-11 pale fills in doubt beside hatching otherwise).
    lit = float(np.quantile(gaps[stroked], read.tuning.between_strokes_lit)) if stroked.any() else 0.0
    light = np.where(stroked, np.maximum(gaps - lit, 0.0), 0.0)
    # Each cell's most over itself and the cells around it: a dilation of the grid of cells.
    return cv2.dilate(light.reshape(SIZE, SIZE), np.ones((3, 3), np.uint8)).ravel()


def _gaps_beside(read: SheetRead, index: int, gaps: np.ndarray) -> float:
    """How much darker than the light read there the paper between the strokes of the cells beside `index` (a side
    or a corner) shows the light to be, at the most (inf with none): it checks the light as a cell read as paper
    does, to within what it shows (light 100002: a nearly full quilt under a hand's soft shadow 0.68 deep; 13 solid
    fills amid hatched cells whose gaps read as white paper were in doubt for want of an empty cell beside them).
    The darkest, not the brightest: across a penumbra the light changes from one cell to the next (light 2800007:
    f3, empty in a hand's shadow, 0.18 of ink, beside gaps reading 0.08, 0.14 and 0.18), and the cells beside may
    all lie on one side of it (f4 below f3, 0.21 of ink: the caller allows t.light_holdout_safety times as much, as
    for a shaded cell's light predicted from paper). Blur only darkens gaps, which errs towards doubt; the photo's
    noise can make the brightest tenth of a cell read as white paper with light a few percent darker than the
    estimate, as it can a cell of paper. For a cell a shadow taken out lifted, only cells it lifted too count (see
    `_checked_by_paper`)."""
    inside = index in read.in_shadow
    beside = [float(gaps[other]) for other in range(SIZE * SIZE)
              if other != index and near_each_other(index, other, 1) and (other in read.in_shadow or not inside)]
    return max((gap for gap in beside if np.isfinite(gap)), default=np.inf)


def _misjudged_light(read: SheetRead, decided: list[tuple[bool, float]], boxes: tuple[Box, ...],
                     light_doubted: set[int]) -> set[int]:
    """The cells in doubt that read shaded for a shadow misjudged: they stay in doubt, and read empty.

    A grey cell with no pencil grain in a photo sharp enough to show it (`_smooth_in_sharp_photo`), in doubt for the
    light (`light_doubted`: it may be paper under light darker than the estimate), is the light's however deep:
    light adds no speckle, a pencil does (light 100009: i8 and i9, empty, left at 0.40-0.41 of ink by a phone's
    shadow ending past the grid, as deep as a fill, grain 0.004; light 7000008, blind: f5 and b6, empty under a
    hand's soft shadow, 0.18 and 0.33 of ink, grain 0, offered as shaded). Not a tint in doubt only as a ghost
    might be, smooth and faint beside the sheet's shading, with the light not in question (moderate 21: a light
    fill, 0.29 of the shading, grain 0.005).

    Where the light is steep (see `shadow_doubts`), every grey cell is in doubt, and each is read on its ink. A
    shadow misjudged leaves in the cells under it what it leaves in paper: a grey tint as deep as the misjudgment,
    with no strokes and no outline; the fills beside it are pencil, pressed on. So the grey cells with nothing
    drawn fall in two groups, set apart by the widest gap in their ink when it is t.misjudged_gap or more: what is
    below it is the light (light 8, a hand's shadow 44 mm soft: 3 empty cells at 0.17-0.25 of ink, the solid fills
    at 0.40-0.64); and a smooth one is the light's, whatever it was in doubt for. Cells with strokes, in an outline
    or in colour are marks whatever the light: a faint one too, coloured for its ink though its channels lie close
    (harsh 59004: d3, a pale yellow fill at 0.11 of ink, was offered as empty)."""
    t = read.tuning
    grey = sorted((float(read.values[index]), index) for index, (_, conf) in enumerate(decided)
                  if conf < t.uncertain_below and read.strokes.drawn[index] < t.stroke_mark
                  and (read.steep or index in light_doubted)
                  and index not in read.outlined and _neutral(read.light, boxes[index], t)
                  and graphite(read.light.normalised, boxes[index], t))
    smooth = {index for _, index in grey if _smooth_in_sharp_photo(read, boxes[index])}
    if not read.steep or len(grey) < 2:
        return smooth
    gap, below = max((grey[k + 1][0] - grey[k][0], k) for k in range(len(grey) - 1))
    return smooth | ({index for _, index in grey[: below + 1]} if gap >= t.misjudged_gap else set())


def _under_stain_rings(read: SheetRead, decided: list[tuple[bool, float]],
                       boxes: tuple[Box, ...]) -> tuple[set[int], set[int], set[int]]:
    """Where a mug's ring (`stain_rings`) explains the cells in doubt that are tinted in a stain's brown, with
    brown strokes if any: those it may explain, offered as empty in doubt, and those it does, empty and sure; and
    the cells read shaded and sure in a drawn outline, in a stain's brown, brown strokes and all, that a ring found
    so reaches: the outline around them may be only their neighbours' (coffee-ring 880022, blind: h4, an empty
    cell between outlined patches, under a ring's tint with two arcs of its rim across it, read shaded and sure
    beside i4, in doubt as a stain). They are put in doubt as they are read.

    Its rim explains brown strokes when t.stain_ring_rim_share of them lie along it (a brown pencil's slash
    elsewhere in the ring does not). Its inside explains a brown tint read empty; and one read shaded when the tint
    stops at the ring's circle, or lies beside such a tint in it, as even (`_ring_s_inside`): a fill keeps to the
    grid. Otherwise a brown tint read shaded may be a light brown or orange pencil: its doubt stays, and the ring
    says which reading to offer (coffee-ring 3: f4, f5, f6 and i7, empty under two rings, read shaded in doubt).
    On coffee- and tea-ring 0-23, the 175 cells so made sure were all empty, and most of the photos' doubts
    (coffee-ring 0: 10 cells in doubt, all empty and read so, the rims' arcs and the rings' inside: now none)."""
    t = read.tuning
    normalised = read.light.normalised
    brown = [index for index, (_, conf) in enumerate(decided)
             if conf < t.uncertain_below and stain_coloured(normalised, boxes[index], t=t)
             and (read.strokes.shares[index] < t.stroke_mark
                  or stain_coloured(normalised, boxes[index], read.strokes.at(boxes[index]), t))]
    if not brown:
        return set(), set(), set()  # no ring looked for
    rings = stain_rings(normalised, PX_PER_MM, t)
    reached = cells_under(rings, [layout.cell_rect(*divmod(index, SIZE)) for index in range(SIZE * SIZE)], t)
    enclosed = {index for index in read.outlined & reached
                if decided[index][0] and decided[index][1] >= t.uncertain_below
                and stain_coloured(normalised, boxes[index], t=t)
                and stain_coloured(normalised, boxes[index], read.strokes.at(boxes[index]), t)}
    under = set(brown) & reached
    on_rims = {index for index in under
               if read.strokes.shares[index] < t.stroke_mark
               or share_on_rims(rings, read.strokes.at(boxes[index]), boxes[index], PX_PER_MM, t)
               >= t.stain_ring_rim_share}
    # A stain's tint over the threshold, offered as empty for its brown (`_marks`), keeps its doubt as one read
    # shaded would: a light brown pencil's fill blurred over its lines would be one (coffee-ring 3: f5 and i7).
    offered = {index for index in under
               if decided[index][0] or index in read.stains and read.values[index] > read.threshold}
    inside = _ring_s_inside(read, offered & on_rims, rings, boxes)
    return offered - inside, (on_rims - offered) | inside, enclosed


def _ring_s_inside(read: SheetRead, cells: set[int], rings: list[StainRing], boxes: tuple[Box, ...]) -> set[int]:
    """Of `cells` (read shaded, brown, under a ring), those whose tint is the ring's inside: it stops at a ring's
    circle that cuts the cell (`tint_across_circle`), or the cell lies beside one that does, in the circle, its
    tint as even (up to t.stain_ring_tint_even times theirs). Not a cell the circle cuts whose tint runs on past it:
    a fill keeps to the grid, across the ring."""
    t = read.tuning
    splits = {index: tint_across_circle(rings, read.light.ink, ~read.strokes.at(boxes[index]).astype(bool),
                                        boxes[index], PX_PER_MM, t) for index in cells}
    inside = {index for index, split in splits.items()
              if split is not None and split[0] > 0.0 and split[1] <= t.stain_ring_tint_outside * split[0]}
    uncut = {index for index, split in splits.items() if split is None
             and any(ring.off(*layout.cell_rect(*divmod(index, SIZE)).center) < 0.0 for ring in rings)}
    while grown := {index for index in uncut - inside
                    if any(r * SIZE + c in inside and read.values[index]
                           <= t.stain_ring_tint_even * read.values[r * SIZE + c] for r, c in side_neighbours(index))}:
        inside |= grown
    return inside


def _plain(read: SheetRead, index: int) -> bool:
    """Whether the cell holds no strokes, drawn or not."""
    t = read.tuning
    return read.strokes.shares[index] < t.stroke_mark and read.strokes.drawn[index] < t.stroke_mark


def _sure_plain(read: SheetRead, decided: list[tuple[bool, float]], shaded: bool) -> set[int]:
    """The cells with no strokes read sure, as `shaded` or as paper."""
    return {index for index, (is_shaded, conf) in enumerate(decided)
            if conf >= read.tuning.uncertain_below and is_shaded == shaded and _plain(read, index)}


def _steps(read: SheetRead, cells: set[Cell], beside: set[Cell]) -> dict[Cell, dict[Cell, LineStep | None]]:
    """`line_steps.steps_around` the `cells`, on the photo's sheet over the shadows' gain (hard and soft: they are
    taken out), over what shows of it (not over what covers it)."""
    return steps_around(read.sheet, read.inside & ~read.covered, PX_PER_MM, cells, beside, read.tuning,
                        _shadow_gain(read))


def _shadow_gain(read: SheetRead) -> np.ndarray | None:
    """The gain the shadows taken out are divided by (`ShadowMap.gain`), None where none was."""
    return read.shadows.gain if read.shadows.depth > 0.0 else None


_MARGIN_PRINT = frozenset({"grid", "column_labels", "row_labels", "column_labels_below", "row_labels_right"})


def _running_off_the_grid(read: SheetRead, decided: list[tuple[bool, float]]) -> set[int]:
    """The cells along the grid's border read shaded and sure beside which something dark lies in the margin, past
    where a felt-tip bleeds (t.off_grid_band_mm from the border): as dark as half the cell's ink or more, and
    t.off_grid_least_ink at least, and t.off_grid_thick_mm thick or more (the row numbers, the column letters and
    the boxes' frames printed there are thin), within half a cell of the cell's side. No player shades the margin:
    something lies over the sheet, and may lie over the cell (pencil-over-bubbles 940006, blind: the end of a blue
    pencil lying across the grid's foot over b9, empty, read as its fill, shaded and sure)."""
    t = read.tuning
    edge = [index for index, (shaded, conf) in enumerate(decided) if shaded and conf >= t.uncertain_below
            and not (0 < index // SIZE < SIZE - 1 and 0 < index % SIZE < SIZE - 1)]
    if not edge:
        return set()
    near, far = t.off_grid_band_mm
    margin = np.zeros_like(read.inside)
    _set(margin, layout.GRID_RECT.inset(-far), True)
    _set(margin, layout.GRID_RECT.inset(-near), False)
    # Not over the blocks printed near the grid (the markers, the QR code, the boxes): only the thin row numbers
    # and column letters lie in the margin itself.
    for name, rect in layout.elements().items():
        if name not in _MARGIN_PRINT:
            _set(margin, rect.inset(-0.5), False)
    margin &= read.inside
    x0, y0, x1, y1 = layout.GRID_RECT.inset(-far).to_px(PX_PER_MM)
    x0, y0 = max(x0, 0), max(y0, 0)
    around = (slice(y0, y1), slice(x0, x1))
    # Thin print goes in an opening by a disk that fits in no stroke. Opened once, in grey: a flat disk's opening
    # and a threshold give the same, taken in either order, so each fill asks its own darkness of the one opening.
    size = round(t.off_grid_thick_mm * PX_PER_MM) | 1
    disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    dark = cv2.morphologyEx(np.where(margin[around], read.light.ink[around], 0.0).astype(np.float32),
                            cv2.MORPH_OPEN, disk)
    found = set()
    for index in edge:
        cx0, cy0, cx1, cy1 = layout.cell_rect(*divmod(index, SIZE)).inset(-layout.CELL_MM / 2).to_px(PX_PER_MM)
        beside = dark[max(cy0 - y0, 0) : max(cy1 - y0, 0), max(cx0 - x0, 0) : max(cx1 - x0, 0)]
        if beside.size and float(beside.max()) >= max(read.threshold, t.off_grid_least_ink,
                                                       0.5 * float(read.values[index])):
            found.add(index)
    return found


def _tints_running_on(read: SheetRead, decided: list[tuple[bool, float]]) -> set[int]:
    """The faint tints with no strokes read shaded and sure (under t.tint_sure) that run on through every line
    into paper beside them that is measured (one at least): a fill keeps to its lines, and steps at them into
    paper, however light; a smudge, a smear or the light fades across them (smudge 430015, blind: a4, a wide eraser
    smudge 0.069 of ink over a threshold of 0.040, shaded and sure, ran on into paper at all three of its lines,
    0.02-0.03 of step; of 772 faint fills beside paper on the seen sets, one did, at its one line to paper). Such a
    tint is in doubt.

    Paper here is any cell with no strokes read as paper, sure or not, and the tints found so are paper to the
    tints beside them: light runs on from cell to cell, and a cell of paper near a glare is in doubt itself. A line
    where the paper is darker than the tint's side says the same as one the light runs on through: a fill darkens
    its own side (`LineStep.no_fill_edge`). (Mixed 5000018, blind: under a lamp with a glare over the grid's foot,
    d6, e5, e6, f5 and g5, empty, read the lamp's own orange at 0.14-0.17 of ink, shaded and sure; e6 met e7,
    paper read 0.02 in doubt, at a step of -0.016 in one rendering of the photo and -0.033 in another, e7 the
    darker; d6 and e5 ran on into e6, and f5 into e5.)"""
    t = read.tuning
    tints = {divmod(index, SIZE) for index in _sure_plain(read, decided, True) if read.values[index] < t.tint_sure}
    paper = {divmod(index, SIZE) for index, (shaded, _) in enumerate(decided) if not shaded and _plain(read, index)}
    if not tints or not paper:
        return set()
    around = _steps(read, tints, paper)
    running_on: set[Cell] = set()
    grown = True
    while grown:
        grown = False
        for cell in sorted(tints - running_on):
            measured = [step for other, step in around[cell].items()
                        if (other in paper or other in running_on) and step is not None]
            if measured and all(step.no_fill_edge(t) for step in measured):
                running_on.add(cell)
                grown = True
    return {row * SIZE + col for row, col in running_on}


def _beside_settled_paper(read: SheetRead, decided: list[tuple[bool, float]], running_on: set[int]) -> set[int]:
    """The tints with no strokes and no outline read shaded and sure that may be paper as dark as a cell near them
    (within t.light_holdout_reach) that the printed lines settled as paper: that cell is paper and yet reads its
    ink, so the light there is that much darker than the estimate, and at the tint it may be t.light_holdout_safety
    times as much (mixed 4400019, blind: a strong glare and mixed lamps lifted the light estimate over the grid's
    middle; the lines settled b3-b5, c6, d6, f2, g2 and h6 as paper at 0.13-0.18 of ink, but e5, f4, f5, g4 and
    g5, empty among fills with no paper beside them, read 0.19-0.23 over a threshold of 0.026, shaded and sure).
    Such a tint is in doubt. So is one near a tint `running_on` into paper, which may be paper too (mixed 5000018:
    g5, 0.155 of ink, stepped 0.06 into f5 as the glare's light fell off, and ran on into nothing else)."""
    t = read.tuning
    papers = [index for index, shaded in read.settled.items() if not shaded] + sorted(running_on)
    if not papers:
        return set()
    doubted = set()
    for index in _sure_plain(read, decided, True) - read.outlined:
        near = [float(read.values[other]) for other in papers if near_each_other(index, other, t.light_holdout_reach)]
        if near and could_be_paper(float(read.values[index]), read.threshold,
                                   t.light_holdout_safety * darkness(max(near))):
            doubted.add(index)
    return doubted


def _settled_by_line_steps(read: SheetRead, decided: list[tuple[bool, float]], boxes: tuple[Box, ...]
                           ) -> dict[int, bool]:
    """The cells with no strokes, in doubt, that the printed lines around them settle (`line_steps`): a cell that
    runs on through a line from paper (a cell's, or the margin's) is paper, and so on. Not a cell under a mug's
    ring (its rim crosses the strips measured), and a tint that may be a stain's (one that may not keep to the
    grid, or brown) is settled as paper only. A cell's colour objects to paper beside it unless something covers
    the cell (its colour is then the cover's).

    A covered cell is settled as one in doubt, however sure its ink: that ink is the cover's (finger-on-sheet 4: i6,
    empty, two-thirds under a fingertip, read 0.15 of skin over a threshold of 0.056; its lines show paper)."""
    t = read.tuning
    doubtful = {index for index, (_, conf) in enumerate(decided)
                if (conf < t.uncertain_below or divmod(index, SIZE) in read.shown.covered) and _plain(read, index)
                and index not in read.stained | read.bare_tints}
    # Nor in a blurred photo (the grid's printed lines barely show: t.blurred_print): a blur wider than the strips'
    # reach spreads a fill's step at a line into a ramp across them, and a ramp is light running on (shaken-hard
    # 580007, blind: d1, a zigzag the blur hid from the stroke finder, ran on into the margin and was settled as
    # paper; on the 16 blurred photos of shaken-hard 0-23 and 580000-580007 the lines settled 2 cells, both wrong).
    if not doubtful or read.shown.contrast < t.blurred_print:
        return {}
    # Nor is a covered cell read sure what its neighbours are judged against: its ink is the cover's.
    paper = {divmod(index, SIZE) for index in _sure_plain(read, decided, False)} - read.shown.covered
    heavy = {divmod(index, SIZE) for index in _sure_plain(read, decided, True)
             if read.values[index] >= t.tint_sure} - read.shown.covered
    tints = {divmod(index, SIZE) for index in doubtful if index in read.stains or _brown(read, index, boxes[index])}
    # Measured with the shadows taken out (over their gain: `_steps`). A cell whose middle is not as its sides is not
    # settled (a smudge or a light mark in its middle, clear of the strips measured).
    margin, gain = margin_squares(), _shadow_gain(read)
    cells = {divmod(index, SIZE) for index in doubtful}
    cells = {cell for cell in cells
             if abs(middle_against_sides(read.sheet, PX_PER_MM, cell, t, gain)) < t.line_step_smooth}
    # Nor over what covers the sheet (`_steps`). A hard shadow's edge, taken out at a depth that may be off there,
    # leaves a step, never a ramp: across it no step is taken for a fill's (a soft shadow's, off, leaves a ramp);
    # nor is the light running on taken for paper's, as the depth may be off by a light fill's step (harsh 46007,
    # blind: e4, a light fill at 0.135 of ink, ran on across a shadow's edge into paper lifted out of the shadow,
    # and was settled as paper, unflagged).
    around = _steps(read, cells, paper | heavy | margin)
    hard_edge = not read.shadows.soft and bool(read.shadows.edge.any())
    over_edges = {(cell, other) for cell, steps in around.items() for other in steps
                  if hard_edge and line_crosses(read.shadows.edge, PX_PER_MM, cell, other, t)}
    # The texture paper has in this photo: its sure paper cells', or where there are none, the bare paper's beside
    # the grid (mixed 5400008, blind: mixed lamps and a photo sharpened hard; every empty cell read 0.09 of ink
    # over a threshold of 0.04, in doubt, and with no cell to tell paper's texture, none was settled as paper).
    # With neither, every cell with any texture counts as textured, and nothing is settled as paper. (Measured on
    # the lifted 8-bit sheet, as t.line_step_grain was set on it: over the gain in floats, a deep shadow's noise would
    # be lifted with its paper.)
    grain = fine_texture(read.unshadowed, PX_PER_MM, cells | paper, t)
    usual = float(np.median([grain[cell] for cell in paper])) if paper else cleanest_quarter(
        boxes_texture(read.unshadowed, PX_PER_MM, paper_blocks(read.trusted, PX_PER_MM, t), t)) or 0.0
    textured = {cell for cell in cells if grain[cell] > t.line_step_grain * usual}
    # A cell in a pencil's colour (not a stain's brown) beside grey paper, of another colour than it (harsh 58028,
    # blind: d1, a pale yellow fill at 0.105 of ink under a hard shadow, faded to paper at its line to e1 and ran on
    # into it, 0.028 of step; its middle was 0.06 yellower than e1's. It was settled as paper, unflagged). A tea
    # stain's tint differs from paper as much, and is paper (tea-ring 21: f1).
    def box(cell: Cell) -> Box:
        return boxes[cell[0] * SIZE + cell[1]]

    normalised = read.light.normalised
    # A covered cell's hue is what lies over it (a finger's skin is as warm as a yellow pencil), not a fill's
    # (finger-on-sheet 4: i6, empty under a fingertip, was held from paper by its skin's colour).
    hued = {cell for cell in cells - read.shown.covered
            if pencil_coloured(normalised, box(cell), t) or yellow_as_a_pencil(normalised, box(cell), t)}
    # So with the margin's paper beside the grid's border (harsh 88001, blind: g9, pale yellow hatching at 0.07 of
    # ink under a hard shadow, its neighbours its patch's cells in doubt, ran on into the margin and was settled as
    # paper, unflagged).
    unlike = {(cell, other) for cell in hued for other in neighbours(cell)
              if (other in margin or (other in paper and graphite(normalised, box(other), t)))
              and colour_gap(read.sheet, PX_PER_MM, cell, other, t, gain) > t.line_step_colour}
    settled = settle(cells, paper, heavy, around, t, margin=margin, tints=tints, textured=textured,
                     over_edges=over_edges, unlike=unlike)
    return {row * SIZE + col: shaded for (row, col), shaded in settled.items()}


def _neutral(field_: FlatField, box: Box, t: ReaderTuning) -> bool:
    """Whether the region is grey (paper, graphite, a shadow) rather than coloured pencil."""
    x0, y0, x1, y1 = box
    mean = field_.normalised[y0:y1, x0:x1].reshape(-1, 3).mean(axis=0)
    return float((mean.max() - mean.min()) / max(float(mean.max()), 1e-3)) < t.neutral_chroma


def _paper_block(field_: FlatField, box: Box, t: ReaderTuning) -> bool:
    """Whether a block of bare paper at least paper_block_mm wide covers paper_block_share of the region (the
    gaps between hatching strokes or in a scribble are narrower), as bright as paper and no brighter (pencil
    brightened by a shadow taken out where there was none comes out brighter than paper)."""
    x0, y0, x1, y1 = box
    paper = (field_.ink[y0:y1, x0:x1] < t.paper_block_ink).astype(np.uint8)
    side = round(t.paper_block_mm * PX_PER_MM)
    block = cv2.morphologyEx(paper, cv2.MORPH_OPEN, np.ones((side, side), np.uint8)) > 0
    if block.mean() < t.paper_block_share:
        return False
    return float(np.median(field_.brightness[y0:y1, x0:x1][block])) < t.overbright


def _overbright_cells(field_: FlatField, t: ReaderTuning) -> set[int]:
    """Cells brighter than paper: the light estimate is too dark there (a shadow edge misplaced), so neither
    they nor their neighbours can be trusted."""
    medians = _box_medians(field_.brightness, cell_boxes(t.cell_inset_mm))
    return {index for index, median in enumerate(medians) if float(median) > t.overbright}


def _box_medians(image: np.ndarray, boxes: tuple[Box, ...]) -> list[float]:
    """The median of `image` in each box (the cells' interiors: one size, one call)."""
    return medians_of([image[y0:y1, x0:x1] for x0, y0, x1, y1 in boxes])


def uneven_around(sheet: np.ndarray, box: layout.Rect, t: ReaderTuning = TUNING) -> bool:
    """Whether the paper in a ring around `box` changes brightness steeply: a shadow's edge beside it."""
    height, width = sheet.shape[:2]
    x0, y0, x1, y1 = box.inset(-t.check_ring_mm[1]).to_px(PX_PER_MM)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)  # the ring may pass the sheet's edge
    bx0, by0, bx1, by1 = box.inset(-t.check_ring_mm[0]).to_px(PX_PER_MM)
    bright = cv2.dilate(sheet[y0:y1, x0:x1].max(axis=2), np.ones((t.thin_print_px,) * 2, np.uint8))
    ring = np.ones(bright.shape, bool)
    ring[max(by0 - y0, 0) : max(by1 - y0, 0), max(bx0 - x0, 0) : max(bx1 - x0, 0)] = False
    low, high = np.percentile(np.log(np.maximum(bright[ring], 1).astype(np.float32)), t.check_ring_percentiles)
    return float(high - low) > t.check_ring_uneven


@cache
def _bubble_squares(half_mm: float) -> dict[tuple[int, str, int], Box]:
    """The square read inside each bubble's printed ring, in sheet-image pixels, by (round, place, digit)."""
    squares = {}
    for block in layout.ROUNDS:
        for place in layout.PLACES:
            for digit in range(10):
                cx, cy = layout.bubble_center(block.number, place, digit)
                squares[block.number, place, digit] = layout.Rect(cx - half_mm, cy - half_mm, 2 * half_mm,
                                                                  2 * half_mm).to_px(PX_PER_MM)
    return squares


def _bubble_values(field_: FlatField, centers_mm: dict[tuple[int, str, int], tuple[float, float]],
                   t: ReaderTuning) -> dict[tuple[int, str, int], tuple[float, bool]]:
    """Each bubble's ink inside it, against the paper in a ring just around it (so an error in the light estimate,
    such as a shadow's edge near the bubbles, cannot fill them in), and whether that reading is in doubt: where the
    light changes across the ring (a shadow's edge crosses the bubble itself), the bubble read side by side
    instead (each sector of it against the ring's paper in the same direction, under the same light) says
    otherwise. The rings' percentiles are taken for all the rings of one size at once (as np.percentile of each
    gives them)."""
    readings: dict[tuple[int, str, int], tuple[float, bool]] = {}
    rings: dict[int, list[tuple[tuple[int, str, int], np.ndarray, np.ndarray, np.ndarray, np.ndarray]]] = {}
    for key, center_mm in centers_mm.items():
        (x0, y0, x1, y1), disk, ring, sector = _bubble_geometry(center_mm, t.bubble_read_radius_mm,
                                                                t.bubble_ring_mm, t.bubble_sectors)
        patch = field_.normalised[y0:y1, x0:x1]
        if patch.shape[:2] != disk.shape:  # cut by the sheet's edge
            disk, ring, sector = (a[: patch.shape[0], : patch.shape[1]] for a in (disk, ring, sector))
        if not disk.any() or not ring.any():
            readings[key] = 0.0, False
            continue
        rings.setdefault(int(np.count_nonzero(ring)), []).append((key, patch, disk, ring, sector))
    paper_at = t.bubble_ring_paper_percentile
    for same in rings.values():
        around = np.stack([patch[ring] for _, patch, _, ring, _ in same])  # bubbles, ring pixels, BGR
        papers = np.percentile(around, paper_at, axis=1)
        lows, highs = np.percentile(around.max(axis=2), t.bubble_ring_percentiles, axis=1)
        for (key, patch, disk, ring, sector), paper, low, high in zip(same, papers, lows, highs, strict=True):
            value = _ink_against(patch[disk].mean(axis=0), paper)
            if np.log(max(float(high), 1e-3) / max(float(low), 1e-3)) <= t.bubble_ring_uneven:
                readings[key] = value, False
                continue
            local = [
                _ink_against(patch[disk & (sector == k)].mean(axis=0),
                             np.percentile(patch[ring & (sector == k)], paper_at, axis=0))
                for k in range(t.bubble_sectors)
                if (disk & (sector == k)).any() and (ring & (sector == k)).any()
            ]
            side_by_side = float(np.median(local)) if local else value
            readings[key] = value, (side_by_side > t.bubble_threshold) != (value > t.bubble_threshold)
    return readings


@cache
def _bubble_geometry(center_mm: tuple[float, float], read_radius_mm: float, ring_mm: tuple[float, float],
                     sectors: int) -> tuple[Box, np.ndarray, np.ndarray, np.ndarray]:
    """The square around a bubble (pixels) and, over it, the disk read, the ring of paper around it and each
    pixel's sector (of `sectors` directions around the centre)."""
    cx, cy = center_mm[0] * PX_PER_MM, center_mm[1] * PX_PER_MM
    outer = ring_mm[1] * PX_PER_MM
    x0, y0 = int(cx - outer), int(cy - outer)
    x1, y1 = int(cx + outer) + 2, int(cy + outer) + 2
    ys, xs = np.mgrid[y0:y1, x0:x1]
    distance = np.sqrt((xs + 0.5 - cx) ** 2 + (ys + 0.5 - cy) ** 2) / PX_PER_MM
    disk = distance <= read_radius_mm
    ring = (distance >= ring_mm[0]) & (distance <= ring_mm[1])
    sector = np.floor((np.arctan2(ys + 0.5 - cy, xs + 0.5 - cx) + np.pi) / (2 * np.pi) * sectors).astype(int)
    for array in (disk, ring, sector):
        array.setflags(write=False)  # cached: shared by every read
    return (x0, y0, x1, y1), disk, ring, sector


def _ink_against(colour: np.ndarray, paper: np.ndarray) -> float:
    return float(max(0.0, 1.0 - float((colour / np.maximum(paper, 1e-3)).min())))


def _sparse_mark(read: SheetRead, against_rings: dict[tuple[int, str, int], tuple[float, bool]], number: int,
                 place: str, threshold: float) -> int | None:
    """The row's bubble crossed, ticked or dotted rather than filled in, if there is one: the only one over the
    local threshold, and read against the ring around it, standing out from the rest of its row as far as the
    threshold lies above them. Such a mark has less ink than a fill, so against the ring alone it falls short of
    t.bubble_threshold and the two readings seem to disagree (bubble-marks 0: crosses at 0.19 against the ring).
    A shadow's edge that darkens a bubble read locally leaves it as pale as its row against the ring, or puts that
    reading in doubt; either way it is no mark here. None when no bubble, or more than one, is over the threshold."""
    local = np.array([read.bubble_values[number, place, digit] for digit in range(10)])
    over = np.flatnonzero(local > threshold)
    if len(over) != 1:
        return None
    digit = int(over[0])
    against_ring, doubtful = against_rings[number, place, digit]
    rest = [against_rings[number, place, other][0] for other in range(10) if other != digit]
    # The bar is the local reading's (its threshold over the row's usual), held against the ring's reading's rise
    # over its row: the two read the same ink on nearly the same scale (a fill reads 0.01-0.04 less against the
    # ring), though each has a threshold of its own (0.125 and 0.2) for fills.
    bar = threshold - float(np.median(np.delete(local, digit)))
    return digit if not doubtful and against_ring - float(np.median(rest)) >= bar else None


def _faint_mark(read: SheetRead, against_rings: dict[tuple[int, str, int], tuple[float, bool]], number: int,
                place: str, threshold: float) -> int | None:
    """The row's one bubble marked fainter than a fill, if there is one: with none over the threshold, its darkest
    bubble stands out from the median of the other nine by over a bar (t.bubble_faint_share of the threshold),
    both read locally and against the ring around it: the ring's reading not in doubt, the two within the bar of
    each other (they read the same ink on nearly the same scale), and the next darkest of the row within half the
    bar of the rest, in both, so that the same bubble is darkest both ways (a mark lies in one bubble; a fingertip
    or a pencil over the row darkens several, and its edge reads far darker against a ring it covers). Empty rows
    stand out by 0.026 at most (levels 0-39, light, mixed, sensor, messaging, erased and sharpened 0-23); faint
    marks (bubble-marks 0-23, 10000-10023, 740000-740023) by 0.042-0.096 locally and 0.037-0.107 against the ring,
    0.02 apart at most, the next darkest within 0.010 of the rest; under a finger or a pencil (finger- and
    pencil-over-bubbles 0-23), 0.018 and more, or apart by 0.043 and more."""
    t = read.tuning
    bar = t.bubble_faint_share * threshold
    local = np.array([read.bubble_values[number, place, digit] for digit in range(10)])
    ring = np.array([against_rings[number, place, digit][0] for digit in range(10)])
    darkest = int(np.argmax(local))
    if local[darkest] > threshold or against_rings[number, place, darkest][1]:
        return None
    stands_out, next_out = [], []
    for values in (local, ring):
        rest = np.delete(values, darkest)
        stands_out.append(float(values[darkest] - np.median(rest)))
        following = int(np.argmax(rest))
        next_out.append(float(rest[following] - np.median(np.delete(rest, following))))
    alone = max(next_out) < bar / 2 and abs(stands_out[0] - stands_out[1]) < bar
    return darkest if alone and min(stands_out) > bar else None


def _round_score(tens: int | None, units: int | None) -> int | None:
    """A round score from its bubbles. DECISION: a units bubble alone is a score under 10 (tens 0); a tens
    bubble alone is that many tens (units 0); no bubble filled is an unknown score (None)."""
    if tens is None and units is None:
        return None
    return (tens or 0) * 10 + (units or 0)


# --- the trace's pictures (SheetRead.show) -------------------------------------------------------------------
def _paper_picture(read: SheetRead) -> np.ndarray:
    """The sheet, washed over where it is not taken as paper."""
    return pictures.washed(read.sheet, ~read.trusted, pictures.NOT_PAPER)


def _shadows_picture(read: SheetRead) -> np.ndarray:
    """The sheet with the shadows taken out: where they were washed in blue, their edge in red."""
    inside = pictures.washed(read.unshadowed, read.shadows.gain < 1.0, pictures.SHADOW, 0.3)
    return pictures.washed(inside, read.shadows.edge, pictures.EDGE)


def _light_picture(read: SheetRead) -> np.ndarray:
    """The light the cells are read in: the paper's brightness as estimated everywhere, against its median (grey;
    black half as bright, white half as bright again)."""
    return pictures.grey(read.light.paper / max(read.light.paper_level, 1.0), 0.5, 1.5)


def _ink_picture(read: SheetRead) -> np.ndarray:
    """The ink in that light, with the cells that joined the paper framed in green."""
    boxes = cell_boxes(read.tuning.cell_inset_mm)
    return pictures.framed(pictures.ink(read.light.ink),
                           [(boxes[i], pictures.PAPER, "") for i in sorted(read.paper_cells)])


def _variation_picture(read: SheetRead) -> np.ndarray:
    """How steeply the light changes (white: twice the steepness that is a hard shadow's edge), with the cells
    read as near a shadow framed in red."""
    boxes = cell_boxes(read.tuning.cell_inset_mm)
    return pictures.framed(pictures.grey(read.variation, 0.0, 2 * read.tuning.shadow_variation),
                           [(boxes[i], pictures.EDGE, "") for i in sorted(read.shadowed | read.brightened)])


def _strokes_picture(read: SheetRead) -> np.ndarray:
    """The strokes over the grid, with the cells that may be stained framed in orange."""
    boxes = cell_boxes(read.tuning.cell_inset_mm)
    mask, x0, y0 = read.strokes.mask, read.strokes.x0, read.strokes.y0
    strokes = pictures.pasted(read.sheet.shape, [((x0, y0, x0 + mask.shape[1], y0 + mask.shape[0]),
                                                  pictures.ink(mask))])
    return pictures.framed(strokes, [(boxes[i], pictures.DOUBT, "stain") for i in sorted(read.stains)])


def _cells_picture(read: SheetRead) -> np.ndarray:
    """The ink, each cell's interior framed by what was decided (blue shaded, grey empty, orange in doubt) with
    the ink measured in it."""
    boxes = cell_boxes(read.tuning.cell_inset_mm)
    return pictures.framed(pictures.ink(read.light.ink), [
        (boxes[i], _verdict(read.confidences[i], read.quilt.is_covered(*divmod(i, SIZE)), read.tuning,
                            pictures.SHADED), f"{read.values[i]:.2f}")
        for i in range(SIZE * SIZE)])


def _verdict(confidence: float, marked: bool, t: ReaderTuning, colour: pictures.Colour = pictures.PAPER
             ) -> pictures.Colour:
    """The colour of a mark read: in doubt, marked (`colour`) or not."""
    if confidence < t.uncertain_below:
        return pictures.DOUBT
    return colour if marked else pictures.EMPTY
