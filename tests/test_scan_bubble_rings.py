"""A ring drawn round a bubble, rather than the bubble filled in, is a player's score (doodle/sheet/bubble_rings.py)."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from doodle.sheet.bubble_rings import RingReading, ringed_digit, ringed_shares
from doodle.sheet.scan import PX_PER_MM, read_photo
from doodle.sheet.stages import _faint_mark, read_sheet
from doodle.sheet.tuning import TUNING
from tests.photogen_styles import styled_photo
from tests.test_scan_cover import _bubble_px, _bubbled_sheet

PENCIL = (75, 75, 80)  # BGR


def _ring(sheet: np.ndarray, number: int, place: str, digit: int, radius_mm: float, start: float = 0.0,
          end: float = 360.0, off_mm: tuple[float, float] = (0.4, -0.3)) -> None:
    """A pencil ring (or an arc of one) round a bubble, a little flattened and off its middle, as a hand draws."""
    cx, cy = _bubble_px(number, place, digit)
    centre = (round((cx + off_mm[0] * PX_PER_MM) * 16), round((cy + off_mm[1] * PX_PER_MM) * 16))
    axes = (round(radius_mm * PX_PER_MM * 16), round(radius_mm * 0.9 * PX_PER_MM * 16))
    cv2.ellipse(sheet, centre, axes, 25.0, start, end, PENCIL, 2, cv2.LINE_AA, 4)


def _read(sheet: np.ndarray, number: int, place: str) -> RingReading:
    normalised = sheet.astype(np.float32) / 255.0  # the paper is white: 1 over the light
    return ringed_digit(ringed_shares(normalised, number, place, PX_PER_MM, TUNING), TUNING)


def test_a_ring_drawn_round_a_bubble_is_read_as_its_digit():
    """Rings of a hand's sizes, just outside the printed ring and up to half a millimetre off its middle, each read
    as the only digit of its row, surely."""
    sheet = _bubbled_sheet()
    rings = (((1, "tens", 0), 2.7, (0.4, -0.3)), ((1, "units", 9), 2.9, (-0.5, 0.2)),
             ((2, "tens", 4), 3.1, (0.0, 0.5)), ((3, "units", 1), 2.8, (0.3, 0.3)))
    for (number, place, digit), radius, off in rings:
        _ring(sheet, number, place, digit, radius, off_mm=off)
    for (number, place, digit), _, _ in rings:
        reading = _read(sheet, number, place)
        assert (reading.digit, reading.unsure) == (digit, ())
        assert reading.confidence >= TUNING.uncertain_below
    assert _read(sheet, 2, "units") == RingReading(None, (), 1.0)  # a row left blank


def test_what_is_not_a_ring_round_one_bubble_is_not_read_as_one():
    """A cross and a stray line along the row leave most directions round a bubble bare, and a fill (one the
    reading of fills did not take: washed out, or taken for the phone's processing) darkens its middle too: no
    digit. An arc under half the way round is not read, but asked about; rings round two bubbles of a row: the
    clearer is read, both in doubt."""
    sheet = _bubbled_sheet()
    cx, cy = _bubble_px(1, "tens", 3)
    cv2.line(sheet, (cx - 11, cy - 11), (cx + 11, cy + 11), PENCIL, 2)
    cv2.line(sheet, (cx - 11, cy + 11), (cx + 11, cy - 11), PENCIL, 2)
    x0, y = _bubble_px(1, "units", 0)
    x1, _ = _bubble_px(1, "units", 9)
    cv2.line(sheet, (x0 - 12, y + 9), (x1 + 12, y + 11), PENCIL, 2)  # through the row, under its middles
    cx, cy = _bubble_px(2, "units", 6)
    cv2.circle(sheet, (cx * 16, cy * 16), round(2.3 * PX_PER_MM * 16), PENCIL, -1, cv2.LINE_AA, 4)  # filled in
    assert _read(sheet, 1, "tens")[:2] == (None, ())
    assert _read(sheet, 1, "units")[:2] == (None, ())
    assert _read(sheet, 2, "units")[:2] == (None, ())
    _ring(sheet, 2, "tens", 5, 2.9, 0.0, 170.0)
    assert _read(sheet, 2, "tens") == RingReading(None, (5,), 0.0)
    _ring(sheet, 3, "units", 2, 2.8)
    _ring(sheet, 3, "units", 3, 2.8)
    reading = _read(sheet, 3, "units")
    assert reading.digit in (2, 3) and set(reading.unsure) == {2, 3} and reading.confidence < TUNING.uncertain_below


def _read_rounds(sheet: np.ndarray) -> tuple[tuple[int | None, ...], set[str]]:
    read = read_sheet(sheet, np.ones(sheet.shape[:2], bool), True)
    return read.rounds, {doubt.name for doubt in read.uncertain if doubt.kind == "bubble"}


def test_a_blank_row_beside_a_read_one_is_asked_about_when_a_ring_may_be_round_one_of_its_bubbles():
    """The score stands on a blank row being blank. Round 1: tens 2 ringed, units 5 ringed wider (3.7 mm) than
    rings are read: it read 20, unasked; now units 5 is asked about. Round 2: units 7 ringed, and an arc half
    of the way round tens 4: asked about. Round 3: units 3 alone (a score under 10): 3, nothing asked."""
    sheet = _bubbled_sheet()
    _ring(sheet, 1, "tens", 2, 2.9)
    cx, cy = _bubble_px(1, "units", 5)
    cv2.circle(sheet, (cx * 16, cy * 16), round(3.7 * PX_PER_MM * 16), PENCIL, 2, cv2.LINE_AA, 4)
    _ring(sheet, 2, "units", 7, 2.8)
    _ring(sheet, 2, "tens", 4, 2.9, 150.0, 340.0)
    _ring(sheet, 3, "units", 3, 2.7)
    rounds, asked = _read_rounds(sheet)
    assert rounds[0] == 20 and "round 1 units 5" in asked
    assert rounds[1] == 7 and "round 2 tens 4" in asked
    assert rounds[2] == 3 and not {name for name in asked if name.startswith("round 3")}


@pytest.mark.parametrize("seed", [4, 13])
def test_rings_drawn_round_the_bubbles_in_a_photo_are_the_scores(seed):
    """Bubble-marks seeds 4 and 13: every score's digits ringed rather than filled in (4: round 3's 8 as tens 0
    and units 8). Read as no score at all before, each round asked for; now read, with no doubt of the reader's."""
    photo = styled_photo(seed, "mild", bubbles="any")
    assert photo.details["bubble_mark"] == "ring"
    result = read_photo(photo.jpeg)
    assert result.round_scores == photo.truth.round_scores
    assert not [u for u in result.uncertain if u.kind in ("bubble", "round")]


@pytest.mark.parametrize(("seed", "marked"), [(740001, {(1, "units", 2)}),
                                              (10013, {(1, "tens", 0), (2, "tens", 0), (2, "units", 3)})])
def test_a_mark_fainter_than_a_fill_alone_in_its_row_is_read_as_its_digit_in_doubt(seed, marked):
    """Bubble-marks 740001 (blind) and 10013 (held out): thin, light slashes over one bubble of a row, 0.06-0.09
    of ink against a threshold of 0.125, the rest of the row 0.02-0.04. Read as empty in doubt before
    (`stages._faint_mark`): round 1 of 740001 read 0 for 2; round 2 of 10013, both rows so marked, was not read."""
    photo = styled_photo(seed, "mild", bubbles="any")
    result = read_photo(photo.jpeg)
    assert result.round_scores == photo.truth.round_scores
    offered = {(int(doubt.name.split()[1]), doubt.name.split()[2], int(doubt.name.split()[3]))
               for doubt in result.uncertain if doubt.kind == "bubble" and doubt.read}
    assert marked <= offered  # each in doubt, offered as marked


def test_a_fingertip_over_a_bubble_row_is_no_faint_mark():
    """Finger-over-bubbles 10010 (held out): a fingertip's edge over tens 0-1 of round 3 reads 0.117 locally on
    tens 1, alone over its row's others, but 0.18 against its ring, with its neighbours darkened too: no mark (it
    was read as tens 1, 15 for 5, in doubt, by a first version of the rule that asked nothing of the rest of the
    row)."""
    photo = styled_photo(10010, "mild", distractor="finger on sheet", over="bubbles")
    result = read_photo(photo.jpeg)
    assert result.round_scores[2] == photo.truth.round_scores[2]


def test_a_ring_read_where_the_paper_is_not_paper_coloured_is_in_doubt():
    """Paper tinted over its light (a light misjudged: the sheet over it is white wherever it is known) reads as
    pencil all round a bubble. The same ring is read surely on white paper, and read in doubt on the tinted."""
    sheet = _bubbled_sheet()
    _ring(sheet, 2, "units", 6, 2.9)
    assert _read(sheet, 2, "units") == RingReading(6, (), 1.0)
    normalised = sheet.astype(np.float32) / 255.0
    cx, cy = _bubble_px(2, "units", 6)
    reach = round(4 * PX_PER_MM)
    normalised[cy - reach : cy + reach, cx - reach : cx + reach, 0] *= 1.3  # blue 30% over its light
    rings = ringed_shares(normalised, 2, "units", PX_PER_MM, TUNING)
    assert rings.unlit[6] and not rings.unlit[:5].any()
    assert ringed_digit(rings, TUNING) == RingReading(6, (6,), 0.0)


def test_a_pencil_lying_by_a_row_is_no_ring_read_surely():
    """Pencil-over-bubbles 890014 (blind): a yellow pencil lying by round 1's units 9, its side against the
    bubble's printed ring, hides none of it (nothing lies over the round). The light estimated beside the pencil
    left the paper round that bubble 2.5 times as bright as white in blue, and each direction round it read as
    pencil: a ring round units 9, a score of 9 where none was written, unflagged. Now read in doubt."""
    photo = styled_photo(890014, "mild", distractor="pencil on sheet", over="bubbles")
    assert photo.truth.round_scores[0] is None
    result = read_photo(photo.jpeg)
    doubted = {doubt.name for doubt in result.uncertain if doubt.kind in ("bubble", "round")}
    assert result.round_scores[0] is None or any(name.startswith("round 1") for name in doubted)


def _faint_row(local: list[float], ring: list[float], doubtful: int | None = None) -> int | None:
    """`stages._faint_mark` on round 1's units row read as `local` and, against the rings, as `ring`."""
    values = {(1, "units", digit): value for digit, value in enumerate(local)}
    read = SimpleNamespace(tuning=TUNING, bubble_values=values)
    rings = {(1, "units", digit): (value, digit == doubtful) for digit, value in enumerate(ring)}
    return _faint_mark(read, rings, 1, "units", TUNING.bubble_local_threshold)


EVEN = [0.025, 0.018, 0.028, 0.027, 0.022, 0.030, 0.026, 0.021, 0.033, 0.029]


def _with(row: list[float], **values: float) -> list[float]:
    changed = list(row)
    for digit, value in values.items():
        changed[int(digit[1:])] = value
    return changed


def test_a_light_mark_alone_in_an_even_row_is_its_digit():
    assert _faint_row(_with(EVEN, d2=0.089), _with(EVEN, d2=0.084)) == 2
    assert _faint_row(EVEN, EVEN) is None  # an empty row
    assert _faint_row(_with(EVEN, d2=0.045), _with(EVEN, d2=0.045)) is None  # not clear of the rest by the bar


@pytest.mark.parametrize(("local", "ring", "doubtful", "why"), [
    (_with(EVEN, d2=0.089, d7=0.060), _with(EVEN, d2=0.084), None, "a second bubble darker than the rest"),
    (_with(EVEN, d2=0.089), _with(EVEN, d2=0.084, d7=0.060), None, "so against the rings"),
    (_with(EVEN, d2=0.089), _with(EVEN, d2=0.250), None, "far darker against its ring: a cover over it"),
    (_with(EVEN, d2=0.089), _with(EVEN, d2=0.084, d5=0.120), None, "another bubble darkest against the rings"),
    (_with(EVEN, d2=0.089), _with(EVEN, d2=0.084), 2, "its ring's reading in doubt (a shadow's edge)"),
    (_with(EVEN, d2=0.200), _with(EVEN, d2=0.190), None, "a fill, read as one elsewhere"),
])
def test_what_is_not_a_light_mark_alone_is_not_read_as_one(local, ring, doubtful, why):
    assert _faint_row(local, ring, doubtful) is None, why


def test_the_next_darkest_is_found_among_the_rest_of_the_row_whatever_its_place():
    # The darkest first, the next darkest after it: the rest are counted without the darkest.
    assert _faint_row(_with(EVEN, d1=0.089, d9=0.060), _with(EVEN, d1=0.084)) is None
    assert _faint_row(_with(EVEN, d9=0.089, d1=0.060), _with(EVEN, d9=0.084)) is None
