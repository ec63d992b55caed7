"""More kinds of synthetic photo than tests/photogen.py makes: framing (a second sheet in view, a mirrored photo),
marking styles (a slash per cell, a loose scribble, a bleeding felt-tip; patches outlined or not, or in part),
distractors (an eraser smudge, a coffee ring, tea and coffee rings of any kind, a hand's smear of graphite, a
pencil or a finger on the sheet, a patch rubbed out), the round's bubbles marked rather than filled in, sharpening
and a shaken phone.

Each builds on `photogen.make_photo` and keeps its ground truth, so the same checks apply. Seeds from
HELD_OUT_FIRST_SEED on are kept out of tuning (see benchmarks/bench_scan_styles.py).

    photo = two_sheet_photo(3, "mild", "beside")   # photo.truths: what each sheet says, the readable one first
    photo = mirrored_photo(3, "mild")
    photo = styled_photo(3, "mild", style="slash", distractor="coffee ring", sharpen=1.5)
    photo = styled_photo(3, "mild", style="loose scribble", outlines="partial")
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from doodle.sheet import layout as L
from tests import photogen
from tests.photogen import CONDITIONS, Conditions, SyntheticPhoto, Truth, make_photo

HELD_OUT_FIRST_SEED = 10_000
ARRANGEMENTS = ("beside", "under", "over")
"""Where the second sheet lies: beside the first (partly or wholly in view), partly under it, partly over it."""


@dataclass(frozen=True)
class TwoSheetPhoto:
    seed: int
    arrangement: str
    jpeg: bytes
    truths: tuple[Truth, ...]  # the sheets a reader may read right: the one on top first
    details: dict = field(default_factory=dict, compare=False)


def _page_corners_mm(paper: str) -> np.ndarray:
    """The page's corners (TL, TR, BR, BL) in sheet millimetres (the sheet frame's origin is its top-left)."""
    slot = L.page_slots(paper)[0]
    width, height = L.page_size(paper)
    x0, y0 = -slot.x, -slot.y
    return np.array([[x0, y0], [x0 + width, y0], [x0 + width, y0 + height], [x0, y0 + height]], np.float64)


def _page_mask(sheet_to_photo: np.ndarray, paper: str, size: tuple[int, int]) -> np.ndarray:
    corners = cv2.perspectiveTransform(_page_corners_mm(paper).reshape(1, 4, 2), sheet_to_photo)[0]
    mask = np.zeros((size[1], size[0]), np.uint8)
    cv2.fillConvexPoly(mask, np.round(corners * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
    return mask


def _inside(sheet_to_photo: np.ndarray, paper: str, size: tuple[int, int]) -> bool:
    corners = cv2.perspectiveTransform(_page_corners_mm(paper).reshape(1, 4, 2), sheet_to_photo)[0]
    return bool((corners >= 0).all() and (corners[:, 0] < size[0]).all() and (corners[:, 1] < size[1]).all())


def _blend(base: np.ndarray, top: np.ndarray, mask: np.ndarray) -> np.ndarray:
    alpha = (mask.astype(np.float32) / 255.0)[..., None]
    return np.clip(base * (1 - alpha) + top * alpha, 0, 255).astype(np.uint8)


def two_sheet_photo(seed: int, level: str | Conditions = "mild", arrangement: str = "beside") -> TwoSheetPhoto:
    """A photo of one filled sheet with a second filled sheet (same paper, same marker ids: another copy of the
    same print) in the same plane: beside it (partly or wholly in view), partly under it, or partly over it."""
    cond = CONDITIONS[level] if isinstance(level, str) else level
    rng = np.random.default_rng([seed, 2, ARRANGEMENTS.index(arrangement)])
    fill = (0.45, 0.65) if arrangement == "beside" else (0.55, 0.75)
    first = make_photo(seed, replace(cond, fill=fill))
    paper = first.truth.paper
    second = make_photo(seed + 1_000_000, cond, paper=paper)
    width, height = L.page_size(paper)
    if arrangement == "beside":
        across = rng.random() < 0.5
        gap = rng.uniform(2.0, 30.0)
        step = (width + gap, rng.uniform(-20, 20)) if across else (rng.uniform(-20, 20), height + gap)
        sign = 1 if rng.random() < 0.5 else -1
        offset = (sign * step[0], sign * step[1]) if across else (sign * step[0], sign * step[1])
    else:
        share = rng.uniform(0.25, 0.6)
        angle = rng.uniform(0, 2 * math.pi)
        offset = (share * width * math.cos(angle), share * height * math.sin(angle))
    turn = math.radians(rng.uniform(-8, 8))
    cos, sin = math.cos(turn), math.sin(turn)
    place = np.array([[cos, -sin, offset[0]], [sin, cos, offset[1]], [0, 0, 1]])  # second sheet mm -> first's mm
    second_to_photo = first.sheet_to_photo @ place
    image_a = first.image
    size = (image_a.shape[1], image_a.shape[0])
    image_b = second.image
    # The second photo's page, moved to where the second sheet lies in the first photo's plane.
    b_to_a = second_to_photo @ np.linalg.inv(second.sheet_to_photo)
    moved = cv2.warpPerspective(image_b, b_to_a, size, flags=cv2.INTER_LINEAR)
    mask_b = _page_mask(second_to_photo, paper, size)
    mask_a = _page_mask(first.sheet_to_photo, paper, size)
    composite = _blend(image_a, moved, mask_b)
    if arrangement != "over":
        composite = _blend(composite, image_a, mask_a)  # the first sheet lies on top
    truths: tuple[Truth, ...] = (first.truth,) if arrangement != "over" else (second.truth,)
    if arrangement == "beside":
        truths += (second.truth,)
    quality = int(rng.integers(cond.jpeg_quality[0], cond.jpeg_quality[1] + 1))
    ok, encoded = cv2.imencode(".jpg", composite, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    details = {"arrangement": arrangement, "offset_mm": [round(v) for v in offset],
               "second_in_view": _inside(second_to_photo, paper, size),
               "first_in_view": _inside(first.sheet_to_photo, paper, size)}
    return TwoSheetPhoto(seed, arrangement, encoded.tobytes(), truths, details)


def mirrored_photo(seed: int, level: str | Conditions = "mild") -> SyntheticPhoto:
    """A photo flipped left to right, as a selfie camera stores it (or as a sheet photographed through the paper
    shows its print)."""
    photo = make_photo(seed, level)
    flipped = cv2.flip(photo.image, 1)
    ok, encoded = cv2.imencode(".jpg", flipped, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    width = flipped.shape[1]
    flip = np.array([[-1.0, 0, width - 1], [0, 1, 0], [0, 0, 1]])
    return replace(photo, jpeg=encoded.tobytes(), sheet_to_photo=flip @ photo.sheet_to_photo,
                   details={**photo.details, "mirrored": True})


# --- marking styles and distractors the project's generator does not draw ------------------------------------------
MARK_STYLES = ("slash", "loose scribble", "felt-tip")
"""Patch styles: one diagonal stroke per cell; a scribble of so few passes that one or two strokes cross a cell; a
felt-tip that fills the patch and bleeds over its lines."""
DISTRACTORS = ("smudge", "coffee ring", "tea ring", "hand smear", "stray line", "pencil on sheet", "finger on sheet",
               "erased")
"""Drawn on empty cells: a faint round eraser smudge (no outline, about 8% darker than paper); a mug's ring, its
inside tinted; a ring of tea or coffee of any tint, width and wholeness (an arc, a ring with no tint inside, a
wide pale one); a smear of graphite a hand dragged from shading across the sheet; a stray pencil line, 25-70 mm
long at any angle (a slip, a line to cross out, a pencil laid on the sheet), through the empty cell and on; a
pencil left lying on the sheet, through an empty cell at any angle (one per photo: an opaque painted body with
its facets, a sharpened tip, its soft shadow on the paper); a finger holding the sheet down, its tip over an empty
cell, reaching in from the nearest edge of the page (one per photo: skin of any tone, rounder and lit on top, a
nail, a soft shadow); a patch shaded and then rubbed out, its cells empty: a ghost of its shading and outline left
(10-35% of their darkness), smeared by the eraser."""
PENCIL_BODIES = ((0.95, 0.78, 0.15), (0.85, 0.65, 0.45), (0.15, 0.30, 0.75), (0.75, 0.12, 0.12), (0.12, 0.12, 0.13),
                 (0.15, 0.55, 0.25))  # RGB reflectance: yellow, bare wood, blue, red, black, green
BUBBLE_MARKS = ("x", "slash", "tick", "dot", "scribble", "ring")
"""How players mark a round's bubble when they do not fill it in: a cross, one slash or a tick over it, a dot in its
middle, a quick scribble over it, a ring drawn round it. One habit per sheet, in pencil, a little off the middle."""
OUTLINES = ("some", "always", "never", "partial")
"""How players outline their patches: some do (the project's generator: half of them, 70% for MARK_STYLES), every
one, none, or with sides left out."""
SKIN = ((0.93, 0.76, 0.65), (0.80, 0.58, 0.45), (0.62, 0.42, 0.30), (0.42, 0.28, 0.20))  # RGB, light to dark
COFFEE = (0.78, 0.62, 0.45)
TEA = ((0.85, 0.70, 0.50), (0.72, 0.55, 0.40), (0.80, 0.68, 0.58))  # weak tea, strong coffee, milky coffee
FELT_TIPS = ((0.20, 0.45, 0.90), (0.90, 0.25, 0.30), (0.25, 0.70, 0.35), (0.25, 0.25, 0.28))


class _StyledDrawer(photogen._PageDrawer):
    """The project's pencil, with the styles and distractors above (chosen per photo by `styled_photo`)."""

    distractor: str | None = None
    sharpen: float = 0.0
    outlines: str = "some"
    _outlined: bool = False

    def shade_patch(self, cells: frozenset, style: str) -> None:
        self._outlined = False
        self._shade_patch(cells, style)
        if self.outlines == "always" and not self._outlined:
            self.outline(cells, strength=self.rng.uniform(0.5, 0.85))

    def _shade_patch(self, cells: frozenset, style: str) -> None:
        if style == "felt-tip":
            self._felt_tip(cells)
            return
        if style not in MARK_STYLES:
            super().shade_patch(cells, style)
            return
        rng = self.rng
        width = rng.uniform(0.4, 0.75)
        strokes = []
        if style == "slash":
            flip = rng.random() < 0.5
            for row, col in cells:
                r = L.cell_rect(row, col)
                a, b = rng.uniform(0.5, 2.5, size=2)
                line = [(r.x + a, r.y + b), (r.x2 - b, r.y2 - a)] if not flip else [(r.x2 - a, r.y + b),
                                                                                     (r.x + b, r.y2 - a)]
                strokes.append(self.wobbly_polyline(line, 0.2))
        else:  # a loose scribble: a zigzag with passes 5-9 mm apart through the patch, row by row
            points = []
            for row, col in sorted(cells, key=lambda cell: (cell[0], cell[1] if cell[0] % 2 else -cell[1])):
                r = L.cell_rect(row, col)
                passes = int(rng.integers(2, 4))
                for i in range(passes):
                    along = (i + rng.uniform(0.2, 0.8)) / passes * L.CELL_MM
                    side = rng.uniform(0.5, 2.5) if i % 2 else rng.uniform(L.CELL_MM - 2.5, L.CELL_MM - 0.5)
                    points.append((r.x + side, r.y + along))
            strokes.append(self.wobbly_polyline(points, 0.3))

        def paint(mask, to_local) -> None:
            for stroke in strokes:
                cv2.polylines(mask, [np.array([to_local(*p) for p in stroke], np.int32)], False, 255,
                              self.line_px(width), cv2.LINE_AA, 4)

        bounds = photogen._bounds([L.cell_rect(r, c) for r, c in cells])
        self.apply(bounds, paint, photogen.GRAPHITE, rng.uniform(0.7, 0.95), grain=0.3)
        if rng.random() < 0.7:
            self.outline(cells, strength=rng.uniform(0.5, 0.85))

    def _felt_tip(self, cells: frozenset) -> None:
        """A felt-tip fill: flat, strong colour, bleeding 0.3-2 mm over the patch's lines with a soft edge."""
        rng = self.rng
        bleed = rng.uniform(0.3, 2.0)
        bounds = photogen._bounds([L.cell_rect(r, c) for r, c in cells]).inset(-bleed - 1)

        def paint(mask, to_local) -> None:
            for row, col in cells:
                r = L.cell_rect(row, col).inset(-bleed * rng.uniform(0.3, 1.0))
                cv2.rectangle(mask, to_local(r.x, r.y), to_local(r.x2, r.y2), 255, -1, cv2.LINE_AA, 4)
            mask[:] = cv2.GaussianBlur(mask, (0, 0), max(self.mm(bleed * 0.4), 0.5))

        colour = FELT_TIPS[int(rng.integers(len(FELT_TIPS)))]
        self.apply(bounds, paint, colour, rng.uniform(0.55, 0.9), grain=0.1)
        if rng.random() < 0.5:
            self.outline(cells, strength=rng.uniform(0.5, 0.85))

    def outline(self, cells: frozenset, strength: float) -> None:
        """A patch's outline (as `outlines` says); called for a distractor (cells of no patch), the photo's
        distractor instead."""
        shaded = getattr(self, "_shaded", None)
        if self.distractor is None or shaded is None or any(cell in shaded for cell in cells):
            self._outline(cells, strength, patch=shaded is not None and any(cell in shaded for cell in cells))
            return
        rng = self.rng
        row, col = sorted(cells)[int(rng.integers(len(cells)))]
        cx, cy = L.cell_rect(row, col).center
        cx, cy = cx + rng.uniform(-4, 4), cy + rng.uniform(-4, 4)
        laid = {"tea ring": self._stain, "hand smear": self._stain, "stray line": self._stray_line,
                "pencil on sheet": self._pencil_on_sheet, "finger on sheet": self._finger_on_sheet}
        if self.distractor in laid:
            laid[self.distractor](cx, cy)
            return
        if self.distractor == "erased":
            # A patch is rubbed out once: another outline over cells rubbed out is not drawn (rubbing out there
            # again stacked ghosts to half the sheet's shading: erased 590007).
            rubbed_out = getattr(self, "_rubbed_out", set())
            if not rubbed_out & cells:
                self._rubbed_out = rubbed_out | set(cells)
                self._erased(cells)
            return
        if self.distractor == "smudge":
            radius = rng.uniform(4.0, 9.0)
            box = L.Rect(cx - radius * 1.6, cy - radius * 1.6, radius * 3.2, radius * 3.2)

            def paint(mask, to_local) -> None:
                cv2.circle(mask, to_local(cx, cy), int(self.mm(radius) * 16), 255, -1, cv2.LINE_AA, 4)
                mask[:] = cv2.GaussianBlur(mask, (0, 0), self.mm(radius * 0.3))

            self.apply(box, paint, photogen.GRAPHITE, rng.uniform(0.09, 0.14), grain=0.1)
        else:
            radius = rng.uniform(12.0, 20.0)
            box = L.Rect(cx - radius - 2, cy - radius - 2, 2 * radius + 4, 2 * radius + 4)

            def tint(mask, to_local) -> None:
                cv2.circle(mask, to_local(cx, cy), int(self.mm(radius) * 16), 255, -1, cv2.LINE_AA, 4)

            def ring(mask, to_local) -> None:
                cv2.circle(mask, to_local(cx, cy), int(self.mm(radius) * 16), 255, self.line_px(rng.uniform(0.8, 2)),
                           cv2.LINE_AA, 4)
                mask[:] = cv2.GaussianBlur(mask, (0, 0), self.mm(0.4))

            self.apply(box, tint, COFFEE, rng.uniform(0.1, 0.3), grain=0.05)
            self.apply(box, ring, COFFEE, rng.uniform(0.6, 0.9), grain=0.2)

    def _outline(self, cells: frozenset, strength: float, patch: bool) -> None:
        if patch and self.outlines == "never":
            return
        self._outlined = True
        if not (patch and self.outlines == "partial"):
            super().outline(cells, strength)
            return
        # Some sides left out: the outline drawn around a copy of the patch that leaves out one to three of its
        # cells' outer sides (drawn, then the left-out sides painted back as they were).
        before = self.page.copy()
        super().outline(cells, strength)
        rng = self.rng
        sides = [(row, col, dr, dc) for row, col in cells for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                 if (row + dr, col + dc) not in cells]
        for k in rng.choice(len(sides), size=min(len(sides), int(rng.integers(1, 4))), replace=False):
            row, col, dr, dc = sides[k]
            r = L.cell_rect(row, col)
            edge = {(-1, 0): L.Rect(r.x, r.y, r.w, 2.2), (1, 0): L.Rect(r.x, r.y2 - 2.2, r.w, 2.2),
                    (0, -1): L.Rect(r.x, r.y, 2.2, r.h), (0, 1): L.Rect(r.x2 - 2.2, r.y, 2.2, r.h)}[dr, dc]
            x0, y0 = (int(v) for v in self.px(edge.x + 0.5, edge.y + 0.5))
            x1, y1 = (int(v) for v in self.px(edge.x2 - 0.5, edge.y2 - 0.5))
            self.page[y0:y1, x0:x1] = before[y0:y1, x0:x1]

    def _pencil_on_sheet(self, cx: float, cy: float) -> None:
        """A pencil lying on the sheet through (cx, cy) mm, the first time only: it hides what is under it, and
        casts a soft shadow to one side."""
        if getattr(self, "_pencil_laid", False):
            return
        self._pencil_laid = True
        rng = self.rng
        length, width = self.mm(rng.uniform(120.0, 180.0)), self.mm(rng.uniform(6.5, 8.0))
        angle = rng.uniform(0.0, math.pi)
        along, across = np.array([math.cos(angle), math.sin(angle)]), np.array([-math.sin(angle), math.cos(angle)])
        centre = np.array(self.px(cx, cy)) + along * rng.uniform(-0.3, 0.3) * length
        h, w = self.page.shape[:2]
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        u = (xs - centre[0]) * along[0] + (ys - centre[1]) * along[1]  # along the pencil, from its middle
        v = (xs - centre[0]) * across[0] + (ys - centre[1]) * across[1]  # across it
        tip = self.mm(rng.uniform(14.0, 20.0))
        half = np.where(u > length / 2 - tip, width / 2 * np.clip((length / 2 - u) / tip, 0.0, 1.0), width / 2)
        inside = (np.abs(u) <= length / 2) & (np.abs(v) <= half)
        body = cv2.GaussianBlur(inside.astype(np.float32), (0, 0), 0.7)
        offset = across * self.mm(rng.uniform(1.5, 4.0)) * rng.choice([-1.0, 1.0])
        cast = np.roll(inside.astype(np.float32), (round(offset[1]), round(offset[0])), axis=(0, 1))
        shade = cv2.GaussianBlur(cast, (0, 0), self.mm(rng.uniform(1.0, 3.0)))
        page = self.page.astype(np.float32) * (1.0 - rng.uniform(0.25, 0.5) * shade)[..., None]
        facets = np.where(np.abs(v) < width / 6, 1.0, np.where(v > 0, 0.8, 0.65)).astype(np.float32)
        colour = np.array(PENCIL_BODIES[int(rng.integers(len(PENCIL_BODIES)))], np.float32) * 255.0
        painted = colour[None, None, :] * facets[..., None]
        wood = u > length / 2 - tip  # the sharpened cone: bare wood, then the lead
        painted[wood] = np.array([0.85, 0.68, 0.48], np.float32) * 255.0
        painted[u > length / 2 - tip / 4] = 45.0
        self.page[:] = np.clip(page * (1.0 - body[..., None]) + painted * body[..., None], 0, 255).astype(np.uint8)

    def _finger_on_sheet(self, cx: float, cy: float) -> None:
        """A finger whose tip lies over (cx, cy) mm, the first time only, reaching in from the nearest edge of the
        page: a rounded body of skin, lit on top and darker at its sides, a nail near the tip, a soft shadow."""
        if getattr(self, "_finger_laid", False):
            return
        self._finger_laid = True
        rng = self.rng
        tip = np.array(self.px(cx, cy))
        h, w = self.page.shape[:2]
        # Towards the nearest edge of the page (pixels away), give or take 25 degrees.
        edges = {0.0: w - tip[0], math.pi: tip[0], math.pi / 2: h - tip[1], -math.pi / 2: tip[1]}
        nearest = min(edges, key=edges.get)
        angle = nearest + math.radians(rng.uniform(-25.0, 25.0))
        back = np.array([math.cos(angle), math.sin(angle)])  # from the tip towards the hand
        across = np.array([-back[1], back[0]])
        half = self.mm(rng.uniform(7.5, 9.5))
        length = edges[nearest] * 1.2 + self.mm(40.0)
        ends = np.array([tip - back * half, tip + back * length])
        offset = across * self.mm(rng.uniform(2.0, 5.0)) * rng.choice([-1.0, 1.0]) + back * self.mm(1.0)
        blur = self.mm(rng.uniform(2.0, 4.0))
        # The window takes in the whole shadow, to where its blur fades out: cut short, it left a sharp-edged grey
        # band across the sheet that no real shadow casts (finger-over-bubbles 620013, blind: across a box).
        reach = half + float(np.hypot(*offset)) + 4.0 * blur
        x0, y0 = np.maximum(np.floor(ends.min(axis=0) - reach), 0).astype(int)
        x1, y1 = np.minimum(np.ceil(ends.max(axis=0) + reach), [w, h]).astype(int)
        if x1 <= x0 or y1 <= y0:
            return
        ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        u = (xs - tip[0]) * back[0] + (ys - tip[1]) * back[1]  # along the finger, from its tip's centre
        v = (xs - tip[0]) * across[0] + (ys - tip[1]) * across[1]
        radius = np.where(u >= 0, np.abs(v), np.hypot(u, v))  # from the finger's axis (round at the tip)
        inside = (radius <= half) & (u <= length)
        body = cv2.GaussianBlur(inside.astype(np.float32), (0, 0), self.mm(0.4))  # a little out of focus
        # The shadow: the finger's shape moved by the offset (what leaves the window is gone, none wraps round).
        moved = np.float32([[1, 0, offset[0]], [0, 1, offset[1]]])
        cast = cv2.warpAffine(inside.astype(np.float32), moved, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        shade = cv2.GaussianBlur(cast, (0, 0), blur)
        window = self.page[y0:y1, x0:x1].astype(np.float32) * (1.0 - rng.uniform(0.25, 0.5) * shade)[..., None]
        skin = np.array(SKIN[int(rng.integers(len(SKIN)))], np.float32) * 255.0
        lit = 0.7 + 0.3 * np.sqrt(np.clip(1.0 - (radius / half) ** 2, 0.0, 1.0))  # round: lit on top
        painted = skin[None, None, :] * lit[..., None]
        nail = ((u - half * 0.9) / (half * 0.75)) ** 2 + (v / (half * 0.6)) ** 2 <= 1.0
        painted[nail] = painted[nail] * 0.6 + np.array([0.96, 0.85, 0.84], np.float32) * 255.0 * 0.4
        self.page[y0:y1, x0:x1] = np.clip(window * (1.0 - body[..., None]) + painted * body[..., None], 0,
                                          255).astype(np.uint8)

    def mark_bubble(self, round_number: int, place: str, digit: int, mark: str) -> None:
        """The bubble marked as `mark` (one of BUBBLE_MARKS) says, not filled in."""
        rng = self.rng
        cx, cy = L.bubble_center(round_number, place, digit)
        cx, cy = cx + rng.normal(0, 0.3), cy + rng.normal(0, 0.3)
        r = L.BUBBLE_RADIUS_MM * rng.uniform(0.8, 1.2)  # how far the strokes reach from the middle
        width = rng.uniform(0.4, 0.7)
        box = L.bubble_rect(round_number, place, digit)
        if mark == "x":
            lines = [[(cx - r * 0.7, cy - r * 0.7), (cx + r * 0.7, cy + r * 0.7)],
                     [(cx + r * 0.7, cy - r * 0.7), (cx - r * 0.7, cy + r * 0.7)]]
        elif mark == "slash":
            lines = [[(cx + r * 0.6, cy - r * 0.8), (cx - r * 0.6, cy + r * 0.8)]]
        elif mark == "tick":
            lines = [[(cx - r * 0.7, cy), (cx - r * 0.15, cy + r * 0.6), (cx + r * 0.8, cy - r * 0.8)]]
        elif mark == "scribble":
            turns = int(rng.integers(3, 6))
            lines = [[(cx + (r * 0.8 if k % 2 else -r * 0.8), cy - r * 0.7 + 1.4 * r * k / turns)
                      for k in range(turns + 1)]]
        else:
            lines = []

        def paint(mask, to_local) -> None:
            if mark == "dot":
                radius = rng.uniform(0.5, 0.9)
                cv2.circle(mask, to_local(cx, cy), int(self.mm(radius) * 16), 255, -1, cv2.LINE_AA, 4)
            elif mark == "ring":
                radius = L.BUBBLE_RADIUS_MM + rng.uniform(0.3, 0.9)
                cv2.ellipse(mask, to_local(cx, cy), (int(self.mm(radius) * 16), int(self.mm(radius * 0.9) * 16)),
                            float(rng.uniform(0, 180)), 0, 360, 255, self.line_px(width), cv2.LINE_AA, 4)
            for line in lines:
                pts = np.array([to_local(*p) for p in self.wobbly_polyline(line, 0.15)], np.int32)
                cv2.polylines(mask, [pts], False, 255, self.line_px(width), cv2.LINE_AA, 4)

        self.apply(box.inset(-1.5), paint, photogen.GRAPHITE, rng.uniform(0.6, 0.9), grain=0.3)

    def _erased(self, cells: frozenset) -> None:
        """`cells` shaded (and maybe outlined) as any patch is, then rubbed out: what is left is a share of the
        pencil's darkness, smeared a little by the eraser."""
        rng = self.rng
        before = self.page.astype(np.float32)
        # The patch's own outline, not another distractor; and its cells stay cells of no patch, so that another
        # distractor outline over them is no patch's outline drawn in full around the ghost (erased 590007 and
        # 570016 were so drawn: a light grey fill in a full outline, which a player reads as shaded too).
        distractor, self.distractor = self.distractor, None
        shaded = getattr(self, "_shaded", None)
        try:
            photogen._PageDrawer.shade_patch(self, cells, str(rng.choice(["solid", "hatching", "scribble", "light"])))
        finally:
            self.distractor = distractor
            if shaded is not None:
                self._shaded = shaded
        left = (self.page.astype(np.float32) - before) * rng.uniform(0.10, 0.35)
        smeared = cv2.GaussianBlur(left, (0, 0), self.mm(rng.uniform(0.3, 1.2)))
        self.page[:] = np.clip(before + smeared, 0, 255).astype(np.uint8)

    def _stray_line(self, cx: float, cy: float) -> None:
        """A pencil line through (cx, cy) at any angle, in the pencil's own widths and strengths."""
        rng = self.rng
        length, angle = rng.uniform(25.0, 70.0), rng.uniform(0.0, np.pi)
        before = rng.uniform(0.2, 0.8) * length
        dx, dy = np.cos(angle), np.sin(angle)
        line = [(cx - before * dx, cy - before * dy), (cx + (length - before) * dx, cy + (length - before) * dy)]
        stroke = self.wobbly_polyline(line, 0.2)
        width = rng.uniform(0.4, 0.75)

        def paint(mask, to_local) -> None:
            cv2.polylines(mask, [np.array([to_local(*p) for p in stroke], np.int32)], False, 255, self.line_px(width),
                          cv2.LINE_AA, 4)

        xs, ys = [p[0] for p in stroke], [p[1] for p in stroke]
        box = L.Rect(min(xs) - 2, min(ys) - 2, max(xs) - min(xs) + 4, max(ys) - min(ys) + 4)
        self.apply(box, paint, photogen.GRAPHITE, rng.uniform(0.5, 0.95), grain=0.3)

    def _stain(self, cx: float, cy: float) -> None:
        """A tea or coffee ring (tint and rim of any strength, whole or an arc), or a smear of graphite."""
        rng = self.rng
        if self.distractor == "hand smear":
            length, width = rng.uniform(10, 30), rng.uniform(4, 9)
            angle = rng.uniform(0, 180)
            box = L.Rect(cx - length, cy - length, 2 * length, 2 * length)

            def smear(mask, to_local) -> None:
                axes = (int(self.mm(length / 2) * 16), int(self.mm(width / 2) * 16))
                cv2.ellipse(mask, to_local(cx, cy), axes, angle, 0, 360, 255, -1, cv2.LINE_AA, 4)
                mask[:] = cv2.GaussianBlur(mask, (0, 0), self.mm(width * 0.3))

            self.apply(box, smear, photogen.GRAPHITE, rng.uniform(0.08, 0.2), grain=0.2)
            return
        colour = TEA[int(rng.integers(len(TEA)))]
        radius = rng.uniform(10.0, 22.0)
        box = L.Rect(cx - radius - 3, cy - radius - 3, 2 * radius + 6, 2 * radius + 6)
        start = rng.uniform(0, 360)
        arc = 360 if rng.random() < 0.5 else rng.uniform(90, 300)  # a ring, or the part of one that dried

        def tint(mask, to_local) -> None:
            cv2.circle(mask, to_local(cx, cy), int(self.mm(radius) * 16), 255, -1, cv2.LINE_AA, 4)
            mask[:] = cv2.GaussianBlur(mask, (0, 0), self.mm(rng.uniform(0.3, 1.5)))

        def ring(mask, to_local) -> None:
            axes = (int(self.mm(radius) * 16), int(self.mm(radius) * 16))
            cv2.ellipse(mask, to_local(cx, cy), axes, 0, start, start + arc, 255, self.line_px(rng.uniform(0.5, 3)),
                        cv2.LINE_AA, 4)
            mask[:] = cv2.GaussianBlur(mask, (0, 0), self.mm(rng.uniform(0.2, 0.8)))

        tinted = rng.uniform(0.0, 0.35) if rng.random() < 0.8 else 0.0
        if tinted:
            self.apply(box, tint, colour, tinted, grain=0.05)
        self.apply(box, ring, colour, rng.uniform(0.3, 0.9), grain=0.2)


def styled_photo(seed: int, level: str | Conditions = "mild", style: str | None = None,
                 distractor: str | None = None, sharpen: float = 0.0, outlines: str = "some",
                 shake: float = 0.0, bubbles: str | None = None, over: str = "grid") -> SyntheticPhoto:
    """A photo of the project's generator with every patch drawn in `style` (one of MARK_STYLES, or the project's
    own) and outlined as `outlines` says (one of OUTLINES), its distractor outlines replaced by `distractor` (one
    of DISTRACTORS), the photo sharpened by an unsharp mask of `sharpen` (a phone's processing: 1.5 is strong),
    and shaken: blurred along a line at any angle, as long as 30-100% of `shake` times the photo's longer side (a
    hand that moved while the shutter was open: 0.006 is 24 pixels of a 12 MP photo at most). `bubbles`: "any"
    marks the round's bubbles in one of BUBBLE_MARKS (chosen per sheet), instead of filling them in. `over`:
    "bubbles" lays a pencil or finger on the sheet (`distractor`) through a round's bubble, once all is drawn,
    rather than over the grid."""
    if over not in ("grid", "bubbles") or (over == "bubbles" and distractor not in ("pencil on sheet",
                                                                                      "finger on sheet")):
        raise ValueError(f"over={over!r}: 'grid', or 'bubbles' with a pencil or a finger on the sheet")
    cond = CONDITIONS[level] if isinstance(level, str) else level
    suffix = (("" if outlines == "some" else f"-{outlines}") + (f"-shake{shake}" if shake else "")
              + (f"-bubbles-{bubbles}" if bubbles else "") + ("" if over == "grid" else f"-over-{over}"))
    changes: dict = {"name": f"{cond.name}-{style}-{distractor}-{sharpen}{suffix}"}
    if style is not None:
        changes["styles"] = (style,)
    if distractor is not None:
        changes["distractor_outlines"] = (2, 4)
    cond = replace(cond, **changes)
    drawer_class, degrade, draw_sheet = photogen._PageDrawer, photogen._degrade, photogen.draw_sheet
    marked: dict[str, str | int] = {}  # chosen for this sheet: the bubbles' mark, the round laid over

    class Drawer(_StyledDrawer):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self.distractor = distractor
            self.outlines = outlines
            if over == "bubbles":  # laid after all is drawn (`draw_then_lay`), not while the grid is
                self._pencil_laid = self._finger_laid = True

        def shade_patch(self, cells: frozenset, style: str) -> None:
            self._shaded = getattr(self, "_shaded", set()) | set(cells)
            super().shade_patch(cells, style)

        def fill_bubble(self, round_number: int, place: str, digit: int) -> None:
            if not bubbles:
                super().fill_bubble(round_number, place, digit)
                return
            if "bubble_mark" not in marked:
                marked["bubble_mark"] = str(self.rng.choice(BUBBLE_MARKS))
            self.mark_bubble(round_number, place, digit, marked["bubble_mark"])

    def draw_then_lay(drawer, rng, cond, truth, drawn) -> None:
        draw_sheet(drawer, rng, cond, truth, drawn)
        if over == "bubbles":
            block = L.ROUNDS[int(drawer.rng.integers(len(L.ROUNDS)))]
            cx, cy = L.bubble_center(block.number, str(drawer.rng.choice(L.PLACES)), int(drawer.rng.integers(10)))
            cx, cy = cx + drawer.rng.uniform(-2, 2), cy + drawer.rng.uniform(-2, 2)
            drawer._pencil_laid = drawer._finger_laid = False
            lay = drawer._pencil_on_sheet if distractor == "pencil on sheet" else drawer._finger_on_sheet
            lay(cx, cy)
            marked["laid_over_round"] = block.number

    def processed(rng, cond, photo, details):
        if shake:
            length = rng.uniform(0.3, 1.0) * shake * max(photo.shape[:2])
            angle = rng.uniform(0.0, math.pi)
            size = 2 * math.ceil(length / 2) + 1
            kernel = np.zeros((size, size), np.float32)
            half = length / 2
            centre = np.array([size // 2, size // 2], float)
            ends = [centre - half * np.array([math.cos(angle), math.sin(angle)]),
                    centre + half * np.array([math.cos(angle), math.sin(angle)])]
            cv2.line(kernel, tuple(int(round(v * 16)) for v in ends[0]), tuple(int(round(v * 16)) for v in ends[1]),
                     1.0, 1, cv2.LINE_AA, 4)
            photo = cv2.filter2D(photo, -1, kernel / kernel.sum())
            details["shake_px"] = round(length, 1)
        photo = degrade(rng, cond, photo, details)
        if sharpen:
            blurred = cv2.GaussianBlur(photo, (0, 0), 1.5)
            photo = cv2.addWeighted(photo, 1 + sharpen, blurred, -sharpen, 0)
            details["sharpen"] = sharpen
        return photo

    photogen._PageDrawer, photogen._degrade, photogen.draw_sheet = Drawer, processed, draw_then_lay
    try:
        photo = make_photo(seed, cond)
        photo.details.update(marked)
        return photo
    finally:
        photogen._PageDrawer, photogen._degrade, photogen.draw_sheet = drawer_class, degrade, draw_sheet
