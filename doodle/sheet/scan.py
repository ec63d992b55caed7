"""Reading a photo of a score sheet: the quilt, the crossed-off special actions and the round scores.

A pipeline of small steps (after OMRChecker): load the photo safely (`photo`), find the corner markers and fit
the homography (`markers`) or, without markers, find the 9x9 grid by its lines (`grid_fallback`), warp the sheet
flat, take out hard shadows (`shadows`: steps of the light that do not run along the grid lines), correct the
smooth light (`measure.flat_field`), measure the ink in each cell's interior, and decide with a per-sheet
threshold at the largest gap of the sorted cell values, with strokes as a second signal (`strokes`: a slash is a
mark, a stain is not). Special boxes and bubbles are read against the light right
around them (`measure.local_ink`), which needs no shadow estimate. The marker ids tell the layout version, the QR code
(`qr`, read from the photo itself) the sheet id. Nothing is guessed silently: every cell,
box and bubble gets a confidence, and the doubtful ones are listed in `ScanResult.uncertain`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from doodle.game.checks import SheetChecks
from doodle.geometry import Cell
from doodle.quilt import MAX_ROUND_SCORE, SIZE, Quilt, mask_of
from doodle.sheet import layout
from doodle.sheet.doubts import Uncertain, check_reading
from doodle.sheet.markers import MarkerFit, detect_markers, fit_markers
from doodle.sheet.measure import (
    FlatField,
    flat_field,
    largest_gap_threshold,
    light_variation,
    local_ink,
    log_distance,
    region_ink,
)
from doodle.sheet.outline import edge_lines, outlined_cells
from doodle.sheet.photo import PhotoSource, load_photo
from doodle.sheet.qr import read_sheet_code
from doodle.sheet.scan_errors import (
    MarkersMissingError,
    ScanError,
    SheetNotFoundError,
    TooBlurryError,
    TooDarkError,
)
from doodle.sheet.shadows import EDGE_CHANGE, ShadowMap, find_shadows
from doodle.sheet.strokes import STROKE_DENSE, STROKE_MARK, TINT_SURE, StrokeMap, stain_cells, stain_coloured

if TYPE_CHECKING:
    from doodle.sheet.grid_fallback import Facing

PX_PER_MM = 4.0
"""Resolution of the flattened sheet image: a 16 mm cell is 64 pixels, a bubble 18."""

CELL_INSET_MM = 3.5  # measure a cell's interior only: away from printed lines and hand-drawn outlines
CHECK_INSET_MM = 1.5
BUBBLE_READ_RADIUS_MM = 1.6
BUBBLE_RING_MM = (2.7, 3.1)  # the paper around a bubble, inside its neighbours

# Cell threshold window (ink units): empty paper measures about 0, the lightest pencil fill well above 0.05.
CELL_LOWEST = 0.02
CELL_HIGHEST = 0.22
# Confidence 1 at this log distance (see measure.log_distance) from the threshold; uncertain below half of it.
CELL_LOG_MARGIN = 0.8
PAPER_CELL = 0.03  # a cell measuring less ink than this (and under half the threshold) is taken as paper
MAX_PASSES = 5
GRID_LINE_REACH_MM = 3.0  # pencil edges lie this close to a printed grid line (shading over or short of it)
SPLIT_MIN_SHARE = 0.3  # a cell crossed by a shadow's edge is measured away from it when this much is left
CELL_LINE_CLEARANCE_MM = 1.5  # a shadow's step is measured inside a cell this far from its printed lines
SHADOW_EDGE = EDGE_CHANGE  # log gain changing this much between neighbouring pixels: a shadow's edge
SHADOW_NEAR_MM = 3.0  # cells this close to such a shadow are read with doubt when grey
OVERBRIGHT = 1.06  # a cell's median brightness this far above the paper estimate: the estimate is wrong there
SHADOW_DOUBT = 0.3  # the confidence given to cells and bubbles where the light around them is in doubt
SHADOW_WINDOW_MM = 24.0  # light changing by more than SHADOW_VARIATION (log) within this: a hard shadow edge
SHADOW_VARIATION = 0.12
IN_SHADOW_GAIN = 0.97  # a cell whose light was raised by more than this share lies inside a shadow taken out
SHADOW_MAX_INK = 0.6  # a shadow darkens paper by at most this much ink; heavier pencil is sure
NEUTRAL_CHROMA = 0.12  # grey: channels within this share of each other (after the paper's colour is divided out)
PAPER_BLOCK_MM = 4.0  # bare paper this wide inside a cell near a shadow's edge ...
PAPER_BLOCK_SHARE = 0.3  # ... over this share of its interior: the cell is paper, darkened in part by the shadow
PAPER_BLOCK_INK = 0.05  # ink below this is bare paper
SHADOW_NOTE = "a hard shadow crosses the sheet: grey cells may be shadow or light pencil; retake it in even light"
# Crossed special boxes: the share of the box's inside covered by pencil strokes (pixels of more than
# CHECK_STROKE_INK against the local light: measure.local_ink, with a closing wider than the box), against a
# fixed threshold. Over 2400 synthetic photos (seeds 0-1199 at moderate and harsh) unused boxes read 0 except
# under a shadow's edge (at most 0.112) and crossed ones at least 0.135. Strokes are counted from a faint 0.14:
# from 0.2, a thin tick on a blurred low-resolution photo read as little as 0.033. The mean ink separates them
# less well, since a shadow's soft edge adds a little everywhere but no strokes.
CHECK_REACH_MM = 13.0
CHECK_STROKE_INK = 0.14
CHECK_THRESHOLD = 0.123
CHECK_LOG_MARGIN = 0.40  # uncertain from about 0.10 to 0.155
# A narrow shadow beside a box is dark and narrower than the closing, so it reads as ink at the box's side (an
# unused box of harsh seed 1225 read 0.18 so). Where the paper around the box is uneven (brightness p5 to p95
# within a ring 1.5 to 6 mm out, thin print taken out, more than CHECK_RING_UNEVEN in log: over 2800 photos,
# harsh seeds 0-1599 and moderate 0-1199, only beside a shadow's edge), a reading between CHECK_FAINT and
# CHECK_SURE is in doubt: there, the 4 unused boxes with false ink and 25 of the 4993 crossed ones.
CHECK_RING_MM = (1.5, 6.0)
CHECK_RING_UNEVEN = 0.2
CHECK_FAINT = CHECK_THRESHOLD / 2  # less than this is no mark, uneven paper or not
CHECK_SURE = 0.3
# Filled bubbles: the same local ink (a closing wider than a filled bubble, narrower than the gap to the next
# filled one), over the square inside the printed ring. Over 600 photos (seeds 0-199 at mild, moderate and
# harsh) empty bubbles (their printed digit included) read at most 0.098 and filled ones at least 0.157 (filled
# bubbles just inside a shadow's edge: the closing cannot lift the shadow next to them). A second reading against
# the paper ring around the bubble (`_bubble_value`) must agree, or the bubble is in doubt.
BUBBLE_REACH_MM = 7.0
BUBBLE_LOCAL_HALF_MM = 1.3
BUBBLE_LOCAL_THRESHOLD = 0.125
BUBBLE_THRESHOLD = 0.2  # for the reading against the ring (empty bubbles up to 0.05, filled ones from 0.3)
BUBBLE_LOG_MARGIN = 0.5
BUBBLE_RING_UNEVEN = 0.12  # log: the paper around a bubble this much brighter on one side: a shadow's edge
BUBBLE_SECTORS = 8  # directions in which a bubble crossed by a shadow's edge is read side by side
UNCERTAIN_BELOW = 0.5
OUTLINED_CONFIDENCE = 0.8  # a few strokes inside a drawn outline: a deliberate mark (see outline.py)

TOO_DARK_MESSAGE = "the photo is too dark to read: take it in better light (or with the flash, avoiding glare)"
TOO_DARK_LEVEL = 40.0  # paper darker than this (0-255) leaves too little contrast between pencil and paper
GRID_CONFIDENCE_CAP = 0.8  # a markerless read is never reported as more certain than this
UNKNOWN_WAY_UP_CONFIDENCE = 0.25  # a grid whose way up is not known: one of four turns is right
GRID_RING_MM = 5.0  # without markers, paper is taken from this far around the grid
GRID_NOTE = (
    "read without corner markers, from the grid lines alone: less certain than a doodle sheet, check the quilt; "
    "special actions and round scores are not read"
)

TWO_SHEETS_MESSAGE = (
    "the photo shows two sheets: photograph one sheet at a time (neither lies on the other, and neither fills "
    "more of the photo, so which one to read cannot be told)"
)
PART_SHEETS_MESSAGE = (
    "the photo shows parts of two sheets and neither whole: photograph one sheet at a time, with all four corners "
    "in the picture"
)
COVERED_MESSAGE = (
    "another sheet lies over the sheet in the photo: photograph one sheet at a time, uncovered, with all four "
    "corners in the picture"
)
OTHER_SHEET_NOTE = (
    "another sheet was seen in the photo: the one on top and most in view was read; check that it is the one you "
    "meant"
)
MIRRORED_NOTE = (
    "the photo is mirrored (a selfie camera, or the sheet seen through the paper): it was read flipped back"
)

MIRROR_EVIDENCE = 2  # at least this many markers seen in the photo flipped back, more than unflipped: mirrored

METHOD_MARKERS = "markers"
METHOD_GRID = "grid"


@dataclass(frozen=True)
class ScanResult:
    """What a photo says. `round_scores` has None for a round whose bubbles are not filled in.

    `uncertain` holds the marks the reader is unsure of; `problems` what the checks of the reading (`checks`)
    found; `doubts` both. `corrected(...)` applies a player's answers and checks again."""

    quilt: Quilt
    cell_confidence: tuple[tuple[float, ...], ...]  # 9 rows of 9, 0-1
    cell_values: tuple[tuple[float, ...], ...]  # the measured ink per cell (for annotation and diagnosis)
    threshold: float
    specials_used: tuple[str, ...] | None  # None when not read (a grid without our layout)
    round_scores: tuple[int | None, ...]
    uncertain: tuple[Uncertain, ...]
    method: str  # METHOD_MARKERS or METHOD_GRID
    confidence: float  # the lowest confidence of anything read (capped for a markerless read)
    markers_found: int
    notes: tuple[str, ...]  # plain statements about how the photo was read (e.g. without markers)
    sheet_image: np.ndarray = field(repr=False, compare=False)  # the flattened sheet (BGR), for --annotate
    px_per_mm: float = PX_PER_MM
    layout: str | None = None  # the sheet's layout version, told by its marker ids (None without markers)
    sheet_id: str | None = None  # from the sheet's QR code (None when it could not be read)
    checks: SheetChecks = field(default_factory=SheetChecks)
    problems: tuple[Uncertain, ...] = ()
    confirmed: frozenset[str] = frozenset()  # the names of the doubts a player settled: not raised again

    @property
    def doubts(self) -> tuple[Uncertain, ...]:
        """Everything to check: the reader's doubts, then what the checks found (which stands for the reader's
        doubt about the same item)."""
        checked = {doubt.name for doubt in self.problems}
        return tuple(doubt for doubt in self.uncertain if doubt.name not in checked) + self.problems

    @property
    def complete_rounds(self) -> bool:
        return all(score is not None for score in self.round_scores)

    def total(self, rounds: tuple[int, int, int] | None = None) -> int | None:
        """Round scores minus one point per empty cell, when all three round scores are known."""
        scores = rounds if rounds is not None else self.round_scores
        if any(score is None for score in scores):
            return None
        return sum(scores) - self.quilt.empty_count()  # type: ignore[arg-type]

    def checked(self, checks: SheetChecks) -> ScanResult:
        """The reading checked against `checks` (the scoring it is for, the previous quilt, the round's cards)."""
        unread = "no bubble filled in" if self.method == METHOD_MARKERS else "the grid alone has no bubbles to read"
        problems = check_reading(self.quilt, self.round_scores, self.specials_used, checks, unread_because=unread)
        return replace(self, checks=checks, problems=tuple(d for d in problems if d.name not in self.confirmed))

    def corrected(
        self,
        cells: Mapping[Cell, bool] | None = None,
        specials: Mapping[str, bool] | None = None,
        rounds: Mapping[int, int | None] | None = None,
        *,
        confirm: Iterable[str] = (),
    ) -> ScanResult:
        """The reading with a player's answers applied: `cells` shaded or not, `specials` crossed or not, round
        scores by round number (None: not filled in). Doubts about what was answered go; the checks run again on
        the corrected reading, except on the doubts named in `confirm` (the player says the sheet is so)."""
        cells, specials, rounds = dict(cells or {}), dict(specials or {}), dict(rounds or {})
        for number, score in rounds.items():
            if not 1 <= number <= layout.ROUND_COUNT or not (score is None or 0 <= score <= MAX_ROUND_SCORE):
                raise ValueError(f"round {number} score {score}: rounds are 1 to {layout.ROUND_COUNT}, scores 0 to "
                                 f"{MAX_ROUND_SCORE}")
        shaded = mask_of(cell for cell, on in cells.items() if on)
        quilt = Quilt((self.quilt.bits | shaded) & ~mask_of(cell for cell, on in cells.items() if not on))
        used = self.specials_used
        if used is not None and specials:
            crossed = (set(used) - set(specials)) | {name for name, on in specials.items() if on}
            used = tuple(name for name in layout.SPECIAL_NAMES if name in crossed)
        scores = tuple(rounds.get(number, score) for number, score in enumerate(self.round_scores, start=1))
        confirm = frozenset(confirm)
        answered = {doubt for doubt in self.uncertain if doubt.cell in cells or doubt.special in specials
                    or doubt.round in rounds or (doubt.kind == "quilt" and doubt.name in confirm)}
        result = replace(self, quilt=quilt, specials_used=used, round_scores=scores,
                         uncertain=tuple(doubt for doubt in self.uncertain if doubt not in answered),
                         confirmed=self.confirmed | confirm)
        return result.checked(self.checks)

    def to_dict(self) -> dict[str, Any]:
        rect = self.quilt.best_rectangle()
        return {
            "quilt": self.quilt.rows(),
            "empty": self.quilt.empty_count(),
            "rectangle": rect.to_dict() if rect else None,
            "specials_used": None if self.specials_used is None else list(self.specials_used),
            "round_scores": list(self.round_scores),
            "total": self.total(),
            "confidence": round(self.confidence, 3),
            "method": self.method,
            "layout": self.layout,
            "sheet_id": self.sheet_id,
            "notes": list(self.notes),
            "uncertain": [u.to_dict() for u in self.doubts],
        }


def read_photo(source: PhotoSource, name: str | None = None, checks: SheetChecks | None = None) -> ScanResult:
    """Read a photo (a path, the file's bytes, a BGR array or a PIL image) of a doodle score sheet, and check the
    reading (`checks`: by default the round scores of a finished game; see `doodle.game.checks`).

    Raises a `ScanError` subclass whose message names the problem and what to do about it (and the file, by
    `name` when given).
    """
    return _read_image(load_photo(source, name=name), checks or SheetChecks())


def _read_image(image: np.ndarray, checks: SheetChecks, *, flipped: bool = False) -> ScanResult:
    """`read_photo` of the decoded photo; `flipped`: it is a mirrored photo flipped back."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    markers = detect_markers(gray)
    search = fit_markers(markers, gray.shape)
    notes: tuple[str, ...] = ()
    if search.fit is None and not search.ambiguous and not flipped:
        # Mirrored markers are not ours: a mirrored photo shows them only once flipped back (then, with fewer
        # than 3 in view, the grid is looked for in the photo flipped back too).
        gray_back = cv2.flip(gray, 1)
        markers_back = detect_markers(gray_back)
        unmirrored = fit_markers(markers_back, gray.shape)
        found_flipped = unmirrored.found >= max(MIRROR_EVIDENCE, search.found + 1)
        if unmirrored.fit is not None or unmirrored.ambiguous or unmirrored.covered or found_flipped:
            image, gray, markers, search = cv2.flip(image, 1), gray_back, markers_back, unmirrored
            notes, flipped = (MIRRORED_NOTE,), True
    if search.ambiguous:
        raise ScanError(TWO_SHEETS_MESSAGE)
    if search.covered:
        raise SheetNotFoundError(COVERED_MESSAGE)
    if search.fit is None and search.other_sheet:
        raise MarkersMissingError(PART_SHEETS_MESSAGE)
    if search.fit is not None:
        if search.other_sheet:
            notes += (OTHER_SHEET_NOTE,)
        sheet, inside = _warp(image, search.fit.homography)
        if not inside[_grid_box_px()].all():
            raise SheetNotFoundError("part of the grid is outside the photo: photograph the whole sheet")
        result = _identified(_read_sheet(sheet, inside, METHOD_MARKERS, search.found), gray, search.fit)
        return replace(result, notes=notes + result.notes).checked(checks)
    _check_light_and_focus(gray)
    from doodle.sheet.grid_fallback import find_grid_homography, orient  # only needed without markers

    homography = find_grid_homography(image)
    if homography is None:
        if search.found:
            raise MarkersMissingError(
                f"only {search.found} of 4 corner markers are visible: photograph the whole sheet, "
                "with all four corners in the picture"
            )
        raise SheetNotFoundError(
            "no score sheet found: no corner markers and no 9x9 grid are visible; photograph the whole sheet, "
            "flat, filling most of the picture"
        )
    facing = orient(gray, homography, markers)  # the grid alone looks the same turned or mirrored
    if facing.mirrored and not flipped:
        # Read again un-mirrored, where the markers read as themselves (and with them the boxes and bubbles).
        result = _read_image(cv2.flip(image, 1), checks, flipped=True)
        return replace(result, notes=result.notes + (MIRRORED_NOTE,))
    sheet, inside = _warp(image, facing.homography)
    result = _read_sheet(sheet, inside, METHOD_GRID, search.found)
    return _faced(replace(result, notes=notes + result.notes), facing).checked(checks)


def _faced(result: ScanResult, facing: Facing) -> ScanResult:
    """A markerless reading, in doubt as a whole when which way up the sheet is could not be told (or a photo
    flipped back still looks mirrored)."""
    if facing.known and not facing.mirrored:
        return result
    every = frozenset((row, col) for row in range(SIZE) for col in range(SIZE))
    from doodle.sheet.grid_fallback import UNKNOWN_REASON

    return replace(result, uncertain=(Uncertain.of_quilt(every, UNKNOWN_REASON), *result.uncertain),
                   confidence=min(result.confidence, UNKNOWN_WAY_UP_CONFIDENCE))


def _identified(result: ScanResult, gray: np.ndarray, fit: MarkerFit) -> ScanResult:
    """The result with the sheet's layout version (from its marker ids: they decide) and its sheet id (from its
    QR code, when readable). A QR code naming another layout is noted, and does not change how the sheet was
    read."""
    code = read_sheet_code(gray, fit.homography, fit.marks)
    notes = result.notes
    if code is not None and code.layout != fit.marks.version:
        notes += (
            f"the QR code says layout {code.layout} but the corner markers are those of layout "
            f"{fit.marks.version}: read as layout {fit.marks.version}",
        )
    return replace(result, layout=fit.marks.version, sheet_id=None if code is None else code.sheet_id, notes=notes)


def _warp(image: np.ndarray, homography: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The flattened sheet (sheet frame at PX_PER_MM) and the mask of its pixels that were inside the photo."""
    size = layout.canonical_size_px(PX_PER_MM)
    to_photo = homography @ np.diag([1 / PX_PER_MM, 1 / PX_PER_MM, 1.0])
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    sheet = cv2.warpPerspective(image, to_photo, size, flags=flags, borderMode=cv2.BORDER_REPLICATE)
    ones = np.full(image.shape[:2], 255, np.uint8)
    inside = cv2.warpPerspective(ones, to_photo, size, flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP) > 0
    return sheet, inside


def _grid_box_px() -> tuple[slice, slice]:
    x0, y0, x1, y1 = layout.GRID_RECT.to_px(PX_PER_MM)
    return slice(y0, y1), slice(x0, x1)


def _check_light_and_focus(gray: np.ndarray) -> None:
    """When no markers were found: say so if the photo is too dark or too blurred to find anything in it."""
    small = cv2.resize(gray, (640, round(640 * gray.shape[0] / gray.shape[1])), interpolation=cv2.INTER_AREA)
    bright = float(np.percentile(small, 95))
    if bright < TOO_DARK_LEVEL:
        raise TooDarkError(TOO_DARK_MESSAGE)
    spread = float(np.percentile(small, 99) - np.percentile(small, 1))
    edges = np.abs(cv2.Laplacian(small.astype(np.float32), cv2.CV_32F))
    sharpness = float(np.percentile(edges, 99.5)) / max(spread, 1.0)
    if spread > 40 and sharpness < 0.06:
        raise TooBlurryError("the photo is too blurred to read: hold the phone steady and let it focus on the sheet")


# --- reading the flattened sheet -------------------------------------------------------------------------------
def _trusted_paper(inside: np.ndarray) -> np.ndarray:
    """Where the sheet image shows paper: everywhere except where the player draws (cells, boxes, bubbles,
    written scores) and the large printed areas (markers, QR code, tinted boxes). Printed text and thin lines are
    taken out later by a small max filter, so the paper between them counts, close around the grid too."""
    trusted = inside.copy()
    for marker in layout.MARKERS:
        _set(trusted, marker.rect.inset(-1.0), False)
    _set(trusted, layout.QR_RECT.inset(-1.0), False)
    _set(trusted, layout.GRID_RECT.inset(-0.7), False)
    for special in layout.SPECIALS:
        _set(trusted, special.box.inset(-1.0), False)
    for rect in (layout.RULE_RECT, layout.PENALTY_RECT, layout.TOTAL_RECT, *layout.OLDER_LAYOUT_BLOCKS):
        _set(trusted, rect.inset(-1.0), False)
    for block in layout.ROUNDS:
        _set(trusted, block.write.inset(-1.5), False)
        for place in layout.PLACES:
            for digit in range(10):
                _set(trusted, layout.bubble_rect(block.number, place, digit).inset(-0.6), False)
    return trusted


def _set(mask: np.ndarray, rect: layout.Rect, value: bool) -> None:
    x0, y0, x1, y1 = rect.to_px(PX_PER_MM)
    mask[max(y0, 0) : max(y1, 0), max(x0, 0) : max(x1, 0)] = value


def _grid_ring(inside: np.ndarray) -> np.ndarray:
    """Without our layout, the only paper known is a narrow ring just outside the grid's border."""
    ring = np.zeros_like(inside)
    x0, y0, x1, y1 = layout.GRID_RECT.inset(-GRID_RING_MM).to_px(PX_PER_MM)
    ring[max(y0, 0) : y1, max(x0, 0) : x1] = True
    x0, y0, x1, y1 = layout.GRID_RECT.inset(-1.5).to_px(PX_PER_MM)
    ring[y0:y1, x0:x1] = False
    return ring & inside


@cache
def _cell_boxes() -> tuple[tuple[int, int, int, int], ...]:
    """Each cell's interior in sheet-image pixels, row by row (the same for every photo)."""
    return tuple(layout.cell_rect(r, c).inset(CELL_INSET_MM).to_px(PX_PER_MM) for r in range(SIZE) for c in range(SIZE))


def _bubble_value(field_: FlatField, center_mm: tuple[float, float]) -> tuple[float, bool]:
    """Ink inside a bubble, against the paper in a ring just around it (so an error in the light estimate, such
    as a shadow's edge near the bubbles, cannot fill them in). Also whether the reading is in doubt: where the
    light changes across the ring (a shadow's edge crosses the bubble itself), the bubble read side by side
    instead (each sector of it against the ring's paper in the same direction, under the same light) says
    otherwise."""
    cx, cy = center_mm[0] * PX_PER_MM, center_mm[1] * PX_PER_MM
    outer = BUBBLE_RING_MM[1] * PX_PER_MM
    x0, y0 = int(cx - outer), int(cy - outer)
    patch = field_.normalised[y0 : int(cy + outer) + 2, x0 : int(cx + outer) + 2]
    ys, xs = np.mgrid[y0 : y0 + patch.shape[0], x0 : x0 + patch.shape[1]]
    distance = np.sqrt((xs + 0.5 - cx) ** 2 + (ys + 0.5 - cy) ** 2) / PX_PER_MM
    disk = distance <= BUBBLE_READ_RADIUS_MM
    ring = (distance >= BUBBLE_RING_MM[0]) & (distance <= BUBBLE_RING_MM[1])
    if not disk.any() or not ring.any():
        return 0.0, False
    inside = patch[disk].mean(axis=0)
    value = _ink_against(inside, np.percentile(patch[ring], 80, axis=0))
    light = patch[ring].max(axis=1)
    low, high = np.percentile(light, (10, 90))
    if np.log(max(float(high), 1e-3) / max(float(low), 1e-3)) <= BUBBLE_RING_UNEVEN:
        return value, False
    sector = np.floor((np.arctan2(ys + 0.5 - cy, xs + 0.5 - cx) + np.pi) / (2 * np.pi) * BUBBLE_SECTORS).astype(int)
    local = [
        _ink_against(patch[disk & (sector == k)].mean(axis=0), np.percentile(patch[ring & (sector == k)], 80, axis=0))
        for k in range(BUBBLE_SECTORS)
        if (disk & (sector == k)).any() and (ring & (sector == k)).any()
    ]
    side_by_side = float(np.median(local)) if local else value
    return value, (side_by_side > BUBBLE_THRESHOLD) != (value > BUBBLE_THRESHOLD)


def _ink_against(colour: np.ndarray, paper: np.ndarray) -> float:
    return float(max(0.0, 1.0 - float((colour / np.maximum(paper, 1e-3)).min())))


def _cell_values(field_: FlatField, skip: np.ndarray) -> np.ndarray:
    """The ink in each cell's interior. A cell crossed by a shadow's edge is measured on its parts away from
    the edge (`skip`), where the light taken out matches the light that was there, when enough of it is left."""
    values = []
    for x0, y0, x1, y1 in _cell_boxes():
        keep = ~skip[y0:y1, x0:x1]
        if SPLIT_MIN_SHARE * keep.size <= keep.sum() < keep.size:
            values.append(float(field_.ink[y0:y1, x0:x1][keep].mean()))
            continue
        values.append(region_ink(field_.ink, (x0, y0, x1, y1)))
    return np.array(values)


def _neutral(field_: FlatField, box: tuple[int, int, int, int]) -> bool:
    """Whether the region is grey (paper, graphite, a shadow) rather than coloured pencil."""
    x0, y0, x1, y1 = box
    mean = field_.normalised[y0:y1, x0:x1].reshape(-1, 3).mean(axis=0)
    return float((mean.max() - mean.min()) / max(float(mean.max()), 1e-3)) < NEUTRAL_CHROMA


def _paper_block(field_: FlatField, box: tuple[int, int, int, int]) -> bool:
    """Whether a block of bare paper at least PAPER_BLOCK_MM wide covers PAPER_BLOCK_SHARE of the region (the
    gaps between hatching strokes or in a scribble are narrower), as bright as paper and no brighter (pencil
    brightened by a shadow taken out where there was none comes out brighter than paper)."""
    x0, y0, x1, y1 = box
    paper = (field_.ink[y0:y1, x0:x1] < PAPER_BLOCK_INK).astype(np.uint8)
    side = round(PAPER_BLOCK_MM * PX_PER_MM)
    block = cv2.morphologyEx(paper, cv2.MORPH_OPEN, np.ones((side, side), np.uint8)) > 0
    if block.mean() < PAPER_BLOCK_SHARE:
        return False
    return float(np.median(field_.brightness[y0:y1, x0:x1][block])) < OVERBRIGHT


def _overbright_cells(field_: FlatField) -> set[int]:
    """Cells brighter than paper: the light estimate is too dark there (a shadow edge misplaced), so neither
    they nor their neighbours can be trusted."""
    found = set()
    for index, (x0, y0, x1, y1) in enumerate(_cell_boxes()):
        if float(np.median(field_.brightness[y0:y1, x0:x1])) > OVERBRIGHT:
            found.add(index)
    return found


@dataclass
class _Reading:
    """What the steps of `_read_sheet` collect: the doubts and every confidence."""

    uncertain: list[Uncertain] = field(default_factory=list)
    confidences: list[float] = field(default_factory=list)


def _read_sheet(sheet: np.ndarray, inside: np.ndarray, method: str, markers_found: int) -> ScanResult:
    marks = method == METHOD_MARKERS
    trusted = _trusted_paper(inside) if marks else _grid_ring(inside)
    # The cells are read with the hard shadows taken out (see shadows.py); the boxes and bubbles, read against
    # fixed thresholds and their own surroundings, from the photo's light as it is.
    shadows = _find_shadows(sheet, trusted)
    plain = flat_field(sheet, trusted)  # the photo's own light, shadows and all
    unshadowed = sheet if shadows.depth <= 0.0 else _unshadowed(sheet, shadows)
    first = plain if unshadowed is sheet else flat_field(unshadowed, trusted)
    field_, values, threshold, joined = _light_and_cells(unshadowed, first, trusted.copy(), shadows.edge)
    window = round(SHADOW_WINDOW_MM * PX_PER_MM)
    variation = light_variation(field_, window)
    shadowed = _shadowed_cells(shadows)
    # The light still changing steeply once the shadows are out: a shadow was missed or misjudged somewhere, so
    # every grey cell may be shadow, even one taken as paper (a misjudged shadow can brighten light pencil).
    steep = float(variation[trusted].max(initial=0.0)) > SHADOW_VARIATION
    if steep:
        shadowed = set(range(SIZE * SIZE))
    shadow = bool(shadowed)
    brightened = _brightened_cells(field_, plain, shadows, values, threshold)
    reading = _Reading()
    strokes = StrokeMap(sheet, _cell_boxes(), PX_PER_MM)
    stains = stain_cells(field_.ink, values, values > threshold, strokes, _cell_boxes(), PX_PER_MM)
    marked = {i for i in range(SIZE * SIZE) if values[i] > threshold or strokes.shares[i] >= STROKE_MARK}
    outlined = outlined_cells(edge_lines(field_.ink, PX_PER_MM), marked)
    # A cell that joined the paper only because a shadow was taken out is not known paper.
    quilt = _read_cells(field_, values, threshold, joined - brightened, variation, shadowed | brightened, steep,
                        reading, strokes.shares, stains, outlined)
    if marks:
        specials = _read_specials(sheet, reading)
        rounds = _read_rounds(sheet, plain, reading)
    else:
        specials, rounds = None, (None,) * layout.ROUND_COUNT
    confidence = min(reading.confidences) if reading.confidences else 1.0
    if not marks:
        confidence = min(confidence, GRID_CONFIDENCE_CAP)
    cell_confidence = reading.confidences[: SIZE * SIZE]
    return ScanResult(
        quilt=quilt,
        cell_confidence=tuple(tuple(cell_confidence[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)),
        cell_values=tuple(tuple(float(v) for v in values[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)),
        threshold=threshold,
        specials_used=specials,
        round_scores=rounds,
        uncertain=_unique(reading.uncertain),
        method=method,
        confidence=confidence,
        markers_found=markers_found,
        notes=(() if marks else (GRID_NOTE,)) + ((SHADOW_NOTE,) if shadow else ()),
        sheet_image=sheet,
    )


def _find_shadows(sheet: np.ndarray, trusted: np.ndarray) -> ShadowMap:
    """The hard shadows on the sheet, told from pencil by not running along the printed grid lines."""
    height, width = sheet.shape[:2]
    near_columns = np.zeros((height, width), bool)
    near_rows = np.zeros((height, width), bool)
    grid, reach = layout.GRID_RECT, GRID_LINE_REACH_MM
    for k in range(SIZE + 1):
        _set(near_columns, layout.Rect(grid.x + k * layout.CELL_MM - reach, grid.y - reach, 2 * reach,
                                       grid.h + 2 * reach), True)
        _set(near_rows, layout.Rect(grid.x - reach, grid.y + k * layout.CELL_MM - reach, grid.w + 2 * reach,
                                    2 * reach), True)
    domain = trusted.copy()
    _set(domain, grid.inset(-1.0), True)
    return find_shadows(sheet, near_columns, near_rows, domain, trusted, _cell_interiors(height, width))


@cache
def _cell_interiors(height: int, width: int) -> np.ndarray:
    """Each cell's interior away from its printed lines, numbered 1 to 81 row by row (0 elsewhere)."""
    cells = np.zeros((height, width), np.int32)
    for index in range(SIZE * SIZE):
        x0, y0, x1, y1 = layout.cell_rect(*divmod(index, SIZE)).inset(CELL_LINE_CLEARANCE_MM).to_px(PX_PER_MM)
        cells[y0:y1, x0:x1] = index + 1
    cells.setflags(write=False)  # cached: shared by every read
    return cells


def _shadowed_cells(shadows: ShadowMap) -> set[int]:
    """Cells near the edge of a shadow that was taken out: there the light is least sure, and an error could
    pass for light pencil. Inside a shadow, away from its edge, the light taken out was measured on paper."""
    if shadows.depth <= 0.0:
        return set()
    log_gain = np.log(np.maximum(shadows.gain, 1e-3))
    k = np.ones((3, 3), np.uint8)
    dark = (cv2.dilate(log_gain, k) - cv2.erode(log_gain, k)) > SHADOW_EDGE
    found = set()
    for index, rect in enumerate(layout.cell_rect(r, c) for r in range(SIZE) for c in range(SIZE)):
        x0, y0, x1, y1 = rect.inset(-SHADOW_NEAR_MM).to_px(PX_PER_MM)
        if dark[max(y0, 0) : y1, max(x0, 0) : x1].any():
            found.add(index)
    return found


def _brightened_cells(
    field_: FlatField, plain: FlatField, shadows: ShadowMap, values: np.ndarray, threshold: float
) -> set[int]:
    """Cells inside a shadow taken out that read as paper only because it was taken out (read in the photo's own
    light, they read as pencil). Light pencil under a shadow that was not there (or deeper than it was) comes out
    just like paper, so these are in doubt like the cells near a shadow's edge."""
    if shadows.depth <= 0.0:
        return set()
    found = set()
    for index, box in enumerate(_cell_boxes()):
        x0, y0, x1, y1 = box
        inside = float(np.median(shadows.gain[y0:y1, x0:x1])) < IN_SHADOW_GAIN
        if inside and values[index] <= threshold < region_ink(plain.ink, box) and _neutral(field_, box):
            found.add(index)
    return found


def _unshadowed(sheet: np.ndarray, shadows: ShadowMap) -> np.ndarray:
    return np.clip(sheet.astype(np.float32) / shadows.gain[..., None], 0, 255).astype(np.uint8)


def _unique(doubts: list[Uncertain]) -> tuple[Uncertain, ...]:
    """Each doubtful item once, with its lowest confidence, in the order first met."""
    unique: dict[tuple[str, str], Uncertain] = {}
    for doubt in doubts:
        key = (doubt.kind, doubt.name)
        if key not in unique or doubt.confidence < unique[key].confidence:
            unique[key] = doubt
    return tuple(unique.values())


def _light_and_cells(
    sheet: np.ndarray, field_: FlatField, trusted: np.ndarray, skip: np.ndarray
) -> tuple[FlatField, np.ndarray, float, set[int]]:
    """The light over the sheet, the ink in each cell, the threshold, and the cells taken as paper, starting from
    `field_`, the light estimated from the paper `trusted` alone.

    The empty cells are paper too: with them the light is known inside the grid, which matters under a hard
    shadow across it. Cells surely empty join the paper (`trusted` grows) and the light is estimated again, until
    no more join: the paper grows from the margins into the grid through the empty cells.
    """
    if field_.paper_level < TOO_DARK_LEVEL:
        raise TooDarkError(TOO_DARK_MESSAGE)
    boxes = _cell_boxes()
    joined: set[int] = set()
    for _ in range(MAX_PASSES):
        values = _cell_values(field_, skip)
        threshold = largest_gap_threshold(values, CELL_LOWEST, CELL_HIGHEST)
        overbright = _overbright_cells(field_)
        limit = min(PAPER_CELL, threshold / 2)
        new = {i for i, value in enumerate(values) if i not in joined | overbright and value < limit}
        if not new:
            return field_, values, threshold, joined
        for i in new:
            x0, y0, x1, y1 = boxes[i]
            trusted[y0:y1, x0:x1] = True
        joined |= new
        field_ = flat_field(sheet, trusted)
    values = _cell_values(field_, skip)
    return field_, values, largest_gap_threshold(values, CELL_LOWEST, CELL_HIGHEST), joined


def _read_cells(
    field_: FlatField,
    values: np.ndarray,
    threshold: float,
    joined: set[int],
    variation: np.ndarray,
    shadowed: set[int],
    steep: bool,
    reading: _Reading,
    strokes: np.ndarray,
    stains: set[int],
    outlined: set[int],
) -> Quilt:
    boxes = _cell_boxes()
    doubtful = set()
    # Cells that are not known paper where the light changes steeply nearby: a hard shadow edge was bridged.
    for index, (x0, y0, x1, y1) in enumerate(boxes):
        if index not in joined and variation[(y0 + y1) // 2, (x0 + x1) // 2] > SHADOW_VARIATION:
            doubtful.add(index)
    # Near the edge of a shadow that was taken out (or anywhere, when the light still changes steeply once the
    # shadows are out), a cell near the threshold is less sure (a wider band, see the confidence below), and a
    # grey cell may be paper under a misjudged shadow rather than light pencil, or the other way round (a shadow
    # never adds colour, and never darkens paper as much as heavy pencil does).
    if shadowed:
        for index, box in enumerate(boxes):
            known_paper = index in joined and not steep
            if index in shadowed and not known_paper and values[index] < SHADOW_MAX_INK and _neutral(field_, box):
                doubtful.add(index)
    # Cells brighter than paper: the light estimate is wrong around them.
    for index in _overbright_cells(field_):
        row, col = divmod(index, SIZE)
        doubtful |= {
            r * SIZE + c
            for r in range(row - 1, row + 2)
            for c in range(col - 1, col + 2)
            if 0 <= r < SIZE and 0 <= c < SIZE
        }
    shaded_cells = []
    for index, value in enumerate(values):
        row, col = divmod(index, SIZE)
        shaded = bool(value > threshold)
        if shaded and index in shadowed and _paper_block(field_, boxes[index]):
            # Pencil never leaves a wide block of bare paper inside a shaded cell: what darkens the rest of it is
            # a shadow whose edge was placed a little off.
            shaded = False
            doubtful.add(index)
        sure = False
        if not shaded and strokes[index] >= STROKE_MARK:
            # Little ink on average, but strokes: a deliberate mark (a slash, a loose scribble) when the player
            # outlined the cell, else maybe a stray line.
            shaded = True
            sure = index in outlined
        few_strokes = value < TINT_SURE and strokes[index] < STROKE_DENSE
        if index in stains:
            # A tint whose edge does not keep to the grid: a stain, a smudge. A tint alone is no mark.
            if strokes[index] < STROKE_MARK and index not in outlined:
                shaded = False
            doubtful.add(index)
        elif shaded and index not in outlined and not sure:
            if stain_coloured(field_.normalised, boxes[index]):
                # Brown, with no outline around it: tea or coffee (a few brown strokes: a ring's rim, no mark).
                shaded = shaded and not few_strokes
                doubtful.add(index)
            elif few_strokes and strokes[index] >= STROKE_MARK:
                doubtful.add(index)  # a few strokes with no outline around them: a stray line?
        margin = CELL_LOG_MARGIN * (2.0 if index in shadowed else 1.0)
        conf = min(1.0, log_distance(float(value), threshold) / margin)
        if sure:
            conf = max(conf, OUTLINED_CONFIDENCE)
        if index in doubtful:
            conf = min(conf, SHADOW_DOUBT)
        reading.confidences.append(conf)
        if shaded:
            shaded_cells.append((row, col))
        if conf < UNCERTAIN_BELOW:
            reading.uncertain.append(Uncertain.of_cell((row, col), shaded, conf))
    return Quilt(mask_of(shaded_cells))


def _read_specials(sheet: np.ndarray, reading: _Reading) -> tuple[str, ...]:
    """The crossed boxes, each read against the light right around it (so a shadow needs no estimate here)."""
    specials = []
    reach = round(CHECK_REACH_MM * PX_PER_MM)
    for special in layout.SPECIALS:
        ink = local_ink(sheet, special.check.inset(CHECK_INSET_MM).to_px(PX_PER_MM), reach)
        value = float((ink > CHECK_STROKE_INK).mean())
        crossed = value > CHECK_THRESHOLD
        conf = min(1.0, log_distance(value, CHECK_THRESHOLD) / CHECK_LOG_MARGIN)
        if CHECK_FAINT < value < CHECK_SURE and _uneven_around(sheet, special.check):
            conf = min(conf, SHADOW_DOUBT)
        reading.confidences.append(conf)
        if crossed:
            specials.append(special.name)
        if conf < UNCERTAIN_BELOW:
            reading.uncertain.append(Uncertain.of_special(special.name, crossed, conf))
    return tuple(specials)


def _uneven_around(sheet: np.ndarray, box: layout.Rect) -> bool:
    """Whether the paper in a ring around `box` changes brightness steeply: a shadow's edge beside it."""
    height, width = sheet.shape[:2]
    x0, y0, x1, y1 = box.inset(-CHECK_RING_MM[1]).to_px(PX_PER_MM)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)  # the ring may pass the sheet's edge
    bx0, by0, bx1, by1 = box.inset(-CHECK_RING_MM[0]).to_px(PX_PER_MM)
    bright = cv2.dilate(sheet[y0:y1, x0:x1].max(axis=2), np.ones((5, 5), np.uint8))  # thin print taken out
    ring = np.ones(bright.shape, bool)
    ring[max(by0 - y0, 0) : max(by1 - y0, 0), max(bx0 - x0, 0) : max(bx1 - x0, 0)] = False
    low, high = np.percentile(np.log(np.maximum(bright[ring], 1).astype(np.float32)), (5, 95))
    return float(high - low) > CHECK_RING_UNEVEN


def _read_rounds(sheet: np.ndarray, field_: FlatField, reading: _Reading) -> tuple[int | None, ...]:
    rounds: list[int | None] = []
    squares = _bubble_squares()
    # One closing over all the bubbles: each bubble's values are the same as from a closing of its own surroundings
    # (the closing reaches no further than BUBBLE_REACH_MM), at a quarter of the cost of 60 overlapping ones.
    ax0, ay0 = min(b[0] for b in squares.values()), min(b[1] for b in squares.values())
    ax1, ay1 = max(b[2] for b in squares.values()), max(b[3] for b in squares.values())
    ink = local_ink(sheet, (ax0, ay0, ax1, ay1), round(BUBBLE_REACH_MM * PX_PER_MM))
    for block in layout.ROUNDS:
        digits: dict[str, int | None] = {}
        for place in layout.PLACES:
            filled = []
            doubts: dict[int, Uncertain] = {}
            for digit in range(10):
                x0, y0, x1, y1 = squares[block.number, place, digit]
                value = float(ink[y0 - ay0 : y1 - ay0, x0 - ax0 : x1 - ax0].mean())
                conf = min(1.0, log_distance(value, BUBBLE_LOCAL_THRESHOLD) / BUBBLE_LOG_MARGIN)
                against_ring, doubtful = _bubble_value(field_, layout.bubble_center(block.number, place, digit))
                if doubtful or (against_ring > BUBBLE_THRESHOLD) != (value > BUBBLE_LOCAL_THRESHOLD):
                    conf = min(conf, SHADOW_DOUBT)
                reading.confidences.append(conf)
                if value > BUBBLE_LOCAL_THRESHOLD:
                    filled.append((value, digit))
                if conf < UNCERTAIN_BELOW:
                    doubts[digit] = _bubble_doubt(block.number, place, digit, value > BUBBLE_LOCAL_THRESHOLD, conf)
            filled.sort(reverse=True)
            # Two bubbles filled in one row: the darker is taken, and the others are reported as uncertain.
            for _, digit in filled[1:]:
                doubts[digit] = _bubble_doubt(block.number, place, digit, True, 0.0)
                reading.confidences.append(0.0)
            reading.uncertain.extend(doubts[d] for d in sorted(doubts))
            digits[place] = filled[0][1] if filled else None
        score = _round_score(digits["tens"], digits["units"])
        if score is not None and score > MAX_ROUND_SCORE:
            # No rectangle scores more than 81: the bubbles were misread or misfilled.
            for place in layout.PLACES:
                digit = digits[place]
                if digit is not None:
                    reading.uncertain.append(_bubble_doubt(block.number, place, digit, True, 0.0))
            reading.confidences.append(0.0)
        rounds.append(score)
    return tuple(rounds)


@cache
def _bubble_squares() -> dict[tuple[int, str, int], tuple[int, int, int, int]]:
    """The square read inside each bubble's printed ring, in sheet-image pixels, by (round, place, digit)."""
    squares = {}
    for block in layout.ROUNDS:
        for place in layout.PLACES:
            for digit in range(10):
                cx, cy = layout.bubble_center(block.number, place, digit)
                half = BUBBLE_LOCAL_HALF_MM
                squares[block.number, place, digit] = layout.Rect(cx - half, cy - half, 2 * half, 2 * half).to_px(
                    PX_PER_MM)
    return squares


def _bubble_doubt(round_number: int, place: str, digit: int, filled: bool, confidence: float) -> Uncertain:
    return Uncertain.of_bubble(round_number, place, digit, filled, confidence)


def _round_score(tens: int | None, units: int | None) -> int | None:
    """A round score from its bubbles. DECISION: a units bubble alone is a score under 10 (tens 0); a tens
    bubble alone is that many tens (units 0); no bubble filled is an unknown score (None)."""
    if tens is None and units is None:
        return None
    return (tens or 0) * 10 + (units or 0)
