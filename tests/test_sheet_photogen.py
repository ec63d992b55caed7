"""The synthetic photo generator: reproducible, geometrically exact, and its marks really are where the truth says.

These tests check the generator against OpenCV and the layout directly (not through doodle's reader), so that the
reader's tests and benchmarks stand on ground truth that is itself tested.
"""

import cv2
import numpy as np
import pytest

from doodle.quilt import Quilt
from doodle.sheet import layout as L
from tests.photogen import CONDITIONS, LEVELS, level_conditions, make_photo, random_patches
from tests.photogen_game import SHADOWS, game_patches, game_truth, photo_of_game, played_game
from tests.photogen_styles import _StyledDrawer

SMALL = 1.5  # megapixels: enough to check, quick to make


def flatten(photo, px_per_mm: float = 4.0) -> np.ndarray:
    """The photo warped back to the sheet frame with the generator's own homography."""
    to_sheet = np.diag([px_per_mm, px_per_mm, 1.0]) @ np.linalg.inv(photo.sheet_to_photo)
    return cv2.warpPerspective(photo.image, to_sheet, L.canonical_size_px(px_per_mm), flags=cv2.INTER_AREA)


def test_same_seed_same_photo_and_truth():
    a = make_photo(11, "harsh", megapixels=SMALL)
    b = make_photo(11, "harsh", megapixels=SMALL)
    assert a.jpeg == b.jpeg
    assert a.truth == b.truth
    assert np.array_equal(a.sheet_to_photo, b.sheet_to_photo)
    c = make_photo(12, "harsh", megapixels=SMALL)
    assert c.jpeg != a.jpeg


def test_levels_are_named_presets_of_increasing_difficulty():
    assert set(LEVELS) <= set(CONDITIONS)
    mild, moderate, harsh = (CONDITIONS[name] for name in LEVELS)
    assert mild.max_tilt_deg < moderate.max_tilt_deg < harsh.max_tilt_deg
    assert mild.jpeg_quality[0] > moderate.jpeg_quality[0] > harsh.jpeg_quality[0]
    assert mild.noise_sigma[1] < moderate.noise_sigma[1] < harsh.noise_sigma[1]
    assert level_conditions("mild", megapixels=(12, 12)).megapixels == (12, 12)


@pytest.mark.parametrize("megapixels", [1.0, 3.0])
def test_photo_has_the_requested_resolution(megapixels):
    image = make_photo(3, "mild", megapixels=megapixels).image
    assert image.ndim == 3 and image.shape[2] == 3
    assert image.shape[0] * image.shape[1] == pytest.approx(megapixels * 1e6, rel=0.01)


def test_truth_is_a_consistent_game_state():
    for seed in range(8):
        truth = make_photo(seed, "moderate", megapixels=SMALL).truth
        assert set(truth.styles) == truth.quilt.cells
        assert set(truth.specials_used) <= set(L.SPECIAL_NAMES)
        assert list(truth.specials_used) == [n for n in L.SPECIAL_NAMES if n in truth.specials_used]
        assert all(score is None or 0 <= score <= 81 for score in truth.round_scores)
        data = truth.to_json()
        assert Quilt.from_rows(data["quilt"]) == truth.quilt


def test_patches_never_overlap_and_reach_the_target():
    rng = np.random.default_rng(5)
    for target in (0.0, 0.3, 0.7, 1.0):
        patches = random_patches(rng, target)
        cells = [cell for patch in patches for cell in patch]
        assert len(cells) == len(set(cells))
        assert target * 81 <= len(cells) < target * 81 + 8  # the last patch may overshoot by its size


@pytest.mark.parametrize("level", ["clean", "mild", "moderate", "harsh"])
def test_markers_are_where_the_homography_says(level):
    """Detected ArUco corners agree with the truth homography: the photo's geometry is exactly known."""
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, L.ARUCO_DICTIONARY_NAME))
    detector = cv2.aruco.ArucoDetector(dictionary)
    checked = 0
    for seed in range(4):
        photo = make_photo(seed, level, megapixels=3.0)
        corners, ids, _ = detector.detectMarkers(cv2.cvtColor(photo.image, cv2.COLOR_BGR2GRAY))
        if ids is None:
            continue
        for marker_id, found in zip(ids.ravel(), corners, strict=True):
            if L.locate_marker(int(marker_id)) is None:
                continue
            expected = cv2.perspectiveTransform(
                np.array([L.marker_corners_mm(int(marker_id))], np.float64), photo.sheet_to_photo
            )[0]
            side = np.linalg.norm(expected[1] - expected[0])
            assert np.abs(found.reshape(4, 2) - expected).max() < max(2.0, 0.06 * side)
            checked += 1
    assert checked >= 8


@pytest.mark.parametrize("seed", range(4))
def test_shaded_cells_carry_ink_and_empty_cells_do_not(seed):
    """In a clean photo every cell the truth calls shaded has pencil in its interior (graphite darkens it,
    coloured pencil tints it) and every empty cell is paper there, outlines drawn near its edges excepted."""
    photo = make_photo(seed, "clean")
    sheet = flatten(photo).astype(np.float32)
    paper = np.median(sheet[L.Rect(L.GRID_RECT.x, L.GRID_RECT.y2 + 1, 40, 3).to_px(4)[1]], axis=0)
    for row in range(9):
        for col in range(9):
            x0, y0, x1, y1 = L.cell_rect(row, col).inset(3.0).to_px(4)
            interior = sheet[y0:y1, x0:x1]
            # per pixel: the largest drop of any colour channel below the paper, as a share of the paper
            drop = np.max((paper - interior) / paper, axis=2)
            inked = float((drop > 0.08).mean())
            if photo.truth.quilt.is_covered(row, col):
                assert inked > 0.15, (row, col, photo.truth.styles[(row, col)], inked)
            else:
                assert inked < 0.03, (row, col, inked)


def test_crossed_specials_and_filled_bubbles_are_drawn():
    for seed in range(3):
        photo = make_photo(seed, "clean")
        sheet = cv2.cvtColor(flatten(photo), cv2.COLOR_BGR2GRAY).astype(np.float32)

        def darkness(rect: L.Rect, sheet: np.ndarray = sheet) -> float:
            x0, y0, x1, y1 = rect.to_px(4)
            return float(255 - sheet[y0:y1, x0:x1].mean())

        for special in L.SPECIALS:
            crossed = darkness(special.check.inset(1.0)) > 20
            assert crossed == (special.name in photo.truth.specials_used), special.name
        for block, score in zip(L.ROUNDS, photo.truth.round_scores, strict=True):
            for place in L.PLACES:
                values = [darkness(L.bubble_rect(block.number, place, d).inset(0.8)) for d in range(10)]
                if score is None:
                    assert max(values) < 40
                else:
                    digit = score // 10 if place == "tens" else score % 10
                    assert int(np.argmax(values)) == digit
                    assert sorted(values)[-1] - sorted(values)[-2] > 40


# --- photos of games actually played ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def greedy_game():
    return played_game(4, "greedy")


def test_a_played_game_fills_the_sheet_it_leaves(greedy_game):
    """The sheet of a bot's game: its quilt, the specials the engine crossed off, and the round scores, each the
    best rectangle at its scoring; every patch the game drew is drawn, and nothing else."""
    truth = game_truth(greedy_game)
    assert truth.quilt.rows() == greedy_game["quilt"]
    assert list(truth.round_scores) == greedy_game["round_scores"]
    assert [s["rectangle"]["score"] for s in greedy_game["scorings"]] == greedy_game["round_scores"]
    used = {name for step in (*greedy_game["turns"], *greedy_game["scorings"]) for name in step["specials"]}
    assert used <= set(truth.specials_used) <= set(L.SPECIAL_NAMES)
    patches = game_patches(greedy_game)
    cells = [cell for patch in patches for cell in patch]
    assert len(cells) == len(set(cells)) and Quilt.from_cells(cells) == truth.quilt
    edited = {**greedy_game, "total": greedy_game["total"] + 10}
    with pytest.raises(ValueError, match="total"):
        game_truth(edited)


def test_photo_of_a_game_shows_its_patches_crosses_and_bubbles(greedy_game):
    photo = photo_of_game(greedy_game, "clean", number=3)
    assert photo.truth == game_truth(greedy_game, number=3)
    assert set(photo.truth.styles) == photo.truth.quilt.cells  # how each shaded cell was drawn
    sheet = flatten(photo).astype(np.float32)
    paper = np.median(sheet[L.Rect(L.GRID_RECT.x, L.GRID_RECT.y2 + 5, 40, 1).to_px(4)[1]], axis=0)
    for row in range(9):
        for col in range(9):
            x0, y0, x1, y1 = L.cell_rect(row, col).inset(3.5).to_px(4)
            inked = float((np.max((paper - sheet[y0:y1, x0:x1]) / paper, axis=2) > 0.08).mean())
            assert (inked > 0.15) == photo.truth.quilt.is_covered(row, col), (row, col, inked)
    grey = cv2.cvtColor(flatten(photo), cv2.COLOR_BGR2GRAY).astype(np.float32)
    for special in L.SPECIALS:
        x0, y0, x1, y1 = special.check.inset(1.0).to_px(4)
        assert (255 - grey[y0:y1, x0:x1].mean() > 20) == (special.name in photo.truth.specials_used)
    for block, score in zip(L.ROUNDS, photo.truth.round_scores, strict=True):
        for place, digit in zip(L.PLACES, divmod(score, 10), strict=True):
            values = []
            for d in range(10):
                x0, y0, x1, y1 = L.bubble_rect(block.number, place, d).inset(0.8).to_px(4)
                values.append(255 - grey[y0:y1, x0:x1].mean())
            assert int(np.argmax(values)) == digit


@pytest.mark.parametrize("shadow", sorted(SHADOWS))
def test_a_placed_shadow_falls_where_it_is_asked(greedy_game, shadow):
    """The "row" shadow darkens the sheet above row 2's middle and not below; the "margin" one the paper right of
    the grid and not the grid."""
    photo = photo_of_game(greedy_game, level_conditions("clean", light_gradient=0.0), shadow=shadow)
    grey = cv2.cvtColor(flatten(photo), cv2.COLOR_BGR2GRAY).astype(np.float32)

    def paper(rect: L.Rect) -> float:
        x0, y0, x1, y1 = rect.to_px(4)
        return float(np.percentile(grey[y0:y1, x0:x1], 90))

    g = L.GRID_RECT
    if shadow == "row":
        shaded, lit = L.Rect(g.x, g.y - 3.2, g.w, 1.0), L.Rect(g.x, g.y2 + 4.6, g.w, 1.0)
    else:
        shaded, lit = L.Rect(g.x2 + 8, 80, 8, 60), L.Rect(2.0, 80, 8, 60)
    assert paper(shaded) < 0.75 * paper(lit)
    with pytest.raises(ValueError, match="unknown shadow"):
        photo_of_game(greedy_game, "clean", shadow="thumb")


@pytest.mark.parametrize("seed", range(8))
def test_a_finger_s_shadow_fades_out_with_no_edge(seed):
    """A finger laid on the sheet (photogen_styles) casts a shadow blurred 2-4 mm wide: over white paper, beside the
    finger, the page darkens no faster from one pixel to the next than so soft a shadow can. It was cut off 6 mm
    from the finger, leaving a sharp-edged grey band no real shadow casts (finger-over-bubbles 620013, blind: a box
    under that band read as crossed)."""
    page = np.full((1200, 1000, 3), 255, np.uint8)
    drawer = _StyledDrawer(page, L.Slot(0.0, 0.0, 1.0, (0, 1, 2, 3)), 4.0, np.random.default_rng(seed))
    drawer._finger_on_sheet(70.0, 90.0)
    colour = page.astype(int)
    skin = (colour.max(axis=2) - colour.min(axis=2)) > 3  # skin is warm; a shadow on white paper stays grey
    beside = ~cv2.dilate(skin.astype(np.uint8), np.ones((9, 9), np.uint8)).astype(bool)
    grey = colour.min(axis=2)
    assert (grey[beside] < 240).sum() > 1000  # there is a shadow beside the finger to look at
    steps = np.maximum(np.abs(np.diff(grey, axis=0))[:, :-1], np.abs(np.diff(grey, axis=1))[:-1, :])
    # Half the page's white at most (0.5 deep) over a Gaussian edge of 2 mm (8 px): 128 / (8 * sqrt(2 pi)) = 6.4.
    assert steps[(beside[:-1, :-1] & beside[1:, 1:])].max() <= 10
