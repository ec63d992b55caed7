"""The scores a group gives the dealer: a pad of every player's round scores and empty cells, the running table,
and the doubts a typed score raises (a score no rectangle makes, a quilt that scores less than before)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from doodle.game.checks import round_score_problems
from doodle.quilt import MAX_ROUND_SCORE, SIZE

ROUNDS = 3
EMPTY = "empty"
"""The entry for the empty cells, beside rounds 1 to 3 (`Ann empty 4`)."""


@dataclass
class ScorePad:
    """What is known of each player's sheet: the three round scores and the empty cells, None where unknown."""

    names: list[str]
    rounds: dict[str, list[int | None]] = field(default_factory=dict)
    empty: dict[str, int | None] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in self.names:
            self.rounds.setdefault(name, [None] * ROUNDS)
            self.empty.setdefault(name, None)

    def total(self, name: str) -> int | None:
        scores = self.rounds[name]
        if self.empty[name] is None or any(score is None for score in scores):
            return None
        return sum(scores) - self.empty[name]  # type: ignore[arg-type, operator]

    def missing(self, name: str, scored: int = ROUNDS, final: bool = True) -> list[str]:
        """What is still unknown of `name`'s sheet, among the first `scored` rounds (and the empty cells when
        `final`), e.g. ["round 2", "empty cells"]."""
        gaps = [f"round {number}" for number in range(1, scored + 1) if self.rounds[name][number - 1] is None]
        if final and self.empty[name] is None:
            gaps.append("empty cells")
        return gaps

    def table(self, scored: int, final: bool = False) -> str:
        """Every player's row: the first `scored` rounds, and with `final` the empty cells and the total; '?' is
        what nobody typed yet."""
        heads = [f"round {number}" for number in range(1, scored + 1)] + (["empty", "total"] if final else [])
        width = max(len(name) for name in self.names)
        lines = [" " * (width + 2) + "".join(f"{head:>9}" for head in heads)]
        for name in self.names:
            cells = self.rounds[name][:scored] + ([self.empty[name], self.total(name)] if final else [])
            lines.append(f"  {name:<{width}}" + "".join(f"{_shown(value):>9}" for value in cells))
        return "\n".join(lines)

    def winners(self) -> tuple[list[str], int] | None:
        """The players with the highest total and that total, or None while any total is unknown."""
        totals = {name: self.total(name) for name in self.names}
        if any(total is None for total in totals.values()):
            return None
        best = max(totals.values())  # type: ignore[type-var]
        return [name for name, total in totals.items() if total == best], best  # type: ignore[return-value]

    def doubt(self, name: str, round_number: int, score: int) -> str | None:
        """Why `score` for `name`'s round is likely a slip, or None: what the score sheet's checks
        (doodle.game.checks) find with it that they did not find before, e.g. no rectangle makes it, or a
        later round would score less than an earlier one."""
        scores = self.rounds[name]
        known = round_score_problems(scores)
        typed = [*scores[: round_number - 1], score, *scores[round_number:]]
        found = [problem.message for problem in round_score_problems(typed) if problem not in known]
        return "; ".join(found) or None


@dataclass(frozen=True)
class Entry:
    """A typed correction: `name`'s round (1-3) or EMPTY set to `value` (None: unknown again)."""

    name: str
    slot: int | str
    value: int | None


_ENTRY = re.compile(r"^\s*(?P<who>.+?)\s+(?P<slot>\S+)\s+(?P<value>\S+)\s*$")


def parse_entry(text: str, pad: ScorePad, scored: int, final: bool) -> Entry:
    """`Ann 2 25`, `Ann empty 4`, `2 1 20` (player 2) or `Ann 2 ?` (unknown again); ValueError says what to type.
    Only the rounds scored so far (and the empty cells at the end) can be given."""
    match = _ENTRY.match(text)
    if not match:
        raise ValueError(f"type a player, a round and a score, e.g. '{pad.names[0]} 1 20'")
    who, slot_text, value_text = match["who"], match["slot"].lower(), match["value"]
    name = _player(who, pad.names)
    if slot_text in {"e", EMPTY}:
        if not final:
            raise ValueError("the empty cells are counted at the end of the game")
        return Entry(name, EMPTY, _number(value_text, SIZE * SIZE))
    if not (slot_text.isascii() and slot_text.isdigit()) or not 1 <= int(slot_text) <= scored:
        rounds = "1" if scored == 1 else f"1 to {scored}"
        hint = ", or 'empty' for the empty cells" if final else ""
        raise ValueError(f"{slot_text!r} is not a round scored so far: give round {rounds}{hint}")
    return Entry(name, int(slot_text), _number(value_text, MAX_ROUND_SCORE))


def _player(who: str, names: list[str]) -> str:
    by_name = {name.casefold(): name for name in names}
    if who.casefold() in by_name:
        return by_name[who.casefold()]
    if who.isascii() and who.isdigit() and 1 <= int(who) <= len(names):
        return names[int(who) - 1]
    raise ValueError(f"{who!r} is not playing: give one of {', '.join(names)} (or a player's number, 1 to "
                     f"{len(names)})")


def _number(text: str, high: int) -> int | None:
    if text == "?":
        return None
    number = whole_number(text, 0, high)
    if number is None:
        raise ValueError(f"{text!r} is not a whole number from 0 to {high} (or '?' for unknown)")
    return number


def whole_number(text: str, low: int, high: int) -> int | None:
    """`text` as a whole number in [low, high] written in ASCII digits, else None (a superscript ² or 5000 digits
    are not numbers here)."""
    digits = text.removeprefix("-")
    if not (digits.isascii() and digits.isdigit()) or len(digits) > max(len(str(low)), len(str(high))):
        return None
    return int(text) if low <= int(text) <= high else None


def _shown(value: int | None) -> str:
    return "?" if value is None else str(value)
