"""Seeded synthetic phone photos of filled-in score sheets, with their ground truth.

The sheet is the real printed PDF (doodle.sheet.pdf, rendered with pypdfium2), so the photos test what players
will actually photograph. On it we draw what players draw: patches of real card shapes shaded in pencil-like
styles (solid, hatching, scribble, light graphite, coloured pencils including pale yellow), outlines of patches
that were never shaded (distractors the reader must ignore), crossed special-action boxes, filled round-score
bubbles and handwriting. Then a camera looks at it: perspective tilt, rotation by quarter turns plus a small
angle, uneven light, a hard shadow, a table around the sheet, blur, sensor noise, JPEG compression and low
resolution. Everything is drawn from one seed, so `make_photo(seed, level)` is reproducible.

Used by the tests and by benchmarks/bench_scan.py:
    photo = make_photo(7, "moderate")
    photo.jpeg            # the encoded photo (bytes), what a phone would store
    photo.image           # the same photo decoded, BGR uint8
    photo.truth.quilt     # a doodle.Quilt; .specials_used, .round_scores, .sheet_id ...
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache

import cv2
import numpy as np
import pypdfium2

from doodle.game.deck import load_deck
from doodle.quilt import Quilt, placements_on_empty
from doodle.sheet import layout as L
from doodle.sheet.pdf import render_sheets, sheet_id

Cell = tuple[int, int]

# Pencil colours as reflectance (R, G, B) of a full-pressure layer on white paper.
GRAPHITE = (0.30, 0.30, 0.33)
COLOURS: dict[str, tuple[float, float, float]] = {
    "red": (0.85, 0.25, 0.22),
    "blue": (0.25, 0.42, 0.85),
    "green": (0.30, 0.65, 0.30),
    "orange": (0.98, 0.55, 0.15),
    "purple": (0.55, 0.30, 0.70),
    "pale yellow": (1.00, 0.96, 0.58),
}
STYLES = ("solid", "hatching", "scribble", "light", "coloured", "pale yellow")


@dataclass(frozen=True)
class Conditions:
    """A named set of ranges the generator draws each photo's degradations from."""

    name: str
    max_tilt_deg: float = 0.0
    max_small_rotation_deg: float = 0.0
    quarter_turns: bool = True
    fill: tuple[float, float] = (0.75, 0.9)  # share of the photo's limiting side the page covers
    light_gradient: float = 0.0  # darkest corner of the light falls to 1 - this
    shadow_probability: float = 0.0
    shadow_strength: tuple[float, float] = (0.3, 0.5)  # share of the light the shadow takes away
    blur_sigma_px: tuple[float, float] = (0.0, 0.0)
    noise_sigma: tuple[float, float] = (0.0, 0.0)  # in 8-bit grey levels
    jpeg_quality: tuple[int, int] = (95, 95)
    megapixels: tuple[float, float] = (3.0, 3.0)
    styles: tuple[str, ...] = STYLES
    distractor_outlines: tuple[int, int] = (0, 2)
    occluded_marker_probability: float = 0.0  # a thumb over one corner marker (3 of 4 remain)
    colour_cast: float = 0.0  # warm or cool white balance error, as a share per channel
    unturned_phone_probability: float = 0.0  # photo frame across the sheet: the sheet fills less of it


CONDITIONS: dict[str, Conditions] = {
    "clean": Conditions("clean", quarter_turns=False, distractor_outlines=(0, 0)),
    "mild": Conditions(
        "mild",
        max_tilt_deg=12,
        max_small_rotation_deg=4,
        fill=(0.7, 0.9),
        light_gradient=0.15,
        blur_sigma_px=(0.0, 0.7),
        noise_sigma=(0.5, 2.0),
        jpeg_quality=(85, 95),
        megapixels=(4.0, 12.0),
        styles=("solid", "hatching", "scribble", "coloured"),
        distractor_outlines=(0, 1),
        colour_cast=0.03,
    ),
    "moderate": Conditions(
        "moderate",
        max_tilt_deg=25,
        max_small_rotation_deg=10,
        fill=(0.65, 0.92),
        light_gradient=0.35,
        shadow_probability=0.35,
        shadow_strength=(0.2, 0.4),
        blur_sigma_px=(0.0, 1.2),
        noise_sigma=(1.0, 4.0),
        jpeg_quality=(70, 92),
        megapixels=(2.0, 12.0),
        distractor_outlines=(0, 2),
        colour_cast=0.06,
        unturned_phone_probability=0.1,
    ),
    "harsh": Conditions(
        "harsh",
        max_tilt_deg=35,
        max_small_rotation_deg=20,
        fill=(0.6, 0.92),
        light_gradient=0.5,
        shadow_probability=0.7,
        shadow_strength=(0.3, 0.55),
        blur_sigma_px=(0.5, 2.0),
        noise_sigma=(2.0, 7.0),
        jpeg_quality=(50, 75),
        megapixels=(1.0, 4.0),
        distractor_outlines=(1, 3),
        occluded_marker_probability=0.1,
        colour_cast=0.1,
        unturned_phone_probability=0.1,
    ),
}
LEVELS = ("mild", "moderate", "harsh")


@dataclass(frozen=True)
class Truth:
    """What is on the sheet: the reader must recover the first three exactly."""

    quilt: Quilt
    specials_used: tuple[str, ...]  # in layout.SPECIAL_NAMES order
    round_scores: tuple[int | None, int | None, int | None]  # None: the round's bubbles were left empty
    sheet_id: str = "0001"
    paper: str = "a4"
    styles: dict[Cell, str] = field(default_factory=dict, compare=False)  # how each shaded cell was drawn

    def to_json(self) -> dict:
        return {
            "quilt": self.quilt.rows(),
            "specials_used": list(self.specials_used),
            "round_scores": list(self.round_scores),
        }


@dataclass(frozen=True)
class SyntheticPhoto:
    seed: int
    conditions: Conditions
    truth: Truth
    jpeg: bytes
    sheet_to_photo: np.ndarray  # 3x3 homography from sheet millimetres to photo pixels
    details: dict = field(default_factory=dict, compare=False)  # the degradations drawn, for reports

    @property
    def image(self) -> np.ndarray:
        """The photo decoded, BGR uint8 (decoded on demand: keep the JPEG, not megapixels of arrays)."""
        return cv2.imdecode(np.frombuffer(self.jpeg, np.uint8), cv2.IMREAD_COLOR)

    def save(self, path: str) -> None:
        with open(path, "wb") as handle:
            handle.write(self.jpeg)


# --- the sheet content ------------------------------------------------------------------------------------------------
@cache
def _shapes() -> tuple:
    deck = load_deck()
    return tuple(card.shape for card in deck.start_cards + deck.patch_cards)


def _placements(quilt: Quilt, shape) -> list:
    """`quilt.placements(shape)`, built afresh from this shape. The engine caches placements under equal shapes,
    so what it returns was built from whichever equal shape asked first (a bot's, in a test run), and a cell set's
    order, which the drawing follows as it draws from the generator, depends on how the set was built: a photo
    drawn after a bot's game differed from the same photo drawn in a fresh process (mixed 5000018)."""
    bits = quilt.bits
    return [placement for placement in placements_on_empty.__wrapped__(shape) if not placement.mask & bits]


def random_patches(rng: np.random.Generator, target_fill: float | None = None) -> list[frozenset[Cell]]:
    """Non-overlapping patches of real card shapes (plus a few single squares and cut-like small pieces) that
    cover about `target_fill` of the grid, as players' quilts do over a game."""
    if target_fill is None:
        target_fill = float(rng.choice([0.0, 1.0], p=[0.5, 0.5])) if rng.random() < 0.04 else rng.uniform(0.15, 0.95)
    quilt = Quilt.from_cells([])
    patches: list[frozenset[Cell]] = []
    shapes = _shapes()
    while quilt.covered_count() < target_fill * 81:  # every pass covers at least one more cell
        if rng.random() < 0.75:
            shape = shapes[rng.integers(len(shapes))]
            options = _placements(quilt, shape)
        else:
            options = []
        if options:
            cells = options[rng.integers(len(options))].cells
        else:  # a single square or a small cut piece in the empty space
            empty = [(r, c) for r in range(9) for c in range(9) if not quilt.is_covered(r, c)]
            start = empty[rng.integers(len(empty))]
            cells = {start}
            for _ in range(rng.integers(0, 3)):
                r, c = list(cells)[rng.integers(len(cells))]
                dr, dc = ((0, 1), (1, 0), (0, -1), (-1, 0))[rng.integers(4)]
                nxt = (r + dr, c + dc)
                if 0 <= nxt[0] < 9 and 0 <= nxt[1] < 9 and not quilt.is_covered(*nxt):
                    cells.add(nxt)
            cells = frozenset(cells)
        quilt = quilt.place(cells)
        patches.append(frozenset(cells))
    return patches


def random_outline_cells(rng: np.random.Generator, quilt: Quilt) -> frozenset[Cell] | None:
    """A patch of empty cells that a player outlined but never shaded."""
    shapes = _shapes()
    for _ in range(10):
        shape = shapes[rng.integers(len(shapes))]
        options = _placements(quilt, shape)
        if options:
            return options[rng.integers(len(options))].cells
    return None


# --- pencil drawing on the page ---------------------------------------------------------------------------------------
class _PageDrawer:
    """Draws pencil marks on the rendered page (uint8 RGB) in sheet millimetres."""

    def __init__(self, page: np.ndarray, slot: L.Slot, px_per_mm: float, rng: np.random.Generator) -> None:
        self.page = page
        self.slot = slot
        self.ppm = px_per_mm
        self.rng = rng

    def px(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        return ((self.slot.x + x_mm * self.slot.scale) * self.ppm, (self.slot.y + y_mm * self.slot.scale) * self.ppm)

    def mm(self, length_mm: float) -> float:
        return length_mm * self.slot.scale * self.ppm

    def apply(self, box: L.Rect, paint, colour: tuple[float, float, float], strength: float,
              grain: float = 0.35) -> None:
        """Darken the page inside `box` (sheet mm, padded) where `paint(mask, to_local)` draws (0-255), as pencil:
        a layer of `colour` at `strength` (0-1), broken up by paper grain."""
        pad = 3.0
        x0, y0 = self.px(box.x - pad, box.y - pad)
        x1, y1 = self.px(box.x2 + pad, box.y2 + pad)
        h, w = self.page.shape[:2]
        x0, y0 = max(0, int(x0)), max(0, int(y0))
        x1, y1 = min(w, int(math.ceil(x1))), min(h, int(math.ceil(y1)))
        if x1 <= x0 or y1 <= y0:
            return
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)

        def to_local(x_mm: float, y_mm: float) -> tuple[int, int]:
            px, py = self.px(x_mm, y_mm)
            return (int(round((px - x0) * 16)), int(round((py - y0) * 16)))  # 4 fractional bits for cv2

        paint(mask, to_local)
        alpha = mask.astype(np.float32) / 255.0
        if grain:
            texture = self.rng.random(alpha.shape, dtype=np.float32)
            alpha *= 1.0 - grain + grain * texture
        alpha *= strength
        roi = self.page[y0:y1, x0:x1].astype(np.float32)
        for channel in range(3):
            roi[..., channel] *= 1.0 - alpha * (1.0 - colour[channel])
        self.page[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)

    def line_px(self, width_mm: float) -> int:
        return max(1, int(round(self.mm(width_mm))))

    def wobbly_polyline(self, points_mm: list[tuple[float, float]], jitter_mm: float) -> list[tuple[float, float]]:
        return [(x + self.rng.normal(0, jitter_mm), y + self.rng.normal(0, jitter_mm)) for x, y in points_mm]

    # --- patches ---------------------------------------------------------------------------------------------------
    def patch_region(self, cells: frozenset[Cell]) -> list[L.Rect]:
        """One rectangle per cell, inset from the patch's outer edges and joined across its inner edges."""
        rects = []
        for row, col in cells:
            cell = L.cell_rect(row, col)
            insets = []
            for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):  # top, right, bottom, left
                inside = (row + dr, col + dc) in cells
                # outer edges: mostly inside the printed line, sometimes over it into the next cell
                insets.append(-0.2 if inside else float(self.rng.uniform(-0.8, 1.6)))
            top, right, bottom, left = insets
            rects.append(L.Rect(cell.x + left, cell.y + top, cell.w - left - right, cell.h - top - bottom))
        return rects

    def shade_patch(self, cells: frozenset[Cell], style: str) -> None:
        rects = self.patch_region(cells)
        bounds = _bounds([L.cell_rect(r, c) for r, c in cells])
        rng = self.rng

        def region(mask, to_local) -> None:
            for r in rects:
                cv2.rectangle(mask, to_local(r.x, r.y), to_local(r.x2, r.y2), 255, -1, cv2.LINE_AA, 4)

        colour = self._colour(style)
        if style == "hatching" or style == "scribble":
            kind = style
        elif style == "light":
            kind = "solid"
        else:  # solid, coloured and pale yellow: mostly filled in, sometimes hatched or scribbled
            kind = str(rng.choice(["solid", "solid", "solid", "solid", "hatching", "scribble"]))
        if kind == "solid":
            strength = {"light": rng.uniform(0.22, 0.35), "pale yellow": rng.uniform(0.6, 0.95)}.get(
                style, rng.uniform(0.6, 0.95))
            self.apply(bounds, region, colour, strength, grain=rng.uniform(0.2, 0.5))
        else:
            self._strokes(cells, bounds, region, colour, hatching=kind == "hatching")
        if rng.random() < 0.5:
            self.outline(cells, strength=rng.uniform(0.5, 0.85))

    def _colour(self, style: str) -> tuple[float, float, float]:
        if style == "pale yellow":
            return COLOURS["pale yellow"]
        if style == "coloured":
            names = [name for name in COLOURS if name != "pale yellow"]
            return COLOURS[names[self.rng.integers(len(names))]]
        return GRAPHITE

    def _strokes(self, cells: frozenset[Cell], bounds: L.Rect, region, colour, hatching: bool) -> None:
        """Hatching (parallel strokes at one angle) or a scribble (a zigzag), clipped to the patch."""
        rng = self.rng
        width_mm = rng.uniform(0.45, 0.8)
        spacing = rng.uniform(1.3, 2.4) if hatching else rng.uniform(1.2, 1.8)
        angle = rng.uniform(0, math.pi)
        cx, cy = bounds.center
        reach = math.hypot(bounds.w, bounds.h) / 2 + 2

        def paint(mask, to_local) -> None:
            strokes = np.zeros_like(mask)
            if hatching:
                dx, dy = math.cos(angle), math.sin(angle)
                offset = -reach
                while offset <= reach:
                    ox, oy = cx - dy * offset, cy + dx * offset
                    a = to_local(ox - dx * reach, oy - dy * reach)
                    b = to_local(ox + dx * reach, oy + dy * reach)
                    cv2.line(strokes, a, b, 255, self.line_px(width_mm), cv2.LINE_AA, 4)
                    offset += spacing * rng.uniform(0.8, 1.2)
            else:  # a scribble: a wobbly zigzag through every cell in turn, as a hand fills each square
                points = []
                for row, col in sorted(cells, key=lambda cell: (cell[0], cell[1] if cell[0] % 2 else -cell[1])):
                    cell = L.cell_rect(row, col)
                    across = rng.random() < 0.5
                    passes = max(3, int(round(L.CELL_MM / (spacing * rng.uniform(1.1, 1.8)))))
                    for i in range(passes + 1):
                        t = (i + rng.uniform(-0.3, 0.3)) / passes
                        side = rng.uniform(-0.5, 1.0) if i % 2 else rng.uniform(L.CELL_MM - 1.0, L.CELL_MM + 0.5)
                        along = min(max(t, 0.0), 1.0) * L.CELL_MM
                        x, y = (side, along) if across else (along, side)
                        points.append(to_local(cell.x + x, cell.y + y))
                cv2.polylines(strokes, [np.array(points, np.int32)], False, 255, self.line_px(width_mm),
                              cv2.LINE_AA, 4)
            region(mask, to_local)
            np.minimum(mask, strokes, out=mask)

        self.apply(bounds, paint, colour, rng.uniform(0.7, 0.95), grain=rng.uniform(0.2, 0.4))

    def outline(self, cells: frozenset[Cell], strength: float) -> None:
        """The pencil outline of a patch along its outer edges, slightly inside the printed lines."""
        rng = self.rng
        inset = rng.uniform(0.4, 1.2)
        segments = []
        for row, col in cells:
            r = L.cell_rect(row, col)
            for (dr, dc), (a, b) in (
                ((-1, 0), ((r.x, r.y + inset), (r.x2, r.y + inset))),
                ((1, 0), ((r.x, r.y2 - inset), (r.x2, r.y2 - inset))),
                ((0, -1), ((r.x + inset, r.y), (r.x + inset, r.y2))),
                ((0, 1), ((r.x2 - inset, r.y), (r.x2 - inset, r.y2))),
            ):
                if (row + dr, col + dc) not in cells:
                    segments.append(self.wobbly_polyline([a, b], 0.25))
        width = rng.uniform(0.35, 0.6)
        colour = GRAPHITE if rng.random() < 0.7 else self._colour("coloured")

        def paint(mask, to_local) -> None:
            for segment in segments:
                cv2.polylines(mask, [np.array([to_local(*p) for p in segment], np.int32)], False, 255,
                              self.line_px(width), cv2.LINE_AA, 4)

        self.apply(_bounds([L.cell_rect(r, c) for r, c in cells]), paint, colour, strength, grain=0.3)

    # --- specials, bubbles, handwriting -------------------------------------------------------------------------------
    def cross(self, box: L.Rect) -> None:
        rng = self.rng
        over = rng.uniform(-0.5, 2.0)
        kind = rng.choice(["x", "x", "check", "fill"])
        width = rng.uniform(0.5, 0.9)

        def paint(mask, to_local) -> None:
            if kind == "fill":
                pts = [to_local(box.x + 0.8, box.y + 0.8), to_local(box.x2 - 0.8, box.y2 - 0.8)]
                cv2.rectangle(mask, pts[0], pts[1], 255, -1, cv2.LINE_AA, 4)
                return
            if kind == "x":
                lines = [[(box.x - over, box.y - over), (box.x2 + over, box.y2 + over)],
                         [(box.x2 + over, box.y - over), (box.x - over, box.y2 + over)]]
            else:
                lines = [[(box.x + 1.5, box.center[1]), (box.center[0] - 0.5, box.y2 - 1.2),
                          (box.x2 + over, box.y - over)]]
            for stroke in lines:
                pts = np.array([to_local(*p) for p in self.wobbly_polyline(stroke, 0.3)], np.int32)
                cv2.polylines(mask, [pts], False, 255, self.line_px(width), cv2.LINE_AA, 4)

        dark = kind != "fill"
        self.apply(box, paint, GRAPHITE if dark or rng.random() < 0.5 else self._colour("coloured"),
                   rng.uniform(0.75, 0.95) if dark else rng.uniform(0.5, 0.8), grain=0.3)

    def fill_bubble(self, round_number: int, place: str, digit: int) -> None:
        rng = self.rng
        cx, cy = L.bubble_center(round_number, place, digit)
        radius = L.BUBBLE_RADIUS_MM * rng.uniform(0.7, 1.1)
        ox, oy = rng.normal(0, 0.3, size=2)
        box = L.bubble_rect(round_number, place, digit)

        def paint(mask, to_local) -> None:
            centre = to_local(cx + ox, cy + oy)
            axes = (int(self.mm(radius) * 16), int(self.mm(radius * rng.uniform(0.8, 1.0)) * 16))
            cv2.ellipse(mask, centre, axes, float(rng.uniform(0, 180)), 0, 360, 255, -1, cv2.LINE_AA, 4)

        self.apply(box, paint, GRAPHITE, rng.uniform(0.65, 0.95), grain=0.3)

    def handwriting(self, box: L.Rect, text: str, height_mm: float) -> None:
        rng = self.rng
        font = cv2.FONT_HERSHEY_SCRIPT_SIMPLEX
        scale = self.mm(height_mm) / 22.0  # the script font is about 22 px tall at scale 1
        thickness = self.line_px(0.45)

        def paint(mask, to_local) -> None:
            x, y = to_local(box.x + 1.0 + rng.uniform(0, 1.5), box.y2 - 1.5)
            cv2.putText(mask, text, (x // 16, y // 16), font, scale, 255, thickness, cv2.LINE_AA)

        self.apply(box, paint, GRAPHITE if rng.random() < 0.7 else (0.2, 0.25, 0.55), rng.uniform(0.6, 0.9),
                   grain=0.2)


def _bounds(rects: list[L.Rect]) -> L.Rect:
    x0, y0 = min(r.x for r in rects), min(r.y for r in rects)
    x1, y1 = max(r.x2 for r in rects), max(r.y2 for r in rects)
    return L.Rect(x0, y0, x1 - x0, y1 - y0)


# --- the printed page -------------------------------------------------------------------------------------------------
RENDER_LEVELS = (4.0, 6.0, 8.0, 11.0, 14.0)  # px per mm at which pages are rendered (and cached)


@cache
def _pdf(paper: str, number: int) -> bytes:
    return render_sheets(1, paper, 1, number)


@lru_cache(maxsize=6)
def _page(paper: str, number: int, px_per_mm: float) -> np.ndarray:
    """The printed page as RGB uint8 at `px_per_mm` (read-only; copy before drawing)."""
    document = pypdfium2.PdfDocument(_pdf(paper, number))
    try:
        bitmap = document[0].render(scale=px_per_mm * 25.4 / 72)  # pdfium scale: pixels per point
        image = np.array(bitmap.to_pil().convert("RGB"))
    finally:
        document.close()
    image.setflags(write=False)
    return image


# --- the camera -------------------------------------------------------------------------------------------------------
def _rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    axis = axis / np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * (k @ k)


def _project_page(rng: np.random.Generator, cond: Conditions, page_mm: tuple[float, float],
                  photo_size: tuple[int, int], rotation_deg: float, details: dict) -> np.ndarray:
    """Where the page's corners (TL, TR, BR, BL) land in the photo: a pinhole camera tilted and rolled."""
    width, height = photo_size
    focal = 0.85 * max(width, height)
    tilt = math.radians(rng.uniform(0, cond.max_tilt_deg))
    tilt_axis_angle = rng.uniform(0, 2 * math.pi)
    roll = math.radians(rotation_deg)
    details.update(tilt_deg=round(math.degrees(tilt), 1), rotation_deg=round(rotation_deg, 1))
    rotation = _rotation(np.array([0.0, 0.0, 1.0]), roll) @ _rotation(
        np.array([math.cos(tilt_axis_angle), math.sin(tilt_axis_angle), 0.0]), tilt)
    pw, ph = page_mm
    corners = np.array([[-pw / 2, -ph / 2, 0], [pw / 2, -ph / 2, 0], [pw / 2, ph / 2, 0], [-pw / 2, ph / 2, 0]])
    rotated = corners @ rotation.T

    def project(depth: float) -> np.ndarray:
        pts = rotated + np.array([0, 0, depth])
        return np.stack([focal * pts[:, 0] / pts[:, 2], focal * pts[:, 1] / pts[:, 2]], axis=1)

    depth = 3 * max(pw, ph)
    fill = rng.uniform(*cond.fill)
    for _ in range(3):  # the page's extent shrinks as 1/depth; settle the depth so it fills `fill` of the frame
        pts = project(depth)
        extent = max((pts[:, 0].max() - pts[:, 0].min()) / width, (pts[:, 1].max() - pts[:, 1].min()) / height)
        depth *= extent / fill
    pts = project(depth)
    span = pts.max(axis=0) - pts.min(axis=0)
    slack = np.array([width, height]) - span
    offset = -pts.min(axis=0) + slack * rng.uniform(0.1, 0.9, size=2)
    return (pts + offset).astype(np.float32)


def _table(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """A table top: wood grain, a plain cloth or a dark desk, at low detail and scaled up (BGR uint8)."""
    width, height = size
    small_w, small_h = max(8, width // 4), max(8, height // 4)
    kind = rng.choice(["wood", "cloth", "desk"])
    yy, xx = np.mgrid[0:small_h, 0:small_w].astype(np.float32)
    noise = cv2.GaussianBlur(rng.random((small_h, small_w), dtype=np.float32), (0, 0), 2.0)
    if kind == "wood":
        angle = rng.uniform(0, math.pi)
        u = xx * math.cos(angle) + yy * math.sin(angle)
        grain = 0.5 + 0.5 * np.sin(u / rng.uniform(3, 9) + 6 * noise)
        base = np.array([rng.uniform(40, 90), rng.uniform(80, 130), rng.uniform(130, 190)], np.float32)  # BGR
        image = base * (0.75 + 0.35 * grain[..., None])
    elif kind == "cloth":
        base = rng.uniform(60, 200, size=3).astype(np.float32)
        image = base * (0.85 + 0.3 * noise[..., None])
    else:
        base = np.full(3, rng.uniform(25, 70), np.float32)
        image = base * (0.9 + 0.2 * noise[..., None])
    image = cv2.resize(image, (width, height), interpolation=cv2.INTER_LINEAR)
    return np.clip(image, 0, 255).astype(np.uint8)


def _lighting(rng: np.random.Generator, cond: Conditions, size: tuple[int, int], details: dict) -> np.ndarray | None:
    """A gain per pixel (float32, H x W): a gradient across the photo and maybe a hard-edged shadow."""
    width, height = size
    small_w, small_h = 256, max(2, round(256 * height / width))
    gain = np.ones((small_h, small_w), np.float32)
    changed = False
    if cond.light_gradient:
        amount = rng.uniform(0.3, 1.0) * cond.light_gradient
        angle = rng.uniform(0, 2 * math.pi)
        yy, xx = np.mgrid[0:small_h, 0:small_w].astype(np.float32)
        u = (xx / small_w - 0.5) * math.cos(angle) + (yy / small_h - 0.5) * math.sin(angle)
        u = (u - u.min()) / max(1e-6, float(u.max() - u.min()))
        gain *= 1.0 - amount * u
        details["light_gradient"] = round(amount, 2)
        changed = True
    if rng.random() < cond.shadow_probability:
        strength = rng.uniform(*cond.shadow_strength)
        mask = np.zeros((small_h * 4, small_w * 4), np.uint8)
        # the silhouette of a phone or a head: a big convex blob entering from one edge
        cx, cy = rng.uniform(0, small_w * 4), rng.uniform(0, small_h * 4)
        edge = rng.integers(4)
        if edge == 0:
            cx = rng.uniform(-0.2, 0.15) * small_w * 4
        elif edge == 1:
            cx = rng.uniform(0.85, 1.2) * small_w * 4
        elif edge == 2:
            cy = rng.uniform(-0.2, 0.15) * small_h * 4
        else:
            cy = rng.uniform(0.85, 1.2) * small_h * 4
        axes = (int(rng.uniform(0.25, 0.6) * small_w * 4), int(rng.uniform(0.25, 0.6) * small_h * 4))
        cv2.ellipse(mask, (int(cx), int(cy)), axes, float(rng.uniform(0, 180)), 0, 360, 255, -1, cv2.LINE_AA)
        mask = cv2.resize(mask, (small_w, small_h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
        gain *= 1.0 - strength * mask
        details["shadow"] = round(strength, 2)
        changed = True
    if not changed:
        return None
    return cv2.resize(gain, (width, height), interpolation=cv2.INTER_LINEAR)


def _photo_size(rng: np.random.Generator, cond: Conditions, megapixels: float | None,
                sheet_upright: bool) -> tuple[int, int]:
    """A 4:3 frame, held the way the sheet appears (portrait for an upright or upside-down sheet), except now
    and then when the photographer did not turn the phone."""
    pixels = (megapixels if megapixels is not None else rng.uniform(*cond.megapixels)) * 1e6
    long_side = int(round(math.sqrt(pixels * 4 / 3)))
    short_side = int(round(long_side * 3 / 4))
    portrait = sheet_upright != (rng.random() < cond.unturned_phone_probability)
    return (short_side, long_side) if portrait else (long_side, short_side)


# --- the whole photo --------------------------------------------------------------------------------------------------
def random_truth(rng: np.random.Generator, cond: Conditions, paper: str, number: int) -> tuple[Truth, list]:
    patches = random_patches(rng)
    styles: dict[Cell, str] = {}
    drawn = []
    for cells in patches:
        style = cond.styles[rng.integers(len(cond.styles))]
        drawn.append((cells, style))
        for cell in cells:
            styles[cell] = style
    quilt = Quilt.from_cells(styles)
    used = tuple(name for name in L.SPECIAL_NAMES if rng.random() < 0.45)
    scores: list[int | None] = []
    for _ in range(L.ROUND_COUNT):
        scores.append(None if rng.random() < 0.15 else int(rng.choice([rng.integers(0, 10), rng.integers(0, 82)])))
    truth = Truth(quilt, used, (scores[0], scores[1], scores[2]), sheet_id(number), paper, styles)
    return truth, drawn


def draw_sheet(drawer: _PageDrawer, rng: np.random.Generator, cond: Conditions, truth: Truth,
               drawn: list) -> None:
    """Draw what the player drew (`drawn` from `random_truth`): shaded patches, outlines never shaded, crossed
    special boxes, filled bubbles, handwritten scores and a name."""
    for cells, style in drawn:
        drawer.shade_patch(cells, style)
    for _ in range(int(rng.integers(cond.distractor_outlines[0], cond.distractor_outlines[1] + 1))):
        cells = random_outline_cells(rng, truth.quilt)
        if cells:
            drawer.outline(cells, strength=rng.uniform(0.5, 0.9))
    for name in truth.specials_used:
        drawer.cross(L.special_box(name).check)
    for block, score in zip(L.ROUNDS, truth.round_scores, strict=True):
        if score is None:
            continue
        drawer.fill_bubble(block.number, "tens", score // 10)
        drawer.fill_bubble(block.number, "units", score % 10)
        if rng.random() < 0.8:
            drawer.handwriting(block.write, str(score), 7.0)
    if rng.random() < 0.8:
        name_box = L.Rect(L.NAME_RECT.x + 13, L.NAME_RECT.y, L.NAME_RECT.w - 13, L.NAME_RECT.h)
        drawer.handwriting(name_box, str(rng.choice(["Ada", "Grace", "Linus", "Maud", "Uwe"])), 5.0)


def make_photo(seed: int, level: str | Conditions = "moderate", *, paper: str | None = None,
               megapixels: float | None = None) -> SyntheticPhoto:
    """A synthetic photo of a filled-in sheet, fully determined by `seed` and the condition `level`."""
    cond = CONDITIONS[level] if isinstance(level, str) else level
    rng = np.random.default_rng([seed, sum(map(ord, cond.name))])
    details: dict = {}
    paper = paper or str(rng.choice(list(L.PAPERS)))
    number = int(rng.integers(1, 5))  # a few sheet ids only, so that rendered pages are reused
    truth, drawn = random_truth(rng, cond, paper, number)

    photo_size, photo_corners, px_per_mm = frame_page(rng, cond, paper, megapixels, details)
    page = _page(paper, number, px_per_mm).copy()
    slot = L.page_slots(paper)[0]
    draw_sheet(_PageDrawer(page, slot, px_per_mm, rng), rng, cond, truth, drawn)
    photo, sheet_to_photo = photograph_page(rng, page, paper, photo_size, photo_corners)
    return finish_photo(rng, cond, photo, sheet_to_photo, seed, truth, paper, details)


def finish_photo(rng: np.random.Generator, cond: Conditions, photo: np.ndarray, sheet_to_photo: np.ndarray,
                 seed: int, truth: Truth, paper: str, details: dict) -> SyntheticPhoto:
    """What the phone does after the light: a thumb over a marker now and then, blur and noise, JPEG."""
    if rng.random() < cond.occluded_marker_probability:
        _thumb(rng, photo, sheet_to_photo, details)
    photo = _degrade(rng, cond, photo, details)
    quality = int(rng.integers(cond.jpeg_quality[0], cond.jpeg_quality[1] + 1))
    details.update(jpeg_quality=quality, size=(photo.shape[1], photo.shape[0]), paper=paper)
    ok, encoded = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return SyntheticPhoto(seed, cond, truth, encoded.tobytes(), sheet_to_photo / sheet_to_photo[2, 2], details)


def frame_page(rng: np.random.Generator, cond: Conditions, paper: str, megapixels: float | None,
               details: dict) -> tuple[tuple[int, int], np.ndarray, float]:
    """Where the camera sees the page: the photo's size, the page's corners in it, and the pixels per mm the page
    is rendered at (a cached level a little finer than the photo needs)."""
    quarter = int(rng.integers(4)) if cond.quarter_turns else 0
    rotation_deg = 90 * quarter + rng.uniform(-cond.max_small_rotation_deg, cond.max_small_rotation_deg)
    photo_size = _photo_size(rng, cond, megapixels, sheet_upright=quarter % 2 == 0)
    page_mm = L.page_size(paper)
    photo_corners = _project_page(rng, cond, page_mm, photo_size, rotation_deg, details)
    needed = max(np.linalg.norm(photo_corners[1] - photo_corners[0]) / page_mm[0],
                 np.linalg.norm(photo_corners[3] - photo_corners[0]) / page_mm[1])
    px_per_mm = next((level for level in RENDER_LEVELS if level >= needed * 1.2), RENDER_LEVELS[-1])
    return photo_size, photo_corners, px_per_mm


def photograph_page(rng: np.random.Generator, page: np.ndarray, paper: str, photo_size: tuple[int, int],
                    photo_corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The camera: the drawn page laid on the table at `photo_corners`; the photo and the sheet-mm -> photo-pixel
    homography of the page's first sheet."""
    page_mm = L.page_size(paper)
    slot = L.page_slots(paper)[0]
    page_px = np.array([[0, 0], [page.shape[1], 0], [page.shape[1], page.shape[0]], [0, page.shape[0]]], np.float32)
    page_to_photo = cv2.getPerspectiveTransform(page_px, photo_corners)
    photo = _table(rng, photo_size)
    cv2.warpPerspective(cv2.cvtColor(page, cv2.COLOR_RGB2BGR), page_to_photo, photo_size, dst=photo,
                        flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT)
    sx, sy = page.shape[1] / page_mm[0], page.shape[0] / page_mm[1]  # the render's exact pixels per mm
    sheet_to_page = np.array([[slot.scale * sx, 0, slot.x * sx], [0, slot.scale * sy, slot.y * sy], [0, 0, 1]])
    return photo, page_to_photo @ sheet_to_page


THUMB_RADIUS_MM = 16.0
"""Half the width of a thumb holding the sheet down: a real thumb's size, whatever the layout's marker size (it
hides a whole marker of up to 22 mm, half-diagonal 15.6 mm; layout 1's 18 mm markers got the same thumb)."""


def _thumb(rng: np.random.Generator, photo: np.ndarray, sheet_to_photo: np.ndarray, details: dict) -> None:
    """A thumb over one corner marker, holding the sheet down."""
    marker = L.MARKERS[int(rng.integers(4))]
    cx, cy = marker.rect.center
    reach = THUMB_RADIUS_MM / math.sqrt(2)
    centre, edge = cv2.perspectiveTransform(np.array([[(cx, cy), (cx - reach, cy - reach)]], np.float64),
                                            sheet_to_photo)[0]
    radius = float(np.linalg.norm(centre - edge))
    skin = tuple(float(v) for v in (rng.uniform(90, 150), rng.uniform(120, 170), rng.uniform(170, 230)))
    axes = (int(radius * 1.0), int(radius * 1.6))
    cv2.ellipse(photo, (int(centre[0]), int(centre[1])), axes, float(rng.uniform(0, 180)), 0, 360, skin, -1,
                cv2.LINE_AA)
    details["occluded_marker"] = marker.corner


def _degrade(rng: np.random.Generator, cond: Conditions, photo: np.ndarray, details: dict) -> np.ndarray:
    height, width = photo.shape[:2]
    gain = _lighting(rng, cond, (width, height), details)
    cast = 1.0 + rng.uniform(-cond.colour_cast, cond.colour_cast, size=3)
    if gain is not None or cond.colour_cast:
        image = photo.astype(np.float32)
        if gain is not None:
            image *= gain[..., None]
        image *= cast.astype(np.float32)
        photo = np.clip(image, 0, 255).astype(np.uint8)
    sigma = rng.uniform(*cond.blur_sigma_px)
    if sigma > 0.05:
        photo = cv2.GaussianBlur(photo, (0, 0), sigma)
        details["blur_sigma_px"] = round(sigma, 2)
    noise_sigma = rng.uniform(*cond.noise_sigma)
    if noise_sigma > 0.05:
        noise = np.empty(photo.shape, np.int16)
        cv2.setRNGSeed(int(rng.integers(2**31)))  # OpenCV's generator is global: seed it from ours
        cv2.randn(noise, 0, noise_sigma)
        photo = cv2.add(photo, noise, dtype=cv2.CV_8U)
        details["noise_sigma"] = round(noise_sigma, 2)
    return photo


def level_conditions(preset: str, **changes) -> Conditions:
    """A named preset with some ranges changed (e.g. megapixels=(12, 12) for timing)."""
    return replace(CONDITIONS[preset], **changes)


def main(argv: list[str] | None = None) -> None:
    """Write photos and their ground truth: python3 -m tests.photogen OUT_DIR LEVEL:SEED[:MEGAPIXELS] ..."""
    import argparse
    import json
    from pathlib import Path

    parser = argparse.ArgumentParser(prog="python3 -m tests.photogen", description=main.__doc__)
    parser.add_argument("out", type=Path, help="folder to write NAME.jpg and NAME.truth.json into")
    parser.add_argument("photos", nargs="+", help="LEVEL:SEED or LEVEL:SEED:MEGAPIXELS, e.g. moderate:1:3")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for spec in args.photos:
        level, seed, *rest = spec.split(":")
        photo = make_photo(int(seed), level, megapixels=float(rest[0]) if rest else None)
        name = f"{level}-{seed}"
        photo.save(str(args.out / f"{name}.jpg"))
        truth = {"generator": f"python3 -m tests.photogen {args.out} {spec}", "layout": L.LAYOUT_VERSION,
                 "level": level, "seed": int(seed),
                 "conditions": {k: list(v) if isinstance(v, tuple) else v for k, v in photo.details.items()},
                 **photo.truth.to_json()}
        (args.out / f"{name}.truth.json").write_text(json.dumps(truth, indent=2) + "\n", encoding="utf-8")
        print(f"{name}.jpg: {photo.details}")


if __name__ == "__main__":
    main()
