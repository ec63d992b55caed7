"""The sheet id and layout version read from a photo: the QR code where the markers say it is, the marker ids
deciding the layout, and a read that never depends on the QR code."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pypdfium2
import pytest
from reportlab.graphics.barcode.qrencoder import QRCode, QRErrorCorrectLevel

from doodle.sheet import layout as L
from doodle.sheet.pdf import render_sheets
from doodle.sheet.qr import SheetCode, read_sheet_code
from doodle.sheet.scan import METHOD_MARKERS, read_photo
from doodle.sheet.scan_errors import ScanError
from tests.photogen import make_photo
from tests.test_scan import assert_exact, recode

EXAMPLES = Path(__file__).resolve().parent / "photos"  # layout 1 and 2 photos of random fills, read exactly
SMALL = 2.0  # megapixels


def paint_in_sheet(photo, rect: L.Rect, picture: np.ndarray) -> np.ndarray:
    """The photo with `picture` (grey, any size) printed over `rect` of the sheet, in perspective."""
    h, w = picture.shape
    to_sheet = np.array([[rect.w / w, 0, rect.x], [0, rect.h / h, rect.y], [0, 0, 1]])
    size = photo.image.shape[1::-1]
    warped = cv2.warpPerspective(picture, photo.sheet_to_photo @ to_sheet, size, flags=cv2.INTER_NEAREST)
    inside = cv2.warpPerspective(np.full_like(picture, 255), photo.sheet_to_photo @ to_sheet, size,
                                 flags=cv2.INTER_NEAREST) > 0
    image = photo.image.copy()
    image[inside] = cv2.cvtColor(warped, cv2.COLOR_GRAY2BGR)[inside]
    return image


def qr_picture(text: str, border: int, module_px: int = 12) -> np.ndarray:
    """A QR code as the PDF writer draws it: black modules on white, `border` white modules round it."""
    code = QRCode(None, QRErrorCorrectLevel.M)
    code.addData(text)
    code.make()
    count = code.getModuleCount()
    bits = np.full((count + 2 * border,) * 2, 255, np.uint8)
    for row in range(count):
        for col in range(count):
            if code.isDark(row, col):
                bits[row + border, col + border] = 0
    return cv2.resize(bits, None, fx=module_px, fy=module_px, interpolation=cv2.INTER_NEAREST)


@pytest.mark.parametrize(("seed", "level"), [(0, "clean"), (1, "mild"), (2, "mild")])
def test_sheet_id_and_layout_are_read_from_the_photo(seed, level):
    photo = make_photo(seed, level, megapixels=SMALL)
    result = read_photo(photo.jpeg)
    assert result.method == METHOD_MARKERS
    assert (result.layout, result.sheet_id) == (L.LAYOUT_VERSION, photo.truth.sheet_id)
    data = result.to_dict()
    assert (data["layout"], data["sheet_id"]) == (L.LAYOUT_VERSION, photo.truth.sheet_id)
    json.dumps(data)


def test_a_covered_qr_code_leaves_the_read_intact_without_a_sheet_id():
    photo = make_photo(1, "mild", megapixels=SMALL)
    covered = paint_in_sheet(photo, L.QR_RECT.inset(-1.0), np.full((10, 10), 235, np.uint8))
    result = read_photo(recode(covered))
    assert_exact(result, photo.truth)
    assert result.layout == L.LAYOUT_VERSION and result.sheet_id is None
    assert result.to_dict()["sheet_id"] is None
    assert not any("QR" in note for note in result.notes)


def test_a_qr_code_of_another_layout_is_noted_and_the_markers_decide():
    photo = make_photo(1, "mild", megapixels=SMALL)
    stuck_on = paint_in_sheet(photo, L.QR_RECT, qr_picture(L.qr_payload("0042").replace("/2/", "/1/"), 1))
    result = read_photo(recode(stuck_on))
    assert_exact(result, photo.truth)
    assert result.layout == L.LAYOUT_VERSION and result.sheet_id == "0042"
    assert any("QR code says layout 1" in note and "read as layout 2" in note for note in result.notes)


def test_a_foreign_qr_code_gives_no_sheet_id():
    photo = make_photo(2, "mild", megapixels=SMALL)
    result = read_photo(recode(paint_in_sheet(photo, L.QR_RECT, qr_picture("https://example.com/x", 1))))
    assert result.sheet_id is None and result.layout == L.LAYOUT_VERSION
    assert_exact(result, photo.truth)


@pytest.mark.parametrize("first_id", [7, 123456])  # a version 1 code, and a longer one found by the fallback
def test_codes_of_any_sheet_id_are_read_where_the_layout_prints_them(first_id):
    px_per_mm = 6.0
    document = pypdfium2.PdfDocument(render_sheets(1, "letter", first_id=first_id))
    try:
        page = np.array(document[0].render(scale=px_per_mm * 25.4 / 72).to_pil().convert("L"))
    finally:
        document.close()
    slot = L.page_slots("letter")[0]
    sheet_to_page = np.array([[px_per_mm, 0, slot.x * px_per_mm], [0, px_per_mm, slot.y * px_per_mm], [0, 0, 1]])
    found = read_sheet_code(page, sheet_to_page, L.LAYOUT_MARKS[-1])
    assert found == SheetCode(L.LAYOUT_VERSION, f"{first_id:04d}")
    # the code of a sheet whose QR square is outside the photo is not read
    assert read_sheet_code(page[: int(slot.y * px_per_mm), :], sheet_to_page, L.LAYOUT_MARKS[-1]) is None


def test_layout_1_photos_are_told_by_their_markers_and_their_code_read_where_layout_1_printed_it():
    result = read_photo(EXAMPLES / "mild-2.jpg")
    assert result.layout == "1" and result.sheet_id == "0002"
    assert not any("QR" in note for note in result.notes)


def test_each_half_of_a_two_up_page_is_read_as_its_own_sheet():
    """The second sheet of a two-up page carries its own marker ids (12-15) and code; at two-up scale on Letter the
    markers print at 15.1 mm and the code's modules at 0.64 mm."""
    px_per_mm = 8.0
    document = pypdfium2.PdfDocument(render_sheets(2, "letter", per_page=2, first_id=5))
    try:
        page = np.array(document[0].render(scale=px_per_mm * 25.4 / 72).to_pil().convert("RGB"))[..., ::-1]
    finally:
        document.close()
    middle = page.shape[1] // 2
    for half, sheet_id in ((page[:, :middle], "0005"), (page[:, middle:], "0006")):
        turned = np.ascontiguousarray(np.rot90(half))  # photographed sideways
        result = read_photo(recode(turned))
        assert result.method == METHOD_MARKERS and result.markers_found == 4
        assert (result.layout, result.sheet_id) == (L.LAYOUT_VERSION, sheet_id)
        assert result.quilt.empty_count() == 81 and result.specials_used == () and result.uncertain == ()
    with pytest.raises(ScanError, match="the photo shows two sheets: photograph one sheet at a time"):
        read_photo(recode(page))
