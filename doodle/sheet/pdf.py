"""The printable score sheet as a PDF (reportlab), drawn entirely from `doodle.sheet.layout`.

Output is byte-for-byte deterministic (reportlab's invariant mode, fixed metadata, the standard Helvetica fonts
which are never embedded), so the ready-to-print files in sheets/ can be checked by regenerating them.
"""

from __future__ import annotations

import io

from reportlab.graphics.barcode.qrencoder import QRCode, QRErrorCorrectLevel
from reportlab.lib.colors import Color, HexColor, white
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from doodle import __version__
from doodle.quilt import rectangle_score
from doodle.sheet import layout as L

INK = HexColor("#1d2430")
ACCENT = HexColor("#1f6f78")
TINT = HexColor("#e7f1f2")
MUTED = HexColor("#7b8794")
HINT = HexColor("#4a5563")  # small print players must read: 7:1 against white, 6:1 on the tint (MUTED is 3.6:1)
FAINT = HexColor("#b9c2cc")
HINT_PT = 6.5  # the smallest text on the sheet (the bubbles' own faint digits aside)
CUT_RED = HexColor("#c2410c")

MAX_COUNT = 1000
COMMON_FORM = "doodleSheetCommon"


def _pt(points: float) -> float:
    """A font size in points expressed in the sheet's millimetre units."""
    return points * 25.4 / 72


class _SheetPainter:
    """Draws one sheet on a canvas already transformed to sheet millimetres with y pointing down."""

    def __init__(self, canvas: Canvas, sheet_id: str, marker_ids: tuple[int, int, int, int]) -> None:
        self.c = canvas
        self.sheet_id = sheet_id
        self.marker_ids = marker_ids

    # --- primitives (y down) ---------------------------------------------------------------------------------------
    def text(self, x: float, y: float, value: str, size: float, font: str = "Helvetica", color: Color = INK,
             align: str = "left") -> None:
        """Text with its baseline at sheet (x, y)."""
        c = self.c
        c.saveState()
        c.translate(x, y)
        c.scale(1, -1)
        c.setFillColor(color)
        c.setFont(font, _pt(size))
        {"left": c.drawString, "center": c.drawCentredString, "right": c.drawRightString}[align](0, 0, value)
        c.restoreState()

    def rect(self, r: L.Rect, stroke: Color | None = INK, fill: Color | None = None, width: float = 0.3,
             radius: float = 0.0) -> None:
        c = self.c
        c.setLineWidth(width)
        if stroke is not None:
            c.setStrokeColor(stroke)
        if fill is not None:
            c.setFillColor(fill)
        if radius:
            c.roundRect(r.x, r.y, r.w, r.h, radius, stroke=stroke is not None, fill=fill is not None)
        else:
            c.rect(r.x, r.y, r.w, r.h, stroke=stroke is not None, fill=fill is not None)

    def line(self, x1: float, y1: float, x2: float, y2: float, color: Color = INK, width: float = 0.3) -> None:
        self.c.setStrokeColor(color)
        self.c.setLineWidth(width)
        self.c.line(x1, y1, x2, y2)

    # --- the sheet ---------------------------------------------------------------------------------------------------
    def draw(self) -> None:
        """What differs from sheet to sheet: the markers (per slot on the page), the QR code and the footer."""
        self.markers()
        self.qr()
        self.footer()

    def draw_common(self) -> None:
        """What every sheet shares; drawn once per document as a PDF form and placed on every sheet."""
        self.header()
        self.grid()
        for special in L.SPECIALS:
            self.special(special)
        hint = L.ROUNDS_HINT_RECT
        self.text(hint.x, hint.y2 - 0.8, "After each round write its score, then fill one bubble per row "
                  "(17: tens 1, units 7).", HINT_PT, "Helvetica-Oblique", HINT)
        for block in L.ROUNDS:
            self.round_block(block)
        self.rule()
        self.score_box(L.PENALTY_RECT, "Penalty", "–1 per empty cell")
        self.score_box(L.TOTAL_RECT, "Total", "rounds – penalty")

    def markers(self) -> None:
        c = self.c
        c.setFillColor(HexColor("#000000"))
        for marker, marker_id in zip(L.MARKERS, self.marker_ids, strict=True):
            module = marker.rect.w / L.MARKER_MODULES
            for row, bits in enumerate(L.marker_bits(marker_id)):
                col = 0
                while col < len(bits):  # one rectangle per horizontal run: fewer seams when rasterised
                    if not bits[col]:
                        col += 1
                        continue
                    start = col
                    while col < len(bits) and bits[col]:
                        col += 1
                    c.rect(marker.rect.x + start * module, marker.rect.y + row * module, (col - start) * module,
                           module, stroke=0, fill=1)

    def header(self) -> None:
        t = L.TITLE_RECT
        self.text(t.x, t.y + 6.2, "PATCHWORK DOODLE", 17, "Helvetica-Bold", ACCENT)
        self.text(t.x + 73.5, t.y + 6.2, "score sheet", 10, "Helvetica", HINT)
        n = L.NAME_RECT
        self.text(n.x, n.y2 - 1.2, "Name", 9, "Helvetica-Bold")
        self.line(n.x + 11, n.y2, n.x2, n.y2, INK, 0.3)

    def qr(self) -> None:
        code = QRCode(None, QRErrorCorrectLevel.M)
        code.addData(L.qr_payload(self.sheet_id))
        code.make()
        count = code.getModuleCount()
        area = L.PRINTED_MARKS.qr_code_rect(count)
        module = area.w / count
        self.c.setFillColor(HexColor("#000000"))
        for row in range(count):
            for col in range(count):
                if code.isDark(row, col):
                    x = area.x + col * module
                    y = area.y + row * module
                    # a hair of overlap so neighbouring modules do not show seams when rasterised
                    self.c.rect(x, y, module + 0.01, module + 0.01, stroke=0, fill=1)

    def grid(self) -> None:
        """The grid with every inner line alike (no 3x3 blocks: the game has none), and its coordinates on all four
        sides."""
        g = L.GRID_RECT
        for i in range(1, L.GRID_SIZE):
            x = g.x + i * L.CELL_MM
            y = g.y + i * L.CELL_MM
            self.line(x, g.y, x, g.y2, INK, L.GRID_INNER_LINE_MM)
            self.line(g.x, y, g.x2, y, INK, L.GRID_INNER_LINE_MM)
        self.rect(g, INK, None, L.GRID_OUTER_LINE_MM)
        for col, letter in enumerate(L.COLUMNS):
            x = g.x + (col + 0.5) * L.CELL_MM
            self.text(x, L.COLUMN_LABELS_RECT.y2 - 0.6, letter, 8, "Helvetica", HINT, "center")
            self.text(x, L.COLUMN_LABELS_BELOW_RECT.y2 - 0.8, letter, 8, "Helvetica", HINT, "center")
        for row in range(L.GRID_SIZE):
            y = g.y + (row + 0.5) * L.CELL_MM + 1.0
            self.text(L.ROW_LABELS_RECT.x2 - 0.6, y, str(row + 1), 8, "Helvetica", HINT, "right")
            self.text(L.ROW_LABELS_RIGHT_RECT.x + 0.6, y, str(row + 1), 8, "Helvetica", HINT, "left")

    def special(self, special: L.SpecialBox) -> None:
        self.rect(special.box, FAINT, TINT, 0.3, radius=2.0)
        self.rect(special.icon, None, white, 0, radius=1.5)
        getattr(self, f"_icon_{special.name}")(special.icon)
        words = special.label.split(" ")
        x = special.icon.x2 + 1.3
        top = special.box.y + (7.4 if len(words) == 1 else 6.0)
        for i, word in enumerate(words):
            self.text(x, top + i * 3.5, word, 8, "Helvetica-Bold", INK)
        self.text(x, special.icon.y2 - 0.9, "once per game", HINT_PT, "Helvetica", HINT)
        self.rect(special.check, INK, white, L.CHECK_LINE_MM, radius=L.CHECK_RADIUS_MM)
        self.text(special.check.center[0], special.check.y2 + 2.8, "used", HINT_PT, "Helvetica", HINT, "center")
        self.text(special.rule_line.x, special.rule_line.y2 - 0.6, special.rule, HINT_PT, "Helvetica", INK)

    def _icon_neighbour(self, r: L.Rect) -> None:
        cx, cy = r.center
        card_w, card_h = 3.0, 4.4
        for i, dx in enumerate((-3.9, 0.0, 3.9)):
            card = L.Rect(cx + dx - card_w / 2, cy - card_h / 2 + 1.2, card_w, card_h)
            self.rect(card, INK, ACCENT if i != 1 else white, 0.3, radius=0.4)
        self.line(cx - 1.2, cy - 2.9, cx - 3.6, cy - 2.9, INK, 0.35)
        self.line(cx + 1.2, cy - 2.9, cx + 3.6, cy - 2.9, INK, 0.35)
        for sign in (-1, 1):
            tip = cx + sign * 3.9
            self.line(tip, cy - 2.9, tip - sign * 0.9, cy - 3.6, INK, 0.35)
            self.line(tip, cy - 2.9, tip - sign * 0.9, cy - 2.2, INK, 0.35)

    def _icon_single(self, r: L.Rect) -> None:
        size = 2.6
        x0, y0 = r.center[0] - 1.5 * size, r.center[1] - 1.5 * size
        for i in range(3):
            for j in range(3):
                cell = L.Rect(x0 + j * size, y0 + i * size, size, size)
                self.rect(cell, FAINT, ACCENT if (i, j) == (1, 1) else None, 0.25)

    def _icon_cut(self, r: L.Rect) -> None:
        size = 2.6
        x0, y0 = r.center[0] - 1.5 * size, r.center[1] - 1.5 * size
        for i, j in ((0, 0), (1, 0), (1, 1), (1, 2), (2, 2)):
            self.rect(L.Rect(x0 + j * size, y0 + i * size, size, size), INK, ACCENT, 0.25)
        self.c.saveState()
        self.c.setDash(0.8, 0.5)
        self.line(x0 + size * 1.0, y0 - 1.0, x0 + size * 1.0, y0 + 3 * size + 1.0, CUT_RED, 0.45)
        self.c.restoreState()

    def _icon_twice(self, r: L.Rect) -> None:
        cx, cy = r.center
        self.c.setStrokeColor(ACCENT)
        self.c.setLineWidth(0.5)
        self.c.circle(cx, cy, 4.4, stroke=1, fill=0)
        self.text(cx, cy + 1.5, "×2", 11, "Helvetica-Bold", ACCENT, "center")

    def round_block(self, block: L.RoundBox) -> None:
        self.text(block.label.x, block.label.y + 5.6, "Round", 8.5, "Helvetica-Bold", INK)
        self.text(block.label.x, block.label.y + 11.0, str(block.number), 14, "Helvetica-Bold", ACCENT)
        self.rect(block.write, INK, white, 0.4, radius=1.0)
        for place, y in zip(L.PLACES, block.row_y, strict=True):
            self.text(block.caption_x, y + 1.0, place, HINT_PT, "Helvetica", HINT)
            for digit in range(10):
                cx, cy = L.bubble_center(block.number, place, digit)
                self.c.setStrokeColor(MUTED)
                self.c.setLineWidth(L.BUBBLE_LINE_MM)
                self.c.circle(cx, cy, L.BUBBLE_RADIUS_MM, stroke=1, fill=0)
                self.text(cx, cy + 0.9, str(digit), 6, "Helvetica", FAINT, "center")

    def rule(self) -> None:
        r = L.RULE_RECT
        self.rect(r, FAINT, TINT, 0.3, radius=2.0)
        self.text(r.x + 2.5, r.y + 4.0, "Scoring a round", 7.5, "Helvetica-Bold", ACCENT)
        self.text(r.x + 2.5, r.y + 7.1, "One fully shaded rectangle: its largest", HINT_PT, "Helvetica", INK)
        self.text(r.x + 2.5, r.y + 9.7, "square, +1 per extra row or column.", HINT_PT, "Helvetica", INK)
        columns = len(L.RULE_TABLE)
        step = (r.w - 5.0) / columns
        for i, (h, w) in enumerate(L.RULE_TABLE):
            x = r.x + 2.5 + (i + 0.5) * step
            self.text(x, r.y + 13.1, f"{h}×{w}", HINT_PT, "Helvetica", HINT, "center")
            self.text(x, r.y + 17.3, str(rectangle_score(h, w)), 7.5, "Helvetica-Bold", INK, "center")
        self.line(r.x + 2.5, r.y + 14.4, r.x2 - 2.5, r.y + 14.4, FAINT, 0.2)

    def score_box(self, r: L.Rect, title: str, hint: str) -> None:
        self.rect(r, INK, white, 0.4, radius=1.5)
        self.text(r.x + 2.0, r.y + 3.8, title, 7.5, "Helvetica-Bold", ACCENT)
        self.text(r.x + 2.0, r.y2 - 1.8, hint, HINT_PT, "Helvetica", HINT)

    def footer(self) -> None:
        f = L.FOOTER_RECT
        self.text(f.x, f.y + 2.6, f"Sheet {self.sheet_id} · layout {L.LAYOUT_VERSION}", HINT_PT, "Helvetica-Bold", HINT)
        self.text(f.x, f.y + 5.6, "Print at 100 %;", HINT_PT, "Helvetica", HINT)
        self.text(f.x, f.y + 8.4, "photograph all 4 corners", HINT_PT, "Helvetica", HINT)


def _cut_line(canvas: Canvas, width: float, height: float) -> None:
    """A faint dashed line down the middle of a two-up page, where to cut it in two, with a short note in a gap
    of the line (the reader reads one sheet per photo)."""
    note = "cut here · photograph each sheet on its own"
    gap = 48.0
    x = width / 2 * mm
    canvas.saveState()
    canvas.setStrokeColor(FAINT)
    canvas.setLineWidth(0.4)
    canvas.setDash(3, 3)
    canvas.line(x, 4 * mm, x, (height - gap) / 2 * mm)
    canvas.line(x, (height + gap) / 2 * mm, x, (height - 4) * mm)
    canvas.translate(x, height / 2 * mm)
    canvas.rotate(90)
    canvas.setFillColor(HINT)
    canvas.setFont("Helvetica", HINT_PT)
    canvas.drawCentredString(0, -2, note)
    canvas.restoreState()


def sheet_id(number: int) -> str:
    return f"{number:04d}"


def render_sheets(count: int = 1, paper: str = "a4", per_page: int = 1, first_id: int = 1) -> bytes:
    """The PDF bytes of `count` sheets on `paper` ("a4" or "letter"), `per_page` (1 or 2) to a page, numbered from
    `first_id`. Raises ValueError naming the bad argument."""
    if not 1 <= count <= MAX_COUNT:
        raise ValueError(f"count must be between 1 and {MAX_COUNT}, not {count}")
    if first_id < 0:
        raise ValueError(f"the first sheet id must be 0 or more, not {first_id}")
    width, height = L.page_size(paper, per_page)
    slots = L.page_slots(paper, per_page)
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(width * mm, height * mm), invariant=1, pageCompression=1)
    canvas.setTitle("Patchwork Doodle score sheets")
    canvas.setAuthor("doodle")
    canvas.setCreator(f"doodle {__version__} (layout {L.LAYOUT_VERSION})")
    canvas.setSubject(f"{count} sheet(s), {paper}, {per_page} per page")
    # the shared part of the sheet, once, in sheet millimetres (y down) like everything the painter draws
    canvas.beginForm(COMMON_FORM, 0, 0, L.SHEET_WIDTH_MM, L.SHEET_HEIGHT_MM)
    _SheetPainter(canvas, "", slots[0].marker_ids).draw_common()
    canvas.endForm()
    for index in range(count):
        slot = slots[index % per_page]
        canvas.saveState()
        canvas.translate(slot.x * mm, (height - slot.y) * mm)
        canvas.scale(slot.scale * mm, -slot.scale * mm)
        canvas.doForm(COMMON_FORM)
        _SheetPainter(canvas, sheet_id(first_id + index), slot.marker_ids).draw()
        canvas.restoreState()
        if index % per_page == per_page - 1 or index == count - 1:
            if per_page == 2:
                _cut_line(canvas, width, height)
            canvas.showPage()
    canvas.save()
    return buffer.getvalue()
