"""Stray lines: a long straight line that turns back at neither end is a slip of the pencil, a line to cross out or
a pencil laid on the sheet, not a way of shading. A loose scribble's pass is as straight and as long, but the pen
turns back at both its ends into the next pass; a slash stays in its cell, and the slashes of a patch that line up
run from one cell's corner to another's. A cell whose ink says empty and whose only mark is such a line is read
empty, in doubt (it was read shaded, in doubt: stray-line 0-23, 4 photos of 24 exact before, 10 after).

The values it decides with are `tuning.ReaderTuning`'s `stray_*`, with their evidence.
"""

from __future__ import annotations

from collections.abc import Set

import numpy as np

from doodle.sheet import layout
from doodle.sheet.crossings import on_print
from doodle.sheet.passes import apart, line_runs_on, near_cells
from doodle.sheet.pictures import Box
from doodle.sheet.scribbles import along_pieces, beyond_grid_mm, cells_at, chained, mostly_along, off_line
from doodle.sheet.tuning import TUNING, ReaderTuning


def stray_line_cells(cells: set[int], paper: set[int], pieces: np.ndarray, clean: np.ndarray,
                     origin: tuple[int, int], boxes: tuple[Box, ...], px_per_mm: float, t: ReaderTuning = TUNING,
                     *, off_grid: bool = False, marked: Set[int] = frozenset(), ink: np.ndarray | None = None,
                     stroke_ink: float | None = None, sure: set[int] | None = None) -> set[int]:
    """Of `cells` (index row * 9 + col), those whose strokes mostly lie along one straight line at least
    `t.stray_line_least_mm` long that turns back at neither end (`_turns_back`) and does not run from one cell's
    corner to another's along their diagonals; with `off_grid`, only a line with an end off the grid. Given the
    sheet image's `ink` (`FlatField.ink`), so is a shorter one, at least `t.stray_off_grid_least_mm` long, cut short
    at both ends by marks it runs on through or by the grid's border (`_cut_short_at_both_ends`): a line from the
    margin through a scribble, seen only between them (stray-line 12: i5 and i6, empty, offered as shaded). `paper`:
    the cells known to be empty; `marked`: those with a mark of their own, where an end, or the line carried on
    past it into them, tells nothing (see `_turns_back` and `_ends_in_marks`); `pieces`, `clean`, `origin` and
    `boxes` as for `passes.passed_cells`; `stroke_ink`: how far a line stands out of the ink beside it in this photo
    (`t.stroke_ink` unless given). `sure`, when given, gets the cells found that such a line from nowhere crosses
    (an end in `paper`, or off the grid: beyond it, or at its border where the `ink` runs on out), running on
    `t.pass_reach_mm` or more past them both ways, with nearly all their strokes (`t.stray_lines_share`) along it:
    no patch's mark, which stays in its patch."""
    if not len(pieces) or not cells:
        return set()
    found: set[int] = set()
    least = t.stray_off_grid_least_mm if ink is not None else t.stray_line_least_mm
    lines = _lines(pieces, np.flatnonzero(near_cells(pieces, cells, origin, 0.0, px_per_mm)), least, px_per_mm, t)
    middles = cells_at((pieces[:, :2] + pieces[:, 2:]) / 2, origin, px_per_mm)
    owners = np.where(np.isin(middles, list(marked)), middles, -1)  # the marked cell each piece lies in, or -1
    printed = on_print(clean.shape, origin, px_per_mm, t)
    for line in lines:
        ends = cells_at(np.array([line[:2], line[2:]]), origin, px_per_mm)
        in_marks = _ends_in_marks(line, ends, marked, origin, px_per_mm, t)
        length = float(np.hypot(*(line[2:] - line[:2])))
        long = length >= t.stray_line_least_mm * px_per_mm
        asked = (long and bool((ends < 0).any()) or _from_the_margin(line, length, origin, px_per_mm, t)
                 if off_grid else long)
        if not asked and not (
                ink is not None and _cut_short_at_both_ends(line, in_marks, ink, origin, px_per_mm, t, stroke_ink)):
            continue
        from_nowhere = any(c < 0 or c in paper for c in ends.tolist())
        if _turns_back(line, lines, pieces, clean, from_nowhere, origin, px_per_mm, t, in_marks=in_marks,
                       turns_off_grid=off_grid, owners=owners, printed=printed) or _corner_to_corner(
                line, origin, px_per_mm, t):
            continue
        along = along_pieces(clean.shape, line[None], px_per_mm, t)
        crossed = {index for index in cells - found if mostly_along(clean, along, boxes[index], origin, px_per_mm, t)}
        found |= crossed
        if sure is not None and (from_nowhere or ink is not None and _runs_off_the_grid(line, ink, origin, px_per_mm, t,
                                                                                   stroke_ink)):
            sure |= {index for index in crossed if _runs_on_past(line, boxes[index], origin, px_per_mm, t)
                     and mostly_along(clean, along, boxes[index], origin, px_per_mm, t, t.stray_lines_share)}
    return found


def _runs_off_the_grid(line: np.ndarray, ink: np.ndarray, origin: tuple[int, int], px_per_mm: float,
                       t: ReaderTuning, stroke_ink: float | None) -> bool:
    """Whether `line` (in the strokes' pixels, their (0, 0) at `origin` in the sheet image) ends within
    t.stray_border_reach_mm of the grid's border and runs on out past it in the sheet image's `ink`
    (`passes.line_runs_on`): the strokes are found within the grid only."""
    unit, offset = _unit(line), np.array(origin, np.float64)
    contrast = t.stroke_ink if stroke_ink is None else stroke_ink
    return any(_distance_out((end + offset) / px_per_mm, out, layout.GRID_RECT) <= t.stray_border_reach_mm
               and line_runs_on(ink, end + offset, out, px_per_mm, t, contrast)
               for end, out in ((line[:2], -unit), (line[2:], unit)))


def _runs_on_past(line: np.ndarray, box: Box, origin: tuple[int, int], px_per_mm: float, t: ReaderTuning) -> bool:
    """Whether `line` (in the strokes' pixels, their (0, 0) at `origin` in the sheet image) runs on
    t.pass_reach_mm or more past a cell's `box` (sheet-image pixels) both ways: the cell lies in its middle."""
    unit = _unit(line)
    x0, y0, x1, y1 = box
    corners = np.array([[x0, y0], [x1, y0], [x0, y1], [x1, y1]], np.float64) - np.array(origin, np.float64)
    along = (corners - line[:2]) @ unit
    reach = t.pass_reach_mm * px_per_mm
    return bool(along.min() >= reach and float(np.hypot(*(line[2:] - line[:2]))) - along.max() >= reach)


def _from_the_margin(line: np.ndarray, length: float, origin: tuple[int, int], px_per_mm: float,
                     t: ReaderTuning) -> bool:
    """Whether `line` (in the strokes' pixels), t.stray_off_grid_least_mm long or more, runs on further past the
    grid's border than a scribble's turn overshoots it (t.scribble_beyond_grid_mm): players draw within the grid,
    and such a line came from the margin however much of it the marks it runs into hide (stray-line 930012, blind:
    a line from 4 mm into the right margin through i1 into h1's hatching, 19.5 mm of it seen, read as i1's mark in
    the outlines around it, shaded and sure)."""
    return length >= t.stray_off_grid_least_mm * px_per_mm and bool(
        (beyond_grid_mm(np.array([line[:2], line[2:]]), origin, px_per_mm) > t.scribble_beyond_grid_mm).any())


def _ends_in_marks(line: np.ndarray, ends: np.ndarray, marked: Set[int], origin: tuple[int, int], px_per_mm: float,
                   t: ReaderTuning) -> tuple[bool, bool]:
    """Whether each end of `line` lies in a cell of `marked` (`ends`: the cells they lie in), or the line carried
    on t.stray_meet_mm past it reaches one: a mark's strokes hide the line where it runs on into them, and the
    line's pieces end at its edge (stray-line 19: a line from a5 down through a9's hatching and off the grid, found
    only as far as a8's side; a9's hatching was taken for its turn, and a6-a8, empty, were offered as shaded)."""
    unit = _unit(line)
    ahead = cells_at(np.array([line[:2] - unit * t.stray_meet_mm * px_per_mm,
                               line[2:] + unit * t.stray_meet_mm * px_per_mm]), origin, px_per_mm)
    return (int(ends[0]) in marked or int(ahead[0]) in marked, int(ends[1]) in marked or int(ahead[1]) in marked)


def _lines(pieces: np.ndarray, seeds: np.ndarray, least_mm: float, px_per_mm: float, t: ReaderTuning) -> np.ndarray:
    """The straight lines, `least_mm` long or more, that the pieces of `seeds` lie on (each one's whole line:
    `passes.chained`), once each."""
    lines = chained(pieces, px_per_mm, t, seeds=seeds)[seeds]
    lines = lines[np.hypot(lines[:, 2] - lines[:, 0], lines[:, 3] - lines[:, 1]) >= least_mm * px_per_mm]
    return np.unique(np.round(lines), axis=0) if len(lines) else lines


def _cut_short_at_both_ends(line: np.ndarray, in_marks: tuple[bool, bool], ink: np.ndarray, origin: tuple[int, int],
                            px_per_mm: float, t: ReaderTuning, stroke_ink: float | None) -> bool:
    """Whether `line` (in the strokes' pixels, their (0, 0) at `origin` in the sheet image) is cut short at both
    ends: at one by a cell with a mark of its own (`in_marks`, per end) that it runs on straight through in the
    sheet image's `ink` (`passes.line_runs_on`), and at the other so too, or by the grid's border, within
    t.stray_border_reach_mm of it. A line from off the grid is hidden at one end by the border taken out of the
    strokes and at the other by the mark's strokes (stray-line 790008, blind: a line from the top margin through i1,
    empty, on through i2's hatching and down the grid's side, seen 15.7 mm in i1 alone and read as its mark); a
    line across hatched cells, between them (stray-line 600005: 15 mm of a line 50 mm long seen in c4, empty).
    What lies past the border is no help: the column letters, the code and the special actions' boxes are printed
    there. A player's own stroke ends where the mark begins."""
    unit = _unit(line)
    contrast = t.stroke_ink if stroke_ink is None else stroke_ink
    offset = np.array(origin, np.float64)
    through = [marked and line_runs_on(ink, end + offset, out, px_per_mm, t, contrast)
               for end, out, marked in ((line[:2], -unit, in_marks[0]), (line[2:], unit, in_marks[1]))]
    at_border = [_distance_out((end + offset) / px_per_mm, out, layout.GRID_RECT) <= t.stray_border_reach_mm
                 for end, out in ((line[:2], -unit), (line[2:], unit))]
    return (through[0] or through[1]) and (through[0] or at_border[0]) and (through[1] or at_border[1])


def _distance_out(point: np.ndarray, heading: np.ndarray, rect: layout.Rect) -> float:
    """How far (mm) from `point` (mm) along `heading` the edge of `rect` lies (0 for a point outside it)."""
    reach = []
    for at, way, low, high in ((point[0], heading[0], rect.x, rect.x2), (point[1], heading[1], rect.y, rect.y2)):
        if way > 1e-9:
            reach.append((high - at) / way)
        elif way < -1e-9:
            reach.append((low - at) / way)
    return max(min(reach, default=0.0), 0.0)


def _unit(line: np.ndarray) -> np.ndarray:
    """The unit vector along a line (x0, y0, x1, y1), from its first end to its second."""
    return (line[2:] - line[:2]) / max(float(np.hypot(*(line[2:] - line[:2]))), 1e-9)


def _turns_back(line: np.ndarray, lines: np.ndarray, pieces: np.ndarray, clean: np.ndarray, from_nowhere: bool,
                origin: tuple[int, int], px_per_mm: float, t: ReaderTuning, *,
                in_marks: tuple[bool, bool] = (False, False), turns_off_grid: bool = False,
                owners: np.ndarray | None = None, printed: np.ndarray | None = None) -> bool:
    """Whether the pen may have turned back at an end of `line` (in `clean`'s pixels), into the next pass: a piece
    at another slant (over `t.pass_chain_deg`) that leaves the line (its far end off it by more than a pencil line's
    width, `t.scribble_along_mm`) ends within `t.stray_meet_mm` of it, or strokes lie behind it, off the line
    (`_strokes_behind`). A short piece of the line's own wobbly tail lies at another slant but on the line, no turn
    (slash-stray-line 0: a line through d2 and d3 to the middle of d4, whose last 3 mm were found at 10 degrees off
    it, read as turning back there; d2-d4, empty, were offered as shaded). The print taken out of the strokes cuts
    a turn on a cell's side short, so either may be all that is left of it. Where an end lies in an empty cell or
    off the grid (`from_nowhere`), strokes behind count only nearer, within `t.stray_free_near_mm` (a line from
    nowhere that ends beside other strokes).
    Not at an end where the line went on out of the grid (`_runs_off_grid`; `origin`: the sheet image's pixel at
    `clean`'s (0, 0)). Nor are the strokes of another of the `lines` that runs on past an end both ways a turn
    there (stray-line 0: a line ending 3.9 mm from another that crosses the grid past it was read as turning back).
    Nor is an end in a cell with a mark of its own, or that runs on into one (`in_marks`, per end:
    `_ends_in_marks`): the strokes around it are that mark's, a fill's edge, hatching, a slash (stray-line 670000,
    blind: a line from h6's hatching on through h7, empty, was read as turning back among the hatching; h7 was
    offered as shaded). Nor, unless `turns_off_grid`, is an end off the grid: a scribble that shades cells with no
    outline turns within them, and two stray lines that meet past the border look like a turn (stray-line
    790001, blind: two lines from the top border, through f1-f3 and d2; f1-f3, empty, were offered as shaded). In
    an outline a scribble may overshoot the border and turn past it (scribble-outlined 10008: a8). Nor is a piece
    that lies in another cell than the line's end, one with a mark of its own (`owners`: per piece, the marked cell
    its middle lies in, or -1): it is that mark's stroke, over the printed line
    between them (stray-line 600000: a line from e5's top, 2 mm below the ends of e4's hatching, was read as
    turning back there, e4's strokes 1 mm over its line; g5 and h5, empty, were offered as shaded). Its middle
    tells whose it is."""
    unit = _unit(line)
    slants = pieces[:, 2:] - pieces[:, :2]
    slanted = np.abs(slants @ unit) < np.cos(np.radians(t.pass_chain_deg)) * np.maximum(
        np.hypot(slants[:, 0], slants[:, 1]), 1e-9)
    slanted &= _leave(line, pieces) > t.scribble_along_mm * px_per_mm
    reach = (t.stray_free_near_mm if from_nowhere else t.stray_free_mm) * px_per_mm
    for end, heading, in_mark in ((line[:2], -unit, in_marks[0]), (line[2:], unit, in_marks[1])):
        # heading: out of the line at that end
        cell = int(cells_at(end[None], origin, px_per_mm)[0])
        if in_mark or (not turns_off_grid and cell < 0) or _runs_off_grid(clean, end, heading, origin, px_per_mm, t):
            continue
        near = np.minimum(np.hypot(*(pieces[:, :2] - end).T), np.hypot(*(pieces[:, 2:] - end).T))
        if owners is not None:
            near[(owners >= 0) & (owners != cell)] = np.inf
        passing = [other for other in lines if apart(line, other, t) and _runs_past(other, end, reach, px_per_mm,
                                                                                           t)]
        if (slanted & (near <= t.stray_meet_mm * px_per_mm)).any() or _strokes_behind(
                clean, end, heading, reach, passing, printed, px_per_mm, t):
            return True
    return False


def _leave(line: np.ndarray, pieces: np.ndarray) -> np.ndarray:
    """How far each of `pieces` (rows of x0, y0, x1, y1) strays from the straight line through `line`: the distance
    of its farther end (`scribbles.off_line`)."""
    lines = np.broadcast_to(line, pieces.shape)
    return np.maximum(off_line(pieces[:, :2], lines), off_line(pieces[:, 2:], lines))


def _runs_past(line: np.ndarray, point: np.ndarray, reach: float, px_per_mm: float, t: ReaderTuning) -> bool:
    """Whether `line` passes within `reach` pixels of `point` and runs on past it both ways, by t.stray_free_mm or
    more."""
    length, unit = float(np.hypot(*(line[2:] - line[:2]))), _unit(line)
    offset = point - line[:2]
    along = float(offset @ unit)
    margin = t.stray_free_mm * px_per_mm
    return margin <= along <= length - margin and abs(float(offset[0] * unit[1] - offset[1] * unit[0])) <= reach


def _strokes_behind(clean: np.ndarray, end: np.ndarray, heading: np.ndarray, reach: float, passing: list[np.ndarray],
                    printed: np.ndarray | None, px_per_mm: float, t: ReaderTuning) -> bool:
    """Whether strokes (`t.stray_turn_mm2` or more) lie within `reach` pixels of a line's `end` (in `clean`'s
    pixels), behind it (against `heading`, out of the line) and off the line by more than a line's width, and off
    the `passing` lines too (each a line that runs on past the end: not a turn): where the pen turns back, the next
    pass starts beside the end. Ahead of the end (the line drawn on, faint) does not count; nor does what the
    print's removal left on a printed line, `printed` (`crossings.on_print`; stray-line 600002: a line cut short on
    g1's side, where another crossed it, by 6 pixels left of the side below its end; f1 and g1, empty, were offered
    as shaded). A pass that turns back leaves the line."""
    x, y, r = int(round(end[0])), int(round(end[1])), int(np.ceil(reach))
    y0, y1 = max(y - r, 0), min(y + r + 1, clean.shape[0])
    x0, x1 = max(x - r, 0), min(x + r + 1, clean.shape[1])
    if y1 <= y0 or x1 <= x0:
        return False
    ys, xs = np.mgrid[y0:y1, x0:x1]
    width = t.scribble_along_mm * px_per_mm
    dx, dy = xs - end[0], ys - end[1]
    behind = ((dx * heading[0] + dy * heading[1] <= 0.5 * px_per_mm)
              & (np.abs(dx * heading[1] - dy * heading[0]) > width)
              & (dx**2 + dy**2 <= reach**2))
    for other in passing:
        along = _unit(other)
        behind &= np.abs((xs - other[0]) * along[1] - (ys - other[1]) * along[0]) > width
    if printed is not None:
        behind &= ~printed[y0:y1, x0:x1]
    return np.count_nonzero(clean[y0:y1, x0:x1] & behind) >= t.stray_turn_mm2 * px_per_mm**2


def _runs_off_grid(clean: np.ndarray, end: np.ndarray, heading: np.ndarray, origin: tuple[int, int],
                   px_per_mm: float, t: ReaderTuning) -> bool:
    """Whether a line goes on from its `end` (in `clean`'s pixels, its (0, 0) at `origin` in the sheet image) out
    of the grid: its way on, from 1 mm past the end for t.stray_way_on_mm, ends off the grid, with strokes within
    a line's width (t.scribble_along_mm) of t.stray_way_on_share of its points. Such a line was cut short where
    the grid's thick border was taken out of the strokes, and turned back at no end there (stray-line 6: a line
    from the margin through a4 and a3, cut at the border beside a5's strokes, was read as turning back there)."""
    steps = np.arange(1.0, 1.0 + t.stray_way_on_mm, 0.25) * px_per_mm
    points = end[None, :] + steps[:, None] * heading[None, :]
    if cells_at(points[-1:], origin, px_per_mm)[0] >= 0:
        return False
    reach = max(round(t.scribble_along_mm * px_per_mm), 1)
    drawn = 0
    for x, y in np.round(points).astype(int):
        y0, y1 = max(y - reach, 0), min(y + reach + 1, clean.shape[0])
        x0, x1 = max(x - reach, 0), min(x + reach + 1, clean.shape[1])
        drawn += bool(y1 > y0 and x1 > x0 and clean[y0:y1, x0:x1].any())
    return drawn >= t.stray_way_on_share * len(points)


def _corner_to_corner(line: np.ndarray, origin: tuple[int, int], px_per_mm: float, t: ReaderTuning) -> bool:
    """Whether `line` (in `clean`'s pixels, its (0, 0) at `origin` in the sheet image) runs along the cells'
    diagonals (within `t.stray_diagonal_deg` of 45 degrees) with both ends within `t.stray_corner_mm` of a corner
    of the grid: the slashes of cells that touch corner to corner make one straight line."""
    dx, dy = line[2:] - line[:2]
    if abs(abs(np.degrees(np.arctan2(dy, dx))) % 90 - 45) > t.stray_diagonal_deg:
        return False
    cell, grid = layout.CELL_MM * px_per_mm, layout.GRID_RECT
    x = (line[[0, 2]] + origin[0] - grid.x * px_per_mm) % cell
    y = (line[[1, 3]] + origin[1] - grid.y * px_per_mm) % cell
    off = np.hypot(np.minimum(x, cell - x), np.minimum(y, cell - y))
    return bool((off <= t.stray_corner_mm * px_per_mm).all())
