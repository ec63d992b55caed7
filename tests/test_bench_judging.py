"""How benchmarks/bench_scan.py judges a reading against the truth: the figures in the README stand on it.

What the reader says it did not read is neither right nor wrong; what a player is asked to check (the reader's
doubts and the checks') is flagged; anything else read wrong is wrong and unflagged."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks import bench_scan
from doodle.game.checks import SheetChecks
from doodle.quilt import Quilt
from doodle.sheet.doubts import Uncertain
from doodle.sheet.scan import METHOD_GRID, METHOD_MARKERS, ScanResult
from tests.photogen import Truth

QUILT = Quilt.from_text("\n".join(["###......"] * 3 + ["........."] * 6))
TRUTH = Truth(QUILT, ("single", "cut"), (9, 9, None))


def _result(**changes) -> ScanResult:
    base = dict(quilt=QUILT, cell_confidence=((1.0,) * 9,) * 9, cell_values=((0.0,) * 9,) * 9, threshold=0.1,
                specials_used=("single", "cut"), round_scores=(9, 9, None), uncertain=(), method=METHOD_MARKERS,
                confidence=1.0, markers_found=4, notes=(), sheet_image=np.zeros((2, 2, 3), np.uint8))
    base.update(changes)
    # With the checks of a finished game: a round without a score is a problem to check.
    return ScanResult(**base).checked(SheetChecks())


def _judge(monkeypatch: pytest.MonkeyPatch, result: ScanResult) -> bench_scan.Outcome:
    monkeypatch.setattr(bench_scan, "reader", lambda: (lambda _jpeg: result, ValueError))
    return bench_scan.read_and_judge(b"", TRUTH, bench_scan.Outcome(0))


def test_boxes_and_rounds_not_read_are_counted_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """The markerless grid reads no boxes and no bubbles, and says so: not wrong, not exact either."""
    outcome = _judge(monkeypatch, _result(specials_used=None, round_scores=(None,) * 3, method=METHOD_GRID,
                                          rounds_read=False))
    assert outcome.unflagged == []
    assert sorted(outcome.not_read) == sorted(["neighbour", "single", "cut", "twice", "round 1", "round 2",
                                               "round 3"])
    assert not outcome.exact
    assert bench_scan.not_read_counts([outcome]) == {"specials": 4, "rounds": 3}


def test_a_round_read_empty_is_wrong_unless_a_doubt_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A round whose bubbles were read as empty while the sheet has a score was read wrong: flagged only when
    something the player is asked to check names it (here the checks of a finished game do)."""
    outcome = _judge(monkeypatch, _result(round_scores=(9, None, None)))
    assert outcome.not_read == []
    assert outcome.unflagged == []  # the check "round 2 score not read (no bubble filled in)" names it
    assert outcome.rounds_right == 2 and not outcome.exact
    unchecked = _judge(monkeypatch, _result(round_scores=(9, None, None)).checked(SheetChecks(scoring_round=1)))
    assert unchecked.unflagged == ["round 2"]


def test_a_doubt_about_the_whole_quilt_flags_its_cells(monkeypatch: pytest.MonkeyPatch) -> None:
    turned = Quilt.from_text("\n".join(["......###"] * 3 + ["........."] * 6))
    every = frozenset((r, c) for r in range(9) for c in range(9))
    outcome = _judge(monkeypatch, _result(quilt=turned, uncertain=(Uncertain.of_quilt(every, "way up unknown"),)))
    assert outcome.wrong and outcome.unflagged == []
    alone = _judge(monkeypatch, _result(quilt=turned))
    assert len(alone.unflagged) == 18
