"""A patch rubbed out leaves a ghost of its pencil: a grey tint with no strokes in it and no outline drawn about it
is read shaded only well away from the threshold, and in doubt nearer it (doodle/sheet/stages.py `decide_cells`,
tuning `bare_tint_margin_factor`). A coloured tint is meant, and an outlined one is a patch."""

from __future__ import annotations

from dataclasses import replace

import pytest

from doodle.sheet.scan import read_photo
from doodle.sheet.tuning import TUNING
from tests.photogen import make_photo
from tests.photogen_styles import styled_photo
from tests.test_scan import flagged, wrong_items


@pytest.mark.parametrize("seed", [10015, 10019])
def test_a_rubbed_out_patch_is_never_read_shaded_without_a_doubt(seed):
    """Held-out erased 10015 (7 cells) and 10019 (4 cells): a solid patch rubbed out to a third of its darkness,
    1.9-2.0 times the threshold, no strokes, no outline; read shaded and sure before."""
    photo = styled_photo(seed, "mild", distractor="erased")
    result = read_photo(photo.jpeg)
    wrong = wrong_items(result, photo.truth)
    assert wrong, "the ghost is read shaded (in doubt): a light fill looks the same"
    assert not wrong - flagged(result)
    before = read_photo(photo.jpeg, tuning=replace(TUNING, bare_tint_margin_factor=1.0))
    assert wrong_items(before, photo.truth) - flagged(before), "the reader without the wider margin missed it"


def test_a_pale_yellow_fill_in_doubt_for_its_tint_is_not_settled_as_paper():
    """Harsh 14: d3, a pale yellow fill washed grey, in doubt; the printed lines would have settled it as paper,
    wrong and unflagged, had a doubt for its bare tint been settled by them."""
    photo = make_photo(14, "harsh")
    result = read_photo(photo.jpeg)
    assert not wrong_items(result, photo.truth) - flagged(result)
    assert result.quilt.is_covered(2, 3)
