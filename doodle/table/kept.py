"""A phone's reading as the table's save keeps it, so that a restart (`doodle table --resume` after a crash or a
closed laptop) gives each phone back the reading it was correcting, with the player's taps, instead of asking for
the photo again.

Kept: what the reader read and doubted, the round scores the table filled in, the cells tapped. Not kept: the
flattened photo (the table never shows it, and a save stays small) and the game's checks, which run again from the
resumed table, so the reading is checked against the game as it stands.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from doodle.game.checks import SheetChecks
from doodle.quilt import SIZE, Quilt, parse_cell_name
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
    """The reading `reading_to_json` wrote, checked again with `checks`; ValueError (or KeyError, TypeError) when
    the data is not such a reading."""
    from doodle.sheet.scan import METHOD_GRID, METHOD_MARKERS, ScanResult  # loads OpenCV: only when one is kept

    if not isinstance(data, dict):
        raise TypeError("a kept reading is an object")
    number = data["round"]
    if not isinstance(number, int) or not 1 <= number <= layout.ROUND_COUNT:
        raise ValueError(f"round {number!r}: rounds are 1 to {layout.ROUND_COUNT}")
    scores = tuple(data["round_scores"])
    if len(scores) != layout.ROUND_COUNT or not all(s is None or isinstance(s, int) for s in scores):
        raise ValueError("the round scores are 3 whole numbers or nulls")
    specials = data["specials_used"]
    if specials is not None:
        specials = tuple(specials)
        for name in specials:
            layout.special_box(name)  # ValueError for a name the sheet has no box for
    if data["method"] not in (METHOD_MARKERS, METHOD_GRID):
        raise ValueError(f"{data['method']!r} is not a way the reader reads")
    result = ScanResult(
        quilt=Quilt.from_rows(data["quilt"]),
        cell_confidence=_grid_of_numbers(data["cell_confidence"]),
        cell_values=_grid_of_numbers(data["cell_values"]),
        threshold=float(data["threshold"]),
        specials_used=specials,
        round_scores=scores,
        uncertain=tuple(Uncertain.from_dict(doubt) for doubt in data["uncertain"]),
        method=data["method"],
        confidence=float(data["confidence"]),
        markers_found=int(data["markers_found"]),
        notes=tuple(str(note) for note in data["notes"]),
        sheet_image=np.zeros((0, 0, 3), np.uint8),  # not kept
        layout=_text_or_none(data.get("layout")),
        sheet_id=_text_or_none(data.get("sheet_id")),
        confirmed=frozenset(str(name) for name in data["confirmed"]),
        rounds_read=bool(data["rounds_read"]),
        round_bubbles=tuple((_digit(tens), _digit(units)) for tens, units in data["round_bubbles"]),
    ).checked(checks)
    filled = frozenset(int(n) for n in data["filled"])
    tapped = frozenset(str(name) for name in data["tapped"])
    for name in tapped:
        parse_cell_name(name)  # ValueError names a cell that is not one
    return Reading(number, result, filled, tapped)


def _grid_of_numbers(rows: Any) -> tuple[tuple[float, ...], ...]:
    grid = tuple(tuple(float(value) for value in row) for row in rows)
    if len(grid) != SIZE or any(len(row) != SIZE for row in grid):
        raise ValueError(f"a grid of values per cell is {SIZE} rows of {SIZE}")
    return grid


def _text_or_none(value: Any) -> str | None:
    if value is not None and not isinstance(value, str):
        raise TypeError(f"{value!r} is not text")
    return value


def _digit(value: Any) -> int | None:
    if value is not None and value not in range(10):
        raise ValueError(f"{value!r} is not a digit")
    return value
