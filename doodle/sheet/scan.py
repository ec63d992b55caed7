"""Reading a photo of a score sheet: the quilt, the crossed-off special actions and the round scores.

A pipeline of small steps (after OMRChecker): load the photo safely (`photo`), find the corner markers and fit
the homography (`markers`) or, without markers, find the 9x9 grid by its lines (`grid_fallback`), warp the sheet
flat, and read the flattened sheet in stages (`stages`: the paper, the hard shadows, the light and the cells, the
cell decisions, the special boxes, the bubbles), with the values in `tuning`. The marker ids tell the layout
version, the QR code (`qr`, read from the photo itself) the sheet id. Nothing is guessed silently: every cell,
box and bubble gets a confidence, and the doubtful ones are listed in `ScanResult.uncertain`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from doodle.blas import one_blas_thread
from doodle.game.checks import SheetChecks
from doodle.geometry import Cell
from doodle.quilt import MAX_ROUND_SCORE, SIZE, Quilt, cell_names, mask_of
from doodle.sheet import layout
from doodle.sheet.cover import cover_doubts, cover_note
from doodle.sheet.doubts import Uncertain, check_reading
from doodle.sheet.glare import find_glare
from doodle.sheet.markers import MarkerFit, detect_markers, fit_markers
from doodle.sheet.photo import PhotoSource, load_photo
from doodle.sheet.qr import read_sheet_code
from doodle.sheet.refine import (
    UNFLAT_NOTE,
    Refinement,
    marker_residuals,
    refine,
    sheet_maps,
    unflat_doubts,
)
from doodle.sheet.scan_errors import (
    MarkersMissingError,
    ScanError,
    SheetNotFoundError,
    TooBlurryError,
    TooDarkError,
)
from doodle.sheet.stages import PX_PER_MM, TOO_DARK_MESSAGE, SheetRead, read_sheet
from doodle.sheet.tuning import TUNING, ReaderTuning

if TYPE_CHECKING:
    from doodle.sheet.grid_fallback import Facing

BLURRED_NOTE = ("the photo is blurred (the printed lines barely show): the cells in doubt may read surer in a "
                "sharper one; hold the phone still and let it focus on the sheet")
SHADOW_NOTE = "a hard shadow crosses the sheet: grey cells may be shadow or light pencil; retake it in even light"
SOFT_SHADOW_NOTE = ("the soft shadow of a hand or a phone crosses the sheet: grey cells may be shadow or light pencil; "
                    "retake it in even light, holding the phone so that its shadow misses the sheet")
UNEVEN_LIGHT_NOTE = ("the light over the grid is uneven and too few empty cells show how bright its paper is: faint "
                     "grey cells may be paper or light pencil; retake it in even light, with no lamp reflecting off "
                     "the sheet")
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
OTHER_SHEET_TOO = ", one sheet at a time (another sheet is in view too)"
MIRRORED_NOTE = (
    "the photo is mirrored (a selfie camera, or the sheet seen through the paper): it was read flipped back"
)


def stain_note(cells: Iterable[tuple[int, int]]) -> str:
    """What the player is told of the cells a tea or coffee ring stains (`stages._under_stain_rings`)."""
    return (f"a ring of tea or coffee stains {cell_names(sorted(cells))}: read as empty, in doubt (a light brown "
            "pencil looks the same); check them on the sheet")


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
    rounds_read: bool = True  # False: the bubbles were not read (`round_scores` all None: unknown, not empty)
    # The bubbles read as filled, per round: (tens digit, units digit), None for a row with none filled. What the
    # picture draws: a score of 80 may be a tens 8 alone (DECISION in `stages._round_score`). Empty: not read.
    round_bubbles: tuple[tuple[int | None, int | None], ...] = ()

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
        unread = "no bubble filled in" if self.rounds_read else "the grid alone has no bubbles to read"
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


def read_photo(
    source: PhotoSource, name: str | None = None, checks: SheetChecks | None = None, *,
    tuning: ReaderTuning = TUNING, trace: dict[str, np.ndarray] | None = None,
) -> ScanResult:
    """Read a photo (a path, the file's bytes, a BGR array or a PIL image) of a doodle score sheet, and check the
    reading (`checks`: by default the round scores of a finished game; see `doodle.game.checks`). `tuning`: the
    values the reader decides with (a benchmark may try others). `trace`: a dict into which each stage of the
    reading puts a picture of what it found (BGR, the flattened sheet's size; see `stages`), by name in the order
    found, and kept as far as the reading got when it fails; none is drawn without it.

    Raises a `ScanError` subclass whose message names the problem and what to do about it (and the file, by
    `name` when given).
    """
    image = load_photo(source, name=name)
    # Small linear algebra all through (the light's fits and blurs, the page field): one BLAS thread does it
    # fastest, and threads that spin while other work wants the cores made a read several times slower.
    with one_blas_thread():
        return _read_image(image, checks or SheetChecks(), tuning, trace)


def _read_image(
    image: np.ndarray, checks: SheetChecks, tuning: ReaderTuning, trace: dict[str, np.ndarray] | None, *,
    flipped: bool = False,
) -> ScanResult:
    """`read_photo` of the decoded photo; `flipped`: it is a mirrored photo flipped back."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    markers = detect_markers(gray, tuning)
    search = fit_markers(markers, gray.shape, tuning, gray)
    notes: tuple[str, ...] = ()
    if search.fit is None and not search.ambiguous and not flipped:
        # Mirrored markers are not ours: a mirrored photo shows them only once flipped back (then, with fewer
        # than 3 in view, the grid is looked for in the photo flipped back too).
        gray_back = cv2.flip(gray, 1)
        markers_back = detect_markers(gray_back, tuning)
        unmirrored = fit_markers(markers_back, gray.shape, tuning, gray_back)
        found_flipped = unmirrored.found >= max(tuning.mirror_evidence, search.found + 1)
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
        if not inside[_box_px(layout.GRID_RECT)].all():
            also = OTHER_SHEET_TOO if search.other_sheet else ""
            raise SheetNotFoundError(f"part of the grid is outside the photo: photograph the whole sheet{also}")
        # A page that is not flat: where its print really is, near where the homography puts it (refine.py).
        refinement = refine(sheet, marker_residuals(markers, search.fit, tuning), tuning)
        if not refinement.flat:
            sheet, inside = _warp(image, search.fit.homography, refinement)
        covered = tuple(marker.corner for marker in layout.MARKERS
                       if marker.corner not in search.fit.corners and inside[_box_px(marker.rect)].all())
        read = _in_view(_read_sheet(sheet, inside, METHOD_MARKERS, search.found, tuning, trace, covered), inside,
                        tuning)
        result = _identified(read, gray, search.fit, tuning)
        return _unflat(replace(result, notes=notes + result.notes), refinement, tuning).checked(checks)
    _check_light_and_focus(gray, tuning)
    from doodle.sheet.grid_fallback import find_grid_homography, orient  # only needed without markers

    homography = find_grid_homography(image, tuning)
    if homography is None:
        if search.found:
            raise MarkersMissingError(
                f"only {search.found} of 4 corner markers are visible: photograph the whole sheet, "
                "with all four corners in the picture"
            )
        raise SheetNotFoundError(
            "no score sheet found: no corner markers and no 9x9 grid are visible; photograph the whole sheet, "
            "flat, filling most of the picture, and hold the phone still: a photo blurred by a moving hand shows "
            "neither"
        )
    facing = orient(gray, homography, markers, tuning)  # the grid alone looks the same turned or mirrored
    if facing.mirrored and not flipped:
        # Read again un-mirrored, where the markers read as themselves (and with them the boxes and bubbles).
        result = _read_image(cv2.flip(image, 1), checks, tuning, trace, flipped=True)
        return replace(result, notes=result.notes + (MIRRORED_NOTE,))
    placed = _placed_layout(image, facing, markers, tuning)
    if placed is not None:
        return replace(placed, notes=notes + placed.notes).checked(checks)
    sheet, inside = _warp(image, facing.homography)
    result = _read_sheet(sheet, inside, METHOD_GRID, search.found, tuning, trace)
    return _faced(replace(result, notes=notes + result.notes), facing, tuning).checked(checks)


def _placed_layout(image: np.ndarray, facing: Facing, markers: list, tuning: ReaderTuning) -> ScanResult | None:
    """A grid read whose way up is known, with the boxes and bubbles read where the grid and the markers in view
    place them (`placement`), in doubt where that place is unsure; None when no marker in view fits the grid."""
    from doodle.sheet import placement as placing

    if not facing.known or facing.mirrored:
        return None
    placement = placing.place_layout(facing.homography, markers, tuning)
    if placement is None:
        return None
    sheet, inside = _warp(image, placement.homography)
    items = placing.placed_items(placement, inside, PX_PER_MM, tuning)
    if not (items.read_specials or items.read_rounds):
        return None
    result = _result(read_sheet(sheet, inside, True, tuning), METHOD_GRID, len(placement.markers))
    used, scores, uncertain = placing.placed_reading(items, result.specials_used, result.round_scores,
                                                     result.uncertain, tuning)
    return replace(result, specials_used=used, round_scores=scores, uncertain=uncertain,
                   rounds_read=items.read_rounds, confidence=min(result.confidence, tuning.grid_confidence_cap),
                   notes=(placing.placed_note(items, len(placement.markers)), *result.notes))


def _faced(result: ScanResult, facing: Facing, tuning: ReaderTuning) -> ScanResult:
    """A markerless reading, in doubt as a whole when which way up the sheet is could not be told (or a photo
    flipped back still looks mirrored)."""
    if facing.known and not facing.mirrored:
        return result
    every = frozenset((row, col) for row in range(SIZE) for col in range(SIZE))
    from doodle.sheet.grid_fallback import UNKNOWN_REASON

    return replace(result, uncertain=(Uncertain.of_quilt(every, UNKNOWN_REASON), *result.uncertain),
                   confidence=min(result.confidence, tuning.unknown_way_up_confidence))


def _in_view(result: ScanResult, inside: np.ndarray, tuning: ReaderTuning) -> ScanResult:
    """The reading without the special boxes and round scores that are not all in the photo (`inside`): each is
    in doubt instead, and the reading's confidence 0."""
    from doodle.sheet import placement as placing

    items = placing.items_in_view(inside, PX_PER_MM, tuning)
    if len(items.specials_in_view) == len(layout.SPECIALS) and len(items.rounds_in_view) == len(layout.ROUNDS):
        return result
    used, scores, uncertain = placing.placed_reading(items, result.specials_used, result.round_scores,
                                                     result.uncertain, tuning)
    return replace(result, specials_used=used, round_scores=scores, uncertain=uncertain,
                   rounds_read=result.rounds_read and items.read_rounds, confidence=0.0)


def _identified(result: ScanResult, gray: np.ndarray, fit: MarkerFit, tuning: ReaderTuning) -> ScanResult:
    """The result with the sheet's layout version (from its marker ids: they decide) and its sheet id (from its
    QR code, when readable). A QR code naming another layout is noted, and does not change how the sheet was
    read."""
    code = read_sheet_code(gray, fit.homography, fit.marks, tuning)
    notes = result.notes
    if code is not None and code.layout != fit.marks.version:
        notes += (
            f"the QR code says layout {code.layout} but the corner markers are those of layout "
            f"{fit.marks.version}: read as layout {fit.marks.version}",
        )
    return replace(result, layout=fit.marks.version, sheet_id=None if code is None else code.sheet_id, notes=notes)


def _unflat(result: ScanResult, refinement: Refinement, tuning: ReaderTuning) -> ScanResult:
    """The reading with the doubts of a sheet that is not flat, where the printed lines did not say where its
    boxes, bubbles or cells are."""
    if not refinement.in_doubt:
        return result
    doubts = unflat_doubts(refinement, result.quilt, result.specials_used, result.round_scores, tuning)
    return replace(result, uncertain=_unique([*result.uncertain, *doubts]), notes=result.notes + (UNFLAT_NOTE,),
                   confidence=min(result.confidence, tuning.unflat_confidence))


def _warp(image: np.ndarray, homography: np.ndarray, refinement: Refinement | None = None
          ) -> tuple[np.ndarray, np.ndarray]:
    """The flattened sheet (sheet frame at PX_PER_MM) and the mask of its pixels that were inside the photo;
    through the `refinement`'s field when given (the sheet is not flat)."""
    if refinement is not None:
        map_x, map_y = sheet_maps(refinement, homography)
        sheet = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        height, width = image.shape[:2]
        inside = (map_x >= -0.5) & (map_y >= -0.5) & (map_x < width - 0.5) & (map_y < height - 0.5)
        return sheet, inside
    size = layout.canonical_size_px(PX_PER_MM)
    to_photo = homography @ np.diag([1 / PX_PER_MM, 1 / PX_PER_MM, 1.0])
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    sheet = cv2.warpPerspective(image, to_photo, size, flags=flags, borderMode=cv2.BORDER_REPLICATE)
    ones = np.full(image.shape[:2], 255, np.uint8)
    inside = cv2.warpPerspective(ones, to_photo, size, flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP) > 0
    return sheet, inside


def _box_px(rect: layout.Rect) -> tuple[slice, slice]:
    x0, y0, x1, y1 = rect.to_px(PX_PER_MM)
    return slice(y0, y1), slice(x0, x1)


def _check_light_and_focus(gray: np.ndarray, t: ReaderTuning) -> None:
    """When no markers were found: say so if the photo is too dark or too blurred to find anything in it."""
    width = t.focus_width_px
    small = cv2.resize(gray, (width, round(width * gray.shape[0] / gray.shape[1])), interpolation=cv2.INTER_AREA)
    bright = float(np.percentile(small, t.bright_percentile))
    if bright < t.too_dark_level:
        raise TooDarkError(TOO_DARK_MESSAGE)
    low, high = t.blur_spread_percentiles
    spread = float(np.percentile(small, high) - np.percentile(small, low))
    edges = np.abs(cv2.Laplacian(small.astype(np.float32), cv2.CV_32F))
    sharpness = float(np.percentile(edges, t.blur_edge_percentile)) / max(spread, 1.0)
    if spread > t.blur_min_spread and sharpness < t.blur_max_sharpness:
        raise TooBlurryError("the photo is too blurred to read: hold the phone steady and let it focus on the sheet")


def _read_sheet(
    sheet: np.ndarray, inside: np.ndarray, method: str, markers_found: int, tuning: ReaderTuning,
    trace: dict[str, np.ndarray] | None, covered: tuple[str, ...] = (),
) -> ScanResult:
    """The flattened sheet read (see `stages`), as a result (`covered`: the corners whose markers were not seen,
    though in the photo)."""
    read = read_sheet(sheet, inside, method == METHOD_MARKERS, tuning, trace, covered)
    return _result(read, method, markers_found)


def _result(read: SheetRead, method: str, markers_found: int) -> ScanResult:
    confidence = min(read.confidences) if read.confidences else 1.0
    if not read.marks:
        confidence = min(confidence, read.tuning.grid_confidence_cap)
    cell_confidence = read.confidences[: SIZE * SIZE]
    values = read.values
    shadow_note = SOFT_SHADOW_NOTE if read.shadows.soft else SHADOW_NOTE
    result = ScanResult(
        quilt=read.quilt,
        cell_confidence=tuple(tuple(cell_confidence[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)),
        cell_values=tuple(tuple(float(v) for v in values[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)),
        threshold=read.threshold,
        specials_used=read.specials,
        round_scores=read.rounds,
        uncertain=_unique(read.uncertain),
        method=method,
        confidence=confidence,
        markers_found=markers_found,
        notes=(() if read.marks else (GRID_NOTE,)) + ((shadow_note,) if read.shadow else ())
        + ((UNEVEN_LIGHT_NOTE,) if len(read.unlit - read.settled.keys()) > read.tuning.uneven_light_cells else ())
        + ((stain_note(divmod(index, SIZE) for index in read.stained),) if read.stained else ()),
        sheet_image=read.sheet,
        rounds_read=read.marks,
        round_bubbles=read.bubbles if read.marks else (),
    )
    glare = find_glare(read.sheet, PX_PER_MM, read.tuning, result.quilt.cells)
    if glare:
        settled_paper = {divmod(index, SIZE) for index, shaded in read.settled.items()
                         if not shaded and read.values[index] > read.threshold}  # against what its ink says
        inked = (divmod(index, SIZE) for index, value in enumerate(read.values) if value > read.tuning.glare_fringe_ink)
        inked_paper = {cell for cell in inked if not result.quilt.is_covered(*cell)}  # read as paper, against its ink
        result = _with_doubts(result, glare.doubts(result.quilt, result.specials_used, result.round_scores)
                              + glare.fringe_doubts(settled_paper, result.quilt, inked_paper), glare.note)
    shown = read.shown  # measured in `stages.find_paper`
    if shown.anything_covered:
        result = _with_doubts(result, cover_doubts(shown, result.quilt, result.specials_used, result.round_scores),
                              cover_note(shown, result.round_scores))
    if shown.contrast < read.tuning.blurred_print and any(doubt.kind == "cell" for doubt in result.uncertain):
        result = replace(result, notes=(*result.notes, BLURRED_NOTE))
    return result


def _with_doubts(result: ScanResult, doubts: tuple[Uncertain, ...], note: str) -> ScanResult:
    """The result with `doubts` (confidence 0: what cannot be read, whatever was read there; each in place of a
    doubt the reading had on the same item) and `note` saying why."""
    replaced = {(doubt.kind, doubt.name) for doubt in doubts}
    cells = {doubt.cell for doubt in doubts if doubt.kind == "cell"}
    confidence = tuple(tuple(0.0 if (row, col) in cells else value for col, value in enumerate(values))
                       for row, values in enumerate(result.cell_confidence))
    return replace(result, uncertain=tuple(d for d in result.uncertain if (d.kind, d.name) not in replaced) + doubts,
                   cell_confidence=confidence, confidence=0.0 if doubts else result.confidence,
                   notes=result.notes + (note,))


def _unique(doubts: list[Uncertain]) -> tuple[Uncertain, ...]:
    """Each doubtful item once, with its lowest confidence, in the order first met."""
    unique: dict[tuple[str, str], Uncertain] = {}
    for doubt in doubts:
        key = (doubt.kind, doubt.name)
        if key not in unique or doubt.confidence < unique[key].confidence:
            unique[key] = doubt
    return tuple(unique.values())
