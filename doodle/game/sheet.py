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

from dataclasses import dataclass, field
from enum import StrEnum

from doodle.game.dealer import Offer, Phase
from doodle.game.deck import Deck
from doodle.geometry import Cell, Polyomino
from doodle.quilt import PlacementError, Quilt


class Special(StrEnum):
    NEIGHBOUR = "neighbour"
    SINGLE = "single"
    CUT = "cut"
    TWICE = "twice"


REPEATABLE = (Special.NEIGHBOUR, Special.SINGLE, Special.CUT)


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message names the reason."""


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


def action_to_json(action: Action) -> dict:
    if isinstance(action, DrawPatch):
        cells = sorted([r, c] for r, c in action.cells)
        return {"type": "draw", "card": action.card, "cells": cells, "cut": action.cut}
    if isinstance(action, SingleSquare):
        return {"type": "single", "cell": list(action.cell)}
    return {"type": "end"}


def action_from_json(data: dict) -> Action:
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
        raise ValueError(f"malformed action {data!r}: {error}") from None
    raise ValueError(f"unknown action type {data.get('type')!r}: expected draw, single or end")


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
    def twice_used(self) -> bool:
        return any(count >= 2 for count in self.uses.values())

    def can_use(self, special: Special) -> bool:
        if special == Special.TWICE:
            return not self.twice_used
        used = self.uses[special]
        return used == 0 or (used == 1 and not self.twice_used)

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
        elif isinstance(action, EndTurn):
            if offer.phase == Phase.SCORING:
                self.round_scores.append(self.quilt.score_rectangle())
            self.done = True
        else:
            raise IllegalAction(f"unknown action {action!r}")

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
        if needs_neighbour and action.cut and self.uses[Special.NEIGHBOUR] == 1 and self.uses[Special.CUT] == 1:
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
