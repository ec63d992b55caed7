"""The grid fallback (corner markers missing) tells which way up the sheet is from what the sheet prints around the
grid (the markers that were found, the QR code), or says it cannot: a 9x9 grid alone looks the same turned a
quarter or mirrored, and reading it the wrong way up gives a wrong quilt with no cell in doubt."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from doodle.cli import main
from doodle.sheet import layout as L
from doodle.sheet.grid_fallback import UNKNOWN_REASON
from doodle.sheet.scan import METHOD_GRID, METHOD_MARKERS, MIRRORED_NOTE, ScanResult, read_photo
from doodle.sheet.scan_errors import ScanError
from tests.photogen import make_photo
from tests.photogen_families import family_photo
from tests.test_scan import SMALL, assert_exact, cover_markers, recode

TURNS = {0: None, 90: cv2.ROTATE_90_CLOCKWISE, 180: cv2.ROTATE_180, 270: cv2.ROTATE_90_COUNTERCLOCKWISE}


def whole_quilt_doubt(result: ScanResult) -> bool:
    return any(doubt.kind == "quilt" and doubt.reason == UNKNOWN_REASON for doubt in result.uncertain)


def right_or_in_doubt(result: ScanResult, truth) -> None:
    """Never wrong and confident: the quilt as it is, or a doubt on the whole quilt with low confidence."""
    if result.quilt != truth.quilt:
        assert whole_quilt_doubt(result) and result.confidence <= 0.25, f"read\n{result.quilt}\ntruth\n{truth.quilt}"


def turned(image: np.ndarray, degrees: int) -> np.ndarray:
    return image if TURNS[degrees] is None else cv2.rotate(image, TURNS[degrees])


def paint_over(photo, image: np.ndarray, rect: L.Rect) -> np.ndarray:
    quad = np.array([[(rect.x, rect.y), (rect.x2, rect.y), (rect.x2, rect.y2), (rect.x, rect.y2)]], np.float64)
    cv2.fillConvexPoly(image, cv2.perspectiveTransform(quad, photo.sheet_to_photo)[0].astype(np.int32),
                       (235, 235, 235))
    return image


@pytest.mark.parametrize("seed", [18])  # a bottom corner marker cut by the frame edge, the sheet turned 90
def test_a_cut_marker_photo_is_read_the_right_way_up(seed):
    photo = family_photo(seed, "framing")
    assert photo.details["framing"] == "cut marker"
    result = read_photo(photo.jpeg)
    assert result.method == METHOD_GRID and not whole_quilt_doubt(result)
    # the right way up: any cell read wrong is one the reader itself doubts (turned, twenty-odd would be wrong)
    wrong = result.quilt.bits ^ photo.truth.quilt.bits
    doubted = {doubt.cell for doubt in result.uncertain if doubt.kind == "cell"}
    assert all(divmod(index, 9) in doubted for index in range(81) if wrong >> index & 1)


@pytest.mark.parametrize("seed", [1, 3, 20])  # a corner marker cut by the frame edge; 2 markers in view
def test_a_cut_marker_photo_reads_the_boxes_and_bubbles_the_grid_and_markers_place(seed):
    """The grid's corners and the markers in view place the whole layout: the special boxes and round scores are
    read, and each one is right or in doubt."""
    photo = family_photo(seed, "framing")
    assert photo.details["framing"] == "cut marker"
    result = read_photo(photo.jpeg)
    assert result.method == METHOD_GRID and result.specials_used is not None and result.rounds_read
    assert any("corner markers in view" in note for note in result.notes)
    doubted = {doubt.special for doubt in result.doubts} | {doubt.round for doubt in result.doubts}
    for name in L.SPECIAL_NAMES:
        assert (name in result.specials_used) == (name in photo.truth.specials_used) or name in doubted
    for number, (read, truth) in enumerate(zip(result.round_scores, photo.truth.round_scores, strict=True), 1):
        assert read == truth or number in doubted
    assert result.confidence <= 0.8


def test_a_grid_cut_by_the_frame_is_not_read_as_a_whole_grid():
    """The frame cuts off the grid's top row: its border there is the photo's edge, not the grid's (this photo was
    read with seven cells wrong)."""
    photo = family_photo(16, "framing")
    with pytest.raises(ScanError, match="photograph the whole sheet"):
        read_photo(photo.jpeg)


@pytest.mark.parametrize("degrees", [90, 180, 270])
@pytest.mark.parametrize("covered", [("tl", "br"), ("tr", "br", "bl")])
def test_the_markers_left_tell_the_way_up(degrees, covered):
    photo = make_photo(3, "mild", megapixels=SMALL)
    image = paint_over(photo, cover_markers(photo, covered), L.QR_RECT.inset(-1.0))  # the markers alone tell
    result = read_photo(recode(turned(image, degrees)))
    assert result.method == METHOD_GRID and result.markers_found == 4 - len(covered)
    assert result.quilt == photo.truth.quilt and not whole_quilt_doubt(result)


@pytest.mark.parametrize("degrees", [0, 90, 180, 270])
def test_the_qr_code_tells_the_way_up_without_markers(degrees):
    photo = make_photo(5, "mild", megapixels=SMALL)
    result = read_photo(recode(turned(cover_markers(photo, ("tl", "tr", "br", "bl")), degrees)))
    assert result.method == METHOD_GRID and result.markers_found == 0
    assert result.quilt == photo.truth.quilt and not whole_quilt_doubt(result)


@pytest.mark.parametrize("degrees", [0, 90, 180, 270])
def test_nothing_to_tell_the_way_up_is_a_doubt_on_the_whole_quilt(degrees):
    photo = make_photo(5, "mild", megapixels=SMALL)
    image = paint_over(photo, cover_markers(photo, ("tl", "tr", "br", "bl")), L.QR_RECT.inset(-1.0))
    result = read_photo(recode(turned(image, degrees)))
    assert result.method == METHOD_GRID
    assert whole_quilt_doubt(result) and result.confidence <= 0.25
    right_or_in_doubt(result, photo.truth)


def test_a_hand_ruled_grid_has_no_way_up(tmp_path):
    from tests.test_scan import hand_ruled_grid

    image, quilt = hand_ruled_grid(0)
    result = read_photo(image)
    assert result.quilt == quilt and whole_quilt_doubt(result)  # read as the photo stands, and said so
    path = tmp_path / "grid.jpg"
    path.write_bytes(recode(image))
    run = CliRunner().invoke(main, ["score", "--json", "--no-ask", str(path)])
    assert run.exit_code == 3, run.output
    data = json.loads(run.stdout)
    assert data["confidence"] <= 0.25
    assert any(doubt["kind"] == "quilt" and "which way up" in doubt["reason"] for doubt in data["uncertain"])


@pytest.mark.parametrize("flip", [0, 1])  # upside down (a photo through the paper) or left to right (a selfie)
def test_a_mirrored_photo_is_read_flipped_back_and_said(flip):
    photo = make_photo(3, "mild", megapixels=SMALL)
    result = read_photo(recode(cv2.flip(photo.image, flip)))
    assert_exact(result, photo.truth)
    assert result.method == METHOD_MARKERS and MIRRORED_NOTE in result.notes


def test_a_mirrored_photo_without_markers_is_read_flipped_back():
    photo = make_photo(5, "mild", megapixels=SMALL)
    result = read_photo(recode(cv2.flip(turned(cover_markers(photo, ("tl", "tr", "br", "bl")), 90), 1)))
    assert result.method == METHOD_GRID and MIRRORED_NOTE in result.notes
    assert result.quilt == photo.truth.quilt and not whole_quilt_doubt(result)


def test_a_player_who_confirms_the_quilt_settles_the_way_up_doubt():
    from tests.test_scan import hand_ruled_grid

    image, _ = hand_ruled_grid(1)
    result = read_photo(image)
    assert whole_quilt_doubt(result)
    assert not whole_quilt_doubt(result.corrected(confirm=["quilt"]))
    assert whole_quilt_doubt(result.corrected(confirm=["a1"]))


@pytest.mark.parametrize("flip", [0, 1])
def test_a_mirrored_photo_without_its_qr_code_is_never_read_with_confidence(flip):
    # Markers 8 and 9 are mirror-symmetric: mirrored, they read as themselves in each other's place.
    photo = make_photo(3, "mild", megapixels=SMALL)
    result = read_photo(recode(cv2.flip(paint_over(photo, photo.image, L.QR_RECT.inset(-1.0)), flip)))
    right_or_in_doubt(result, photo.truth)


def test_which_markers_read_in_a_mirror_is_what_the_detector_sees():
    from doodle.sheet.grid_fallback import reads_mirrored
    from doodle.sheet.markers import detect_markers

    for marker_id in sorted({i for marks in L.LAYOUT_MARKS for ids in marks.marker_ids_by_slot for i in ids}):
        bits = np.array(L.marker_bits(marker_id), np.uint8)
        image = cv2.resize(255 - 255 * bits, (120, 120), interpolation=cv2.INTER_NEAREST)
        mirrored = cv2.copyMakeBorder(image[:, ::-1], 40, 40, 40, 40, cv2.BORDER_CONSTANT, value=255)
        assert reads_mirrored(marker_id) == bool(detect_markers(mirrored)), marker_id


def test_doodle_score_shows_the_boxes_read_from_the_grid_and_markers_in_view(tmp_path):
    photo = family_photo(22, "framing")  # the top-left marker cut by the frame
    path = tmp_path / "cut.jpg"
    path.write_bytes(photo.jpeg)
    result = CliRunner().invoke(main, ["score", str(path)])
    used = ", ".join(photo.truth.specials_used) or "none"
    assert f"special actions used: {used}" in result.output, result.output
    assert "corner markers in view" in result.output
