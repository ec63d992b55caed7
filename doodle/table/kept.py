"""A phone's reading as the table's save keeps it, so that a restart (`doodle table --resume` after a crash or a
closed laptop) gives each phone back the reading it was correcting, with the player's taps, instead of asking for
the photo again.

Kept: what the reader read and doubted, the round scores the table filled in, the cells tapped. Not kept: the
flattened photo (the table never shows it, and a save stays small) and the game's checks, which run again from the
resumed table, so the reading is checked against the game as it stands.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from doodle.game.checks import SheetChecks
from doodle.quilt import MAX_ROUND_SCORE, SIZE, Quilt, parse_cell_name
from doodle.sheet import layout
from doodle.sheet.doubts import Uncertain
from doodle.table.photos import Reading


def reading_to_json(reading: Reading) -> dict[str, Any]:
    result = reading.result
    return {
        "round": reading.round,
        "filled": sorted(reading.filled),
        "tapped": sorted(reading.tapped),
        "quilt": result.quilt.rows(),
        "cell_confidence": [[round(value, 3) for value in row] for row in result.cell_confidence],
        "cell_values": [[round(value, 4) for value in row] for row in result.cell_values],
        "threshold": round(result.threshold, 4),
        "specials_used": None if result.specials_used is None else list(result.specials_used),
        "round_scores": list(result.round_scores),
        "rounds_read": result.rounds_read,
        "round_bubbles": [list(pair) for pair in result.round_bubbles],
        "uncertain": [doubt.to_dict() for doubt in result.uncertain],
        "confirmed": sorted(result.confirmed),
        "method": result.method,
        "confidence": round(result.confidence, 3),
        "markers_found": result.markers_found,
        "notes": list(result.notes),
        "layout": result.layout,
        "sheet_id": result.sheet_id,
    }


def reading_from_json(data: Any, checks: SheetChecks) -> Reading:
    """The reading `reading_to_json` wrote, checked again with `checks`; ValueError (saying what is wrong) when the
    data is not such a reading."""
    try:
        return _reading(data, checks)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise ValueError(f"{type(error).__name__}: {error}") from None


def _reading(data: Any, checks: SheetChecks) -> Reading:
    from doodle.sheet.scan import METHOD_GRID, METHOD_MARKERS, ScanResult  # loads OpenCV: only when one is kept

    number = _whole(data["round"], 1, layout.ROUND_COUNT)
    scores = tuple(_score(score) for score in _list(data["round_scores"]))
    bubbles = tuple((_digit(tens), _digit(units)) for tens, units in _list(data["round_bubbles"]))
    if len(scores) != layout.ROUND_COUNT or len(bubbles) not in (0, layout.ROUND_COUNT):
        raise ValueError(f"a reading has {layout.ROUND_COUNT} round scores and their bubbles")
    specials = data["specials_used"]
    if specials is not None:
        specials = tuple(_list(specials))
        for name in specials:
            layout.special_box(name)  # ValueError for a name the sheet has no box for
    if data["method"] not in (METHOD_MARKERS, METHOD_GRID):
        raise ValueError(f"{data['method']!r} is not a way the reader reads")
    tapped = frozenset(_text(name) for name in _list(data["tapped"]))
    for name in tapped:
        parse_cell_name(name)  # ValueError names a cell that is not one
    result = ScanResult(
        quilt=Quilt.from_rows(_list(data["quilt"])),
        cell_confidence=_grid_of_numbers(data["cell_confidence"]),
        cell_values=_grid_of_numbers(data["cell_values"]),
        threshold=_number(data["threshold"]),
        specials_used=specials,
        round_scores=scores,
        uncertain=tuple(Uncertain.from_dict(doubt) for doubt in _list(data["uncertain"])),
        method=data["method"],
        confidence=_number(data["confidence"]),
        markers_found=_whole(data["markers_found"], 0, 4),
        notes=tuple(_text(note) for note in _list(data["notes"])),
        sheet_image=np.zeros((0, 0, 3), np.uint8),  # not kept
        layout=None if data.get("layout") is None else _text(data["layout"]),
        sheet_id=None if data.get("sheet_id") is None else _text(data["sheet_id"]),
        confirmed=frozenset(_text(name) for name in _list(data["confirmed"])),
        rounds_read=data["rounds_read"] is True,
        round_bubbles=bubbles,
    ).checked(checks)
    filled = frozenset(_whole(n, 1, layout.ROUND_COUNT) for n in _list(data["filled"]))
    return Reading(number, result, filled, tapped)


def _grid_of_numbers(rows: Any) -> tuple[tuple[float, ...], ...]:
    grid = tuple(tuple(_number(value) for value in _list(row)) for row in _list(rows))
    if len(grid) != SIZE or any(len(row) != SIZE for row in grid):
        raise ValueError(f"a grid of values per cell is {SIZE} rows of {SIZE}")
    return grid


def _list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise TypeError(f"{value!r} is not a list")
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{value!r} is not text")
    return value


def _whole(value: Any, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"{value!r} is not a whole number from {low} to {high}")
    return value


def _number(value: Any) -> float:
    if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
        raise ValueError(f"{value!r} is not a number")
    return float(value)


def _score(value: Any) -> int | None:
    return None if value is None else _whole(value, 0, MAX_ROUND_SCORE)


def _digit(value: Any) -> int | None:
    return None if value is None else _whole(value, 0, 9)
