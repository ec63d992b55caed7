"""The drawn outline: players outline each patch along the printed grid lines, then shade it (issue 15). A pencil
line along a cell's side, over the printed line or just beside it, is a second signal beside the ink inside the
cell: a mark inside a drawn outline is deliberate; a tint or a stray line with no outline around it is suspect.

Each side of each cell is read as a profile across the printed line (the ink averaged along the side), and the
line-like part of it (a one-dimensional top-hat: what is narrower than a pencil line's reach) is summed: the
printed line alone gives the same sum all over the sheet, measured in the same photo; a drawn line adds to it.
Strokes crossing the side (hatching, a slash) add about the same at every offset, so the top-hat takes them out;
a curve (a coffee ring's rim) runs along a side for a short stretch only, so each side is read in parts and the
middle part-reading taken. The values it decides with are `tuning.ReaderTuning`'s `outline_*`, with their
evidence.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import cv2
import numpy as np

from doodle.quilt import SIZE
from doodle.sheet import layout
from doodle.sheet.strokes import touching_groups
from doodle.sheet.tuning import TUNING, ReaderTuning


@dataclass(frozen=True)
class EdgeLines:
    """The line-like ink along each side of each cell, in mm of full ink (the width a black line would have),
    on each side of the printed line, less what lies as deep again inside the cell (hatching parallel to the
    side shows there too; an outline does not).

    `above[r, c]` is read on the upper side of the horizontal line at the top of row r (r = 9: the bottom of the
    grid), `below[r, c]` on its lower side; `left[r, c]` and `right[r, c]` on either side of the vertical line at
    the left of column c (c = 9: the right of the grid)."""

    above: np.ndarray  # (SIZE + 1, SIZE)
    below: np.ndarray
    left: np.ndarray  # (SIZE, SIZE + 1)
    right: np.ndarray


def edge_lines(ink: np.ndarray, px_per_mm: float, t: ReaderTuning = TUNING) -> EdgeLines:
    """The line-like ink along every cell side of the grid, from the sheet image's ink (0 paper .. 1 black)."""
    band = round(t.outline_band_mm * px_per_mm)
    far0, far1 = (round(v * px_per_mm) for v in t.outline_far_band_mm)
    reach = round(t.outline_line_reach_mm * px_per_mm) | 1
    grid = layout.GRID_RECT
    cell = layout.CELL_MM * px_per_mm
    gx, gy = grid.x * px_per_mm, grid.y * px_per_mm
    bounds = np.linspace(t.outline_edge_span[0], t.outline_edge_span[1], t.outline_edge_parts + 1)

    def read(strips: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """strips: (sides, parts along a side, offsets across it, -far1 .. far1 with the line at the middle); per
        side, the middle part-reading on either side of the line."""
        count, parts, width = strips.shape
        # One row at a time (the kernel is one row high): all the sides' parts in one call.
        opened = cv2.morphologyEx(strips.reshape(count * parts, width), cv2.MORPH_OPEN, np.ones((1, reach), np.uint8),
                                  borderType=cv2.BORDER_REPLICATE).reshape(strips.shape)
        lines = strips - opened
        mid = far1
        sides = []
        for sign in (-1, 1):
            near = lines[..., mid + 1 : mid + band + 1] if sign > 0 else lines[..., mid - band : mid]
            far = lines[..., mid + far0 : mid + far1] if sign > 0 else lines[..., mid - far1 + 1 : mid - far0 + 1]
            centre = lines[..., mid] / 2
            excess = near.sum(axis=-1) + centre - far.sum(axis=-1) * band / far.shape[-1]
            sides.append(np.median(excess, axis=-1).astype(np.float64) / px_per_mm)
        return sides[0], sides[1]

    def sides_of(along: float, across: float, vertical: bool) -> tuple[np.ndarray, np.ndarray]:
        """Both readings of the horizontal lines of the ink (of its vertical ones, as rows of its transpose),
        (SIZE + 1) by SIZE: `across` is where the first line lies, `along` where the grid starts along it."""
        image = ink.T if vertical else ink
        height, width = image.shape
        parts = len(bounds) - 1
        strips = np.zeros((SIZE + 1, SIZE, parts, 2 * far1 + 1), np.float32)
        # The parts of the sides along a line (c, p: cell, part), by their length.
        spans = [(c, p, round(along + (c + a) * cell), round(along + (c + b) * cell))
                 for c in range(SIZE) for p, (a, b) in enumerate(zip(bounds[:-1], bounds[1:], strict=True))]
        by_length: dict[int, list[tuple[int, int, int, int]]] = {}
        for span in spans:
            by_length.setdefault(span[3] - span[2], []).append(span)
        for k in range(SIZE + 1):
            # The profile across the line (the nearest edge pixel's past the image's edges), and each part's mean
            # along it as .mean(axis=1) of the part gives it: the parts of one length are averaged in one call.
            line = round(across + k * cell)
            profile = np.ascontiguousarray(image[np.clip(np.arange(line - far1, line + far1 + 1), 0, height - 1)])
            for length, same in by_length.items():
                cols = np.clip(np.array([x0 for _, _, x0, _ in same])[:, None] + np.arange(length), 0, width - 1)
                means = np.take(profile, cols, axis=1).mean(axis=2)
                for (c, p, _, _), mean in zip(same, means.T, strict=True):
                    strips[k, c, p] = mean
        first, second = read(strips.reshape(-1, parts, 2 * far1 + 1))
        return (first.reshape(SIZE + 1, SIZE).astype(np.float32), second.reshape(SIZE + 1, SIZE).astype(np.float32))

    above, below = sides_of(gx, gy, vertical=False)
    left, right = sides_of(gy, gx, vertical=True)
    return EdgeLines(above, below, left.T, right.T)


def _sides(r: int, c: int) -> list[tuple[tuple[int, int], str, tuple[int, int]]]:
    """The cell's four sides: (neighbour across it, which reading is on this cell's side, index into it)."""
    return [((r - 1, c), "below", (r, c)), ((r + 1, c), "above", (r + 1, c)),
            ((r, c - 1), "right", (r, c)), ((r, c + 1), "left", (r, c + 1))]


def _other(name: str) -> str:
    return {"below": "above", "above": "below", "right": "left", "left": "right"}[name]


def sides_drawn(drawn: dict[str, np.ndarray], index: int) -> list[tuple[tuple[int, int], bool]]:
    """The four sides of a cell (index row * 9 + col), above, below, left and right: the neighbour across each
    (which may be off the grid) and whether a line is drawn along it on either side of the print (`drawn`:
    `drawn_sides`'s)."""
    return [(neighbour, bool(drawn[name][at] or drawn[_other(name)][at]))
            for neighbour, name, at in _sides(*divmod(index, SIZE))]


def drawn_on_own_side(drawn: dict[str, np.ndarray], index: int) -> bool:
    """Whether a line is drawn along one of the cell's sides on its own side of the print (its own outline, not
    a neighbour's; `drawn`: `drawn_sides`'s)."""
    return any(bool(drawn[name][at]) for _, name, at in _sides(*divmod(index, SIZE)))


def joined(drawn: dict[str, np.ndarray], index: int, other: int) -> bool:
    """Whether two cells share a side with no line drawn along it (`drawn`: `drawn_sides`'s)."""
    for (row, col), across in sides_drawn(drawn, index):
        if row * SIZE + col == other and 0 <= row < SIZE and 0 <= col < SIZE:
            return not across
    return False


def shut_out(drawn: dict[str, np.ndarray], least: int = 3) -> set[int]:
    """The cells (index row * 9 + col) left out by the outlines around them: at least `least` of their sides drawn
    on the far side of the print only, by the neighbours' outlines (`drawn`: `drawn_sides`'s). A hole in a patch,
    or a gap between patches, that its player did not outline as a patch of its own (its own side of the fourth
    may read as drawn: a scribble's strokes along it, an outline over the print)."""
    return {index for index in range(SIZE * SIZE)
            if sum(bool(drawn[_other(name)][at]) and not drawn[name][at] for (r, c), name, at in
                   _sides(*divmod(index, SIZE)) if 0 <= r < SIZE and 0 <= c < SIZE) >= least}


class _Enclosure(NamedTuple):
    """A cell's sides inside the grid (the grid's border is printed thick and tells nothing)."""

    joined_shaded: bool  # one joins it to a shaded cell, no line drawn between them
    open_side: bool  # one is neither so joined nor drawn on the cell's own side
    own_sides: int  # how many are drawn on its own side of the print


def _enclosure(drawn: dict[str, np.ndarray], shaded: set[int], index: int) -> _Enclosure:
    """How a cell (index row * 9 + col) is closed in by the lines drawn around it (`drawn`: `drawn_sides`'s),
    `shaded` holding the cells read shaded."""
    joined_shaded, open_side, own_sides = False, False, 0
    for (row, col), name, at in _sides(*divmod(index, SIZE)):
        if not (0 <= row < SIZE and 0 <= col < SIZE):
            continue
        mine, theirs = bool(drawn[name][at]), bool(drawn[_other(name)][at])
        if row * SIZE + col in shaded and not (mine or theirs):
            joined_shaded = True
        elif mine:
            own_sides += 1
        else:
            open_side = True
    return _Enclosure(joined_shaded, open_side, own_sides)


def inside_outlines(drawn: dict[str, np.ndarray], shaded: set[int], cells: set[int]) -> set[int]:
    """Of `cells` (index row * 9 + col), those a drawn outline takes in with shaded cells: joined to a cell of
    `shaded` (no line drawn between them), and every other side inside the grid drawn on their own side, at least
    one (`drawn`: `drawn_sides`'s). The grid's border is printed thick and tells nothing."""
    return {index for index in cells
            if (sides := _enclosure(drawn, shaded, index)).joined_shaded and sides.own_sides and not sides.open_side}


def outlined_alone(drawn: dict[str, np.ndarray], cells: set[int]) -> set[int]:
    """Of `cells` (index row * 9 + col), those outlined as a patch of their own: every side inside the grid drawn on
    their own side of the print, at least two (`drawn`: `drawn_sides`'s; the grid's border tells nothing)."""
    return {index for index in cells
            if not (sides := _enclosure(drawn, set(), index)).open_side and sides.own_sides >= 2}


def drawn_sides(lines: EdgeLines, t: ReaderTuning = TUNING) -> dict[str, np.ndarray]:
    """Per reading (above, below, left, right), whether a line is drawn over the print on that side: more
    line-like ink than the print alone gives, measured on the same reading of the inner sides of this photo and,
    apart, of the grid's thicker border (the two sides of a printed line read a little apart: the line is not
    exactly where the sheet's homography puts it)."""
    drawn = {}
    for name in ("above", "below", "left", "right"):
        reading = getattr(lines, name)
        lines_first = reading if name in ("above", "below") else reading.T
        reference = np.full(lines_first.shape, _print_level(lines_first[1:SIZE], t.outline_drawn), np.float32)
        reference[[0, SIZE]] = _densest_level(lines_first[[0, SIZE]], t.outline_drawn)
        if name in ("left", "right"):
            reference = reference.T
        drawn[name] = reading - reference > t.outline_drawn
    return drawn


def _densest_level(readings: np.ndarray, spread: float) -> float:
    """The middle of the densest cluster of `readings`, `spread` wide: what the grid's bold border reads, where
    the band the print is read in takes in more or less of it all round the grid, and nothing clusters lower."""
    values, counts = _clusters(readings, spread)
    return _middle(values, counts, int(np.argmax(counts)))


def _clusters(readings: np.ndarray, spread: float) -> tuple[np.ndarray, np.ndarray]:
    """The readings sorted, and how many lie within `spread` from each one up."""
    values = np.sort(readings.ravel())
    return values, np.searchsorted(values, values + spread, side="right") - np.arange(len(values))


def _middle(values: np.ndarray, counts: np.ndarray, first: int) -> float:
    """The median of the cluster of sorted `values` that starts at `first` (`counts`: `_clusters`')."""
    return float(np.median(values[first : first + counts[first]]))


def _print_level(readings: np.ndarray, spread: float) -> float:
    """What the printed line alone reads, from the readings of alike sides on one side of the print: the middle
    of their lowest dense cluster, `spread` wide. The print reads alike all over the sheet, and drawn lines only
    add ink: on a sheet outlined all over, most sides are drawn, and the median reading is a drawn one; the
    drawn ones may even cluster more densely than the print's (scribble-outlined 830022, blind: 0.34-0.41 against
    the print's 0.09-0.16; taken for the print, f8's drawn sides read as print and f8, empty between outlined
    patches with a pass across it, read shaded and sure). A cluster counts with half the densest's sides or more."""
    values, counts = _clusters(readings, spread)
    low = values[int(np.argmax(2 * counts >= counts.max()))]  # where the lowest dense cluster begins
    return _middle(values, counts, int(np.argmax(np.where(values <= low + spread, counts, -1))))


def outlined_cells(lines: EdgeLines, marked: set[int], t: ReaderTuning = TUNING) -> set[int]:
    """The marked cells (index row * 9 + col) that lie in a drawn outline: marked cells are grouped as they touch,
    a drawn side between two of them parting them (two patches side by side, or a patch and a stray mark in the
    hole it leaves), and a group counts as outlined when most of its border is drawn on its side."""
    drawn = drawn_sides(lines, t)
    own_lined = {index for index in marked - shut_out(drawn) if drawn_on_own_side(drawn, index)}

    found: set[int] = set()
    for group in touching_groups(marked, lambda index, other: joined(drawn, index, other)):
        # A line between two marked cells of different groups parts them on whichever side of the print it lies:
        # two patches side by side, each outlined, leave one line or two there, and it may lie over the print or
        # just beside it, on either patch's side. Only around a cell outlined on its own side somewhere: the lines
        # around a hole, or a gap between patches, that its player left unoutlined are the neighbours'
        # (scribble-outlined 21: b2, empty, a pass of a scribble next door in it; stray line 150022: f8, empty, a
        # stray line along its diagonal, between e8's and g8's outlines).
        border = {index: [bool(drawn[name][at] or (0 <= nr < SIZE and 0 <= nc < SIZE and nr * SIZE + nc in marked
                                                   and index in own_lined and drawn[_other(name)][at]))
                          for (nr, nc), name, at in _sides(*divmod(index, SIZE))
                          if not (0 <= nr < SIZE and 0 <= nc < SIZE and nr * SIZE + nc in group)] for index in group}
        sides = [side for own in border.values() for side in own]
        facing = {index: [bool(drawn[name][at]) for (nr, nc), name, at in _sides(*divmod(index, SIZE))
                          if 0 <= nr < SIZE and 0 <= nc < SIZE and nr * SIZE + nc not in marked] for index in group}
        # An outline that runs on around as many cells with no mark as marked ones is no shaded patch's: the
        # group is open into them (loose scribble 80016: a pass across e6, in an outline around e6, e7 and f7 left
        # unshaded). A patch with a cell too faint to be marked is still outlined.
        unmarked = {nr * SIZE + nc for index in group for (nr, nc), across in sides_drawn(drawn, index)
                    if 0 <= nr < SIZE and 0 <= nc < SIZE and nr * SIZE + nc not in marked and not across}
        if sides and np.mean(sides) >= t.outline_enclosed_share and len(unmarked) < len(group):
            # ... and each cell of it on the border is outlined on its own sides (a stroke running on from a
            # patch into an empty cell beside it does not join that cell to the patch): on those that face unmarked
            # cells, where a patch's outline must run, when it has any (coffee-ring 90022: a ring's rim along d4's
            # side toward another patch counted, its open side toward an empty cell did not).
            found |= {index for index, own in border.items()
                      if not own or np.mean(facing.get(index) or own) >= t.outline_own_share}
    return found
