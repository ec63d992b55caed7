"""The condition families of tests/photogen_families.py: reproducible, true to the sheet drawn, and each family's
effect really in the photo (small photos, so this stays fast)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from doodle.sheet import layout as L
from tests import photogen_families as F
from tests.photogen_families import FAMILIES, family_photo

MP = 0.8  # megapixels: enough to see every effect, fast to make


def grey(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)


def sample(image: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Grey level at each photo point (nearest pixel)."""
    g = grey(image)
    xs = np.clip(np.round(points[:, 0]).astype(int), 0, g.shape[1] - 1)
    ys = np.clip(np.round(points[:, 1]).astype(int), 0, g.shape[0] - 1)
    return g[ys, xs]


def inside(photo: F.FamilyPhoto, points: np.ndarray, margin: float = 2) -> np.ndarray:
    h, w = photo.image.shape[:2]
    return (points[:, 0] > margin) & (points[:, 1] > margin) & (points[:, 0] < w - margin) & (
        points[:, 1] < h - margin)


def flat_deviation(photo: F.FamilyPhoto) -> float:
    """How far (px) the sheet's points land from where one homography through its four corners puts them."""
    corners = np.array([(0, 0), (L.SHEET_WIDTH_MM, 0), (L.SHEET_WIDTH_MM, L.SHEET_HEIGHT_MM), (0, L.SHEET_HEIGHT_MM)])
    homography = cv2.getPerspectiveTransform(corners.astype(np.float32), photo.project(corners).astype(np.float32))
    xs, ys = np.meshgrid(np.linspace(0, L.SHEET_WIDTH_MM, 9), np.linspace(0, L.SHEET_HEIGHT_MM, 9))
    grid = np.column_stack([xs.ravel(), ys.ravel()])
    flat = cv2.perspectiveTransform(grid.reshape(1, -1, 2), homography)[0]
    return float(np.abs(photo.project(grid) - flat).max())


@pytest.mark.parametrize("family", FAMILIES)
def test_a_seed_makes_one_photo(family):
    a, b = family_photo(4, family, megapixels=MP), family_photo(4, family, megapixels=MP)
    assert a.jpeg == b.jpeg and a.truth == b.truth and a.details == b.details
    assert family_photo(5, family, megapixels=MP).jpeg != a.jpeg


def test_every_family_shows_the_same_sheet_for_a_seed():
    truths = [family_photo(6, family, megapixels=0.3).truth for family in ("plain", "print", "framing", "mixed")]
    assert len({(t.quilt, t.specials_used, t.round_scores) for t in truths}) == 1


def test_an_unknown_family_is_named():
    with pytest.raises(ValueError, match="unknown family 'fog'"):
        family_photo(1, "fog")


@pytest.mark.parametrize("family", ["plain", "print"])
def test_the_truth_is_what_is_drawn_on_the_page(family):
    """On the page as drawn (before the camera), shaded cells are darker inside than empty ones and crossed boxes
    darker than unused ones, measured where the print put them."""
    for seed in range(3):
        photo = family_photo(seed, family, megapixels=MP, keep_page=True)
        truth = photo.truth
        page = grey(photo.page)
        page_mm = L.page_size(truth.paper)
        ppm = np.array([page.shape[1] / page_mm[0], page.shape[0] / page_mm[1]])

        def ink(rect: L.Rect, inset: float, page=page, ppm=ppm, photo=photo) -> float:
            pts = np.array([(rect.x + inset, rect.y + inset), (rect.x2 - inset, rect.y2 - inset)])
            (x0, y0), (x1, y1) = cv2.perspectiveTransform(pts.reshape(1, -1, 2), photo.sheet_to_page)[0] * ppm
            return 255 - float(page[int(y0):int(y1), int(x0):int(x1)].mean())

        shaded = [ink(L.cell_rect(r, c), 3.0) for r in range(9) for c in range(9) if truth.quilt.is_covered(r, c)]
        empty = [ink(L.cell_rect(r, c), 3.0) for r in range(9) for c in range(9)
                 if not truth.quilt.is_covered(r, c)]
        if shaded and empty:
            assert min(shaded) > max(empty) + 3, (seed, min(shaded), max(empty))
        crossed = [ink(L.special_box(n).check, 1.5) for n in truth.specials_used]
        unused = [ink(L.special_box(n).check, 1.5) for n in L.SPECIAL_NAMES if n not in truth.specials_used]
        if crossed and unused:
            assert min(crossed) > max(unused) + 3


@pytest.mark.parametrize("family", FAMILIES)
def test_the_camera_model_says_where_the_sheet_is(family):
    """The projection the photo carries lands the markers' black borders on dark pixels and the white quiet zone
    beside them on light ones, whatever the family does to the page or the light."""
    for seed in range(2):
        photo = family_photo(seed, family, megapixels=MP)
        for marker in L.MARKERS:
            r = marker.rect
            inward_x = 1 if marker.corner in ("tl", "bl") else -1
            inward_y = 1 if marker.corner in ("tl", "tr") else -1
            edge_x = r.x if inward_x == 1 else r.x2
            edge_y = r.y if inward_y == 1 else r.y2
            border = np.array([(edge_x + inward_x * 1.0, (r.y + r.y2) / 2)])  # the outer black module
            # beside the marker, toward the sheet's inside: paper with nothing printed on it
            quiet = np.array([(edge_x + inward_x * (r.w + 2.5), edge_y + inward_y * 8.0)])
            both = np.vstack([border, quiet])
            points = photo.project(both)
            if not inside(photo, points, margin=6).all():
                continue  # a cut marker
            dark, light = sample(photo.image, points)
            assert dark < 0.75 * light, (seed, marker.corner, dark, light, photo.details)


@pytest.mark.parametrize("seed", range(4))
def test_curl_bends_the_page_by_5_to_20_mm(seed):
    photo = family_photo(seed, "curl", megapixels=MP)
    assert 5 <= photo.details["sag_mm"] <= 20
    bend = photo.scene.bend
    pw, ph = photo.scene.page_mm
    corners = np.array([(-pw / 2, -ph / 2), (pw / 2, -ph / 2), (pw / 2, ph / 2), (-pw / 2, ph / 2)])
    reach = np.abs(corners @ bend.axis[0]).max()
    heights = bend.h[np.abs(bend.s) <= reach]  # on the page
    assert heights.min() >= 0 and 5 <= heights.max() <= photo.details["sag_mm"] * 2 + 0.1
    # lengths along the page are kept: the arc length grows faster than the flat coordinate where it bends
    assert (np.diff(bend.s) >= np.diff(bend.p) - 1e-9).all()
    assert flat_deviation(photo) > 0.8
    assert flat_deviation(family_photo(seed, "plain", megapixels=MP)) < 0.01


def test_the_ray_cast_inverts_the_projection():
    photo = family_photo(2, "mixed", megapixels=MP)
    scene = F.replace(family_photo(3, "curl", megapixels=MP).scene, k1=-0.12, k2=0.02)
    for s in (scene, photo.scene):
        uv = np.array([(-90.0, -120.0), (0.0, 0.0), (80.0, 130.0), (95.0, -40.0)])
        back, _, _ = s.cast(s.project_page(uv))
        assert np.abs(back - uv).max() < 0.05


def test_lens_bends_straight_lines_and_darkens_corners():
    for seed in range(3):
        photo = family_photo(seed, "lens", megapixels=MP)
        plain = family_photo(seed, "plain", megapixels=MP)
        assert photo.details["k1"] < 0 and flat_deviation(photo) > 1.0
        h, w = photo.image.shape[:2]

        def corner_share(image, h=h, w=w):
            g = grey(image)
            corners = np.concatenate([g[:h // 8, :w // 8].ravel(), g[-h // 8:, -w // 8:].ravel(),
                                      g[:h // 8, -w // 8:].ravel(), g[-h // 8:, :w // 8].ravel()])
            return corners.mean() / g[3 * h // 8:5 * h // 8, 3 * w // 8:5 * w // 8].mean()

        assert corner_share(photo.image) < corner_share(plain.image) * (1 - 0.5 * photo.details["vignetting"])


def test_chromatic_aberration_images_red_larger_than_blue():
    image = np.full((60, 3000, 3), 255, np.uint8)
    image[:, 2900:] = 0  # a black edge far right of the centre: red moves it out, blue in
    out = F._chromatic(np.random.default_rng(1), image, {})
    assert int(out[..., 2].sum()) > int(out[..., 1].sum()) > int(out[..., 0].sum())


def test_sensor_adds_grain_at_low_light_and_sharpening_overshoots():
    flat = np.full((120, 160, 3), 200, np.uint8)
    flat[:, 80:] = 60  # an edge
    spreads, overshoots = [], []
    for seed in range(12):
        details: dict = {}
        out = F._sensor(np.random.default_rng(seed), flat, details)
        paper = grey(out)[20:100, 10:60]
        spreads.append((details["light_share"], details["denoise"], float(paper.std())))
        overshoots.append((details["sharpen"], float(grey(out)[60, 70:90].max())))
    low_light = [s for light, denoise, s in spreads if denoise == "none" and light < 0.2]
    assert low_light and min(low_light) > 1.5  # grain on flat paper
    strong = [peak for amount, peak in overshoots if amount > 1.5]
    assert strong and max(strong) > 215  # the paper beside the edge brighter than paper: a halo


def test_messaging_downscales_and_recompresses_twice():
    photo = family_photo(1, "messaging", megapixels=3.0)
    passes = photo.details["messaging"]
    assert len(passes) == 2 and all(40 <= quality <= 70 for _, quality in passes)
    assert 1280 <= max(photo.image.shape[:2]) <= 1600
    # the projection follows the downscale: the markers are still where it says
    points = photo.project([m.rect.center for m in L.MARKERS])
    assert inside(photo, points).all()


@pytest.mark.parametrize("kind", ["tungsten", "mixed", "soft shadow", "glare"])
def test_each_light_effect_is_in_the_light(kind):
    page_mm = (210.0, 297.0)
    ys, xs = np.mgrid[-160:161:2, -120:121:2].astype(np.float64)
    table_xy = np.stack([xs, ys], axis=-1)
    for seed in range(40):
        details: dict = {}
        gain, glare = F._light(np.random.default_rng(seed), table_xy, page_mm, details)
        if kind in details["light"]:
            break
    else:
        pytest.fail(f"no {kind} in 40 seeds")
    if kind == "tungsten":
        assert (gain[..., 0] < 0.9 * gain[..., 2]).all()  # less blue than red
    elif kind == "mixed":
        ratio = gain[..., 0] / gain[..., 2]
        assert ratio.max() > 1.3 * ratio.min()  # the colour of the light changes across the table
    elif kind == "soft shadow":
        for seed in range(6):
            details = {}
            shadow = F._soft_shadow(np.random.default_rng(seed), table_xy, page_mm, details)
            strength = details["shadow_strength"]
            assert strength - 0.1 <= 1 - shadow.min() <= strength + 0.006  # it falls on the page (2 decimals)
            # a wide penumbra: the light changes no faster than a Gaussian edge of that width allows (2 mm samples)
            steps = max(np.abs(np.diff(shadow, axis=0)).max(), np.abs(np.diff(shadow, axis=1)).max())
            sigma = details["penumbra_mm"] / 2.5
            assert steps <= 1.1 * strength * 2 / (sigma * np.sqrt(2 * np.pi)) + 0.01, (seed, details)
            assert details["penumbra_mm"] >= 8
    else:
        assert glare.max() > 30 and glare.min() < 1


def test_print_scales_skews_and_fades_the_print():
    for seed in range(6):
        photo = family_photo(seed, "print", megapixels=MP)
        d = photo.details
        assert 0.94 <= d["print_scale"] <= 0.97 or d["print_scale"] == 1.0
        assert abs(d["print_skew_deg"]) <= 1.5
        linear = photo.sheet_to_page[:2, :2]
        assert np.isclose(np.sqrt(abs(np.linalg.det(linear))), d["print_scale"], atol=5e-4)  # details: 3 decimals
    faded = next(s for s in range(20) if family_photo(s, "print", megapixels=MP).details["toner"] < 0.6)
    photo, plain = family_photo(faded, "print", megapixels=MP), family_photo(faded, "plain", megapixels=MP)
    mm = [(1.0, 11.0)]  # the top-left marker's outer black module
    assert sample(photo.image, photo.project(mm))[0] > sample(plain.image, plain.project(mm))[0] + 25


def test_framing_cuts_a_marker_shrinks_the_sheet_clutters_the_table_or_adds_a_sheet():
    seen = {}
    for seed in range(40):
        photo = family_photo(seed, "framing", megapixels=MP)
        seen.setdefault(photo.details["framing"], photo)
        if len(seen) == 4:
            break
    assert set(seen) == {"cut marker", "small sheet", "clutter", "second sheet"}
    cut = seen["cut marker"]
    marker = next(m for m in L.MARKERS if m.corner == cut.details["cut_marker"])
    r = marker.rect
    corners = cut.project([(r.x, r.y), (r.x2, r.y), (r.x2, r.y2), (r.x, r.y2)])
    assert 0 < inside(cut, corners, margin=0).sum() < 4 or not inside(cut, corners.mean(axis=0, keepdims=True)).all()
    grid = L.GRID_RECT
    assert inside(cut, cut.project([(grid.x, grid.y), (grid.x2, grid.y), (grid.x2, grid.y2), (grid.x, grid.y2)])).all()

    small = seen["small sheet"]
    page = small.project([(0, 0), (L.SHEET_WIDTH_MM, 0), (L.SHEET_WIDTH_MM, L.SHEET_HEIGHT_MM),
                          (0, L.SHEET_HEIGHT_MM)]).astype(np.float32)
    h, w = small.image.shape[:2]
    assert cv2.contourArea(page) < 0.25 * w * h

    assert len(seen["clutter"].details["clutter"]) >= 3

    two = seen["second sheet"]
    place = np.array(two.details["second_place"])
    pw, ph = L.page_size(two.truth.paper)
    other = np.array([(-pw / 2, -ph / 2), (pw / 2, -ph / 2), (pw / 2, ph / 2), (-pw / 2, ph / 2)])
    on_table = other @ place[:2, :2].T + place[:2, 2]
    assert inside(two, two.scene.project_page(on_table), margin=0).any() or \
        inside(two, two.scene.project_page((on_table + on_table.mean(axis=0)) / 2), margin=0).any()
    assert inside(two, two.project([m.rect.center for m in L.MARKERS])).all()


def test_mixed_puts_two_or_three_families_together():
    for seed in range(5):
        photo = family_photo(seed, "mixed", megapixels=MP)
        assert 2 <= len(photo.details["effects"]) <= 3
        assert set(photo.details["effects"]) <= set(F.EFFECTS)


def test_held_out_seeds_are_named():
    assert F.HELD_OUT_FIRST_SEED == 100_000
    assert "100000" in F.__doc__
