"""Scribbles: strokes where the pen turned back. A loose scribble shades a patch with a few passes to and fro, and
where one pass ends the next begins, at a sharp turn; a stray line runs straight on and never turns back. So a
cell in which a scribble's passes turn back, and whose strokes are those passes, holds a deliberate mark, outlined
or not (loose scribbles with no outline were in doubt as possible stray lines: nearly every such photo had more
than 5 cells in doubt).

The strokes (the stroke map without the grid's lines, `crossings.without_grid_lines`) are cut into straight pieces
by OpenCV's probabilistic Hough transform; pieces along the grid's lines (what is left of the print, an outline)
are left out. Two pieces turn back where an end of each meets the other's at a sharp angle, with no ink just past
the tip (a line ending where it runs into other strokes does not end there: it runs on under them), in a cell not
as full of strokes as shading (where lines meet all over), and with another turn ahead along one of them, as far
as a pass runs, or further along the stroke where a pass bends on into the next (two lines drawn from one point
never turn again). A cell holds a scribble's mark when such a turn
lies in it and most of its strokes lie along pieces that turn back: a pass running on from a turn in the next cell
into an empty one does not make it marked, nor does a stray line ending on a scribble. The values it decides with are
`tuning.ReaderTuning`'s `scribble_*`, with their evidence.
"""

from __future__ import annotations

import heapq
from functools import cache

import cv2
import numpy as np

from doodle.quilt import SIZE
from doodle.sheet import layout
from doodle.sheet.crossings import on_print
from doodle.sheet.pictures import Box
from doodle.sheet.tuning import TUNING, ReaderTuning


def sparse_pieces(clean: np.ndarray, origin: tuple[int, int], shares: np.ndarray, px_per_mm: float,
                  t: ReaderTuning = TUNING) -> np.ndarray:
    """The straight pieces of the strokes, (n, 4) as x0, y0, x1, y1 in `clean`'s pixels, outside the cells full of
    strokes (in shading, lines meet all over, and cutting it into pieces is slow). `clean`: the strokes (bool)
    without the grid's lines, its pixel (0, 0) at `origin` in the sheet image; `shares`: the share of each cell's
    interior under strokes."""
    sparse = clean.copy()
    for index in np.flatnonzero(shares >= t.crossing_full_share):
        x0, y0, x1, y1 = layout.cell_rect(*divmod(int(index), SIZE)).to_px(px_per_mm)
        sparse[max(y0 - origin[1], 0) : max(y1 - origin[1], 0), max(x0 - origin[0], 0) : max(x1 - origin[0], 0)] = False
    return _pieces(sparse, origin, px_per_mm, t)


def scribbled_cells(clean: np.ndarray, origin: tuple[int, int], boxes: tuple[Box, ...], shares: np.ndarray,
                    pieces: np.ndarray, px_per_mm: float, t: ReaderTuning = TUNING) -> set[int]:
    """The cells (index row * 9 + col) in which a scribble turns back and whose strokes are its passes. `clean`:
    the strokes (bool) without the grid's lines, its pixel (0, 0) at `origin` in the sheet image; `boxes`: the
    cells' interiors; `shares`: the share of each interior under strokes; `pieces`: `sparse_pieces`'s."""
    if len(pieces) < 2:
        return set()
    # Past a turn, the print is left out: a scribble turns back at a patch's side, on or just before its line.
    printed = on_print(clean.shape, origin, px_per_mm, t)
    turns, legs = _turns(pieces, clean & ~printed, clean, printed, origin, shares, px_per_mm, t)
    if not len(turns):
        return set()
    along = along_pieces(clean.shape, pieces[sorted(legs)], px_per_mm, t)  # within reach of a piece that turns back
    return {index for index in set(cells_at(turns, origin, px_per_mm).tolist()) - {-1}
            if mostly_along(clean, along, boxes[index], origin, px_per_mm, t)}


def along_pieces(shape: tuple[int, ...], pieces: np.ndarray, px_per_mm: float, t: ReaderTuning = TUNING) -> np.ndarray:
    """Where (bool, `shape`) lies within `t.scribble_along_mm` of one of the pieces (a pencil line's width)."""
    drawn = np.zeros(shape, np.uint8)
    width = max(round(2 * t.scribble_along_mm * px_per_mm) | 1, 1)
    for x0, y0, x1, y1 in pieces:
        cv2.line(drawn, (round(x0), round(y0)), (round(x1), round(y1)), 1, thickness=width)
    return drawn.astype(bool)


def mostly_along(clean: np.ndarray, along: np.ndarray, box: Box, origin: tuple[int, int], px_per_mm: float,
                 t: ReaderTuning = TUNING, share: float | None = None) -> bool:
    """Whether the strokes in the box (at least `t.scribble_least_mm2` of them) mostly (`t.scribble_along_share`,
    or `share`) lie `along` some pieces."""
    x0, y0, x1, y1 = box
    cut = (slice(y0 - origin[1], y1 - origin[1]), slice(x0 - origin[0], x1 - origin[0]))
    strokes = clean[cut]
    total = int(strokes.sum())
    return total >= round(t.scribble_least_mm2 * px_per_mm**2) and int((strokes & along[cut]).sum()) >= (
        (t.scribble_along_share if share is None else share) * total)


def _pieces(clean: np.ndarray, origin: tuple[int, int], px_per_mm: float, t: ReaderTuning) -> np.ndarray:
    """The straight pieces of the strokes, (n, 4) as x0, y0, x1, y1 in `clean`'s pixels, leaving out those that lie
    along a grid line (within `t.outline_band_mm` of it, and within `t.scribble_square_deg` of its direction)."""
    length = max(round(t.scribble_piece_mm * px_per_mm), 2)
    found = cv2.HoughLinesP(clean.astype(np.uint8) * 255, 1, np.pi / 180, threshold=length, minLineLength=length,
                            maxLineGap=max(round(t.scribble_gap_mm * px_per_mm), 1))
    if found is None:
        return np.zeros((0, 4), np.float64)
    pieces = np.asarray(found, np.float64).reshape(-1, 4)
    x0, y0, x1, y1 = pieces.T
    slant = np.degrees(np.arctan2(np.abs(y1 - y0), np.abs(x1 - x0)))
    cell, band = layout.CELL_MM * px_per_mm, t.outline_band_mm * px_per_mm
    grid = layout.GRID_RECT

    def off_line(at: np.ndarray, first: float) -> np.ndarray:
        offset = at - first
        return np.abs(offset - np.round(offset / cell) * cell)

    along_rows = (slant < t.scribble_square_deg) & (off_line((y0 + y1) / 2 + origin[1], grid.y * px_per_mm) <= band)
    along_cols = ((slant > 90 - t.scribble_square_deg)
                  & (off_line((x0 + x1) / 2 + origin[0], grid.x * px_per_mm) <= band))
    return pieces[~(along_rows | along_cols)]


def _turns(pieces: np.ndarray, clean: np.ndarray, lines: np.ndarray, printed: np.ndarray, origin: tuple[int, int],
           shares: np.ndarray, px_per_mm: float, t: ReaderTuning) -> tuple[np.ndarray, set[int]]:
    """Where two pieces turn back (a point just inside each turn's tip, (k, 2) in `clean`'s pixels), and the pieces
    that do. `clean`: the strokes past a tip can be seen in (the print left out); `lines`: the strokes a line is
    followed in past its end (only what runs along the print taken out, so a line is seen across a side);
    `printed`: where the print lies, which shows nothing either way of a line followed across it."""
    count = len(pieces)
    ends = np.concatenate([pieces[:, :2], pieces[:, 2:]])  # each piece's two ends: i and i + count
    far = np.concatenate([pieces[:, 2:], pieces[:, :2]])  # each end's piece's other end
    heading = far - ends  # from each end along its piece
    heading /= np.maximum(np.linalg.norm(heading, axis=1, keepdims=True), 1e-9)
    owner = np.concatenate([np.arange(count), np.arange(count)])
    cells = cells_at(ends, origin, px_per_mm)
    # Only where strokes are sparse: in shading, lines meet all over.
    keep = np.flatnonzero((cells >= 0) & (shares[np.maximum(cells, 0)] < t.crossing_full_share))
    ends, far, heading, owner = ends[keep], far[keep], heading[keep], owner[keep]
    first, second = _close_pairs(ends, t.scribble_tip_mm * px_per_mm).T
    angle = np.degrees(np.arccos(np.clip(np.einsum("ij,ij->i", heading[first], heading[second]), -1.0, 1.0)))
    low, high = t.scribble_turn_deg
    # Ends further apart than scribble_meet_mm meet where their lines do, ahead of both: the pieces found along a
    # pass stop short of a sharp turn's tip, where its two strokes run together (loose-scribble 4: g7's turn, its
    # pieces' ends 2.8 mm apart). A line's end on another line, which runs on past it, meets it beside that end.
    meet = np.linalg.norm(ends[first] - ends[second], axis=1) <= t.scribble_meet_mm * px_per_mm
    under = (owner[first] != owner[second]) & (angle < high)
    inked = cv2.dilate(lines.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)  # within a pixel of it
    apart_ends = np.flatnonzero(under & ~meet)
    under[apart_ends] = _meet_ahead(pieces, owner, ends, heading, first[apart_ends], second[apart_ends],
                                    inked | printed, px_per_mm, t)
    first, second, angle = first[under], second[under], angle[under]
    # Two passes part: each one's far end lies off the other's line. Two pieces found along one wobbling line meet
    # at a slant, crossed, a far end on the other's line (slash-stray-line 10003: a stray line's end in b7, its
    # two pieces 12.1 degrees apart and 0.04 mm off each other's line 3 mm on, read as a turn: b7 read shaded, sure).
    off = np.minimum(off_line(far[first], pieces[owner[second]]), off_line(far[second], pieces[owner[first]]))
    # Two pieces found across one thick stroke cross each other back from where their ends meet, and neither leaves
    # the other's line by more than a pencil line's width (loose-scribble 430015, blind: two pieces along one pass,
    # 23 degrees apart, crossed 1.7-2.3 mm back from their ends and 0.5 mm apart at the far one, 4 mm short of the
    # pass's real turn on h5's line, which the print hides; h5, empty, read as holding a scribble's turn, shaded and
    # sure). A thick turn's pieces cross as far back, but part by 2-4 mm (loose-scribble 10011, h7).
    crossed = _crossed_back(ends[first], heading[first], far[first], ends[second], heading[second], far[second],
                            t.scribble_meet_mm * px_per_mm)
    apart = off > np.where(crossed, t.scribble_along_mm, t.scribble_apart_mm) * px_per_mm
    # Where a pass turns back, however narrowly, for the chain below: its two pieces part by more than a pencil
    # line's width, at more than scribble_back_deg (two pieces found along one line meet at a slant too, 0.2 mm
    # apart 30 mm on, and where two lines part from one point the pieces along each start up to 1.2 mm apart).
    # Either, with no ink just past its tip; and for the chain, neither of its pieces' lines running on past it
    # (see below: where a line runs on under a scribble's turn, the print hides the ink just past the tip).
    back = (off > t.scribble_along_mm * px_per_mm) & (angle > t.scribble_back_deg)
    sharp = apart & (angle > low)
    either = back | sharp
    first, second, back, sharp = first[either], second[either], back[either], sharp[either]
    tips = (ends[first] + ends[second]) / 2
    inward = heading[first] + heading[second]  # from the tip, between its two pieces
    clear = _clear_past(clean, tips, inward, px_per_mm, t)
    running_on = (_runs_on(inked, printed, ends[first], -heading[first], px_per_mm, t)
                  | _runs_on(inked, printed, ends[second], -heading[second], px_per_mm, t))
    back &= clear & ~running_on
    backs = {int(keep[end]): tip for a, b, tip in zip(first[back], second[back], tips[back], strict=True)
             for end in (a, b)}
    turns = sharp & clear
    # A scribble shades a patch, inside the grid: a pass whose line runs on out of it, past the border's print, is a
    # line across the sheet (slash-stray-line 900010, blind: two stray lines meeting in e3, one from 12 mm above the
    # grid, read as a scribble's turn; e3 read shaded and sure).
    # Every turn found where such a line ends is its end's: its stroke's corner, cut into pieces, makes more.
    leaving = turns.copy()
    legs = np.concatenate([owner[first[turns]], owner[second[turns]]])  # each turn's two legs, chained at once
    leaving[turns] = _leaves_grid(pieces, legs, np.tile(tips[turns], (2, 1)), origin, px_per_mm, t
                                  ).reshape(2, -1).any(axis=0)
    if leaving.any():
        reach = t.scribble_meet_mm * px_per_mm
        turns &= np.min(np.linalg.norm(tips[:, None, :] - tips[None, leaving, :], axis=2), axis=1) > reach
    first, second, tips, inward, running_on = (first[turns], second[turns], tips[turns], inward[turns],
                                               running_on[turns])
    if not len(first):
        return np.zeros((0, 2)), set()
    # A scribble turns back again at the far end of a pass; two lines drawn from one point never meet another
    # turn along their way (slash-stray-line 20). The next turn lies ahead along the pass, or further along the
    # stroke where the pass bends on into the next one (loose-scribble 0: b8's turn, its passes 10 mm long, one
    # ending free and one bending at the cell's side on to the turn in c8; b8 and 40 other cells of loose-scribble
    # 0-7 were in doubt as stray lines).
    chained = _turn_ahead(tips, heading[first], px_per_mm, t) | _turn_ahead(tips, heading[second], px_per_mm, t)
    alone = np.flatnonzero(~chained)
    chained[alone] = _turn_along_stroke(keep[first[alone]], keep[second[alone]], tips[alone], backs, pieces,
                                        px_per_mm, t)
    legs = {int(owner[end]) for end in np.concatenate([first[chained], second[chained]])}
    # Both passes end at a turn: where a line runs on straight past the meeting point, the other meets it there, it
    # does not turn (slash-stray-line 190005: a stray line's end on a long one that ran on 10 mm past it read as a
    # turn in e3, an empty cell, shaded and sure). Such a meeting still tells that a turn lies ahead: the pieces
    # found along a scribble's passes end where they cross one another, and a turn counted for the one ahead
    # (loose-scribble 4: h2's turn, left alone, lost its partner in i2).
    chained &= ~running_on
    # A turn on or just past a cell's line belongs to the cell its pieces run into (stray-line 110010: the turns of
    # h5's scribble, on the line at its left, 0.25 mm inside g5, made g5 scribbled where two stray lines crossed it):
    # a point scribble_meet_mm in along them stands for it.
    inward = inward[chained]
    inward /= np.maximum(np.linalg.norm(inward, axis=1, keepdims=True), 1e-9)
    return tips[chained] + inward * t.scribble_meet_mm * px_per_mm, legs


def _leaves_grid(pieces: np.ndarray, legs: np.ndarray, tips: np.ndarray, origin: tuple[int, int],
                 px_per_mm: float, t: ReaderTuning) -> np.ndarray:
    """Per leg of a turn (`legs`: indices into `pieces`; `tips`: its turn's tip), whether the whole line it lies on
    (`chained`) ends, away from the tip, more than t.scribble_beyond_grid_mm outside the grid."""
    if not len(legs):
        return np.zeros(0, bool)
    unique, back = np.unique(legs, return_inverse=True)
    lines = chained(pieces, px_per_mm, t, seeds=unique)[unique][back]
    ends = np.stack([lines[:, :2], lines[:, 2:]], axis=1)  # turn, end, xy
    far = ends[np.arange(len(legs)), np.argmax(np.linalg.norm(ends - tips[:, None, :], axis=2), axis=1)]
    return beyond_grid_mm(far, origin, px_per_mm) > t.scribble_beyond_grid_mm


def beyond_grid_mm(points: np.ndarray, origin: tuple[int, int], px_per_mm: float) -> np.ndarray:
    """How far outside the grid each of `points` ((n, 2), in the strokes' pixels, their (0, 0) at `origin` in the
    sheet image) lies, in mm: negative inside it."""
    grid = layout.GRID_RECT
    x, y = (points[:, 0] + origin[0]) / px_per_mm, (points[:, 1] + origin[1]) / px_per_mm
    return np.maximum.reduce([grid.x - x, x - (grid.x + grid.w), grid.y - y, y - (grid.y + grid.h)])


def _meet_ahead(pieces: np.ndarray, owner: np.ndarray, ends: np.ndarray, heading: np.ndarray, first: np.ndarray,
                second: np.ndarray, inked: np.ndarray, px_per_mm: float, t: ReaderTuning) -> np.ndarray:
    """Per pair of ends (`first`, `second`: indices into `ends`, `heading` from each along its piece, `owner`: its
    piece), whether the two pieces' lines meet ahead of both ends (past them, away from the pieces), within
    t.scribble_tip_mm of each; the ends joined by the `inked` strokes around them, or the print (a turn's tip is
    ink, or lies on a printed line; the gap between two lines' free ends is paper: stray-line 930003, blind, a
    line ending 4 mm from another's end); and no other piece slanted as one of theirs runs on past that point (a
    line's end on another line, whose wobbling pieces stopped short of it: the same photo)."""
    if not len(first):
        return np.zeros(0, bool)
    a, b, heading_a, heading_b = ends[first], ends[second], heading[first], heading[second]
    crossing, along_a, along_b = _where_lines_cross(a, heading_a, b, heading_b)
    reach = t.scribble_tip_mm * px_per_mm
    found = crossing & (along_a <= 0) & (along_b <= 0) & (along_a >= -reach) & (along_b >= -reach)
    tips = a + heading_a * np.where(found, along_a, 0.0)[:, None]
    start, way = pieces[:, :2], pieces[:, 2:] - pieces[:, :2]
    length2 = np.maximum(np.einsum("ij,ij->i", way, way), 1e-9)
    unit = way / np.sqrt(length2)[:, None]
    alike = np.cos(np.radians(t.scribble_turn_deg[0]))
    width2 = (t.scribble_along_mm * px_per_mm) ** 2
    pad = round(reach) + 2
    height, width = inked.shape
    for k in np.flatnonzero(found):
        offset = tips[k] - start
        nearest = offset - np.clip(np.einsum("ij,ij->i", offset, way) / length2, 0.0, 1.0)[:, None] * way
        close = np.einsum("ij,ij->i", nearest, nearest) <= width2
        close[[owner[first[k]], owner[second[k]]]] = False
        # (close piece, leg): slanted as the leg, and reaching past the tip, the way out along it, further than a
        # turn's own pieces do
        legs = np.array([heading_a[k], heading_b[k]])
        reached = np.maximum((pieces[close, :2] - tips[k]) @ -legs.T, (pieces[close, 2:] - tips[k]) @ -legs.T)
        if ((np.abs(unit[close] @ legs.T) >= alike) & (reached > t.scribble_meet_mm * px_per_mm)).any():
            found[k] = False
            continue
        x0, y0 = (np.floor(np.minimum(a[k], b[k])) - pad).astype(int)
        x1, y1 = (np.ceil(np.maximum(a[k], b[k])) + pad).astype(int)
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
        _, labels = cv2.connectedComponents(inked[y0:y1, x0:x1].astype(np.uint8))
        ia, ib = (np.clip(np.round(p).astype(int) - [x0, y0], 0, [x1 - x0 - 1, y1 - y0 - 1]) for p in (a[k], b[k]))
        la, lb = labels[ia[1], ia[0]], labels[ib[1], ib[0]]
        found[k] = bool(la and la == lb)
    return found


def _crossed_back(ends_a: np.ndarray, heading_a: np.ndarray, far_a: np.ndarray, ends_b: np.ndarray,
                  heading_b: np.ndarray, far_b: np.ndarray, back: float) -> np.ndarray:
    """Per pair of pieces (each given by the end where they meet, the heading from it along the piece and its far
    end), whether their lines cross more than `back` along both pieces from those ends, and within both."""
    crossing, along_a, along_b = _where_lines_cross(ends_a, heading_a, ends_b, heading_b)
    length_a = np.linalg.norm(far_a - ends_a, axis=1)
    length_b = np.linalg.norm(far_b - ends_b, axis=1)
    return crossing & (along_a > back) & (along_b > back) & (along_a < length_a) & (along_b < length_b)


def _where_lines_cross(ends_a: np.ndarray, heading_a: np.ndarray, ends_b: np.ndarray, heading_b: np.ndarray
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per pair of lines (each through an end, along a unit heading): whether they cross (not parallel), and how
    far along each heading from its end they do (negative: behind it)."""
    cross = heading_a[:, 0] * heading_b[:, 1] - heading_a[:, 1] * heading_b[:, 0]
    gap = ends_b - ends_a
    with np.errstate(divide="ignore", invalid="ignore"):
        along_a = (gap[:, 0] * heading_b[:, 1] - gap[:, 1] * heading_b[:, 0]) / cross
        along_b = (gap[:, 0] * heading_a[:, 1] - gap[:, 1] * heading_a[:, 0]) / cross
    return np.abs(cross) > 1e-9, along_a, along_b


def off_line(points: np.ndarray, pieces: np.ndarray) -> np.ndarray:
    """How far each point lies from the line through its piece (rows of x0, y0, x1, y1)."""
    direction = pieces[:, 2:] - pieces[:, :2]
    direction /= np.maximum(np.linalg.norm(direction, axis=1, keepdims=True), 1e-9)
    offset = points - pieces[:, :2]
    return np.abs(offset[:, 0] * direction[:, 1] - offset[:, 1] * direction[:, 0])


def _clear_past(clean: np.ndarray, tips: np.ndarray, inward: np.ndarray, px_per_mm: float, t: ReaderTuning
                ) -> np.ndarray:
    """Per tip, whether there is no ink just past it, away from both its pieces (`inward` points between them)."""
    outward = -inward / np.maximum(np.linalg.norm(inward, axis=1, keepdims=True), 1e-9)
    near, far = t.scribble_clear_mm
    distances = np.arange(near, far + 1e-9, 0.25) * px_per_mm
    height, width = clean.shape
    clear = np.ones(len(tips), bool)
    for turn in np.radians((-t.scribble_clear_deg, 0.0, t.scribble_clear_deg)):
        cos, sin = np.cos(turn), np.sin(turn)
        direction = np.stack([outward[:, 0] * cos - outward[:, 1] * sin, outward[:, 0] * sin + outward[:, 1] * cos], 1)
        points = np.round(tips[:, None, :] + direction[:, None, :] * distances[None, :, None]).astype(int)
        x, y = points[..., 0], points[..., 1]
        inside = (x >= 0) & (x < width) & (y >= 0) & (y < height)
        inked = np.zeros(x.shape, bool)
        inked[inside] = clean[y[inside], x[inside]]
        clear &= ~inked.any(axis=1)
    return clear


def _runs_on(inked: np.ndarray, printed: np.ndarray, ends: np.ndarray, onward: np.ndarray, px_per_mm: float,
             t: ReaderTuning) -> np.ndarray:
    """Per end, whether its line runs on `onward` past it: `inked` at `t.scribble_runs_on_share` of the points from
    `t.scribble_runs_on_mm`'s near to its far distance past it (the near one past where a turn's stroke ends: the
    pieces found along it stop short of its tip). Points on the `printed` lines are passed over, and the line is
    followed on, up to twice the far distance, until as many points as that are seen (half of them at least): the
    print taken out of the strokes cuts a line where it crosses a printed line, over 2 mm where it crosses at a
    corner of the grid or at a shallow slant (stray-line 630013, blind: two stray lines cut so at f4's corner, 23
    degrees apart, read as a scribble's turn; f4, empty, read shaded and sure)."""
    near, far = t.scribble_runs_on_mm
    window = len(np.arange(near, far + 1e-9, 0.25))
    distances = np.arange(near, 2 * far + 1e-9, 0.25) * px_per_mm
    points = np.round(ends[:, None, :] + onward[:, None, :] * distances[None, :, None]).astype(int)
    x, y = points[..., 0], points[..., 1]
    height, width = inked.shape
    inside = (x >= 0) & (x < width) & (y >= 0) & (y < height)
    hits, seen = np.zeros(x.shape, bool), np.ones(x.shape, bool)  # off the image: seen, and no ink
    hits[inside] = inked[y[inside], x[inside]]
    seen[inside] = ~printed[y[inside], x[inside]]
    counted = seen & (np.cumsum(seen, axis=1) <= window)
    count = counted.sum(axis=1)
    return (2 * count >= window) & ((hits & counted).sum(axis=1) >= t.scribble_runs_on_share * count)


def _close_pairs(points: np.ndarray, reach: float) -> np.ndarray:
    """The pairs (i, j), i != j, of points within `reach` of one another, each once: along the points sorted by x,
    each is compared with the next ones until none is within reach across (memory in proportion to the points)."""
    order = np.argsort(points[:, 0], kind="stable")
    ordered = points[order]
    found = [np.zeros((0, 2), int)]
    for step in range(1, len(ordered)):
        near = np.flatnonzero(ordered[step:, 0] - ordered[:-step, 0] <= reach)
        if not len(near):
            break
        near = near[np.linalg.norm(ordered[near + step] - ordered[near], axis=1) <= reach]
        found.append(np.stack([order[near], order[near + step]], axis=1))
    return np.concatenate(found)


def _turn_along_stroke(first: np.ndarray, second: np.ndarray, tips: np.ndarray, backs: dict[int, np.ndarray],
                       pieces: np.ndarray, px_per_mm: float, t: ReaderTuning) -> np.ndarray:
    """Per turn (its tip, and the ends of its two pieces, `first` and `second`: end i is piece i's first end, end
    i + len(pieces) its second), whether the stroke turns back again along its way. The stroke is followed from
    the tip along each piece to its far end, then along any piece that end lies on (within `t.scribble_along_mm`:
    a stroke bends on into the next piece, or the pieces found along it overlap) to either of that piece's ends,
    and so on, nearest first, for `t.scribble_pass_mm` of stroke, never back through the tip (the ends within two
    `t.scribble_meet_mm` of it: one turn is found as several). It turns back at an end in `backs` (those ends, and
    their tips) more than that far from the tip."""
    count = len(pieces)
    reach, apart = t.scribble_pass_mm * px_per_mm, 2 * t.scribble_meet_mm * px_per_mm
    points = np.concatenate([pieces[:, :2], pieces[:, 2:]])  # end i's point
    start, direction = pieces[:, :2], pieces[:, 2:] - pieces[:, :2]
    lengths = np.linalg.norm(direction, axis=1)
    length2 = np.maximum(lengths**2, 1e-9)
    width2 = (t.scribble_along_mm * px_per_mm) ** 2

    @cache
    def lies_on(end: int) -> tuple[int, ...]:
        """The pieces that pass within a pencil line's width of an end."""
        offset = points[end] - start
        along = np.clip(np.einsum("ij,ij->i", offset, direction) / length2, 0.0, 1.0)
        gap = offset - along[:, None] * direction
        return tuple(np.flatnonzero(np.einsum("ij,ij->i", gap, gap) <= width2).tolist())

    found = np.zeros(len(tips), bool)
    for turn, tip in enumerate(tips):
        reached = set(np.flatnonzero(np.linalg.norm(points - tip, axis=1) <= apart).tolist())  # the tip's own
        far_ends = ((int(end) + count) % (2 * count) for end in (first[turn], second[turn]))
        queue = [(float(lengths[end % count]), end) for end in far_ends]  # (stroke followed, end reached)
        heapq.heapify(queue)
        while queue:
            travelled, end = heapq.heappop(queue)
            if end in reached:
                continue
            reached.add(end)
            if end in backs and np.linalg.norm(backs[end] - tip) > apart:
                found[turn] = True
                break
            for piece in lies_on(end):
                for onward in (piece, piece + count):
                    further = travelled + float(np.linalg.norm(points[onward] - points[end]))
                    if onward not in reached and further <= reach:
                        heapq.heappush(queue, (further, onward))
    return found


def _turn_ahead(tips: np.ndarray, heading: np.ndarray, px_per_mm: float, t: ReaderTuning) -> np.ndarray:
    """Per tip, whether another tip lies ahead along its `heading`, as far as a pass runs, near its line (in blocks
    of tips, so that memory stays bounded)."""
    ahead_of = np.zeros(len(tips), bool)
    for start in range(0, len(tips), 512):
        block = slice(start, start + 512)
        offsets = tips[None, :, :] - tips[block, None, :]  # [i, j]: from tip i of the block to tip j
        ahead = np.einsum("ijk,ik->ij", offsets, heading[block])
        aside = np.abs(offsets[..., 0] * heading[block, None, 1] - offsets[..., 1] * heading[block, None, 0])
        ahead_of[block] = ((ahead > t.scribble_meet_mm * px_per_mm) & (ahead <= t.scribble_pass_mm * px_per_mm)
                           & (aside <= t.scribble_aside_mm * px_per_mm)).any(axis=1)
    return ahead_of


def chained(pieces: np.ndarray, px_per_mm: float, t: ReaderTuning = TUNING, seeds: np.ndarray | None = None
            ) -> np.ndarray:
    """The pieces, (n, 4) like `pieces`, each of `seeds` (indices; all by default) as the whole straight line it lies
    on: pieces slanted alike (within `t.pass_chain_deg`), both ends within a line's reach of its line, each at most
    `t.pass_chain_gap_mm` past what it reaches so far, taken in one after another. The grid's printed lines are
    taken out of the strokes, so a pass is cut at every side it crosses (scribble-outlined 200021: one pass from
    g2's turn across h2 to i2's corner was six pieces, none reaching 8 mm past h2's sides; h2, empty and enclosed
    by its neighbours' outlines, read sure)."""
    lines = pieces.astype(np.float64)
    seeds = np.arange(len(pieces)) if seeds is None else np.asarray(seeds, int)
    if len(pieces) < 2 or not len(seeds):
        return lines
    x0, y0, x1, y1 = lines.T
    length = np.maximum(np.hypot(x1 - x0, y1 - y0), 1e-9)
    ux, uy = ((x1 - x0) / length)[seeds, None], ((y1 - y0) / length)[seeds, None]
    sx, sy = x0[seeds, None], y0[seeds, None]
    # [seed, piece]: where the piece's ends lie along the seed's line, from its start, and how far off it
    along = np.stack([(x - sx) * ux + (y - sy) * uy for x, y in ((x0, y0), (x1, y1))])
    off = np.maximum(*[np.abs((x - sx) * uy - (y - sy) * ux) for x, y in ((x0, y0), (x1, y1))])
    alike = np.abs(ux * ((x1 - x0) / length) + uy * ((y1 - y0) / length)) >= np.cos(np.radians(t.pass_chain_deg))
    seed, piece = np.nonzero(alike & (off <= t.scribble_along_mm * px_per_mm))  # the pairs on one line
    first, last = along.min(axis=0)[seed, piece], along.max(axis=0)[seed, piece]
    low, high, gap = np.zeros(len(seeds)), length[seeds], t.pass_chain_gap_mm * px_per_mm
    while True:
        reached = (first <= high[seed] + gap) & (last >= low[seed] - gap)
        wider_low, wider_high = low.copy(), high.copy()
        np.minimum.at(wider_low, seed[reached], first[reached])
        np.maximum.at(wider_high, seed[reached], last[reached])
        if np.array_equal(wider_low, low) and np.array_equal(wider_high, high):
            break
        low, high = wider_low, wider_high
    start, direction = lines[seeds, :2], np.hstack([ux, uy])
    lines[seeds] = np.hstack([start + low[:, None] * direction, start + high[:, None] * direction])
    return lines


def cells_at(points: np.ndarray, origin: tuple[int, int], px_per_mm: float) -> np.ndarray:
    """The cell (row * 9 + col) each point of `clean` lies in, or -1 off the grid."""
    cell, grid = layout.CELL_MM * px_per_mm, layout.GRID_RECT
    col = np.floor((points[:, 0] + origin[0] - grid.x * px_per_mm) / cell).astype(int)
    row = np.floor((points[:, 1] + origin[1] - grid.y * px_per_mm) / cell).astype(int)
    return np.where((row >= 0) & (row < SIZE) & (col >= 0) & (col < SIZE), row * SIZE + col, -1)
