"""What covers part of the sheet: a thumb or a finger holding the sheet down over a corner marker, and anything
lying over the grid (a pencil left on the sheet, a finger).

A corner marker that was not seen, although its place is inside the photo, is covered. Whatever covers it covers
the paper around it too, and is darker than paper: taken as paper, it darkens the light estimated around it, and
the cells and print near it read in a light that is not there (harsh 26, 69, 78 and 139: a thumb over a corner
made the light beside it look steep, and 13 to 22 cells were put in doubt; 0 to 7 now). So the cover is found
and left out of the paper: from the middle of the marker's place, the area of the same colour, grown as long as
the colour changes gradually (a thumb's edge against paper is a step; the light over the thumb changes smoothly).
A marker lost to glare or blur is not covered: its middle looks like paper or print, and nothing is left out.

Over the grid, what covers it hides the print: on a sharp photo a printed line shows through pencil of any colour
or pressure (the print is darker than any of them), but not through a pencil or a finger lying over it. So
wherever a stretch of a grid line is no darker than the sheet on one side of it or the other, and that sheet is
not paper (paper washed out to white is a glare's, see glare.py), something lies over the cells beside it: they
cannot be read (a pencil left across the grid read the cells under its body as shaded, and hid the shading of
others, with no doubt: 20 of pencil-on-sheet 0-23). On a blurred photo the print fades into dark fills too, and
nothing is said. How much darker the line is, is measured in the colour in which the sheet beside it is
brightest: a pencil's paint is dark in one colour or two, and there the grain of a photo alone made the line look
darker than what lies over it (13 of pencil-on-sheet 0-23 and 10000-10023 still wrong with no doubt; 0 now).
What lies over the grid is long (a pencil, a finger): past the last line it hides, along its axis, its end may
lie over a cell without hiding a line (a pencil's sharpened tip), and the cell there is in doubt too.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np

from doodle.geometry import Cell
from doodle.quilt import SIZE, Quilt, cells_in_words
from doodle.sheet import layout
from doodle.sheet.doubts import Uncertain
from doodle.sheet.placement import all_inside
from doodle.sheet.tuning import TUNING, ReaderTuning


def cover_over(sheet: np.ndarray, marker: layout.Rect, px_per_mm: float, t: ReaderTuning = TUNING) -> np.ndarray:
    """The part of the flattened sheet `sheet` (BGR uint8, `px_per_mm`) covered by what hides the marker whose
    place is `marker` (bool, the sheet's size; nothing when its middle shows paper or print)."""
    height, width = sheet.shape[:2]
    covered = np.zeros((height, width), bool)
    x0, y0, x1, y1 = marker.inset(-t.cover_reach_mm).to_px(px_per_mm)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return covered
    window = sheet[y0:y1, x0:x1]
    size = (max(1, round((x1 - x0) / px_per_mm)), max(1, round((y1 - y0) / px_per_mm)))
    small = cv2.resize(window, size, interpolation=cv2.INTER_AREA)  # 1 px per mm: the sheet's grain averaged out
    cx, cy = marker.center  # mm, and the window's own millimetres start at x0, y0 pixels
    seed = (int(np.clip(round(cx - x0 / px_per_mm), 0, size[0] - 1)),
            int(np.clip(round(cy - y0 / px_per_mm), 0, size[1] - 1)))
    paper = np.percentile(small.reshape(-1, 3), t.cover_paper_percentile, axis=0)
    middle = small[seed[1], seed[0]].astype(np.float64)
    darkest = float(np.min(middle / np.maximum(paper, 1.0)))
    brightest = float(np.max(middle / np.maximum(paper, 1.0)))
    if darkest >= t.cover_paper_share or brightest <= t.cover_print_share:
        return covered  # paper (a marker washed out) or the marker's own print (blurred past reading)
    mask = np.zeros((size[1] + 2, size[0] + 2), np.uint8)
    step = (t.cover_step,) * 3
    cv2.floodFill(small, mask, seed, (0, 0, 0), step, step, 4 | cv2.FLOODFILL_MASK_ONLY | (1 << 8))
    region = mask[1:-1, 1:-1]
    margin = 2 * round(t.cover_margin_mm) + 1
    region = cv2.dilate(region, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (margin, margin)))
    covered[y0:y1, x0:x1] = cv2.resize(region, (x1 - x0, y1 - y0), interpolation=cv2.INTER_NEAREST) > 0
    return covered


COVER_REASON = "covered: the print does not show through what lies over it"
COVER_ADVICE = "move it off the sheet and retake the photo"


def cover_doubts(shown: GridPrint, quilt: Quilt, specials_used: tuple[str, ...] | None,
                 round_scores: tuple[int | None, ...]) -> tuple[Uncertain, ...]:
    """The cells, special boxes and rounds something lies over (`shown`), as doubts (confidence 0, whatever `quilt`,
    `specials_used` and `round_scores` read there: what lies over a cell, a box or a bubble can read as a mark, or
    hide one)."""
    used = specials_used or ()
    return (tuple(Uncertain.of_cell(cell, quilt.is_covered(*cell), 0.0, COVER_REASON) for cell in sorted(shown.covered))
            + tuple(Uncertain.of_special(name, name in used, 0.0, COVER_REASON) for name in shown.covered_specials)
            + tuple(Uncertain.of_round(number, round_scores[number - 1] is not None, f"round {number} {COVER_REASON}")
                    for number in covered_rounds(shown, round_scores)))


def covered_rounds(shown: GridPrint, round_scores: tuple[int | None, ...]) -> tuple[int, ...]:
    """The rounds something lies over (`shown`): those it hides, and those beside them with a bubble read filled
    (its digit in the score read, `round_scores`) whose ring it hides in part."""
    touched = {number for number, place, digit in shown.touched_bubbles
               if (score := round_scores[number - 1]) is not None
               and digit == (score // 10 if place == "tens" else score % 10)}
    return tuple(sorted(set(shown.covered_rounds) | touched))


def cover_note(shown: GridPrint, round_scores: tuple[int | None, ...]) -> str:
    """What a player is told of the cells, boxes and bubbles something lies over (`shown`; `round_scores`: the
    scores read, which tell the rounds beside a covered one that it reached, see `covered_rounds`)."""
    where = [cells_in_words(shown.covered)] if shown.covered else []
    if shown.covered_specials:
        boxes = shown.covered_specials
        names = _listed("'" + name + "'" for name in boxes)
        where.append(f"the {names} box" + ("es" if len(boxes) > 1 else ""))
    if rounds := covered_rounds(shown, round_scores):
        where.append(f"the bubbles of round{'s' * (len(rounds) > 1)} {_listed(map(str, rounds))}")
    return (f"something lies over {' and '.join(where)} (a pencil, a finger?): the print does not show through it, "
            f"so what is under it cannot be read; {COVER_ADVICE}")


def _listed(names: Iterable[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    *rest, last = names
    return f"{', '.join(rest)} and {last}" if rest else last


@dataclass(frozen=True)
class GridPrint:
    """How the print shows on a flattened sheet: the cells, special boxes and rounds something lies over (see
    `grid_print`), and the grid lines' median contrast (log, against the sheet beside them; inf when none could be
    measured): 0.7 and more on a sharp photo, 0.14 and more on the blurriest of the harsh level's, under 0.1 on
    photos a moving hand blurred (shaken-hard)."""

    covered: frozenset[Cell]
    contrast: float
    covered_specials: tuple[str, ...] = ()  # the special actions' boxes something lies over, in the sheet's order
    covered_rounds: tuple[int, ...] = ()  # the rounds whose bubbles something lies over
    # Beside a covered round, the bubbles (round, place, digit) with some of their ring hidden: what lies over the
    # one may reach over them, and make them read filled (`cover_doubts`).
    touched_bubbles: tuple[tuple[int, str, int], ...] = ()

    @property
    def anything_covered(self) -> bool:
        return bool(self.covered or self.covered_specials or self.covered_rounds)


def covered_cells(sheet: np.ndarray, px_per_mm: float, t: ReaderTuning = TUNING) -> frozenset[Cell]:
    """The cells beside a stretch of the grid's printed lines, t.cover_run_mm long or longer, that does not show on
    the flattened sheet `sheet` (BGR uint8, `px_per_mm`): something lies over them. None when the photo's print is
    too faint all over to tell (t.cover_sharp_print)."""
    return grid_print(sheet, px_per_mm, t, boxes=False).covered


def grid_print(sheet: np.ndarray, px_per_mm: float, t: ReaderTuning = TUNING, inside: np.ndarray | None = None,
               boxes: bool = True) -> GridPrint:
    """How the grid's printed lines show on the flattened sheet `sheet` (BGR uint8, `px_per_mm`), and, when `boxes`
    (the sheet was placed by its markers, so its boxes and bubbles are read), the special boxes' frames and the
    rounds' bubbles' rings: those not all in the photo (`inside`, its pixels that were, when not all were) are not
    looked at. On a photo whose print is too faint all over to tell (t.cover_sharp_print), nothing is taken as
    covered."""
    grid, cell = layout.GRID_RECT, layout.CELL_MM
    views = ((True, sheet, grid.y, grid.x), (False, sheet.transpose(1, 0, 2), grid.x, grid.y))
    widths = [layout.GRID_OUTER_LINE_MM] + [layout.GRID_INNER_LINE_MM] * (SIZE - 1) + [layout.GRID_OUTER_LINE_MM]
    measured = [(across, _line_pieces(image, [start + k * cell for k in range(SIZE + 1)], widths, along,
                                      SIZE * cell, px_per_mm, t, most_a_ridge=True))
                for across, image, start, along in views]
    # A blurred photo shows its thin print faintly everywhere, and no longer through a dark fill either (harsh 22:
    # whole sides between solid cells at 0.00): nothing there tells what lies over the grid from pencil.
    shown = np.concatenate([pieces.contrast for _, lines in measured for pieces in lines])
    shown = shown[np.isfinite(shown)]
    contrast = float(np.median(shown)) if shown.size else float("inf")
    if contrast < t.cover_sharp_print or not np.isfinite(contrast):
        return GridPrint(frozenset(), contrast)
    # What lies over the grid is not paper: darker than the sheet's paper in one colour at least, or of another hue
    # (a faint print on paper, a line lost to a sharpened photo's halo, are paper there; see `_hidden`).
    paper = np.median(np.concatenate([pieces.colour for _, lines in measured for pieces in lines]), axis=0)
    per_cell = round(cell / t.cover_piece_mm)
    run = max(1, round(t.cover_run_mm / t.cover_piece_mm))
    covered: set[Cell] = set()
    hidden_at: set[tuple[float, float, int]] = set()  # each hidden piece's middle (mm, in the grid) and its line
    for across, lines in measured:
        for line, pieces in enumerate(lines):
            hidden = _hidden(pieces, paper, t)
            in_run = np.convolve(hidden.astype(int), np.ones(run, int), mode="valid") >= run
            for first in np.flatnonzero(in_run):
                for piece in range(first, first + run):
                    along = piece // per_cell
                    covered.update((beside, along) if across else (along, beside)
                                   for beside in (line - 1, line) if 0 <= beside < SIZE)
                    middle = (piece + 0.5) * t.cover_piece_mm
                    hidden_at.add((middle, line * cell, line) if across else (line * cell, middle, SIZE + 1 + line))
    in_photo = np.ones(sheet.shape[:2], bool) if inside is None else inside
    rounds, touched = _covered_rounds(sheet, in_photo, px_per_mm, t) if boxes else ((), ())
    return GridPrint(frozenset(covered | _past_the_ends(sorted(hidden_at), t)), contrast,
                     _covered_boxes(sheet, in_photo, paper, px_per_mm, t) if boxes else (), rounds, touched)


def _hidden(pieces: _Pieces, paper: np.ndarray, t: ReaderTuning, both_sides: bool = False) -> np.ndarray:
    """Which of a printed line's `pieces` do not show, over a sheet that is not paper (`paper`: its colour): darker
    than t.cover_not_paper of it in one colour at least, or of another hue (its colours apart by t.cover_hue, over
    paper's: a light skin is 0.65 of paper in blue, and as bright as paper in red). On one side of the line, or
    with `both_sides`, on both (the brighter side is not paper either)."""
    share = (pieces.brighter if both_sides else pieces.colour) / np.maximum(paper, 1.0)
    not_paper = (share.min(axis=1) < t.cover_not_paper) | (share.max(axis=1) - share.min(axis=1) > t.cover_hue)
    return (pieces.showing < t.cover_line_contrast) & not_paper


def _covered_boxes(sheet: np.ndarray, inside: np.ndarray, paper: np.ndarray, px_per_mm: float, t: ReaderTuning
                   ) -> tuple[str, ...]:
    """The special actions whose box's printed frame does not show, t.cover_box_mm of it or more in all (its four
    sides, away from the rounded corners), where the sheet beside it is not paper (`_hidden`): what lies over the
    grid may lie over a box too (blind pencil-on-sheet 390000: a pencil past the grid's edge lay over the 'twice'
    box, read crossed, with no doubt). A player's cross or fill leaves the frame showing, as pencil does over the
    grid's lines. A box cut off by the photo's edge is not looked at (the reading says it is not all in the
    photo)."""
    inset = layout.CHECK_RADIUS_MM
    reach = _looked_at_mm(layout.CHECK_LINE_MM, t)
    found = []
    for special in layout.SPECIALS:
        box = special.check
        if not all_inside(inside, box.inset(-reach), px_per_mm):
            continue
        views = ((sheet, [box.y, box.y2], box.x + inset, box.w - 2 * inset),
                 (sheet.transpose(1, 0, 2), [box.x, box.x2], box.y + inset, box.h - 2 * inset))
        hidden = sum(int(_hidden(pieces, paper, t).sum()) for image, lines, along, length in views
                     for pieces in _line_pieces(image, lines, [layout.CHECK_LINE_MM] * 2, along, length, px_per_mm, t))
        if hidden * t.cover_piece_mm >= t.cover_box_mm:
            found.append(special.name)
    return tuple(found)


def _covered_rounds(sheet: np.ndarray, inside: np.ndarray, px_per_mm: float, t: ReaderTuning
                    ) -> tuple[tuple[int, ...], tuple[tuple[int, str, int], ...]]:
    """The rounds whose bubbles something lies over (a pencil, a finger): where more than t.cover_ring_share of a
    bubble's printed ring does not show, and the sheet on both sides of it is not paper (see `_hidden`; paper: the
    brighter part of the round, t.cover_round_paper_percentile). The thin ring does not show through a dark fill,
    but around a fill lies paper; what lies over a bubble lies over the paper around it too. A round not all in the
    photo is not looked at. (A pencil's end over an empty bubble of round 1 read as a score of 0 with no doubt;
    nothing told the player what lay over the bubbles.) What lies over one round's bubbles is long, and its tip may
    reach over a bubble of the round beside it, hiding less of its ring: there, more than t.cover_tip_ring_share
    of a ring hidden is enough. With less, the bubbles of the round beside with any of their ring hidden are
    returned too: one of them read filled was read so for what lies over it (pencil-over-bubbles 830000, blind: a
    pencil's side over round 1's units 9, a seventh of its ring hidden, read as a score of 9 where none was
    written, unflagged)."""
    most_hidden: dict[int, float] = {}
    hidden_rings: dict[int, np.ndarray] = {}
    radius = layout.BUBBLE_RADIUS_MM
    scale = 2 * px_per_mm  # the rings unrolled at twice the sheet's resolution: their thin print spans whole pixels
    pieces_around = round(2 * np.pi * radius / t.cover_piece_mm)
    bubbles = [(place, digit) for place in layout.PLACES for digit in range(10)]  # a round's, in the order measured
    for block in layout.ROUNDS:
        area = _round_area(block.number, _ring_reach_mm(t))
        if not all_inside(inside, area, px_per_mm):
            continue
        x0, y0, x1, y1 = area.to_px(px_per_mm)
        paper = np.percentile(sheet[y0:y1, x0:x1].reshape(-1, 3).astype(np.float32) + 1.0,
                              t.cover_round_paper_percentile, axis=0)
        # The round's 20 rings side by side, each unrolled into a line of whole pieces: measured as one line.
        rings = np.hstack([_unrolled_ring(sheet, layout.bubble_center(block.number, place, digit), px_per_mm, scale,
                                          pieces_around, t)
                           for place, digit in bubbles])
        length = len(bubbles) * pieces_around * t.cover_piece_mm  # the rings laid end to end (mm)
        pieces = _line_pieces(rings, [radius], [layout.BUBBLE_LINE_MM], 0.0, length, scale, t)[0]
        hidden = _hidden(pieces, paper, t, both_sides=True).reshape(-1, pieces_around)  # ring by ring
        hidden_rings[block.number] = hidden.mean(axis=1)
        most_hidden[block.number] = float(hidden_rings[block.number].max())
    covered = {number for number, share in most_hidden.items() if share > t.cover_ring_share}
    beside = {number for number in most_hidden if {number - 1, number + 1} & covered} - covered
    reached = {number for number in beside if most_hidden[number] > t.cover_tip_ring_share}
    touched = tuple((number, *bubbles[ring]) for number in sorted(beside - reached)
                    for ring in np.flatnonzero(hidden_rings[number] > 0))
    return tuple(sorted(covered | reached)), touched


def _round_area(number: int, margin_mm: float) -> layout.Rect:
    """Round `number`'s bubbles, with `margin_mm` around their middles (sheet mm)."""
    (x0, y0), (x1, y1) = (layout.bubble_center(number, layout.PLACES[0], 0),
                          layout.bubble_center(number, layout.PLACES[-1], 9))
    return layout.Rect(x0 - margin_mm, y0 - margin_mm, x1 - x0 + 2 * margin_mm, y1 - y0 + 2 * margin_mm)


def _looked_at_mm(width_mm: float, t: ReaderTuning) -> float:
    """How far from a printed line `width_mm` wide `_line_pieces` looks: the band the line is looked for in, and
    the sheet beside it (t.cover_beside_mm)."""
    return width_mm / 2 + t.cover_line_pad_mm + t.cover_beside_mm


def _ring_reach_mm(t: ReaderTuning) -> float:
    """How far from a bubble's middle its ring is measured: as far as `_line_pieces` looks past it, and a little
    more. Inside, the measure reaches as far towards the middle: it must stay short of it (cover_beside_mm under
    about 1.8 mm), or no ring is measured."""
    return layout.BUBBLE_RADIUS_MM + _looked_at_mm(layout.BUBBLE_LINE_MM, t) + t.cover_line_pad_mm


def _unrolled_ring(sheet: np.ndarray, center_mm: tuple[float, float], px_per_mm: float, scale: float,
                   pieces_around: int, t: ReaderTuning) -> np.ndarray:
    """The sheet around a bubble unrolled (`scale` pixels a millimetre): each row a radius from its middle, out to
    `_ring_reach_mm`, each column a direction, so that the ring is a horizontal line as the grid's are,
    `pieces_around` whole pieces of t.cover_piece_mm long."""
    radii = round(_ring_reach_mm(t) * scale)
    directions = pieces_around * round(t.cover_piece_mm * scale)
    centre = (center_mm[0] * px_per_mm, center_mm[1] * px_per_mm)
    polar = cv2.warpPolar(sheet, (radii, directions), centre, radii / scale * px_per_mm,
                          cv2.WARP_POLAR_LINEAR + cv2.INTER_LINEAR)
    return polar.transpose(1, 0, 2)


def _past_the_ends(hidden_at: list[tuple[float, float, int]], t: ReaderTuning) -> set[Cell]:
    """The cells a long object's ends may lie over, beyond the last line it hides: along its axis (fitted to the
    middles of the hidden pieces, `hidden_at`: x and y in mm from the grid's corner, and which line), past each
    end. Its body may run on up to the next line along the axis, which it would hide (a cell's side or further,
    as the axis slants), and a pencil's sharpened tip, narrower than its body, t.cover_tip_mm beyond that without
    hiding any line (blind pencil-on-sheet 370023: the tip over a8 read shaded, with no doubt; 520021: the last
    line hidden was c7's top, and the tip over c8, more than 16 mm past it along a steep axis, read shaded with
    no doubt)."""
    found: set[Cell] = set()
    if not hidden_at:
        return found
    points = np.array([(x, y) for x, y, _ in hidden_at], np.float32)
    lines = np.array([line for _, _, line in hidden_at])
    # One object: the pieces linked by gaps of at most t.cover_link_mm.
    labels = _linked(points, t.cover_link_mm)
    span = SIZE * layout.CELL_MM
    for label in np.unique(labels):
        mine = labels == label
        if len(np.unique(lines[mine])) < 2:
            continue  # along one line only: no axis of its own
        vx, vy, x0, y0 = cv2.fitLine(points[mine], cv2.DIST_L2, 0, 0.01, 0.01).ravel()
        axis, origin = np.array([vx, vy]), np.array([x0, y0])
        reach = (points[mine] - origin) @ axis
        next_line = layout.CELL_MM / max(abs(float(vx)), abs(float(vy)))
        for end, outward in ((reach.min(), -1.0), (reach.max(), 1.0)):
            for step in np.arange(0.0, next_line + t.cover_tip_mm + 1e-6, 1.0):
                x, y = origin + axis * (end + outward * step)
                if 0 <= x < span and 0 <= y < span:
                    found.add((int(y // layout.CELL_MM), int(x // layout.CELL_MM)))
    return found


def _linked(points: np.ndarray, link_mm: float) -> np.ndarray:
    """A label for each of `points` (mm), the same for points joined by steps of at most `link_mm`."""
    labels = np.arange(len(points))
    near = np.linalg.norm(points[:, None, :] - points[None, :, :], axis=2) <= link_mm
    changed = True
    while changed:  # the smallest label spreads over each linked group
        spread = np.where(near, labels[None, :], len(points)).min(axis=1)
        changed = bool((spread < labels).any())
        labels = np.minimum(labels, spread)
    return labels


@dataclass(frozen=True)
class _Pieces:
    """A printed line's pieces, each measured in the middle of its columns: how much darker (log) the line is than
    the sheet on both sides of it (`contrast`: its darkest row, in the colour brightest beside it, how sharply the
    photo shows the print; `showing`: whether it shows at all, for a grid line at the row most a ridge in the
    colour it stands out most in, else `contrast`), and that sheet's colour ((pieces, 3), each channel; washed out
    to white by a glare, paper's): the darker side's, and the brighter side's."""

    contrast: np.ndarray
    showing: np.ndarray
    colour: np.ndarray
    brighter: np.ndarray


def _line_pieces(image: np.ndarray, lines_mm: list[float], widths_mm: list[float], along_mm: float,
                 length_mm: float, px_per_mm: float, t: ReaderTuning, most_a_ridge: bool = False) -> list[_Pieces]:
    """The pieces (t.cover_piece_mm long, from `along_mm` for `length_mm`) of each horizontal line of `image` at
    `lines_mm` (mm from the top; printed `widths_mm` wide), measured column by column and colour by colour: the
    row within t.cover_line_pad_mm of the line that is darkest (or with `most_a_ridge`, most a ridge), against the
    brightest of the sheet within t.cover_beside_mm of it above, and below. A printed line is a narrow ridge,
    darker than the paper on both sides (however close a drawn outline runs beside it, or dark a fill over it);
    across what lies over it (a pencil's painted facets), one side at least is no brighter than the line. Whether
    it shows is measured in the colour brightest beside it (in a colour the sheet is dark in, noise alone makes
    the darkest pixel darker and the brightest brighter), or with `most_a_ridge`, the colour it stands out most
    in of those with t.cover_lit_share of that light."""
    piece = round(t.cover_piece_mm * px_per_mm)
    count = round(length_mm / t.cover_piece_mm)
    x0 = round(along_mm * px_per_mm)

    def middle(values: np.ndarray) -> np.ndarray:
        return np.median(values.reshape(count, piece), axis=1)

    reach = round(t.cover_beside_mm * px_per_mm)
    found = []
    for y_mm, width_mm in zip(lines_mm, widths_mm, strict=True):
        half = round((width_mm / 2 + t.cover_line_pad_mm) * px_per_mm)
        middle_row = round(y_mm * px_per_mm)
        top = middle_row - half - reach
        if top < 0 or middle_row + half + reach + 1 > image.shape[0] or x0 < 0 or x0 + count * piece > image.shape[1]:
            found.append(_Pieces(np.full(count, np.inf), np.full(count, np.inf), np.full((count, 3), 256.0),
                                 np.full((count, 3), 256.0)))
            continue
        band = image[top : middle_row + half + reach + 1, x0 : x0 + count * piece].astype(np.float32) + 1.0
        # Each column's line, colour by colour. The grid's lines are taken at the row most a ridge, in the colour they
        # stand out most in (`most_a_ridge`): a pencil outline drawn just beside a line over a fill is darker than the
        # print, and is no ridge against the fill beyond it (lens 8000008: g1's outline, 0.6 mm from the f1-g1 line, was
        # taken for the line, and the line as hidden); a lens's colour fringes shift the line and smear it in one colour
        # (lens 8000010: in blue, the colour brightest beside it, the b1-c1 line was no darker than c1's grey fill);
        # beside a red fill only red has the light (sensor 8300005). Not a bubble's ring, nor a box's frame: measured
        # so, the seventh of a ring under a pencil's side no longer read as hidden (pencil-over-bubbles 830000: round
        # 1's units 9 read as a score of 9 where none was written, with no doubt). Colour by colour, as a coloured
        # pencil's outline along a line is dark in some colours only (framing 3600012, blind: a red outline just under a
        # line, darker than the print in the blue, was taken for it, and the line as hidden).
        count_rows = 2 * half + 1  # the rows the line is looked for in: reach to reach + 2 * half
        above, below = band[reach - 1 : reach - 1 + count_rows], band[reach + 1 : reach + 1 + count_rows]
        for d in range(2, reach + 1):  # the brightest within reach of each, above and below: (rows, columns, colours)
            above = np.maximum(above, band[reach - d : reach - d + count_rows])
            below = np.maximum(below, band[reach + d : reach + d + count_rows])
        beside = np.minimum(above, below)
        ridge = np.log(beside / band[reach : reach + count_rows])
        # How sharply the photo shows the print is measured as it always was, at each colour's darkest row in the
        # colour brightest beside it: the most of several rows and colours is raised by noise, and a blurred,
        # noisy photo (mixed 19: 0.46 so, 0.65 the other way) would pass for sharp enough to tell a cover by.
        darkest = band[reach : reach + count_rows].argmin(axis=0)[None]
        at = ridge.argmax(axis=0)[None] if most_a_ridge else darkest  # (1, columns, colours)
        dark_ridge, dark_beside = (np.take_along_axis(values, darkest, 0)[0] for values in (ridge, beside))
        contrast = np.take_along_axis(dark_ridge, dark_beside.argmax(axis=1)[:, None], 1)[:, 0]
        ridge, beside, above, below = (np.take_along_axis(values, at, 0)[0] for values in (ridge, beside, above, below))
        showing = contrast
        if most_a_ridge:
            lit = beside >= t.cover_lit_share * beside.max(axis=1, keepdims=True)
            showing = np.where(lit, ridge, -np.inf).max(axis=1)
        brighter = np.maximum(above, below)
        found.append(_Pieces(contrast=middle(contrast), showing=middle(showing),
                             colour=np.stack([middle(beside[:, k]) for k in range(3)], 1),
                             brighter=np.stack([middle(brighter[:, k]) for k in range(3)], 1)))
    return found
