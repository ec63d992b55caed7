"""One player's score sheet: the quilt, the special actions crossed off, the round scores; it takes actions and
refuses illegal ones with an `IllegalAction` that names the reason.

DECISIONS (doodle-rules.md, made explicit here):
- The start card is drawn whole before the first turn; special actions start with the first turn.
- At most one patch is drawn per turn (the current card, a neighbour's card with Neighbour, or a cut piece with
  Cut; Neighbour and Cut combine). Twice gives one more use of Neighbour, Single square or Cut, on the same turn
  or a later one; only Single square can usefully be repeated within one turn.
- During an intermediate scoring a player may still use Single square before the rectangle is scored.
"""

from __future__ import annotations

import operator
from collections.abc import Collection
from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple

from doodle.game.dealer import Offer, Phase
from doodle.game.deck import Deck
from doodle.game.errors import GameError, RecordError
from doodle.geometry import Cell, Polyomino
from doodle.quilt import PlacementError, Quilt


class Special(StrEnum):
    NEIGHBOUR = "neighbour"
    SINGLE = "single"
    CUT = "cut"
    TWICE = "twice"


REPEATABLE = (Special.NEIGHBOUR, Special.SINGLE, Special.CUT)


class Uses(NamedTuple):
    """How often Neighbour, Single square and Cut have been used. The sheet's rule, in one place: each once, and
    Twice lets one of them be used a second time. A tuple, so bots can keep and compare many of them."""

    neighbour: int = 0
    single: int = 0
    cut: int = 0

    @property
    def twice_used(self) -> bool:
        return any(count >= 2 for count in self)

    def allowed(self) -> bool:
        """True when a sheet can show these uses: none used more than twice, and only one of them twice."""
        return all(0 <= count <= 2 for count in self) and sum(count == 2 for count in self) <= 1

    def spend(self, neighbour: int = 0, single: int = 0, cut: int = 0) -> Uses | None:
        """The uses after spending these specials once more each, or None when the sheet does not allow it."""
        after = Uses(self.neighbour + neighbour, self.single + single, self.cut + cut)
        return after if after.allowed() else None

    def spend_all(self, specials: Collection[Special]) -> Uses | None:
        """The uses after spending each of `specials` (Neighbour, Single square, Cut) once, or None."""
        return self.spend(*(int(special in specials) for special in REPEATABLE))

    def can_use(self, special: Special) -> bool:
        if special == Special.TWICE:
            return not self.twice_used
        return self.spend_all((special,)) is not None


class IllegalAction(GameError):
    """An action the rules do not allow now (or one that is not an action at all); the message names the reason."""


@dataclass(frozen=True)
class DrawPatch:
    """Draw `card` (or, with `cut`, one piece of it after a straight cut) on exactly `cells`."""

    card: str
    cells: frozenset[Cell]
    cut: bool = False


@dataclass(frozen=True)
class SingleSquare:
    cell: Cell


@dataclass(frozen=True)
class EndTurn:
    """Finish this turn (a pass when nothing was drawn), or confirm the intermediate scoring."""


Action = DrawPatch | SingleSquare | EndTurn


def as_cell(value: object) -> Cell:
    """`value` as a (row, col) pair of whole numbers; IllegalAction when it is not one."""
    try:
        row, col = value  # type: ignore[misc]
        if isinstance(row, bool) or isinstance(col, bool):
            raise TypeError
        return operator.index(row), operator.index(col)
    except (TypeError, ValueError):
        raise IllegalAction(f"not a cell: {value!r} (a cell is a pair of whole numbers, row and column)") from None


def checked_action(action: object) -> Action:
    """`action` if it is a well-formed action (with its cells as plain int pairs); IllegalAction says what is wrong
    with anything else, so callers from outside (a web client, a script) get the documented error, never a
    TypeError."""
    if isinstance(action, DrawPatch):
        if not isinstance(action.card, str):
            raise IllegalAction(f"not a card: {action.card!r} (a card is named by its id, a string)")
        if not isinstance(action.cut, bool):
            raise IllegalAction(f"cut must be True or False, not {action.cut!r}")
        if isinstance(action.cells, (str, bytes)) or not isinstance(action.cells, Collection):
            raise IllegalAction(f"not a set of cells: {action.cells!r}")
        return DrawPatch(action.card, frozenset(as_cell(cell) for cell in action.cells), action.cut)
    if isinstance(action, SingleSquare):
        return SingleSquare(as_cell(action.cell))
    if isinstance(action, EndTurn):
        return action
    raise IllegalAction(f"not an action: {action!r} (expected DrawPatch, SingleSquare or EndTurn)")


def action_to_json(action: Action) -> dict:
    if isinstance(action, DrawPatch):
        cells = sorted([r, c] for r, c in action.cells)
        return {"type": "draw", "card": action.card, "cells": cells, "cut": action.cut}
    if isinstance(action, SingleSquare):
        return {"type": "single", "cell": list(action.cell)}
    return {"type": "end"}


def action_from_json(data: dict) -> Action:
    """The action written by `action_to_json`; RecordError says what is malformed."""
    try:
        kind = data["type"]
        if kind == "draw":
            cells = frozenset((int(r), int(c)) for r, c in data["cells"])
            return DrawPatch(str(data["card"]), cells, bool(data.get("cut")))
        if kind == "single":
            row, col = data["cell"]
            return SingleSquare((int(row), int(col)))
        if kind == "end":
            return EndTurn()
    except (KeyError, TypeError, ValueError) as error:
        raise RecordError(f"malformed action {data!r}: {error}") from None
    raise RecordError(f"unknown action type {data.get('type')!r}: expected draw, single or end")


@dataclass
class Sheet:
    start_card: str
    quilt: Quilt = field(default_factory=Quilt)
    uses: dict[Special, int] = field(default_factory=lambda: {s: 0 for s in REPEATABLE})
    round_scores: list[int] = field(default_factory=list)
    start_drawn: bool = False
    drew_this_turn: bool = False
    done: bool = False

    # ----- special actions -----
    @property
    def spent(self) -> Uses:
        """The uses of Neighbour, Single square and Cut so far."""
        return Uses(*(self.uses[special] for special in REPEATABLE))

    @property
    def twice_used(self) -> bool:
        return self.spent.twice_used

    def can_use(self, special: Special) -> bool:
        return self.spent.can_use(special)

    def crossed_off(self) -> list[Special]:
        """The special-action boxes crossed off on the sheet, in printed order."""
        crossed = [s for s in REPEATABLE if self.uses[s]]
        if self.twice_used:
            crossed.append(Special.TWICE)
        return crossed

    def _use(self, special: Special) -> None:
        if not self.can_use(special):
            raise IllegalAction(f"special already used: {special.value} is crossed off (and so is twice)")
        self.uses[special] += 1

    # ----- scores -----
    def total(self) -> int:
        return sum(self.round_scores) - self.quilt.empty_count()

    # ----- taking actions -----
    def needs_start(self) -> bool:
        return not self.start_drawn

    def new_turn(self) -> None:
        self.drew_this_turn = False
        self.done = False

    def apply(self, action: Action, offer: Offer, deck: Deck) -> None:
        """Apply `action` under what the table `offer`s now; IllegalAction says why it is refused."""
        action = checked_action(action)
        if offer.phase == Phase.OVER:
            raise IllegalAction("wrong phase: the game is over")
        if self.done:
            raise IllegalAction("wrong phase: this player has already ended the turn; wait for the others")
        if self.needs_start():
            self._apply_start(action, deck)
        elif isinstance(action, DrawPatch):
            self._draw(action, offer, deck)
        elif isinstance(action, SingleSquare):
            self._single(action.cell)
        else:
            if offer.phase == Phase.SCORING:
                self.round_scores.append(self.quilt.score_rectangle())
            self.done = True

    def _apply_start(self, action: Action, deck: Deck) -> None:
        if not isinstance(action, DrawPatch) or action.card != self.start_card or action.cut:
            raise IllegalAction(f"wrong phase: draw your start card {self.start_card} whole before anything else")
        self._place(deck.card(self.start_card).shape, action.cells, action.card)
        self.start_drawn = True

    def _draw(self, action: DrawPatch, offer: Offer, deck: Deck) -> None:
        if offer.phase == Phase.SCORING:
            raise IllegalAction("wrong phase: no patch is drawn during a scoring (a single square is allowed)")
        if self.drew_this_turn:
            raise IllegalAction("one patch per turn: this player has already drawn a patch this turn")
        needs_neighbour = False
        if offer.phase == Phase.FINAL:
            if action.card not in offer.choices:
                raise IllegalAction(f"not a choice: {action.card} is not one of {', '.join(offer.choices)}")
        elif action.card != offer.current:
            if action.card not in offer.neighbours:
                raise IllegalAction(
                    f"not the current card: {action.card} is neither the current card {offer.current} "
                    f"nor a neighbour ({', '.join(offer.neighbours)})"
                )
            needs_neighbour = True
        shape = deck.card(action.card).shape
        if action.cut:
            if not any(piece.drawable_as(action.cells) for piece in shape.cut_pieces()):
                raise IllegalAction(
                    f"not a cut piece: those cells are not a piece of {action.card} after one straight cut"
                )
        elif not shape.drawable_as(action.cells):
            raise IllegalAction(f"wrong shape: those cells are not card {action.card} in any orientation")
        self._check_fits(action.cells)
        # only now cross off, so that a refused action changes nothing
        for special, wanted in ((Special.NEIGHBOUR, needs_neighbour), (Special.CUT, action.cut)):
            if wanted and not self.can_use(special):
                raise IllegalAction(f"special already used: {special.value} is crossed off (and so is twice)")
        if self.spent.spend(neighbour=needs_neighbour, cut=action.cut) is None:
            raise IllegalAction("special already used: twice can repeat only one of neighbour and cut")
        if needs_neighbour:
            self._use(Special.NEIGHBOUR)
        if action.cut:
            self._use(Special.CUT)
        self.quilt = self.quilt.place(action.cells)
        self.drew_this_turn = True

    def _single(self, cell: Cell) -> None:
        if not self.can_use(Special.SINGLE):
            raise IllegalAction("special already used: single square is crossed off (and so is twice)")
        self._check_fits([cell])
        self._use(Special.SINGLE)
        self.quilt = self.quilt.place([cell])

    def _place(self, shape: Polyomino, cells: frozenset[Cell], card: str) -> None:
        if not shape.drawable_as(cells):
            raise IllegalAction(f"wrong shape: those cells are not card {card} in any orientation")
        self._check_fits(cells)
        self.quilt = self.quilt.place(cells)

    def _check_fits(self, cells) -> None:
        try:
            self.quilt.place(cells)
        except PlacementError as error:
            raise IllegalAction(str(error)) from None
