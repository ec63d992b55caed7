"""The photo reader against synthetic photos with known truth (tests/photogen.py renders the real PDF).

Kept to a few dozen photos so the suite stays fast; the 200-photos-per-level sweep is benchmarks/bench_scan.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from doodle.quilt import Quilt, cell_name
from doodle.sheet import layout as L
from doodle.sheet.scan import METHOD_GRID, METHOD_MARKERS, ScanResult, read_photo
from doodle.sheet.scan_errors import MarkersMissingError
from tests.photogen import level_conditions, make_photo
from tests.photogen_styles import styled_photo

EXAMPLES = Path(__file__).resolve().parent / "photos"  # layout 1 and 2 photos of random fills, read exactly
SMALL = 2.0  # megapixels: quick to make and to read


def wrong_items(result: ScanResult, truth) -> set[str]:
    """Names (as the reader's uncertain list names them) of everything read differently from the truth."""
    wrong = {
        cell_name(r, c)
        for r in range(9)
        for c in range(9)
        if result.quilt.is_covered(r, c) != truth.quilt.is_covered(r, c)
    }
    if result.specials_used is not None:
        wrong |= set(result.specials_used) ^ set(truth.specials_used)
    for number, (read, true) in enumerate(zip(result.round_scores, truth.round_scores, strict=True), 1):
        if read != true:
            wrong.add(f"round {number}")
    return wrong


def flagged(result: ScanResult) -> set[str]:
    names = set()
    for doubt in result.uncertain:
        names.add(" ".join(doubt.name.split()[:2]) if doubt.kind == "bubble" else doubt.name)
    return names


def assert_exact(result: ScanResult, truth) -> None:
    assert result.quilt == truth.quilt, f"read\n{result.quilt}\ntruth\n{truth.quilt}"
    assert result.specials_used == truth.specials_used
    assert result.round_scores == truth.round_scores


def recode(image: np.ndarray, quality: int = 92) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return data.tobytes()


def cover_markers(photo, corners: tuple[str, ...]) -> np.ndarray:
    """The photo with the named corner markers painted over in paper white (as if cut off or covered)."""
    image = photo.image.copy()
    for marker in L.MARKERS:
        if marker.corner in corners:
            r = marker.rect.inset(-2.0)
            quad = np.array([[(r.x, r.y), (r.x2, r.y), (r.x2, r.y2), (r.x, r.y2)]], np.float64)
            points = cv2.perspectiveTransform(quad, photo.sheet_to_photo)[0]
            cv2.fillConvexPoly(image, points.astype(np.int32), (235, 235, 235))
    return image


@pytest.mark.parametrize("seed", range(4))
def test_mild_photos_are_read_exactly(seed):
    photo = make_photo(seed, "mild", megapixels=SMALL)
    result = read_photo(photo.jpeg)
    assert result.method == METHOD_MARKERS and result.markers_found == 4
    assert_exact(result, photo.truth)


@pytest.mark.parametrize(("level", "seeds"), [("moderate", range(100, 106)), ("harsh", range(100, 106))])
def test_never_silently_wrong(level, seeds):
    """Whatever the conditions, everything read wrongly is in the uncertain list (or the photo is refused)."""
    for seed in seeds:
        photo = make_photo(seed, level, megapixels=SMALL)
        result = read_photo(photo.jpeg)
        silent = wrong_items(result, photo.truth) - flagged(result)
        assert not silent, f"{level} seed {seed}: read wrongly without a flag: {sorted(silent)} ({photo.details})"


@pytest.mark.parametrize("seed", [167, 199])
def test_cells_under_a_leaking_shadow_trace_are_never_silently_wrong(seed):
    """Harsh seeds 167 and 199: the trace of a shadow leaks along pencil edges far from it (167: a shadow found
    where there is none; 199: one leaking from below the grid up its right side), which once read an empty cell
    as shaded (167 e5) or light pencil as paper (199 h7). The paper's light, fitted from several starts, puts the
    shadows right now; whatever is read, nothing is silently wrong."""
    photo = make_photo(seed, "harsh")
    result = read_photo(photo.jpeg)
    silent = wrong_items(result, photo.truth) - flagged(result)
    assert not silent, f"read wrongly without a flag: {sorted(silent)}"


def test_light_pencil_under_a_shadow_that_was_not_there_is_flagged():
    """Moderate seed 302: a shadow's outline traced along pencil edges spreads over light graphite cells far from
    its real place; taken out there, it would brighten them to paper. In the photo's own light they read as
    pencil, so such cells are in doubt, never silently empty."""
    photo = make_photo(302, "moderate")
    result = read_photo(photo.jpeg)
    silent = wrong_items(result, photo.truth) - flagged(result)
    assert not silent, f"read wrongly without a flag: {sorted(silent)}"


def test_a_shadow_edge_across_an_empty_bubble_is_flagged():
    """Harsh seed 1019: a hard shadow's edge runs through an empty bubble of round 2, whose lit half of the ring
    makes its shadowed half look filled. Read side by side (each sector against the ring in the same direction)
    it is empty: the two readings disagree, so the round score is flagged rather than silently wrong."""
    photo = make_photo(1019, "harsh")
    assert photo.details.get("shadow")
    result = read_photo(photo.jpeg)
    silent = wrong_items(result, photo.truth) - flagged(result)
    assert not silent, f"read wrongly without a flag: {sorted(silent)}"


@pytest.mark.parametrize(("seed", "mark"), [(0, "x"), (1, "tick"), (2, "ring"), (9, "slash"), (16, "dot"),
                                           (8, "scribble")])
def test_a_bubble_marked_but_not_filled_in_never_gives_a_wrong_score_without_a_word(seed, mark):
    """Players mark a bubble as they mark a box: a cross, a tick, a slash, a dot, a scribble, or a ring drawn round
    it (style family bubble-marks, one habit per sheet). Each round is read right, or in doubt, or not read (the
    player is asked for it): never a wrong score with no doubt."""
    photo = styled_photo(seed, "mild", bubbles="any")
    assert photo.details["bubble_mark"] == mark
    result = read_photo(photo.jpeg)
    for number, (read, true) in enumerate(zip(result.round_scores, photo.truth.round_scores, strict=True), 1):
        assert read == true or read is None or f"round {number}" in flagged(result)


@pytest.mark.parametrize("seed", [0, 5])
def test_a_crossed_bubble_alone_in_its_row_is_read_without_a_doubt(seed):
    """Bubble-marks seeds 0 and 5: every round's bubbles crossed rather than filled in. A cross has less ink than
    a fill, so against the paper ring around it, it falls short of a fill's threshold (0.16-0.20 against 0.2). It
    is still the only bubble of its row over the local threshold, and stands out from the row against the ring as
    well: the score is read, and nothing is asked of the player."""
    photo = styled_photo(seed, "mild", bubbles="any")
    assert photo.details["bubble_mark"] == "x"
    result = read_photo(photo.jpeg)
    assert result.round_scores == photo.truth.round_scores
    assert not [u for u in result.uncertain if u.kind in ("bubble", "round")]


@pytest.mark.parametrize("seed", [17, 19, 60])
def test_pencil_alone_is_never_taken_for_a_shadow(seed):
    """Mild seeds 17, 19 and 60 have no shadow, but pencil steps measured inside cells once traced one: the paper
    shows none, so there is none, and no cell is put in doubt for it."""
    photo = make_photo(seed, "mild")
    assert not photo.details.get("shadow")
    result = read_photo(photo.jpeg)
    assert not any("shadow" in note for note in result.notes)
    assert result.uncertain == ()
    assert_exact(result, photo.truth)


def test_a_narrow_shadow_beside_an_unused_box_is_flagged():
    """Harsh seed 1225: a shadow narrower than the local light's closing lies just right of the unused 'twice'
    box, and reads as ink at its side. The paper around the box is uneven, so the box is in doubt."""
    photo = make_photo(1225, "harsh")
    result = read_photo(photo.jpeg)
    assert "twice" not in photo.truth.specials_used
    silent = wrong_items(result, photo.truth) - flagged(result)
    assert not silent, f"read wrongly without a flag: {sorted(silent)}"


@pytest.mark.parametrize("name", L.SPECIAL_NAMES)
def test_uneven_paper_around_a_special_box_is_a_shadow_edge_beside_it(name):
    """On a flat sheet image: even paper around a box (its printed border and the label under it included) is
    not uneven; a shadow's edge through the ring around it is, for every box (the last one's ring runs past the
    sheet's edge)."""
    from doodle.sheet.stages import PX_PER_MM, uneven_around

    box = next(special.check for special in L.SPECIALS if special.name == name)
    height, width = L.canonical_size_px(PX_PER_MM)[::-1]
    sheet = np.full((height, width, 3), 215, np.uint8)
    x0, y0, x1, y1 = box.to_px(PX_PER_MM)
    cv2.rectangle(sheet, (x0, y0), (x1, y1), (40, 40, 40), 2)
    cv2.putText(sheet, "used", (x0, y1 + 12), cv2.FONT_HERSHEY_PLAIN, 0.7, (90, 90, 90), 1)
    assert not uneven_around(sheet, box)
    shadowed = sheet.copy()
    shadowed[:, : x0 - 8] = (shadowed[:, : x0 - 8] * 0.6).astype(np.uint8)  # a shadow up to 2 mm left of the box
    assert uneven_around(shadowed, box)


@pytest.mark.parametrize(("seed", "name"), [(1082, "cut"), (1187, "single")])
def test_a_faint_mark_in_a_special_box_counts(seed, name):
    """Harsh seeds 1082 (a thin tick, blurred at one megapixel) and 1187 (a cross half in a shadow): faint
    strokes, which counted from an ink of 0.2 read as unused boxes without a doubt. Since the light around a box
    is taken without bright lines under 0.75 mm (a sharpened photo's halo), 1187's cross reads just under the
    threshold, in doubt."""
    photo = make_photo(seed, "harsh")
    result = read_photo(photo.jpeg)
    assert name in photo.truth.specials_used
    wrong = set(result.specials_used) ^ set(photo.truth.specials_used)
    assert wrong <= {u.name for u in result.uncertain if u.kind == "special"}
    if seed == 1082:
        assert not wrong


def test_a_box_deep_in_a_shadow_beside_its_edge_is_in_doubt_however_dark():
    """Mixed 6000000 (a blind set): 'cut', unused, lies deep in a hand's soft shadow that narrows to a tip over it,
    the lit paper a few millimetres off. Against that light the whole box reads as ink (1.0 of strokes), as a solid
    fill would: crossed, sure, until the ring of paper around it, uneven, put any reading over a faint one in doubt."""
    from tests.photogen_families import family_photo

    photo = family_photo(6000000, "mixed")
    result = read_photo(photo.jpeg)
    assert "cut" not in photo.truth.specials_used and "cut" in result.specials_used
    assert "cut" in {u.name for u in result.uncertain if u.kind == "special"}
    assert not wrong_items(result, photo.truth) - flagged(result)


@pytest.mark.parametrize("turn", [cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_COUNTERCLOCKWISE])
def test_any_quarter_turn_reads_the_same(turn):
    photo = make_photo(3, "mild", megapixels=SMALL)
    upright = read_photo(photo.jpeg)
    turned = read_photo(cv2.rotate(photo.image, turn))
    assert_exact(upright, photo.truth)
    assert_exact(turned, photo.truth)


@pytest.mark.parametrize("style", ["pale yellow", "light", "hatching", "scribble"])
def test_every_pencil_style_counts_as_shaded(style):
    conditions = level_conditions("mild", styles=(style,), name=f"mild-{style}")
    photo = make_photo(21, conditions, megapixels=SMALL)
    assert photo.truth.quilt.covered_count() > 0
    assert_exact(read_photo(photo.jpeg), photo.truth)


def test_outlined_patches_are_not_shaded():
    conditions = level_conditions("mild", distractor_outlines=(3, 3), name="mild-outlines")
    photo = make_photo(5, conditions, megapixels=SMALL)
    assert_exact(read_photo(photo.jpeg), photo.truth)


@pytest.mark.parametrize("seed", [3, 7])  # tilted 34 and 31 degrees
def test_steep_tilt_at_one_megapixel(seed):
    conditions = level_conditions("mild", max_tilt_deg=35, megapixels=(1.0, 1.0), name="mild-tilted-1mp")
    photo = make_photo(seed, conditions)
    assert photo.details["tilt_deg"] > 30
    assert_exact(read_photo(photo.jpeg), photo.truth)


@pytest.mark.parametrize("corner", ["tl", "tr", "br", "bl"])
def test_three_markers_suffice(corner):
    photo = make_photo(2, "mild", megapixels=SMALL)
    result = read_photo(recode(cover_markers(photo, (corner,))))
    assert result.method == METHOD_MARKERS and result.markers_found == 3
    assert_exact(result, photo.truth)


def test_two_markers_and_no_grid_is_refused_with_the_count():
    photo = make_photo(2, "mild", megapixels=SMALL)
    image = cover_markers(photo, ("tl", "br"))
    # Hide the grid too: without it there is nothing left to read.
    g = L.GRID_RECT.inset(-3.0)
    quad = np.array([[(g.x, g.y), (g.x2, g.y), (g.x2, g.y2), (g.x, g.y2)]], np.float64)
    cv2.fillConvexPoly(image, cv2.perspectiveTransform(quad, photo.sheet_to_photo)[0].astype(np.int32), (90, 90, 90))
    with pytest.raises(MarkersMissingError, match="only 2 of 4 corner markers are visible: photograph the whole"):
        read_photo(recode(image))


def test_markerless_grid_is_read_with_lower_confidence():
    photo = make_photo(6, level_conditions("mild", quarter_turns=False, name="mild-upright"), megapixels=3.0)
    result = read_photo(recode(cover_markers(photo, ("tl", "tr", "br", "bl"))))
    assert result.method == METHOD_GRID and result.markers_found == 0
    assert result.quilt == photo.truth.quilt
    assert result.specials_used is None and result.round_scores == (None, None, None)
    assert result.confidence <= 0.8 and "without corner markers" in result.notes[0]


def hand_ruled_grid(seed: int) -> tuple[np.ndarray, Quilt]:
    """A photo of a 9x9 grid ruled by hand on plain paper (wobbly lines, no markers), some cells shaded grey."""
    rng = np.random.default_rng(seed)
    cell, margin = 70, 120
    size = 9 * cell + 2 * margin
    paper = np.full((size + 200, size, 3), (225, 232, 236), np.uint8)
    cells = {(r, c) for r in range(9) for c in range(9) if rng.random() < 0.45}
    for r, c in cells:
        x0, y0 = margin + c * cell + 5, margin + r * cell + 5
        shade = int(rng.uniform(80, 170))
        cv2.rectangle(paper, (x0, y0), (x0 + cell - 10, y0 + cell - 10), (shade, shade, shade + 10), -1)
    for i in range(10):
        at = margin + i * cell
        across = [(margin + t * cell * 9 // 8, at + int(rng.normal(0, 1.5))) for t in range(9)]
        down = [(at + int(rng.normal(0, 1.5)), margin + t * cell * 9 // 8) for t in range(9)]
        for line in (across, down):
            cv2.polylines(paper, [np.array(line, np.int32)], False, (40, 40, 40), 4 if i in (0, 9) else 2, cv2.LINE_AA)
    h, w = paper.shape[:2]
    corners = np.float32([[160, 120], [1180, 180], [1240, 1420], [90, 1360]]) + rng.normal(0, 20, (4, 2))
    warp = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), corners.astype(np.float32))
    table = np.full((1500, 1350, 3), (60, 90, 130), np.uint8)
    photo = cv2.warpPerspective(paper, warp, (1350, 1500), dst=table, borderMode=cv2.BORDER_TRANSPARENT)
    return cv2.GaussianBlur(photo, (0, 0), 0.8), Quilt.from_cells(cells)


@pytest.mark.parametrize("seed", range(2))
def test_hand_ruled_grid_is_read_without_markers(seed):
    photo, quilt = hand_ruled_grid(seed)
    result = read_photo(photo)
    assert result.method == METHOD_GRID and result.confidence <= 0.8
    assert result.quilt == quilt


def test_result_json_follows_the_contract():
    photo = make_photo(1, "mild", megapixels=SMALL)
    data = read_photo(photo.jpeg).to_dict()
    assert len(data["quilt"]) == 9 and all(len(row) == 9 for row in data["quilt"])
    assert Quilt.from_text("\n".join(data["quilt"])) == photo.truth.quilt
    assert data["empty"] == photo.truth.quilt.empty_count()
    rect = photo.truth.quilt.best_rectangle()
    assert data["rectangle"] == (rect.to_dict() if rect else None)
    assert data["specials_used"] == list(photo.truth.specials_used)
    assert data["round_scores"] == list(photo.truth.round_scores)
    known = all(score is not None for score in photo.truth.round_scores)
    expected_total = sum(photo.truth.round_scores) - photo.truth.quilt.empty_count() if known else None
    assert data["total"] == expected_total
    assert 0.0 <= data["confidence"] <= 1.0 and data["method"] == "markers"
    json.dumps(data)  # serialisable as it is


@pytest.mark.parametrize("name", sorted(p.stem for p in EXAMPLES.glob("*.jpg")))
def test_example_photos_give_their_json(name):
    """What the reader is sure of matches the expected JSON; what it is unsure of is listed, and answering those
    questions from the sheet (as `doodle score` asks on a terminal) gives exactly the expected JSON."""
    expected = json.loads((EXAMPLES / f"{name}.json").read_text())
    result = read_photo(EXAMPLES / f"{name}.jpg")
    truth_quilt = Quilt.from_text("\n".join(expected["quilt"]))
    bits = result.quilt.bits
    specials = set(result.specials_used or ())
    rounds = list(result.round_scores)
    for doubt in result.uncertain:
        if doubt.kind == "cell":
            r, c = divmod(L.COLUMNS.index(doubt.name[0]) + 9 * (int(doubt.name[1]) - 1), 9)
            bits = bits & ~(1 << (r * 9 + c)) | (truth_quilt.bits & (1 << (r * 9 + c)))
        elif doubt.kind == "special":
            specials.discard(doubt.name)
            specials |= {doubt.name} & set(expected["specials_used"])
        else:
            number = int(doubt.name.split()[1])
            rounds[number - 1] = expected["round_scores"][number - 1]
    answered = Quilt(bits)
    rect = answered.best_rectangle()
    assert answered.rows() == expected["quilt"]
    assert answered.empty_count() == expected["empty"]
    assert (rect.to_dict() if rect else None) == expected["rectangle"]
    assert [n for n in L.SPECIAL_NAMES if n in specials] == expected["specials_used"]
    assert rounds == expected["round_scores"]
