"""The printable PDF: deterministic, current in sheets/, and readable by machine where the layout says."""

import importlib
from itertools import combinations
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np
import pypdfium2
import pytest
from click.testing import CliRunner
from reportlab.lib.colors import Color
from reportlab.pdfbase.pdfmetrics import getAscentDescent, stringWidth

from doodle.cli import main
from doodle.sheet import layout as L
from doodle.sheet import pdf
from doodle.sheet.pdf import render_sheets

SHEETS = Path(__file__).resolve().parent.parent / "sheets"

# Every ready-to-print file in sheets/ and the `doodle sheet` arguments that make it (also in sheets/README.md).
READY_TO_PRINT = {
    "doodle-sheet-a4.pdf": [],
    "doodle-sheet-letter.pdf": ["--paper", "letter"],
    "doodle-sheets-a4-two-up.pdf": ["--two-up", "--count", "2"],
    "doodle-sheets-letter-two-up.pdf": ["--two-up", "--count", "2", "--paper", "letter"],
}
PX_PER_MM = 6.0


def render(pdf: bytes, page: int = 0) -> np.ndarray:
    document = pypdfium2.PdfDocument(pdf)
    try:
        image = document[page].render(scale=PX_PER_MM * 25.4 / 72, grayscale=True).to_numpy()
    finally:
        document.close()
    return image if image.ndim == 2 else image[..., 0]


def page_count(pdf: bytes) -> int:
    document = pypdfium2.PdfDocument(pdf)
    try:
        return len(document)
    finally:
        document.close()


def test_sheets_folder_holds_exactly_the_ready_to_print_files():
    assert sorted(p.name for p in SHEETS.glob("*.pdf")) == sorted(READY_TO_PRINT)


@pytest.mark.parametrize("name", sorted(READY_TO_PRINT))
def test_ready_to_print_sheets_are_current(name, tmp_path):
    """Regenerating with the command gives the committed file byte for byte (if this fails after a deliberate
    layout change: run the command in sheets/README.md and commit the result)."""
    out = tmp_path / name
    result = CliRunner().invoke(main, ["sheet", "-o", str(out), *READY_TO_PRINT[name]])
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == (SHEETS / name).read_bytes()


def test_output_is_deterministic_and_numbered():
    first = render_sheets(3, "letter", 1, first_id=7)
    assert first == render_sheets(3, "letter", 1, first_id=7)
    assert first != render_sheets(3, "letter", 1, first_id=8)  # the sheet ids differ
    assert page_count(first) == 3
    assert page_count(render_sheets(3, "a4", 2)) == 2


def test_a_pad_of_sheets_shares_what_is_common():
    """The grid, boxes and texts are one PDF form placed on every page: 50 sheets cost little more than 1."""
    assert len(render_sheets(50)) < 15 * len(render_sheets(1))  # drawn in full each time it would be ~45x


@pytest.mark.parametrize("paper", sorted(L.PAPERS))
def test_page_has_the_paper_size(paper):
    document = pypdfium2.PdfDocument(render_sheets(1, paper))
    try:
        width_pt, height_pt = document[0].get_size()
    finally:
        document.close()
    width, height = L.PAPERS[paper]
    assert width_pt * 25.4 / 72 == pytest.approx(width, abs=0.1)
    assert height_pt * 25.4 / 72 == pytest.approx(height, abs=0.1)


@pytest.mark.parametrize(("paper", "per_page"), [("a4", 1), ("letter", 1), ("a4", 2)])
def test_markers_are_printed_where_the_layout_says(paper, per_page):
    image = render(render_sheets(per_page, paper, per_page))
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, L.ARUCO_DICTIONARY_NAME))
    corners, ids, _ = cv2.aruco.ArucoDetector(dictionary).detectMarkers(image)
    assert ids is not None
    found = {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners, strict=True)}
    slots = L.page_slots(paper, per_page)
    assert sorted(found) == sorted(i for slot in slots for i in slot.marker_ids)
    for slot in slots:
        for marker_id in slot.marker_ids:
            expected = np.array(
                [((slot.x + x * slot.scale) * PX_PER_MM, (slot.y + y * slot.scale) * PX_PER_MM)
                 for x, y in L.marker_corners_mm(marker_id)]
            )
            # cv2 puts corners on pixel centres, half a pixel inside the printed edge
            assert np.abs(found[marker_id] - expected).max() < 1.5


def test_qr_code_carries_the_sheet_id_and_layout_version():
    image = render(render_sheets(1, "a4", 1, first_id=42))
    slot = L.page_slots("a4")[0]
    x0, y0, x1, y1 = L.QR_RECT.to_px(PX_PER_MM)
    ox, oy = round(slot.x * PX_PER_MM), round(slot.y * PX_PER_MM)
    crop = image[oy + y0 - 10 : oy + y1 + 10, ox + x0 - 10 : ox + x1 + 10]
    crop = cv2.resize(crop, None, fx=3, fy=3, interpolation=cv2.INTER_NEAREST)
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(crop)
    assert L.parse_qr_payload(text) == (L.LAYOUT_VERSION, "0042")


def test_cells_and_check_areas_are_blank_paper_inside():
    """The reader measures ink in cell interiors, check squares and bubbles: the blank sheet must be white there
    (bubbles carry only their faint printed digit)."""
    image = render(render_sheets(1, "a4"))
    slot = L.page_slots("a4")[0]

    def region(rect: L.Rect) -> np.ndarray:
        x0, y0, x1, y1 = L.Rect(rect.x + slot.x, rect.y + slot.y, rect.w, rect.h).to_px(PX_PER_MM)
        return image[y0:y1, x0:x1]

    for row in range(9):
        for col in range(9):
            assert region(L.cell_rect(row, col).inset(1.0)).min() > 240
    for special in L.SPECIALS:
        assert region(special.check.inset(1.0)).min() > 240
    for block in L.ROUNDS:
        for place in L.PLACES:
            for digit in range(10):
                assert region(L.bubble_rect(block.number, place, digit).inset(0.6)).mean() > 200


def test_render_refuses_bad_arguments():
    with pytest.raises(ValueError, match="count"):
        render_sheets(0)
    with pytest.raises(ValueError, match="paper"):
        render_sheets(1, "a5")
    with pytest.raises(ValueError, match="per page"):
        render_sheets(1, "a4", per_page=4)


# --- the command --------------------------------------------------------------------------------------------------
def run(*args: str):
    return CliRunner().invoke(main, ["sheet", *args])


def test_cli_writes_the_requested_sheets(tmp_path):
    out = tmp_path / "pad.pdf"
    result = run("-o", str(out), "--count", "3", "--paper", "LETTER")
    assert result.exit_code == 0, result.output
    assert "3 sheets" in result.output
    assert out.read_bytes() == render_sheets(3, "letter")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--paper", "a3"], "'a3' is not one of"),
        (["--count", "0"], "between 1 and"),
        (["--count", "-2"], "between 1 and"),
        (["--count", "many"], "is not a valid integer"),
        (["--first-id", "-1"], "0 or more"),
    ],
)
def test_cli_refuses_bad_options_with_a_clear_message(tmp_path, args, message):
    out = tmp_path / "x.pdf"
    result = run("-o", str(out), *args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
    assert not out.exists()


def test_cli_needs_an_output_file(tmp_path):
    result = run()
    assert result.exit_code == 2 and "Missing option '-o'" in result.output
    result = run("-o", str(tmp_path / "sheets.png"))
    assert result.exit_code == 2 and "does not end in .pdf" in result.output


def test_cli_says_when_the_path_cannot_be_written(tmp_path):
    blocker = tmp_path / "notes.txt"
    blocker.write_text("a file, not a folder")
    result = run("-o", str(blocker / "sheets.pdf"))
    assert result.exit_code == 1
    assert f"{blocker} is a file, not a folder" in result.output
    assert "Traceback" not in result.output

    result = run("-o", str(tmp_path))
    assert result.exit_code == 2 and "is a directory" in result.output


def test_cli_reports_an_operating_system_refusal(tmp_path, monkeypatch):
    command = importlib.import_module("doodle.cli.sheet")  # the module; doodle.cli.sheet the attribute is the command

    def refuse(path, data):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(command, "write_atomic", refuse)
    result = run("-o", str(tmp_path / "a.pdf"))
    assert result.exit_code == 1
    assert "cannot write" in result.output and "Permission denied" in result.output


# --- what a player reads on the sheet -------------------------------------------------------------------------------
class PrintedText(NamedTuple):
    value: str
    size: float  # points
    font: str
    color: Color
    box: L.Rect  # in sheet mm: the advance width by the font's ascent and descent


def printed_texts(monkeypatch) -> list[PrintedText]:
    """Every text one sheet prints (shared form and per-sheet parts), with where it lands in sheet mm."""
    texts: list[PrintedText] = []
    original = pdf._SheetPainter.text

    def record(self, x, y, value, size, font="Helvetica", color=pdf.INK, align="left"):
        size_mm = size * 25.4 / 72
        width = stringWidth(value, font, size_mm)
        left = {"left": x, "center": x - width / 2, "right": x - width}[align]
        ascent, descent = getAscentDescent(font, size_mm)
        texts.append(PrintedText(value, size, font, color, L.Rect(left, y - ascent, width, ascent - descent)))
        original(self, x, y, value, size, font, color, align)

    monkeypatch.setattr(pdf._SheetPainter, "text", record)
    render_sheets(1, "a4")
    return texts


def contrast(a: Color, b: Color) -> float:
    """The WCAG contrast ratio of two colours (4.5 is the floor for small text)."""

    def luminance(colour: Color) -> float:
        def channel(v: float) -> float:
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

        r, g, b_ = colour.rgb()
        return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b_)

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def is_bubble_digit(text: PrintedText) -> bool:
    """The digits printed inside the bubbles are faint on purpose: a filled bubble must stand out from them."""
    return text.color == pdf.FAINT and any(
        L.bubble_rect(b.number, place, d).contains(text.box) for b in L.ROUNDS for place in L.PLACES for d in range(10)
    )


def test_every_text_is_large_and_dark_enough_to_read(monkeypatch):
    """Hints such as "once per game" and "-1 per empty cell" are read at the table: at least 6.5 pt, and dark
    enough for small print (4.5:1) even on the tinted boxes."""
    texts = [t for t in printed_texts(monkeypatch) if not is_bubble_digit(t)]
    assert {"once per game", "used", "–1 per empty cell", "rounds – penalty"} <= {t.value for t in texts}
    for text in texts:
        assert text.size >= pdf.HINT_PT, text
        assert contrast(text.color, pdf.TINT) >= 4.5, text


def test_texts_stay_clear_of_each_other_and_of_what_is_read(monkeypatch):
    """No text runs into another, into a marker's quiet margin, the QR code, a cell, a check square or a bubble."""
    texts = printed_texts(monkeypatch)
    keep_clear = {"qr": L.QR_RECT, "grid": L.GRID_RECT.inset(-0.4)}
    keep_clear.update({f"check {s.name}": s.check for s in L.SPECIALS})
    for text in texts:
        assert L.SHEET_RECT.contains(text.box), text
        for marker in L.MARKERS:
            assert not text.box.overlaps(marker.rect, gap=L.MARKER_QUIET_MM), (text, marker.corner)
        for name, rect in keep_clear.items():
            assert not text.box.overlaps(rect), (text, name)
        if not is_bubble_digit(text):
            for block in L.ROUNDS:
                for place in L.PLACES:
                    for digit in range(10):
                        assert not text.box.overlaps(L.bubble_rect(block.number, place, digit)), text
    for a, b in combinations(texts, 2):
        assert not a.box.overlaps(b.box), (a, b)


def test_each_special_says_in_one_line_what_it_lets_you_do(monkeypatch):
    texts = printed_texts(monkeypatch)
    for special in L.SPECIALS:
        lines = [t for t in texts if t.value == special.rule]
        assert len(lines) == 1, special.name
        assert special.rule_line.contains(lines[0].box), (special.name, lines[0].box, special.rule_line)
        assert lines[0].box.y > special.box.y2  # under the action's box
        assert lines[0].color == pdf.INK
    assert "before or after" in L.special_box("neighbour").rule
    assert "straight" in L.special_box("cut").rule


def test_the_grid_suggests_no_blocks_and_names_its_cells_on_every_side(monkeypatch):
    """Patchwork Doodle has no 3x3 regions: every inner line is printed alike. The coordinates are on all four
    sides (each cell at most four cells from its letter and its number)."""
    image = render(render_sheets(1, "a4")).astype(np.float64)
    slot = L.page_slots("a4")[0]
    g = L.GRID_RECT
    weights = []
    for i in range(1, L.GRID_SIZE):
        x = (slot.x + g.x + i * L.CELL_MM) * PX_PER_MM
        y0, y1 = round((slot.y + g.y + 3) * PX_PER_MM), round((slot.y + g.y2 - 3) * PX_PER_MM)
        band = image[y0:y1, round(x - 4) : round(x + 5)]
        weights.append(float((255 - band).sum()))
    assert max(weights) < 1.1 * min(weights), weights
    texts = printed_texts(monkeypatch)
    for letter in L.COLUMNS:
        places = sorted(t.box.center[1] for t in texts if t.value == letter)
        assert len(places) == 2 and places[0] < g.y and places[1] > g.y2, letter
    for number in range(1, L.GRID_SIZE + 1):
        places = sorted(t.box.center[0] for t in texts if t.value == str(number) and not is_bubble_digit(t)
                        and g.y < t.box.center[1] < g.y2)
        assert len(places) == 2 and places[0] < g.x and places[1] > g.x2, number
