"""Doubts as data: `Uncertain`'s typed fields and `ScanResult.corrected`, the one call that applies a player's
answers (the CLI's --ask and the web table's tap)."""

from __future__ import annotations

import numpy as np
import pytest

from doodle.game.checks import SheetChecks
from doodle.quilt import Quilt
from doodle.sheet import ScanError, ScanResult, Uncertain, read_photo
from doodle.sheet.scan_errors import ScanError as ScanErrorItself

QUILT = Quilt.from_rows(["####....."] * 4 + ["........."] * 5)  # a 4x4 square: 16


def reading(uncertain=(), rounds=(9, 16, 16), specials=("single",), checks: SheetChecks | None = None) -> ScanResult:
    result = ScanResult(
        quilt=QUILT, cell_confidence=((1.0,) * 9,) * 9, cell_values=((0.0,) * 9,) * 9, threshold=0.1,
        specials_used=specials, round_scores=rounds, uncertain=tuple(uncertain), method="markers", confidence=0.4,
        markers_found=4, notes=(), sheet_image=np.zeros((4, 4, 3), np.uint8),
    )
    return result.checked(checks or SheetChecks())


def test_doubts_carry_what_they_are_about():
    cell = Uncertain.of_cell((3, 2), False, 0.3)
    bubble = Uncertain.of_bubble(2, "tens", 1, True, 0.2)
    special = Uncertain.of_special("cut", True, 0.4)
    assert (cell.kind, cell.cell, cell.name) == ("cell", (3, 2), "c4")
    assert (bubble.round, bubble.place, bubble.digit, bubble.name) == (2, "tens", 1, "round 2 tens 1")
    assert (special.special, special.name) == ("cut", "cut")
    assert cell.to_dict() == {"kind": "cell", "name": "c4", "read": False, "confidence": 0.3, "cell": [3, 2]}
    assert bubble.to_dict()["round"] == 2 and special.to_dict()["special"] == "cut"
    assert Uncertain.of_bubble(1, "units", 0, False, 0.4).digit == 0
    with pytest.raises(TypeError, match="of_cell"):  # the old form, with a name string, is refused
        Uncertain("cell", "c4", True, 0.3)  # type: ignore[arg-type]



@pytest.mark.parametrize("doubt", [
    Uncertain.of_cell((8, 0), True, 0.125), Uncertain.of_cell((0, 4), False, 0.0, "covered in the previous quilt"),
    Uncertain.of_special("twice", False, 0.5), Uncertain.of_bubble(3, "units", 9, True, 0.25),
    Uncertain.of_round(2, False, "round 2 score not read"), Uncertain.of_quilt(frozenset({(1, 1), (2, 7)}), "why"),
])
def test_a_doubt_comes_back_from_its_dict_as_it_was(doubt):
    back = Uncertain.from_dict(doubt.to_dict())
    assert back == doubt and back.where == doubt.where


@pytest.mark.parametrize("data,message", [
    ({"kind": "cell", "read": True, "confidence": 0.5, "cell": [9, 0]}, "not a cell"),
    ({"kind": "cell", "read": "yes", "confidence": 0.5, "cell": [1, 0]}, "true or false"),
    ({"kind": "special", "read": True, "confidence": 0.5, "special": "steal"}, "unknown special"),
    ({"kind": "bubble", "read": True, "confidence": 0.5, "round": 2, "place": "tens", "digit": 10}, "digit 0 to 9"),
    ({"kind": "round", "read": True, "confidence": 0, "round": 4, "reason": "x"}, "rounds are 1 to 3"),
    ({"kind": "quilt", "read": True, "confidence": 0, "cells": ["a1"]}, "says why"),
    ({"kind": "smudge", "read": True, "confidence": 0}, "not a kind of doubt"),
])
def test_a_dict_that_is_not_a_doubt_is_refused_with_what_is_wrong(data, message):
    with pytest.raises(ValueError, match=message):
        Uncertain.from_dict(data)


def test_corrected_applies_each_kind_of_answer_and_keeps_the_rest():
    doubts = [Uncertain.of_cell((0, 4), False, 0.3), Uncertain.of_cell((8, 8), False, 0.2),
              Uncertain.of_special("cut", False, 0.4), Uncertain.of_bubble(1, "units", 9, True, 0.1)]
    scan = reading(doubts)
    assert scan.doubts == tuple(doubts) and scan.total() == 41 - QUILT.empty_count()
    fixed = scan.corrected(cells={(0, 4): True}, specials={"cut": True, "single": False}, rounds={1: 4})
    assert fixed.quilt == QUILT.place([(0, 4)])
    assert fixed.specials_used == ("cut",)
    assert fixed.round_scores == (4, 16, 16) and fixed.total() == 36 - fixed.quilt.empty_count()
    assert fixed.doubts == (doubts[1],)  # only the unanswered cell is left
    assert scan.quilt == QUILT  # the reading itself is unchanged
    with pytest.raises(ValueError, match="round 4"):
        scan.corrected(rounds={4: 1})


def test_round_checks_run_again_on_the_corrected_reading():
    scan = reading(rounds=(9, None, 20))
    assert [(d.kind, d.round) for d in scan.doubts] == [("round", 2), ("round", 3)]
    assert "not read" in scan.doubts[0].reason and "differs from the best rectangle" in scan.doubts[1].reason
    # answering round 2 leaves round 3 (20, the quilt's best rectangle is 16); the player's word settles it
    fixed = scan.corrected(rounds={2: 16})
    assert [d.round for d in fixed.doubts] == [3]
    assert scan.corrected(rounds={2: 16}, confirm=["round 3"]).doubts == ()
    # a cell corrected away makes the best rectangle 4x3 (10): rounds 2 and 3 (16) are in doubt again
    settled = scan.corrected(rounds={2: 16, 3: 16})
    assert settled.doubts == ()
    assert [d.round for d in settled.corrected(cells={(0, 0): False}).doubts] == [2, 3]


def test_checks_against_the_previous_quilt_and_the_scoring_round():
    previous = QUILT.place([(8, 0)])
    scan = reading(rounds=(16, None, None), checks=SheetChecks(scoring_round=1, previous=previous))
    assert [(d.kind, d.name, d.read) for d in scan.doubts] == [("cell", "a9", False)]
    assert scan.corrected(cells={(8, 0): True}).doubts == ()


def test_the_sheet_package_exports_the_reader():
    assert ScanError is ScanErrorItself and callable(read_photo)
