"""Glare: a lamp's or a flash's reflection that saturates the paper, so that pencil under it cannot be seen.

A specular reflection adds light: paper, print and pencil alike are pushed up, and where the sum passes what the
sensor holds every channel clips to white. Graphite there reads as paper, and no light model can bring it back,
since the photo holds nothing but white. So the saturated part of the sheet is found: clipped in all three
channels over a blob some millimetres wide (holes where pencil is not quite clipped filled in), where the printed
lines are lighter than along the rest of the same line (added light; a bright exposure of white paper clips too,
but leaves the print as dark as ever), or keep little of the contrast the same print has over the sheet (a broad
glare over a sheet clipped all over lifts most of each line). A glare's light falls off smoothly, so around the
cells found the doubt spreads to the cells whose print it still lifts by half. What it may hide is put in doubt
with the reason, and a note says where and asks for another photo. The values it decides with are
`tuning.ReaderTuning`'s `glare_*`, with their evidence.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from doodle.geometry import Cell
from doodle.quilt import SIZE, Quilt, cells_in_words
from doodle.sheet import layout
from doodle.sheet.doubts import Uncertain
from doodle.sheet.strokes import side_neighbours
from doodle.sheet.tuning import TUNING, ReaderTuning

GLARE_REASON = "under glare: washed out to white, pencil may not show"
GLARE_FRINGE_REASON = "beside glare: read as paper where the glare's light, falling off, may wash pencil out"
GLARE_ADVICE = "retake the photo without the glare (tilt the phone, no flash)"
MAX_NAMED_CELLS = 6  # more cells than this are told by their count and the corners they span


@dataclass(frozen=True)
class Glare:
    """The saturated part of the sheet (a mask at 1 px per mm, sheet frame) and what it touches."""

    mask: np.ndarray
    cells: frozenset[Cell] = frozenset()
    specials: tuple[str, ...] = ()
    rounds: tuple[int, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.cells or self.specials or self.rounds)

    @property
    def note(self) -> str:
        """Where the glare is, as players name the places, and what to do."""
        places = []
        if self.cells:
            places.append(cells_in_words(self.cells, MAX_NAMED_CELLS))
        if self.specials:
            names = " and ".join(f"'{name}'" for name in self.specials)
            places.append(f"the special box{'es' * (len(self.specials) > 1)} {names}")
        if self.rounds:
            numbers = " and ".join(str(number) for number in self.rounds)
            places.append(f"the bubbles of round{'s' * (len(self.rounds) > 1)} {numbers}")
        return (f"glare over {', '.join(places)}: the paper there is washed out to white and pencil may not show; "
                f"{GLARE_ADVICE}")

    def doubts(self, quilt: Quilt, specials_used: Sequence[str] | None,
               round_scores: Sequence[int | None]) -> tuple[Uncertain, ...]:
        """What the glare may hide, as doubts (confidence 0, with the reason), given what was read.

        Glare only adds light: a cell read as shaded, or a box read as crossed, under it is so. A cell read as
        empty, an uncrossed box and a round's bubbles may be pencil washed out to white (`specials_used` None:
        the boxes and bubbles were not read)."""
        found = [Uncertain.of_cell(cell, False, 0.0, GLARE_REASON)
                 for cell in sorted(self.cells) if not quilt.is_covered(*cell)]
        if specials_used is not None:
            found += [Uncertain.of_special(name, False, 0.0, GLARE_REASON)
                      for name in self.specials if name not in specials_used]
            found += [Uncertain.of_round(number, round_scores[number - 1] is not None, f"round {number} {GLARE_REASON}")
                      for number in self.rounds]
        return tuple(found)

    def fringe_doubts(self, settled_paper: Collection[Cell], quilt: Quilt,
                      inked_paper: Collection[Cell] = frozenset()) -> tuple[Uncertain, ...]:
        """The cells read as paper against their ink beside the glare's cells: settled so by the printed lines
        (`settled_paper`; and beside such a cell in turn), or holding more ink than paper does there
        (`inked_paper`). A glare's light falls off smoothly across a fill, so a fill runs on through its lines into
        the part of it washed out to paper, and is settled as paper (mixed 5100013, blind: f3, a solid fill at 0.31
        of ink beside g3 and f4 under a glare, ran on into g3, which ran on into h3, washed out to 0.03: read empty,
        unflagged), or keeps only a little of its ink (light 200028: b7, a solid fill, 0.059). A cell whose ink
        reads as paper's is no concern of the glare's (light 14: six such cells beside it were put in doubt)."""
        beside = {cell for row, col in self.cells for cell in side_neighbours(row * SIZE + col)} - self.cells
        found = beside & set(inked_paper)
        frontier = list(self.cells | found)
        while frontier:
            row, col = frontier.pop()
            for cell in side_neighbours(row * SIZE + col):
                if cell in settled_paper and cell not in found and cell not in self.cells:
                    found.add(cell)
                    frontier.append(cell)
        return tuple(Uncertain.of_cell(cell, False, 0.0, GLARE_FRINGE_REASON)
                     for cell in sorted(found) if not quilt.is_covered(*cell))


def find_glare(sheet: np.ndarray, px_per_mm: float, t: ReaderTuning = TUNING,
               shaded: Collection[Cell] = ()) -> Glare:
    """The glare on the flattened sheet `sheet` (BGR uint8, `px_per_mm` pixels per mm), whose cells `shaded` were
    read as shaded (their pencil darkens the printed lines beside them)."""
    height, width = sheet.shape[:2]
    size = (max(1, round(width / px_per_mm)), max(1, round(height / px_per_mm)))
    b, g, r = cv2.split(sheet)
    lowest = cv2.min(cv2.min(b, g), r)
    clipped = cv2.compare(lowest, t.glare_clip, cv2.CMP_GE)
    if cv2.countNonZero(clipped) < t.glare_min_area_mm2 * px_per_mm**2 * t.glare_min_share:
        return Glare(np.zeros(size[::-1], bool))
    share = cv2.resize(clipped, size, interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
    blob = (share >= t.glare_min_share).astype(np.uint8)
    blob = cv2.morphologyEx(blob, cv2.MORPH_CLOSE, np.ones((t.glare_close_mm,) * 2, np.uint8))
    # Pencil under the glare that is not quite clipped leaves holes in the blob: the light over it is the blob's.
    contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    mask = np.zeros_like(blob)
    for contour in contours:
        if cv2.contourArea(contour) >= t.glare_min_area_mm2:
            cv2.drawContours(mask, [contour], -1, 1, cv2.FILLED)
    if not mask.any():
        return Glare(mask > 0)
    fringe = 2 * round(t.glare_fringe_mm) + 1
    mask = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (fringe, fringe))) > 0

    def touched(rect: layout.Rect) -> bool:
        """Whether the clipped blob reaches `rect`."""
        x0, y0, x1, y1 = rect.to_px(1.0)
        return bool(mask[max(y0, 0) : max(y1, 0), max(x0, 0) : max(x1, 0)].any())

    @cache  # each strip is looked at by the line test, the contrast test and the spread
    def darkness(rect: layout.Rect) -> float:
        x0, y0, x1, y1 = rect.to_px(px_per_mm)
        patch = lowest[max(y0, 0) : max(y1, 0), max(x0, 0) : max(x1, 0)]
        return float(np.percentile(patch, t.glare_line_percentile)) if patch.size else 255.0

    def contrasts(strips: list[layout.Rect]) -> list[float]:
        """The share of its usual contrast against white that each strip of alike print keeps where the clipped
        blob reaches it (1 elsewhere): the usual being the darker part of that print, which a glare spares."""
        dark = [darkness(strip) for strip in strips]
        usual = 255.0 - float(np.percentile(dark, t.glare_typical_percentile))
        return [(255.0 - value) / max(usual, 1.0) if touched(strip) else 1.0
                for value, strip in zip(dark, strips, strict=True)]

    def lifted(lines: list[list[layout.Rect]], kept: list[float], least: float = t.glare_min_contrast,
               marked: list[list[bool]] | None = None, kinds: list[int] | None = None) -> list[list[bool]]:
        """Which strips of these printed lines (or boxes, or bubbles: alike print) are lighter than the rest of
        the same line (lines are drawn alike along their length, or thinner here and there: each is compared with
        itself), or keep less than `least` of the print's contrast over the sheet (a glare over most of a line).
        `kept`: `contrasts` of all the strips, line after line.

        A strip beside pencil (`marked`, line after line) is print and pencil, darker than the print alone, and no
        measure of it (mild 30030, paper clipped all over by a bright exposure: the only strips the blob missed
        were beside shading, 27-40 against 75-110 for the thin lines' print, and 16 cells were put under a glare
        there was not). A line with no clean strip away from the blob is compared with the clean strips away from
        it of the lines of its kind (`kinds`: the border is printed heavier than the inner lines), else with its
        own clean strips."""
        marked = marked or [[False] * len(line) for line in lines]
        kinds = kinds or [0] * len(lines)
        dark_lines = [[darkness(strip) for strip in line] for line in lines]
        clean_strips = [[(value, strip) for value, strip, mark in zip(dark, line, marks, strict=True) if not mark]
                        for dark, line, marks in zip(dark_lines, lines, marked, strict=True)]
        clean = [[value for value, _ in strips] for strips in clean_strips]
        clean_away = [[value for value, strip in strips if not touched(strip)] for strips in clean_strips]
        kind_away = {kind: [value for away, of in zip(clean_away, kinds, strict=True) if of == kind for value in away]
                     for kind in set(kinds)}
        found, start = [], 0
        for line, dark, own, away, kind in zip(lines, dark_lines, clean, clean_away, kinds, strict=True):
            ratios, start = kept[start : start + len(line)], start + len(line)
            reference = float(np.median(away or kind_away[kind] or own or dark))
            found.append([touched(strip) and (value >= reference + t.glare_lift or ratio < least)
                          for value, strip, ratio in zip(dark, line, ratios, strict=True)])
        return found

    grid, cell_mm, w = layout.GRID_RECT, layout.CELL_MM, t.glare_line_mm
    across_strips = [[layout.Rect(grid.x + col * cell_mm, grid.y + k * cell_mm - w, cell_mm, 2 * w)
                      for col in range(SIZE)] for k in range(SIZE + 1)]  # [line][column]
    down_strips = [[layout.Rect(grid.x + k * cell_mm - w, grid.y + row * cell_mm, 2 * w, cell_mm)
                    for row in range(SIZE)] for k in range(SIZE + 1)]  # [line][row]
    shaded = frozenset(shaded)
    marked_across = [[(k - 1, col) in shaded or (k, col) in shaded for col in range(SIZE)] for k in range(SIZE + 1)]
    marked_down = [[(row, k - 1) in shaded or (row, k) in shaded for row in range(SIZE)] for k in range(SIZE + 1)]
    kinds = [int(k in (0, SIZE)) for k in range(SIZE + 1)] * 2
    kept = contrasts([strip for line in across_strips + down_strips for strip in line])
    glared = lifted(across_strips + down_strips, kept, marked=marked_across + marked_down, kinds=kinds)
    across, down = glared[: SIZE + 1], glared[SIZE + 1 :]
    cells = {(row, col) for row in range(SIZE) for col in range(SIZE)
             if across[row][col] or across[row + 1][col] or down[col][row] or down[col + 1][row]}
    if cells:
        kept_across, kept_down = np.array(kept).reshape(2, SIZE + 1, SIZE)
        cells = _spread(cells, kept_across, kept_down, t.glare_spread_contrast)
    # A box or a bubble is a short stretch of print: one the clipped blob reaches is under the glare as soon as its
    # print keeps less than the share that spreads the cells' doubt (light 800021: the 'single' box, crossed, kept
    # 0.41 of the boxes' contrast under the glare's edge, its cross washed out, and read unused, unflagged). When
    # the blob reaches all four boxes, none shows their print's usual contrast, and each is under the glare (light
    # 1000005: the crossed 'cut' box kept 0.52 of a usual the glare had lowered, and read unused, unflagged) if
    # the glare lifts printed lines elsewhere too (paper clipped all over by a bright exposure, the print as dark
    # as ever, is no glare: plain 100012).
    boxes = [special.check.inset(-w) for special in layout.SPECIALS]
    if cells and all(touched(box) for box in boxes):
        glared_boxes = [True] * len(boxes)
    else:
        glared_boxes = lifted([boxes], contrasts(boxes), t.glare_spread_contrast)[0]
    specials = tuple(special.name for special, glared in zip(layout.SPECIALS, glared_boxes, strict=True) if glared)
    keys = [(block.number, place, digit) for block in layout.ROUNDS for place in layout.PLACES for digit in range(10)]
    bubbles = [layout.bubble_rect(*key) for key in keys]
    glared_bubbles = lifted([bubbles], contrasts(bubbles), t.glare_spread_contrast)[0]
    rounds = {key[0] for key, glared in zip(keys, glared_bubbles, strict=True) if glared}
    return Glare(mask, frozenset(cells), specials, tuple(sorted(rounds)))


def _spread(cells: set[Cell], across: np.ndarray, down: np.ndarray, below: float) -> set[Cell]:
    """`cells` under a glare, with the cells beside them, and beside those in turn, whose printed lines keep less
    than `below` of the print's contrast (`across[line][column]`, `down[line][row]`).

    A glare's light falls off smoothly from its core: around the cells where it lifts the print past doubt, it
    still lifts pencil, lighter than print, to white. Elsewhere on the sheet print that light is only print."""
    def kept(row: int, col: int) -> float:
        return float(min(across[row][col], across[row + 1][col], down[col][row], down[col + 1][row]))

    found, frontier = set(cells), list(cells)
    while frontier:
        row, col = frontier.pop()
        for near in side_neighbours(row * SIZE + col):
            if near not in found and kept(*near) < below:
                found.add(near)
                frontier.append(near)
    return found
