"""Strokes that cross a cell's printed sides. A mark drawn within one cell's lines and across it (a slash from
corner to corner, an X) is that cell's, as a player means it; a line that runs on through a side into the next
cell (a stray line, a scribble's pass) is not the cell's alone, and says nothing by itself.

Each printed line is read in two strips, one on either side of it and clear of it. What runs along the line (the
printed line, an outline drawn over or beside it) is taken out first, as is what runs straight across it at each
corner (the line across, or an outline beside that): each runs further than any stroke across them is wide. A
stroke crossing the line spans one strip, and carried on along its own slant it lands on ink all the way across
the other (a stroke of its own there, or the dense strokes of a shaded cell).

Near a corner, the slashes of two cells that touch corner to corner meet as a line through it would. A stroke
crossing there counts only if it runs on along its slant well into the cells on both sides (a slash's end next to
an empty cell does not), and then it joins the two cells it runs through: each holds its own mark only when its
strokes lie along that diagonal from end to end, it touches another marked cell side to side (as a patch's cells
do), and the other cell does too. A line along the cells' diagonals ends somewhere, in a cell it does not run
across or off the grid, and so none of its cells holds a mark of its own; and where it runs on past a corner
beside the slash of the cell across it (two slashes meet as one line), the cell it comes from holds none. The
values it decides with are `tuning.ReaderTuning`'s `crossing_*`, with their evidence.
"""

from __future__ import annotations

import cv2
import numpy as np

from doodle.quilt import SIZE
from doodle.sheet import layout
from doodle.sheet.outline import drawn_on_own_side, joined
from doodle.sheet.strokes import StrokeMap, side_neighbours
from doodle.sheet.tuning import TUNING, ReaderTuning


def crossing_margin_px(px_per_mm: float, t: ReaderTuning = TUNING) -> int:
    """How far past the cells' interiors a stroke map must reach to read the grid's outer lines."""
    return round((t.cell_inset_mm + t.crossing_run_on_mm + 1.0) * px_per_mm)


Crossings = tuple[set[tuple[str, int, int]], set[tuple[frozenset[int], bool]]]


def passed_through(found: Crossings, cells: set[int], least: int = 2) -> set[int]:
    """The `cells` (index row * 9 + col) with at least `least` of their sides crossed by strokes (`crossings`):
    with two, a line enters and leaves them."""
    crossed, _ = found
    return {index for index in cells if len(crossed & _sides(index)) >= least}


def confined_cells(strokes: StrokeMap, boxes: tuple[tuple[int, int, int, int], ...], cells: set[int],
                   px_per_mm: float, t: ReaderTuning = TUNING, clean: np.ndarray | None = None,
                   drawn: dict[str, np.ndarray] | None = None, found: Crossings | None = None) -> set[int]:
    """The `cells` (index row * 9 + col) whose strokes run across them from side to side and top to bottom and
    cross none of their sides: a mark of the cell's own. `strokes` must reach `crossing_margin_px` past the cells'
    interiors (`boxes`); `clean` is its `without_grid_lines`, when already made; `drawn` is where outlines are
    drawn (`outline.drawn_sides`), when known; `found`, its `crossings`, when already made.

    Running across the cell, as a slash or an X does: the end of a line coming in through a corner need not
    (slash-stray-line 0, 6 and 10 read such a cell as shaded, unflagged), nor a line crossing the cell at a
    shallow slant whose crossing was not seen (stray-line 10002: where it crossed by a corner, square to the
    line, as an outline would, and where it ran into a scribble's strokes). A stroke through a corner may be the
    slashes of two cells that touch there corner to corner, or a line that runs on through it: such a cell holds
    its own mark only when it touches a slashed cell side to side, as a patch of slashes does, its strokes lie
    along that diagonal all the way across it, and the cell across that corner holds its own mark too
    (a line along the cells' diagonals ends somewhere: in a cell it does not run across, beside a slash of the
    other slant, or off the grid: slash-stray-line 9, 10 and 14). A cell with no outline of its own whose every
    marked neighbour lies beyond a drawn outline, of other patches, is vouched for by none, nor its partner
    across the corner (slash-stray-line 230016: a line corner to corner through g3 and h2, read as two slashes,
    unflagged: g3 between two patches outlined apart and two empty cells); the partner's others keep theirs. A
    cell whose line runs on past a corner beside the slash across it holds no mark of its own (slash-stray-line
    90005 and 270003: c3 and h9, read as slashes, unflagged); the cell across keeps its own."""
    if not cells:
        return set()
    if clean is None:
        clean = without_grid_lines(strokes, px_per_mm, t)
    crossed, corners = found if found is not None else crossings(strokes, clean, px_per_mm, t)
    corners = set(corners)  # added to below: the caller's stays as found
    candidates = {index for index in cells
                  if not crossed & _sides(index) and _runs_across(strokes.at(boxes[index]), t)}
    # Which of its diagonals ("\\" True, "/" False) each candidate's strokes lie along, end to end.
    diagonals = {index: {falling for falling in (True, False)
                         if _along_diagonal(_in_cell(clean, strokes, index, px_per_mm, t), falling, t)}
                 for index in candidates}
    slants = _Slants(clean, px_per_mm, t)
    for index in candidates:
        corners |= _run_on_past_corners(slants, strokes, index, diagonals[index] | _into_a_corner(slants, strokes,
                                        index, px_per_mm, t), px_per_mm, t)
    ran_on, beside = _run_on_beside(clean, strokes, corners, candidates, px_per_mm, t)
    corners -= beside
    # The cells that hold a slash: a few strokes (not shading, where ink lies along every line) along a diagonal.
    # A slash through a corner is one of a patch of slashes (stray-line 180006: a line along f4's and g3's
    # diagonals, from corner to corner, beside the scribbled cells of other patches, read as two slashes).
    slashed = {index for index in candidates if strokes.shares[index] < t.stroke_dense and diagonals[index]}
    own, apart = set(), set()
    for index in candidates - ran_on:
        touching = {r * SIZE + c for r, c in side_neighbours(index)}
        through = {falling for pair, falling in corners if index in pair}
        if through and not (touching & slashed and through <= diagonals[index]):
            continue
        if through and drawn is not None and not drawn_on_own_side(drawn, index) and not any(
                joined(drawn, index, other) for other in touching & cells):
            apart.add(index)  # vouched for only by slashes of patches outlined apart from it, no outline of its own
        own.add(index)
    # The cells across a corner from one another hold their own marks together, or neither does. A cell as full of
    # strokes as shading is never a slash's partner: a line running on into it may end anywhere in its strokes
    # (stray-line 60007: a line along two cells' diagonals from one shaded patch's corner into another's cell).
    full = {index for index in cells if strokes.shares[index] >= t.crossing_full_share}
    while broken := {index for pair, _ in corners if not pair <= own - full for index in pair} & own:
        own -= broken
    # A cell vouched for only across a drawn outline, and its partner across the corner, hold no marks of their own;
    # the partner's other partners keep theirs (a chain of slashes, each vouched for, is not undone from one end).
    return own - apart - {index for pair, _ in corners if pair & apart for index in pair}


def _run_on_beside(clean: np.ndarray, strokes: StrokeMap, corners: set[tuple[frozenset[int], bool]],
                   candidates: set[int], px_per_mm: float,
                   t: ReaderTuning) -> tuple[set[int], set[tuple[frozenset[int], bool]]]:
    """The cells whose line through a corner runs on beside the slash of the cell across it, and those corners.
    Two slashes that meet at a corner make one line; a line that runs on past a slash's end, beside it, along the
    cell's diagonal is a line of its own (a stray line, corner to corner through an empty cell): the cell it
    comes from, a single line there, holds no mark of its own; the cell across keeps its slash."""
    ran_on, beside = set(), set()
    half = layout.CELL_MM / np.sqrt(2)
    for pair, falling in corners:
        if not pair <= candidates or any(strokes.shares[index] >= t.crossing_full_share for index in pair):
            continue  # a cell as full of strokes as shading holds lines side by side, and is no slash's partner
        upper, lower = sorted(pair)
        # The corner is the lower end of the upper cell's diagonal, the upper end of the lower cell's.
        lengths = {index: _side_by_side_mm(_in_cell(clean, strokes, index, px_per_mm, t), falling, at_start, half,
                                           px_per_mm, t)
                   for index, at_start in ((upper, not falling), (lower, falling))}
        doubled = {index for index, length in lengths.items() if length >= t.crossing_beside_mm}
        if len(doubled) == 1:
            ran_on |= pair - doubled
            beside.add((pair, falling))
    return ran_on, beside


def _in_cell(clean: np.ndarray, strokes: StrokeMap, index: int, px_per_mm: float, t: ReaderTuning) -> np.ndarray:
    """The part of `clean` (a mask the stroke map's size) over a cell, up to `t.crossing_clear_mm` from its lines."""
    x0, y0, x1, y1 = layout.cell_rect(*divmod(index, SIZE)).inset(t.crossing_clear_mm).to_px(px_per_mm)
    return clean[y0 - strokes.y0 : y1 - strokes.y0, x0 - strokes.x0 : x1 - strokes.x0]


class _Slants:
    """Where the strokes (`without_grid_lines`) run at least `t.crossing_slant_mm` along a diagonal slant, widened
    by `t.crossing_meet_mm` (a line's wobble), for each slant when first asked for."""

    def __init__(self, clean: np.ndarray, px_per_mm: float, t: ReaderTuning) -> None:
        self.clean, self.made = clean, {}
        self.size = max(round(t.crossing_slant_mm * px_per_mm / np.sqrt(2)), 2)
        self.widen = np.ones((2 * max(round(t.crossing_meet_mm * px_per_mm), 1) + 1,) * 2, np.uint8)

    def near(self, falling: bool) -> np.ndarray:
        if falling not in self.made:
            kernel = np.eye(self.size, dtype=np.uint8)
            along = cv2.morphologyEx(self.clean.astype(np.uint8), cv2.MORPH_OPEN,
                                     kernel if falling else np.fliplr(kernel).copy(),
                                     borderType=cv2.BORDER_CONSTANT, borderValue=0)
            self.made[falling] = cv2.dilate(along, self.widen).astype(bool)
        return self.made[falling]


def _run_on_past_corners(slants: _Slants, strokes: StrokeMap, index: int, diagonals: set[bool], px_per_mm: float,
                         t: ReaderTuning) -> set[tuple[frozenset[int], bool]]:
    """The corners through which a cell's strokes run on along one of its diagonals into a cell as full of strokes
    as shading (never a slash's partner), as `crossings` gives them: the two cells the line runs through there
    and whether it falls to the right. Into such a cell, the strips by the corner hold no single stroke to carry
    across (its strokes, an outline crowding the corner); so the line's own slant is followed past the corner
    instead, in the strokes that run along that slant (a scribble's, at other slants, drop out: stray-line 150022,
    a line from f8's corner on along its diagonal 10 mm into g7's scribble, read as f8's slash). It is followed
    from the corner along the diagonal, and from where the line the cell's strokes lie on leaves the cell, within
    `t.crossing_slant_mm` of the corner, along that line: a line a few degrees off the diagonal passes a
    millimetre or two beside the corner (blind stray-line 800016: 1.9 mm beside c6's corner into b5's hatching,
    and on into d7's zigzag; c6, empty, read as a slash). So too past a corner on the grid's border, off the grid
    (index -1): players draw within it (blind stray-line 820022: a line along i6's diagonal and out past the
    border at its corner, where no crossing was seen beside i7's fill; i6, empty, read as a slash). Beside a
    sparse cell, the slashes of a patch often nearly meet at a corner, and only a stroke seen crossing there
    counts. `diagonals`: those the cell's strokes lie along ("\\" True, "/" False)."""
    row, col = divmod(index, SIZE)
    ends = _diagonal_corners(index, px_per_mm)
    found = set()
    for falling in diagonals:
        line = None
        for corner, (dx, dy) in ends[falling]:
            r, c = row + dy, col + dx
            off_grid = not (0 <= r < SIZE and 0 <= c < SIZE)
            if not off_grid and strokes.shares[r * SIZE + c] < t.crossing_full_share:
                continue
            at = np.array(corner, np.float64) - (strokes.x0, strokes.y0)
            starts = [(at, np.array((dx, dy)) / np.sqrt(2))]
            line = line or _line_along(slants.clean, strokes, index, falling, px_per_mm, t)
            if line:
                starts.append(_leaving(line, index, (dx, dy), strokes, px_per_mm))
            if any(exit_ is not None and float(np.hypot(*(exit_ - at))) <= t.crossing_slant_mm * px_per_mm
                   and _runs_on_slant(slants.near(falling), exit_, way, px_per_mm, t) for exit_, way in starts):
                found.add((frozenset({index, -1 if off_grid else r * SIZE + c}), falling))
    return found


def _line_along(clean: np.ndarray, strokes: StrokeMap, index: int, falling: bool, px_per_mm: float,
                t: ReaderTuning) -> tuple[np.ndarray, np.ndarray] | None:
    """The straight line (a point and a unit vector, in the stroke map's pixels) fitted to a cell's strokes within
    `t.crossing_diagonal_reach` of its falling ("\\") or rising ("/") diagonal, as `_along_diagonal` takes them;
    None with fewer than a crossing_slant_mm's worth of pixels there."""
    x0, y0, x1, y1 = layout.cell_rect(*divmod(index, SIZE)).inset(t.crossing_clear_mm).to_px(px_per_mm)
    mask = _in_cell(clean, strokes, index, px_per_mm, t)
    ys, xs = np.nonzero(mask)
    height, width = mask.shape
    x, y = xs / max(width - 1, 1), ys / max(height - 1, 1)
    off = (x - (y if falling else 1.0 - y)) / 2
    keep = np.abs(off) <= t.crossing_diagonal_reach
    if keep.sum() < t.crossing_slant_mm * px_per_mm:
        return None
    points = np.column_stack([xs[keep] + x0 - strokes.x0, ys[keep] + y0 - strokes.y0]).astype(np.float32)
    vx, vy, cx, cy = cv2.fitLine(points, cv2.DIST_L2, 0, 0.01, 0.01).ravel()
    return np.array((cx, cy), np.float64), np.array((vx, vy), np.float64)


def _leaving(line: tuple[np.ndarray, np.ndarray], index: int, way: tuple[int, int], strokes: StrokeMap,
             px_per_mm: float) -> tuple[np.ndarray | None, np.ndarray]:
    """Where `line` leaves cell `index` going `way` (a diagonal step, out past one of its corners), in the stroke
    map's pixels, and its unit vector pointing out there; the point is None when the line misses the cell."""
    point, unit = line
    if float(np.dot(unit, way)) < 0:
        unit = -unit
    left, top, right, bottom = layout.cell_rect(*divmod(index, SIZE)).to_px(px_per_mm)
    rect = (left - strokes.x0, top - strokes.y0, right - left + 1, bottom - top + 1)
    far = 2.0 * (right - left)
    crosses, enter, leave = cv2.clipLine(rect, tuple(int(v) for v in np.round(point - far * unit)),
                                         tuple(int(v) for v in np.round(point + far * unit)))
    return (np.array(leave, np.float64) if crosses else None), unit


def _into_a_corner(slants: _Slants, strokes: StrokeMap, index: int, px_per_mm: float, t: ReaderTuning) -> set[bool]:
    """The diagonals ("\\" True, "/" False) along which a cell's strokes run into one of that diagonal's corners (to
    within t.crossing_slant_mm of it, clear of the lines), though not from end to end: a line coming from the
    cell's middle out through its corner (blind stray-line 400016: from b1's middle through its corner 5 mm on
    into c2's scribble, read as b1's slash, unflagged)."""
    near, clear = round(t.crossing_slant_mm * px_per_mm), round(t.crossing_clear_mm * px_per_mm)
    found = set()
    for falling, ends in _diagonal_corners(index, px_per_mm).items():
        for (x, y), (dx, dy) in ends:  # into the cell from its corner: against the way out
            xs = sorted(max(x - strokes.x0 - dx * reach, 0) for reach in (clear, near))
            ys = sorted(max(y - strokes.y0 - dy * reach, 0) for reach in (clear, near))
            window = slice(ys[0], ys[1]), slice(xs[0], xs[1])
            if (slants.near(falling)[window] & slants.clean[window]).sum() >= t.crossing_speck_px:
                found.add(falling)
    return found


def _diagonal_corners(index: int, px_per_mm: float) -> dict[bool, tuple[tuple[tuple[int, int], tuple[int, int]], ...]]:
    """Each diagonal's ("\\" True, "/" False) two corners of a cell, in the sheet image's pixels, and the way out of
    the cell past each."""
    x0, y0, x1, y1 = layout.cell_rect(*divmod(index, SIZE)).to_px(px_per_mm)
    return {True: (((x0, y0), (-1, -1)), ((x1, y1), (1, 1))), False: (((x0, y1), (-1, 1)), ((x1, y0), (1, -1)))}


def _runs_on_slant(near: np.ndarray, start: np.ndarray, unit: np.ndarray, px_per_mm: float, t: ReaderTuning) -> bool:
    """Whether the line from `start` along `unit` (the stroke map's pixels) lies `near` strokes at its slant
    (`_Slants`), from `t.crossing_reach_mm` to `t.crossing_run_on_mm` past it, in `t.crossing_landed_share` of it."""
    steps = np.arange(t.crossing_reach_mm * px_per_mm, t.crossing_run_on_mm * px_per_mm + 1.0)
    points = np.round(start + unit * steps[:, None]).astype(int)
    height, width = near.shape
    inside = (points[:, 0] >= 0) & (points[:, 0] < width) & (points[:, 1] >= 0) & (points[:, 1] < height)
    hits = int(near[points[inside, 1], points[inside, 0]].sum())
    return bool(len(steps)) and hits >= t.crossing_landed_share * len(steps)


def _along_diagonal(mask: np.ndarray, falling: bool, t: ReaderTuning) -> bool:
    """Whether the strokes in a cell lie along its falling ("\\") or rising ("/") diagonal from end to end: within
    `t.crossing_diagonal_reach` of it (a share of the cell), from `t.crossing_diagonal_ends` of the way along it or
    less to as far from its other end, through its middle, and with no gap wider than that along it. A slash does;
    the end of a line through one corner does not reach the other, though the slash of the other slant crosses its
    middle and an outline's corner may lie at its other end (slash-stray-line 90019: c3, its own "\\" and a stray
    line's end 70% of the way along "/", then the corner of the outline at the top right)."""
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return False
    height, width = mask.shape
    x, y = xs / max(width - 1, 1), ys / max(height - 1, 1)
    if not falling:
        y = 1.0 - y
    along, off = (x + y) / 2, (x - y) / 2
    along = np.sort(along[np.abs(off) <= t.crossing_diagonal_reach])
    ends = t.crossing_diagonal_ends
    return bool(len(along) and along.min() <= ends and along.max() >= 1 - ends
                and (np.abs(along - 0.5) <= ends / 2).any() and np.diff(along).max(initial=0.0) <= ends)


def _runs_across(mask: np.ndarray, t: ReaderTuning) -> bool:
    """Whether the strokes in a box span `t.crossing_span_share` of it both ways (specks left out)."""
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    pieces = [stats[label] for label in range(1, count) if stats[label, cv2.CC_STAT_AREA] >= t.crossing_speck_px]
    if not pieces:
        return False
    left = min(piece[cv2.CC_STAT_LEFT] for piece in pieces)
    right = max(piece[cv2.CC_STAT_LEFT] + piece[cv2.CC_STAT_WIDTH] for piece in pieces)
    top = min(piece[cv2.CC_STAT_TOP] for piece in pieces)
    bottom = max(piece[cv2.CC_STAT_TOP] + piece[cv2.CC_STAT_HEIGHT] for piece in pieces)
    height, width = mask.shape
    return min((right - left) / width, (bottom - top) / height) >= t.crossing_span_share


def _sides(index: int) -> set[tuple[str, int, int]]:
    """A cell's sides as (direction, line, cell along it): horizontal line r is the top of row r."""
    row, col = divmod(index, SIZE)
    return {("h", row, col), ("h", row + 1, col), ("v", col, row), ("v", col + 1, row)}


def crossings(strokes: StrokeMap, lines: np.ndarray, px_per_mm: float, t: ReaderTuning = TUNING) -> Crossings:
    """The sides crossed; and, for each stroke through a corner at a slant (within `t.outline_band_mm` of it), the
    two cells it runs through there (an index of -1 for off the grid) and whether it falls to the right ("\\").
    `lines`: the stroke map without the grid's lines (`without_grid_lines`)."""
    grid, cell = layout.GRID_RECT, layout.CELL_MM * px_per_mm
    top, left = grid.y * px_per_mm - strokes.y0, grid.x * px_per_mm - strokes.x0
    corner = t.outline_band_mm * px_per_mm  # an outline along the line across lies this near the corner
    crossed, corners = set(), set()
    for direction, mask, across, along, clean in (("h", strokes.mask, top, left, lines),
                                                  ("v", strokes.mask.T, left, top, lines.T)):
        lines_across = near_lines(mask.shape[1], along, cell, corner)  # printed, or an outline drawn beside
        for line in range(SIZE + 1):
            for where, slope in _crossings(mask, across + line * cell, lines_across, px_per_mm, t):
                part, offset = divmod(where - along, cell)
                nearest = round((where - along) / cell)  # the line across whose corner it passes near
                if min(offset, cell - offset) > corner:
                    if 0 <= part < SIZE:
                        crossed.add((direction, line, int(part)))
                elif abs(slope) >= t.crossing_corner_slope and _runs_on(
                        clean, across + line * cell, where, slope, px_per_mm, t,
                        mask if _on_border(line, nearest) else None):
                    row, col = (line, nearest) if direction == "h" else (nearest, line)
                    # Through the corner where lines row and col meet: a stroke down to the right ("\", a positive
                    # slope either way) runs from the cell above and left of it to the one below and right.
                    ends = ((row - 1, col - 1), (row, col)) if slope > 0 else ((row - 1, col), (row, col - 1))
                    pair = frozenset(r * SIZE + c if 0 <= r < SIZE and 0 <= c < SIZE else -1 for r, c in ends)
                    corners.add((pair, slope > 0))
    return crossed, corners


def _on_border(line: int, nearest: int) -> bool:
    """Whether the corner where `line` meets the line across it numbered `nearest` lies on the grid's border."""
    return line in (0, SIZE) or nearest in (0, SIZE)


def without_grid_lines(strokes: StrokeMap, px_per_mm: float, t: ReaderTuning = TUNING) -> np.ndarray:
    """The stroke map with what runs along the grid's lines near them taken out: the printed lines, and outlines
    drawn over or beside them (a slash's end carried on past a corner lands on an outline there)."""
    grid, cell = layout.GRID_RECT, layout.CELL_MM * px_per_mm
    band, run = t.outline_band_mm * px_per_mm, round(t.crossing_along_mm * px_per_mm)
    mask = strokes.mask.astype(np.uint8)
    along = np.zeros_like(mask)
    for axis, start, kernel in ((0, grid.y * px_per_mm - strokes.y0, (1, run)),
                                (1, grid.x * px_per_mm - strokes.x0, (run, 1))):
        near = near_lines(mask.shape[axis], start, cell, band)
        runs = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones(kernel, np.uint8), borderType=cv2.BORDER_CONSTANT,
                                borderValue=0)
        along |= runs * (near[:, None] if axis == 0 else near[None, :])
    return (mask & (1 - along)).astype(bool)


def on_print(shape: tuple[int, ...], origin: tuple[int, int], px_per_mm: float, t: ReaderTuning = TUNING
             ) -> np.ndarray:
    """Where (bool, `shape`: a stroke map's, its (0, 0) at `origin` in the sheet image) the grid's printed lines
    lie, to within `t.crossing_clear_mm`: what is left of them there shows nothing either way of a pencil's strokes."""
    grid, cell, band = layout.GRID_RECT, layout.CELL_MM * px_per_mm, t.crossing_clear_mm * px_per_mm
    rows = near_lines(shape[0], grid.y * px_per_mm - origin[1], cell, band)
    cols = near_lines(shape[1], grid.x * px_per_mm - origin[0], cell, band)
    return (rows[:, None] | cols[None, :]).astype(bool)


def near_lines(size: int, first: float, cell: float, band: float) -> np.ndarray:
    """Along one axis of `size` pixels, 1 within `band` of the grid's lines (the first at `first`, `cell` apart)."""
    near = np.zeros(size, np.uint8)
    for line in range(SIZE + 1):
        at = first + line * cell
        near[max(round(at - band), 0) : max(round(at + band) + 1, 0)] = 1
    return near


def _crossings(mask: np.ndarray, line_y: float, lines_across: np.ndarray, px_per_mm: float,
               t: ReaderTuning) -> list[tuple[float, float]]:
    """Where strokes cross the horizontal line at `line_y` in the boolean `mask`: (pixels along it, the stroke's
    run along the line per pixel across it). `lines_across`: 1 in the columns where a vertical line of the grid
    lies, or an outline beside it: what runs straight across there is left out."""
    reach, clear = round(t.crossing_reach_mm * px_per_mm), round(t.crossing_clear_mm * px_per_mm)
    y = round(line_y)
    y0, y1 = y - reach, y + reach + 1
    if y0 < 0 or y1 > mask.shape[0]:
        return []
    band = mask[y0:y1].astype(np.uint8)
    run = round(t.crossing_along_mm * px_per_mm)
    # (Runs are counted within the band: past its edges is no ink.)
    along = cv2.morphologyEx(band, cv2.MORPH_OPEN, np.ones((1, run), np.uint8), borderType=cv2.BORDER_CONSTANT,
                             borderValue=0)
    # (A thin printed line is broken in places in the stroke map: closed first, or a slash carried on past its
    # corner lands on it.)
    upright = cv2.morphologyEx(band, cv2.MORPH_CLOSE, np.ones((t.crossing_break_px, 1), np.uint8))
    across = cv2.morphologyEx(upright, cv2.MORPH_OPEN, np.ones((min(run, band.shape[0]), 1), np.uint8),
                              borderType=cv2.BORDER_CONSTANT, borderValue=0)
    band &= (1 - along) & (1 - across * lines_across)
    strips = ((band[: reach - clear], y0), (band[reach + clear + 1 :], y + clear + 1))
    tolerance = round(t.crossing_meet_mm * px_per_mm)
    widest = t.crossing_stroke_mm * px_per_mm
    found = []
    # A stroke on either side carried on across the line lands on ink all the way across the other side (which
    # may be shaded densely, where no single stroke stands out).
    for (strip, strip_y), (other, other_y) in (strips, strips[::-1]):
        xs, slopes = _carried(strip, strip_y, line_y, widest)
        if not len(xs):
            continue
        rows = np.arange(other.shape[0])
        at = np.round(xs[:, None] + slopes[:, None] * (other_y + rows - line_y)).astype(int)  # all strokes at once
        landed = _landed(_row_sums(other, rows), at, tolerance) >= t.crossing_landed_share
        found += zip(xs[landed], slopes[landed], strict=True)
    return found


def _runs_on(mask: np.ndarray, line_y: float, x: float, slope: float, px_per_mm: float, t: ReaderTuning,
             before: np.ndarray | None = None) -> bool:
    """Whether a stroke crossing the horizontal line at `line_y` near a corner runs on along its slant into the
    cells on both sides, further than the strips it was found in: a line through the corner does; a slash that
    ends at the corner, carried on over what lies there (an outline's corner, the printed lines' ends), does not.

    `mask` has the grid's lines taken out (`without_grid_lines`); `before`, given for a corner on the grid's border,
    is the stroke map they were taken out of. Where the stroke carried on lands on what was taken out there (it
    crosses the border, printed bold), it may run on under it or end: those rows tell nothing, and it is judged on
    the rest, when at least half of them are left (stray-line 570014, blind: a line from the margin through the
    grid's bottom border a millimetre from b9's corner, ending in b9; cut where it crossed the border, it was not
    seen to run on, and b9 read as slashed). Inside the grid, what was taken out is mostly an outline along a line,
    where a slash ends (given there, the slash families had 1-3 more photos in doubt)."""
    near, far = round(t.crossing_reach_mm * px_per_mm), round(t.crossing_run_on_mm * px_per_mm)
    tolerance = round(t.crossing_meet_mm * px_per_mm)
    y = round(line_y)
    taken_out = None if before is None else before & ~mask
    for rows in (np.arange(y - far, y - near), np.arange(y + near + 1, y + far + 1)):
        rows = rows[(rows >= 0) & (rows < mask.shape[0])]
        at = np.round(x + slope * (rows - line_y)).astype(int)
        hits = _hits(_row_sums(mask, rows), at, tolerance)
        # Hidden: the very point it lands on was taken out (a point merely near the border is seen).
        seen = np.ones_like(hits) if taken_out is None else hits | ~_hits(_row_sums(taken_out, rows), at, 0)
        if 2 * np.count_nonzero(seen) < len(rows) or not seen.any() or (
                hits[seen].mean() < t.crossing_landed_share):
            return False
    return True


def _row_sums(mask: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The running count of ink along each of `rows` of `mask`, from 0 before its first column."""
    sums = np.zeros((len(rows), mask.shape[1] + 1), np.int32)
    np.cumsum(mask[rows], axis=1, out=sums[:, 1:])
    return sums


def _landed(sums: np.ndarray, at: np.ndarray, tolerance: int) -> np.ndarray:
    """The share of rows (their `_row_sums`) with ink within `tolerance` pixels of column `at` in each (0 for
    none): for each line of columns in `at` (its last axis the rows; a 1-D `at` gives one share)."""
    if len(sums) == 0:
        return np.zeros(at.shape[:-1])
    return _hits(sums, at, tolerance).mean(axis=-1)


def _hits(sums: np.ndarray, at: np.ndarray, tolerance: int) -> np.ndarray:
    """Whether each row (its `_row_sums`) has ink within `tolerance` pixels of its column in `at` (its last axis
    the rows)."""
    width = sums.shape[1] - 1
    lo, hi = np.clip(at - tolerance, 0, width), np.clip(at + tolerance + 1, 0, width)
    index = np.arange(len(sums))
    return sums[index, np.maximum(hi, lo)] > sums[index, lo]


def _carried(strip: np.ndarray, strip_y: int, line_y: float, widest: float) -> tuple[np.ndarray, np.ndarray]:
    """The single strokes that run across the whole `strip` (its first row at `strip_y`), each carried on along its
    own slope to `line_y`: where each would meet that line, and its slope (pixels along per pixel across), in the
    order of their labels. A single stroke is one run in every row, no wider than `widest` on average: not a blob
    of dense strokes, nor a scribble's turn (two runs where its arms part, whose middle does not lie on either)."""
    height, width = strip.shape
    if height < 2:
        return np.zeros(0), np.zeros(0)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(strip, connectivity=8)
    # All labels at once: where each row's runs of each label start, and the columns of each in the first and last
    # rows (sums of whole numbers, exact: their means are np.mean's).
    starts = (labels != 0) & np.concatenate((np.ones((height, 1), bool), labels[:, 1:] != labels[:, :-1]), axis=1)
    row_of = np.broadcast_to(np.arange(height)[:, None], labels.shape)[starts]
    runs = np.bincount(labels[starts] * height + row_of, minlength=count * height).reshape(count, height)
    columns = np.arange(width, dtype=np.float64)
    first_sum, last_sum = (np.bincount(labels[row], weights=columns, minlength=count) for row in (0, -1))
    first_count, last_count = (np.bincount(labels[row], minlength=count) for row in (0, -1))
    single = ((stats[:, cv2.CC_STAT_TOP] == 0) & (stats[:, cv2.CC_STAT_HEIGHT] == height)
              & ~(stats[:, cv2.CC_STAT_AREA] > widest * height) & (runs.max(axis=1) <= 1))
    single[0] = False  # the background
    left = stats[single, cv2.CC_STAT_LEFT]
    first = left + (first_sum[single] - left * first_count[single]) / first_count[single]
    last = left + (last_sum[single] - left * last_count[single]) / last_count[single]
    slope = (last - first) / (height - 1)
    return first + slope * (line_y - strip_y), slope


def _side_by_side_mm(mask: np.ndarray, falling: bool, at_start: bool, reach_mm: float, px_per_mm: float,
                     t: ReaderTuning) -> float:
    """The longest stretch of a cell's diagonal (mm), within `reach_mm` of one of its ends, along which two lines
    run side by side: across it, within `t.crossing_diagonal_reach` of it, two runs of strokes with paper between
    them, each where one was a step before (a line across the diagonal moves on at every step). `mask`: the
    cell's strokes (`_in_cell`); `at_start`: the end at the top ("\\" from the top left, "/" from the bottom
    left) rather than the other."""
    ys, xs = np.nonzero(mask)
    height, width = mask.shape
    if not falling:
        ys = height - 1 - ys
    # Along the diagonal (x + y) and across it (x - y), in pixel steps; two steps along make one bin, so that
    # every step across is on the grid (x + y and x - y have the same parity).
    along, across = xs + ys, xs - ys
    band = t.crossing_diagonal_reach * 2 * (min(width, height) - 1)
    reach = reach_mm * px_per_mm * np.sqrt(2)
    near_end = (along <= reach) if at_start else (along >= width + height - 2 - reach)
    keep = (np.abs(across) <= band) & near_end
    bins, across = along[keep] // 2, across[keep]
    longest = stretch = 0
    before: list[float] = []
    for step in np.unique(bins):
        steps = np.unique(across[bins == step])
        runs = np.split(steps, np.nonzero(np.diff(steps) >= 2)[0] + 1)
        centres = [float(run.mean()) for run in runs if len(run) >= 2]
        if len(centres) < 2:
            stretch, before = 0, []
            continue
        kept = sum(any(abs(centre - other) <= 1.5 for other in before) for centre in centres)
        stretch = stretch + 1 if kept >= 2 else 1
        before = centres
        longest = max(longest, stretch)
    return longest * np.sqrt(2) / px_per_mm
