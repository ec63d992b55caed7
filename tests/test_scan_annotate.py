"""The annotated picture carries the reader's notes, so a player who only looks at it still sees the advice."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from doodle.sheet.annotate import NOTE, annotate, sheet_top
from doodle.sheet.scan import SHADOW_NOTE, read_photo
from tests.test_scan_cli import SURE


@pytest.fixture(scope="module")
def result():
    return read_photo(SURE.read_bytes())


def _note_pixels(band: np.ndarray) -> np.ndarray:
    """Where the band shows the notes' colour."""
    return np.abs(band.astype(int) - NOTE).sum(axis=2) < 60


def test_a_photo_without_notes_has_only_the_header_above_the_sheet(result):
    assert result.notes == ()
    picture = annotate(result)
    top = sheet_top(result)
    assert not _note_pixels(picture[:top]).any()
    # the sheet itself lies right below the header
    sheet = result.sheet_image
    assert np.abs(picture[top : top + 40, :40].astype(int) - sheet[:40, :40]).max() <= 2


def test_notes_are_written_above_the_sheet_and_wrapped_to_its_width(result):
    bare = annotate(result)
    short = dataclasses.replace(result, notes=(SHADOW_NOTE,))
    long = dataclasses.replace(result, notes=(SHADOW_NOTE, " ".join([SHADOW_NOTE] * 4)))
    for noted in (short, long):
        picture = annotate(noted)
        top = sheet_top(noted)
        assert picture.shape[0] - bare.shape[0] == top - sheet_top(result) > 0
        assert picture.shape[1] == bare.shape[1]
        ink = _note_pixels(picture[:top])
        assert ink.any()
        columns = np.flatnonzero(ink.any(axis=0))
        assert columns.min() > 0 and columns.max() < picture.shape[1] - 1  # nothing runs off the picture
        # the sheet is unchanged below the notes
        sheet = noted.sheet_image
        assert np.abs(picture[top : top + 40, :40].astype(int) - sheet[:40, :40]).max() <= 2
    # five notes' worth of text takes more lines than one
    assert sheet_top(long) - sheet_top(result) > 3 * (sheet_top(short) - sheet_top(result)) // 2
