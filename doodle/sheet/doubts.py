"""What is to be checked on a sheet, as data: a mark the reader is unsure of, or what a check of the reading found.

Apart from the photo reader (no OpenCV here), so a typed quilt is checked the same way as a photo's reading.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from doodle.game.checks import ALL_SPECIALS, SheetChecks, lost_cells, quilt_problems, round_score_problems
from doodle.geometry import Cell
from doodle.quilt import SIZE, Quilt, cell_name, parse_cell_name
from doodle.sheet import layout

DoubtKind = Literal["cell", "special", "bubble", "round", "quilt"]


@dataclass(frozen=True)
class Uncertain:
    """Something to check on the sheet: a mark the reader is unsure of (a cell, a special box, a bubble), or what
    a check of the reading found (a round score, the quilt against the previous one or the round's cards).

    The typed fields say what it is about: `cell` (row, col) for a cell, `special` for a box, `round` for a
    bubble (with `place` and `digit`) or a round score, `cells` for the quilt. `reason` is set when a check, not
    the reader's confidence, raised it."""

    kind: DoubtKind
    read: bool  # shaded / crossed / filled as reported; for a round, whether a score was read
    confidence: float  # the reader's, 0-1 (0 for what a check found)
    where: layout.Rect | None = field(default=None, compare=False)  # on the sheet (mm), for the annotated picture
    cell: Cell | None = None
    special: str | None = None
    round: int | None = None
    place: str | None = None
    digit: int | None = None
    cells: frozenset[Cell] = frozenset()
    reason: str | None = None

    def __post_init__(self) -> None:
        # Each kind needs its typed field; this also catches the old form Uncertain(kind, name, read, ...).
        about = {"cell": self.cell, "special": self.special, "bubble": self.digit, "round": self.round,
                 "quilt": self.cells or None}
        if about.get(self.kind) is None or not isinstance(self.read, bool):
            raise TypeError(f"an Uncertain of kind {self.kind!r} needs its typed field: build it with "
                            "Uncertain.of_cell, of_special, of_bubble, of_round or of_quilt")

    @classmethod
    def of_cell(cls, cell: Cell, shaded: bool, confidence: float, reason: str | None = None) -> Uncertain:
        return cls("cell", shaded, confidence, layout.cell_rect(*cell), cell=cell, reason=reason)

    @classmethod
    def of_special(cls, name: str, crossed: bool, confidence: float, reason: str | None = None) -> Uncertain:
        return cls("special", crossed, confidence, layout.special_box(name).check, special=name, reason=reason)

    @classmethod
    def of_bubble(cls, number: int, place: str, digit: int, filled: bool, confidence: float) -> Uncertain:
        where = layout.bubble_rect(number, place, digit)
        return cls("bubble", filled, confidence, where, round=number, place=place, digit=digit)

    @classmethod
    def of_round(cls, number: int, read: bool, reason: str) -> Uncertain:
        return cls("round", read, 0.0, layout.ROUNDS[number - 1].box, round=number, reason=reason)

    @classmethod
    def of_quilt(cls, cells: frozenset[Cell], reason: str) -> Uncertain:
        return cls("quilt", True, 0.0, layout.GRID_RECT, cells=cells, reason=reason)

    @property
    def name(self) -> str:
        """How players call it: "c4", "cut", "round 2 tens 3", "round 2", "quilt"."""
        if self.kind == "cell":
            return cell_name(*self.cell)  # type: ignore[misc]
        if self.kind == "special":
            return str(self.special)
        if self.kind == "bubble":
            return f"round {self.round} {self.place} {self.digit}"
        if self.kind == "round":
            return f"round {self.round}"
        return "quilt"

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "name": self.name, "read": self.read,
                                "confidence": round(self.confidence, 3)}
        if self.cell is not None:
            data["cell"] = list(self.cell)
        data.update((key, value) for key, value in (
            ("special", self.special), ("round", self.round), ("place", self.place), ("digit", self.digit),
            ("reason", self.reason)) if value is not None)
        if self.cells:
            data["cells"] = [cell_name(*cell) for cell in sorted(self.cells)]
        return data

    @classmethod
    def from_dict(cls, data: Any) -> Uncertain:
        """The doubt `to_dict` wrote (its confidence to 3 places); ValueError, TypeError or KeyError (a field
        missing) when it is not one."""
        if not isinstance(data, dict):
            raise TypeError(f"a doubt is an object, not {type(data).__name__}")
        kind, read, confidence, reason = data.get("kind"), data.get("read"), data.get("confidence"), data.get("reason")
        if not isinstance(read, bool) or not isinstance(confidence, int | float) or not 0 <= confidence <= 1:
            raise ValueError("a doubt needs whether it was read (true or false) and a confidence from 0 to 1")
        if reason is not None and not isinstance(reason, str):
            raise TypeError("a doubt's reason is text")
        if kind == "cell":
            row, col = data["cell"]
            if not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < SIZE for v in (row, col)):
                raise ValueError(f"{data['cell']!r} is not a cell of the grid")
            return cls.of_cell((row, col), read, confidence, reason)
        if kind == "special":
            layout.special_box(data["special"])  # ValueError for a name the sheet has no box for
            return cls.of_special(data["special"], read, confidence, reason)
        if kind not in ("quilt", "bubble", "round"):
            raise ValueError(f"{kind!r} is not a kind of doubt this reader writes")
        if kind == "quilt":
            names = data["cells"]
            if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
                raise TypeError("a doubt's cells are a list of names like \"c4\"")
            return cls.of_quilt(frozenset(parse_cell_name(name) for name in names), _why(kind, reason))
        number = data.get("round")
        if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= layout.ROUND_COUNT:
            raise ValueError(f"round {number!r}: rounds are 1 to {layout.ROUND_COUNT}")
        if kind == "round":
            return cls.of_round(number, read, _why(kind, reason))
        place, digit = data.get("place"), data.get("digit")
        if place not in layout.PLACES or isinstance(digit, bool) or digit not in range(10):
            raise ValueError(f"a bubble is tens or units, digit 0 to 9, not {place!r} {digit!r}")
        return cls.of_bubble(number, place, digit, read, confidence)


def _why(kind: str, reason: str | None) -> str:
    if reason is None:
        raise ValueError(f"a doubt about the {kind} says why")
    return reason


def check_reading(
    quilt: Quilt, round_scores: Sequence[int | None], specials_used: Sequence[str] | None, checks: SheetChecks,
    *, unread_because: str | None = None,
) -> tuple[Uncertain, ...]:
    """What the checks (`doodle.game.checks`) find in a reading, as doubts: rounds not read (when the sheet should
    hold them: `unread_because` says why a round score is missing), round scores the sheet does not allow, cells
    lost since the previous quilt, cells the round's cards do not explain."""
    found = []
    if unread_because is not None:
        found += [Uncertain.of_round(number, False, f"round {number} score not read ({unread_because})")
                  for number, score in enumerate(round_scores[: checks.scoring_round], start=1) if score is None]
    found += [Uncertain.of_round(problem.round, True, problem.message)  # type: ignore[arg-type]
              for problem in round_score_problems(round_scores, quilt, checks.scoring_round)]
    if checks.previous is not None:
        lost = lost_cells(checks.previous, quilt)
        found += [Uncertain.of_cell(cell, False, 0.0, "covered in the previous quilt, read empty now")
                  for cell in sorted(lost)]
        if not lost:
            specials = ALL_SPECIALS if specials_used is None else frozenset(specials_used)
            found += [Uncertain.of_quilt(problem.cells, problem.message)
                      for problem in quilt_problems(checks.previous, quilt, checks.cards, specials)]
    return tuple(found)
