"""Where everything on a score sheet is: the single source of truth for the PDF writer and the photo reader.

Coordinates are millimetres in the *sheet frame*: origin at the outer top-left corner of the top-left marker,
x to the right, y downwards (as in an image). The sheet frame is the same on every paper; the page only decides
where the frame sits (`page_slots`). A reader that finds the markers maps their corners (`marker_corners_mm`)
to the canonical "sheet image" (`to_px`, `canonical_size_px`) and reads every element there.

Markers: ArUco DICT_4X4_50. Four by four data bits is the coarsest grid OpenCV offers, so for a given printed
size each module is as large as possible (3.7 mm at 22 mm), which is what survives blur, JPEG and a 1-megapixel
photo; a 50-id dictionary keeps the Hamming distance between ids large and false detections in table texture
rare. Layout 2 prints ids 8-11 on a sheet printed alone (or first on a two-up page) and 12-15 on the second sheet
of a two-up page, so that a photo of a two-up page never mixes the corners of two sheets.

Layout versions. The ids also tell the reader which layout a photo shows (`LAYOUT_MARKS`):
- layout 1: 18 mm markers, ids 0-7. Scaled onto a two-up Letter page they printed at 12.1 mm.
- layout 2 (current): 22 mm markers, ids 8-15, so that every paper and two-up combination prints them at 15 mm
  or more (Letter two-up, the tightest, at 15.1 mm: see `page_slots`). The grid, the special boxes and the
  bubbles did not move, so both layouts are read alike; only unread things moved out of the larger markers'
  quiet margin (title, name line, QR code, column letters, round labels, rule box, penalty and total, footer),
  and the QR code grew from 0.8 mm to 0.93 mm modules (the reader decodes it: see doodle/sheet/qr.py).
Sheets of layout 1 may already be printed: the reader keeps reading them (`marker_corners_mm` knows each id's
marker size, and `OLDER_LAYOUT_BLOCKS` keeps their moved boxes out of the paper estimate).

Later sheets of layout 2 gained a rule line under each special box (thin text on the paper, where the bubbles' hint
was: the tinted boxes kept their size, because the band of bare paper between them and the rounds is one the
reader's light and shadow estimates lean on), coordinates on all four sides of the grid, larger hints, and no
heavier grid line every 3 cells. They keep layout 2 and its marker
ids on purpose: the version exists to tell the reader where to measure, and no cell, check square or bubble moved,
so earlier and later layout 2 sheets are read alike; a layout 3 would only spend marker ids. A change that moves
anything the reader measures takes a new version with new ids (DICT_4X4_50 has 34 unused).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from doodle.quilt import COLUMNS as COLUMNS  # the column letters printed on the sheet: the quilt's own

LAYOUT_VERSION = "2"

SHEET_WIDTH_MM = 190.0
SHEET_HEIGHT_MM = 262.0

PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
"""Portrait page sizes in millimetres (width, height)."""

ARUCO_DICTIONARY_NAME = "DICT_4X4_50"
MARKER_SIZE_MM = 22.0
MARKER_MODULES = 6  # 4x4 data bits plus the one-module black border on each side
MARKER_QUIET_MM = 4.0  # nothing else printed this close to a marker
MARKER_MIN_PRINTED_MM = 15.0  # the smallest a marker may be printed, on any paper, one or two sheets to a page
MARKER_IDS_BY_SLOT: tuple[tuple[int, int, int, int], ...] = ((8, 9, 10, 11), (12, 13, 14, 15))
"""Marker ids per sheet slot on a page, in corner order top-left, top-right, bottom-right, bottom-left."""
CORNERS = ("tl", "tr", "br", "bl")

GRID_SIZE = 9
CELL_MM = 16.0

BUBBLE_RADIUS_MM = 2.3
BUBBLE_LINE_MM = 0.25  # the printed ring, thin and grey: it does not show through a dark fill
BUBBLE_PITCH_MM = 5.6
ROUND_COUNT = 3
PLACES = ("tens", "units")


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle in sheet millimetres."""

    x: float
    y: float
    w: float
    h: float

    @property
    def x2(self) -> float:
        return self.x + self.w

    @property
    def y2(self) -> float:
        return self.y + self.h

    @property
    def center(self) -> tuple[float, float]:
        return (self.x + self.w / 2, self.y + self.h / 2)

    def inset(self, d: float) -> Rect:
        return Rect(self.x + d, self.y + d, self.w - 2 * d, self.h - 2 * d)

    def overlaps(self, other: Rect, gap: float = 0.0) -> bool:
        """True when the two rectangles come closer than `gap` (touching edges do not overlap at gap 0)."""
        return (
            self.x < other.x2 + gap and other.x < self.x2 + gap and self.y < other.y2 + gap and other.y < self.y2 + gap
        )

    def contains(self, other: Rect) -> bool:
        return self.x <= other.x and self.y <= other.y and other.x2 <= self.x2 and other.y2 <= self.y2

    def to_px(self, px_per_mm: float) -> tuple[int, int, int, int]:
        """(x0, y0, x1, y1) in pixels of the canonical sheet image, rounded to whole pixels (x1, y1 exclusive), so
        `image[y0:y1, x0:x1]` is the rectangle."""
        return (
            round(self.x * px_per_mm),
            round(self.y * px_per_mm),
            round(self.x2 * px_per_mm),
            round(self.y2 * px_per_mm),
        )


SHEET_RECT = Rect(0.0, 0.0, SHEET_WIDTH_MM, SHEET_HEIGHT_MM)


class Marker(NamedTuple):
    corner: str  # "tl", "tr", "br" or "bl": which corner of the sheet
    rect: Rect


_QUIET_EDGE = MARKER_SIZE_MM + MARKER_QUIET_MM  # nothing is printed closer than this to a sheet edge at a corner


def marker_rect(corner: str, size_mm: float = MARKER_SIZE_MM) -> Rect:
    """The marker at `corner` of the sheet frame (of the current layout's size unless told)."""
    if corner not in CORNERS:
        raise ValueError(f"unknown corner {corner!r}: expected one of {', '.join(CORNERS)}")
    x = 0.0 if corner in ("tl", "bl") else SHEET_WIDTH_MM - size_mm
    y = 0.0 if corner in ("tl", "tr") else SHEET_HEIGHT_MM - size_mm
    return Rect(x, y, size_mm, size_mm)


def marker_corners_mm(marker_id: int) -> tuple[tuple[float, float], ...]:
    """The marker's four corners in sheet mm, in the order cv2.aruco reports them (the marker's own top-left,
    top-right, bottom-right, bottom-left: markers are printed upright), so detected corners map one to one.
    Markers of older layouts are measured with their own size: the sheet frame is the same in every layout."""
    place = locate_marker(marker_id)
    if place is None:
        raise ValueError(f"marker id {marker_id} is not printed on doodle sheets")
    r = marker_rect(place.corner, place.marks.marker_size_mm)
    return ((r.x, r.y), (r.x2, r.y), (r.x2, r.y2), (r.x, r.y2))


MARKERS: tuple[Marker, ...] = tuple(Marker(corner, marker_rect(corner)) for corner in CORNERS)
"""The four corner markers of the current layout in `CORNERS` order; their ids depend on the slot
(`MARKER_IDS_BY_SLOT`)."""


@cache
def marker_bits(marker_id: int) -> tuple[tuple[int, ...], ...]:
    """The marker as MARKER_MODULES rows of MARKER_MODULES cells, top row first, 1 = black (border included)."""
    import cv2  # only the PDF writer and the reader need OpenCV; keep importing the layout cheap

    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY_NAME))
    image = cv2.aruco.generateImageMarker(dictionary, marker_id, MARKER_MODULES)
    return tuple(tuple(1 if value < 128 else 0 for value in row) for row in image)


# --- header -----------------------------------------------------------------------------------------------------
TITLE_RECT = Rect(_QUIET_EDGE + 1.0, 0.5, 110.0, 9.0)
NAME_RECT = Rect(_QUIET_EDGE + 1.0, 11.0, 110.0, 7.0)
"""The name line: the label "Name" at the left, the line along the bottom edge."""
QR_SIZE_MM = 21.5
QR_RECT = Rect(SHEET_WIDTH_MM - _QUIET_EDGE - QR_SIZE_MM, 0.0, QR_SIZE_MM, QR_SIZE_MM)
"""The QR code including its own white border, as large as the band above the grid allows: 0.93 mm modules for
the 21 of a version 1 code (layout 1: 0.8 mm), which the reader decodes from 1-megapixel photos far more often."""
QR_BORDER_MODULES = 1  # white paper all round adds to it (4 mm to the marker, 1.5 mm to the column letters)

# --- the quilt grid ---------------------------------------------------------------------------------------------
GRID_RECT = Rect((SHEET_WIDTH_MM - GRID_SIZE * CELL_MM) / 2, 26.0, GRID_SIZE * CELL_MM, GRID_SIZE * CELL_MM)
GRID_OUTER_LINE_MM = 0.8
GRID_INNER_LINE_MM = 0.3
CHECK_LINE_MM = 0.4  # the frame of each special action's square
CHECK_RADIUS_MM = 0.8  # ... and its rounded corners
COLUMN_LABELS_RECT = Rect(GRID_RECT.x + 4.0, GRID_RECT.y - 4.5, GRID_RECT.w - 8.0, 4.0)
"""The column letters, centred over the cells (kept out of the top markers' quiet margin)."""
ROW_LABELS_RECT = Rect(GRID_RECT.x - 4.5, GRID_RECT.y, 4.0, GRID_RECT.h)
COLUMN_LABELS_BELOW_RECT = Rect(COLUMN_LABELS_RECT.x, GRID_RECT.y2 + 0.5, COLUMN_LABELS_RECT.w, 4.0)
ROW_LABELS_RIGHT_RECT = Rect(GRID_RECT.x2 + 0.5, GRID_RECT.y, 4.0, GRID_RECT.h)
"""The coordinates are printed on all four sides of the grid, so that every cell is at most four cells from its
letter and its number (a cell the reader asks about, "is g8 shaded?", is found without counting across the
grid). All inner grid lines are alike: the quilt has no 3x3 blocks, so the grid suggests none."""


def cell_rect(row: int, col: int) -> Rect:
    """The cell at 0-based (row, col), row 0 at the top, col 0 at the left (printed as 'a1')."""
    if not (0 <= row < GRID_SIZE and 0 <= col < GRID_SIZE):
        raise ValueError(f"cell ({row}, {col}) is outside the 9x9 grid")
    return Rect(GRID_RECT.x + col * CELL_MM, GRID_RECT.y + row * CELL_MM, CELL_MM, CELL_MM)


# --- special actions --------------------------------------------------------------------------------------------
class SpecialBox(NamedTuple):
    name: str  # doodle.game.sheet.Special value: "neighbour", "single", "cut", "twice"
    label: str
    box: Rect  # the whole labelled box
    icon: Rect
    check: Rect  # the empty square the player crosses when the action is used
    rule: str  # what the action lets a player do, one short line
    rule_line: Rect  # where that line is printed: right under the box, on the paper


SPECIAL_NAMES = ("neighbour", "single", "cut", "twice")
SPECIAL_LABELS = {"neighbour": "Neighbour", "single": "Single square", "cut": "Cut", "twice": "Twice"}
SPECIAL_RULES = {
    "neighbour": "Draw the card before or after instead",
    "single": "Shade any one empty cell",
    "cut": "Cut it straight in two, draw one piece",
    "twice": "Use another special a second time",
}
"""The rules reminder under each special (doodle-rules.md, "The four special actions"), short enough for one line:
the current card's neighbour in the circle; one single cell; one straight cut into exactly two pieces, one drawn;
one of the three others once more."""
SPECIALS_TOP_MM = 176.0
SPECIAL_BOX_W = 44.5
SPECIAL_BOX_H = 18.0
SPECIAL_RULE_H = 3.5  # the rule line under each box
SPECIAL_GAP = (SHEET_WIDTH_MM - 4 * SPECIAL_BOX_W) / 3


def _special(index: int, name: str) -> SpecialBox:
    x = index * (SPECIAL_BOX_W + SPECIAL_GAP)
    y = SPECIALS_TOP_MM
    return SpecialBox(
        name,
        SPECIAL_LABELS[name],
        Rect(x, y, SPECIAL_BOX_W, SPECIAL_BOX_H),
        Rect(x + 2.0, y + 3.0, 11.5, 11.5),
        Rect(x + SPECIAL_BOX_W - 12.5, y + 3.0, 10.0, 10.0),
        SPECIAL_RULES[name],
        Rect(x + 1.0, y + SPECIAL_BOX_H + 0.5, SPECIAL_BOX_W - 2.0, SPECIAL_RULE_H),
    )


SPECIALS: tuple[SpecialBox, ...] = tuple(_special(i, name) for i, name in enumerate(SPECIAL_NAMES))


def special_box(name: str) -> SpecialBox:
    for special in SPECIALS:
        if special.name == name:
            return special
    raise ValueError(f"unknown special action {name!r}: expected one of {', '.join(SPECIAL_NAMES)}")


# --- round scores with bubbles ------------------------------------------------------------------------------------
class RoundBox(NamedTuple):
    number: int  # 1, 2 or 3
    box: Rect  # the whole block
    label: Rect  # "Round 1"
    write: Rect  # where the player writes the number by hand
    caption_x: float  # where "tens" / "units" are written, left of the bubbles
    row_y: tuple[float, float]  # the centre line of the tens row and of the units row
    first_x: float  # centre of bubble 0; bubble d is at first_x + d * BUBBLE_PITCH_MM


ROUNDS_TOP_MM = 200.0
ROUND_BLOCK_H = 14.5
ROUND_PITCH_MM = 17.0
ROUNDS_LEFT_MM = _QUIET_EDGE
ROUND_WRITE_X_MM = 36.5  # the box where the score is written by hand starts here (as in layout 1)
FIRST_BUBBLE_X_MM = 67.0  # centre of every round's bubble 0 (as in layout 1)


def _round(number: int) -> RoundBox:
    x = ROUNDS_LEFT_MM
    y = ROUNDS_TOP_MM + (number - 1) * ROUND_PITCH_MM
    width = FIRST_BUBBLE_X_MM + 9 * BUBBLE_PITCH_MM + BUBBLE_RADIUS_MM + 0.5 - x
    return RoundBox(
        number,
        Rect(x, y, width, ROUND_BLOCK_H),
        Rect(x, y, ROUND_WRITE_X_MM - 0.5 - x, ROUND_BLOCK_H),
        Rect(ROUND_WRITE_X_MM, y + 1.0, 17.0, ROUND_BLOCK_H - 2.0),
        FIRST_BUBBLE_X_MM - 11.5,
        (y + 3.8, y + 10.7),
        FIRST_BUBBLE_X_MM,
    )


ROUNDS: tuple[RoundBox, ...] = tuple(_round(n) for n in range(1, ROUND_COUNT + 1))
ROUNDS_HINT_RECT = Rect(ROUNDS_LEFT_MM, ROUNDS[-1].box.y2 + 1.5, ROUNDS[0].box.w, 3.5)
"""One line telling players how to fill the bubbles, under the last round (the special boxes' rule lines took
its place above the first)."""


def bubble_center(round_number: int, place: str, digit: int) -> tuple[float, float]:
    """Centre in sheet mm of the bubble for `digit` (0-9) in the `place` row ("tens" or "units") of a round."""
    if not 1 <= round_number <= ROUND_COUNT:
        raise ValueError(f"round {round_number} does not exist: rounds are 1 to {ROUND_COUNT}")
    if place not in PLACES:
        raise ValueError(f"place {place!r} is not 'tens' or 'units'")
    if not 0 <= digit <= 9:
        raise ValueError(f"digit {digit} is not 0-9")
    block = ROUNDS[round_number - 1]
    return (block.first_x + digit * BUBBLE_PITCH_MM, block.row_y[PLACES.index(place)])


def bubble_rect(round_number: int, place: str, digit: int) -> Rect:
    cx, cy = bubble_center(round_number, place, digit)
    return Rect(cx - BUBBLE_RADIUS_MM, cy - BUBBLE_RADIUS_MM, 2 * BUBBLE_RADIUS_MM, 2 * BUBBLE_RADIUS_MM)


# --- right column: the rule reminder, penalty and total -----------------------------------------------------------
RIGHT_COLUMN_X = 128.0
RULE_RECT = Rect(RIGHT_COLUMN_X, ROUNDS_TOP_MM, SHEET_WIDTH_MM - RIGHT_COLUMN_X, 19.0)
RULE_TABLE: tuple[tuple[int, int], ...] = ((2, 2), (3, 3), (3, 4), (4, 4), (4, 6), (5, 5), (6, 9), (9, 9))
SCORE_BOX_TOP_MM = SHEET_HEIGHT_MM - _QUIET_EDGE - 15.0  # the total box ends where the quiet margin begins
PENALTY_RECT = Rect(RIGHT_COLUMN_X, SCORE_BOX_TOP_MM, 29.0, 15.0)
TOTAL_RECT = Rect(SHEET_WIDTH_MM - 29.0, SCORE_BOX_TOP_MM, 29.0, 15.0)
FOOTER_RECT = Rect(RIGHT_COLUMN_X, 249.0, SHEET_WIDTH_MM - _QUIET_EDGE - RIGHT_COLUMN_X, 9.0)


def elements() -> dict[str, Rect]:
    """Every printed element by name (cells and bubbles excluded: they live inside the grid and round blocks)."""
    named: dict[str, Rect] = {f"marker_{m.corner}": m.rect for m in MARKERS}
    named.update(
        title=TITLE_RECT,
        name=NAME_RECT,
        qr=QR_RECT,
        column_labels=COLUMN_LABELS_RECT,
        row_labels=ROW_LABELS_RECT,
        column_labels_below=COLUMN_LABELS_BELOW_RECT,
        row_labels_right=ROW_LABELS_RIGHT_RECT,
        grid=GRID_RECT,
        rounds_hint=ROUNDS_HINT_RECT,
        rule=RULE_RECT,
        penalty=PENALTY_RECT,
        total=TOTAL_RECT,
        footer=FOOTER_RECT,
    )
    named.update({f"special_{s.name}": s.box for s in SPECIALS})
    named.update({f"round_{r.number}": r.box for r in ROUNDS})
    return named


# --- layout versions --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class LayoutMarks:
    """The machine-readable marks of one layout version: what the reader needs to fit and identify a photo."""

    version: str
    marker_size_mm: float
    marker_ids_by_slot: tuple[tuple[int, int, int, int], ...]
    qr: Rect  # the QR code, its printed white border included
    qr_border_modules: int

    def qr_module_mm(self, modules: int) -> float:
        """The side of one module of a QR code `modules` modules wide, as printed in `qr` with its white border."""
        return self.qr.w / (modules + 2 * self.qr_border_modules)

    def qr_code_rect(self, modules: int) -> Rect:
        """Where the modules of a QR code `modules` modules wide are printed: `qr` without its white border."""
        module = self.qr_module_mm(modules)
        border = self.qr_border_modules * module
        return Rect(self.qr.x + border, self.qr.y + border, modules * module, modules * module)


_LAYOUT_1_QR = Rect(146.0, 0.0, 20.0, 20.0)
LAYOUT_MARKS: tuple[LayoutMarks, ...] = (
    LayoutMarks("1", 18.0, ((0, 1, 2, 3), (4, 5, 6, 7)), _LAYOUT_1_QR, 2),
    LayoutMarks(LAYOUT_VERSION, MARKER_SIZE_MM, MARKER_IDS_BY_SLOT, QR_RECT, QR_BORDER_MODULES),
)
"""Every layout version the reader reads, oldest first; their marker ids never overlap."""
PRINTED_MARKS = LAYOUT_MARKS[-1]
"""The marks of the layout `doodle sheet` prints now."""

OLDER_LAYOUT_BLOCKS: tuple[Rect, ...] = (
    _LAYOUT_1_QR,
    Rect(RIGHT_COLUMN_X, ROUNDS_TOP_MM, SHEET_WIDTH_MM - RIGHT_COLUMN_X, 21.5),  # the (tinted) rule box
    Rect(RIGHT_COLUMN_X, 224.0, 29.0, 15.0),  # penalty, written in by hand
    Rect(SHEET_WIDTH_MM - 29.0, 224.0, 29.0, 15.0),  # total, written in by hand
)
"""Solid print and write-in boxes of older layouts where the current layout has none: the reader keeps them out
of its estimate of the paper, so that already printed sheets read as well as before."""


class MarkerPlace(NamedTuple):
    """Where one of our marker ids is printed: on sheets of which layout, in which slot of the page, at which
    corner."""

    marks: LayoutMarks
    slot: int
    corner: str


def locate_marker(marker_id: int) -> MarkerPlace | None:
    """Where `marker_id` is printed (in any layout version), or None for an id we never print."""
    for marks in LAYOUT_MARKS:
        for slot, ids in enumerate(marks.marker_ids_by_slot):
            if marker_id in ids:
                return MarkerPlace(marks, slot, CORNERS[ids.index(marker_id)])
    return None


# --- QR payload ---------------------------------------------------------------------------------------------------
QR_PREFIX = "DOODLE"


def qr_payload(sheet_id: str) -> str:
    """The QR text: 'DOODLE/<layout version>/<sheet id>'."""
    if not sheet_id or "/" in sheet_id:
        raise ValueError(f"sheet id {sheet_id!r} must be non-empty and contain no '/'")
    return f"{QR_PREFIX}/{LAYOUT_VERSION}/{sheet_id}"


def parse_qr_payload(text: str) -> tuple[str, str] | None:
    """(layout version, sheet id) from a QR text, or None when it is not one of ours."""
    parts = text.strip().split("/")
    if len(parts) != 3 or parts[0] != QR_PREFIX or not parts[1] or not parts[2]:
        return None
    return parts[1], parts[2]


# --- the canonical sheet image --------------------------------------------------------------------------------------
def to_px(point_mm: tuple[float, float], px_per_mm: float) -> tuple[float, float]:
    """A sheet-mm point in the canonical sheet image (origin at the sheet's top-left, `px_per_mm` pixels per mm)."""
    return (point_mm[0] * px_per_mm, point_mm[1] * px_per_mm)


def canonical_size_px(px_per_mm: float) -> tuple[int, int]:
    """(width, height) in pixels of the canonical sheet image at `px_per_mm`."""
    return (round(SHEET_WIDTH_MM * px_per_mm), round(SHEET_HEIGHT_MM * px_per_mm))


# --- where sheets sit on a page ---------------------------------------------------------------------------------------
class Slot(NamedTuple):
    """One sheet on a page: the page point (mm, from the page's top-left, y down) of the sheet origin, the scale of
    the sheet frame, and the marker ids printed on it."""

    x: float
    y: float
    scale: float
    marker_ids: tuple[int, int, int, int]


def page_size(paper: str, per_page: int = 1) -> tuple[float, float]:
    """(width, height) of the page in mm: portrait for one sheet per page, landscape for two."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}: expected one of {', '.join(PAPERS)}")
    if per_page not in (1, 2):
        raise ValueError(f"{per_page} sheets per page is not supported: use 1 or 2")
    width, height = PAPERS[paper]
    return (width, height) if per_page == 1 else (height, width)


TWO_UP_MARGIN_MM = 6.0
"""Two per page: the least white between a sheet and the paper's edge (most printers need 5 mm)."""
TWO_UP_GAP_MM = 6.0
"""Two per page: the white between the two sheets, cut through the middle (a little more than the markers' quiet
margin at two-up scale on each side of the cut)."""


def page_slots(paper: str, per_page: int = 1) -> tuple[Slot, ...]:
    """Where each sheet of a page goes. One per page: full size, centred. Two per page: the landscape page cut in
    two halves, each holding the same sheet scaled down as little as the margins allow, the two sheets
    `TWO_UP_GAP_MM` apart about the cut (cells and markers shrink by that scale: Letter 0.688, markers 15.1 mm;
    A4 0.734, markers 16.2 mm)."""
    width, height = page_size(paper, per_page)
    if per_page == 1:
        return (Slot((width - SHEET_WIDTH_MM) / 2, (height - SHEET_HEIGHT_MM) / 2, 1.0, MARKER_IDS_BY_SLOT[0]),)
    scale = min(
        (width - 2 * TWO_UP_MARGIN_MM - TWO_UP_GAP_MM) / (2 * SHEET_WIDTH_MM),
        (height - 2 * TWO_UP_MARGIN_MM) / SHEET_HEIGHT_MM,
    )
    w, h = SHEET_WIDTH_MM * scale, SHEET_HEIGHT_MM * scale
    xs = (width / 2 - TWO_UP_GAP_MM / 2 - w, width / 2 + TWO_UP_GAP_MM / 2)
    return tuple(Slot(xs[i], (height - h) / 2, scale, MARKER_IDS_BY_SLOT[i]) for i in range(2))
