"""Passes from elsewhere: a straight stroke that runs into a cell across a drawn outline, from deep in the cell
beyond it, is a loose scribble's pass overshooting its own patch (or a stray line), not a mark of this cell. An
outline around the cell does not vouch for it (scribble-outlined 20023: one pass from d7's scribble to g7's ran on
through e7 and f7, in an outline the player left unshaded; both read shaded and sure). A scribble's turn that
overshoots its outline reaches a little past it; a pass from the next cell reaches in from much further. The value
it decides with is `tuning.ReaderTuning.pass_reach_mm`, with its evidence.

A line's strokes are judged together, wherever it runs: a cell marked only by a line that also runs through a cell
in doubt as a stray line is in doubt too, and so is a cell marked by a line that ends deep inside an empty cell (a
player's hatching and scribbles end at their patch's sides, or a little past them; a stray line starts and ends
anywhere), or by one line that enters it and leaves it, running on well past it both ways (a slash stays in its
cell; a scribble's passes are several, and turn in its cells).
"""

from __future__ import annotations

from collections.abc import Set

import cv2
import numpy as np

from doodle.quilt import SIZE
from doodle.sheet import layout
from doodle.sheet.outline import joined, sides_drawn
from doodle.sheet.pictures import Box
from doodle.sheet.scribbles import along_pieces, cells_at, chained, mostly_along
from doodle.sheet.strokes import touching_groups
from doodle.sheet.tuning import TUNING, ReaderTuning


def passed_cells(cells: set[int], pieces: np.ndarray, clean: np.ndarray, origin: tuple[int, int],
                 boxes: tuple[Box, ...], drawn: dict[str, np.ndarray], px_per_mm: float, t: ReaderTuning = TUNING,
                 slashed: Set[int] = frozenset(), scribbled: Set[int] = frozenset()) -> set[int]:
    """Of `cells` (index row * 9 + col), those whose strokes mostly lie along pieces that cross a drawn side of
    the cell, or of the cells of `cells` it joins with no drawn side between, from at least `t.pass_reach_mm`
    beyond it (a pass from d7 that turned at e7's side, then crossed e7 and f7 and ran on deep into g7). `pieces`:
    the strokes' straight pieces in `clean`'s pixels (`scribbles.sparse_pieces`); `clean`: the strokes without the
    grid's lines, its pixel (0, 0) at `origin` in the sheet image; `drawn`: `outline.drawn_sides`'s; `slashed` and
    `scribbled`: the cells holding a slash or a scribble of their own (see `_turned_through`)."""
    if not len(pieces) or not cells:
        return set()
    found = set()
    lines = _lines_near(cells, pieces, origin, px_per_mm, t)
    for group in touching_groups(cells, lambda index, other: joined(drawn, index, other)):
        crossing = np.zeros(len(pieces), bool)
        for index in group:
            crossing |= _crossing_in(index, lines, drawn, origin, px_per_mm, t)
        if crossing.any():
            along = along_pieces(clean.shape, pieces[crossing], px_per_mm, t)
            found |= {index for index in group if mostly_along(clean, along, boxes[index], origin, px_per_mm, t)}
    # A pass between two turns next door crosses the cell from side to side, and turns back beyond its outline at
    # both ends: a zigzag through it, not a slash (loose-scribble 220018: b1, outlined and left empty in a U of
    # scribbled cells; one pass from a1's scribble turned at b1's top-left corner, crossed it corner to corner and
    # turned at its bottom-right into c1's; b1 read shaded, 0.6 sure). The turns lie on the print, where the
    # scribble's own turns are not looked for (scribbles.py).
    return found | _turned_through(cells - found, lines, pieces, clean, origin, boxes, drawn, slashed, scribbled,
                                   px_per_mm, t)


def turned_through_cells(cells: set[int], pieces: np.ndarray, clean: np.ndarray, origin: tuple[int, int],
                         boxes: tuple[Box, ...], drawn: dict[str, np.ndarray], px_per_mm: float,
                         t: ReaderTuning = TUNING, slashed: Set[int] = frozenset(),
                         scribbled: Set[int] = frozenset()) -> set[int]:
    """Of `cells`, each holding a mark within its lines (`crossings.confined_cells`), those whose mark is a pass
    between two turns next door (see `_turned_through`), its turns at the cell's corners (scribble-outlined
    150019: h1, left empty between two scribbled cells outlined apart; one pass turned at h1's top-left corner in
    g1, crossed h1 to its bottom-right corner and turned there into i1, and h1 read as a slash, sure). Arguments
    as for `passed_cells`."""
    if not len(pieces) or not cells:
        return set()
    lines = _lines_near(cells, pieces, origin, px_per_mm, t)
    return _turned_through(cells, lines, pieces, clean, origin, boxes, drawn, slashed, scribbled, px_per_mm, t)


def _lines_near(cells: set[int], pieces: np.ndarray, origin: tuple[int, int], px_per_mm: float,
                t: ReaderTuning) -> np.ndarray:
    """`pieces`, those near `cells` chained into the lines they make (`chained`), from the pieces across them."""
    # Only a piece across one of the cells can cross its sides, and only pieces near them can carry it on so far.
    near = near_cells(pieces, cells, origin, (t.pass_reach_mm + t.pass_chain_gap_mm) * px_per_mm, px_per_mm)
    across = near_cells(pieces[near], cells, origin, 0.0, px_per_mm)
    lines = pieces.astype(np.float64)
    lines[near] = chained(pieces[near], px_per_mm, t, seeds=np.flatnonzero(across))
    return lines


def _turned_through(cells: set[int], lines: np.ndarray, pieces: np.ndarray, clean: np.ndarray,
                    origin: tuple[int, int], boxes: tuple[Box, ...], drawn: dict[str, np.ndarray], slashed: Set[int],
                    scribbled: Set[int], px_per_mm: float, t: ReaderTuning) -> set[int]:
    """The `cells` whose strokes mostly lie along one line (of `lines`, `pieces` chained) that ends at or past
    its sides at both ends, each end met there, on the line's course, by another piece slanted apart that runs on
    from it at least `t.pass_reach_mm` beyond a drawn side of the cell, and is no slash of a cell with a mark of
    its own (`slashed`): slashes of the two slants in cells side by side make the same zigzag, each ending at its
    corners (slash with stray lines 10001: g8's "/" between h8's and g9's "\\"). A scribble's passes within its
    cell's lines make a mark of its own too, but no slash (scribble-outlined 150019: g1). A piece that turns into
    a cell of `scribbled` past the drawn side runs on in that scribble, however short it is found (its passes
    wobble, and are cut into pieces at other slants: scribble-outlined 350018, blind, g7: empty in a U of cells
    outlined as one patch, crossed side to side by one pass from f7's scribble to h7's; the pieces of f7's return
    pass reached 5 mm past its side, g7 read shaded and sure)."""
    if not cells:
        return set()
    near = np.concatenate([pieces[:, :2], pieces[:, 2:]])  # each piece's two ends, and the other end of each
    far = np.concatenate([pieces[:, 2:], pieces[:, :2]])
    heading = (far - near) / np.maximum(np.linalg.norm(far - near, axis=1, keepdims=True), 1e-9)
    # A slash's end: a piece along the diagonal of a cell with a mark of its own (|cos| - |sin| of a slant 45
    # degrees off by d is sqrt(2) sin d), told by its middle (it may end past its corner).
    off_diagonal = np.abs(np.abs(heading[:, 0]) - np.abs(heading[:, 1]))
    slash = ((off_diagonal <= np.sqrt(2) * np.sin(np.radians(t.pass_slash_deg)))
             & np.isin(cells_at((near + far) / 2, origin, px_per_mm), list(slashed)))
    into_scribble = np.isin(cells_at(far, origin, px_per_mm), list(scribbled))
    # How far each piece runs on: the grid's lines and the outlines cut a pass into pieces, none of which may reach
    # far past a side (scribble-outlined 930015, blind: c5, empty, crossed by a pass from b5's turn to a turn on its
    # side with d5; the pass on from there across d5 wobbled and was found as short pieces, the first from 1.2 to
    # 6.8 mm past c5's side, and c5 read shaded and sure).
    close = near_cells(pieces, cells, origin, (t.pass_reach_mm + t.pass_chain_gap_mm) * px_per_mm, px_per_mm)
    runs = pieces.astype(np.float64)
    runs[close] = chained(pieces[close], px_per_mm, t)
    reached = np.concatenate([runs[:, 2:], runs[:, :2]])  # the far end of each piece's line, from its near end
    return {index for index in cells
            if _turned_through_one(index, lines, (near, reached, heading, slash, into_scribble), clean, origin,
                                   boxes, drawn, px_per_mm, t)}


def _turned_through_one(index: int, lines: np.ndarray, ends: tuple[np.ndarray, ...], clean: np.ndarray,
                        origin: tuple[int, int], boxes: tuple[Box, ...], drawn: dict[str, np.ndarray],
                        px_per_mm: float, t: ReaderTuning) -> bool:
    """`_turned_through` for one cell; `ends`: every piece's ends both ways round (near, and the far end of the
    line it lies on), its heading from the near end, whether it is a slash's end and whether its own far end lies
    in a scribble of its own."""
    near, far, heading, slash, into_scribble = ends
    left, top, cell = _square(index, origin, px_per_mm)
    right, bottom, reach = left + cell, top + cell, t.pass_reach_mm * px_per_mm
    meet, edge = t.scribble_meet_mm * px_per_mm, t.pass_corner_mm * px_per_mm
    drawn_above, drawn_below, drawn_left, drawn_right = (here for _, here in sides_drawn(drawn, index))
    x, y = far.T

    def past(by: float) -> np.ndarray:
        """Whether each far end lies `by` or more past a drawn side of the cell."""
        return (drawn_left & (x <= left - by) | drawn_right & (x >= right + by)
                | drawn_above & (y <= top - by) | drawn_below & (y >= bottom + by))

    # The far ends `reach` or more past a drawn side of the cell (anywhere past it, into a scribble), but for a
    # slash's end.
    beyond = (past(reach) | past(0.0) & into_scribble) & ~slash

    def at_side(point: np.ndarray) -> bool:
        return min(point[0] - left, right - point[0], point[1] - top, bottom - point[1]) <= edge

    for line in _carrying(index, lines, clean, origin, boxes, px_per_mm, t):
        start, end = line[:2], line[2:]
        length = float(np.hypot(*(end - start)))
        if length == 0.0 or not (at_side(start) and at_side(end)) or not mostly_along(
                clean, along_pieces(clean.shape, line[None], px_per_mm, t), boxes[index], origin, px_per_mm, t):
            continue
        unit = (end - start) / length
        # One stroke turning: the other pass, slanted apart, starts on this line's own course (its tip cut off with
        # the print), not a pencil's width or more beside it, as the end of a slash next door does (slash with part
        # outlines 10005: f7's slash between two of the other slant, 1.7 mm off its line).
        off = np.abs((near[:, 0] - start[0]) * unit[1] - (near[:, 1] - start[1]) * unit[0])
        turning = (beyond & (np.abs(heading @ unit) < np.cos(np.radians(t.scribble_turn_deg[0])))
                   & (off <= t.scribble_along_mm * px_per_mm))
        if all((turning & (np.linalg.norm(near - tip, axis=1) <= meet + edge)).any() for tip in (start, end)):
            return True
    return False


def _square(index: int, origin: tuple[int, int], px_per_mm: float) -> tuple[float, float, float]:
    """A cell's left and top lines in the strokes' pixels (their (0, 0) at `origin` in the sheet image), and its
    side."""
    row, col = divmod(index, SIZE)
    cell, grid = layout.CELL_MM * px_per_mm, layout.GRID_RECT
    return grid.x * px_per_mm + col * cell - origin[0], grid.y * px_per_mm + row * cell - origin[1], cell


def near_cells(pieces: np.ndarray, cells: set[int], origin: tuple[int, int], reach: float, px_per_mm: float
               ) -> np.ndarray:
    """Per piece (in `clean`'s pixels, its (0, 0) at `origin` in the sheet image), whether it lies within `reach`
    (pixels) of one of `cells`."""
    xs, ys = pieces[:, [0, 2]], pieces[:, [1, 3]]
    near = np.zeros(len(pieces), bool)
    for index in cells:
        left, top, cell = _square(index, origin, px_per_mm)
        near |= ((xs.max(axis=1) >= left - reach) & (xs.min(axis=1) <= left + cell + reach)
                 & (ys.max(axis=1) >= top - reach) & (ys.min(axis=1) <= top + cell + reach))
    return near


def _crossing_in(index: int, pieces: np.ndarray, drawn: dict[str, np.ndarray], origin: tuple[int, int],
                 px_per_mm: float, t: ReaderTuning) -> np.ndarray:
    """Per piece, whether it crosses a drawn side of the cell, `t.pass_corner_mm` or more from its ends, from at
    least `t.pass_reach_mm` beyond it."""
    left, top, cell = _square(index, origin, px_per_mm)
    reach = t.pass_reach_mm * px_per_mm
    # Not through a corner: slashes drawn corner to corner in cells along a diagonal are one straight line
    # (slash-outlined 12: g5's slash and h4's, read as a pass into g5 from 8 mm and more beyond its corner).
    corner = t.pass_corner_mm * px_per_mm
    x0, y0, x1, y1 = pieces.T
    crossing = np.zeros(len(pieces), bool)
    # The sides above, below, left and right: whether the line runs down the page, where, and which way is out.
    geometry = ((False, top, -1), (False, top + cell, 1), (True, left, -1), (True, left + cell, 1))
    for (_, drawn_here), (vertical, line, outward) in zip(sides_drawn(drawn, index), geometry, strict=True):
        if drawn_here:
            ends = (y0, x0, y1, x1) if vertical else (x0, y0, x1, y1)
            start = top if vertical else left
            crossing |= _crosses(*ends, line, (start + corner, start + cell - corner), outward, reach)
    return crossing


def _crosses(along0: np.ndarray, across0: np.ndarray, along1: np.ndarray, across1: np.ndarray, line: float,
             span: tuple[float, float], outward: int, reach: float) -> np.ndarray:
    """Per piece (ends (along0, across0) and (along1, across1)), whether it crosses the line `across == line`
    within `span` along it, with an end at least `reach` beyond it on the `outward` side."""
    before, after = across0 - line, across1 - line
    cut = before * after < 0
    share = np.where(cut, before / np.where(cut, before - after, 1.0), 0.0)
    at = along0 + share * (along1 - along0)
    beyond = np.maximum(outward * before, outward * after)
    return cut & (at >= span[0]) & (at <= span[1]) & (beyond >= reach)


def _carrying(index: int, pieces: np.ndarray, clean: np.ndarray, origin: tuple[int, int], boxes: tuple[Box, ...],
              px_per_mm: float, t: ReaderTuning) -> np.ndarray:
    """The pieces (within a line's reach of the cell) along which `t.line_carry_share` or more of its strokes lie,
    each drawn over it as `along_pieces` draws them."""
    reach = t.scribble_along_mm * px_per_mm
    x0, y0, x1, y1 = boxes[index]
    left, top = x0 - origin[0], y0 - origin[1]
    strokes = clean[top : top + y1 - y0, left : left + x1 - x0]
    total = int(strokes.sum())
    if not total or not len(pieces):
        return pieces[:0]
    xs, ys = pieces[:, [0, 2]], pieces[:, [1, 3]]
    near = pieces[(xs.max(axis=1) >= left - reach) & (xs.min(axis=1) <= left + x1 - x0 + reach)
                  & (ys.max(axis=1) >= top - reach) & (ys.min(axis=1) <= top + y1 - y0 + reach)]
    local = near - np.array([left, top, left, top])
    return near[[np.count_nonzero(strokes & along_pieces(strokes.shape, local[k : k + 1], px_per_mm, t))
                 >= t.line_carry_share * total for k in range(len(near))]]


def ending_in_paper(cells: set[int], paper: set[int], pieces: np.ndarray, clean: np.ndarray,
                    origin: tuple[int, int], boxes: tuple[Box, ...], px_per_mm: float, t: ReaderTuning = TUNING
                    ) -> set[int]:
    """Of `cells`, those whose strokes lie along a straight piece (t.line_carry_share of them or more) that ends
    deep in a cell of `paper` (empty and sure: t.line_end_depth_mm from its lines), or t.margin_end_mm out in the
    margin beyond the grid's border: a line from nowhere, not a mark drawn in a patch (stray-line 570019, blind:
    a3, crossed by a line that began 4.5 mm out in the margin, read shaded and sure)."""
    if not len(pieces) or not cells:
        return set()
    cell, grid = layout.CELL_MM * px_per_mm, layout.GRID_RECT
    deep = t.line_end_depth_mm * px_per_mm
    found = set()
    for index in cells:
        carrying = _carrying(index, pieces, clean, origin, boxes, px_per_mm, t)
        if not len(carrying):
            continue
        ends = np.concatenate([carrying[:, :2], carrying[:, 2:]])
        xs, ys = ends[:, 0] + origin[0] - grid.x * px_per_mm, ends[:, 1] + origin[1] - grid.y * px_per_mm
        # How deep inside its cell each end lies: its distance to the nearest of the cell's lines; and how far
        # outside the grid.
        x, y = xs % cell, ys % cell
        depth = np.minimum.reduce([x, cell - x, y, cell - y])
        outside = np.maximum.reduce([-xs, xs - grid.w * px_per_mm, -ys, ys - grid.h * px_per_mm])
        in_paper = np.isin(cells_at(ends, origin, px_per_mm), list(paper)) & (depth >= deep)
        if (in_paper | (outside >= t.margin_end_mm * px_per_mm)).any():
            found.add(index)
    return found


def on_doubted_lines(cells: set[int], doubted: set[int], pieces: np.ndarray, clean: np.ndarray,
                     origin: tuple[int, int], boxes: tuple[Box, ...], px_per_mm: float, t: ReaderTuning = TUNING
                     ) -> set[int]:
    """Of `cells`, those whose strokes lie along a straight piece (t.line_carry_share of them or more) that also
    carries most of the strokes of a `doubted` cell: one line is judged as one. Two stray lines crossing in c5 put
    its ink just over a few lines' (0.105), and it read shaded and sure while the cells the same lines ran on
    through were in doubt (stray-line 140019)."""
    if not len(pieces) or not cells or not doubted:
        return set()
    found = set()
    for index in cells:
        carrying = _carrying(index, pieces, clean, origin, boxes, px_per_mm, t)
        if len(carrying):
            along = along_pieces(clean.shape, carrying, px_per_mm, t)
            if any(mostly_along(clean, along, boxes[other], origin, px_per_mm, t) for other in doubted - {index}):
                found.add(index)
    return found


def lines_through(cells: set[int], pieces: np.ndarray, clean: np.ndarray, origin: tuple[int, int],
                  boxes: tuple[Box, ...], ink: np.ndarray, px_per_mm: float, t: ReaderTuning = TUNING,
                  stroke_ink: float | None = None) -> set[int]:
    """Of `cells`, those whose strokes and ink mostly (`t.scribble_along_share`) lie along straight pieces that each
    enter the cell and leave it, and run on along their own slant at least `t.pass_reach_mm` past it both ways:
    lines across the page, not a mark of the cell (a scribble's passes turn in its cells). One such line, or several
    at slants of their own, each across another midway, that hold nearly all of them (`t.stray_lines_share`): stray
    lines crossing in a cell are no more its mark than one is (stray-line 820020, blind: a2, empty, crossed by three
    lines, 0.115 of ink, read shaded and sure).
    The pieces are sparse ones (`scribbles.sparse_pieces`), and shading hides a line from the stroke map: the line
    is followed on in the sheet's `ink` (`FlatField.ink`), darker along its slant than beside it. `pieces`, `clean`,
    `origin` and `boxes` as for `passed_cells`; `stroke_ink`: how far a line stands out of the ink beside it, at
    least, in this photo (`t.stroke_ink` unless given: less in a blurred one)."""
    if not len(pieces) or not cells:
        return set()
    contrast = t.stroke_ink if stroke_ink is None else stroke_ink
    near = near_cells(pieces, cells, origin, (t.pass_reach_mm + t.pass_chain_gap_mm) * px_per_mm, px_per_mm)
    across = near_cells(pieces[near], cells, origin, 0.0, px_per_mm)
    lines = chained(pieces[near], px_per_mm, t, seeds=np.flatnonzero(across))[across] + np.array([*origin, *origin])
    lines = np.unique(np.round(lines), axis=0) if len(lines) else lines
    points = [(_pixel(line[:2]), _pixel(line[2:])) for line in lines]  # as cv2.clipLine takes them
    found = set()
    for index in cells:
        x0, y0, x1, y1 = boxes[index]
        corner = np.array([x0, y0, x0, y0], np.float64)  # the box's top left, in sheet-image pixels
        strokes = clean[y0 - origin[1] : y1 - origin[1], x0 - origin[0] : x1 - origin[0]]
        inked = np.maximum(ink[y0:y1, x0:x1], 0.0)  # shading the stroke map misses (its light sinks into it)
        whole = (0, 0, x1 - x0, y1 - y0)
        left, top, right, bottom = layout.cell_rect(*divmod(index, SIZE)).to_px(px_per_mm)
        sides = (left, top, right - left + 1, bottom - top + 1)  # its printed lines, as cv2.clipLine takes a rect
        reaching = [line for line, (start, end) in zip(lines, points, strict=True)  # in sheet-image pixels
                    if cv2.clipLine(sides, start, end)[0]]
        if not reaching or not mostly_along(strokes, along_pieces(strokes.shape, np.array(reaching) - corner,
                                                                   px_per_mm, t), whole, (0, 0), px_per_mm, t):
            continue  # not even all the lines that reach the cell hold most of its strokes
        running, joined = np.zeros(strokes.shape, bool), []  # along the lines across others that run on, so far
        for line in sorted(reaching, key=lambda line: -float(np.hypot(*(line[2:] - line[:2])))):  # longest first
            along = along_pieces(strokes.shape, (line - corner)[None], px_per_mm, t)
            if not (strokes & along & ~running).any():
                continue  # nothing of it that a line found already does not hold
            ends = _ends(_fitted(strokes & along, line - corner) + corner, sides)
            if ends is None or not all(line_runs_on(ink, end, heading, px_per_mm, t, contrast)
                                       for end, heading in ends):
                continue
            # Stray lines cross each other at slants of their own; the lines of hatching, crossed or not, and a
            # zigzag's passes in cells scribbled alike lie at a few slants, many to each.
            joins = (any(_cross_midway(line, other, px_per_mm, t) for other in reaching)
                     and all(apart(line, other, t) for other in joined))
            if _holds_most(strokes, inked, along, whole, t.scribble_along_share, px_per_mm, t) or (
                    joins and _holds_most(strokes, inked, running | along, whole, t.stray_lines_share, px_per_mm, t)):
                found.add(index)
                break
            if joins:
                running |= along
                joined.append(line)
    return found


def _holds_most(strokes: np.ndarray, inked: np.ndarray, along: np.ndarray, whole: Box, share: float,
                px_per_mm: float, t: ReaderTuning) -> bool:
    """Whether the pixels `along` lines hold `share` or more of a cell's `strokes` (`scribbles.mostly_along`;
    `whole`: the cell's box in their own pixels) and of its `inked`."""
    return (mostly_along(strokes, along, whole, (0, 0), px_per_mm, t, share)
            and float(inked[along].sum()) >= share * float(inked.sum()))


def apart(line: np.ndarray, other: np.ndarray, t: ReaderTuning) -> bool:
    """Whether two lines (x0, y0, x1, y1) lie at slants more than `t.pass_chain_deg` apart: not one line found
    twice."""
    way, other_way = line[2:] - line[:2], other[2:] - other[:2]
    turn = abs(float(way[0] * other_way[1] - way[1] * other_way[0]))
    return turn > np.sin(np.radians(t.pass_chain_deg)) * float(np.hypot(*way)) * float(np.hypot(*other_way))


def _cross_midway(line: np.ndarray, other: np.ndarray, px_per_mm: float, t: ReaderTuning) -> bool:
    """Whether two lines (x0, y0, x1, y1) at slants more than `t.pass_chain_deg` apart cross each other at least
    `t.stray_free_mm` from the ends of both: stray lines cross where they happen to; a scribble's passes meet at
    its turns, where they end."""
    start, way = line[:2], line[2:] - line[:2]
    other_start, other_way = other[:2], other[2:] - other[:2]
    lengths = float(np.hypot(*way)), float(np.hypot(*other_way))
    if not apart(line, other, t):
        return False
    turn = float(way[0] * other_way[1] - way[1] * other_way[0])
    gap = other_start - start
    at = float(gap[0] * other_way[1] - gap[1] * other_way[0]) / turn  # along `line`, 0 to 1 between its ends
    other_at = float(gap[0] * way[1] - gap[1] * way[0]) / turn
    margin = t.stray_free_mm * px_per_mm
    return all(margin <= share * length <= length - margin
               for share, length in ((at, lengths[0]), (other_at, lengths[1])))


def ends_running_on(strokes: np.ndarray, corner: tuple[int, int], frame: Box, ink: np.ndarray, px_per_mm: float,
                    t: ReaderTuning = TUNING) -> int:
    """How many ends (0, 1 or 2) of a straight line run on `t.pass_reach_mm` past `frame` (a printed box, sheet-image
    pixels x0, y0, x1, y1), where `t.box_line_share` of the `strokes` in it (bool, their top left at `corner`) lie
    along that one line: 0 when they do not. A cross, a tick or a scribble lies along two lines or more, and a
    player's slash stops near the box; a stray line across the page runs on (stray-line 460014, blind: a line from
    g9 on through the 'cut' box, read crossed, unflagged)."""
    if int(strokes.sum()) < round(t.scribble_least_mm2 * px_per_mm**2):
        return 0
    line = _fitted(strokes, np.zeros(4))  # a unit long: drawn across the whole box to measure the strokes along it
    middle, unit, far = (line[:2] + line[2:]) / 2, line[2:] - line[:2], float(sum(strokes.shape))
    across = np.concatenate([middle - far * unit, middle + far * unit])
    along = along_pieces(strokes.shape, across[None], px_per_mm, t)
    if int((strokes & along).sum()) < t.box_line_share * int(strokes.sum()):
        return 0
    x0, y0, x1, y1 = frame
    ends = _ends(line + np.array([*corner, *corner], np.float64), (x0, y0, x1 - x0 + 1, y1 - y0 + 1))
    return 0 if ends is None else sum(line_runs_on(ink, end, heading, px_per_mm, t, t.stroke_ink)
                                      for end, heading in ends)


def _fitted(strokes: np.ndarray, line: np.ndarray) -> np.ndarray:
    """The straight line (two points, in `strokes`' pixels) fitted to `strokes` (`line` when they are too few): a
    piece's slant and place, found in steps of a degree and a pencil line's width, would miss the line 8 mm on."""
    ys, xs = np.nonzero(strokes)
    if len(xs) < 2:
        return line
    vx, vy, cx, cy = cv2.fitLine(np.column_stack([xs, ys]).astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01).ravel()
    return np.array([cx - vx, cy - vy, cx + vx, cy + vy], np.float64)


def _pixel(point: np.ndarray) -> tuple[int, int]:
    return int(round(point[0])), int(round(point[1]))


def _ends(line: np.ndarray, rect: tuple[int, int, int, int]) -> tuple[tuple[np.ndarray, np.ndarray], ...] | None:
    """Where the straight line through a piece's two points enters a rect (x, y, width, height) and leaves it, each
    with the way out there (unit vectors); None when it misses the rect."""
    start, end = line[:2], line[2:]
    length = float(np.hypot(*(end - start)))
    if length == 0.0:
        return None
    unit, far = (end - start) / length, 2.0 * max(rect[2], rect[3])
    crosses, enter, leave = cv2.clipLine(rect, _pixel(start - far * unit), _pixel(start + far * unit))
    return ((np.array(enter, np.float64), -unit), (np.array(leave, np.float64), unit)) if crosses else None


def line_runs_on(ink: np.ndarray, end: np.ndarray, heading: np.ndarray, px_per_mm: float, t: ReaderTuning,
                 stroke_ink: float) -> bool:
    """Whether a line runs on along `heading` from `end` (sheet-image pixels) for `t.pass_reach_mm`, in
    `t.crossing_landed_share` of the far half of that: where the `ink` along `t.crossing_slant_mm` of the line
    (widened by `t.crossing_meet_mm`: its wobble) is `stroke_ink` more than beside it, `t.crossing_reach_mm` away
    on either side. Strokes at other slants (hatching the line runs through) darken both alike."""
    reach, aside = t.pass_reach_mm * px_per_mm, t.crossing_reach_mm * px_per_mm
    half = max(round(t.crossing_slant_mm * px_per_mm / 2), 1)
    size = 2 * (half + round(aside) + 1) + 1
    middle, normal = (size - 1) / 2, np.array([-heading[1], heading[0]])
    kernel = np.zeros((size, size), np.float32)
    for offset, weight in ((0.0, 1.0), (aside, -0.5), (-aside, -0.5)):
        line = np.zeros_like(kernel)
        a = np.array([middle, middle]) + normal * offset - heading * half
        b = np.array([middle, middle]) + normal * offset + heading * half
        cv2.line(line, tuple(int(v) for v in np.round(a)), tuple(int(v) for v in np.round(b)), 1.0, 1)
        kernel += weight * line / max(float(line.sum()), 1.0)
    far = end + heading * reach
    pad = size + round(t.crossing_meet_mm * px_per_mm) + 1
    height, width = ink.shape
    x0, y0 = np.maximum((np.floor(np.minimum(end, far)) - pad).astype(int), 0)
    x1, y1 = np.minimum((np.ceil(np.maximum(end, far)) + pad).astype(int), (width, height))
    if x1 <= x0 or y1 <= y0:
        return False
    contrast = cv2.filter2D(ink[y0:y1, x0:x1].astype(np.float32), -1, kernel, borderType=cv2.BORDER_REPLICATE)
    widen = 2 * max(round(t.crossing_meet_mm * px_per_mm), 1) + 1
    contrast = cv2.dilate(contrast, np.ones((widen, widen), np.uint8))
    steps = np.arange(reach / 2, reach + 1.0)  # its far half: the kernel and the widening blur a line's end
    points = np.round(end + heading * steps[:, None]).astype(int) - np.array([x0, y0])
    inside = (points[:, 0] >= 0) & (points[:, 0] < x1 - x0) & (points[:, 1] >= 0) & (points[:, 1] < y1 - y0)
    hits = int((contrast[points[inside, 1], points[inside, 0]] >= stroke_ink).sum())
    return hits >= t.crossing_landed_share * len(steps)
